#!/usr/bin/env python3
import sys, pathlib
out = pathlib.Path(sys.argv[1])
lines = (out / "results.txt").read_text().splitlines() if (out / "results.txt").exists() else []
p = f = s = 0
for l in lines:
    print(l)
    st = l.split(" ", 1)[0]
    p += st == "PASS"; f += st == "FAIL"; s += st == "SKIP"
print(f"{s} skipped")
print(f"{p} passed, {f} failed")
sys.exit(1 if f or not p else 0)
