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

RECOVERY_SECONDS = 90  # a debug build on a busy 2-core machine; the figures measured are far below


def web_poll(stack, after):
    """True once plumscale-web answers /api/poll with both pans' grams read after `after`."""
    with urllib.request.urlopen(stack.web_url + "/api/poll", timeout=5) as response:
        poll = json.loads(response.read())
    weights = [w for w in poll.get("weights", []) if w.get("grams") is not None and w.get("time", 0) > after]
    return poll.get("connected") and {w["sensor"] for w in weights} == set(PANS)


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
            rows = db.execute("SELECT sensor, time, grams FROM stable_reading").fetchall()
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

    def hold(self):
        """How long a fault lasts (a wire out, a broker down): seeded, 1 to 4 s. Part of the scenario,
        not a wait for a condition."""
        time.sleep(self.rng.uniform(1, 4))

    KINDS = {"unplug": unplug, "daemon-kill": daemon_kill, "broker-restart": broker_restart,
             "web-kill": web_kill, "flood": flood, "sighup": sighup, "power-cut": power_cut}
    # Faults that restart one of the three processes whose resources are compared: kept out of the last
    # part of the run, so each process has a long stretch to compare.
    RESTARTING = {"daemon-kill", "web-kill", "power-cut"}
