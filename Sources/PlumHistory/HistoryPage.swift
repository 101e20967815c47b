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
        let (table, time) =
            switch series {
            case .minutes: ("minute_summary", "minute")
            case .stable: ("stable_reading", "time")
            case .items: ("item_event", "time")
            case .sessions: ("weighing_session", "started")
            }
        let sql = """
            SELECT \(time) FROM \(table) WHERE (?1 IS NULL OR sensor = ?1) AND \(time) >= ?2 AND \(time) < ?3
            ORDER BY \(time) LIMIT 1 OFFSET ?4
            """
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
        var time: Double
        var sensor: String?
        var rowid: Int64?
    }

    /// Up to `limit` minute summaries after `cursor` (from the start when nil), oldest first.
    package func minutes(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int
    ) throws(HistoryError) -> (rows: [MinuteSummary], cursor: Cursor?) {
        try store.run("reading the history") {
            try store.pool.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT sensor, minute, min, mean, max, samples FROM minute_summary
                        WHERE (?1 IS NULL OR sensor = ?1) AND minute >= ?2 AND minute < ?3
                          AND (?4 IS NULL OR minute > ?4 OR (minute = ?4 AND sensor > ?5))
                        ORDER BY minute, sensor LIMIT ?6
                        """,
                    arguments: [
                        sensor, window.since, window.until, cursor?.time, cursor?.sensor, limit
                    ])
                let summaries = rows.map {
                    MinuteSummary(
                        sensor: $0["sensor"], minute: $0["minute"], min: $0["min"], mean: $0["mean"],
                        max: $0["max"], samples: $0["samples"])
                }
                let next = summaries.last.map {
                    Cursor(time: Double($0.minute), sensor: $0.sensor)
                }
                return (summaries, next)
            }
        }
    }

    /// Up to `limit` stable readings after `cursor` (from the start when nil), oldest first.
    package func stableReadings(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int
    ) throws(HistoryError) -> (rows: [StableReading], cursor: Cursor?) {
        try store.run("reading the history") {
            try store.pool.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT rowid, sensor, time, grams FROM stable_reading
                        WHERE (?1 IS NULL OR sensor = ?1) AND time >= ?2 AND time < ?3
                          AND (?4 IS NULL OR time > ?4 OR (time = ?4 AND rowid > ?5))
                        ORDER BY time, rowid LIMIT ?6
                        """,
                    arguments: [sensor, window.since, window.until, cursor?.time, cursor?.rowid, limit])
                let readings = rows.map { StableReading(sensor: $0["sensor"], time: $0["time"], grams: $0["grams"]) }
                let next = rows.last.map {
                    Cursor(time: $0["time"], rowid: $0["rowid"])
                }
                return (readings, next)
            }
        }
    }

    /// Up to `limit` item events after `cursor` (from the start when nil), oldest first.
    package func items(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int
    ) throws(HistoryError) -> (rows: [ItemRecord], cursor: Cursor?) {
        try rows(store, after: cursor, limit: limit, table: "item_event", time: "time", HistoryStore.itemColumns) {
            HistoryStore.item($0)
        }
    }

    /// Up to `limit` sessions after `cursor` (from the start when nil), by their start.
    package func sessions(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int
    ) throws(HistoryError) -> (rows: [SessionRecord], cursor: Cursor?) {
        try rows(
            store, after: cursor, limit: limit, table: "weighing_session", time: "started",
            HistoryStore.sessionColumns
        ) { HistoryStore.session($0) }
    }

    /// A chunk of a table whose rows are ordered by a time and then their row id.
    private func rows<T>(
        _ store: HistoryStore, after cursor: Cursor?, limit: Int, table: String, time: String, _ columns: String,
        _ make: (Row) -> T
    ) throws(HistoryError) -> (rows: [T], cursor: Cursor?) {
        try store.run("reading the history") {
            try store.pool.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(columns) FROM \(table)
                        WHERE (?1 IS NULL OR sensor = ?1) AND \(time) >= ?2 AND \(time) < ?3
                          AND (?4 IS NULL OR \(time) > ?4 OR (\(time) = ?4 AND rowid > ?5))
                        ORDER BY \(time), rowid LIMIT ?6
                        """,
                    arguments: [sensor, window.since, window.until, cursor?.time, cursor?.rowid, limit])
                let next = rows.last.map { Cursor(time: $0[time], rowid: $0["rowid"]) }
                return (rows.map(make), next)
            }
        }
    }
}
