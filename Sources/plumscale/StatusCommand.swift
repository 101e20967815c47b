import ArgumentParser
import PlumClient
import PlumCore
import PlumHistory
import PlumProtocol

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
            try connection.request(.devices) { if case .devices(let report) = $0 { report } else { nil } }
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
        for device in report.devices { print(Self.describe(device)) }
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
        guard access(path, F_OK) == 0 else {
            return "  history      none at \(path) (plumscale-web records it; --database names another file)"
        }
        do throws(HistoryError) {
            return StatusText.history(path: path, try HistoryStore(path: path, readOnly: true).summary())
        } catch {
            return "  history      \(error.message)"
        }
    }

    /// A few indented lines about one sensor.
    static func describe(_ device: DevicesReport.Device) -> String {
        var lines = ["", "\(device.sensor) (\(device.kind)): \(device.state)\(device.reason.map { ": \($0)" } ?? "")"]
        if !device.wiring.isEmpty { lines.append("  wiring       \(device.wiring)") }
        if let profile = device.profile { lines.append("  profile      \(profile)") }
        let nominal = device.nominalRate > 0 ? " of \(FixedPoint.text(device.nominalRate, decimals: 1))" : ""
        lines.append(
            "  rate         \(FixedPoint.text(device.rate, decimals: 1))\(nominal) samples/s, \(device.published) "
                + "published"
        )
        let discarded = device.discarded.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        lines.append(
            "  discarded    "
                + (discarded.isEmpty
                    ? "none" : discarded.map { "\($0.value) \($0.key.replacingUnderscores)" }.joined(separator: ", ")))
        if device.notReady > 0 || device.faults > 0 {
            lines.append("  not ready    \(device.notReady) times, \(device.faults) faults")
        }
        if let fault = device.lastFault {
            lines.append("  last fault   \(fault)\(device.lastFaultTime.map { ", at \($0)" } ?? "")")
        }
        if device.calibrated {
            lines.append("  calibrated   \(device.calibrationDate ?? "?"), \(device.calibrationQuality ?? "")")
        } else {
            lines.append("  calibration  none: \(device.calibrationReason ?? "not calibrated")")
        }
        if let restore = device.restore {
            lines.append("  zero, tare   \(restore)\(device.restoreReason.map { ": \($0)" } ?? "")")
        }
        for notice in device.notices { lines.append("  note         \(notice)") }
        return lines.joined(separator: "\n")
    }
}

extension String {
    var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
