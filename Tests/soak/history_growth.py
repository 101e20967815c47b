#!/usr/bin/env python3
"""How fast the history file grows, for retention_days against the card's size (docs/PERFORMANCE.md,
"Writes to the SD card"): ten days of rows in v3's and v4's tables, with SQLite alone and the history's
1 KiB pages. A day is two pans' minute summaries and a placement a minute; items are counted apart, as
bytes per item event (they come with use, not with time). Prints the file's size per day.

usage: history_growth.py [--dir DIR]
"""
import argparse
import os
import random
import sqlite3
import sys

from history_schema import INSERT_ITEM, INSERT_MINUTE, INSERT_STABLE, SCHEMAS


def size(directory, schema, name, days, items_per_day):
    """The file's size after `days` of rows, written in time order as plumscale-web writes them."""
    path = os.path.join(directory, name + ".sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size = 1024")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    db.executescript(SCHEMAS[schema])
    rng, start, seq, due = random.Random(1), 1.795e9, 0, 0.0
    db.execute("BEGIN")
    for m in range(days * 1440):
        minute = int(start // 60 * 60) + 60 * m
        for pan in ("left", "right"):
            db.execute(INSERT_MINUTE, (pan, minute, rng.uniform(0, 300), rng.uniform(0, 300), rng.uniform(0, 300), 4800))
        db.execute(INSERT_STABLE, ("left", minute + rng.random() * 60, rng.uniform(20, 370)))
        due += items_per_day / 1440
        while due >= 1:
            due, seq = due - 1, seq + 1
            grams = rng.uniform(20, 370)
            db.execute(INSERT_ITEM, ("left", seq, (seq + 1) // 2, "placed" if seq % 2 else "removed", grams, grams,
                                     "large", minute + rng.random() * 60))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.close()
    return pages * 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", default=".")
    args = parser.parse_args()
    for name in sorted(SCHEMAS):
        base = size(args.dir, name, name, 10, 0)
        with_items = size(args.dir, name, name + "-items", 10, 2000)
        print(f"{name}: {base / 10 / 1e6:.3f} MB/day (two pans' summaries and a placement a minute); "
              f"items: {(with_items - base) / 20000:.0f} bytes per event, "
              f"{(with_items - base) / 10 / 1e6:.3f} MB/day at 2000 events a day")
    return 0


if __name__ == "__main__":
    sys.exit(main())
