"""The faults the soak injects, each waiting for the stack to come back with a deadline and measuring how
long each part took. A fault never changes a load: the script's placements and the faults take turns, so
the truth stays known while something is down."""

import json
import os
import signal
import socket
import sqlite3
import time
import urllib.request

from stack import PANS, wait_until

YEARS_BEHIND = -190_000_000  # seconds from now to a clock of 2020, as an old fake-hwclock has it
RECOVERY_SECONDS = 90  # a debug build on a busy 2-core machine; the figures measured are far below


def web_poll(stack, after):
    """True once plumscale-web answers /api/poll with both pans' grams read after `after`."""
    with urllib.request.urlopen(stack.web_url + "/api/poll", timeout=5) as response:
        poll = json.loads(response.read())
    weights = [w for w in poll.get("weights", []) if w.get("grams") is not None
               and stack.clock.to_host(w.get("time", 0)) > after]
    return poll.get("connected") and {w["sensor"] for w in weights} == set(PANS)


def web_status(stack):
    with urllib.request.urlopen(stack.web_url + "/api/status", timeout=5) as response:
        return json.loads(response.read())


def daemon_request(stack, line, answer_classes):
    """One request on a new connection to the daemon; its first answer of one of `answer_classes`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(30)
        s.connect(stack.socket)
        s.sendall(line.encode() + b"\n")
        for raw in s.makefile("rb"):
            answer = json.loads(raw)
            if answer.get("class") in answer_classes:
                return answer
    return {}


class Faults:
    def __init__(self, soak):
        self.soak = soak
        self.stack = soak.stack
        self.mqtt = soak.mqtt
        self.watcher = soak.watcher
        self.rng = soak.rng

    def measure(self, fault, what, since, condition):
        """Waits for `condition` (a time, or true) and records how long after `since` it came."""
        result = wait_until(f"{what} after {fault}", condition, RECOVERY_SECONDS)
        at = result if isinstance(result, float) else time.time()
        self.soak.reconnects.append((fault, what, round(at - since, 3)))
        return at

    def pans_stable_after(self, after):
        """The time both pans' reports are stable again, stamped after `after`."""
        reports = [self.watcher.report(pan) for pan in PANS]
        if all(r and r[1].get("stable") and not r[1].get("stale") and r[1]["time"] > after for r in reports):
            return max(r[0] for r in reports)
        return None

    def daemon_back(self, fault, restarted, offline_seen=True):
        """Waits for the watcher, the bridge and the web service to be back after plumscaled started at
        `restarted`, and for the tare to be the one set at the start (`Soak.check_tare`)."""
        self.measure(fault, "readings stable", restarted, lambda: self.pans_stable_after(restarted))
        self.measure(fault, "bridge says daemon online", restarted,
                     lambda: self.mqtt.seen("daemon", "online", restarted))
        self.measure(fault, "web service has readings", restarted, lambda: web_poll(self.stack, restarted))
        self.soak.check_tare(fault)

    # The faults

    def unplug(self):
        """The left pan's wire pulled, then put back: its availability goes offline, then online."""
        fault = "unplug"
        pulled = time.time()
        open(self.stack.unplug_file, "w").close()
        self.measure(fault, "left availability offline", pulled,
                     lambda: self.mqtt.seen("left/availability", "offline", pulled))
        self.hold()
        back = time.time()
        os.unlink(self.stack.unplug_file)
        self.measure(fault, "left availability online", back,
                     lambda: self.mqtt.seen("left/availability", "online", back))
        self.measure(fault, "readings stable", back, lambda: self.pans_stable_after(back))

    def daemon_kill(self):
        """SIGKILL, then a start at once, as systemd's Restart=always would (RestartSec=100ms)."""
        fault = "daemon-kill"
        killed = time.time()
        self.stack.kill("plumscaled")
        self.measure(fault, "bridge says daemon offline", killed, lambda: self.mqtt.seen("daemon", "offline", killed))
        restarted = time.time()
        self.stack.start_daemon()
        self.daemon_back(fault, restarted)

    def broker_restart(self):
        """mosquitto stopped (SIGTERM) for a few seconds, then started again on the same port, without
        persistence: the bridge must publish its availability and discovery afresh."""
        fault = "broker-restart"
        self.stack.kill("mosquitto", signal.SIGTERM)
        self.hold()
        restarted = time.time()
        self.stack.start_broker()
        self.measure(fault, "bridge online on the new broker", restarted, lambda: self.mqtt.all_online(restarted))

    def web_kill(self):
        fault = "web-kill"
        self.stack.kill("plumscale-web")
        restarted = time.time()
        self.stack.start_web()
        self.measure(fault, "web service has readings", restarted, lambda: web_poll(self.stack, restarted))

    def flood(self):
        """1000 connections opened and closed at once, then a client that watches raw samples and never
        reads: the daemon must keep serving the watcher, and give back every descriptor after."""
        fault = "flood"
        pid = self.stack.pid("plumscaled")
        before = len(os.listdir(f"/proc/{pid}/fd"))
        started = time.time()
        for _ in range(1000):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.connect(self.stack.socket)
        self.soak.reconnects.append((fault, "1000 connections opened and closed", round(time.time() - started, 3)))
        slow = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.connect(self.stack.socket)
        slow.sendall(b'?WATCH={"enable":true,"raw":true};\n')
        gaps = []
        held = time.time()
        last = time.time()
        while time.time() - held < 15:  # the slow reader's life; the check is the gap below, every 0.2 s
            report = self.watcher.report("left")
            if report:
                gaps.append(time.time() - report[0])
            time.sleep(0.2)
            last = time.time()
        slow.close()
        worst = max(gaps) if gaps else float("inf")
        self.soak.reconnects.append((fault, "worst watcher gap during the slow reader", round(worst, 3)))
        if worst > 2.0:
            self.soak.violation("watchers served", f"the watcher got no report for {worst:.1f} s while a "
                                f"client did not read (ended {last - self.soak.started:.0f} s into the run)")
        closed = time.time()
        self.measure(fault, "daemon descriptors back to the count before", closed,
                     lambda: len(os.listdir(f"/proc/{pid}/fd")) <= before)

    def sighup(self):
        """A reload: the same process, the same tare, readings stable again."""
        fault = "sighup"
        pid = self.stack.pid("plumscaled")
        reloaded = time.time()
        os.kill(pid, signal.SIGHUP)
        self.measure(fault, "readings stable", reloaded, lambda: self.pans_stable_after(reloaded))
        if self.stack.pid("plumscaled") != pid:
            self.soak.violation("reload", "plumscaled is not the same process after SIGHUP")
        self.soak.check_tare(fault)

    def power_cut(self):
        """Every process SIGKILLed at once right after a pan settled on a new load, while plumscale-web
        writes that stable reading; then the history must pass PRAGMA integrity_check, and all come back."""
        fault = "power-cut"
        self.soak.place(restart_safe=True, wait_stable=False)
        wait_until("a stable reading to be written", lambda: self.soak.placement_settled(), RECOVERY_SECONDS,
                   interval=0.005)
        cut = time.time()
        self.stack.kill_all_at_once(["plumscaled", "plumscale-mqtt", "plumscale-web", "mosquitto"])
        with sqlite3.connect(self.stack.history) as db:
            result = db.execute("PRAGMA integrity_check").fetchall()
            rows = [(sensor, self.stack.clock.to_host(at), grams) for sensor, at, grams
                    in db.execute("SELECT sensor, time, grams FROM stable_reading").fetchall()]
        self.soak.integrity.append((round(time.time() - self.soak.started, 1), result))
        if result != [("ok",)]:
            self.soak.violation("history integrity", f"PRAGMA integrity_check after a power cut: {result}")
        self.soak.check_durable(cut, rows)
        restarted = time.time()
        self.stack.start_broker()
        self.stack.start_daemon()
        self.stack.start_bridge()
        self.stack.start_web()
        self.measure(fault, "bridge online", restarted, lambda: self.mqtt.all_online(restarted))
        self.daemon_back(fault, restarted)

    def disk_full(self):
        """The state directory and the history's folder full (ENOSPC) while a placement is made and the left
        pan is zeroed, then space given back: the zero must be refused as not saved (the scale keeps the zero
        a restart would bring back), the placement stored once space returns, the history's write error gone,
        and the next zero saved, all without a restart (docs/RELIABILITY.md, "A full disk")."""
        fault = "disk-full"
        pid = self.stack.pid("plumscaled"), self.stack.pid("plumscale-web")
        self.soak.place(restart_safe=True)  # the left pan empty, so a zero there keeps the truth
        filled = time.time()
        self.stack.fill_small_disks()
        zero = daemon_request(self.stack, '?ZERO={"sensor":"left"};', ("ZERO", "ERROR"))
        if zero.get("ok") is not False or zero.get("reason") != "notSaved":
            self.soak.violation("state kept on a full disk", f"?ZERO on a full state directory answered {zero}")
        self.soak.place()  # a placement the history must keep until it can be written
        failed = []

        def history_failing():
            failed.append(web_status(self.stack).get("history_write_error"))
            return failed[-1] is not None
        try:  # SQLite may reuse its WAL's space and write after all: not a violation, only not seen
            wait_until("the history's write error", history_failing, 15, interval=0.2)
            self.soak.reconnects.append((fault, "web service says the history cannot be written",
                                         round(time.time() - filled, 3)))
        except Exception:
            pass
        self.soak.disk_full_seen.append((zero.get("reason"), any(failed)))
        self.hold()
        freed = time.time()
        self.stack.empty_small_disks()
        self.measure(fault, "history written again", freed,
                     lambda: (s := web_status(self.stack)).get("history_write_error") is None
                     and s.get("history_unwritten") is None)
        if not self.soak.placement_settled():
            wait_until("the placement stable", self.soak.placement_settled, RECOVERY_SECONDS)
        self.soak.place(restart_safe=True)
        self.measure(fault, "daemon saves a zero again", freed, lambda: daemon_request(
            self.stack, '?ZERO={"sensor":"left"};', ("ZERO", "ERROR")).get("ok"))
        if (self.stack.pid("plumscaled"), self.stack.pid("plumscale-web")) != pid:
            self.soak.violation("disk full", "plumscaled or plumscale-web did not live through the full disk")
        self.soak.check_tare(fault)

    def clock_step(self):
        """The three processes' wall clock stepped, seeded: an hour forwards then back, or back then forwards,
        as NTP does; or from 2020 to today, as on a Pi whose fake-hwclock is old. A placement on each stepped
        clock but 2020's (a row stamped 2020 is removed by the next retention run, by design: RELIABILITY.md);
        the pans stable and the web service fresh after each step, and the daemon's uptime, on the monotonic
        clock, grown by the time that passed: no negative duration, no jump."""
        fault = "clock-step"
        young = time.time() - self.soak.started < 3300  # a step back an hour must not reach this run's times
        variant = self.rng.choice(["forward-back", "2020"] + (["back-forward"] if young else []))
        offsets = {"forward-back": [3600, 0], "back-forward": [-3600, 0], "2020": [YEARS_BEHIND, 0]}[variant]
        if variant == "2020":
            current = [self.soak.current[pan] for pan in PANS if self.soak.current[pan]["settled"]]
            wait_until("the placements in the history before 2020", lambda: self.soak.recorded(current),
                       RECOVERY_SECONDS)
        before = time.monotonic(), self.uptime()
        pid = self.stack.pid("plumscaled")
        for offset in offsets:
            stepped = time.time()
            self.stack.clock.step(offset)
            # libfaketime reads the offset once a second: wait for reports stamped on the new clock, so that
            # nothing the script does next is stamped on the old one (a 2020 stamp is purged, by design).
            applied = self.measure(fault, "the processes on the new clock", stepped, lambda: self.on_clock(offset))
            self.measure(fault, f"readings stable after {variant}", stepped, lambda: self.pans_stable_after(applied))
            self.measure(fault, "web service has readings", stepped, lambda: web_poll(self.stack, stepped))
            if offset == YEARS_BEHIND:
                self.hold()
            else:
                self.soak.place()
        grown, passed = self.uptime() - before[1], time.monotonic() - before[0]
        self.soak.clock_steps.append((variant, round(grown - passed, 2)))
        if self.stack.pid("plumscaled") == pid and not -2 <= grown - passed <= 2:
            self.soak.violation("no duration follows the wall clock",
                                f"plumscaled's uptime grew {grown:.1f} s over {passed:.1f} s with the clock {variant}")

    def on_clock(self, offset):
        """The arrival of the latest report once both pans' reports are stamped on the clock `offset` ahead."""
        reports = [self.watcher.report(pan) for pan in PANS]
        if all(r and abs(r[1].get("stamped", 0) - offset - r[0]) < 30 for r in reports):
            return max(r[0] for r in reports)
        return None

    def uptime(self):
        return daemon_request(self.stack, "?DEVICES;", ("DEVICES",)).get("uptime", 0.0)

    def hold(self):
        """How long a fault lasts (a wire out, a broker down): seeded, 1 to 4 s. Part of the scenario,
        not a wait for a condition."""
        time.sleep(self.rng.uniform(1, 4))

    KINDS = {"unplug": unplug, "daemon-kill": daemon_kill, "broker-restart": broker_restart,
             "web-kill": web_kill, "flood": flood, "sighup": sighup, "power-cut": power_cut,
             "disk-full": disk_full, "clock-step": clock_step}
    # Faults that restart one of the three processes whose resources are compared: kept out of the last
    # part of the run, so each process has a long stretch to compare.
    RESTARTING = {"daemon-kill", "web-kill", "power-cut"}
