import PlumHistory
import Testing

@Suite("History recorder")
struct HistoryRecorderTests {
    @Test("a minute is summarised when the next minute's first reading arrives, with min, mean and max")
    func minuteSummary() {
        var recorder = HistoryRecorder(division: 0.1)
        let base = 1_795_388_100.0  // a whole minute
        var outputs: [HistoryRecorder.Output] = []
        for (offset, grams) in [(0.0, 10.0), (20, 14), (40, 12)] {
            let sample = HistorySample(sensor: "left", time: base + offset, grams: grams, stable: false)
            outputs.append(recorder.record(sample))
        }
        #expect(outputs.allSatisfy { $0.minute == nil }, "no minute may close before it has ended")
        let next = recorder.record(HistorySample(sensor: "left", time: base + 61, grams: 50, stable: false))
        #expect(next.minute != nil, "the first reading of the next minute closes the previous one")
        let expected = MinuteSummary(sensor: "left", minute: 1_795_388_100, min: 10, mean: 12, max: 14, samples: 3)
        #expect(next.minute == expected, "min 10, mean 12, max 14 over the three readings")
    }

    @Test("a stable weight is stored once, and again only when it moves by a division")
    func stableOnce() {
        var recorder = HistoryRecorder(division: 0.1)
        let grams = [100.0, 100.04, 100.02, 100.2, 100.2]
        let stored = grams.enumerated().compactMap { index, value in
            recorder.record(HistorySample(sensor: "p", time: Double(index), grams: value, stable: true)).stable?.grams
        }
        #expect(stored == [100.0, 100.2], "changes below one division are the same stable weight")
        _ = recorder.record(HistorySample(sensor: "p", time: 10, grams: 150, stable: false))
        let again = recorder.record(HistorySample(sensor: "p", time: 11, grams: 100.2, stable: true))
        #expect(again.stable != nil, "settling again after moving is a new stable reading")
    }

    @Test(
        "a placement is stored once: one report of a settled load called unstable, a knock, an outage or a restart do not store it again"
    )
    func onePlacementOnce() {
        var recorder = HistoryRecorder(division: 0.1)
        func stored(_ grams: Double?, stable: Bool, at time: Double) -> Double? {
            recorder.record(HistorySample(sensor: "p", time: time, grams: grams, stable: stable)).stable?.grams
        }
        #expect(stored(87.3, stable: true, at: 0) == 87.3)
        #expect(stored(87.3, stable: false, at: 1) == nil)
        #expect(stored(87.3, stable: true, at: 2) == nil, "one unstable report of a settled load")
        #expect(stored(87.9, stable: false, at: 3) == nil)
        #expect(stored(87.3, stable: true, at: 4) == nil, "a knock of 0.6 g (6 d) that came back")
        #expect(stored(nil, stable: false, at: 5) == nil)
        #expect(stored(87.3, stable: true, at: 6) == nil, "an outage of the sensor, the same load after it")
        recorder.resume(sensor: "p", lastStored: 87.3)
        #expect(stored(87.3, stable: true, at: 7) == nil, "a restarted service that resumed from the store")
        // Lifted and put back: the load left the weight by far more than 10 d.
        #expect(stored(0.2, stable: false, at: 8) == nil)
        #expect(stored(87.3, stable: true, at: 9) == 87.3, "the same plum placed again is a new placement")
        // Overloaded, then back at the same weight: the load certainly left it.
        _ = recorder.record(HistorySample(sensor: "p", time: 10, grams: 900, stable: false, outOfRange: true))
        #expect(stored(87.3, stable: true, at: 11) == 87.3)
    }

    /// The soak stored one plum as 185.2 g and, 1.2 s later, 185.1 g: the first stable display
    /// moved by a division as its average settled (RELIABILITY.md, finding 2).
    @Test("a placement's display settling by one division soon after it is stored is the same placement")
    func settlingIsThePlacement() {
        var recorder = HistoryRecorder(division: 0.1)
        func stored(_ grams: Double, at time: Double) -> Double? {
            recorder.record(HistorySample(sensor: "p", time: time, grams: grams, stable: true)).stable?.grams
        }
        #expect(stored(185.2, at: 100) == 185.2)
        #expect(stored(185.1, at: 101.2) == nil, "one division, 1.2 s after the placement")
        #expect(stored(185.2, at: 102) == nil, "and back, still settling")
        #expect(stored(185.1, at: 104.9) == nil)
        #expect(stored(185.4, at: 104.95) == 185.4, "three divisions is a change, settling or not")
        // The soak once stored a pan just emptied as 0.1 g, then 0.2 g 5.1 s later.
        #expect(stored(0.1, at: 200) == 0.1)
        #expect(stored(0.2, at: 205.1) == nil, "one division 5.1 s after the pan was emptied is its settling")
    }

    @Test("a creeping load is still recorded: one division at a time, once the placement has settled")
    func creepStillRecorded() {
        var recorder = HistoryRecorder(division: 0.1)
        var stored: [Double] = []
        // 0.1 g every 40 s, as a cell's creep or a drying fruit would move.
        for step in 0...5 {
            let grams = 250.0 + 0.1 * Double(step)
            let sample = HistorySample(sensor: "p", time: 1000 + 40 * Double(step), grams: grams, stable: true)
            if let reading = recorder.record(sample).stable { stored.append(reading.grams) }
        }
        #expect(stored.count == 6, "every division of the creep is stored: \(stored)")
        // A new placement starts its own settling time; the old one's does not carry over.
        _ = recorder.record(HistorySample(sensor: "p", time: 1300, grams: 0, stable: false))
        #expect(recorder.record(HistorySample(sensor: "p", time: 1301, grams: 90.3, stable: true)).stable != nil)
        #expect(recorder.record(HistorySample(sensor: "p", time: 1302, grams: 90.2, stable: true)).stable == nil)
        #expect(recorder.record(HistorySample(sensor: "p", time: 1312, grams: 90.1, stable: true)).stable != nil)
    }

    @Test("overloaded readings and readings without grams are left out of the summary")
    func outOfRangeLeftOut() {
        var recorder = HistoryRecorder()
        _ = recorder.record(HistorySample(sensor: "p", time: 0, grams: 5, stable: false))
        _ = recorder.record(HistorySample(sensor: "p", time: 1, grams: 900, stable: false, outOfRange: true))
        _ = recorder.record(HistorySample(sensor: "p", time: 2, grams: nil, stable: false))
        let summaries = recorder.flush()
        #expect(summaries.map(\.max) == [5], "only the trustworthy reading counts: \(summaries)")
    }

    @Test("since and until accept spans, epoch seconds and ISO 8601, and refuse anything else")
    func windows() throws {
        let now = 1_000_000.0
        let window = try HistoryWindow.parse(since: "7d", until: "1h", now: now)
        #expect(window.since == now - 7 * 86_400 && window.until == now - 3600)
        #expect(try HistoryWindow.parse(since: "2026-11-23", until: nil, now: 1_800_000_000).since == 1_795_392_000)
        #expect(try HistoryWindow.parse(since: "1795388100", until: nil, now: 1_800_000_000).since == 1_795_388_100)
        #expect(throws: HistoryError.self, "a word is not a time") {
            try HistoryWindow.parse(since: "yesterday", until: nil, now: now)
        }
    }
}
