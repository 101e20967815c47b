/// Where a series lives in the history file and the SQL that chooses its rows, written once so
/// that a whole-window read (`plumscale history`), a page's boundary and a chunk of a streamed
/// export (``HistoryPage``) select the same rows in the same order.
///
/// Every statement takes the same first three arguments: `?1` the sensor (NULL for all),
/// `?2` and `?3` the window's `since` and `until`.
struct HistoryQuery: Sendable {
    /// The table.
    let table: String
    /// The column that places a row in the window and orders it: a minute, a time, a start.
    let time: String
    /// What tells apart rows of one time: the pan for minutes (one row per pan and minute), the
    /// row id for the others (two readings, items or sessions may share a time).
    let tieBreak: String
    /// What a read selects.
    let columns: String

    static let minutes = HistoryQuery(
        table: "minute_summary", time: "minute", tieBreak: "sensor", columns: "sensor, minute, min, mean, max, samples")
    static let stable = HistoryQuery(
        table: "stable_reading", time: "time", tieBreak: "rowid", columns: "rowid, sensor, time, grams")
    static let items = HistoryQuery(
        table: "item_event", time: "time", tieBreak: "rowid",
        columns: "rowid, sensor, seq, item, event, grams, gross_after, class, flags, time, session")
    static let sessions = HistoryQuery(
        table: "weighing_session", time: "started", tieBreak: "rowid",
        columns: "rowid, name, sensor, started, stopped, division, count, total, mean, min, max, std_dev, classes, "
            + "unclassified")

    static func of(_ series: HistoryExport.Series) -> HistoryQuery {
        switch series {
        case .minutes: .minutes
        case .stable: .stable
        case .items: .items
        case .sessions: .sessions
        }
    }

    /// The rows of the sensor (or all) in the window.
    var filter: String { "(?1 IS NULL OR sensor = ?1) AND \(time) >= ?2 AND \(time) < ?3" }

    /// Every row in the window, ordered by `order`, by default the time and then ``tieBreak``.
    func all(orderedBy order: String? = nil) -> String {
        "SELECT \(columns) FROM \(table) WHERE \(filter) ORDER BY \(order ?? "\(time), \(tieBreak)")"
    }

    /// The time of the row `?4` rows into the window: where a page of `?4` rows ends.
    var boundary: String {
        "SELECT \(time) FROM \(table) WHERE \(filter) ORDER BY \(time) LIMIT 1 OFFSET ?4"
    }

    /// Up to `?6` rows after the cursor (`?4` its time, NULL from the start, and `?5` its
    /// ``tieBreak``), ordered by time and then that key.
    var chunk: String {
        """
        SELECT \(columns) FROM \(table)
        WHERE \(filter)
          AND (?4 IS NULL OR \(time) > ?4 OR (\(time) = ?4 AND \(tieBreak) > ?5))
        ORDER BY \(time), \(tieBreak) LIMIT ?6
        """
    }
}
