#!/usr/bin/env python3
"""What the SD card sees: bytes written per process and fsync calls, at rest and with a load changing every
minute, with plumscale-web recording its history (docs/PERFORMANCE.md, "Writes to the SD card").

usage: sdcard.py [--bin DIR] [--minutes M] [--seed N] [--no-strace]

Runs the soak's stack (mosquitto, plumscaled with two simulated pans, plumscale-mqtt, plumscale-web with its
history) in a folder on a disk (not a tmpfs, which /proc/PID/io does not count), and for each phase of M
minutes (default 10; a multiple of 5 covers whole history batches) reads every process's
/proc/PID/io write_bytes before and after, the history's file sizes, and, with strace attached, how many
fsync and fdatasync calls each of plumscaled and plumscale-web made. Prints the figures per hour and per day.
No invariant is checked here (soak.py does that): this is a measurement, not a test.
"""

import argparse
import collections
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from stack import PANS, Stack, wait_until, write_atomically

PROCESSES = ("plumscaled", "plumscale-mqtt", "plumscale-web")
FILES = ("history.sqlite", "history.sqlite-wal", "history.sqlite-shm")


def written(pid):
    with open(f"/proc/{pid}/io") as f:
        fields = dict(line.split(": ") for line in f.read().splitlines())
    return int(fields["write_bytes"])


def sizes(directory):
    result = {}
    for name in FILES:
        try:
            result[name] = os.path.getsize(os.path.join(directory, name))
        except OSError:
            result[name] = 0
    state = os.path.join(directory, "state")
    result["state"] = sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(state) for f in files)
    return result


def log_size(stack, name):
    try:
        return os.path.getsize(os.path.join(stack.dir, name + ".log"))
    except OSError:
        return 0


def log_lines(stack, name, start, end):
    """The log's lines between two offsets: what the process wrote in the phase."""
    try:
        with open(os.path.join(stack.dir, name + ".log"), "rb") as f:
            f.seek(start)
            return f.read(end - start).decode(errors="replace").splitlines()
    except OSError:
        return []


def shape(line):
    """A line without its timestamp and numbers, so that a message repeated with other figures counts as one."""
    line = re.sub(r"^\S*\d{4}-\d\d-\d\dT\S+\s*", "", line)
    return re.sub(r"\d+(\.\d+)?", "#", line)[:150]


class Phase:
    """One phase's counters: /proc/PID/io before and after, and strace -c on the two that write files."""

    def __init__(self, stack, trace):
        self.stack = stack
        self.pids = {name: stack.pid(name) for name in PROCESSES}
        self.before = {name: written(pid) for name, pid in self.pids.items()}
        self.files_before = sizes(stack.dir)
        self.logs_before = {name: log_size(stack, name) for name in PROCESSES}
        self.tracers = {}
        if trace:
            for name in ("plumscaled", "plumscale-web"):
                out = os.path.join(stack.dir, f"strace-{name}-{time.monotonic_ns()}.txt")
                tracer = subprocess.Popen(["strace", "-f", "-c", "-e", "trace=fsync,fdatasync,sync_file_range",
                                           "-o", out, "-p", str(self.pids[name])],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                self.tracers[name] = (tracer, out)
        self.started = time.monotonic()

    def end(self):
        seconds = time.monotonic() - self.started
        after = {name: written(pid) for name, pid in self.pids.items()}
        syncs = {}
        for name, (tracer, out) in self.tracers.items():
            tracer.send_signal(signal.SIGINT)  # strace detaches and writes its summary
            tracer.wait(30)
            syncs[name] = count_syncs(out)
        logs = {name: log_lines(self.stack, name, self.logs_before[name], log_size(self.stack, name))
                for name in PROCESSES}
        return seconds, {name: after[name] - self.before[name] for name in PROCESSES}, syncs, self.files_before, logs


def count_syncs(path):
    """The calls column of strace -c's summary, fsync, fdatasync and sync_file_range together."""
    total = 0
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if parts and parts[-1] in ("fsync", "fdatasync", "sync_file_range") and len(parts) >= 5:
                    total += int(parts[3])
    except OSError:
        return None
    return total


def report_logs(seconds, logs):
    """Each process's log lines and bytes in the phase, per day, and the messages it repeated: on a Pi they go
    to the journal on the same card, each line an entry with its fields (journald stores several hundred bytes
    per entry), so a line repeated per sample or per second is a write budget of its own."""
    per_day = 86_400 / seconds
    print(f"{'log':<16}{'lines':>8}{'bytes':>10}{'lines/day':>12}{'bytes/day':>14}")
    for name in PROCESSES:
        lines = logs[name]
        size = sum(len(line) + 1 for line in lines)
        print(f"{name:<16}{len(lines):>8}{size:>10,}{len(lines) * per_day:>12,.0f}{size * per_day / 1e6:>12.2f}MB")
        for message, count in collections.Counter(shape(line) for line in lines).most_common(4):
            print(f"    {count} x {message}")


def report(title, seconds, delta, syncs, before, after):
    per_day = 86_400 / seconds
    print(f"\n{title}: {seconds:.0f} s")
    print(f"{'process':<16}{'write_bytes':>14}{'per hour':>14}{'per day':>14}{'fsync calls':>14}{'at most 1/s':>12}")
    total = 0
    for name in PROCESSES:
        total += delta[name]
        calls = syncs.get(name)
        rate = "" if calls is None else f"{calls / seconds:.3f}/s"
        print(f"{name:<16}{delta[name]:>14,}{delta[name] * 3600 / seconds / 1e6:>12.2f}MB"
              f"{delta[name] * per_day / 1e6:>12.1f}MB{'' if calls is None else calls:>14}{rate:>12}")
    print(f"{'all':<16}{total:>14,}{total * 3600 / seconds / 1e6:>12.2f}MB{total * per_day / 1e6:>12.1f}MB")
    for name in sorted(after):
        grown = after[name] - before.get(name, 0)
        print(f"  {name}: {after[name]:,} bytes ({grown:+,} in the phase, {grown * per_day / 1e6:+.2f} MB/day)")
    return total * per_day


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=".build/debug")
    parser.add_argument("--minutes", type=float, default=10, help="minutes of each phase")
    parser.add_argument("--busy-minutes", type=float, default=None,
                        help="minutes of the phase with a new load a minute (default: --minutes; 0 leaves it out, "
                             "for a rest phase of hours)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-strace", action="store_true")
    args = parser.parse_args()
    if args.minutes <= 0:
        parser.error(f"--minutes {args.minutes:g}: a phase needs more than 0 minutes; at rest a few hours show "
                     "zero tracking's half-hourly saves")
    if args.busy_minutes is not None and args.busy_minutes < 0:
        parser.error(f"--busy-minutes {args.busy_minutes:g}: give the minutes of the busy phase, or 0 to leave it out")
    trace = not args.no_strace and shutil.which("strace") is not None
    rng = random.Random(args.seed)
    directory = tempfile.mkdtemp(prefix="plumscale-sdcard-", dir=os.environ.get("SDCARD_DIR"))
    stack = Stack(os.path.abspath(args.bin), directory)
    try:
        for pan in PANS:
            write_atomically(stack.load_files[pan], "0\n")
        stack.start_broker()
        stack.start_daemon()
        stack.start_bridge()
        stack.start_web()
        wait_until("the history file", lambda: os.path.exists(stack.history), 60)
        # A minute to settle: start-up writes (the history's schema, the first zero) are not the steady state.
        time.sleep(60)
        phase = Phase(stack, trace)
        time.sleep(args.minutes * 60)
        seconds, delta, syncs, before, logs = phase.end()
        rest = report("at rest, both pans empty", seconds, delta, syncs, before, sizes(directory))
        report_logs(seconds, logs)
        busy_minutes = args.minutes if args.busy_minutes is None else args.busy_minutes
        if busy_minutes <= 0:
            print(f"\ngoal: at rest {rest / 1e6:.1f} MB/day of at most 10")
            return 0
        phase = Phase(stack, trace)
        deadline = time.monotonic() + busy_minutes * 60
        while time.monotonic() < deadline:
            write_atomically(stack.load_files["left"], f"{rng.uniform(20, 370):.1f}\n")
            time.sleep(max(0.0, min(60.0, deadline - time.monotonic())))
        seconds, delta, syncs, before, logs = phase.end()
        busy = report("a new load on the left pan every minute", seconds, delta, syncs, before, sizes(directory))
        report_logs(seconds, logs)
        print(f"\ngoals: at rest {rest / 1e6:.1f} MB/day of at most 10; a change a minute {busy / 1e6:.1f} MB/day "
              "of at most 50")
        return 0
    finally:
        stack.stop_all()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
