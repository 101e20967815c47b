#!/usr/bin/env python3
"""A soak with faults: plumscaled, plumscale-mqtt and plumscale-web against a real mosquitto for MINUTES
minutes, two simulated pans following a seeded script of placements, faults injected on a seeded schedule,
and the invariants checked as the readings arrive (docs/RELIABILITY.md says what each one means).

usage: soak.py MINUTES [--bin DIR] [--seed N] [--out DIR] [--keep]

Prints PASS or FAIL per invariant with its evidence, writes samples.csv, weights.csv and reconnects.csv
and SVG plots into --out, and exits 1 on any violation, 2 when the stack could not start. Python 3's
standard library only, and mosquitto and mosquitto_sub.
"""

import argparse
import math
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback

from faults import Faults, RECOVERY_SECONDS, web_poll
from observers import Availability, Sampler, Truth, Watcher
from report import Report
from stack import PANS, SOAK_COMMIT_SECONDS, WRITE_DELAY, Stack, Timeout, remove_stale_fake_time_memory, wait_until, write_atomically

BOWL = 120.0  # grams on the right pan, tared at the start: its net is what the script adds on top
MAX = 385.0  # the simulated pans' Max (1 kg cell): heavier is an overload, which the history leaves out
GRACE = 0.5  # a stable reading stamped this close to a change may show either side of it (s)
DIVISION = 0.1  # 1 d of the simulated 1 kg cells
# The simulated cell is a physical one (Sources/PlumSimulation/LoadCell.swift): its zero drifts with a
# 0.2 g amplitude over a 20-minute period (at most 2π·0.2/1200 g/s) and it creeps 0.03 % of the load with a
# 5-minute time constant. No scale can know either; zero tracking takes the drift up only on an empty
# pan. So a reading's allowance is 1 d plus the drift since the pan was last at a known zero (the tare of
# the bowl, an empty pan reading 0) and the creep of the heaviest load of the last 5 time constants.
DRIFT_SLOPE = 2 * math.pi * 0.2 / 1200
DRIFT_MAX = 0.4
CREEP = 0.0003
CREEP_MEMORY = 1500


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.dir = tempfile.mkdtemp(prefix="plumscale-soak-")
        self.stack = Stack(args.bin, self.dir, small_disks=True, stepped_clock=True,
                           commit_seconds=SOAK_COMMIT_SECONDS)
        self.kinds = sorted(Faults.KINDS)
        self.skipped = []  # (fault, why it could not run here)
        self.clock_steps = []  # (variant, the daemon's uptime growth less the time that passed)
        self.disk_full_seen = []  # (the full disk's ?ZERO refusal reason, whether the history said it failed)
        self.truth = Truth()
        self.started = time.time()
        self.lock = threading.Lock()
        self.violations = []  # (seconds into the run, invariant, what)
        self.placements = []  # {"pan", "net", "start", "end", "settled"}
        self.current = {}  # pan -> its placement now
        self.checked = {pan: 0 for pan in PANS}
        self.worst = {pan: 0.0 for pan in PANS}
        self.worst_beyond = {pan: -1.0 for pan in PANS}  # the worst error less its drift and creep allowance
        self.zero_known = {}  # pan -> when it was last at a known zero
        self.weights = []  # (seconds, pan, reported net grams, the truth's net grams then)
        self.reconnects = []  # (fault, what, seconds)
        self.faults_done = []  # (kind, start, end) in seconds into the run
        self.integrity = []
        self.durable = []  # (seconds into the run of a power cut, placements found in the history after it)
        self.tares = []  # (fault, tare read after it)
        self.checking = set()
        self.flicker = []  # (seconds into the run, pan, grams): a settled, untouched load reported unstable
        self.watcher = Watcher(self.stack.socket, self.on_report, self.stack.clock.to_host)
        self.mqtt = Availability(self.stack.broker_port)
        self.sampler = Sampler(self.stack, args.interval, self.started)

    def violation(self, invariant, what):
        with self.lock:
            self.violations.append((round(time.time() - self.started, 1), invariant, what))
        print(f"  violation: {invariant}: {what}", flush=True)

    # The continuous check

    def on_report(self, arrival, report):
        pan = report["sensor"]
        placement = self.current.get(pan)
        if (placement and placement["settled"] and not report.get("stable") and not report.get("stale")
                and self.sampler.phase == "" and report["time"] > placement["settled"]):
            with self.lock:
                self.flicker.append((round(report["time"] - self.started, 2), pan, report.get("grams")))
        if not report.get("stable") or report.get("stale") or report.get("grams") is None or pan not in self.checking:
            return
        grams = report["grams"]
        at = report["time"]
        candidates = self.truth.net_values_near(pan, at, GRACE)
        error = min(abs(grams - value) for value in candidates)
        allowance = (min(DRIFT_SLOPE * (at - self.zero_known.get(pan, at)), DRIFT_MAX)
                     + CREEP * self.truth.max_gross_since(pan, at - CREEP_MEMORY))
        if pan not in self.truth.tare and 0.0 in candidates and abs(grams) <= 0.02:
            self.zero_known[pan] = at  # an empty pan at zero: the drift is taken up from here
        with self.lock:
            self.checked[pan] += 1
            self.worst[pan] = max(self.worst[pan], error)
            self.worst_beyond[pan] = max(self.worst_beyond[pan], error - allowance)
            closest = min(candidates, key=lambda value: abs(grams - value))  # the side of a change it shows
            self.weights.append((round(report["time"] - self.started, 3), pan, grams, closest))
        if error > DIVISION * 1.0001 + allowance:
            self.violation("stable readings within 1 d of the truth",
                           f"{pan} read {grams:.3f} g stable at {report['time'] - self.started:.2f} s; the pan held "
                           f"{', '.join(f'{v:.1f}' for v in candidates)} g net then (tare {report.get('tare')}, "
                           f"allowance {allowance:.3f} g)")
        if not report.get("calibrated"):
            self.violation("calibration intact", f"{pan} reports calibrated false")
        expected_tare = self.truth.tare.get(pan, 0.0)
        if abs(report.get("tare", 0) - expected_tare) > DIVISION * 1.0001:
            self.violation("tare intact", f"{pan} holds tare {report.get('tare')} g, not {expected_tare} g")
        if (placement and placement["settled"] is None
                and abs(grams - placement["net"]) <= DIVISION * 1.0001 + allowance):
            placement["settled"] = arrival
            placement["allowance"] = allowance  # what the history row may differ by, too

    def check_durable(self, cut, rows):
        """After a power cut, before anything starts again: every placement that settled more than
        WRITE_DELAY seconds before the cut has its row (plumscale-web writes in batches; what the cut may
        lose is the last seconds only, docs/PERFORMANCE.md)."""
        checked = 0
        since = self.stack.started_at["plumscale-web"]  # earlier placements were checked at an earlier cut
        for p in self.placements:
            if p["settled"] is None or not since <= p["settled"] <= cut - WRITE_DELAY:
                continue
            checked += 1
            end = min(p["end"] or cut, cut)
            if not any(r[0] == p["pan"] and p["start"] <= r[1] < end
                       and abs(r[2] - p["net"]) <= DIVISION * 1.0001 + p.get("allowance", 0) for r in rows):
                self.violation("history durable over a power cut",
                               f"{p['pan']} {p['net']:.1f} g, settled {cut - p['settled']:.1f} s before the cut, "
                               "is not in the history after it")
        with self.lock:
            self.durable.append((round(cut - self.started, 1), checked))

    def check_tare(self, fault):
        report = self.watcher.report("right")[1]
        self.tares.append((fault, report.get("tare")))

    # The script

    def place(self, restart_safe=False, wait_stable=True):
        """Puts new loads on the pans (seeded), recording when each file was replaced; with `wait_stable`,
        waits until the daemon calls both new loads stable, then holds them a seeded 1 to 3 s.

        `restart_safe`: the left pan empty and the right one with the bowl alone, the only loads whose zero
        and tare a restart can keep (docs/configuration.md, `restore_tare`): a restart with a load no saved
        zero can explain starts from calibrated zero, which the simulated cells put 0.18 g (2 d) away."""
        empty = restart_safe or self.rng.random() < 0.25
        loads = {"left": 0.0 if empty else round(self.rng.uniform(20, MAX - 15), 1),
                 "right": BOWL if restart_safe or self.rng.random() < 0.3
                 else round(BOWL + self.rng.uniform(10, MAX - 15 - BOWL), 1)}
        for pan in PANS:
            # A load one division from the one on the pan, with no empty pan between, is what the history
            # stores as that placement settling (docs/web.md, History), and fruit is not changed so: the
            # pan keeps its load. The draws stay as they were, so a seed's script is otherwise the same.
            on_pan = self.truth.now(pan) + self.truth.tare.get(pan, 0.0)
            if 0 < abs(loads[pan] - on_pan) < 2 * DIVISION - 1e-9:
                loads[pan] = on_pan
        changed = [pan for pan in PANS if loads[pan] != self.truth.now(pan)
                   + self.truth.tare.get(pan, 0.0)]
        for pan in changed:
            written = time.time()
            write_atomically(self.stack.load_files[pan], f"{loads[pan]}\n")
            self.truth.set(pan, loads[pan], written)
            if pan in self.current:
                self.current[pan]["end"] = written
            placement = {"pan": pan, "net": loads[pan] - self.truth.tare.get(pan, 0.0), "start": written,
                         "end": None, "settled": None}
            self.placements.append(placement)
            self.current[pan] = placement
        self.pending = changed
        if wait_stable:
            wait_until("both pans stable on the new loads", self.placement_settled, RECOVERY_SECONDS)
            time.sleep(self.rng.uniform(1.0, 3.0))  # the script's hold: part of the truth, not a check

    def placement_settled(self):
        return all(self.current[pan]["settled"] is not None for pan in self.pending)

    # The run

    def start(self):
        for pan in PANS:
            written = time.time()
            self.truth.set(pan, 0.0, written)
            write_atomically(self.stack.load_files[pan], "0\n")
            self.current[pan] = {"pan": pan, "net": 0.0, "start": written, "end": None, "settled": None}
        self.placements.append(self.current["left"])
        if self.stack.clock.environment is None:
            self.kinds.remove("clock-step")
            self.skipped.append(("clock-step", "needs libfaketime (apt install libfaketime)"))
            print("skipped fault: clock-step: needs libfaketime (apt install libfaketime)", flush=True)
        why = self.stack.mount_small_disks()
        if why is not None:
            self.kinds.remove("disk-full")
            self.skipped.append(("disk-full", why))
            print(f"skipped fault: disk-full: {why}", flush=True)
        self.stack.start_broker()
        self.mqtt.start()
        self.stack.start_daemon()
        self.watcher.start()
        self.stack.start_bridge()
        self.stack.start_web()
        begun = self.started
        wait_until("the bridge online", lambda: self.mqtt.all_online(begun), RECOVERY_SECONDS)
        wait_until("the web service's readings", lambda: web_poll(self.stack, begun), RECOVERY_SECONDS)
        self.checking = {"left"}
        wait_until("the empty pans zeroed", lambda: all((r := self.watcher.report(pan)) and r[1].get("stable")
                   and abs(r[1]["grams"]) <= DIVISION / 2 for pan in PANS), RECOVERY_SECONDS)
        written = time.time()
        write_atomically(self.stack.load_files["right"], f"{BOWL}\n")
        self.truth.set("right", BOWL, written)
        wait_until("the bowl stable on the right pan", lambda: (r := self.watcher.report("right")) and
                   r[1].get("stable") and abs(r[1]["grams"] - BOWL) <= DIVISION and r[1]["time"] > written + GRACE,
                   RECOVERY_SECONDS)
        asked = time.time()
        answer = self.tare("right")
        if not answer.get("ok"):
            raise Timeout(f"the tare of the bowl was refused: {answer}")
        tared = time.time()
        self.truth.tare["right"] = BOWL
        self.zero_known["right"] = tared
        self.current["right"] = {"pan": "right", "net": 0.0, "start": asked, "end": None, "settled": None}
        self.placements.append(self.current["right"])
        wait_until("the tared bowl to read 0 g", lambda: (r := self.watcher.report("right")) and r[1]["time"] > tared
                   and r[1].get("stable") and abs(r[1].get("tare", 0) - BOWL) <= DIVISION, RECOVERY_SECONDS)
        self.checking = set(PANS)
        self.sampler.start()
        self.sampler.phase = ""

    def tare(self, pan):
        import json
        import socket
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(30)
            s.connect(self.stack.socket)
            s.sendall(f'?TARE={{"sensor":"{pan}"}};\n'.encode())
            for line in s.makefile("rb"):
                answer = json.loads(line)
                if answer.get("class") in ("TARE", "ERROR"):
                    return answer
        return {}

    def run(self):
        duration = self.args.minutes * 60
        end = self.started + duration
        faults = Faults(self)
        queue = self.rng.sample(self.kinds, len(self.kinds))
        next_fault = time.time() + self.rng.uniform(6, 12)
        while time.time() < end:
            self.place()
            now = time.time()
            if now < next_fault or now > end - 25:
                continue
            quiet_tail = now - self.started > 0.55 * duration
            candidates = [k for k in queue if not (quiet_tail and k in Faults.RESTARTING)]
            if not candidates:
                queue = self.rng.sample(self.kinds, len(self.kinds))
                continue
            kind = candidates[0]
            queue.remove(kind)
            if kind == "daemon-kill":
                self.place(restart_safe=True)
            print(f"{now - self.started:6.1f} s  fault: {kind}", flush=True)
            self.sampler.phase = kind
            Faults.KINDS[kind](faults)
            self.sampler.phase = ""
            self.faults_done.append((kind, round(now - self.started, 1), round(time.time() - self.started, 1)))
            next_fault = time.time() + self.rng.uniform(6, 12)

    def recorded(self, placements):
        """Whether each of `placements` has a row in the history from its start on."""
        import sqlite3
        with sqlite3.connect(self.stack.history) as db:
            rows = db.execute("SELECT sensor, time FROM stable_reading").fetchall()
        return all(any(r[0] == p["pan"] and self.stack.clock.to_host(r[1]) >= p["start"] for r in rows)
                   for p in placements)

    def finish(self):
        """Waits for the last placements to reach the history, then stops everything."""
        import sqlite3
        last = [self.current[pan] for pan in PANS if self.current[pan]["settled"]]

        try:
            wait_until("the last placements in the history", lambda: self.recorded(last), 30)
        except Timeout:
            pass  # the history check names them as lost
        for pan in PANS:
            self.current[pan]["end"] = time.time()
        self.sampler.stopping = True
        self.sampler.wake.set()
        self.watcher.stopping = True
        self.mqtt.stop()
        self.stack.stop_all()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("minutes", type=float)
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "../../.build/debug"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "../../.build/soak"))
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between resource samples")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory with the logs")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    os.makedirs(args.out, exist_ok=True)
    # Stopped (run.sh's trap sends SIGTERM to the group, as does Ctrl-C's exit there): the cleanup below
    # still runs, so no tmpfs of the full-disk fault stays mounted and no process stays behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    soak = Soak(args)
    print(f"soak: {args.minutes:g} min, seed {args.seed}, binaries {args.bin}, logs {soak.dir}", flush=True)
    status = 0
    try:
        try:
            soak.start()
        except Exception:
            traceback.print_exc()
            for name in ("plumscaled", "plumscale-mqtt", "plumscale-web"):
                print(f"--- {name}.log\n{soak.stack.log_tail(name)}")
            return 2
        try:
            soak.run()
        except Timeout as error:
            soak.violation("recovery within its deadline", str(error))
        soak.finish()
        status = Report(soak).write_and_print()
    finally:
        soak.stack.stop_all()
        soak.mqtt.stop()
        if status != 0 or args.keep:  # the history is on a tmpfs: kept beside the logs before it goes
            soak.stack.keep_history()
        soak.stack.unmount_small_disks()
        remove_stale_fake_time_memory()  # the pairs of the processes this run killed
        if status == 0 and not args.keep:
            shutil.rmtree(soak.dir, ignore_errors=True)
        else:
            print(f"logs kept in {soak.dir}")
    return status


if __name__ == "__main__":
    sys.exit(main())
