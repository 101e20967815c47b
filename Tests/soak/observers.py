"""What the soak watches while it runs, each on a thread of its own so a check is made when the reading
arrives, not at the end: the truth (what the script put on each pan, and when), a raw ?WATCH client of the
daemon, the Home Assistant availability topics through mosquitto_sub, and /proc samples of the three
processes."""

import bisect
import json
import os
import socket
import subprocess
import threading
import time

from stack import SCALE_ID


class Truth:
    """The grams on each pan over time, as the harness wrote them into the load files.

    A change is known to lie between the moment before the file was replaced and the moment after; the
    chip reads the file at most every 20 ms, so a reading stamped near a change may show either side.
    """

    def __init__(self):
        self.lock = threading.Lock()
        self.changes = {}  # pan -> [(time written, grams)] in time order
        self.tare = {}  # pan -> the tare the daemon should hold, in grams of the script

    def set(self, pan, grams, written_at):
        with self.lock:
            self.changes.setdefault(pan, []).append((written_at, grams))

    def net_values_near(self, pan, at, grace):
        """Every net load the pan held in [at - grace, at + grace]."""
        with self.lock:
            changes = self.changes.get(pan, [])
            times = [t for t, _ in changes]
            first = max(bisect.bisect_right(times, at - grace) - 1, 0)
            last = bisect.bisect_right(times, at + grace)
            tare = self.tare.get(pan, 0.0)
            return [grams - tare for _, grams in changes[first:last]]

    def max_gross_since(self, pan, since):
        """The heaviest load on the pan from `since` on, counting the one it held at `since`."""
        with self.lock:
            changes = self.changes.get(pan, [])
            held = [g for t, g in changes if t >= since]
            before = [g for t, g in changes if t < since]
            return max(held + before[-1:], default=0.0)

    def now(self, pan):
        with self.lock:
            return self.changes[pan][-1][1] - self.tare.get(pan, 0.0)


class Watcher(threading.Thread):
    """A raw ?WATCH client that reconnects whenever the daemon is gone, and checks every stable report
    against the truth as it arrives (`on_report`)."""

    def __init__(self, socket_path, on_report, to_host=lambda t: t):
        super().__init__(daemon=True)
        self.socket_path = socket_path
        self.on_report = on_report
        self.to_host = to_host  # the daemon's time, stamped on a stepped clock, on the harness's
        self.lock = threading.Lock()
        self.latest = {}  # pan -> (arrival, report)
        self.connections = 0
        self.stopping = False

    def run(self):
        while not self.stopping:
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                    s.settimeout(5)
                    s.connect(self.socket_path)
                    s.sendall(b'?WATCH={"enable":true};\n')
                    with self.lock:
                        self.connections += 1
                    for line in s.makefile("rb"):
                        report = json.loads(line)
                        if report.get("class") != "WEIGHT":
                            continue
                        arrival = time.time()
                        if "time" in report:
                            report["stamped"] = report["time"]  # as the daemon's clock had it
                            report["time"] = self.to_host(report["time"])
                        with self.lock:
                            self.latest[report["sensor"]] = (arrival, report)
                        self.on_report(arrival, report)
            except (OSError, ValueError):
                pass
            time.sleep(0.05)

    def report(self, pan):
        with self.lock:
            return self.latest.get(pan)


class Availability(threading.Thread):
    """mosquitto_sub on the bridge's availability topics, started again whenever it exits (it does when
    the broker goes away); each message with the time it arrived."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.lock = threading.Lock()
        self.messages = []  # (arrival, topic, payload)
        self.stopping = False
        self.process = None

    def run(self):
        topics = [f"plumscale/{SCALE_ID}/{topic}" for topic in ("status", "daemon", "+/availability")]
        command = ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.port), "-v", "-q", "1"]
        for topic in topics:
            command += ["-t", topic]
        while not self.stopping:
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            for line in self.process.stdout:
                topic, _, payload = line.rstrip("\n").partition(" ")
                with self.lock:
                    self.messages.append((time.time(), topic.split("/", 2)[2], payload))
            self.process.wait()
            time.sleep(0.1)

    def stop(self):
        self.stopping = True
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def seen(self, topic, payload, after):
        """The arrival time of the first `payload` on `topic` (`status`, `daemon`, `left/availability`)
        after `after`, or None."""
        with self.lock:
            for arrival, t, p in self.messages:
                if arrival >= after and t == topic and p == payload:
                    return arrival
        return None

    def all_online(self, after):
        """The time by which every availability topic has said online since `after`, or None."""
        times = [self.seen(topic, "online", after) for topic in
                 ("status", "daemon", "left/availability", "right/availability")]
        return max(times) if all(times) else None


def process_sample(pid):
    """(VmRSS in KiB, open descriptors, threads) of a live process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        return rss, len(os.listdir(f"/proc/{pid}/fd")), len(os.listdir(f"/proc/{pid}/task"))
    except (OSError, StopIteration):
        return None


class Sampler(threading.Thread):
    """Every `interval` seconds, RSS, descriptors and threads of plumscaled, plumscale-mqtt and
    plumscale-web, tagged with the process's start count and the fault in progress (empty when quiet)."""

    NAMES = ("plumscaled", "plumscale-mqtt", "plumscale-web")

    def __init__(self, stack, interval, started):
        super().__init__(daemon=True)
        self.stack = stack
        self.interval = interval
        self.started = started
        self.rows = []
        self.phase = "warm-up"
        self.stopping = False
        self.wake = threading.Event()

    def run(self):
        while not self.stopping:
            for name in self.NAMES:
                pid = self.stack.pid(name)
                sample = process_sample(pid) if pid else None
                if sample:
                    self.rows.append((round(time.time() - self.started, 2), name, pid, self.stack.starts[name],
                                      *sample, self.phase))
            self.wake.wait(self.interval)
