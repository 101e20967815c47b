"""The per-entity discovery configs the last release before device-based discovery published.

plumscale-mqtt no longer publishes these: since commit ae2b154 it sends one device config and migrates an install
from these. To test that migration against a real Home Assistant, the old configs must be on the broker first, byte
for byte as the old bridge retained them. This module rebuilds them from the old code (git show
ae2b154^:Sources/PlumHomeAssistant/HomeAssistantDiscovery.swift, DiscoveryPayload.swift, BridgeTopics.swift,
PanEvent.swift): one retained config per entity on homeassistant/<platform>/plumscale_<id>/<object id>/config, JSON
with sorted keys and no spaces (JSONEncoder's .sortedKeys, .withoutEscapingSlashes), nil fields left out.

That release had the heaviest pan and nine entities per pan; the diagnostic entities (sensor state, last fault,
calibration, discards) and `daemon started` came later, so a migrated install gets them as new entities.
Standard library only.
"""

import json
import re

# PanEntity in the old HomeAssistantDiscovery: raw value (the object id's suffix), platform, name.
PAN_ENTITIES = (("weight", "sensor", "weight"), ("stable", "binary_sensor", "stable"),
                ("overload", "binary_sensor", "overload"), ("force", "sensor", "force"), ("flow", "sensor", "flow"),
                ("tare", "button", "tare"), ("zero", "button", "zero"), ("action", "event", "action"),
                ("last_action", "sensor", "last action"))
EVENT_TYPES = ["tare_done", "tare_refused", "zero_done", "zero_refused", "button_short", "button_long"]


def level(name):
    """ScaleIdentity.level: anything but ASCII letters, digits, `_` and `-` becomes `_`."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)


def availability(topic):
    return {"payload_available": "online", "payload_not_available": "offline", "topic": topic}


def configs(scale_id, pans, version="0.1.0", decimals=1, qos=1, prefix="plumscale", discovery="homeassistant"):
    """Every (topic, payload bytes) the old bridge retained for `pans`, the heaviest pan first, as it sent them.

    `version` is the bridge's release (the device's and the origin's sw_version), `decimals` the display precision
    of the weight (1 for a 0.1 g division); the device has no hw_version or serial number, as on a machine without
    /proc/device-tree (these tests run on x86)."""
    node = f"plumscale_{scale_id}"
    base_topic = f"{prefix}/{scale_id}"
    shared = [availability(f"{base_topic}/status"), availability(f"{base_topic}/daemon")]
    device = {"identifiers": [node], "manufacturer": "PlumScale", "model": "Raspberry Pi scale",
              "name": f"PlumScale {scale_id}", "sw_version": version}

    def base(name, object_id, platform, extra_availability=()):
        return {"name": name, "unique_id": f"{node}_{object_id}", "object_id": f"{node}_{object_id}",
                "default_entity_id": f"{platform}.{node}_{object_id}",
                "availability": shared + list(extra_availability), "availability_mode": "all",
                "device": device, "origin": {"name": "plumscale-mqtt", "sw_version": version}, "qos": qos}

    def topic(platform, object_id):
        return f"{discovery}/{platform}/{node}/{object_id}/config"

    heaviest = base("heaviest pan", "heaviest", "sensor")
    heaviest.update(state_topic=f"{base_topic}/heaviest", icon="mdi:weight")
    result = [(topic("sensor", "heaviest"), heaviest)]
    for pan in pans:
        pan_topic = f"{base_topic}/{level(pan)}"
        for entity, platform, name in PAN_ENTITIES:
            object_id = f"{level(pan)}_{entity}"
            payload = base(f"{pan} {name}", object_id, platform, [availability(f"{pan_topic}/availability")])
            if entity == "weight":
                payload.update(state_topic=f"{pan_topic}/state", value_template="{{ value_json.grams }}",
                               device_class="weight", unit_of_measurement="g", state_class="measurement",
                               suggested_display_precision=decimals)
            elif entity == "force":
                payload.update(state_topic=f"{pan_topic}/state", value_template="{{ value_json.percent }}",
                               unit_of_measurement="%", state_class="measurement", suggested_display_precision=0,
                               icon="mdi:gauge")
            elif entity == "flow":
                payload.update(state_topic=f"{pan_topic}/live", value_template="{{ value_json.flow }}",
                               unit_of_measurement="g/s", state_class="measurement", suggested_display_precision=2,
                               icon="mdi:trending-up")
            elif entity in ("stable", "overload"):
                payload.update(state_topic=f"{pan_topic}/state",
                               value_template=f"{{{{ 'ON' if value_json.{entity} else 'OFF' }}}}",
                               payload_on="ON", payload_off="OFF")
                if entity == "overload":
                    payload.update(device_class="problem", entity_category="diagnostic")
                else:
                    payload.update(icon="mdi:scale-balance")
            elif entity in ("tare", "zero"):
                payload.update(command_topic=f"{pan_topic}/{entity}/set", payload_press="PRESS", retain=False,
                               icon="mdi:scale-balance" if entity == "tare" else "mdi:numeric-0-box-outline")
            elif entity == "action":
                payload.update(state_topic=f"{pan_topic}/event", event_types=EVENT_TYPES,
                               icon="mdi:gesture-tap-button")
            else:  # last_action
                payload.update(state_topic=f"{pan_topic}/last-action", entity_category="diagnostic",
                               icon="mdi:message-text-outline")
            result.append((topic(platform, object_id), payload))
    return [(t, json.dumps(p, sort_keys=True, separators=(",", ":")).encode()) for t, p in result]


def entity_ids(scale_id, pans):
    """The entity id each old config names (its default_entity_id), by unique id."""
    return {payload["unique_id"]: payload["default_entity_id"]
            for payload in (json.loads(data) for _, data in configs(scale_id, pans))}
