"""The processes under soak: mosquitto, plumscaled with two simulated pans, plumscale-mqtt and plumscale-web.

Started the way Tests/home-assistant/check_ha.py and Tests/browser/test_web.py start them (a free loopback
port for the broker and the web service, a hashed password, a temporary directory for sockets, state,
history and logs), but each can be killed and started again, as systemd's Restart= would, and every start
is counted, so the resource checks compare samples of one process only.
"""

import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import plumstack  # noqa: E402
from plumstack import Timeout, free_port  # noqa: E402,F401  (soak.py takes Timeout from here)

SCALE_ID = "soak"
PANS = ("left", "right")
PASSWORD = "plumscale-soak-password"
# plumscale-web writes a stable reading at most 2 s after it arrives (HistoryBatch); 2 s more for a busy
# machine's report delivery and commit. A SIGKILL of plumscale-web may lose what settled this long before it.
WRITE_DELAY = 4.0

DAEMON_CONFIG = """
[[sensor]]
name = "left"
kind = "simulated-hx711"
load_file = "{dir}/left.grams"
unplug_file = "{dir}/left.unplugged"
ready_timeout_ms = 300
seed = 3

[[sensor]]
name = "right"
kind = "simulated-hx711"
load_file = "{dir}/right.grams"
seed = 4
"""


def wait_until(what, condition, seconds, interval=0.05):
    """Polls `condition` until it returns a true value, which it returns; a deadline, never a fixed sleep."""
    return plumstack.wait_until(what, condition, seconds, interval)


def write_atomically(path, text):
    """Replaces the file in one rename: the simulated chip reads it every 20 ms and must never see half a
    number (a torn `152.3` read as `15` would be a load the script never placed)."""
    temporary = path + ".new"
    with open(temporary, "w") as f:
        f.write(text)
    os.replace(temporary, path)


class Stack(plumstack.Processes):
    """Each program a child process with its log in `dir`; `starts[name]` counts its starts."""

    def __init__(self, bin_dir, work_dir):
        super().__init__(bin_dir, work_dir, wait_until)
        self.history = os.path.join(self.dir, "history.sqlite")
        self.unplug_file = os.path.join(self.dir, "left.unplugged")
        self.web_port = free_port()
        self.web_url = f"http://127.0.0.1:{self.web_port}"
        self.starts = {}
        self.started_at = {}
        self.start_times = {}
        self.kill_times = {}  # name -> when it was SIGKILLed (a crash or a power cut)
        self.load_files = {pan: os.path.join(self.dir, pan + ".grams") for pan in PANS}

    # Processes

    def start(self, name, command):
        log = open(os.path.join(self.dir, name + ".log"), "a")
        log.write(f"--- start at {time.time():.3f}\n")
        log.flush()
        self.spawn(name, command, log)
        self.starts[name] = self.starts.get(name, 0) + 1
        self.started_at[name] = time.time()
        self.start_times.setdefault(name, []).append(self.started_at[name])
        log.close()

    def pid(self, name):
        process = self.children.get(name)
        return process.pid if process is not None and process.poll() is None else None

    def kill(self, name, sig=signal.SIGKILL):
        if sig == signal.SIGKILL:
            self.kill_times.setdefault(name, []).append(time.time())
        self.send_signal(name, sig, 30)

    def kill_all_at_once(self, names):
        """A power cut: SIGKILL to every process before waiting for any, so none sees another go first."""
        processes = [self.children.pop(name) for name in names]
        for name in names:
            self.kill_times.setdefault(name, []).append(time.time())
        for process in processes:
            process.send_signal(signal.SIGKILL)
        for process in processes:
            process.wait(30)

    def start_broker(self):
        super().start_broker(30)

    def start_daemon(self):
        conf = os.path.join(self.dir, "daemon.toml")
        if not os.path.exists(conf):
            with open(conf, "w") as f:
                f.write(DAEMON_CONFIG.replace("{dir}", self.dir))
        self.start_plumscaled(conf, 60)

    def start_bridge(self):
        self.start_plumscale_mqtt("plumscale-mqtt", "bridge.toml", SCALE_ID)

    def start_web(self):
        conf = os.path.join(self.dir, "plumscale.toml")
        if not os.path.exists(conf):
            hashed = subprocess.run([os.path.join(self.bin, "plumscale-web"), "hash-password", "--cost", "10"],
                                    input=PASSWORD + "\n", capture_output=True, text=True, check=True).stdout
            with open(os.path.join(self.dir, "web-password"), "w") as f:
                f.write(hashed)
            with open(conf, "w") as f:
                f.write(f'[web]\nlisten = "127.0.0.1:{self.web_port}"\nauth_file = "{self.dir}/web-password"\n'
                        f'history = "{self.history}"\nretention_days = 7\n')
        self.start("plumscale-web", [os.path.join(self.bin, "plumscale-web"), "--config", conf,
                                     "--socket", self.socket])

    def log_tail(self, name, characters=2000):
        try:
            with open(os.path.join(self.dir, name + ".log"), errors="replace") as f:
                return f.read()[-characters:]
        except OSError:
            return ""
