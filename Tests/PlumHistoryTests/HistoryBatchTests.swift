import PlumHistory
import Testing

/// Batching is what keeps the history within the SD card's budget (docs/PERFORMANCE.md, "Writes
/// to the SD card"), and its delays are what a power cut may lose: both are promises.
@Suite("History batches")
struct HistoryBatchTests {
    static func placement(_ grams: Double, at time: Double) -> HistoryRecorder.Output {
        .init(stable: StableReading(sensor: "left", time: time, grams: grams), minute: nil)
    }

    static func minute(_ minute: Int64, at time: Double) -> HistoryRecorder.Output {
        .init(stable: nil, minute: MinuteSummary(sensor: "left", minute: minute, min: 1, mean: 1, max: 1, samples: 10))
    }

    @Test("a stable reading is written within its delay, with the summaries waiting beside it")
    func stableWithinItsDelay() {
        var batch = HistoryBatch(policy: .init(stableDelay: 10, minuteDelay: 300, limit: 100))
        batch.add(Self.minute(60, at: 120), at: 120)
        #expect(!batch.isDue(at: 130), "a summary alone waits")
        batch.add(Self.placement(152.3, at: 131), at: 131)
        #expect(!batch.isDue(at: 140.9))
        #expect(batch.isDue(at: 141), "10 s after the placement")
        #expect(HistoryBatch.Policy.standard.stableDelay == 90, "the delay docs/PERFORMANCE.md promises")
        #expect(batch.stable.count == 1 && batch.minutes.count == 1, "one commit takes both")
        batch.clear()
        #expect(batch.isEmpty && !batch.isDue(at: 10_000))
    }

    /// A day of readings every second with both pans' summaries closing each minute, and with
    /// `placements` a new load on the left pan every minute, settled 5 s in, written as the
    /// service writes (``HistoryBatch/isDue(at:)``): the placements each commit took, and those
    /// left waiting at the day's end.
    static func day(placements: Bool) -> (commits: [Int], waiting: Int) {
        var batch = HistoryBatch()
        var commits: [Int] = []
        for second in 0..<86_400 {
            let time = Double(second)
            if second % 60 == 0, second > 0 {
                batch.add(Self.minute(Int64(second - 60), at: time), at: time)
                batch.add(Self.minute(Int64(second - 60), at: time), at: time)
            }
            if placements, second % 60 == 5 {
                batch.add(Self.placement(Double(second % 7) + 80, at: time), at: time)
            }
            if batch.isDue(at: time) {
                commits.append(batch.stable.count)
                batch.clear()
            }
        }
        return (commits, batch.stable.count)
    }

    @Test("at rest, summaries wait up to 15 minutes: 90 commits a day, not one a minute per pan")
    func summariesEveryFifteenMinutes() {
        // The first summary of a batch closes a minute after the last write: one commit every 16 minutes.
        let commits = Self.day(placements: false).commits.count
        #expect((89...90).contains(commits), "\(commits) commits in a day")
    }

    @Test("at a new load every minute, two placements share each commit: 720 commits a day, not 1 440")
    func placementsShareCommits() {
        let (commits, waiting) = Self.day(placements: true)
        #expect(commits.count == 720, "\(commits.count) commits in a day")
        #expect(commits.allSatisfy { $0 <= 2 }, "no placement waits for a third: at most 90 s")
        #expect(commits.reduce(0, +) + waiting == 1440, "every placement written once")
    }

    @Test("a clock stepped back writes at once; a failed write keeps the rows and waits a full delay")
    func clockStepAndFailure() {
        var batch = HistoryBatch(policy: .init(stableDelay: 10, minuteDelay: 300, limit: 100))
        batch.add(Self.placement(80, at: 1000), at: 1000)
        #expect(batch.isDue(at: 990), "time before the batch began: the clock was set back")
        batch.retryLater(from: 1012)
        #expect(batch.stable.count == 1, "nothing dropped")
        #expect(!batch.isDue(at: 1020) && batch.isDue(at: 1022))
    }

    @Test("while writes fail the batch is bounded: the oldest summaries go first, placements last")
    func bounded() {
        var batch = HistoryBatch(policy: .init(stableDelay: 10, minuteDelay: 300, limit: 4))
        batch.add(Self.placement(10, at: 0), at: 0)
        for index in 1...5 { batch.add(Self.minute(Int64(index * 60), at: Double(index)), at: Double(index)) }
        #expect(batch.count == 4)
        #expect(batch.stable.map(\.grams) == [10], "the placement is kept")
        #expect(batch.minutes.map(\.minute) == [180, 240, 300], "the newest summaries are kept")
    }

    @Test("an item and a session's figures are written as a placement is; a session is one row a batch")
    func itemsLikePlacements() {
        var batch = HistoryBatch(policy: .init(stableDelay: 2, minuteDelay: 300, limit: 100_000))
        batch.add(Self.minute(60, at: 120), at: 120)
        let item = ItemRecord(
            sensor: "left", sequence: 1, item: 1, event: "placed", grams: 87.3, grossAfter: 87.3, time: 130)
        batch.add(item: item, at: 130)
        #expect(!batch.isDue(at: 131.9))
        #expect(batch.isDue(at: 132), "the placements' delay after the item")
        var session = SessionRecord(
            name: "crate-12", sensor: "left", started: 100, division: 0.1, count: 1, total: 87.3)
        batch.add(session: session, at: 130.5)
        session.count = 2
        batch.add(session: session, at: 131)
        #expect(batch.sessions == [session], "the latest figures of each session, once")
        #expect(batch.items == [item] && batch.count == 3)
        batch.clear()
        batch.add(session: session, at: 200)
        #expect(!batch.isDue(at: 201.9) && batch.isDue(at: 202), "a session's figures alone wait 2 s too")
    }
}
