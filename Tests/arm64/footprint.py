#!/usr/bin/env python3
"""The resident memory of a packaged plumscaled at rest, by where it lies; amd64 or arm64 alike.

usage: Tests/arm64/footprint.py PLUMSCALED [RUNS]

Starts PLUMSCALED as docs/PERFORMANCE.md section 4 does (one simulated HX711 at 80 SPS, no
client), waits until it listens and then 5 s more, and reads /proc/PID/smaps: the resident
pages of the daemon's own file, of the C and C++ libraries, of anything else mapped from a file,
and the anonymous ones (heap, stacks). RUNS (3) such starts, each line printed.

An arm64 daemon on an amd64 machine runs under qemu-user (binfmt): the process is then qemu,
and its memory holds qemu's own program and its translation cache beside the daemon's. The
daemon's file pages are still the daemon's (qemu maps the program as the kernel would, and reads
its code as it translates it), so they compare across architectures; the anonymous pages do
not, and qemu's are named apart. Time under emulation is no Pi's time, and none is printed.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

CONFIG = '[[sensor]]\nname = "pan"\nkind = "simulated-hx711"\nrate = 80\nload_grams = 100\n'


def fail(message):
    sys.exit(f"footprint: {message}")


def measure(daemon):
    with tempfile.TemporaryDirectory(prefix="plumscale-footprint-") as work:
        config = os.path.join(work, "plumscale.toml")
        with open(config, "w") as out:
            out.write(CONFIG)
        state = os.path.join(work, "state")
        os.mkdir(state)
        sock = os.path.join(work, "plumscale.sock")
        process = subprocess.Popen(
            [daemon, "--config", config, "--socket", sock, "--state-directory", state],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 60
            while not os.path.exists(sock):
                if process.poll() is not None:
                    fail(f"{daemon} exited with {process.returncode}: {process.stderr.read().decode()[-400:]}")
                if time.monotonic() > deadline:
                    fail(f"{daemon} did not listen within 60 s")
                time.sleep(0.1)
            time.sleep(5)
            return by_mapping(process.pid, os.path.realpath(daemon))
        finally:
            process.terminate()
            process.wait(timeout=30)


def by_mapping(pid, program):
    """kB resident per kind of mapping, from /proc/PID/smaps."""
    kinds = {"program": 0, "libraries": 0, "qemu": 0, "other files": 0, "anonymous": 0}
    path = None
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            header = re.match(r"^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$", line)
            if header:
                path = header.group(1).strip()
                continue
            if line.startswith("Rss:"):
                kb = int(line.split()[1])
                if path == program:
                    kinds["program"] += kb
                elif "qemu" in os.path.basename(path or ""):
                    kinds["qemu"] += kb
                elif path and path.startswith("/") and ".so" in path:
                    kinds["libraries"] += kb
                elif path and path.startswith("/"):
                    kinds["other files"] += kb
                else:
                    kinds["anonymous"] += kb
    return kinds


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: Tests/arm64/footprint.py PLUMSCALED [RUNS]")
    daemon = sys.argv[1]
    if not os.access(daemon, os.X_OK):
        fail(f"{daemon} is not an executable: dpkg-deb -x the package, and give usr/sbin/plumscaled")
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 3
    described = subprocess.run(["file", "-b", daemon], capture_output=True, text=True).stdout.split(",")[1].strip()
    print(f"plumscaled ({described}), one simulated HX711 at 80 SPS, at rest (5 s after listening, no client)")
    print(f"{'run':>3}  {'total':>9}  {'program':>9}  {'libraries':>9}  {'anonymous':>9}  {'qemu':>9}")
    for run in range(1, runs + 1):
        kinds = measure(daemon)
        total = sum(kinds.values())
        mib = {name: value / 1024 for name, value in kinds.items()}
        print(f"{run:>3}  {total / 1024:>5.1f} MiB  {mib['program']:>5.1f} MiB  "
              f"{mib['libraries'] + mib['other files']:>5.1f} MiB  {mib['anonymous']:>5.1f} MiB  "
              f"{mib['qemu']:>5.1f} MiB")


if __name__ == "__main__":
    main()
