import PlumHistory
import PlumTestSupport
import Testing

@Suite("The history store on a real SQLite file")
struct HistoryStoreTests {
    @Test("the newest stored weight of each pan is found, so a restarted service takes up where it left off")
    func newestPerPan() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        #expect(try store.lastStableReadings().isEmpty, "a new store has none")
        try store.append(
            stable: [
                StableReading(sensor: "left", time: 100, grams: 87.3),
                StableReading(sensor: "right", time: 101, grams: 120.0),
                StableReading(sensor: "left", time: 160, grams: 152.1)
            ],
            minutes: [])
        let newest = try store.lastStableReadings()
        #expect(
            newest == [
                StableReading(sensor: "left", time: 160, grams: 152.1),
                StableReading(sensor: "right", time: 101, grams: 120.0)
            ])

        var recorder = HistoryRecorder(division: 0.1)
        for reading in newest { recorder.resume(sensor: reading.sensor, lastStored: reading.grams) }
        let same = recorder.record(HistorySample(sensor: "left", time: 200, grams: 152.1, stable: true))
        #expect(same.stable == nil, "the plum still on the left pan after a restart is not a new placement")
        let moved = recorder.record(HistorySample(sensor: "right", time: 201, grams: 131.4, stable: true))
        #expect(moved.stable?.grams == 131.4, "a load changed while the service was down is stored")
    }

    /// GRDB's pool turns WAL on with synchronous NORMAL, which syncs only at checkpoints: strace
    /// saw plumscale-web write its WAL and never fsync it (docs/PERFORMANCE.md, section 9).
    @Test("the writer syncs every commit: synchronous is FULL, whatever the pool set when it turned WAL on")
    func synchronousFull() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        #expect(try store.writerSynchronous() == 2)
        let reopened = try HistoryStore(path: directory.file("history.sqlite"))
        #expect(try reopened.writerSynchronous() == 2, "and again when an existing file is opened")
    }
}
