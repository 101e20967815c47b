import PlumHistory
import PlumTestSupport
import Testing

/// The history on a file system that fills up (a 1 MiB tmpfs, filled with a filler file): what
/// plumscale-web's keeper does with each batch (``HistoryBatch/write(to:)``), against real
/// SQLite in WAL mode. Needs root to mount the tmpfs; without it the suite is reported as
/// skipped with the reason.
@Suite(
    "History on a full disk: nothing lost, nothing doubled, the file sound, back by itself",
    .enabled(if: SmallFileSystem.unavailable == nil, Comment(rawValue: SmallFileSystem.unavailable ?? "")))
struct HistoryFullDiskTests {
    /// A placement every 5 s on alternate pans and a summary each minute, written as the keeper
    /// writes: whenever the batch is due.
    struct Scale {
        var batch = HistoryBatch(policy: .init(stableDelay: 2, minuteDelay: 300, limit: 100_000))
        var placed: [StableReading] = []
        var time = 1_800_000_000.0
        var failures: [HistoryError] = []
        var writes = 0

        mutating func run(seconds: Int, on store: HistoryStore) {
            for _ in 0..<seconds {
                time += 1
                let second = Int(time)
                var output = HistoryRecorder.Output(stable: nil, minute: nil)
                if second % 5 == 0 {
                    let reading = StableReading(
                        sensor: second % 10 == 0 ? "left" : "right", time: time, grams: Double(second % 997) / 10)
                    placed.append(reading)
                    output.stable = reading
                }
                if second % 60 == 0 {
                    output.minute = MinuteSummary(
                        sensor: "left", minute: Int64(second - 60), min: 1, mean: 2, max: 3, samples: 4800)
                }
                batch.add(output, at: time)
                guard batch.isDue(at: time) else { continue }
                writes += 1
                if let failure = batch.write(to: store) { failures.append(failure) }
            }
        }
    }

    @Test("placements made while the disk is full are all stored once when space returns; integrity_check ok")
    func fullThenFreed() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistfull")
        let disk = try SmallFileSystem(at: directory.file("history"), kilobytes: 1024)
        let path = disk.path + "/history.sqlite"
        let store = try HistoryStore(path: path)
        var scale = Scale()
        let window = HistoryWindow(since: 0, until: 4_000_000_000)

        scale.run(seconds: 60, on: store)
        #expect(scale.failures.isEmpty, "\(scale.failures)")
        try disk.fill()
        scale.run(seconds: 120, on: store)
        let failed = scale.failures.count
        #expect(failed > 0 && failed < scale.writes, "each due write failed, retried a full delay later")
        let first = try #require(scale.failures.first)
        #expect(first.noSpace, "\(first)")
        #expect(
            first.message.hasPrefix("writing the history in \(path): database or disk is full")
                && first.message.hasSuffix("the file system holding \(disk.path) is full: free some space there"),
            "the error names the file, the full disk and what to do: \(first)")
        #expect(scale.batch.stable.count >= 20, "the placements of the full period wait in the batch")

        try disk.removeFiller()
        scale.run(seconds: 30, on: store)
        #expect(scale.failures.count == failed, "space back: the next due write works by itself")
        #expect(scale.batch.write(to: store) == nil, "what the last seconds added, as a shutdown's flush writes it")
        #expect(scale.batch.isEmpty)

        let stored = try store.stableReadings(sensor: nil, in: window)
        #expect(stored.count == scale.placed.count, "none lost, none doubled: \(stored.count) of \(scale.placed.count)")
        #expect(Set(stored.map(\.time)).count == stored.count, "no placement twice")
        #expect(stored.sorted { $0.time < $1.time } == scale.placed, "each placement as it was made")
        #expect(try store.integrityCheck() == "ok")
        let reopened = try HistoryStore(path: path, readOnly: true)
        #expect(try reopened.stableReadings(sensor: nil, in: window).count == scale.placed.count, "on disk too")
    }
}
