#!/usr/bin/env python3
"""What one history commit costs the SD card, with SQLite alone: the bytes a process makes the kernel write
(/proc/self/io write_bytes) for each commit of a placement's rows, against the WAL frames the commit adds
(docs/PERFORMANCE.md, "Writes to the SD card").

usage: commit_bytes.py MODE [--schema v3|v4] [--warm] [--gap SECONDS] [--commits N] [--dir DIR]

MODE: `full` (plumscale-web's settings: WAL, 1 KiB pages, synchronous = FULL, a second connection reading
as the pool's readers do), `normal` (synchronous = NORMAL) or `exclusive` (locking_mode = EXCLUSIVE, no
reader: SQLite keeps the WAL's index in memory, so the -shm file's share is the difference from `full`).
Each commit stores what a placement at a change a minute brings: a stable reading, an item event and the
two pans' minute summaries, into the history's tables and indexes: v4's (default), or v3's, which had ten
b-trees for such a commit to change where v4 has five. With --warm the WAL has been filled and checkpointed
once before, so commits overwrite a file of its full size, as on a scale that has run for more than a few
days (the WAL is reused from its start after each checkpoint, never truncated); without it the WAL grows
with each commit, as in a new file's first 4 MiB. The gap between commits (default 33 s)
is longer than the kernel's write-back delay (30 s), so each commit finds its pages clean, as at a placement
a minute. DIR must be on a disk, not a tmpfs, which /proc/PID/io does not count.
"""
import argparse
import os
import random
import sqlite3
import sys
import time

from history_schema import INSERT_ITEM, INSERT_MINUTE, INSERT_STABLE, SCHEMAS


def written():
    with open("/proc/self/io") as f:
        return int(dict(line.split(": ") for line in f.read().splitlines())["write_bytes"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("full", "normal", "exclusive"))
    parser.add_argument("--gap", type=float, default=33)
    parser.add_argument("--commits", type=int, default=6)
    parser.add_argument("--dir", default=".")
    parser.add_argument("--schema", choices=sorted(SCHEMAS), default="v4")
    parser.add_argument("--warm", action="store_true", help="a WAL at its full size, as after the first checkpoint")
    args = parser.parse_args()
    name = f"commit-bytes-{args.mode}-{args.schema}" + ("-warm" if args.warm else "")
    path = os.path.join(args.dir, name + ".sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size = 1024")
    if args.mode == "exclusive":
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = " + ("NORMAL" if args.mode == "normal" else "FULL"))
    db.executescript(SCHEMAS[args.schema])
    if args.mode != "exclusive":
        reader = sqlite3.connect(path)
        reader.execute("SELECT count(*) FROM stable_reading").fetchall()
    if args.warm:
        # 2 MB of frames, then a checkpoint that copies them all: the next commit starts the WAL again
        # from its first frame and overwrites what is there.
        db.execute("CREATE TABLE scratch (b BLOB)")
        db.execute("INSERT INTO scratch VALUES (zeroblob(2000000))")
        db.execute("DROP TABLE scratch")
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    rng = random.Random(1)
    at, costs = 1.8e9, []
    time.sleep(args.gap)
    for seq in range(1, args.commits + 1):
        before, wal = written(), os.path.getsize(path + "-wal")
        at += 60
        db.execute("BEGIN")
        db.execute(INSERT_STABLE, ("left", at, rng.uniform(20, 370)))
        grams = rng.uniform(20, 370)
        db.execute(INSERT_ITEM, ("left", seq, seq, "placed", grams, grams, "large", at))
        for pan in ("left", "right"):
            db.execute(INSERT_MINUTE, (pan, int(at // 60), 1, 2, 3, 80))
        db.execute("COMMIT")
        costs.append((written() - before, os.path.getsize(path + "-wal") - wal))
        # A warm WAL is overwritten in place: its size says nothing of the frames.
        frames = "" if args.warm else f", {costs[-1][1]:6d} bytes of WAL frames"
        print(f"commit {seq}: {costs[-1][0]:6d} bytes written{frames}", flush=True)
        time.sleep(args.gap)
    mean = sum(c[0] for c in costs) / len(costs)
    frames = "a WAL overwritten in place" if args.warm else f"{costs[0][1] / 1024:.1f} KiB of WAL frames"
    print(f"{args.mode} {args.schema}: {mean / 1024:.1f} KiB written per commit for {frames}; "
          f"{mean * 1440 / 1e6:.1f} MB/day at a commit a minute")
    return 0


if __name__ == "__main__":
    sys.exit(main())
