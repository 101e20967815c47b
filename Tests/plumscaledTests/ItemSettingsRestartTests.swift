import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// The piece-count reference and the check-weighing limits over a power cut: a real
/// `plumscaled` counts 5 g pieces and checks against 50 g, is killed with SIGKILL and started
/// again on the same state directory, and its `WEIGHT` and `?POLL` reports go on counting and
/// checking, after a reload too; once cleared, they stay cleared over the next restart.
@Suite(
    "Count reference and check limits kept over a kill -9 of a real plumscaled", .tags(.process),
    .timeLimit(.minutes(4)), .ownThreads)
struct ItemSettingsRestartTests {
    typealias Pan = ZeroTareRestartTests

    /// Starts a daemon on `directory` and a watching client.
    static func start(_ directory: TemporaryDirectory) throws -> (DaemonFixture, DaemonClient) {
        let daemon = try DaemonFixture(configuration: Pan.configuration(directory), directory: directory)
        let client = try daemon.client()
        try client.watch()
        return (daemon, client)
    }

    /// Starts a daemon on the empty pan, as its power-up zero needs, then puts `grams` on it
    /// and waits for them to read stable.
    static func startLoaded(_ directory: TemporaryDirectory, grams: Double) throws -> (DaemonFixture, DaemonClient) {
        try Pan.place(0, directory)
        let (daemon, client) = try start(directory)
        _ = try Pan.stable(client) { abs($0.grams ?? .nan) < 0.5 }
        try Pan.place(grams, directory)
        _ = try Pan.stable(client) { abs(($0.grams ?? .nan) - grams) < 0.5 }
        return (daemon, client)
    }

    /// A `?COUNT` of `pieces` on the pan, asked until the load is stable.
    static func reference(_ client: DaemonClient, pieces: Int, optimize: Bool? = nil) throws -> CountReply? {
        var counted: CountReply?
        try waitUntil(
            "a stable reference of \(pieces) pieces", timeout: .seconds(20), interval: .milliseconds(50),
            describe: { "\(String(describing: counted))" }
        ) {
            counted = try client.count(sensor: "pan", pieces: pieces, optimize: optimize)
            return counted?.ok == true
        }
        return counted
    }

    /// The pan's entry in a `?POLL` once it has one that `matches`.
    static func polled(_ client: DaemonClient, _ matches: @escaping (WeightReport) -> Bool) throws -> WeightReport {
        var last: WeightReport?
        try waitUntil(
            "?POLL to report the pan as expected", timeout: .seconds(20), describe: { "\(String(describing: last))" }
        ) {
            last = try client.poll().weights.first { $0.sensor == "pan" }
            return last.map(matches) ?? false
        }
        return try #require(last)
    }

    @Test("10 pieces of 5 g and 50 g ± 1 g: counted and checked again after kill -9 and SIGHUP; cleared stays cleared")
    func keptOverPowerCut() async throws {
        let directory = try TemporaryDirectory(prefix: "plumitems")
        let settings = directory.file("state/runtime-settings.json")
        try await offPool {
            let (daemon, client) = try Self.startLoaded(directory, grams: 50)
            let counted = try Self.reference(client, pieces: 10)
            #expect(abs((counted?.unit ?? .nan) - 5) < 0.05, "\(String(describing: counted))")
            let checked = try client.check(sensor: "pan", target: 50, minus: 1, plus: 1)
            #expect(checked.ok, "\(checked.message)")
            let before = try Pan.stable(client) { $0.count != nil && $0.check != nil }
            #expect(before.count == 10 && before.check == "ok", "\(before)")
            let text = try String(contentsOfFile: settings, encoding: .utf8)
            #expect(text.contains("\"counts\"") && text.contains("\"checks\""), "saved before the reply: \(text)")
            Pan.powerCut(daemon)
        }
        try await offPool {
            let (daemon, client) = try Self.start(directory)
            try waitUntil("the restore to be logged", timeout: .seconds(20), describe: { daemon.log }) {
                daemon.log.contains("pan: counting restored: 10 pieces")
                    && daemon.log.contains("pan: check-weighing restored")
            }
            let after = try Pan.stable(client) { abs(($0.grams ?? .nan) - 50) < 0.5 }
            #expect(after.count == 10 && after.check == "ok", "the first stable report counts and checks: \(after)")
            let polled = try Self.polled(client) { $0.stable }
            #expect(polled.count == 10 && polled.check == "ok", "?POLL carries both: \(polled)")
            daemon.send(SIGHUP)
            try waitUntil("the reload to be logged", timeout: .seconds(20), describe: { daemon.log }) {
                daemon.log.contains("reloaded:")
            }
            let reloaded = try Pan.stable(client, after: polled.time)
            #expect(reloaded.count == 10 && reloaded.check == "ok", "a reload keeps both: \(reloaded)")
            try Pan.place(60, directory)
            let heavier = try Pan.stable(client) { abs(($0.grams ?? .nan) - 60) < 0.5 }
            #expect(heavier.count == 12 && heavier.check == "over", "\(heavier)")

            #expect(try client.count(sensor: "pan", pieces: nil).ok)
            #expect(try client.check(sensor: "pan", target: nil).ok)
            let text = try String(contentsOfFile: settings, encoding: .utf8)
            #expect(!text.contains("\"counts\"") && !text.contains("\"checks\""), "cleared in the file: \(text)")
            #expect(daemon.terminate() == 0)
        }
        try await offPool {
            let (daemon, client) = try Self.start(directory)
            let cleared = try Pan.stable(client) { abs(($0.grams ?? .nan) - 60) < 0.5 }
            #expect(cleared.count == nil && cleared.countRatio == nil && cleared.check == nil, "\(cleared)")
            #expect(!daemon.log.contains("restored: 10 pieces"), "\(daemon.log)")
            #expect(daemon.terminate() == 0)
        }
    }

    @Test(
        "an optimised count reference is saved as it updates: after kill -9 it counts on from 12 pieces, still optimising"
    )
    func optimisedReferenceKeptOverPowerCut() async throws {
        let directory = try TemporaryDirectory(prefix: "plumcount")
        let settings = directory.file("state/runtime-settings.json")
        try await offPool {
            let (daemon, client) = try Self.startLoaded(directory, grams: 25)
            _ = try Self.reference(client, pieces: 5, optimize: true)
            try Pan.place(60, directory)
            try waitUntil("the reference updated to 12 pieces", timeout: .seconds(20), describe: { daemon.log }) {
                daemon.log.contains("pan: count reference updated: 12 pieces")
            }
            let text = try String(contentsOfFile: settings, encoding: .utf8)
            #expect(text.contains("\"pieces\":12") || text.contains("\"pieces\" : 12"), "saved on update: \(text)")
            #expect(text.contains("\"optimize\""), "the optimisation saved with it: \(text)")
            Pan.powerCut(daemon)
        }
        try await offPool {
            let (daemon, client) = try Self.start(directory)
            try waitUntil("the restore to be logged", timeout: .seconds(20), describe: { daemon.log }) {
                daemon.log.contains("pan: counting restored: 12 pieces") && daemon.log.contains("optimised")
            }
            let after = try Pan.stable(client) { abs(($0.grams ?? .nan) - 60) < 0.5 }
            #expect(after.count == 12, "\(after)")
            try Pan.place(150, directory)
            try waitUntil("a further update after the restart", timeout: .seconds(20), describe: { daemon.log }) {
                daemon.log.contains("pan: count reference updated: 30 pieces")
            }
            #expect(daemon.terminate() == 0)
        }
    }
}
