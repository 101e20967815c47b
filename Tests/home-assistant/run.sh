#!/usr/bin/env bash
# plumscale-mqtt against a real Home Assistant core (check_ha.py beside this file does the checking), then every
# discovery payload against the newest release's MQTT schemas (check_schema.py).
#
#   Tests/home-assistant/run.sh [--bin DIR] [--build DIR] [--deadline SECONDS] [--update-screenshot]
#                               [--no-screenshot] [--no-schema] [--offline]
#
# --bin: where plumscaled, plumscale and plumscale-mqtt are (default .build/debug); only read.
# --build: the build folder that caches the Home Assistant venv (default .build, venv in
#   .build/home-assistant-venv). The venv is made once with Python 3.13.0 from pyenv and kept while it
#   holds homeassistant==2025.4.4, so only the first run pays for the install. The newest release's
#   wheel for the schema check is kept in .build/home-assistant-schema.
# The screenshot of the device page goes to BUILD/home-assistant-device.png; --update-screenshot also
#   copies it to docs/images/home-assistant-device.png; --no-screenshot takes none (no Chromium needed).
# --no-schema leaves out the schema check; --offline makes it use the newest wheel it has, asking no index.
# Needs mosquitto, pyenv's Python 3.13.0, and for the screenshot chromium, chromium-driver and selenium in the
# python3 on PATH. PyPI is reached when the venv is (re)made and to ask for the newest release's wheel.
# Exits 0 when every check passed, 1 when one failed, 2 when it could not start.
set -euo pipefail

HA_VERSION=2025.4.4
PYTHON_VERSION=3.13.0
REQUIREMENTS=("homeassistant==$HA_VERSION" paho-mqtt==2.1.0 home-assistant-frontend==20250411.0 isal)

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="$root/.build/debug"
build="$root/.build"
checker_args=()
schema_args=()
screenshot=yes
update_screenshot=""
schema=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$(cd "$2" 2>/dev/null && pwd) || { echo "run.sh: --bin $2: no such folder" >&2; exit 2; }
               shift 2 ;;
        --build) mkdir -p "$2" && build=$(cd "$2" && pwd); shift 2 ;;
        --deadline) checker_args+=(--deadline "$2"); schema_args+=(--deadline "$2"); shift 2 ;;
        --update-screenshot) update_screenshot=yes; shift ;;
        --no-screenshot) screenshot=""; shift ;;
        --no-schema) schema=""; shift ;;
        --offline) schema_args+=(--offline); shift ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown argument '$1'; see --help" >&2; exit 2 ;;
    esac
done

for program in plumscaled plumscale plumscale-mqtt; do
    if [ ! -x "$bin/$program" ]; then
        echo "run.sh: no $program in $bin; build first (swift build) or pass --bin DIR" >&2
        exit 2
    fi
done
if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
    echo "run.sh: mosquitto is not installed; apt install mosquitto" >&2
    exit 2
fi

python=""
if command -v pyenv >/dev/null; then
    python="$(pyenv root)/versions/$PYTHON_VERSION/bin/python3"
fi
if [ -z "$python" ] || [ ! -x "$python" ]; then
    python="${PYENV_ROOT:-$HOME/.pyenv}/versions/$PYTHON_VERSION/bin/python3"
fi
if [ ! -x "$python" ]; then
    echo "run.sh: Python $PYTHON_VERSION not found under pyenv ($python); Home Assistant $HA_VERSION needs it:" \
        "pyenv install $PYTHON_VERSION" >&2
    exit 2
fi

venv="$build/home-assistant-venv"
site_packages="$venv/lib/python${PYTHON_VERSION%.*}/site-packages"
if [ -x "$venv/bin/hass" ] && [ -d "$site_packages/homeassistant-$HA_VERSION.dist-info" ]; then
    echo "venv: $venv has homeassistant $HA_VERSION, reused"
else
    echo "venv: installing ${REQUIREMENTS[*]} into $venv"
    started=$(date +%s)
    rm -rf "$venv"
    "$python" -m venv "$venv"
    # Home Assistant's own pins (package_constraints.txt in its wheel), as its installer uses them: without
    # them pip backtracks through dozens of source releases of its dependencies for half an hour.
    constraints="$build/home-assistant-constraints-$HA_VERSION.txt"
    wheels=$(mktemp -d)
    if ! "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
            -d "$wheels" "homeassistant==$HA_VERSION" ||
        ! "$venv/bin/python" -c 'import sys, zipfile
sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("homeassistant/package_constraints.txt"))' \
            "$wheels"/homeassistant-*.whl >"$constraints"; then
        rm -rf "$venv" "$wheels"
        echo "run.sh: could not fetch homeassistant $HA_VERSION's wheel for its constraints (output above)" >&2
        exit 2
    fi
    rm -rf "$wheels"
    if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -c "$constraints" \
            "${REQUIREMENTS[@]}"; then
        rm -rf "$venv"  # a half-made venv must not pass for a cached one
        echo "run.sh: pip could not install Home Assistant into $venv (output above)" >&2
        exit 2
    fi
    echo "venv: installed in $(( $(date +%s) - started )) s"
fi

if [ -n "$screenshot" ]; then
    screenshot_python=$(command -v python3 || true)
    if ! command -v chromedriver >/dev/null || [ -z "$screenshot_python" ] ||
        ! "$screenshot_python" -c 'import selenium' 2>/dev/null; then
        echo "run.sh: the screenshot needs chromium, chromedriver and selenium in python3 (apt install chromium" \
            "chromium-driver; python3 -m pip install --break-system-packages selenium), or pass --no-screenshot" >&2
        exit 2
    fi
    checker_args+=(--screenshot "$build/home-assistant-device.png" --screenshot-python "$screenshot_python")
fi

# Each checker runs in a process group of its own, so that the trap ends it and every child it started
# (mosquitto, plumscaled, plumscale-mqtt, hass, chromium) however this script is stopped.
checker=""
cleanup() {
    if [ -n "$checker" ] && kill -TERM -- "-$checker" 2>/dev/null; then
        # up to 30 s for hass to shut down cleanly, then whatever is left of the group is killed
        for _ in $(seq 150); do kill -0 -- "-$checker" 2>/dev/null || break; sleep 0.2; done
        kill -KILL -- "-$checker" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Runs "$venv/bin/python -u SCRIPT ARGS..." as its own process group; its exit status.
run_checker() {
    setsid "$venv/bin/python" -u "$@" &
    checker=$!
    local status=0
    wait "$checker" || status=$?
    checker=""
    return "$status"
}

status=0
started=$(date +%s)
run_checker "$here/check_ha.py" --bin "$bin" --hass "$venv/bin/hass" ${checker_args[@]+"${checker_args[@]}"} ||
    status=$?
echo "Home Assistant checks took $(( $(date +%s) - started )) s"
if [ -n "$screenshot" ] && [ -n "$update_screenshot" ] && [ "$status" = 0 ]; then
    cp "$build/home-assistant-device.png" "$root/docs/images/home-assistant-device.png"
    echo "docs/images/home-assistant-device.png updated"
fi

if [ -n "$schema" ]; then
    started=$(date +%s)
    schema_status=0
    run_checker "$here/check_schema.py" --bin "$bin" --cache "$build/home-assistant-schema" \
        ${schema_args[@]+"${schema_args[@]}"} || schema_status=$?
    echo "the schema check took $(( $(date +%s) - started )) s"
    [ "$status" != 0 ] || status=$schema_status
fi
exit "$status"
