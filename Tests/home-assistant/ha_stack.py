"""The processes check_ha.py and check_schema.py run, and Home Assistant's APIs as they use them.

mosquitto on a free loopback port, plumscaled with two simulated pans of constant load (152.3 g and 30 g, so the
weights are known and a tare is never refused for motion), plumscale-mqtt bridges, and `hass` with a fresh
configuration directory, each a child process logging into one temp dir. Runs with the Python of the venv that holds
Home Assistant: besides the standard library it uses that venv's paho-mqtt (retained discovery on the broker) and
aiohttp (the websocket API, the only one that lists the entity registry).
"""

import asyncio
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import plumstack  # noqa: E402
from plumstack import Timeout, free_port  # noqa: E402,F401  (check_ha.py takes Timeout from here)

SCALE_ID = "ci"
PANS = {"left": 152.3, "right": 30.0}
# Each pan's sensor in plumscaled's configuration. The right pan's load is a file (the simulated chip's load_file): a
# test can overload it and put it back.
SENSOR_CONFIG = {"left": """
[[sensor]]
name = "left"
kind = "simulated-hx711"
load_grams = 152.3
ready_timeout_ms = 300
unplug_file = "{dir}/left.unplugged"
""", "right": """
[[sensor]]
name = "right"
kind = "simulated-hx711"
load_file = "{dir}/right.load"
seed = 4
"""}


def wait_until(what, condition, seconds):
    """Polls `condition` until it returns a true value, which it returns; a deadline, never a fixed sleep."""
    # HA still starting, an entity not there yet (KeyError): try again
    return plumstack.wait_until(what, condition, seconds, interval=0.5, retried=(OSError, ValueError, KeyError),
                                shown=300)


def number(state):
    try:
        value = float(state)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


class Stack(plumstack.Processes):
    """The broker, the daemon, the bridges and Home Assistant."""

    def __init__(self, bin_dir, hass=None, startup_seconds=300):
        super().__init__(os.path.abspath(bin_dir), tempfile.mkdtemp(prefix="plumscale-ha-"), wait_until)
        self.config_dir = os.path.join(self.dir, "ha")
        self.ha_port = free_port()
        self.url = f"http://127.0.0.1:{self.ha_port}"
        self.client_id = self.url + "/"
        self.token = None
        self.tokens = None  # the whole /auth/token answer: the screenshot's browser signs in with it
        self.last_states = {}
        self.startup_seconds = startup_seconds
        self.hass = os.path.abspath(hass) if hass else None

    # Processes

    def kill(self, name):
        self.send_signal(name, signal.SIGKILL, 10)

    def start_broker(self):
        super().start_broker(20)

    def set_load(self, pan, grams):
        """The grams on a pan whose simulated chip reads its load from a file (only `right` here)."""
        with open(os.path.join(self.dir, f"{pan}.load"), "w") as f:
            f.write(f"{grams}\n")

    def start_daemon(self, extra_config="", pans=tuple(PANS)):
        """plumscaled with the sensors of `pans` and `extra_config` (such as an [[alert]]) after them."""
        conf = os.path.join(self.dir, "daemon.toml")
        if not os.path.exists(os.path.join(self.dir, "right.load")):
            self.set_load("right", PANS["right"])
        with open(conf, "w") as f:
            f.write("".join(SENSOR_CONFIG[pan] for pan in pans).replace("{dir}", self.dir) + extra_config)
        self.start_plumscaled(conf, 30)

    def start_bridge(self, scale_id=SCALE_ID):
        """A bridge for `scale_id` on the one daemon; its child is `plumscale-mqtt` for SCALE_ID, else
        `plumscale-mqtt-<scale id>`: bridges of different scale ids share a daemon as any two clients do."""
        name = "plumscale-mqtt" if scale_id == SCALE_ID else f"plumscale-mqtt-{scale_id}"
        self.start_plumscale_mqtt(name, f"bridge-{scale_id}.toml", scale_id)

    def start_hass(self):
        os.makedirs(self.config_dir)
        with open(os.path.join(self.config_dir, "configuration.yaml"), "w") as f:
            # No default_config: it sets up dozens of integrations (and their network lookups) that the
            # bridge does not need. `onboarding` for the first user, `config` for the config-flow API,
            # `api` for states and services; MQTT comes as a config entry, as in a real install. `frontend`
            # serves the pages the screenshot is taken of.
            f.write("homeassistant:\n  name: PlumScale CI\n  latitude: 52.37\n  longitude: 4.89\n"
                    "  elevation: 0\n  unit_system: metric\n  time_zone: UTC\n  currency: EUR\n  country: NL\n"
                    f"http:\n  server_host: 127.0.0.1\n  server_port: {self.ha_port}\n"
                    "api:\nconfig:\nonboarding:\nfrontend:\nlogger:\n  default: info\n")
        # The core_config onboarding step marked done beforehand: what it sets (location, units, time zone) comes
        # from configuration.yaml above, and the step itself would start met, radio_browser, google_translate and
        # shopping_list, which reach the internet. Without it done, the frontend never leaves its onboarding page.
        os.makedirs(os.path.join(self.config_dir, ".storage"))
        with open(os.path.join(self.config_dir, ".storage", "onboarding"), "w") as f:
            json.dump({"version": 4, "minor_version": 1, "key": "onboarding", "data": {"done": ["core_config"]}}, f)
        self.start("hass", [self.hass, "--skip-pip", "-c", self.config_dir])
        wait_until("Home Assistant's onboarding API", lambda: self.request("GET", "/api/onboarding"),
                   self.startup_seconds)

    # The broker, as a client of it (paho-mqtt from Home Assistant's venv)

    def _mqtt_client(self):
        import paho.mqtt.client as mqtt
        # an id of its own per connection: a second client with the same id would take the first one's place
        self.connections = getattr(self, "connections", 0) + 1
        client_id = f"plumscale-ha-check-{os.getpid()}-{self.connections}"
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)
        client.connect("127.0.0.1", self.broker_port)
        return client

    def publish_retained(self, messages):
        """Publishes (topic, payload) pairs retained at QoS 1 and returns once the broker has every one."""
        client = self._mqtt_client()
        client.loop_start()
        try:
            for topic, payload in messages:
                client.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)
        finally:
            client.disconnect()
            client.loop_stop()

    def retained(self, topic_filter, seconds=5):
        """Every retained message on `topic_filter`, by topic: subscribed, then a marker of our own; the broker
        sends what it retains before the marker comes back (the bridge's own DiscoveryCleanup does the same)."""
        found = {}
        marker = f"plumscale-ha-check/marker/{os.getpid()}"

        def on_message(_client, _userdata, message):
            if message.topic == marker:
                found[None] = True
            elif message.retain:
                found[message.topic] = message.payload

        client = self._mqtt_client()
        client.on_message = on_message
        client.loop_start()
        try:
            client.subscribe([(topic_filter, 1), (marker, 1)])
            # published again at each poll: one sent before the subscription took effect is not delivered
            wait_until("the broker's retained messages", lambda: client.publish(marker, b"x", qos=1) and None in found,
                       seconds)
        finally:
            client.disconnect()
            client.loop_stop()
        found.pop(None)
        return found

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
        integration step. The core_config step is already done (start_hass says why)."""
        code = self.request("POST", "/api/onboarding/users", {
            "client_id": self.client_id, "name": "CI", "username": "ci", "password": "plumscale-ci-password",
            "language": "en"})["auth_code"]
        self.tokens = self.request("POST", "/auth/token", form={
            "grant_type": "authorization_code", "code": code, "client_id": self.client_id})
        self.token = self.tokens["access_token"]
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

    def states(self, scale_id=SCALE_ID):
        states = {s["entity_id"]: s for s in self.request("GET", "/api/states", auth=True)
                  if f"plumscale_{scale_id}_" in s["entity_id"]}
        self.last_states = states
        return states

    def press(self, entity_id):
        self.request("POST", "/api/services/button/press", {"entity_id": entity_id}, auth=True)

    def call(self, domain, service, data):
        """Any service, such as number.set_value: what a dashboard control does."""
        self.request("POST", f"/api/services/{domain}/{service}", data, auth=True)

    # Home Assistant's websocket API: the registries, which REST does not show

    def websocket(self, message_type, **fields):
        """One command on /api/websocket after the auth handshake; its `result`, or RuntimeError with HA's error."""
        import aiohttp

        async def exchange():
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(self.url + "/api/websocket", timeout=30) as ws:
                    await ws.receive_json()  # auth_required
                    await ws.send_json({"type": "auth", "access_token": self.token})
                    if (answer := await ws.receive_json())["type"] != "auth_ok":
                        raise RuntimeError(f"websocket auth: {answer}")
                    await ws.send_json({"id": 1, "type": message_type, **fields})
                    answer = await ws.receive_json()
                    if not answer.get("success"):
                        raise RuntimeError(f"websocket {message_type}: {answer.get('error')}")
                    return answer["result"]
        return asyncio.run(exchange())

    def entity_registry(self, scale_id=SCALE_ID):
        """The MQTT integration's registry entries of one scale (unique ids `plumscale_<id>_…`)."""
        prefix = f"plumscale_{scale_id}_"
        return [entry for entry in self.websocket("config/entity_registry/list")
                if entry.get("platform") == "mqtt" and (entry.get("unique_id") or "").startswith(prefix)]

    def device_id(self, scale_id=SCALE_ID):
        """The device registry id of a scale (identifier `plumscale_<id>` of the MQTT domain), or None."""
        for device in self.websocket("config/device_registry/list"):
            if ["mqtt", f"plumscale_{scale_id}"] in device.get("identifiers", []):
                return device["id"]
        return None

    # The daemon

    def daemon_reading(self, pan):
        out = subprocess.run([os.path.join(self.bin, "plumscale"), "read", "--socket", self.socket, "--json",
                              "--sensor", pan], capture_output=True, text=True, timeout=30).stdout
        return json.loads(out.splitlines()[0])

    # Reporting

    def log_lines(self):
        with open(os.path.join(self.config_dir, "home-assistant.log"), errors="replace") as f:
            return f.readlines()

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
                          if k in ("device_class", "unit_of_measurement", "event_type", "message", "reason")}
            print(f"{entity_id} = {state['state']!r} {attributes}")
        for name in ("hass", "plumscale-mqtt", "plumscale-mqtt-old", "plumscaled", "mosquitto"):
            print(f"--- tail of {'home-assistant.log' if name == 'hass' else name + ' output'}\n{self.tail(name)}")
