#!/usr/bin/env python3
"""What Home Assistant would show for a pan's weight entity, read off the VM's broker the way
Home Assistant reads it: the bridge's device discovery names the entity's state topic, its
value template and its availability topics; the entity shows the template's value while every
availability topic says "online". Waits until that is a stable GRAMS.

usage: ha_weight.py SCALE_ID PAN GRAMS [--deadline SECONDS] [--broker HOST:PORT]

Prints one JSON line: {"state": the last state payload read, "available": each availability
topic's last payload, "seconds": until the entity showed a stable GRAMS, "error": what failed}.
Exits 0 only when it did.
"""
import argparse, json, subprocess, sys, time


def retained(broker, topic, wait=10):
    """The retained message on topic (what a subscriber such as Home Assistant gets at once)."""
    host, port = broker.rsplit(":", 1)
    done = subprocess.run(["mosquitto_sub", "-h", host, "-p", port, "-t", topic, "-C", "1", "-W", str(wait)],
                          capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scale_id")
    parser.add_argument("pan")
    parser.add_argument("grams", type=float)
    parser.add_argument("--deadline", type=float, default=120)
    parser.add_argument("--broker", default="127.0.0.1:1883")
    args = parser.parse_args()
    started = time.monotonic()
    deadline = started + args.deadline
    result = {"state": None, "available": None, "seconds": None}
    discovery = None
    while time.monotonic() < deadline:
        if discovery is None:
            payload = retained(args.broker, f"homeassistant/device/plumscale_{args.scale_id}/config")
            discovery = json.loads(payload) if payload else None
            if discovery is None:
                time.sleep(0.5)
                continue
            entity = discovery["cmps"][f"{args.pan}_weight"]
            if entity.get("value_template") != "{{ value_json.grams }}" or entity.get("unit_of_measurement") != "g":
                result["error"] = f"the weight entity is not grams in g: {entity}"
                break
            topics = [a["topic"] for a in discovery.get("availability", []) + entity.get("availability", [])]
        result["state"] = retained(args.broker, entity["state_topic"])
        result["available"] = {topic: retained(args.broker, topic) for topic in topics}
        try:
            state = json.loads(result["state"] or "null")
        except ValueError:
            state = None
        online = all(value == "online" for value in result["available"].values())
        if online and state and state.get("stable") and abs(state.get("grams", 0) - args.grams) < 0.05:
            result["seconds"] = round(time.monotonic() - started, 1)
            break
        time.sleep(0.5)
    else:
        result["error"] = "deadline passed" if discovery else "no discovery config retained"
    print(json.dumps(result))
    return 0 if result["seconds"] is not None else 1


if __name__ == "__main__":
    sys.exit(main())
