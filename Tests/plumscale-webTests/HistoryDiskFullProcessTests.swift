import Foundation
import PlumClient
import PlumHistory
import PlumTestSupport
import PlumTestThreads
import PlumWeb
import Testing

/// plumscale-web's history on a file system that fills up while plums are weighed: a real
/// plumscaled with one simulated pan, a real plumscale-web whose state directory (and so its
/// SQLite file) is a 1 MiB tmpfs, filled with a filler file and then given its space back.
/// Needs root to mount the tmpfs; without it the test is reported as skipped with the reason.
@Suite("The web's history on a full disk", .timeLimit(.minutes(4)), .ownThreads)
struct HistoryDiskFullProcessTests {
    /// Placements while there is room, and while the disk is full: 25 g apart, so each is one
    /// row of its own (a move of 10 divisions or more is a new placement, docs/web.md).
    static let before = [30.0, 55, 80]
    static let whileFull = [105.0, 130, 155, 180]

    static func configuration(_ directory: TemporaryDirectory) -> String {
        """
        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        seed = 5
        rate = 80
        load_file = "\(directory.file("pan.grams"))"
        """
    }

    /// Puts `grams` on the pan and returns once the daemon has called it stable for a second,
    /// so plumscale-web, watching the same reports, has recorded it.
    static func place(_ grams: Double, _ directory: TemporaryDirectory, _ client: DaemonClient) throws {
        try directory.write("pan.grams", "\(grams)\n")
        let settled = try client.nextWeight(within: .seconds(30)) {
            $0.stable && abs(($0.grams ?? .nan) - grams) < 0.5
        }
        _ = try client.nextWeight(within: .seconds(10)) { $0.stable && $0.time > settled.time + 1 }
    }

    /// The stable rows of the history within 0.5 g of each load, read apart from the service.
    static func rows(_ path: String, of loads: [Double]) throws -> [Double: Int] {
        let rows = try HistoryStore(path: path, readOnly: true)
            .stableReadings(sensor: nil, in: HistoryWindow(since: 0, until: 4_000_000_000))
        return Dictionary(
            uniqueKeysWithValues: loads.map { load in (load, rows.filter { abs($0.grams - load) < 0.5 }.count) })
    }

    static func status(_ port: Int) throws -> String {
        let result: ChildProcess = try ChildProcess.run(
            "curl", ["-sS", "--max-time", "20", "http://127.0.0.1:\(port)/api/status"])
        guard result.status == 0 else { throw FixtureError("curl /api/status: \(result.stderr)") }
        return result.stdout
    }

    @Test(
        "placements made while the history's disk is full are all stored once when space returns, the file sound",
        .enabled(if: SmallFileSystem.unavailable == nil, Comment(rawValue: SmallFileSystem.unavailable ?? "")))
    func fullThenFreed() async throws { try await offPool { try Self.fullThenFreedScenario() } }

    /// The whole scenario on a thread of its own: the client is used throughout, blocking.
    static func fullThenFreedScenario() throws {
        let directory = try TemporaryDirectory(prefix: "plumwebfull")
        let disk = try SmallFileSystem(at: directory.file("web"), kilobytes: 1024)
        let history = disk.path + "/history.sqlite"
        try directory.write("pan.grams", "0\n")
        let daemon = try DaemonFixture(configuration: Self.configuration(directory), directory: directory)
        let port = try freeTCPPort()
        let passwords = try directory.write("web-password", PasswordFile.makeHash("plum", cost: 4) + "\n")
        let config = try directory.write(
            "web.toml",
            "[web]\nlisten = \"127.0.0.1:\(port)\"\nauth_file = \"\(passwords)\"\nhistory_commit_seconds = 2\n")
        let web = try BackgroundProcess(
            BuiltProducts.folder + "/plumscale-web",
            ["--config", config, "--socket", daemon.socketPath, "--state-directory", disk.path])
        defer { kill(web.pid, SIGTERM) }
        try web.waitForOutput("plumscale-web on http://127.0.0.1:\(port)")
        let client = try daemon.client()

        do {
            try client.watch()
            for load in Self.before { try Self.place(load, directory, client) }
            try waitUntil("the first placements stored", timeout: .seconds(20), describe: { web.stderr }) {
                (try? Self.rows(history, of: Self.before).values.allSatisfy { $0 == 1 }) == true
            }
            try disk.fill()
            for load in Self.whileFull { try Self.place(load, directory, client) }
            try waitUntil("the failed write logged", timeout: .seconds(20), describe: { web.stderr }) {
                web.stderr.contains("history not written: ")
            }
        }
        let full = try Self.status(port)
        #expect(
            full.contains(#""history_write_error":"writing the history in \#(history): database or disk is full"#)
                && full.contains("free some space there") && full.contains("the history cannot be written ("),
            "/api/status names the failed writes and what to do: \(full)")
        let lines = web.stderr.split(separator: "\n").filter { $0.contains("history not written: ") }
        #expect(lines.count == 1, "one line however many writes fail: \(lines)")
        #expect(lines.first?.contains("tried every 2 s") == true, "the retry follows history_commit_seconds: \(lines)")

        try disk.removeFiller()
        let all = Self.before + Self.whileFull
        do {
            var seen: [Double: Int] = [:]
            try waitUntil("every placement stored", timeout: .seconds(20), describe: { "\(seen); \(web.stderr)" }) {
                seen = (try? Self.rows(history, of: all)) ?? [:]
                return seen.count == all.count && seen.values.allSatisfy { $0 >= 1 }
            }
            #expect(seen.values.allSatisfy { $0 == 1 }, "each placement once, none doubled: \(seen)")
            #expect(
                web.stderr.contains("history written again: "), "the recovery is logged: \(web.stderr)")
        }
        let back = try Self.status(port)
        #expect(!back.contains("history_write_error"), "the warning is gone once writes work: \(back)")
        #expect(web.stop() == 0, "a clean stop: \(web.stderr)")
        #expect(try HistoryStore(path: history, readOnly: true).integrityCheck() == "ok")
        #expect(try Self.rows(history, of: all).values.allSatisfy { $0 == 1 }, "after the stop's flush too")
        _ = daemon.terminate()
    }
}
