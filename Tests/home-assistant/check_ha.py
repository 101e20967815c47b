#!/usr/bin/env python3
"""plumscale-mqtt against a real Home Assistant core: discovery, states, availability, the tare button.

Starts mosquitto on a free loopback port, plumscaled with two simulated pans of constant load (152.3 g and
30 g, so the weights are known and a tare is never refused for motion), plumscale-mqtt, and `hass` with a
fresh configuration directory; onboards Home Assistant and sets up its MQTT integration through the REST
API, as a user would through the frontend. Prints `ok NAME` or `FAIL NAME: why` per check and exits 1 when
one failed. Run by run.sh, with the Python of the venv that holds Home Assistant. Standard library only.
"""

import argparse
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SCALE_ID = "ci"
PANS = {"left": 152.3, "right": 30.0}
# Every entity the bridge announces per pan, as `platform.plumscale_<id>_<pan>_<entity>` (docs/home-assistant.md).
PAN_ENTITIES = ("sensor.{}_weight", "sensor.{}_force", "sensor.{}_flow", "binary_sensor.{}_stable",
                "binary_sensor.{}_overload", "button.{}_tare", "button.{}_zero", "event.{}_action",
                "sensor.{}_last_action")
# A pan's diagnostics follow the bridge and its daemon, not the pan's sensor: they show its fault.
DIAGNOSTIC_ENTITIES = ("sensor.{}_sensor_state", "sensor.{}_last_fault", "sensor.{}_calibration_date",
                       "sensor.{}_calibration_grade", "sensor.{}_late_readouts", "sensor.{}_discards")

DAEMON_CONFIG = """
[[sensor]]
name = "left"
kind = "simulated-hx711"
load_grams = 152.3
ready_timeout_ms = 300
unplug_file = "{dir}/left.unplugged"

[[sensor]]
name = "right"
kind = "simulated-hx711"
load_grams = 30
seed = 4
"""


def pan_ids(pan):
    return [pattern.format(f"plumscale_{SCALE_ID}_{pan}") for pattern in PAN_ENTITIES]


def diagnostic_ids(pan):
    return [pattern.format(f"plumscale_{SCALE_ID}_{pan}") for pattern in DIAGNOSTIC_ENTITIES]


ALL_IDS = ([entity for pan in PANS for entity in pan_ids(pan) + diagnostic_ids(pan)]
           + [f"sensor.plumscale_{SCALE_ID}_heaviest", f"sensor.plumscale_{SCALE_ID}_daemon_started"])


class Timeout(Exception):
    pass


def wait_until(what, condition, seconds):
    """Polls `condition` until it returns a true value, which it returns; a deadline, never a fixed sleep."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
        except (OSError, ValueError) as error:  # HA still starting, a connection refused: try again
            last = error
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.5)
    raise Timeout(f"no {what} within {seconds:.0f} s (last: {str(last)[:300]})")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def number(state):
    try:
        value = float(state)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


class Stack:
    """The broker, the daemon, the bridge and Home Assistant, each a child process logging into one temp dir."""

    def __init__(self, bin_dir, hass, startup_seconds):
        self.bin = bin_dir
        self.dir = tempfile.mkdtemp(prefix="plumscale-ha-")
        self.config_dir = os.path.join(self.dir, "ha")
        self.socket = os.path.join(self.dir, "plumscale.sock")
        self.broker_port = free_port()
        self.ha_port = free_port()
        self.url = f"http://127.0.0.1:{self.ha_port}"
        self.client_id = self.url + "/"
        self.token = None
        self.children = {}
        self.last_states = {}
        self.startup_seconds = startup_seconds
        self.hass = hass

    # Processes

    def start(self, name, command):
        log = open(os.path.join(self.dir, name + ".log"), "a")
        self.children[name] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                               stdin=subprocess.DEVNULL, cwd=self.dir)

    def kill(self, name):
        process = self.children.pop(name)
        process.send_signal(signal.SIGKILL)
        process.wait(10)

    def stop_all(self):
        for name in reversed(list(self.children)):
            process = self.children.pop(name)
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)

    def start_broker(self):
        conf = os.path.join(self.dir, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write(f"listener {self.broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        self.start("mosquitto", [shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", conf])
        wait_until("mosquitto listening",
                   lambda: socket.create_connection(("127.0.0.1", self.broker_port), 2).close() is None, 20)

    def start_daemon(self):
        conf = os.path.join(self.dir, "daemon.toml")
        with open(conf, "w") as f:
            f.write(DAEMON_CONFIG.replace("{dir}", self.dir))
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        self.start("plumscaled", [os.path.join(self.bin, "plumscaled"), "--config", conf, "--socket", self.socket,
                                  "--state-directory", os.path.join(self.dir, "state")])
        wait_until("plumscaled's socket", lambda: os.path.exists(self.socket), 30)

    def start_bridge(self):
        conf = os.path.join(self.dir, "bridge.toml")
        with open(conf, "w") as f:
            f.write(f'[mqtt]\nscale_id = "{SCALE_ID}"\nlive_rate = 2\n')
        self.start("plumscale-mqtt", [os.path.join(self.bin, "plumscale-mqtt"), "--config", conf, "--socket",
                                      self.socket, "--broker", f"127.0.0.1:{self.broker_port}"])

    def start_hass(self):
        os.makedirs(self.config_dir)
        with open(os.path.join(self.config_dir, "configuration.yaml"), "w") as f:
            # No default_config: it sets up dozens of integrations (and their network lookups) that the
            # bridge does not need. `onboarding` for the first user, `config` for the config-flow API,
            # `api` for states and services; MQTT comes as a config entry, as in a real install.
            f.write("homeassistant:\n  name: PlumScale CI\n  latitude: 52.37\n  longitude: 4.89\n"
                    "  elevation: 0\n  unit_system: metric\n  time_zone: UTC\n  currency: EUR\n  country: NL\n"
                    f"http:\n  server_host: 127.0.0.1\n  server_port: {self.ha_port}\n"
                    "api:\nconfig:\nonboarding:\nlogger:\n  default: info\n")
        self.start("hass", [self.hass, "--skip-pip", "-c", self.config_dir])
        wait_until("Home Assistant's onboarding API", lambda: self.request("GET", "/api/onboarding"),
                   self.startup_seconds)

    # Home Assistant's REST API

    def request(self, method, path, body=None, form=None, auth=False):
        headers = {}
        data = None
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if auth:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {path}: HTTP {error.code}: {error.read().decode()[:500]}") from None
        return json.loads(text) if text else {}

    def onboard(self):
        """The frontend's first-run steps: the owner (whose auth code buys a token), then analytics and the
        integration step. The core_config step is left out on purpose: it starts met, radio_browser and
        google_translate flows, which reach the internet and have nothing to do with MQTT."""
        code = self.request("POST", "/api/onboarding/users", {
            "client_id": self.client_id, "name": "CI", "username": "ci", "password": "plumscale-ci-password",
            "language": "en"})["auth_code"]
        token = self.request("POST", "/auth/token", form={
            "grant_type": "authorization_code", "code": code, "client_id": self.client_id})
        self.token = token["access_token"]
        self.request("POST", "/api/onboarding/analytics", {}, auth=True)
        self.request("POST", "/api/onboarding/integration",
                     {"client_id": self.client_id, "redirect_uri": self.client_id + "?auth_callback=1"}, auth=True)

    def add_mqtt(self):
        """The MQTT integration's config flow, as the UI runs it: the user step leads to the broker form
        (a menu first on a supervised install); submitting it makes HA connect to the broker to test it."""
        result = self.request("POST", "/api/config/config_entries/flow",
                              {"handler": "mqtt", "show_advanced_options": False}, auth=True)
        for _ in range(4):
            if result.get("type") == "create_entry":
                return result
            if result.get("type") == "menu" and "broker" in result.get("menu_options", []):
                body = {"next_step_id": "broker"}
            elif result.get("type") == "form" and result.get("step_id") == "broker":
                body = {"broker": "127.0.0.1", "port": self.broker_port}
            else:
                break
            result = self.request("POST", f"/api/config/config_entries/flow/{result['flow_id']}", body, auth=True)
        raise RuntimeError(f"the MQTT config flow did not create an entry: {json.dumps(result)[:600]}")

    def states(self):
        states = {s["entity_id"]: s for s in self.request("GET", "/api/states", auth=True)
                  if f"plumscale_{SCALE_ID}_" in s["entity_id"]}
        self.last_states = states
        return states

    def press(self, entity_id):
        self.request("POST", "/api/services/button/press", {"entity_id": entity_id}, auth=True)

    def daemon_reading(self, pan):
        out = subprocess.run([os.path.join(self.bin, "plumscale"), "read", "--socket", self.socket, "--json",
                              "--sensor", pan], capture_output=True, text=True, timeout=30).stdout
        return json.loads(out.splitlines()[0])

    # Reporting

    def tail(self, name, lines=40):
        path = os.path.join(self.config_dir, "home-assistant.log") if name == "hass" else \
            os.path.join(self.dir, name + ".log")
        try:
            with open(path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError as error:
            return f"({error})"

    def report(self):
        print("--- last states seen")
        for entity_id, state in sorted(self.last_states.items()):
            attributes = {k: v for k, v in state["attributes"].items()
                          if k in ("device_class", "unit_of_measurement", "event_type", "message")}
            print(f"{entity_id} = {state['state']!r} {attributes}")
        for name in ("hass", "plumscale-mqtt", "plumscaled", "mosquitto"):
            print(f"--- tail of {'home-assistant.log' if name == 'hass' else name + ' output'}\n{self.tail(name)}")


# The checks: each waits for Home Assistant's own view (GET /api/states) with a deadline.

def check_entities(stack, seconds):
    def complete():
        states = stack.states()
        return all(entity in states for entity in ALL_IDS) and states
    states = wait_until("entity ids " + ", ".join(ALL_IDS), complete, seconds)
    for pan in PANS:
        attributes = states[f"sensor.plumscale_{SCALE_ID}_{pan}_weight"]["attributes"]
        if (attributes.get("device_class"), attributes.get("unit_of_measurement")) != ("weight", "g"):
            raise AssertionError(f"{pan} weight: device class and unit {attributes.get('device_class')!r}, "
                                 f"{attributes.get('unit_of_measurement')!r}, expected 'weight', 'g'")


def numbers_near_loads(stack):
    states = stack.states()
    for pan, grams in PANS.items():
        prefix = f"sensor.plumscale_{SCALE_ID}_{pan}"
        values = [number(states.get(prefix + suffix, {}).get("state")) for suffix in ("_weight", "_force", "_flow")]
        if None in values or abs(values[0] - grams) > 1.0:
            return False
    return True


def check_numbers(stack, seconds):
    wait_until("numeric weight, force and flow on both pans, each weight within 1 g of its load",
               lambda: numbers_near_loads(stack), seconds)


def check_tare(stack, seconds):
    pan = "left"
    prefix = f"plumscale_{SCALE_ID}_{pan}"
    wait_until("the left pan stable", lambda: stack.states()[f"binary_sensor.{prefix}_stable"]["state"] == "on",
               seconds)
    stack.press(f"button.{prefix}_tare")
    event = wait_until("the action event tare_done", lambda: stack.states()[f"event.{prefix}_action"]
                       ["attributes"].get("event_type") == "tare_done", seconds)
    reading = wait_until("the daemon's tare", lambda: (r := stack.daemon_reading(pan))["tare"] > 100 and r, seconds)
    if abs(reading["grams"]) > 0.5 or abs(reading["tare"] - PANS[pan]) > 1.0:
        raise AssertionError(f"the daemon reads {reading['grams']} g with tare {reading['tare']} g after the press")
    wait_until("the weight sensor near 0 g",
               lambda: (w := number(stack.states()[f"sensor.{prefix}_weight"]["state"])) is not None
               and abs(w) <= 0.5, seconds)
    return event


def unavailable(stack, ids):
    states = stack.states()
    return all(states.get(entity, {}).get("state") == "unavailable" for entity in ids)


def available(stack, ids):
    """Present and not unavailable: a button or an event never pressed or fired is rightly `unknown`."""
    states = stack.states()
    return all(entity in states and states[entity]["state"] != "unavailable" for entity in ids)


def check_gone(stack, ids, seconds):
    wait_until(f"{len(ids)} entities unavailable", lambda: unavailable(stack, ids), seconds)


def check_back(stack, ids, seconds):
    wait_until(f"{len(ids)} entities available", lambda: available(stack, ids), seconds)


def check_still_there(stack, ids):
    if not available(stack, ids):
        raise AssertionError(f"{', '.join(ids)} went unavailable with the other pan")


def check_quiet_log(stack):
    """Home Assistant logs a discovery payload it cannot read, or a state it cannot parse, as a warning of
    its MQTT integration and carries on: without this check such an entity would only be missing."""
    with open(os.path.join(stack.config_dir, "home-assistant.log"), errors="replace") as f:
        complaints = [line.strip() for line in f
                      if (" WARNING " in line or " ERROR " in line) and "[homeassistant.components.mqtt" in line]
    if complaints:
        raise AssertionError(f"{len(complaints)} warnings or errors from the MQTT integration, first: {complaints[0]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the folder with plumscaled, plumscale and plumscale-mqtt")
    parser.add_argument("--hass", required=True, help="the hass executable")
    parser.add_argument("--deadline", type=float, default=60, help="seconds each wait may take")
    parser.add_argument("--startup", type=float, default=300, help="seconds Home Assistant may take to start")
    args = parser.parse_args()
    def interrupted(*_):
        print("interrupted: stopping every child", flush=True)
        sys.exit(143)
    signal.signal(signal.SIGTERM, interrupted)
    stack = Stack(args.bin, args.hass, args.startup)
    failures = []

    def check(name, action):
        started = time.monotonic()
        try:
            action()
        except Exception as error:  # every failure, of any kind, is reported and counted: the run goes on
            failures.append(name)
            print(f"FAIL {name}: {error}", flush=True)
            return False
        print(f"ok {name} ({time.monotonic() - started:.1f} s)", flush=True)
        return True

    left = pan_ids("left")
    right_weight = f"sensor.plumscale_{SCALE_ID}_right_weight"
    deadline = args.deadline
    try:
        up = check("start the broker, plumscaled, plumscale-mqtt and Home Assistant",
                   lambda: (stack.start_broker(), stack.start_daemon(), stack.start_bridge(), stack.start_hass()))
        up = up and check("onboard Home Assistant (owner, token)", stack.onboard)
        up = up and check("add the MQTT integration through its config flow", stack.add_mqtt)
        if up and check("the device appears with its entities", lambda: check_entities(stack, deadline)):
            check("the numeric states are numbers", lambda: check_numbers(stack, deadline))
            check("the tare button tares the daemon and fires tare_done", lambda: check_tare(stack, deadline))
            check("plumscale-mqtt killed: its entities unavailable",
                  lambda: (stack.kill("plumscale-mqtt"), check_gone(stack, ALL_IDS, deadline)))
            check("plumscale-mqtt restarted: available again",
                  lambda: (stack.start_bridge(), check_back(stack, ALL_IDS, deadline)))
            check("left pan's wire pulled: left unavailable, right still available",
                  lambda: (open(os.path.join(stack.dir, "left.unplugged"), "w").close(),
                           check_gone(stack, left, deadline), check_still_there(stack, [right_weight])))
            check("left pan's wire back: left available again",
                  lambda: (os.unlink(os.path.join(stack.dir, "left.unplugged")), check_back(stack, left, deadline)))
            check("plumscaled killed: the entities unavailable",
                  lambda: (stack.kill("plumscaled"), check_gone(stack, ALL_IDS, deadline)))
            check("plumscaled restarted: available again",
                  lambda: (stack.start_daemon(), check_back(stack, ALL_IDS, deadline)))
            check("Home Assistant's MQTT integration logged no warning or error", lambda: check_quiet_log(stack))
        if failures:
            stack.report()
    finally:
        stack.stop_all()
        if failures:
            print(f"logs kept in {stack.dir}")
        else:
            shutil.rmtree(stack.dir, ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
