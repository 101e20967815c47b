#!/usr/bin/env python3
"""plumscale-mqtt against a real Home Assistant core: discovery, states, presses, migration, availability.

Starts the stack of ha_stack.py (mosquitto, plumscaled with two simulated pans, the bridge of scale `ci`, `hass`),
with the per-entity discovery configs of the release before device-based discovery already retained on the broker
for a second scale, `old` (legacy_discovery.py), as an install that upgrades has them. Onboards Home Assistant and
sets up its MQTT integration through the REST API, as a user would through the frontend, then runs the checks below
in order. Prints `ok NAME` or `FAIL NAME: why` per check and exits 1 when one failed. Run by run.sh, with the
Python of the venv that holds Home Assistant.

A check is one function under `@check("what it proves")`, run in the order of this file; it raises (an
AssertionError, a Timeout) to fail. A new one goes where its state is right: for example the settings checks come after the
migration (a named tare in the daemon's library gives every bridge on it a select entity, which the migration's
count of registry entries would not expect) and before the kills.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import legacy_discovery
from ha_stack import PANS, SCALE_ID, Stack, Timeout, number, wait_until

OLD_SCALE = "old"  # the scale whose per-entity configs Home Assistant finds first, then migrated
# Every entity the bridge announces per pan, as `platform.plumscale_<id>_<pan>_<entity>` (docs/home-assistant.md).
PAN_ENTITIES = ("sensor.{}_weight", "sensor.{}_force", "sensor.{}_flow", "binary_sensor.{}_stable",
                "binary_sensor.{}_overload", "button.{}_tare", "button.{}_zero", "event.{}_action",
                "sensor.{}_last_action", "number.{}_preset_tare", "event.{}_item", "button.{}_session_start")
# A pan's diagnostics follow the bridge and its daemon, not the pan's sensor: they show its fault.
DIAGNOSTIC_ENTITIES = ("sensor.{}_sensor_state", "sensor.{}_last_fault", "sensor.{}_calibration_date",
                       "sensor.{}_calibration_grade", "sensor.{}_late_readouts", "sensor.{}_discards")


def pan_ids(pan, scale_id=SCALE_ID):
    return [pattern.format(f"plumscale_{scale_id}_{pan}") for pattern in PAN_ENTITIES]


def diagnostic_ids(pan, scale_id=SCALE_ID):
    return [pattern.format(f"plumscale_{scale_id}_{pan}") for pattern in DIAGNOSTIC_ENTITIES]


def all_ids(scale_id=SCALE_ID):
    return ([entity for pan in PANS for entity in pan_ids(pan, scale_id) + diagnostic_ids(pan, scale_id)]
            + [f"sensor.plumscale_{scale_id}_heaviest", f"sensor.plumscale_{scale_id}_daemon_started"]
            + [f"{platform}.plumscale_{scale_id}_{entity}" for platform, entity in SESSION_ENTITIES])


# The scale's session entities (docs/items.md, "In Home Assistant"): a daemon of protocol 1.5 has sessions.
SESSION_ENTITIES = (("sensor", "session"), ("binary_sensor", "session_running"), ("sensor", "session_count"),
                    ("sensor", "session_total"), ("sensor", "session_mean"), ("button", "session_stop"))


ALL_IDS = all_ids()
CHECKS = []


def check(name):
    """Adds the function to CHECKS under `name`; it is called as f(stack, seconds)."""
    def add(function):
        CHECKS.append((name, function))
        return function
    return add


def settle(what, problems, seconds):
    """Waits until `problems()` returns an empty list; on the deadline, fails with the last problems it named."""
    last = ["not looked at"]

    def none():
        nonlocal last
        last = problems()
        return not last
    try:
        wait_until(what, none, seconds)
    except Timeout:
        raise AssertionError(f"{what}: still {len(last)} problems after {seconds:.0f} s, first: "
                             + "; ".join(map(str, last[:3]))) from None


# States and events

def numbers_near_loads(stack, scale_id=SCALE_ID):
    """Weight, force and flow of each pan are numbers, each weight within 1 g of the net load the daemon should
    show (`stack.net`: the load, until a tare takes it off)."""
    states = stack.states(scale_id)
    for pan, grams in stack.net.items():
        prefix = f"sensor.plumscale_{scale_id}_{pan}"
        values = [number(states.get(prefix + suffix, {}).get("state")) for suffix in ("_weight", "_force", "_flow")]
        if None in values or abs(values[0] - grams) > 1.0:
            return False
    return True


def unavailable(stack, ids):
    states = stack.states()
    return all(states.get(entity, {}).get("state") == "unavailable" for entity in ids)


def available(stack, ids, scale_id=SCALE_ID):
    """Present and not unavailable: a button or an event never pressed or fired is rightly `unknown`."""
    states = stack.states(scale_id)
    return all(entity in states and states[entity]["state"] != "unavailable" for entity in ids)


def press_and_event(stack, pan, button, event_type, seconds):
    """Presses `button` of `pan` and waits for the pan's event entity to fire `event_type` (a new event: its
    state, the time it fired, changes); returns the event's attributes."""
    entity = f"event.plumscale_{SCALE_ID}_{pan}_action"
    before = stack.states().get(entity, {}).get("state")
    stack.press(f"button.plumscale_{SCALE_ID}_{pan}_{button}")

    def fired():
        state = stack.states()[entity]
        return state["state"] != before and state["attributes"].get("event_type") == event_type and state
    return wait_until(f"{entity} firing {event_type}", fired, seconds)["attributes"]


# The checks, in order

@check("the device appears with its entities")
def entities(stack, seconds):
    def complete():
        states = stack.states()
        return all(entity in states for entity in ALL_IDS) and states
    states = wait_until("entity ids " + ", ".join(ALL_IDS), complete, seconds)
    for pan in PANS:
        attributes = states[f"sensor.plumscale_{SCALE_ID}_{pan}_weight"]["attributes"]
        if (attributes.get("device_class"), attributes.get("unit_of_measurement")) != ("weight", "g"):
            raise AssertionError(f"{pan} weight: device class and unit {attributes.get('device_class')!r}, "
                                 f"{attributes.get('unit_of_measurement')!r}, expected 'weight', 'g'")


@check("the numeric states are numbers")
def numbers(stack, seconds):
    wait_until("numeric weight, force and flow on both pans, each weight within 1 g of its load",
               lambda: numbers_near_loads(stack), seconds)


@check("the tare button tares the daemon and fires tare_done")
def tare(stack, seconds):
    prefix = f"plumscale_{SCALE_ID}_left"
    wait_until("the left pan stable", lambda: stack.states()[f"binary_sensor.{prefix}_stable"]["state"] == "on",
               seconds)
    press_and_event(stack, "left", "tare", "tare_done", seconds)
    reading = wait_until("the daemon's tare", lambda: (r := stack.daemon_reading("left"))["tare"] > 100 and r, seconds)
    if abs(reading["grams"]) > 0.5 or abs(reading["tare"] - PANS["left"]) > 1.0:
        raise AssertionError(f"the daemon reads {reading['grams']} g with tare {reading['tare']} g after the press")
    stack.net["left"] = 0.0  # every client of the daemon, the other bridge too, now sees it net of the tare
    wait_until("the weight sensor near 0 g",
               lambda: (w := number(stack.states()[f"sensor.{prefix}_weight"]["state"])) is not None
               and abs(w) <= 0.5, seconds)


@check("the zero button on a loaded pan fires zero_refused with its reason")
def zero_refused(stack, seconds):
    # 152.3 g on the left pan is far outside the zero range (±2 % of 1 kg): the daemon refuses.
    event = press_and_event(stack, "left", "zero", "zero_refused", seconds)
    if event.get("reason") != "outsideZeroRange" or not str(event.get("message", "")).startswith("zero refused"):
        raise AssertionError(f"zero_refused with reason {event.get('reason')!r}, message {event.get('message')!r};"
                             " expected outsideZeroRange and the daemon's 'zero refused: …'")


@check("tare on an overloaded pan fires tare_refused with the reason, and the overload sensor says so")
def tare_refused(stack, seconds):
    overload = f"binary_sensor.plumscale_{SCALE_ID}_right_overload"
    stack.set_load("right", 1500)  # past the 1 kg cell's capacity
    try:
        wait_until("the right pan's overload sensor on", lambda: stack.states()[overload]["state"] == "on", seconds)
        event = press_and_event(stack, "right", "tare", "tare_refused", seconds)
        if event.get("reason") != "overload" or "overloaded" not in str(event.get("message", "")):
            raise AssertionError(f"tare_refused with reason {event.get('reason')!r}, message {event.get('message')!r};"
                                 " expected overload and the daemon's 'tare refused: the scale is overloaded …'")
        last_action = f"sensor.plumscale_{SCALE_ID}_right_last_action"
        wait_until(f"{last_action} saying 'tare refused: …'",
                   lambda: stack.states()[last_action]["state"].startswith("tare refused"), seconds)
    finally:
        stack.set_load("right", PANS["right"])
    wait_until("the right pan back: overload off, its weight near 30 g",
               lambda: stack.states()[overload]["state"] == "off" and numbers_near_loads(stack), seconds)


@check("per-entity configs of the previous release: Home Assistant registered each entity under its id")
def legacy_registered(stack, seconds):
    expected = legacy_discovery.entity_ids(OLD_SCALE, list(PANS))

    def problems():
        found = {entry["unique_id"]: entry["entity_id"] for entry in stack.entity_registry(OLD_SCALE)}
        return [f"{unique_id}: {found.get(unique_id)!r}, expected {entity_id!r}"
                for unique_id, entity_id in expected.items() if found.get(unique_id) != entity_id]
    settle(f"the {len(expected)} entities of the old configs in the entity registry", problems, seconds)


@check("the bridge migrates them: every entity id and unique id kept, none doubled, one device, old topics empty")
def migration(stack, seconds):
    expected = legacy_discovery.entity_ids(OLD_SCALE, list(PANS))
    new = set(all_ids(OLD_SCALE)) - set(expected.values())  # the diagnostics, which that release did not have
    stack.start_bridge(OLD_SCALE)

    def problems():
        entries = stack.entity_registry(OLD_SCALE)
        found = {}
        for entry in entries:
            found.setdefault(entry["unique_id"], []).append(entry["entity_id"])
        result = [f"{unique_id} registered {len(ids)} times: {ids}" for unique_id, ids in found.items() if len(ids) > 1]
        result += [f"{unique_id}: {found.get(unique_id)}, expected [{entity_id!r}]"
                   for unique_id, entity_id in expected.items() if found.get(unique_id) != [entity_id]]
        result += [f"no new entity {entity_id}" for entity_id in new
                   if entity_id not in {e["entity_id"] for e in entries}]
        if len({entry["device_id"] for entry in entries}) != 1:
            result.append(f"the entities are on {len({entry['device_id'] for entry in entries})} devices, not one")
        if len(entries) != len(expected) + len(new):
            result.append(f"{len(entries)} registry entries, expected {len(expected) + len(new)}")
        retained = stack.retained(f"homeassistant/+/plumscale_{OLD_SCALE}/#")
        result += [f"{topic} still retained" for topic, payload in retained.items()
                   if payload and topic != f"homeassistant/device/plumscale_{OLD_SCALE}/config"]
        if not retained.get(f"homeassistant/device/plumscale_{OLD_SCALE}/config"):
            result.append("no retained device config")
        return result
    settle("the migrated registry", problems, seconds)
    started = [line for line in stack.log_lines() if "Migration to MQTT device discovery schema started" in line
               and f"plumscale_{OLD_SCALE} " in line]
    if len(started) != len(expected):
        raise AssertionError(f"Home Assistant logged {len(started)} migrations of plumscale_{OLD_SCALE} entities, "
                             f"expected one for each of the {len(expected)} old configs")


@check("after the migration the old scale's states flow: available, weights near the loads")
def migrated_states(stack, seconds):
    ids = all_ids(OLD_SCALE)
    wait_until("the migrated entities available with numbers",
               lambda: available(stack, ids, OLD_SCALE) and numbers_near_loads(stack, OLD_SCALE), seconds)


def check_quiet_log(stack):
    """Home Assistant logs a discovery payload it cannot read, or a state it cannot parse, as a warning of
    its MQTT integration and carries on: without this check such an entity would only be missing. One warning is
    expected and allowed: after a migration, the emptied per-entity topic of an entity that now comes from the
    device config is "a conflicting MQTT discovery message" (docs/home-assistant.md, Migrating)."""
    complaints = [line.strip() for line in stack.log_lines()
                  if (" WARNING " in line or " ERROR " in line) and "[homeassistant.components.mqtt" in line
                  and not (" WARNING " in line and "Received a conflicting MQTT discovery message" in line
                           and "was received on topic homeassistant/" in line and f"/plumscale_{OLD_SCALE}/" in line)]
    if complaints:
        raise AssertionError(f"{len(complaints)} warnings or errors from the MQTT integration, first: {complaints[0]}")


@check("Home Assistant's MQTT integration logged no discovery error after the migration")
def quiet_after_migration(stack, seconds):
    check_quiet_log(stack)


@check("a screenshot of the device page in Home Assistant's frontend")
def screenshot(stack, seconds):
    if not stack.screenshot:
        print("  (skipped: no --screenshot)")
        return
    device = stack.device_id()
    if device is None:
        raise AssertionError(f"no device plumscale_{SCALE_ID} in the device registry")
    tokens = os.path.join(stack.dir, "tokens.json")
    with open(tokens, "w") as f:
        json.dump({**stack.tokens, "hassUrl": stack.url, "clientId": stack.client_id}, f)
    here = os.path.dirname(os.path.abspath(__file__))
    command = [stack.screenshot_python, os.path.join(here, "ha_screenshot.py"), "--url", stack.url, "--tokens", tokens,
               "--device", device, "--name", f"PlumScale {SCALE_ID}", "--out", stack.screenshot]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds * 3)
    if done.returncode != 0:
        raise AssertionError(f"ha_screenshot.py exited {done.returncode}: {(done.stdout + done.stderr).strip()[-800:]}")
    print("  " + done.stdout.strip().replace("\n", "\n  "))


def set_and_read_back(stack, entity, value, tare, seconds):
    """Waits until the daemon's tare on the right pan is `tare` and `entity` shows it back: the state of a setting
    is what the daemon uses, not what was asked (docs/home-assistant.md, Settings from Home Assistant)."""
    reading = wait_until(f"the daemon's tare on the right pan {tare} g",
                         lambda: (r := stack.daemon_reading("right")) and abs(r["tare"] - tare) <= 0.05 and r, seconds)
    if abs(reading["grams"] - (PANS["right"] - tare)) > 1.0:
        raise AssertionError(f"the daemon reads {reading['grams']} g net with a tare of {tare} g on {PANS['right']} g")
    stack.net["right"] = PANS["right"] - tare

    def shown():
        state = stack.states()[entity]["state"]
        if isinstance(value, float):
            return number(state) is not None and abs(number(state) - value) <= 0.05
        return state == value
    wait_until(f"{entity} showing {value!r} and the weight near {PANS['right'] - tare} g",
               lambda: shown() and numbers_near_loads(stack), seconds)


@check("the preset tare number set in Home Assistant reaches the daemon, and shows the daemon's value back")
def preset_tare_number(stack, seconds):
    entity = f"number.plumscale_{SCALE_ID}_right_preset_tare"
    wait_until(f"{entity} available", lambda: available(stack, [entity]), seconds)
    stack.call("number", "set_value", {"entity_id": entity, "value": 12.5})
    set_and_read_back(stack, entity, 12.5, 12.5, seconds)
    stack.call("number", "set_value", {"entity_id": entity, "value": 0})
    set_and_read_back(stack, entity, 0.0, 0.0, seconds)


@check("a named tare saved with the CLI appears in Home Assistant's select, and choosing it tares the daemon")
def named_tare_select(stack, seconds):
    entity = f"select.plumscale_{SCALE_ID}_right_named_tare"
    saved = subprocess.run([os.path.join(stack.bin, "plumscale"), "tare", "--socket", stack.socket, "--save", "cup",
                            "--grams", "7.5"], capture_output=True, text=True, timeout=30)
    if saved.returncode != 0:
        raise AssertionError(f"plumscale tare --save cup --grams 7.5 exited {saved.returncode}: {saved.stderr.strip()}")
    # Offering 'cup' is not enough: the select is new here (it comes with the first named tare), and Home Assistant
    # shows a new MQTT entity's options (a capability attribute) while the entity is still unavailable, until its
    # subscription to the availability topics brings their retained "online". Subscriptions are debounced: 0.5 s
    # until Home Assistant's birth message (sent once discovery was quiet for 5 s), 0.1 s after it. A service call
    # on an unavailable entity is skipped without an error (homeassistant/helpers/service.py), so nothing reaches
    # the bridge. Seen in a failing run with the broker's log_type all and MQTT debug logging: select_option 0.45 s
    # after HA registered the select, its state "unavailable" with options ['(none)', 'cup'], no PUBLISH on its
    # command topic at the broker, the retained "online" delivered 0.05 s later; the bridge's device configs before
    # and after the TARES change kept every component. A user cannot pick it meanwhile either: it shows unavailable.
    def offered():
        state = stack.states().get(entity, {})
        return state.get("state") != "unavailable" and "cup" in state.get("attributes", {}).get("options", [])
    wait_until(f"{entity} available and offering 'cup'", offered, seconds)
    stack.call("select", "select_option", {"entity_id": entity, "option": "cup"})
    set_and_read_back(stack, entity, "cup", 7.5, seconds)
    # "(none)", not "none": Home Assistant's MQTT select reads the payload "none" as no option at all.
    stack.call("select", "select_option", {"entity_id": entity, "option": "(none)"})
    set_and_read_back(stack, entity, "(none)", 0.0, seconds)


@check("a plum on the right pan fires its item event with grams and gross; a session from its button counts it")
def item_and_session(stack, seconds):
    prefix = f"plumscale_{SCALE_ID}"
    item, count = f"event.{prefix}_right_item", f"sensor.{prefix}_session_count"
    running = f"binary_sensor.{prefix}_session_running"
    stack.press(f"button.{prefix}_right_session_start")
    wait_until(f"{running} on and {count} at 0",
               lambda: stack.states()[running]["state"] == "on" and stack.states()[count]["state"] == "0", seconds)
    before = stack.states()[item]["state"]
    plum = 47.5
    stack.set_load("right", PANS["right"] + plum)
    try:
        def fired():
            state = stack.states()[item]
            return state["state"] != before and state["attributes"].get("event_type") == "placed" and state
        attributes = wait_until(f"{item} firing placed", fired, seconds)["attributes"]
        grams, gross = number(attributes.get("grams")), number(attributes.get("gross_after"))
        if grams is None or abs(grams - plum) > 0.1 or gross is None or abs(gross - PANS["right"] - plum) > 1.0:
            raise AssertionError(f"{item}: grams {attributes.get('grams')!r}, gross_after "
                                 f"{attributes.get('gross_after')!r}; expected {plum} g (within 1 d) on "
                                 f"{PANS['right']} g")
        if not isinstance(attributes.get("seq"), int) or "weight_class" not in attributes or "flags" not in attributes:
            raise AssertionError(f"{item}: attributes {attributes}; expected seq, weight_class and flags")
        wait_until(f"{count} at 1", lambda: stack.states()[count]["state"] == "1", seconds)
        total = number(stack.states()[f"sensor.{prefix}_session_total"]["state"])
        if total is None or abs(total - grams) > 1e-6:
            raise AssertionError(f"the session total is {total}, expected the item's {grams} g")
    finally:
        stack.set_load("right", PANS["right"])
        stack.press(f"button.{prefix}_session_stop")
    wait_until(f"{running} off, the right pan back near {PANS['right']} g",
               lambda: stack.states()[running]["state"] == "off" and numbers_near_loads(stack), seconds)


@check("plumscale-mqtt killed: its entities unavailable")
def bridge_killed(stack, seconds):
    stack.kill("plumscale-mqtt")
    wait_until(f"{len(ALL_IDS)} entities unavailable", lambda: unavailable(stack, ALL_IDS), seconds)


@check("plumscale-mqtt restarted: available again")
def bridge_back(stack, seconds):
    stack.start_bridge()
    wait_until(f"{len(ALL_IDS)} entities available", lambda: available(stack, ALL_IDS), seconds)


@check("left pan's wire pulled: left unavailable, right still available")
def wire_pulled(stack, seconds):
    open(os.path.join(stack.dir, "left.unplugged"), "w").close()
    left = pan_ids("left")
    wait_until(f"{len(left)} entities unavailable", lambda: unavailable(stack, left), seconds)
    if not available(stack, [f"sensor.plumscale_{SCALE_ID}_right_weight"]):
        raise AssertionError("the right pan went unavailable with the left")


@check("left pan's wire back: left available again")
def wire_back(stack, seconds):
    os.unlink(os.path.join(stack.dir, "left.unplugged"))
    wait_until("the left pan's entities available", lambda: available(stack, pan_ids("left")), seconds)


@check("plumscaled killed: the entities unavailable")
def daemon_killed(stack, seconds):
    stack.kill("plumscaled")
    wait_until(f"{len(ALL_IDS)} entities unavailable", lambda: unavailable(stack, ALL_IDS), seconds)


@check("plumscaled restarted: available again")
def daemon_back(stack, seconds):
    stack.start_daemon()
    wait_until(f"{len(ALL_IDS)} entities available", lambda: available(stack, ALL_IDS), seconds)


@check("no entity of the scale was removed through the restarts of the bridge and the daemon")
def nothing_removed(stack, seconds):
    # Home Assistant removes a component a device config leaves out: a restarted bridge whose first config lacked
    # the settings entities (built from the daemon's capacities and named tares) removed them at every start and
    # added them back. Checked last, so that every restart's configs have long been taken in.
    removed = [line.strip() for line in stack.log_lines()
               if "Removing component:" in line and f"plumscale_{SCALE_ID}_" in line]
    if removed:
        raise AssertionError(f"Home Assistant removed {len(removed)} entities of the scale, first: {removed[0]}")


@check("Home Assistant's MQTT integration logged no warning or error")
def quiet_log(stack, seconds):
    check_quiet_log(stack)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the folder with plumscaled, plumscale and plumscale-mqtt")
    parser.add_argument("--hass", required=True, help="the hass executable")
    parser.add_argument("--deadline", type=float, default=60, help="seconds each wait may take")
    parser.add_argument("--startup", type=float, default=300, help="seconds Home Assistant may take to start")
    parser.add_argument("--screenshot", help="where to write the PNG of the device page (none: no screenshot)")
    parser.add_argument("--screenshot-python", default=shutil.which("python3") or "/usr/bin/python3",
                        help="a Python with selenium, for the screenshot (default: python3 on PATH)")
    parser.add_argument("--only", action="append", default=[],
                        help="run only the checks whose name holds this text (and the first), for working on one")
    args = parser.parse_args()

    def interrupted(*_):
        print("interrupted: stopping every child", flush=True)
        sys.exit(143)
    signal.signal(signal.SIGTERM, interrupted)
    stack = Stack(args.bin, args.hass, args.startup)
    stack.screenshot, stack.screenshot_python = args.screenshot, args.screenshot_python
    stack.net = dict(PANS)
    failures = []

    def run(name, action):
        started = time.monotonic()
        try:
            action()
        except Exception as error:  # every failure, of any kind, is reported and counted: the run goes on
            failures.append(name)
            print(f"FAIL {name}: {error}", flush=True)
            return False
        print(f"ok {name} ({time.monotonic() - started:.1f} s)", flush=True)
        return True

    try:
        old_configs = legacy_discovery.configs(OLD_SCALE, list(PANS))
        up = run("start the broker (the old per-entity configs retained), plumscaled, plumscale-mqtt, Home Assistant",
                 lambda: (stack.start_broker(), stack.publish_retained(old_configs), stack.start_daemon(),
                          stack.start_bridge(), stack.start_hass()))
        up = up and run("onboard Home Assistant (owner, token)", stack.onboard)
        up = up and run("add the MQTT integration through its config flow", stack.add_mqtt)
        chosen = [(name, function) for index, (name, function) in enumerate(CHECKS)
                  if index == 0 or not args.only or any(text in name for text in args.only)]
        for index, (name, function) in enumerate(chosen if up else []):
            if not run(name, lambda: function(stack, args.deadline)) and index == 0:
                break  # without the device no other check can tell anything
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
