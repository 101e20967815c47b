import PlumHistory
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// `plumscale status`: the daemon's uptime, restarts and free space, the history's size and
/// oldest row, a warning when space is low, and each sensor's last fault with its time.
@Suite("plumscale status: the daemon's health and the history", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct StatusCommandTests {
    @Test("against a real daemon: uptime, restarts, the state directory's space, the history's size and oldest row")
    func daemonAndHistory() async throws {
        let scale = try await ScaleFixture.start([("left", 0)])
        let path = "\(scale.directory)/history.sqlite"
        let store = try HistoryStore(path: path)
        // 1 700 000 000 s after the epoch is 2023-11-14T22:13:20Z.
        try store.append(
            stable: [
                StableReading(sensor: "left", time: 1_700_000_000, grams: 87.3),
                StableReading(sensor: "left", time: 1_700_000_500, grams: 120)
            ],
            minutes: [MinuteSummary(sensor: "left", minute: 1_700_000_040, min: 0, mean: 1, max: 2, samples: 80)])
        let run = await scale.plumscale(["status", "--database", path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  up           ") && $0.contains(" s, since 20") }, "\(run.stdout)")
        #expect(lines.contains("  restarts     0"), "a first start: \(run.stdout)")
        #expect(
            lines.contains { $0.hasPrefix("  state        \(scale.directory)/state: ") && $0.contains(" free of ") },
            "\(run.stdout)")
        let history = try #require(lines.first { $0.hasPrefix("  history      \(path): ") }, "\(run.stdout)")
        #expect(
            history.hasSuffix(" kB, 2 stable readings, 1 minutes, oldest row 2023-11-14T22:13:20Z"), "\(history)")
        #expect(!run.stdout.contains("warning:"), "a test machine's disk is not nearly full: \(run.stdout)")

        let none = await scale.plumscale(["status", "--database", "\(scale.directory)/none.sqlite"])
        #expect(none.stdout.contains("  history      none at \(scale.directory)/none.sqlite"), "\(none.stdout)")
    }
}
