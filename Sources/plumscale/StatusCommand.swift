import ArgumentParser
import PlumClient
import PlumConsole
import PlumCore
import PlumHistory
import PlumProtocol
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale status`: what the daemon is, and how each sensor is doing.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract:
            "Show the daemon's version, uptime, restarts and free space, the history's size, and each sensor's "
            + "state, rate, discards, calibration and last fault.",
        aliases: ["devices"])

    @OptionGroup var client: ClientOptions

    @Flag(help: "Print the daemon's DEVICES report as one JSON line.")
    var json = false

    @Option(help: ArgumentHelp("The configuration file whose [web] history names the store.", valueName: "file"))
    var config: String = "/etc/plumscale/plumscale.toml"

    @Option(help: ArgumentHelp("The history file itself (overrides the configuration).", valueName: "path"))
    var database: String?

    func run() throws {
        let connection = try client.connect()
        if json {
            let line = try CommandError.exitOnFailure {
                try connection.send(.devices)
                while let received = try connection.receive(timeout: .seconds(5)) {
                    if case .devices = received.report { return received.line }
                }
                throw CommandError(.daemon, "plumscaled at \(connection.socketPath) did not answer ?DEVICES within 5 s")
            }
            print(line)
            return
        }
        let report = try CommandError.exitOnFailure {
            try connection.devicesReport()
        }
        let version = connection.version
        print(
            "plumscaled \(version.release) at \(connection.socketPath), protocol "
                + "\(version.protoMajor).\(version.protoMinor)"
        )
        for line in StatusText.daemon(report.daemon, uptime: report.uptime) { print(line) }
        for line in StatusText.services(report.clients) { print(line) }
        print(historyLine())
        if let warning = StatusText.spaceWarning(report.daemon) { print(warning) }
        if let warning = StatusText.saveWarning(report.daemon) { print(warning) }
        for device in report.devices { print(DeviceText.describe(device)) }
    }

    /// The history's size and oldest row, read from plumscale-web's file directly (read-only,
    /// as `plumscale history` does), so it is shown whether the web service runs or not.
    func historyLine() -> String {
        let path: String
        do {
            path = try database ?? HistoryCommand.storePath(config: config)
        } catch {
            return "  history      unknown: \(error)"
        }
        guard Syscalls.exists(path) else {
            return "  history      none at \(path) (plumscale-web records it; --database names another file)"
        }
        do throws(HistoryError) {
            return StatusText.history(path: path, try HistoryStore(path: path, readOnly: true).summary())
        } catch {
            return "  history      \(error.message)"
        }
    }
}
