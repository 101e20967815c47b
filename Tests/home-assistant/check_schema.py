#!/usr/bin/env python3
"""Every discovery payload plumscale-mqtt publishes, checked against the newest Home Assistant's own MQTT schemas.

The core run by check_ha.py is 2025.4.4, the newest that runs on Python 3.13; releases from 2026.3 need Python 3.14,
which this machine lacks. Their schemas are Python all the same: this script fetches the newest `homeassistant` wheel
from PyPI (`pip download homeassistant --no-deps --python-version 3.14 --only-binary=:all:`, kept in --cache; pip
only checks the index when the newest is already there) and imports homeassistant.components.mqtt straight from the
wheel (a zip of pure Python: zipimport), in front of the 2025.4.4 venv, whose voluptuous, yarl and the rest it then
uses. Nothing of that release runs but its schemas.

The payloads come from a real run: mosquitto, plumscaled (two pans and an alert) and the bridge, with the previous
release's per-entity configs retained first (so the bridge also migrates, and sends migrate_discovery), a subscriber
on homeassistant/# for everything the bridge publishes while it starts, and then the daemon restarted without a pan,
so the bridge removes that pan's entities (components with `p` alone). Each payload is checked as that release's
discovery reads it (discovery.py): the topic against TOPIC_MATCHER; migrate_discovery against
MIGRATE_DISCOVERY_SCHEMA; a device config has its abbreviations expanded and must pass DEVICE_DISCOVERY_SCHEMA; each
component, with the shared options merged in as Home Assistant merges them, must pass its platform's DISCOVERY_SCHEMA
(what Home Assistant applies, which drops keys it does not know) and PLATFORM_SCHEMA_MODERN (the same keys, but
extra keys not allowed): a key the release removed, such as `object_id` once it goes, fails by name. And each
component must name its entity id with `default_entity_id`, which 2026.4 and later need.

Prints `ok …` / `FAIL …` and exits 1 when a payload fails, 2 when it could not run. Run by run.sh with the venv's
Python (it uses ha_stack.py, so paho-mqtt).
"""

import argparse
import asyncio
import copy
import glob
import importlib
import json
import os
import shutil
import subprocess
import sys
import threading

import legacy_discovery
from ha_stack import PANS, SCALE_ID, Stack, wait_until

ALERT = '\n[[alert]]\nname = "fruit-low"\nsensor = "left"\nbelow = 100\n'


def newest_wheel(cache, offline):
    """The newest homeassistant wheel in cache/wheels, after asking pip for the newest on the index."""
    wheels = os.path.join(cache, "wheels")
    os.makedirs(wheels, exist_ok=True)
    if not offline:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                               "homeassistant", "--no-deps", "--python-version", "3.14", "--only-binary=:all:",
                               "-d", wheels], capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            print(f"note: pip could not ask the index ({done.stderr.strip()[-300:]}); using the newest cached wheel")

    def version(path):
        return tuple(int(part) if part.isdigit() else 0
                     for part in os.path.basename(path).split("-")[1].split("."))
    found = sorted(glob.glob(os.path.join(wheels, "homeassistant-*.whl")), key=version)
    if not found:
        raise SystemExit(f"check_schema.py: no homeassistant wheel in {wheels}, and pip could not download one")
    return found[-1]


class Release:
    """The MQTT discovery of one Home Assistant release, imported from its wheel."""

    def __init__(self, wheel):
        sys.path.insert(0, wheel)
        for name in [n for n in sys.modules if n == "homeassistant" or n.startswith("homeassistant.")]:
            del sys.modules[name]
        self.const = importlib.import_module("homeassistant.const")
        self.discovery = importlib.import_module("homeassistant.components.mqtt.discovery")
        self.schemas = importlib.import_module("homeassistant.components.mqtt.schemas")
        self.version = self.const.__version__
        where = os.path.dirname(self.const.__file__)
        if not where.startswith(wheel):
            raise SystemExit(f"check_schema.py: homeassistant.const came from {where}, not from {wheel}")

    def platform(self, name):
        return importlib.import_module(f"homeassistant.components.mqtt.{name}")

    async def check_all(self, messages, config_dir):
        """(topic, payload, problems) for each message. Inside an event loop with a HomeAssistant object, as in
        Home Assistant: its template validator refuses to run anywhere else (a bare template needs no more)."""
        core = importlib.import_module("homeassistant.core")
        hass = core.HomeAssistant(config_dir)
        try:
            return [(topic, payload, self.check(topic, payload)) for topic, payload in messages]
        finally:
            hass.import_executor.shutdown(wait=False)

    def check(self, topic, payload):
        """The problems Home Assistant would have with `payload` on `topic`: a list of sentences, empty if none."""
        d = self.discovery
        prefix = "homeassistant/"
        match = d.TOPIC_MATCHER.match(topic[len(prefix):]) if topic.startswith(prefix) else None
        if not match:
            return [f"not a discovery topic Home Assistant {self.version} reads"]
        component = match.group("component")
        if not payload:
            return []  # an empty retained message: removal, nothing to validate
        try:
            data = json.loads(payload)
        except ValueError as error:
            return [f"not JSON: {error}"]
        if "migrate_discovery" in data or "migr_discvry" in data:
            return self.invalid(d.MIGRATE_DISCOVERY_SCHEMA, data, "migrate_discovery")
        if component != "device":
            return [f"a per-entity config on {topic}: the bridge publishes device configs only"]
        data = d.MQTTDiscoveryPayload(data)
        d._replace_all_abbreviations(data)
        problems = self.invalid(self.schemas.DEVICE_DISCOVERY_SCHEMA, copy.deepcopy(dict(data)), "device config")
        for key, config in (data.get("components") or {}).items():
            config = d.MQTTDiscoveryPayload(config)
            platform = config.pop("platform", None)
            if not config:
                continue  # the platform alone: a removal
            config["device"], config["origin"] = data["device"], data.get("origin")
            d._merge_common_device_options(config, data)
            module = self.platform(platform)
            problems += self.invalid(module.DISCOVERY_SCHEMA, copy.deepcopy(dict(config)), f"{key} ({platform})")
            problems += self.invalid(module.PLATFORM_SCHEMA_MODERN, copy.deepcopy(dict(config)), f"{key} ({platform})")
            if not str(config.get("default_entity_id", "")).startswith(f"{platform}."):
                problems.append(f"{key} ({platform}): no default_entity_id '{platform}.<object id>' (needed from "
                                f"2026.4 on; got {config.get('default_entity_id')!r})")
        return sorted(set(problems))

    def invalid(self, schema, data, what):
        import voluptuous as vol
        try:
            schema(data)
        except vol.Invalid as error:
            errors = error.errors if isinstance(error, vol.MultipleInvalid) else [error]
            return [self.sentence(what, e) for e in errors]
        return []

    def sentence(self, what, error):
        where = ".".join(map(str, error.path)) or "the top"
        if error.msg == "extra keys not allowed":
            return f"{what}: key '{where}' is unknown to Home Assistant {self.version} (removed, or never there)"
        return f"{what}: {error.msg} at {where}"


def capture(stack, seconds):
    """Everything the bridge publishes under homeassistant/ while it migrates an install and while a pan leaves:
    (topic, payload) in order. Retained messages the broker replays at subscription are the old release's, not
    the bridge's, and are left out (a live message reaches a subscriber without the retain flag)."""
    import paho.mqtt.client as mqtt
    messages, lock = [], threading.Lock()

    def on_message(_client, _userdata, message):
        if not message.retain:
            with lock:
                messages.append((message.topic, message.payload))

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="plumscale-schema-check")
    client.on_message = on_message
    client.connect("127.0.0.1", stack.broker_port)
    client.loop_start()
    device_topic = f"homeassistant/device/plumscale_{SCALE_ID}/config"

    def components():
        with lock:
            return [set(json.loads(p).get("cmps", {})) for t, p in messages if t == device_topic and p]
    subscribed = threading.Event()
    client.on_subscribe = lambda *_: subscribed.set()
    try:
        # The old configs first, so that they come back to the subscription retained, and are told apart.
        stack.publish_retained(legacy_discovery.configs(SCALE_ID, list(PANS)))
        client.subscribe("homeassistant/#", qos=1)
        wait_until("the subscription to homeassistant/#", subscribed.is_set, seconds)
        stack.start_daemon(ALERT)
        stack.start_bridge()
        wait_until("the device config with both pans, the alert, items and sessions",
                   lambda: any({"left_weight", "right_weight", "alert_fruit-low", "left_item", "left_session_start",
                                "session_count", "session_stop"} <= c for c in components()), seconds)
        wait_until("the old per-entity topics emptied",
                   lambda: not stack.retained(f"homeassistant/+/plumscale_{SCALE_ID}/+/config"), seconds)
        # The daemon again without the right pan: the bridge removes its entities, then leaves them out.
        stack.kill("plumscaled")
        stack.start_daemon(ALERT, pans=("left",))
        wait_until("a device config without the right pan",
                   lambda: components() and "left_weight" in components()[-1]
                   and not any(c.startswith("right_") for c in components()[-1]), seconds)
    finally:
        client.disconnect()
        client.loop_stop()
    with lock:
        return list(messages)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the folder with plumscaled, plumscale and plumscale-mqtt")
    parser.add_argument("--cache", required=True, help="where wheels are kept, such as .build/home-assistant-schema")
    parser.add_argument("--offline", action="store_true", help="do not ask the index: the newest cached wheel")
    parser.add_argument("--deadline", type=float, default=60, help="seconds each wait may take")
    args = parser.parse_args()
    release = Release(os.path.abspath(newest_wheel(args.cache, args.offline)))
    print(f"Home Assistant {release.version}: MQTT discovery schemas from {os.path.basename(sys.path[0])}")
    stack = Stack(args.bin)
    failures = 0
    try:
        stack.start_broker()
        messages = capture(stack, args.deadline)
    except Exception as error:  # the run, not a payload: nothing was checked
        print(f"check_schema.py: could not capture the bridge's discovery: {error}")
        for name in ("plumscale-mqtt", "plumscaled"):
            print(f"--- tail of {name} output\n{stack.tail(name)}")
        return 2
    finally:
        stack.stop_all()
    counted = {}
    for topic, payload, problems in asyncio.run(release.check_all(messages, stack.dir)):
        kind = ("empty" if not payload else "migrate_discovery" if b"migrate_discovery" in payload
                else "device config")
        counted[kind] = counted.get(kind, 0) + 1
        if kind == "device config":
            removals = sum(1 for c in json.loads(payload).get("cmps", {}).values() if set(c) == {"p"})
            counted["removed component"] = counted.get("removed component", 0) + removals
        if problems:
            failures += 1
            print(f"FAIL {topic} ({kind}): " + "; ".join(problems))
            print(f"  payload: {payload.decode(errors='replace')[:2000]}")
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counted.items()))
    if not all(counted.get(kind) for kind in ("device config", "migrate_discovery", "removed component")):
        print(f"FAIL the bridge published no device config, migrate_discovery or removal ({summary or 'nothing'})")
        failures += 1
    if failures:
        print(f"{failures} of {len(messages)} payloads fail Home Assistant {release.version}'s schemas ({summary})")
        print(f"logs kept in {stack.dir}")
        return 1
    shutil.rmtree(stack.dir, ignore_errors=True)
    print(f"ok every one of the {len(messages)} discovery payloads the bridge published passes Home Assistant "
          f"{release.version}'s MQTT discovery schemas ({summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
