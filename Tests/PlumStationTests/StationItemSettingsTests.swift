import Foundation
import PlumProtocol
import PlumTestSupport
import Testing

@testable import PlumStation

/// The piece-count reference and check limits on the station: saved with the reply, put back
/// by a new station on the same state, carried by `?POLL`; a save that fails is said, not hidden.
@Suite("Count reference and check limits on the station: saved, restored, polled")
struct StationItemSettingsTests {
    /// The reply to `?COUNT`.
    static func count(_ bench: SettingsBench, _ pieces: Int?) async throws -> CountReply {
        let reply = try await bench.reply(.count(CountRequest(sensor: "bowl", pieces: pieces)))
        guard case .count(let count) = reply else { throw FixtureError("not a COUNT: \(reply)") }
        return count
    }

    /// The bowl's `WEIGHT` in a `?POLL`.
    static func polled(_ bench: SettingsBench) async throws -> WeightReport {
        let reply = try await bench.reply(.poll)
        guard case .poll(let poll) = reply, let weight = poll.weights.first else {
            throw FixtureError("no weight in \(reply)")
        }
        return weight
    }

    @Test("50 g as 10 pieces and 50 g ± 1 g: ?POLL counts and checks, and a new station on the same state too")
    func savedAndRestored() async throws {
        let directory = try TemporaryDirectory(prefix: "plumitems")
        let first = try await SettingsBench(directory)
        try await first.feed(50)
        let counted = try await Self.count(first, 10)
        #expect(counted.ok && abs((counted.unit ?? 0) - 5) < 0.01, "\(counted.message)")
        #expect(!counted.message.contains("not saved"), "\(counted.message)")
        let checked = try await first.reply(.check(CheckRequest(sensor: "bowl", target: 50, minus: 1, plus: 1)))
        guard case .check(let check) = checked, check.ok else { throw FixtureError("\(checked)") }
        let before = try await Self.polled(first)
        #expect(before.count == 10 && before.check == "ok", "\(before)")

        let second = try await SettingsBench(directory)
        try await second.feed(55)
        let after = try await Self.polled(second)
        #expect(after.count == 11 && after.check == "over", "restored from the state: \(after)")

        #expect(try await Self.count(second, nil).ok)
        let third = try await SettingsBench(directory)
        try await third.feed(55)
        let cleared = try await Self.polled(third)
        #expect(cleared.count == nil && cleared.check == "over", "only the count was stopped: \(cleared)")
    }

    @Test("a reference that cannot be saved is used, and the reply says it holds only until the daemon stops")
    func saveFails() async throws {
        let directory = try TemporaryDirectory(prefix: "plumitems")
        let bench = try await SettingsBench(directory)
        // A directory where the temporary file goes: writing it fails, even as root.
        try FileManager.default.createDirectory(
            atPath: directory.file("runtime-settings.json.tmp"), withIntermediateDirectories: false)
        try await bench.feed(50)
        let counted = try await Self.count(bench, 10)
        #expect(counted.ok && counted.message.contains("not saved to disk"), "\(counted.message)")
        #expect(counted.message.hasSuffix("it holds until the daemon stops"), "\(counted.message)")
        #expect(try await Self.polled(bench).count == 10)
        #expect(!FileManager.default.fileExists(atPath: directory.file("runtime-settings.json")))
    }
}
