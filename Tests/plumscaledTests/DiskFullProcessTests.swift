import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// A full disk as a user meets it: a real plumscaled whose state directory is a 512 KiB tmpfs,
/// filled up while it runs, then given its space back. Needs root to mount the tmpfs; without
/// it the suite is reported as skipped with the reason.
@Suite(
    "A full state directory: clear refusals, the saved files whole, one log line, back by itself",
    .tags(.process), .timeLimit(.minutes(4)), .ownThreads,
    .enabled(if: SmallFileSystem.unavailable == nil, Comment(rawValue: SmallFileSystem.unavailable ?? "")))
struct DiskFullProcessTests {
    /// The plum put on the pan while the disk is full, in grams.
    static let plum = 60.0

    /// `ask` again while the pan has not settled (`notStable`), then its answer.
    static func settled(_ what: String, _ daemon: DaemonFixture, _ ask: () throws -> CommandReply) throws
        -> CommandReply
    {
        var reply: CommandReply?
        try waitUntil(
            "the daemon to answer \(what) on a stable load", timeout: .seconds(20), interval: .milliseconds(50),
            describe: { "\(String(describing: reply)); log: \(daemon.log)" }
        ) {
            reply = try ask()
            return reply?.reason != "notStable"
        }
        return try #require(reply)
    }

    /// The daemon's lines saying a save failed: one per full disk, however many saves fail.
    static func failureLines(_ daemon: DaemonFixture) -> [Substring] {
        daemon.log.split(separator: "\n").filter { $0.contains(" not saved: ") }
    }

    static func stateFiles(_ directory: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.file("state"))) ?? []).sorted()
    }

    /// The tare the zero-and-tare file holds, read apart from the daemon.
    static func savedTare(_ path: String) throws -> Double {
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let payload = (file as? [String: Any])?["payload"] as? [String: Any]
        return try #require(payload?["tare"] as? Double, "a tare in \(path)")
    }

    @Test("zero, tare and a count on a full disk say so and what to do; readings go on; space back, tare works")
    func fullThenFreed() async throws { try await offPool { try Self.fullThenFreedScenario() } }

    /// The whole scenario on a thread of its own: the client is used throughout, blocking.
    static func fullThenFreedScenario() throws {
        let directory = try TemporaryDirectory(prefix: "plumfull")
        let disk = try SmallFileSystem(at: directory.file("state"))
        let stateFile = directory.file("state/pan-gain128.zero-tare.json")
        try ZeroTareRestartTests.place(0, directory)
        let daemon = try DaemonFixture(
            configuration: ZeroTareRestartTests.configuration(directory), directory: directory)
        let client = try daemon.client()
        let saved: Data = try {
            try client.watch()
            _ = try ZeroTareRestartTests.stable(client) { abs($0.grams ?? .nan) < 0.5 }
            let zeroed = try Self.settled("ZERO", daemon) { try client.zero(sensor: "pan") }
            #expect(zeroed.ok, "a zero while there is space is saved: \(zeroed)")
            try waitUntil("the state file", timeout: .seconds(5), describe: { "\(Self.stateFiles(directory))" }) {
                FileManager.default.fileExists(atPath: stateFile)
            }
            return try Data(contentsOf: URL(fileURLWithPath: stateFile))
        }()
        let filled = try disk.fill()
        #expect(disk.freeBytes == 0, "the filler took every block: \(filled) bytes, \(disk.freeBytes) free")
        let state = directory.file("state")

        do {
            let zero = try Self.settled("ZERO", daemon) { try client.zero(sensor: "pan") }
            #expect(!zero.ok && zero.reason == "notSaved", "\(zero)")
            let message = zero.message ?? ""
            #expect(
                message.hasPrefix("zero not done: it could not be saved: \(stateFile): ")
                    && message.contains("No space left on device (ENOSPC)")
                    && message.contains("the file system holding \(state) is full: free some space there")
                    && message.hasSuffix("then zero again"),
                "the refusal names the full disk and what to do: \(message)")

            try ZeroTareRestartTests.place(Self.plum, directory)
            _ = try ZeroTareRestartTests.stable(client) { abs(($0.grams ?? .nan) - Self.plum) < 1 }
            let tare = try Self.settled("TARE", daemon) { try client.tare(sensor: "pan") }
            #expect(!tare.ok && tare.reason == "notSaved" && tare.tare == nil, "\(tare)")
            #expect(tare.message?.hasSuffix("then tare again") == true, "\(tare)")
            // The tare was put back: the scale shows nothing a restart would lose.
            let after = try ZeroTareRestartTests.stable(client, after: Date().timeIntervalSince1970)
            #expect(after.tare == 0 && abs((after.grams ?? .nan) - Self.plum) < 1, "still untared: \(after)")

            var count: CountReply?
            try waitUntil("a count reference", timeout: .seconds(20), interval: .milliseconds(50)) {
                count = try client.count(sensor: "pan", pieces: 6)
                return count?.reason != "notStable"
            }
            // A count is used at once and held until the daemon stops (docs/items.md); the reply
            // says it is not saved and why.
            #expect(count?.ok == true, "\(String(describing: count))")
            let counted = count?.message ?? ""
            #expect(
                counted.contains("not saved to disk") && counted.contains("No space left on device (ENOSPC)")
                    && counted.contains("free some space there"), "\(counted)")

            #expect(try Data(contentsOf: URL(fileURLWithPath: stateFile)) == saved, "the saved zero is whole")
            #expect(
                Self.stateFiles(directory).allSatisfy { !$0.hasSuffix(".tmp") },
                "no temporary file cut short is left to hold blocks: \(Self.stateFiles(directory))")

            let other = try daemon.client()
            try other.watch()
            let served = try other.nextWeight(within: .seconds(5)) { $0.sensor == "pan" && $0.grams != nil }
            #expect(abs((served.grams ?? .nan) - Self.plum) < 1, "another client is served: \(served)")

            try waitUntil("the full disk logged", timeout: .seconds(5), describe: { daemon.log }) {
                !Self.failureLines(daemon).isEmpty
            }
            let lines = Self.failureLines(daemon)
            #expect(lines.count == 1, "one line for three failed saves: \(lines)")
            #expect(
                lines.first?.contains("No space left on device (ENOSPC)") == true
                    && lines.first?.contains("a restart loses them") == true, "\(lines)")

            let status = try #require(try DaemonRunsProcessTests.daemonStatus(daemon).daemon)
            let problem = status.stateSaveError ?? ""
            #expect(
                problem.hasPrefix("pan: zero and tare not saved since ") && problem.contains(" failed): writing ")
                    && problem.contains("free some space there"), "?DEVICES says the saves fail: \(status)")
            #expect(status.stateFreeBytes == 0 && status.isStateSpaceLow, "\(status)")
        }
        let run: ChildProcess = try ChildProcess.run(
            BuiltProducts.plumscale, ["status", "--database", directory.file("no-history.sqlite")],
            environment: ["PLUMSCALE_SOCKET": daemon.socketPath])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("\nwarning: the daemon cannot save its state: pan: zero and tare not saved since "),
            "plumscale status warns: \(run.stdout)")

        try disk.removeFiller()
        do {
            let tare = try Self.settled("TARE", daemon) { try client.tare(sensor: "pan") }
            #expect(tare.ok && abs((tare.tare ?? 0) - Self.plum) < 1, "with space back the tare works: \(tare)")
            #expect(abs(try Self.savedTare(stateFile) - Self.plum) < 1, "and is saved")
            try waitUntil("the recovery logged", timeout: .seconds(5), describe: { daemon.log }) {
                daemon.log.contains("pan: zero and tare saved: the state directory takes saves again (")
            }
            #expect(try DaemonRunsProcessTests.daemonStatus(daemon).daemon?.stateSaveError == nil)
            #expect(daemon.terminate() == 0, "a clean stop: \(daemon.log)")
        }
    }
}
