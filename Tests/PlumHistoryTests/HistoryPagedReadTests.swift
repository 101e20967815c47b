import Foundation
import PlumHistory
import PlumTestSupport
import Testing

/// The four series read as a streamed export reads them (pages of a few rows, chunks of one
/// after a cursor) against the whole window as `plumscale history` reads it: the same rows in
/// the same order, rows that share a time included, and chunks that join into one export.
@Suite("The history's series read in pages and chunks, as the export streams them")
struct HistoryPagedReadTests {
    static let start = 1_795_388_100.0

    /// A store where each series has rows that share a time: two pans in one minute, two pans
    /// settling in the same instant, two items and two sessions at one time.
    static func filledStore(_ directory: TemporaryDirectory) throws -> HistoryStore {
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        let minute = Int64(start)
        // The whole-window read orders readings of one time by pan, a chunk by insertion: inserted
        // in pan order, as the recorder does within a batch, both orders agree.
        try store.append(
            stable: [
                StableReading(sensor: "left", time: start, grams: 87.3),
                StableReading(sensor: "right", time: start, grams: 120),
                StableReading(sensor: "left", time: start + 5, grams: 0)
            ],
            minutes: [
                MinuteSummary(sensor: "right", minute: minute, min: 0, mean: 60, max: 120, samples: 600),
                MinuteSummary(sensor: "left", minute: minute, min: 0, mean: 40, max: 87.3, samples: 600),
                MinuteSummary(sensor: "left", minute: minute + 60, min: 0, mean: 0, max: 0, samples: 600)
            ],
            items: [
                HistoryItemsTests.placed(2, item: 2, grams: 34.9, at: start + 3, sensor: "right"),
                HistoryItemsTests.placed(1, item: 1, grams: 87.3, at: start + 3),
                HistoryItemsTests.removed(3, item: 1, grams: 87.3, at: start + 9)
            ],
            sessions: [
                HistoryItemsTests.session("crate-2", started: start, sensor: "right"),
                HistoryItemsTests.session("crate-1", started: start),
                HistoryItemsTests.session("crate-3", started: start + 120)
            ])
        return store
    }

    /// Every row of `series`, page after page of at most two rows, each read in chunks of one.
    static func streamed<Row>(
        _ store: HistoryStore, _ series: HistoryExport.Series, _ window: HistoryWindow,
        _ chunk: (HistoryPage, HistoryPage.Cursor?) throws -> (rows: [Row], cursor: HistoryPage.Cursor?)
    ) throws -> [[Row]] {
        var chunks: [[Row]] = []
        var since: Double? = window.since
        while let from = since {
            let page = try HistoryPage(
                store, series: series, sensor: nil, window: HistoryWindow(since: from, until: window.until), rows: 2)
            var cursor: HistoryPage.Cursor?
            while true {
                let (rows, next) = try chunk(page, cursor)
                if rows.isEmpty { break }
                chunks.append(rows)
                cursor = next
            }
            since = page.nextSince
        }
        return chunks
    }

    /// The streamed chunks hold the whole read's rows in its order, and their CSV lines and JSON
    /// objects join into the export of the whole read.
    static func expectSame<Row: HistoryExportRow & Equatable & Sendable>(
        _ chunks: [[Row]], _ whole: [Row], _ series: HistoryExport.Series
    ) throws {
        #expect(whole.count == 3, "the store has three rows of \(series)")
        #expect(chunks.flatMap { $0 } == whole, "\(series): chunks \(chunks), whole \(whole)")
        #expect(chunks.allSatisfy { $0.count == 1 }, "\(series): a chunk holds at most its limit")
        let csv = HistoryExport.csvHeader(series) + chunks.map(HistoryExport.csvLines).joined()
        #expect(csv == HistoryExport.csv(whole))
        #expect(csv.split(separator: "\n").count == 4, "a header and three lines: \(csv)")
        let json = "[" + chunks.map(HistoryExport.jsonObjects).joined(separator: ",") + "]\n"
        #expect(json == HistoryExport.json(whole))
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 3, "one valid array of three objects: \(json)")
    }

    @Test("minutes, readings, items and sessions streamed in chunks of one are the whole read, in order")
    func chunksAreTheWholeRead() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try Self.filledStore(directory)
        let window = HistoryWindow(since: 0, until: Self.start + 1000)
        let minutes = try store.minutes(sensor: nil, in: window)
        #expect(minutes.map(\.sensor) == ["left", "right", "left"], "by minute, then pan")
        try Self.expectSame(
            Self.streamed(store, .minutes, window) { try $0.minutes(store, after: $1, limit: 1) }, minutes, .minutes)
        try Self.expectSame(
            Self.streamed(store, .stable, window) { try $0.stableReadings(store, after: $1, limit: 1) },
            store.stableReadings(sensor: nil, in: window), .stable)
        let items = try store.items(sensor: nil, in: window)
        #expect(items.map(\.sequence) == [2, 1, 3], "by time, then as stored")
        try Self.expectSame(
            Self.streamed(store, .items, window) { try $0.items(store, after: $1, limit: 1) }, items, .items)
        let sessions = try store.sessions(sensor: nil, in: window)
        #expect(sessions.map(\.name) == ["crate-2", "crate-1", "crate-3"], "by start, then as stored")
        try Self.expectSame(
            Self.streamed(store, .sessions, window) { try $0.sessions(store, after: $1, limit: 1) }, sessions,
            .sessions)
        #expect(try store.sessions(sensor: "left", in: window).map(\.name) == ["crate-1", "crate-3"])
    }
}
