import Glibc
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

    /// Every commit writes each page it changed to the WAL whole: the page size is the unit of
    /// the card's write budget (docs/PERFORMANCE.md, "Writes to the SD card").
    @Test("a new file has 1 KiB pages and checkpoints its WAL at 4 MiB")
    func smallPages() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        try store.append(stable: [StableReading(sensor: "left", time: 100, grams: 87.3)], minutes: [])
        #expect(try store.writerSetting(.pageSize) == 1024)
        #expect(try store.writerSetting(.walAutocheckpoint) == 4096)
        let reopened = try HistoryStore(path: directory.file("history.sqlite"))
        #expect(try reopened.writerSetting(.pageSize) == 1024, "and kept when the file is opened again")
    }

    /// A commit writes a page of each b-tree it changed; a placement outside a session used to
    /// change ten (docs/PERFORMANCE.md, "Writes to the SD card"). The frames are counted in the
    /// WAL itself: each is a page and a 24-byte header.
    @Test("a placement's commit, with both pans' summaries, writes five pages to the WAL, not ten")
    func fivePagesPerPlacement() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let path = directory.file("history.sqlite")
        let store = try HistoryStore(path: path)
        func placement(_ seq: Int, at time: Double) throws -> Int {
            let before = try fileSize(path + "-wal")
            try store.append(
                stable: [StableReading(sensor: "left", time: time, grams: 87.3)],
                minutes: ["left", "right"].map {
                    MinuteSummary(
                        sensor: $0, minute: Int64(time) / 60 * 60 - 60, min: 0, mean: 40, max: 87.3, samples: 80)
                },
                items: [
                    ItemRecord(
                        sensor: "left", sequence: seq, item: seq, event: "placed", grams: 87.3, grossAfter: 87.3,
                        time: time)
                ])
            return (try fileSize(path + "-wal") - before) / (1024 + 24)
        }
        _ = try placement(1, at: 1_795_388_100)
        let frames = try placement(2, at: 1_795_388_160)
        #expect(frames == 5, "the stable reading and its index by time, the item and its key, the summaries: \(frames)")
    }

    private func fileSize(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FixtureError("stat \(path): errno \(errno)") }
        return Int(info.st_size)
    }
}

@Suite("A minute summarised twice")
struct MinuteMergeTests {
    /// plumscale-web writes the open minute when it stops and summarises the rest of that minute
    /// after its restart; a wall clock stepped back an hour brings the same minutes again.
    @Test("is merged with the stored summary, not put in its place: every sample of both parts is counted")
    func mergedNotReplaced() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        let minute: Int64 = 1_795_388_040
        let first = MinuteSummary(sensor: "left", minute: minute, min: 10, mean: 20, max: 30, samples: 100)
        try store.append(stable: [], minutes: [first])
        try store.append(
            stable: [],
            minutes: [
                MinuteSummary(sensor: "left", minute: minute, min: 5, mean: 50, max: 25, samples: 300),
                MinuteSummary(sensor: "right", minute: minute, min: 1, mean: 1, max: 1, samples: 7)
            ])
        let stored = try store.minutes(
            sensor: "left", in: HistoryWindow(since: Double(minute), until: Double(minute + 60)))
        #expect(stored.count == 1, "one row per pan and minute")
        let merged = try #require(stored.first)
        #expect(merged.samples == 400, "the first part's samples were lost")
        #expect(merged.min == 5 && merged.max == 30, "the extremes of both parts")
        #expect(abs(merged.mean - (20 * 100 + 50 * 300) / 400.0) < 1e-9, "the mean weighted by samples")
        let right = try store.minutes(
            sensor: "right", in: HistoryWindow(since: Double(minute), until: Double(minute + 60)))
        #expect(right.map(\.samples) == [7], "another pan's same minute is its own row")
    }
}
