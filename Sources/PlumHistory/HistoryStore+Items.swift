import FoundationEssentials
internal import GRDB

/// The daemon's items and sessions in the history (docs/web.md, "History").
///
/// `item_event` holds one row per `ITEM` report. The daemon's `seq` restarts at 1 with the
/// daemon, and a web service that reconnects or restarts may see a report it already stored, so
/// `UNIQUE (sensor, seq, time)` names one event and a second copy is ignored; the same `seq`
/// at another time is a new event of a restarted daemon. `weighing_session` holds one row per
/// session, its latest figures, keyed by name, sensor and start (whole seconds, as the daemon
/// says them).
extension HistoryStore {
    static func createItemTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE item_event (
                    sensor TEXT NOT NULL, seq INTEGER NOT NULL, item INTEGER, event TEXT NOT NULL,
                    grams REAL NOT NULL, gross_after REAL NOT NULL, class TEXT, flags TEXT NOT NULL,
                    time REAL NOT NULL, session TEXT,
                    UNIQUE (sensor, seq, time));
                CREATE INDEX item_event_by_time ON item_event(time);
                CREATE INDEX item_event_by_session ON item_event(session, sensor);
                CREATE TABLE weighing_session (
                    name TEXT NOT NULL, sensor TEXT NOT NULL, started REAL NOT NULL, stopped REAL,
                    division REAL NOT NULL, count INTEGER NOT NULL, total REAL NOT NULL,
                    mean REAL, min REAL, max REAL, std_dev REAL, classes TEXT NOT NULL, unclassified INTEGER NOT NULL,
                    PRIMARY KEY (name, sensor, started));
                CREATE INDEX weighing_session_by_start ON weighing_session(started);
                """)
    }

    /// Inserts the items (a copy of one already stored is ignored), then each session's latest
    /// figures, then names the session in the `placed` items of its sensor from its start to its
    /// stop that have none: the session's report may come after its items, or in a later batch,
    /// or be the first a restarted web service sees of a session that was already running.
    /// The daemon's times of a session are whole seconds, so its stop covers that whole second.
    static func insert(items: [ItemRecord], sessions: [SessionRecord], in db: Database) throws {
        for item in items {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO item_event
                    (sensor, seq, item, event, grams, gross_after, class, flags, time, session)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    item.sensor, item.sequence, item.item, item.event, item.grams, item.grossAfter, item.weightClass,
                    item.flags.joined(separator: " "), item.time, item.session
                ])
        }
        for session in sessions {
            try db.execute(
                sql: """
                    INSERT INTO weighing_session
                    (name, sensor, started, stopped, division, count, total, mean, min, max, std_dev, classes,
                     unclassified)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (name, sensor, started) DO UPDATE SET
                      stopped = excluded.stopped, division = excluded.division, count = excluded.count,
                      total = excluded.total, mean = excluded.mean, min = excluded.min, max = excluded.max,
                      std_dev = excluded.std_dev, classes = excluded.classes, unclassified = excluded.unclassified
                    """,
                arguments: [
                    session.name, session.sensor, session.started, session.stopped, session.division, session.count,
                    session.total, session.mean, session.minimum, session.maximum, session.standardDeviation,
                    classesText(session.classes), session.unclassified
                ])
            try db.execute(
                sql: """
                    UPDATE item_event SET session = ?1
                    WHERE session IS NULL AND event = 'placed' AND sensor = ?2 AND time >= ?3
                      AND (?4 IS NULL OR time < ?4 + 1)
                    """,
                arguments: [session.name, session.sensor, session.started, session.stopped])
        }
    }

    /// Items older than `cutoff`, and the stopped sessions whose stop is older too and none of
    /// whose items is left: a session's row lasts as long as its newest item (which is never
    /// after its stop), and a running session stays.
    static func purgeItems(before cutoff: Double, in db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM item_event WHERE time < ?", arguments: [cutoff])
        var removed = db.changesCount
        try db.execute(
            sql: """
                DELETE FROM weighing_session
                WHERE stopped IS NOT NULL AND stopped < ?1
                  AND NOT EXISTS (SELECT 1 FROM item_event AS item
                    WHERE item.session = weighing_session.name AND item.sensor = weighing_session.sensor)
                """,
            arguments: [cutoff])
        removed += db.changesCount
        return removed
    }

    /// The item events in `window`, oldest first; all sensors when `sensor` is nil.
    package func items(sensor: String?, in window: HistoryWindow) throws(HistoryError) -> [ItemRecord] {
        try rows(.items, sensor: sensor, in: window, check: Self.requireItemTables, Self.item)
    }

    /// The sessions that started in `window`, oldest first; all sensors when `sensor` is nil.
    package func sessions(sensor: String?, in window: HistoryWindow) throws(HistoryError) -> [SessionRecord] {
        try rows(.sessions, sensor: sensor, in: window, check: Self.requireItemTables, Self.session)
    }

    /// `plumscale history` opens the file read-only and so never migrates it: a file the web
    /// service has not opened since it was upgraded has no items yet, which is said as such.
    private static func requireItemTables(_ db: Database) throws {
        guard try db.tableExists("item_event") else {
            throw HistoryError(
                "it has no items or sessions yet: the plumscale-web that wrote it is older than them; "
                    + "restart plumscale-web (it adds them when it opens the file) and ask again")
        }
    }

    static func item(_ row: Row) -> ItemRecord {
        let flags: String = row["flags"]
        return ItemRecord(
            sensor: row["sensor"], sequence: row["seq"], item: row["item"], event: row["event"], grams: row["grams"],
            grossAfter: row["gross_after"], weightClass: row["class"],
            flags: flags.split(separator: " ").map(String.init), time: row["time"], session: row["session"])
    }

    static func session(_ row: Row) -> SessionRecord {
        let classes: String = row["classes"]
        return SessionRecord(
            name: row["name"], sensor: row["sensor"], started: row["started"], stopped: row["stopped"],
            division: row["division"], count: row["count"], total: row["total"], mean: row["mean"],
            minimum: row["min"], maximum: row["max"], standardDeviation: row["std_dev"],
            classes: (try? JSONDecoder().decode([SessionRecord.ClassCount].self, from: Data(classes.utf8))) ?? [],
            unclassified: row["unclassified"])
    }

    /// The bands as JSON, `[{"count":3,"name":"small"}]`: names are the configuration's, any text.
    private static func classesText(_ classes: [SessionRecord.ClassCount]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding names and counts cannot fail.
        return (try? encoder.encode(classes)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}
