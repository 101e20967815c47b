#!/usr/bin/env bash
# plumscale-mqtt against a real Home Assistant core (check_ha.py beside this file does the checking).
#
#   Tests/home-assistant/run.sh [--bin DIR] [--build DIR] [--deadline SECONDS]
#
# --bin: where plumscaled, plumscale and plumscale-mqtt are (default .build/debug); only read.
# --build: the build folder that caches the Home Assistant venv (default .build, venv in
#   .build/home-assistant-venv). The venv is made once with Python 3.13.0 from pyenv and kept while it
#   holds homeassistant==2025.4.4, so only the first run pays for the install.
# Needs mosquitto and pyenv's Python 3.13.0; PyPI is reached only when the venv is (re)made.
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
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$(cd "$2" 2>/dev/null && pwd) || { echo "run.sh: --bin $2: no such folder" >&2; exit 2; }
               shift 2 ;;
        --build) mkdir -p "$2" && build=$(cd "$2" && pwd); shift 2 ;;
        --deadline) checker_args+=(--deadline "$2"); shift 2 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
if [ -x "$venv/bin/hass" ] && [ -d "$venv/lib/python${PYTHON_VERSION%.*}/site-packages/homeassistant-$HA_VERSION.dist-info" ]
then
    echo "venv: $venv has homeassistant $HA_VERSION, reused"
else
    echo "venv: installing ${REQUIREMENTS[*]} into $venv"
    started=$(date +%s)
    rm -rf "$venv"
    "$python" -m venv "$venv"
    if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${REQUIREMENTS[@]}"; then
        rm -rf "$venv"  # a half-made venv must not pass for a cached one
        echo "run.sh: pip could not install Home Assistant into $venv (output above)" >&2
        exit 2
    fi
    echo "venv: installed in $(( $(date +%s) - started )) s"
fi

# The checker runs in a process group of its own, so that the trap ends it and every child it started
# (mosquitto, plumscaled, plumscale-mqtt, hass) however this script is stopped.
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

started=$(date +%s)
setsid "$venv/bin/python" -u "$here/check_ha.py" --bin "$bin" --hass "$venv/bin/hass" \
    ${checker_args[@]+"${checker_args[@]}"} &
checker=$!
status=0
wait "$checker" || status=$?
echo "checks took $(( $(date +%s) - started )) s"
exit "$status"
