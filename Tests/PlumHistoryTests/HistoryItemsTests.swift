import GRDB
import PlumHistory
import PlumTestSupport
import Testing

/// The daemon's items and sessions in the history store: the v3 migration, the rule that
/// names one item, the session's name on its items, retention, and the CSV.
@Suite("Items and sessions in the history store")
struct HistoryItemsTests {
    static let start = 1_795_388_100.0

    static func placed(
        _ seq: Int, item: Int, grams: Double, at time: Double, sensor: String = "left", weightClass: String? = nil
    ) -> ItemRecord {
        ItemRecord(
            sensor: sensor, sequence: seq, item: item, event: "placed", grams: grams, grossAfter: grams,
            weightClass: weightClass, time: time)
    }

    static func removed(_ seq: Int, item: Int, grams: Double, at time: Double) -> ItemRecord {
        ItemRecord(sensor: "left", sequence: seq, item: item, event: "removed", grams: grams, grossAfter: 0, time: time)
    }

    static func session(
        _ name: String, started: Double, stopped: Double? = nil, count: Int = 2, sensor: String = "left"
    ) -> SessionRecord {
        SessionRecord(
            name: name, sensor: sensor, started: started, stopped: stopped, division: 0.1, count: count,
            total: 122.2, mean: 61.1, minimum: 34.9, maximum: 87.3, standardDeviation: 37.335,
            classes: [.init(name: "small", count: 1), .init(name: "large", count: 1)], unclassified: 0)
    }

    /// The tables v1 and v2 made, exactly as those stores left them: older files to migrate.
    static let v2Tables = """
            CREATE TABLE stable_reading (sensor TEXT NOT NULL, time REAL NOT NULL, grams REAL NOT NULL);
            CREATE INDEX stable_reading_by_sensor ON stable_reading(sensor, time);
            CREATE TABLE minute_summary (
                sensor TEXT NOT NULL, minute INTEGER NOT NULL,
                min REAL NOT NULL, mean REAL NOT NULL, max REAL NOT NULL, samples INTEGER NOT NULL,
                PRIMARY KEY (sensor, minute));
            CREATE INDEX minute_summary_by_minute ON minute_summary(minute, sensor);
            CREATE INDEX stable_reading_by_time ON stable_reading(time);
        """

    /// A history file as an older store left it: `sql` and the migrator's record of `migrations`.
    static func oldFile(at path: String, migrations: [String], _ sql: String) throws {
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for migration in migrations {
                try db.execute(sql: "INSERT INTO grdb_migrations VALUES (?)", arguments: [migration])
            }
            try db.execute(sql: sql)
        }
        try old.close()
    }

    @Test("a file written by the previous schema (v1, v2) opens, migrates to v3 and keeps its rows")
    func migratesAnOldFile() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let path = directory.file("history.sqlite")
        // The tables and the migrator's record exactly as the v2 store left them.
        try Self.oldFile(
            at: path, migrations: ["v1", "v2"],
            Self.v2Tables + """
                INSERT INTO stable_reading VALUES ('left', 1795388100, 87.3);
                INSERT INTO minute_summary VALUES ('left', 1795388040, 0, 40, 87.3, 600);
                """)
        // plumscale history opens it read-only, which never migrates: it says what to do.
        let before = try HistoryStore(path: path, readOnly: true)
        let unmigrated = #expect(throws: HistoryError.self) {
            try before.items(sensor: nil, in: HistoryWindow(since: 0, until: 1))
        }
        #expect(unmigrated?.message.contains("restart plumscale-web") == true, "\(unmigrated?.message ?? "")")

        let store = try HistoryStore(path: path)
        let window = HistoryWindow(since: 0, until: Self.start + 1000)
        #expect(
            try store.stableReadings(sensor: nil, in: window)
                == [StableReading(sensor: "left", time: Self.start, grams: 87.3)])
        #expect(try store.minutes(sensor: "left", in: window).map(\.samples) == [600], "the old rows are kept")
        #expect(try store.writerSetting(.pageSize) == 4096, "an older file keeps the pages it was made with")
        #expect(try store.writerSetting(.walAutocheckpoint) == 1024, "and checkpoints at the same 4 MiB")
        #expect(try store.items(sensor: nil, in: window).isEmpty && store.sessions(sensor: nil, in: window).isEmpty)
        try store.append(
            stable: [], minutes: [], items: [Self.placed(1, item: 1, grams: 52.4, at: Self.start + 5)],
            sessions: [Self.session("crate-1", started: Self.start)])
        #expect(try store.items(sensor: nil, in: window).map(\.grams) == [52.4], "the new tables take rows")
        #expect(try store.sessions(sensor: nil, in: window).map(\.name) == ["crate-1"])
        #expect(try store.writerSynchronous() == 2, "the migrated file's writer still syncs each commit")
        let reader = try HistoryStore(path: path, readOnly: true)
        #expect(try reader.items(sensor: "left", in: window).count == 1, "plumscale history reads it read-only")
    }

    @Test("a v3 file migrates to v4's fewer b-trees and keeps every row, its row id and its rules")
    func migratesV3() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let path = directory.file("history.sqlite")
        // The tables, indexes and migrator's record exactly as the v3 store left them.
        try Self.oldFile(
            at: path, migrations: ["v1", "v2", "v3"],
            Self.v2Tables + """
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
                    mean REAL, min REAL, max REAL, std_dev REAL, classes TEXT NOT NULL,
                    unclassified INTEGER NOT NULL, PRIMARY KEY (name, sensor, started));
                CREATE INDEX weighing_session_by_start ON weighing_session(started);
                INSERT INTO stable_reading VALUES ('right', 1795388100, 120.0), ('left', 1795388100, 87.3);
                INSERT INTO minute_summary VALUES ('left', 1795388040, 0, 40, 87.3, 600),
                    ('right', 1795388040, 0, 60, 120.0, 600);
                INSERT INTO item_event (rowid, sensor, seq, item, event, grams, gross_after, class, flags, time,
                    session) VALUES (7, 'left', 1, 1, 'placed', 87.3, 87.3, 'large', '', 1795388100, 'crate-1');
                """)
        let store = try HistoryStore(path: path)
        let window = HistoryWindow(since: 0, until: Self.start + 1000)
        #expect(
            try store.stableReadings(sensor: nil, in: window).map(\.sensor) == ["left", "right"], "by time, then pan")
        #expect(try store.stableReadings(sensor: "left", in: window).map(\.grams) == [87.3], "a pan's own")
        #expect(try store.minutes(sensor: nil, in: window).map(\.mean) == [40, 60])
        #expect(try store.minutes(sensor: "right", in: window).map(\.mean) == [60])
        #expect(try store.items(sensor: nil, in: window).map(\.session) == ["crate-1"])
        // The trees left: a placement outside a session changes five, a minute's summaries one
        // (a table without row ids is its key's tree).
        let indexes = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name != 'grdb_migrations' ORDER BY name"
            )
        }
        #expect(
            indexes == [
                "item_event_by_session", "sqlite_autoindex_item_event_1", "sqlite_autoindex_weighing_session_1",
                "stable_reading_by_time", "weighing_session_by_start"
            ], "\(indexes)")
        let rowid = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT rowid FROM item_event")
        }
        #expect(rowid == 7, "a cursor's row id still names its row")
        // The rules still hold on the rebuilt tables: a copy of an item is ignored, a minute merged.
        try store.append(
            stable: [],
            minutes: [MinuteSummary(sensor: "left", minute: 1_795_388_040, min: 0, mean: 100, max: 100, samples: 600)],
            items: [Self.placed(1, item: 1, grams: 87.3, at: Self.start, weightClass: "large")])
        #expect(try store.items(sensor: nil, in: window).count == 1, "the copy is ignored")
        #expect(try store.minutes(sensor: "left", in: window).map(\.mean) == [70], "the two halves are merged")
        #expect(try store.lastStableReadings().map(\.grams) == [87.3, 120.0], "each pan's newest, by pan")
    }

    @Test("sensor, seq and time name one item: a copy is ignored, a restarted daemon's seq 1 is a new item")
    func oneItemOnce() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        let first = Self.placed(1, item: 1, grams: 87.3, at: Self.start)
        let second = Self.removed(2, item: 1, grams: 87.3, at: Self.start + 4)
        try store.append(stable: [], minutes: [], items: [first, second])
        // A web service that reconnected (or restarted) and saw the same reports again.
        try store.append(stable: [], minutes: [], items: [first, second])
        let reopened = try HistoryStore(path: directory.file("history.sqlite"))
        try reopened.append(stable: [], minutes: [], items: [second])
        // The daemon restarted: its seq starts again at 1, at a later time; another pan has its own seq.
        let afterRestart = Self.placed(1, item: 1, grams: 60.0, at: Self.start + 100)
        let otherPan = Self.placed(1, item: 1, grams: 87.3, at: Self.start, sensor: "right")
        try reopened.append(stable: [], minutes: [], items: [afterRestart, otherPan])
        let stored = try reopened.items(sensor: nil, in: HistoryWindow(since: 0, until: Self.start + 1000))
        #expect(stored == [first, otherPan, second, afterRestart], "each event once, oldest first")
    }

    @Test("a session names the placed items of its sensor while it ran, whether its report comes before or after")
    func sessionNamesItsItems() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        let before = Self.placed(1, item: 1, grams: 10, at: Self.start - 30)
        let inside = Self.placed(2, item: 2, grams: 87.3, at: Self.start + 3.5, weightClass: "large")
        let lifted = Self.removed(3, item: 2, grams: 87.3, at: Self.start + 6)
        let otherPan = Self.placed(1, item: 1, grams: 20, at: Self.start + 7, sensor: "right")
        // The items are written first, as when plumscale-web restarted in the middle of a session.
        try store.append(stable: [], minutes: [], items: [before, inside, lifted, otherPan])
        try store.append(stable: [], minutes: [], sessions: [Self.session("crate-12", started: Self.start, count: 1)])
        // The last item in the second the daemon stopped it (its times are whole seconds), one after.
        let last = Self.placed(4, item: 3, grams: 34.9, at: Self.start + 60.7)
        let after = Self.placed(5, item: 4, grams: 40, at: Self.start + 62)
        try store.append(
            stable: [], minutes: [], items: [last, after],
            sessions: [Self.session("crate-12", started: Self.start, stopped: Self.start + 60)])
        let window = HistoryWindow(since: 0, until: Self.start + 1000)
        let named = try store.items(sensor: nil, in: window).map {
            "\($0.sensor) \($0.sequence) \($0.session ?? "-")"
        }
        #expect(named == ["left 1 -", "left 2 crate-12", "left 3 -", "right 1 -", "left 4 crate-12", "left 5 -"])
        let sessions = try store.sessions(sensor: "left", in: window)
        #expect(
            sessions == [Self.session("crate-12", started: Self.start, stopped: Self.start + 60)],
            "one row, with the latest figures")
        #expect(try store.sessions(sensor: "right", in: window).isEmpty)
    }

    @Test("retention deletes old items; a session stays while it runs or any of its items does")
    func retention() throws {
        let directory = try TemporaryDirectory(prefix: "plumhistory")
        let store = try HistoryStore(path: directory.file("history.sqlite"))
        let day = 86_400.0
        try store.append(
            stable: [], minutes: [],
            items: [
                Self.placed(1, item: 1, grams: 50, at: Self.start + 10),
                Self.placed(2, item: 2, grams: 51, at: Self.start + 2 * day + 10),
                Self.placed(3, item: 3, grams: 52, at: Self.start + 3 * day + 10),
                Self.placed(4, item: 4, grams: 53, at: Self.start + 5 * day + 10)
            ],
            sessions: [
                Self.session("old", started: Self.start, stopped: Self.start + 20),
                Self.session("long", started: Self.start + 2 * day, stopped: Self.start + 5 * day + 20),
                Self.session("idle", started: Self.start + 3 * day),
                Self.session("ended", started: Self.start + 3 * day + 5, stopped: Self.start + 3 * day + 30)
            ])
        try store.purge(before: Self.start + 4 * day)
        let window = HistoryWindow(since: 0, until: Self.start + 10 * day)
        #expect(try store.items(sensor: nil, in: window).map(\.sequence) == [4])
        #expect(
            try store.sessions(sensor: nil, in: window).map(\.name) == ["long", "idle"],
            "long keeps its newest item, idle still runs; old and ended are gone with their items")
    }

    @Test("the items and sessions CSV: every column, empty for what is absent")
    func csv() {
        let items = [
            Self.placed(7, item: 3, grams: 87.3, at: Self.start + 3.25, weightClass: "large"),
            ItemRecord(
                sensor: "crate", sequence: 9, item: nil, event: "removed", grams: 1250.5, grossAfter: 0,
                flags: ["merged", "stacked"], time: Self.start + 4, session: "crate, 12")
        ]
        #expect(
            HistoryExport.csv(items) == """
                time,sensor,seq,item,event,grams,gross_after,class,flags,session
                2026-11-22T22:55:03Z,left,7,3,placed,87.300,87.300,large,,
                2026-11-22T22:55:04Z,crate,9,,removed,1250.500,0.000,,merged stacked,"crate, 12"

                """)
        let running = SessionRecord(
            name: "crate-13", sensor: "left", started: Self.start + 60, division: 0.1, count: 0, total: 0,
            unclassified: 0)
        let stopped = Self.session("crate-12", started: Self.start, stopped: Self.start + 50)
        #expect(
            HistoryExport.csv([stopped, running])
                == "started,stopped,name,sensor,count,total,mean,min,max,std_dev,classes,unclassified\n"
                + "2026-11-22T22:55:00Z,2026-11-22T22:55:50Z,crate-12,left,"
                + "2,122.200,61.100,34.900,87.300,37.335,small=1;large=1,0\n"
                + "2026-11-22T22:56:00Z,,crate-13,left,0,0.000,,,,,,0\n",
            "a running session has no stop; with no items, no mean, min, max or deviation")
    }
}
