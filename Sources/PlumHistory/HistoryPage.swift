internal import GRDB

/// The history read a piece at a time, so an export of a year costs the memory of one piece.
///
/// A request's window is cut into pages of at most a given number of rows, each ending at a
/// time boundary (`until` of the page is the time of the first row it leaves out), so the next
/// page is simply the same request with `since` at that time. Within a page, rows are read in
/// chunks after a cursor (the last row's key), each chunk a short read transaction, so a slow
/// client holds no snapshot of the database.
package struct HistoryPage: Sendable {
    package let series: HistoryExport.Series
    package let sensor: String?
    /// This page's part of the window.
    package let window: HistoryWindow
    /// Where the next page starts; nil on the last page.
    package let nextSince: Double?

    /// The first page of `window` of at most `rows` rows, and where the next begins.
    package init(
        _ store: HistoryStore, series: HistoryExport.Series, sensor: String?, window: HistoryWindow, rows: Int
    ) throws(HistoryError) {
        self.series = series
        self.sensor = sensor
        let sql = HistoryQuery.of(series).boundary
        let boundary = try store.run("reading the history") {
            try store.pool.read { db in
                try Double.fetchOne(db, sql: sql, arguments: [sensor, window.since, window.until, rows])
            }
        }
        // A boundary at the very start would make an empty page (more pans than rows in one
        // minute): such a page takes its whole first minute instead.
        if let boundary, boundary > window.since {
            self.window = HistoryWindow(since: window.since, until: boundary)
            nextSince = boundary
        } else {
            self.window = window
            nextSince = nil
        }
    }

    /// Where a chunk ended: the key of its last row (time, then the pan for minutes or the row
    /// id for readings, which may share a time).
    package struct Cursor: Sendable {
        package var time: Double
        package var sensor: String?
        var rowid: Int64?
    }

    /// Up to `limit` minute summaries after `cursor` (from the start when nil), oldest first.
    package func minutes(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int
    ) throws(HistoryError) -> (rows: [MinuteSummary], cursor: Cursor?) {
        try rows(store, after: cursor, limit: limit, .minutes, HistoryStore.minute)
    }

    /// Up to `limit` stable readings after `cursor` (from the start when nil), oldest first.
    package func stableReadings(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int
    ) throws(HistoryError) -> (rows: [StableReading], cursor: Cursor?) {
        try rows(store, after: cursor, limit: limit, .stable, HistoryStore.reading)
    }

    /// Up to `limit` item events after `cursor` (from the start when nil), oldest first.
    package func items(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int
    ) throws(HistoryError) -> (rows: [ItemRecord], cursor: Cursor?) {
        try rows(store, after: cursor, limit: limit, .items, HistoryStore.item)
    }

    /// Up to `limit` sessions after `cursor` (from the start when nil), by their start.
    package func sessions(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int
    ) throws(HistoryError) -> (rows: [SessionRecord], cursor: Cursor?) {
        try rows(store, after: cursor, limit: limit, .sessions, HistoryStore.session)
    }

    /// A chunk of `query`'s table, ordered by its time and then its ``HistoryQuery/tieBreak``,
    /// which the cursor keeps: the pan for minutes, the row id for the others.
    private func rows<T>(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int, _ query: HistoryQuery, _ make: (Row) -> T
    ) throws(HistoryError) -> (rows: [T], cursor: Cursor?) {
        let byPan = query.tieBreak == "sensor"
        let key: (any DatabaseValueConvertible)? = byPan ? cursor?.sensor : cursor?.rowid
        return try store.run("reading the history") {
            try store.pool.read { db in
                let rows = try Row.fetchAll(
                    db, sql: query.chunk,
                    arguments: [sensor, window.since, window.until, cursor?.time, key, limit])
                let next = rows.last.map { (row: Row) -> Cursor in
                    byPan
                        ? Cursor(time: row[query.time], sensor: row["sensor"])
                        : Cursor(time: row[query.time], rowid: row["rowid"])
                }
                return (rows.map(make), next)
            }
        }
    }
}
