import PlumHistory
import PlumTestSupport
import PlumWeb
import Testing

/// A Pi without a real-time clock sets its time after boot, and NTP steps it: the readings'
/// times, which the history keeps, jump with it. Nothing the history does may then wait for the
/// wall clock to come back (docs/RELIABILITY.md, "Wall-clock steps").
@Suite("The history across a wall-clock step")
struct HistoryClockStepTests {
    static let year = 365 * 86_400.0

    @Test("a clock stepped back still has its retention run: the hourly purge does not wait for the old time")
    func retentionAfterStepBack() async throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        let keeper = HistoryKeeper(store: store, retentionDays: 1, batching: .immediate)
        // A clock set four years ahead, then put right: the purge ran at the wrong time first.
        let wrong = 1_921_000_000.0
        await keeper.record(try weightReport(weight("left", grams: 87.3, time: wrong)))
        let right = wrong - 4 * Self.year
        let expired = StableReading(sensor: "right", time: right - 2 * 86_400, grams: 120)
        try store.append(stable: [expired], minutes: [])
        for second in 0..<5 {
            await keeper.record(try weightReport(weight("left", grams: 87.3, time: right + Double(second))))
        }
        let window = HistoryWindow(since: right - 3 * 86_400, until: right)
        #expect(
            try store.stableReadings(sensor: "right", in: window).isEmpty,
            "a row two days old by the corrected clock outlived a one-day retention")
    }

    @Test("a clock stepped back an hour keeps every sample of the minutes it brings again")
    func minutesAgainAfterStepBack() async throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        let keeper = HistoryKeeper(store: store, retentionDays: 90, batching: .immediate)
        let start = 1_795_388_100.0  // the start of a minute
        // Two minutes and the reading that closes them, ten samples each; then NTP steps the
        // clock back an hour and the same two minutes of wall time come again.
        for pass in 0..<2 {
            for index in 0...20 {
                let time = start + Double(index) * 6
                await keeper.record(try weightReport(weight("left", grams: 100 + Double(pass), time: time)))
            }
        }
        await keeper.flush()
        let minutes = try store.minutes(sensor: "left", in: HistoryWindow(since: start, until: start + 120))
        #expect(minutes.map(\.minute) == [Int64(start), Int64(start) + 60], "one row per minute, none doubled")
        #expect(minutes.map(\.samples) == [20, 20], "both passes counted in each minute")
        #expect(minutes.allSatisfy { abs($0.mean - 100.5) < 1e-9 }, "the mean of both passes")
    }
}
