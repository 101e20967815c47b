import PlumHistory
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

@testable import plumscale

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

    @Test("durations show their two largest units")
    func durations() {
        #expect(StatusText.duration(12.9) == "12 s")
        #expect(StatusText.duration(4 * 60 + 12) == "4 min 12 s")
        #expect(StatusText.duration(2 * 3600 + 5 * 60 + 59) == "2 h 5 min")
        #expect(StatusText.duration(3 * 86_400 + 4 * 3600 + 1) == "3 d 4 h")
    }

    @Test("sizes are in decimal units, as df -H and card makers count")
    func sizes() {
        #expect(StatusText.bytes(999) == "999 B")
        #expect(StatusText.bytes(812_000) == "812 kB")
        #expect(StatusText.bytes(1_234_567_890) == "1.2 GB")
        #expect(StatusText.bytes(49_999_999) == "50 MB")
    }

    @Test("low free space is a warning naming the directory and what to do; enough space none")
    func spaceWarning() throws {
        let low = DaemonStatus(
            stateDirectory: "/var/lib/plumscale", stateFreeBytes: 40_000_000, stateTotalBytes: 2_000_000_000)
        let warning = try #require(StatusText.spaceWarning(low))
        #expect(warning.hasPrefix("warning: /var/lib/plumscale has only 40 MB free (2 %), below 50 MB or 5 %"))
        #expect(warning.contains("free some space"))
        let enough = DaemonStatus(stateDirectory: "/x", stateFreeBytes: 4_000_000_000, stateTotalBytes: 8_000_000_000)
        #expect(StatusText.spaceWarning(enough) == nil)
        #expect(StatusText.spaceWarning(DaemonStatus(stateError: "ENOENT")) == nil, "unknown space is not low")
    }

    @Test("saves failing now are a warning of their own, with the daemon's words; none while saves work")
    func saveWarning() {
        let failing = DaemonStatus(stateSaveError: "pan: zero and tare not saved since 2026-11-27T07:00:00Z")
        #expect(
            StatusText.saveWarning(failing)
                == "warning: the daemon cannot save its state: pan: zero and tare not saved since 2026-11-27T07:00:00Z")
        #expect(StatusText.saveWarning(DaemonStatus(stateFreeBytes: 0, stateTotalBytes: 1)) == nil)
        #expect(StatusText.saveWarning(nil) == nil)
    }

    @Test("a sensor's last fault is shown with when it began")
    func lastFault() {
        let device = DevicesReport.Device(
            sensor: "left", index: 0, kind: "hx711", wiring: "", state: "ok", rate: 80, nominalRate: 80,
            published: 9, discarded: [:], notReady: 1, faults: 0, notices: [], calibrated: false,
            lastFault: "not-ready: no conversion from DOUT", lastFaultTime: "2026-11-27T06:01:02Z")
        #expect(
            StatusCommand.describe(device).contains(
                "\n  last fault   not-ready: no conversion from DOUT, at 2026-11-27T06:01:02Z"))
    }
}
