"""Child processes of a PlumScale stack as the scripted suites run them: mosquitto, plumscaled, plumscale-mqtt.

One copy of what Tests/home-assistant/ha_stack.py and Tests/soak/stack.py both do: a free loopback port for the
broker, each program a child process logging into one directory, the daemon's socket and state in it, and a
deadline, never a fixed sleep, for anything to come up. Each suite subclasses `Processes` with what is its own
(Home Assistant's APIs, the soak's counted restarts and plumscale-web) and keeps its own timeouts.

Each importing script adds this folder to sys.path, found from its own file, so it runs from any working directory
with Debian's python3 alone.
"""

import os
import shutil
import signal
import socket
import subprocess
import time


class Timeout(Exception):
    pass


def wait_until(what, condition, seconds, interval=0.05, retried=(OSError, ValueError), shown=200):
    """Polls `condition` every `interval` seconds until it returns a true value, which it returns; a deadline,
    never a fixed sleep. An exception of `retried` (a socket refused while a process starts) is tried again; the
    Timeout shows `shown` characters of the last answer."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
        except retried as error:
            last = error
        if last and not isinstance(last, Exception):
            return last
        time.sleep(interval)
    raise Timeout(f"no {what} within {seconds:.0f} s (last: {str(last)[:shown]})")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Processes:
    """Each program a child process named in `children`, its output in `dir`/NAME.log (appended across starts).

    `wait` is the suite's own `wait_until(what, condition, seconds)`, so its polling interval and the exceptions it
    retries stay the suite's."""

    def __init__(self, bin_dir, work_dir, wait):
        self.bin = bin_dir
        self.dir = work_dir
        self.socket = os.path.join(self.dir, "plumscale.sock")
        self.broker_port = free_port()
        self.children = {}
        self.wait = wait

    def start(self, name, command):
        log = open(os.path.join(self.dir, name + ".log"), "a")
        self.spawn(name, command, log)
        log.close()

    def spawn(self, name, command, log):
        """Starts `command` as `name` with its output in the open `log`, in `dir`, with nothing on stdin."""
        self.children[name] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                               stdin=subprocess.DEVNULL, cwd=self.dir)

    def send_signal(self, name, sig, seconds):
        """Sends `sig` to `name`, no longer a child of the stack, and reaps it within `seconds`."""
        process = self.children.pop(name)
        process.send_signal(sig)
        process.wait(seconds)

    def stop_all(self):
        """SIGTERM to each child still running, the last started first; SIGKILL to one not gone within 20 s."""
        for name in reversed(list(self.children)):
            process = self.children.pop(name)
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)

    def start_broker(self, seconds):
        """mosquitto on `broker_port`, anonymous, no persistence; returns once it accepts a connection."""
        conf = os.path.join(self.dir, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write(f"listener {self.broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        self.start("mosquitto", [shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", conf])
        self.wait("mosquitto listening",
                  lambda: socket.create_connection(("127.0.0.1", self.broker_port), 2).close() is None, seconds)

    def start_plumscaled(self, conf, seconds):
        """plumscaled with the configuration file `conf` and its state in `dir`/state; returns once its socket is
        there. A killed daemon leaves its socket file behind: it is removed first, so the wait sees the new one."""
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        self.start("plumscaled", [os.path.join(self.bin, "plumscaled"), "--config", conf, "--socket", self.socket,
                                  "--state-directory", os.path.join(self.dir, "state")])
        self.wait("plumscaled's socket", lambda: os.path.exists(self.socket), seconds)

    def start_plumscale_mqtt(self, name, conf_name, scale_id):
        """A bridge named `name` for `scale_id` (live rate 2/s) on the daemon and the broker, its configuration
        written to `dir`/`conf_name`."""
        conf = os.path.join(self.dir, conf_name)
        with open(conf, "w") as f:
            f.write(f'[mqtt]\nscale_id = "{scale_id}"\nlive_rate = 2\n')
        self.start(name, [os.path.join(self.bin, "plumscale-mqtt"), "--config", conf, "--socket", self.socket,
                          "--broker", f"127.0.0.1:{self.broker_port}"])
