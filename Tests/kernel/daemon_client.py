#!/usr/bin/env python3
"""Runs inside the test VM: talks to plumscaled over its socket while setting what the
emulated HX711 converts, and prints one JSON object with what happened, for check.py.

Calibration through the protocol: zero at code 50000, a known 100 g at code 250000
(2000 counts per gram), commit; then the chip converts 150000 and the pan must read 50.0 g.
Then the chip stops answering (DOUT held high) and comes back: the daemon must weigh it nowhere
meanwhile, and take no tare from its last reading.
"""
import json, socket, sys, time

path, params = sys.argv[1], sys.argv[2]
ZERO, PER_GRAM = 50000, 2000
result = {"steps": []}


def set_code(code):
    with open(f"{params}/code_a128", "w") as f:
        f.write(str(code))


def connect():
    for _ in range(600):
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            return s
        except OSError:
            time.sleep(0.1)
    raise SystemExit(json.dumps({"error": f"no socket at {path}"}))


sock = connect()
sock.settimeout(60)
f = sock.makefile("rw")
result["greeting"] = json.loads(f.readline())


def request(line, wanted, record=True):
    """The reply of class `wanted` to `line`, past any WEIGHT reports of a watch; `record`
    keeps it among the calibration steps check.py counts."""
    f.write(line + "\n")
    f.flush()
    while True:
        reply = json.loads(f.readline())
        if reply.get("class") in (wanted, "ERROR"):
            if record:
                result["steps"].append(reply)
            return reply


request('?CALIBRATE={"sensor":"pan","step":"begin"};', "CALIBRATE")
set_code(ZERO)
request('?CALIBRATE={"sensor":"pan","step":"zero"};', "CALIBRATE")
set_code(ZERO + 100 * PER_GRAM)
request('?CALIBRATE={"sensor":"pan","step":"point","grams":100};', "CALIBRATE")
result["commit"] = request('?CALIBRATE={"sensor":"pan","step":"commit"};', "CALIBRATE")

set_code(ZERO + 50 * PER_GRAM)
f.write('?WATCH={"enable":true,"sensors":["pan"]};\n')
f.flush()
deadline = time.time() + 60
while time.time() < deadline:
    report = json.loads(f.readline())
    if report.get("class") == "WEIGHT" and report.get("stable") and report.get("grams") is not None \
            and abs(report["grams"] - 50) < 1:
        result["weight"] = report
        break


def set_present(value):
    with open(f"{params}/present", "w") as f:
        f.write("1" if value else "0")


# The chip stops answering: DOUT held high. The daemon must weigh it nowhere: the watcher is
# told (a WEIGHT without grams, stale, with its state), ?POLL gives no old weight, ?TARE is
# refused; once the chip answers again, a fresh stable reading of the same 50 g comes back.
set_present(False)
deadline = time.time() + 60
while time.time() < deadline:
    report = json.loads(f.readline())
    if report.get("class") == "WEIGHT" and report.get("stale"):
        result["outage_weight"] = report
        break
result["outage_poll"] = request("?POLL;", "POLL", record=False)
result["outage_tare"] = request('?TARE={"sensor":"pan"};', "TARE", record=False)
set_present(True)
deadline = time.time() + 90
while time.time() < deadline:
    report = json.loads(f.readline())
    if report.get("class") == "WEIGHT" and report.get("stable") and not report.get("stale"):
        result["recovered"] = report
        break
print(json.dumps(result))
