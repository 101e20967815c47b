"""The history's tables and indexes as HistoryStore makes them (Sources/PlumHistory), v3's and v4's, for the
measurements that need SQLite alone (commit_bytes.py, history_growth.py). v4 is what plumscale-web makes now;
v3 is the one before, which had ten b-trees for a placement's commit to change where v4 has five.
"""

SCHEMAS = {
    "v3": """
CREATE TABLE stable_reading (sensor TEXT NOT NULL, time REAL NOT NULL, grams REAL NOT NULL);
CREATE INDEX stable_reading_by_sensor ON stable_reading(sensor, time);
CREATE INDEX stable_reading_by_time ON stable_reading(time);
CREATE TABLE minute_summary (sensor TEXT NOT NULL, minute INTEGER NOT NULL, min REAL NOT NULL, mean REAL NOT NULL,
    max REAL NOT NULL, samples INTEGER NOT NULL, PRIMARY KEY (sensor, minute));
CREATE INDEX minute_summary_by_minute ON minute_summary(minute, sensor);
CREATE TABLE item_event (sensor TEXT NOT NULL, seq INTEGER NOT NULL, item INTEGER, event TEXT NOT NULL,
    grams REAL NOT NULL, gross_after REAL NOT NULL, class TEXT, flags TEXT NOT NULL, time REAL NOT NULL,
    session TEXT, UNIQUE (sensor, seq, time));
CREATE INDEX item_event_by_time ON item_event(time);
CREATE INDEX item_event_by_session ON item_event(session, sensor);
""",
    "v4": """
CREATE TABLE stable_reading (sensor TEXT NOT NULL, time REAL NOT NULL, grams REAL NOT NULL);
CREATE INDEX stable_reading_by_time ON stable_reading(time);
CREATE TABLE minute_summary (minute INTEGER NOT NULL, sensor TEXT NOT NULL, min REAL NOT NULL, mean REAL NOT NULL,
    max REAL NOT NULL, samples INTEGER NOT NULL, PRIMARY KEY (minute, sensor)) WITHOUT ROWID;
CREATE TABLE item_event (sensor TEXT NOT NULL, seq INTEGER NOT NULL, item INTEGER, event TEXT NOT NULL,
    grams REAL NOT NULL, gross_after REAL NOT NULL, class TEXT, flags TEXT NOT NULL, time REAL NOT NULL,
    session TEXT, UNIQUE (time, sensor, seq));
CREATE INDEX item_event_by_session ON item_event(session, sensor) WHERE session IS NOT NULL;
""",
}

INSERT_STABLE = "INSERT INTO stable_reading (sensor, time, grams) VALUES (?, ?, ?)"
INSERT_MINUTE = "INSERT INTO minute_summary (sensor, minute, min, mean, max, samples) VALUES (?, ?, ?, ?, ?, ?)"
INSERT_ITEM = ("INSERT INTO item_event (sensor, seq, item, event, grams, gross_after, class, flags, time, session) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, '', ?, NULL)")
