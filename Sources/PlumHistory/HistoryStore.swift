internal import GRDB

/// The history database: SQLite in WAL mode, so `plumscale history` can read while
/// plumscale-web writes.
///
/// Four tables: `stable_reading(sensor, time, grams)`,
/// `minute_summary(minute, sensor, min, mean, max, samples)`, and since v3 the daemon's items
/// and sessions, `item_event` and `weighing_session` (HistoryStore+Items.swift). The file is
/// created with its directory's permissions; one writer (plumscale-web) at a time.
package final class HistoryStore: Sendable {
    /// The file plumscale-web uses by default, under systemd's `StateDirectory=plumscale-web`.
    package static let defaultPath = "/var/lib/plumscale-web/history.sqlite"

    package let path: String
    let pool: DatabasePool

    /// The page size of a new history file, in bytes.
    static let pageSize = 1024
    /// How much the WAL holds before it is checkpointed into the file, in bytes.
    static let checkpointBytes = 4 << 20

    /// Opens (and, unless `readOnly`, creates and migrates) the store at `path`.
    /// - Throws: ``HistoryError`` naming the file and what to do.
    package init(path: String, readOnly: Bool = false) throws(HistoryError) {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(5)
        // A new file gets 1 KiB pages, not SQLite's 4 KiB: each commit writes every page it
        // changed to the WAL whole, a placement changes a leaf of each of five b-trees (the
        // stable reading, the item event and an index of each, and the minute summaries when
        // due; ``leanerTrees(_:)``), and the card's write budget is counted in those bytes
        // (docs/PERFORMANCE.md, "Writes to the SD card"). A file made with other pages keeps them:
        // the size is fixed once the first table is written (before GRDB turns WAL on, which is
        // after this). The WAL is checkpointed into the file once it holds 4 MiB (SQLite's default
        // of 1000 pages of 4 KiB, stated here as the policy): a day and more of batches at rest,
        // so a page rewritten by many commits reaches the file once, not each time.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.checkpointBytes / max(pageSize, 512))")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            if !readOnly {
                try Self.migrator.migrate(pool)
                // Each commit synced before it returns (plumscale-web commits its batches,
                // HistoryBatch), so a power cut loses only rows not yet written. Set on the
                // writer after opening: GRDB's pool sets NORMAL when it turns WAL on, after
                // prepareDatabase, and NORMAL syncs only at checkpoints.
                try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
            }
        } catch {
            let hint =
                readOnly
                ? "is plumscale-web recording history there? (see [web] history in the configuration)"
                : "check that the directory exists and is writable by this user"
            throw HistoryError("opening the history \(path): \(Self.describe(error)); \(hint)")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE stable_reading (sensor TEXT NOT NULL, time REAL NOT NULL, grams REAL NOT NULL);
                    CREATE INDEX stable_reading_by_sensor ON stable_reading(sensor, time);
                    CREATE TABLE minute_summary (
                        sensor TEXT NOT NULL, minute INTEGER NOT NULL,
                        min REAL NOT NULL, mean REAL NOT NULL, max REAL NOT NULL, samples INTEGER NOT NULL,
                        PRIMARY KEY (sensor, minute));
                    """)
        }
        // Pages of every pan's history in time order (GET /api/history without a sensor) walk
        // these instead of sorting the whole table for each page.
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    CREATE INDEX minute_summary_by_minute ON minute_summary(minute, sensor);
                    CREATE INDEX stable_reading_by_time ON stable_reading(time);
                    """)
        }
        migrator.registerMigration("v3") { db in try HistoryStore.createItemTables(db) }
        migrator.registerMigration("v4") { db in try HistoryStore.leanerTrees(db) }
        return migrator
    }

    /// Fewer b-trees for each commit to change (docs/PERFORMANCE.md, "Writes to the SD card"): a
    /// commit writes a page of every b-tree it touches, so a placement that touched ten wrote ten
    /// pages. `minute_summary` becomes a `WITHOUT ROWID` table keyed by minute and pan, one tree
    /// instead of three (its rows, its key, the index by minute); `stable_reading` keeps only its
    /// index by time, the one that orders pages of every pan (a pan's rows are found on it too:
    /// a scale has a few pans); `item_event`'s key starts with the time, so it is its index by
    /// time as well, and its index by session holds only the items of a session. A placement
    /// outside a session now changes five trees, and a minute's summaries one. Rows keep their
    /// row ids, which cursors of a read in progress hold.
    static func leanerTrees(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP INDEX stable_reading_by_sensor;
                CREATE TABLE minute_summary_v4 (
                    minute INTEGER NOT NULL, sensor TEXT NOT NULL,
                    min REAL NOT NULL, mean REAL NOT NULL, max REAL NOT NULL, samples INTEGER NOT NULL,
                    PRIMARY KEY (minute, sensor)) WITHOUT ROWID;
                INSERT INTO minute_summary_v4 (minute, sensor, min, mean, max, samples)
                    SELECT minute, sensor, min, mean, max, samples FROM minute_summary;
                DROP TABLE minute_summary;
                ALTER TABLE minute_summary_v4 RENAME TO minute_summary;
                CREATE TABLE item_event_v4 (
                    sensor TEXT NOT NULL, seq INTEGER NOT NULL, item INTEGER, event TEXT NOT NULL,
                    grams REAL NOT NULL, gross_after REAL NOT NULL, class TEXT, flags TEXT NOT NULL,
                    time REAL NOT NULL, session TEXT,
                    UNIQUE (time, sensor, seq));
                INSERT INTO item_event_v4
                    (rowid, sensor, seq, item, event, grams, gross_after, class, flags, time, session)
                    SELECT rowid, sensor, seq, item, event, grams, gross_after, class, flags, time, session
                    FROM item_event;
                DROP TABLE item_event;
                ALTER TABLE item_event_v4 RENAME TO item_event;
                CREATE INDEX item_event_by_session ON item_event(session, sensor) WHERE session IS NOT NULL;
                """)
    }

    /// Stores what a ``HistoryRecorder`` produced and the daemon's items and sessions, in one
    /// transaction. An item already stored is not stored again; a session replaces its older
    /// figures and names the items it counted (``insert(items:sessions:in:)``).
    package func append(
        stable: [StableReading], minutes: [MinuteSummary], items: [ItemRecord] = [], sessions: [SessionRecord] = []
    ) throws(HistoryError) {
        guard !stable.isEmpty || !minutes.isEmpty || !items.isEmpty || !sessions.isEmpty else { return }
        try run("writing the history") {
            try pool.write { db in
                try Self.insert(items: items, sessions: sessions, in: db)
                for reading in stable {
                    try db.execute(
                        sql: "INSERT INTO stable_reading (sensor, time, grams) VALUES (?, ?, ?)",
                        arguments: [reading.sensor, reading.time, reading.grams])
                }
                // A minute summarised a second time is merged with the first, not put in its
                // place: plumscale-web restarted inside a minute wrote its first part at shutdown,
                // and a wall clock stepped back an hour (NTP) brings that hour's minutes again.
                for summary in minutes {
                    try db.execute(
                        sql: """
                            INSERT INTO minute_summary (sensor, minute, min, mean, max, samples)
                            VALUES (?, ?, ?, ?, ?, ?)
                            ON CONFLICT (minute, sensor) DO UPDATE SET
                                min = min(minute_summary.min, excluded.min),
                                max = max(minute_summary.max, excluded.max),
                                mean = (minute_summary.mean * minute_summary.samples + excluded.mean * excluded.samples)
                                    / (minute_summary.samples + excluded.samples),
                                samples = minute_summary.samples + excluded.samples
                            """,
                        arguments: [
                            summary.sensor, summary.minute, summary.min, summary.mean, summary.max,
                            summary.samples
                        ])
                }
            }
        }
    }

    /// The minute summaries in `window`, oldest first; all sensors when `sensor` is nil.
    package func minutes(sensor: String?, in window: HistoryWindow) throws(HistoryError) -> [MinuteSummary] {
        try rows(.minutes, sensor: sensor, in: window, Self.minute)
    }

    /// The stable readings in `window`, oldest first; all sensors when `sensor` is nil.
    package func stableReadings(sensor: String?, in window: HistoryWindow) throws(HistoryError) -> [StableReading] {
        try rows(.stable, sensor: sensor, in: window, orderedBy: "time, sensor", Self.reading)
    }

    /// Every row of `query` in `window` (of `sensor`, or all when nil), by time and then the
    /// query's tie-break unless `order` says otherwise; `check` runs first, in the same read.
    func rows<T>(
        _ query: HistoryQuery, sensor: String?, in window: HistoryWindow, orderedBy order: String? = nil,
        check: (Database) throws -> Void = { _ in }, _ make: (Row) -> T
    ) throws(HistoryError) -> [T] {
        try run("reading the history") {
            try pool.read { db in
                try check(db)
                return try Row.fetchAll(
                    db, sql: query.all(orderedBy: order), arguments: [sensor, window.since, window.until]
                ).map(make)
            }
        }
    }

    static func minute(_ row: Row) -> MinuteSummary {
        MinuteSummary(
            sensor: row["sensor"], minute: row["minute"], min: row["min"], mean: row["mean"], max: row["max"],
            samples: row["samples"])
    }

    static func reading(_ row: Row) -> StableReading {
        StableReading(sensor: row["sensor"], time: row["time"], grams: row["grams"])
    }

    /// The newest stable reading of each sensor, whenever it was: where a restarted recorder
    /// takes up (``HistoryRecorder/resume(sensor:lastStored:)``). One pass over the table, once
    /// at start (there is no index by pan); with a single `MAX()`, SQLite takes the row's other
    /// columns from the row that holds the maximum.
    package func lastStableReadings() throws(HistoryError) -> [StableReading] {
        try run("reading the history") {
            try pool.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT sensor, MAX(time) AS time, grams FROM stable_reading
                        GROUP BY sensor ORDER BY sensor
                        """)
                return rows.map(Self.reading)
            }
        }
    }

    /// The writer's `PRAGMA synchronous`: 2 (FULL) once opened for writing, so each commit is
    /// synced before it returns.
    package func writerSynchronous() throws(HistoryError) -> Int { try writerSetting(.synchronous) }

    /// The settings of the writer's connection that the write budget rests on.
    package enum Setting: String, Sendable {
        case synchronous
        case pageSize = "page_size"
        case walAutocheckpoint = "wal_autocheckpoint"
    }

    /// The writer's value of `setting`.
    package func writerSetting(_ setting: Setting) throws(HistoryError) -> Int {
        try run("reading the history's settings") {
            try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA \(setting.rawValue)") ?? -1 }
        }
    }

    /// Deletes everything older than `cutoff` (seconds since the epoch); returns the rows removed.
    /// A session goes with its newest item: it stays while any item it counted does, or while
    /// it started or stopped after the cutoff.
    @discardableResult
    package func purge(before cutoff: Double) throws(HistoryError) -> Int {
        try run("purging old history") {
            try pool.write { db in
                try db.execute(sql: "DELETE FROM stable_reading WHERE time < ?", arguments: [cutoff])
                var removed = db.changesCount
                try db.execute(sql: "DELETE FROM minute_summary WHERE minute < ?", arguments: [cutoff])
                removed += db.changesCount
                return removed + (try Self.purgeItems(before: cutoff, in: db))
            }
        }
    }

    /// `PRAGMA integrity_check`: `ok`, or SQLite's list of what is damaged.
    package func integrityCheck() throws(HistoryError) -> String {
        try run("checking the history") {
            try pool.read { try String.fetchAll($0, sql: "PRAGMA integrity_check").joined(separator: "; ") }
        }
    }

    func run<T>(_ operation: String, _ body: () throws -> T) throws(HistoryError) -> T {
        do {
            return try body()
        } catch {
            // SQLite says only "database or disk is full": name the file system and the cure.
            let full = (error as? DatabaseError)?.resultCode == .SQLITE_FULL
            let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
                .joined(separator: "/")
            let hint =
                full
                ? "; the file system holding \(directory.isEmpty ? "." : directory) is full: free some space there"
                : ""
            throw HistoryError("\(operation) in \(path): \(Self.describe(error))\(hint)", noSpace: full)
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let database = error as? DatabaseError { return database.message ?? "\(database.resultCode)" }
        return "\(error)"
    }
}
