#!/usr/bin/env bash
# A soak with faults: the real plumscaled, plumscale-mqtt and plumscale-web against a real mosquitto for
# MINUTES minutes (soak.py beside this file does the work; docs/RELIABILITY.md says what it checks).
#
#   Tests/soak/run.sh MINUTES [--bin DIR] [--seed N] [--out DIR] [--keep]
#
# --bin: where plumscaled, plumscale-mqtt and plumscale-web are (default .build/debug); only read.
# --seed: the seed of the script of loads and of the faults (default 1).
# --out: where samples.csv, weights.csv, reconnects.csv and the soak-*.svg plots go (default .build/soak).
# --keep: keep the logs of a passing run too (a failing run always keeps them).
# Needs mosquitto and mosquitto_sub (mosquitto-clients) and Debian's python3, nothing else.
# Exits 0 when every invariant held, 1 when one did not, 2 when the stack could not start.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
args=("$@")
bin="$root/.build/debug"
for ((i = 1; i < ${#args[@]}; i++)); do
    if [ "${args[$i]}" = "--bin" ] && [ $((i + 1)) -lt ${#args[@]} ]; then bin=${args[$((i + 1))]}; fi
done
for program in plumscaled plumscale-mqtt plumscale-web; do
    if [ ! -x "$bin/$program" ]; then
        echo "run.sh: no $program in $bin; build first (swift build) or pass --bin DIR" >&2
        exit 2
    fi
done
for program in mosquitto mosquitto_sub; do
    if ! command -v "$program" >/dev/null && [ ! -x "/usr/sbin/$program" ]; then
        echo "run.sh: $program is not installed; apt install mosquitto mosquitto-clients" >&2
        exit 2
    fi
done

# The harness runs in a process group of its own, so that the trap ends it and every child it started
# (mosquitto, mosquitto_sub, plumscaled, plumscale-mqtt, plumscale-web) however this script is stopped.
harness=""
cleanup() {
    if [ -n "$harness" ] && kill -TERM -- "-$harness" 2>/dev/null; then
        for _ in $(seq 100); do kill -0 -- "-$harness" 2>/dev/null || break; sleep 0.2; done
        kill -KILL -- "-$harness" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$(date +%s)
setsid python3 -u "$here/soak.py" --bin "$bin" "${args[@]}" &
harness=$!
status=0
wait "$harness" || status=$?
harness=""
echo "soak took $(( $(date +%s) - started )) s"
exit "$status"
