import PlumHistory
import PlumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The history's size and oldest row, for the status")
struct HistorySummaryTests {
    @Test("an empty store has no oldest row; the oldest is the older of a stable reading and a minute")
    func oldestRowAndSize() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let path = directory.file("history.sqlite")
        let store = try HistoryStore(path: path)
        let empty = try store.summary()
        #expect(empty.oldest == nil && empty.stableRows == 0 && empty.minuteRows == 0, "\(empty)")

        try store.append(
            stable: [
                StableReading(sensor: "left", time: 1_700_000_300.5, grams: 87.3),
                StableReading(sensor: "right", time: 1_700_000_100.25, grams: 120)
            ],
            minutes: [
                MinuteSummary(sensor: "left", minute: 1_700_000_160, min: 0, mean: 40, max: 87.3, samples: 4800),
                MinuteSummary(sensor: "left", minute: 1_700_000_220, min: 87.3, mean: 87.3, max: 87.3, samples: 4800)
            ])
        let summary = try store.summary()
        #expect(summary.oldest == 1_700_000_100.25, "the right pan's reading is the oldest row: \(summary)")
        #expect(summary.stableRows == 2 && summary.minuteRows == 2, "\(summary)")
        // The size is what the files take, read independently of the store.
        var expected: Int64 = 0
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            if stat(file, &info) == 0 { expected += Int64(info.st_size) }
        }
        #expect(summary.bytes == expected && expected > 0, "\(summary), \(expected)")

        try store.append(
            stable: [],
            minutes: [MinuteSummary(sensor: "right", minute: 1_700_000_040, min: 0, mean: 0, max: 0, samples: 80)])
        #expect(try store.summary().oldest == 1_700_000_040, "an older minute is the oldest row")
        let reader = try HistoryStore(path: path, readOnly: true)
        #expect(try reader.summary().minuteRows == 3, "a read-only store, as plumscale status opens it, reads it too")
    }
}
