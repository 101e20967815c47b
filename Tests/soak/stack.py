"""The processes under soak: mosquitto, plumscaled with two simulated pans, plumscale-mqtt and plumscale-web.

Started the way Tests/home-assistant/check_ha.py and Tests/browser/test_web.py start them (a free loopback
port for the broker and the web service, a hashed password, a temporary directory for sockets, state,
history and logs), but each can be killed and started again, as systemd's Restart= would, and every start
is counted, so the resource checks compare samples of one process only.
"""

import errno
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import plumstack  # noqa: E402
from plumstack import Timeout, free_port  # noqa: E402,F401  (soak.py takes Timeout from here)

SCALE_ID = "soak"
PANS = ("left", "right")
PASSWORD = "plumscale-soak-password"
# The soak's plumscale-web writes a stable reading at most 2 s after it arrives ([web]
# history_commit_seconds, 90 s unless set): a fault's effect on the history (a full disk's error, a power
# cut's loss) is then seen within the fault's own window. The default's longer wait is the same code
# (HistoryBatch); sdcard.py measures the card with the default.
SOAK_COMMIT_SECONDS = 2
# 2 s more for a busy machine's report delivery and commit. A SIGKILL of plumscale-web may lose what
# settled this long before it.
WRITE_DELAY = SOAK_COMMIT_SECONDS + 2.0

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


# The small file systems of the full-disk fault (docs/RELIABILITY.md): the daemon's state directory and the
# history's folder each on a tmpfs of its own, filled by the fault and emptied again. The history's is large
# enough for an hour's rows and a WAL of 4 MiB, its checkpoint; the state's for its few small files.
SMALL_DISKS = {"state": "4m", "history-disk": "32m"}


def fake_time_library():
    """libfaketime's thread-safe library, wherever the architecture puts it, or None."""
    for triplet in sorted(os.listdir("/usr/lib")):
        path = os.path.join("/usr/lib", triplet, "faketime", "libfaketimeMT.so.1")
        if os.path.exists(path):
            return path
    return None


def remove_stale_fake_time_memory():
    """Removes the semaphores and shared memory libfaketime made for processes that are gone. It names them
    by the process ID (/dev/shm/sem.faketime_sem_PID, faketime_shm_PID) and removes them only at a clean exit,
    so every SIGKILL of the soak leaves a pair; a later process given the same ID found the pair there, took
    it for another's, and exited at start ("sem_open failed and recreation attempts failed"): a CI soak's
    plumscale-web after a power cut, once the IDs had wrapped around."""
    try:
        names = os.listdir("/dev/shm")
    except OSError:
        return
    for entry in names:
        match = re.fullmatch(r"(?:sem\.faketime_sem|faketime_shm)_(\d+)", entry)
        if match and not os.path.exists(f"/proc/{match.group(1)}"):
            try:
                os.remove(os.path.join("/dev/shm", entry))
            except OSError:
                pass


class Clock:
    """The wall clock of plumscaled, plumscale-mqtt and plumscale-web, stepped as NTP or an old fake-hwclock
    would, by libfaketime from an offset file (as ClockStepProcessTests does, but read once a second, not at
    every clock call: the daemon reads the wall clock for each sample, and a file read each time slowed it on a
    busy machine; a report stamped in that second on the old clock is matched by `to_host`'s slack). Their
    monotonic clocks are left alone. The harness's own clock is not stepped: it keeps the truth, and turns
    the processes' times back into its own with the offset each was stamped under (`to_host`)."""

    def __init__(self, work_dir, stepped):
        self.library = fake_time_library() if stepped else None
        self.file = os.path.join(work_dir, "clock-offset")
        self.lock = threading.Lock()
        self.epochs = [(0.0, 0)]  # (harness time the offset took effect, offset in seconds)
        self.environment = None
        if self.library:
            write_atomically(self.file, "+0\n")
            # FAKETIME_SHARED names shared memory libfaketime would otherwise make and announce with setenv(3)
            # as it loads, which left Swift's CommandLine.arguments empty.
            self.environment = {"LD_PRELOAD": self.library, "FAKETIME_TIMESTAMP_FILE": self.file,
                                "FAKETIME_CACHE_DURATION": "1", "DONT_FAKE_MONOTONIC": "1",
                                "FAKETIME_SHARED": "/plumscale_sem_none /plumscale_shm_none"}

    def step(self, offset):
        """Sets the processes' clock to the harness's plus `offset` seconds, at once."""
        with self.lock:
            self.epochs.append((time.time(), offset))
        write_atomically(self.file, f"{offset:+d}\n")

    def to_host(self, t, slack=5.0):
        """A time stamped by one of the processes, on the harness's clock: the offset of the latest epoch
        the time fits in (stamped while it held, give or take `slack` for a report on its way)."""
        with self.lock:
            epochs = list(self.epochs)
        for i in range(len(epochs) - 1, -1, -1):
            start, offset = epochs[i]
            end = epochs[i + 1][0] if i + 1 < len(epochs) else float("inf")
            if start - slack <= t - offset <= min(end, time.time()) + slack:
                return t - offset
        return t


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

    def __init__(self, bin_dir, work_dir, small_disks=False, stepped_clock=False, commit_seconds=None):
        """`commit_seconds`: plumscale-web's [web] history_commit_seconds; None leaves its default."""
        super().__init__(bin_dir, work_dir, wait_until)
        self.commit_seconds = commit_seconds
        self.history = os.path.join(self.dir, "history-disk" if small_disks else "", "history.sqlite")
        self.disks = []  # the tmpfs mounted by mount_small_disks, to fill and to unmount
        self.clock = Clock(self.dir, stepped_clock)
        self.unplug_file = os.path.join(self.dir, "left.unplugged")
        self.web_port = free_port()
        self.web_url = f"http://127.0.0.1:{self.web_port}"
        self.starts = {}
        self.started_at = {}
        self.start_times = {}
        self.kill_times = {}  # name -> when it was SIGKILLed (a crash or a power cut)
        self.load_files = {pan: os.path.join(self.dir, pan + ".grams") for pan in PANS}

    # The small file systems

    def mount_small_disks(self):
        """Mounts a tmpfs over the state directory and the history's folder (SMALL_DISKS), as the process tests
        do (SmallFileSystem); returns None, or why not (mounting needs root), and then the fault is skipped."""
        for name in SMALL_DISKS:
            os.makedirs(os.path.join(self.dir, name), exist_ok=True)  # plain folders when not mounted
        if os.geteuid() != 0:
            return "mounting a small tmpfs needs root"
        for name, size in SMALL_DISKS.items():
            point = os.path.join(self.dir, name)
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", point],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                self.unmount_small_disks()
                return f"mount -t tmpfs on {point}: {done.stderr.strip() or done.returncode}"
            self.disks.append(point)
        return None

    def fill_small_disks(self):
        """Fills each small file system with a filler file until a write fails with ENOSPC."""
        chunk = b"\0" * 65536
        for point in self.disks:
            with open(os.path.join(point, "filler"), "wb", buffering=0) as f:
                for size in (65536, 4096, 1):
                    try:
                        while True:
                            f.write(chunk[:size])
                    except OSError as error:
                        if error.errno != errno.ENOSPC:
                            raise

    def empty_small_disks(self):
        for point in self.disks:
            try:
                os.unlink(os.path.join(point, "filler"))
            except FileNotFoundError:
                pass

    def keep_history(self):
        """Copies the history's files out of their tmpfs into `dir`/history-kept, for a failed run's logs."""
        if not self.disks:
            return
        kept = os.path.join(self.dir, "history-kept")
        os.makedirs(kept, exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.history + suffix):
                shutil.copy2(self.history + suffix, kept)

    def unmount_small_disks(self):
        """Unmounts what mount_small_disks mounted (lazily: a process killed a moment ago may hold a file)."""
        for point in reversed(self.disks):
            subprocess.run(["umount", "-l", point], capture_output=True)
        self.disks = []

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

    def spawn(self, name, command, log):
        """As plumstack's, with the three programs on the stepped clock (`Clock`) when libfaketime is there."""
        environment = None
        if self.clock.environment and name in ("plumscaled", "plumscale-mqtt", "plumscale-web"):
            environment = dict(os.environ, **self.clock.environment)
            remove_stale_fake_time_memory()
        self.children[name] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                               stdin=subprocess.DEVNULL, cwd=self.dir, env=environment)

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
                        f'history = "{self.history}"\nretention_days = 7\n'
                        + (f"history_commit_seconds = {self.commit_seconds}\n" if self.commit_seconds is not None
                           else ""))
        self.start("plumscale-web", [os.path.join(self.bin, "plumscale-web"), "--config", conf,
                                     "--socket", self.socket])

    def log_tail(self, name, characters=2000):
        try:
            with open(os.path.join(self.dir, name + ".log"), errors="replace") as f:
                return f.read()[-characters:]
        except OSError:
            return ""
