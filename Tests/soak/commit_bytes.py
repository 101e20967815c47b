#!/usr/bin/env python3
"""What one history commit costs the SD card, with SQLite alone: the bytes a process makes the kernel write
(/proc/self/io write_bytes) for each commit of a placement's rows, against the WAL frames the commit adds
(docs/PERFORMANCE.md, "Writes to the SD card").

usage: commit_bytes.py MODE [--gap SECONDS] [--commits N] [--dir DIR]

MODE: `full` (plumscale-web's settings: WAL, 1 KiB pages, synchronous = FULL, a second connection reading
as the pool's readers do), `normal` (synchronous = NORMAL) or `exclusive` (locking_mode = EXCLUSIVE, no
reader: SQLite keeps the WAL's index in memory, so the -shm file's share is the difference from `full`).
Each commit stores what a placement at a change a minute brings: a stable reading, an item event and the
two pans' minute summaries, into the history's tables and indexes. The gap between commits (default 33 s)
is longer than the kernel's write-back delay (30 s), so each commit finds its pages clean, as at a placement
a minute. DIR must be on a disk, not a tmpfs, which /proc/PID/io does not count.
"""
import argparse, os, random, sqlite3, sys, time

SCHEMA = """
CREATE TABLE stable_reading (sensor TEXT NOT NULL, time REAL NOT NULL, grams REAL NOT NULL);
CREATE INDEX stable_reading_by_sensor ON stable_reading(sensor, time);
CREATE INDEX stable_reading_by_time ON stable_reading(time);
CREATE TABLE minute_summary (sensor TEXT NOT NULL, minute INTEGER NOT NULL, min REAL NOT NULL, mean REAL NOT NULL,
    max REAL NOT NULL, samples INTEGER NOT NULL, PRIMARY KEY (sensor, minute));
CREATE INDEX minute_summary_by_minute ON minute_summary(minute, sensor);
CREATE TABLE item_event (sensor TEXT NOT NULL, seq INTEGER NOT NULL, time REAL NOT NULL, kind TEXT NOT NULL,
    grams REAL, session TEXT, UNIQUE (sensor, seq, time));
CREATE INDEX item_event_by_time ON item_event(time);
CREATE INDEX item_event_by_session ON item_event(session, sensor);
"""


def written():
    with open("/proc/self/io") as f:
        return int(dict(line.split(": ") for line in f.read().splitlines())["write_bytes"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("full", "normal", "exclusive"))
    parser.add_argument("--gap", type=float, default=33)
    parser.add_argument("--commits", type=int, default=6)
    parser.add_argument("--dir", default=".")
    args = parser.parse_args()
    path = os.path.join(args.dir, f"commit-bytes-{args.mode}.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size = 1024")
    if args.mode == "exclusive":
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = " + ("NORMAL" if args.mode == "normal" else "FULL"))
    db.executescript(SCHEMA)
    if args.mode != "exclusive":
        reader = sqlite3.connect(path)
        reader.execute("SELECT count(*) FROM stable_reading").fetchall()
    rng = random.Random(1)
    at, costs = 1.8e9, []
    time.sleep(args.gap)
    for seq in range(1, args.commits + 1):
        before, wal = written(), os.path.getsize(path + "-wal")
        at += 60
        db.execute("BEGIN")
        db.execute("INSERT INTO stable_reading VALUES ('left', ?, ?)", (at, rng.uniform(20, 370)))
        db.execute("INSERT INTO item_event VALUES ('left', ?, ?, 'placed', ?, NULL)", (seq, at, rng.uniform(20, 370)))
        for pan in ("left", "right"):
            db.execute("INSERT INTO minute_summary VALUES (?, ?, 1, 2, 3, 80)", (pan, int(at // 60)))
        db.execute("COMMIT")
        costs.append((written() - before, os.path.getsize(path + "-wal") - wal))
        print(f"commit {seq}: {costs[-1][0]:6d} bytes written, {costs[-1][1]:6d} bytes of WAL frames", flush=True)
        time.sleep(args.gap)
    mean = sum(c[0] for c in costs) / len(costs)
    print(f"{args.mode}: {mean / 1024:.1f} KiB written per commit for {costs[0][1] / 1024:.1f} KiB of WAL frames; "
          f"{mean * 1440 / 1e6:.1f} MB/day at a commit a minute")
    return 0


if __name__ == "__main__":
    sys.exit(main())
