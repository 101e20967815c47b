"""The soak's verdict: PASS or FAIL per invariant with its evidence, the CSV files and the SVG plots."""

import csv
import os
import sqlite3
import statistics

import svgplot
from stack import WRITE_DELAY

WARM_UP = 30.0  # seconds of a process's life left out of the resource comparison
RSS_TOLERANCE = 0.01
PROCESSES = ("plumscaled", "plumscale-mqtt", "plumscale-web")


class Report:
    def __init__(self, soak):
        self.soak = soak
        self.results = []  # (invariant, passed, evidence)

    def add(self, invariant, passed, evidence):
        self.results.append((invariant, passed, evidence))

    def continuous(self, invariant, default_evidence):
        found = [v for v in self.soak.violations if v[1] == invariant]
        if found:
            self.add(invariant, False, f"{len(found)} violations, first at {found[0][0]} s: {found[0][2]}")
        else:
            self.add(invariant, True, default_evidence)

    # History: every placement once

    def history(self):
        soak = self.soak
        with sqlite3.connect(soak.stack.history) as db:
            rows = sorted(((sensor, soak.stack.clock.to_host(at), grams) for sensor, at, grams
                           in db.execute("SELECT sensor, time, grams FROM stable_reading").fetchall()),
                          key=lambda row: row[1])
        lost, doubled, rerecorded, off, unwritten = [], [], [], [], []
        counted = 0
        for p in soak.placements:
            if p["settled"] is None:
                continue
            counted += 1
            end = p["end"] or float("inf")
            inside = [r for r in rows if r[0] == p["pan"] and p["start"] <= r[1] < end]
            matching = [r for r in inside if abs(r[2] - p["net"]) <= 0.1 * 1.0001 + p.get("allowance", 0)]
            off += [(p, r) for r in inside if r not in matching]
            faults = [f[0] for f in soak.faults_done
                      if f[1] + soak.started < end and f[2] + soak.started > p["start"]]
            kills = soak.stack.kill_times.get("plumscale-web", [])
            if not matching and any(p["settled"] <= k < p["settled"] + WRITE_DELAY for k in kills):
                unwritten.append(p)  # in the batch a SIGKILL took: the loss HistoryBatch allows
            elif not matching:
                lost.append(p)
            elif len(matching) > 1 and faults:
                rerecorded.append((p, len(matching), faults))
            elif len(matching) > 1:
                flickers = [f for f in soak.flicker if f[1] == p["pan"] and p["start"] - soak.started <= f[0]
                            < end - soak.started]
                doubled.append((p, matching, flickers))

        def at(p):
            return f"{p['pan']} {p['net']:.1f} g placed at {p['start'] - soak.started:.1f} s"
        self.add("history: no stable placement lost", not lost,
                 f"{counted} placements, {len(rows)} stable rows" if not lost else
                 f"{len(lost)} lost: {'; '.join(at(p) for p in lost[:4])}")
        self.add("history: no placement doubled", not doubled,
                 f"{counted} placements checked" if not doubled else
                 f"{len(doubled)} doubled, first: {at(doubled[0][0])}: rows "
                 f"{[(round(r[1] - soak.started, 2), r[2]) for r in doubled[0][1]]}; "
                 f"{sum(1 for d in doubled if d[2])} of them after the daemon called the untouched load unstable "
                 f"for a moment, first {doubled[0][2][:1]}")
        self.add("history: only weights that were on the pan", not off,
                 "every stable row within 1 d of its placement" if not off else
                 f"{len(off)} rows off, first: {off[0][1]} during {at(off[0][0])}")
        if unwritten:
            print(f"note: {len(unwritten)} placements settled within {WRITE_DELAY:.0f} s before plumscale-web was "
                  f"killed were not written (the batch's promise), first: {at(unwritten[0])}")
        if soak.flicker:
            print(f"note: {len(soak.flicker)} unstable reports of a settled load nobody touched, first: "
                  f"{soak.flicker[:3]}")
        if rerecorded:
            kinds = sorted({k for _, _, faults in rerecorded for k in faults})
            print(f"note: {len(rerecorded)} placements recorded again after a fault during them ({', '.join(kinds)}); "
                  "a new stable run after an outage is stored again (docs/RELIABILITY.md)")
        self.rerecorded = rerecorded

    # Resources: flat after warm-up, per process, across a stretch without a restart

    def resources(self):
        soak = self.soak
        self.flatness = {}
        for name in PROCESSES:
            rows = [r for r in soak.sampler.rows if r[1] == name]
            runs = {}
            for r in rows:
                runs.setdefault(r[3], []).append(r)
            quiet_runs = []
            for run in runs.values():
                born, died = run[0][0], run[-1][0]
                # Warm-up: 30 s, and the first of each fault this process lived through, whose high-water
                # marks (a first flood's buffers) the allocator keeps; a leak shows as growth over the repeats.
                first_ends = {}
                for kind, start, end in soak.faults_done:
                    # A clock step and a full disk grow no buffer: no high-water mark to wait for.
                    if kind in ("clock-step", "disk-full"):
                        continue
                    if start >= born and end <= died and kind not in first_ends:
                        first_ends[kind] = end
                warm = max([born + WARM_UP] + list(first_ends.values()))
                quiet_runs.append([r for r in run if r[0] >= warm and r[7] == ""])
            longest = max(quiet_runs, key=lambda q: (q[-1][0] - q[0][0]) if len(q) > 1 else 0, default=[])
            if len(longest) < 6:
                self.add(f"{name}: resources flat", False,
                         f"no stretch of {WARM_UP:.0f} s warm-up plus 6 quiet samples without a restart: run longer")
                continue
            third = max(len(longest) // 3, 2)
            first, last = longest[:third], longest[-third:]
            rss_first, rss_last = statistics.median(r[4] for r in first), statistics.median(r[4] for r in last)
            growth = (rss_last - rss_first) / rss_first
            fds = sorted({r[5] for r in longest})
            threads = sorted({r[6] for r in longest})
            span = longest[-1][0] - longest[0][0]
            self.flatness[name] = (span, rss_first, rss_last, growth, fds, threads)
            evidence = (f"{span:.0f} s from {longest[0][0]:.0f} s: RSS median {rss_first / 1024:.2f} -> "
                        f"{rss_last / 1024:.2f} MiB ({growth * 100:+.2f} %), fds {fds}, threads {threads}")
            # A leak only grows. A fall is memory handed back: glibc trims the heap's top once more
            # than its trim threshold (128 KiB by default) lies free at its end, and a CI run failed
            # plumscaled on -1.03 % (20.91 to 20.70 MiB, 38 s after a SIGHUP). The bound is on
            # growth; the evidence shows either way.
            self.add(f"{name}: RSS grows at most 1 %", growth <= RSS_TOLERANCE, evidence)
            # A descriptor open for a moment (a client of the socket, the configuration read at a
            # SIGHUP) is caught by a sample now and then: a 5-minute run failed plumscaled on one
            # sample of 26 among 25s, the first after a reload. A leaked descriptor is never closed:
            # it raises the fewest seen. Constant means the fewest in the last third is the fewest in
            # the first; the evidence counts the samples above it.
            fd_floor_first, fd_floor_last = min(r[5] for r in first), min(r[5] for r in last)
            above = sum(1 for r in longest if r[5] > min(fd_floor_first, fd_floor_last))
            self.add(f"{name}: descriptors constant", fd_floor_last == fd_floor_first,
                     f"fewest descriptors {fd_floor_first} in the first third, {fd_floor_last} in the last; "
                     f"{above} of {len(longest)} samples caught one open for a moment; {evidence}")
            # The runtime's worker threads come and go with the work (libdispatch lets an idle one exit,
            # and the bridge's count went 6, 7, 6 within seconds at every reconnect), so the most in a
            # third of a short stretch says when one was sampled, not that one leaked (a 5-minute run
            # failed on 6 against 7). A leaked thread never exits: it raises the fewest seen. Flat
            # means the fewest in the last third is no more than the fewest in the first.
            floor_first, floor_last = min(r[6] for r in first), min(r[6] for r in last)
            most_first, most_last = max(r[6] for r in first), max(r[6] for r in last)
            self.add(f"{name}: threads do not grow", floor_last <= floor_first,
                     f"fewest threads {floor_first} in the first third, {floor_last} in the last "
                     f"(most {most_first} and {most_last})")

    # Output

    def write_files(self):
        soak, out = self.soak, self.soak.args.out
        with open(os.path.join(out, "samples.csv"), "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["seconds", "process", "pid", "start", "rss_kib", "fds", "threads", "fault"])
            writer.writerows(soak.sampler.rows)
        with open(os.path.join(out, "weights.csv"), "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["seconds", "pan", "stable_net_grams", "truth_net_grams"])
            writer.writerows(soak.weights)
        with open(os.path.join(out, "reconnects.csv"), "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["fault", "what", "seconds"])
            writer.writerows(soak.reconnects)
        svgplot.plots(soak, out)

    def write_and_print(self):
        soak = self.soak
        self.continuous("stable readings within 1 d of the truth",
                        ", ".join(f"{pan}: {soak.checked[pan]} stable readings, worst {soak.worst[pan]:.3f} g off, "
                                  f"{soak.worst_beyond[pan]:+.3f} g beyond the cell's drift and creep"
                                  for pan in soak.checked))
        self.continuous("calibration intact", "every stable reading calibrated")
        self.continuous("tare intact", f"right pan's tare {soak.truth.tare.get('right')} g after "
                        f"{len(soak.tares)} restarts and reloads: {sorted({t for _, t in soak.tares})}")
        self.continuous("history integrity", f"PRAGMA integrity_check ok after {len(soak.integrity)} power cuts")
        self.continuous("history durable over a power cut",
                        f"after {len(soak.durable)} power cuts, every placement settled {WRITE_DELAY:.0f} s before "
                        f"was stored ({sum(n for _, n in soak.durable)} checked)")
        self.continuous("watchers served", "the watcher was never starved by a client that does not read")
        self.continuous("reload", "SIGHUP kept the process")
        self.continuous("recovery within its deadline", self.recovery_evidence())
        for fault, why in soak.skipped:
            print(f"SKIP  {fault}: {why}")
        if not any(fault == "clock-step" for fault, _ in soak.skipped):
            steps = soak.clock_steps
            self.continuous("no duration follows the wall clock",
                            f"{len(steps)} clock steps ({', '.join(sorted({v for v, _ in steps}))}); the daemon's "
                            f"uptime off the time passed by at most {max((abs(d) for _, d in steps), default=0):.2f} s")
        if not any(fault == "disk-full" for fault, _ in soak.skipped):
            seen = soak.disk_full_seen
            self.continuous("state kept on a full disk",
                            f"{len(seen)} full disks: ?ZERO refused as {sorted({r for r, _ in seen})}, the history's "
                            f"write error seen {sum(1 for _, failed in seen if failed)} times, every placement "
                            "stored and the next zero saved once space returned")
            self.continuous("disk full", "plumscaled and plumscale-web lived through every full disk")
        self.history()
        self.resources()
        kinds = sorted({f[0] for f in soak.faults_done})
        print(f"faults: {len(soak.faults_done)} ({', '.join(kinds)}); seed {soak.args.seed}")
        for invariant, passed, evidence in self.results:
            print(f"{'PASS' if passed else 'FAIL'}  {invariant}: {evidence}")
        self.write_files()
        print(f"samples, weights, reconnect times and plots in {os.path.abspath(soak.args.out)}")
        return 0 if all(passed for _, passed, _ in self.results) else 1

    def recovery_evidence(self):
        worst = {}
        for fault, what, seconds in self.soak.reconnects:
            worst[(fault, what)] = max(worst.get((fault, what), 0), seconds)
        return "; ".join(f"{fault}: {what} {seconds:.2f} s" for (fault, what), seconds in sorted(worst.items()))
