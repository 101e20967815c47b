import ArgumentParser
import FoundationEssentials
import PlumDaemonConfig
import PlumHistory
import PlumSettings
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale history`: what plumscale-web recorded, as CSV or JSON, read straight from its
/// store (read-only, so it works while the service writes and while it is stopped).
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print the recorded history (minute summaries, stable readings, items, sessions) as CSV or JSON.",
        discussion: """
            plumscale-web records the history; this reads the same SQLite file, found from \
            [web] history in the configuration, else /var/lib/plumscale-web/history.sqlite. \
            Times: a span back from now (30m, 12h, 7d), seconds since the epoch, or ISO 8601 UTC. \
            plumscale-web writes placements, items and sessions within [web] \
            history_commit_seconds (90 s unless set) and summaries within 15 minutes, to spare the \
            SD card; the newest may not be in the file yet (the page's /api/history has them).

            Exit codes: 0 printed; 1 configuration error or no history file; 64 usage error.
            """)

    @Option(help: ArgumentHelp("From this time (default: 1d ago).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Up to this time (default: now).", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("Only this pan.", valueName: "name"))
    var sensor: String?

    @Flag(help: "CSV (the default).")
    var csv = false

    @Flag(help: "JSON instead of CSV.")
    var json = false

    @Flag(help: "The stable readings instead of the per-minute summaries (as --series stable).")
    var stable = false

    @Option(
        help: ArgumentHelp(
            "Which series: minutes (the default), stable, items (each fruit placed or removed) or sessions.",
            valueName: "series"))
    var series: String?

    @Option(help: ArgumentHelp("The configuration file whose [web] history names the store.", valueName: "file"))
    var config: String = "/etc/plumscale/plumscale.toml"

    @Option(help: ArgumentHelp("The history file itself (overrides the configuration).", valueName: "path"))
    var database: String?

    func validate() throws {
        if csv && json { throw ValidationError("--csv and --json: choose one.") }
        if let series, HistoryExport.Series(rawValue: series) == nil {
            let allowed = HistoryExport.Series.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--series \(series) is not known; use one of \(allowed).")
        }
        if stable, let series, series != "stable" {
            throw ValidationError("--stable and --series \(series): choose one.")
        }
    }

    func run() throws {
        do {
            let path = try database ?? storePath()
            let store = try HistoryStore(path: path, readOnly: true)
            let window = try HistoryWindow.parse(
                since: since, until: until, now: Date().timeIntervalSince1970)
            let name = sensor.flatMap { $0.isEmpty ? nil : $0 }
            switch stable ? .stable : series.flatMap(HistoryExport.Series.init) ?? .minutes {
            case .minutes:
                let rows = try store.minutes(sensor: name, in: window)
                print(json ? HistoryExport.json(rows) : HistoryExport.csv(rows), terminator: "")
            case .stable:
                let rows = try store.stableReadings(sensor: name, in: window)
                print(json ? HistoryExport.json(rows) : HistoryExport.csv(rows), terminator: "")
            case .items:
                let rows = try store.items(sensor: name, in: window)
                print(json ? HistoryExport.json(rows) : HistoryExport.csv(rows), terminator: "")
            case .sessions:
                let rows = try store.sessions(sensor: name, in: window)
                print(json ? HistoryExport.json(rows) : HistoryExport.csv(rows), terminator: "")
            }
        } catch let error as HistoryError {
            Self.complain(error.message)
            throw ExitCode(1)
        } catch let error as ConfigurationError {
            Self.complain("\(error)")
            throw ExitCode(1)
        }
    }

    /// One line on standard error.
    private static func complain(_ message: String) {
        let line = "plumscale history: \(message)\n"
        Syscalls.writeStandardError(line)
    }

    private func storePath() throws -> String { try Self.storePath(config: config) }

    /// The store named by `[web] history` in `config`, else the default; `plumscale status`
    /// reads the same file.
    static func storePath(config: String) throws -> String {
        guard Syscalls.exists(config) else { return HistoryStore.defaultPath }
        return try WebSettings.load(path: config).historyPath ?? HistoryStore.defaultPath
    }
}
