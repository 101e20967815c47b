#!/usr/bin/env bash
# The arm64 packages on an emulated Pi: Debian 12 arm64 in a folder, the three packages installed
# there by apt, and their programs run under qemu-user (binfmt), each check against what a Pi
# owner would see.
#
#   sudo Tests/arm64/run.sh DIR          DIR holds plumscale*_arm64.deb (packaging/build-deb --arch arm64)
#
# Environment:
#   ARM64_SUITES     the Debian releases to install on (default "bookworm"; "bookworm trixie" adds
#                    Debian 13, today's Raspberry Pi OS)
#   ARM64_CACHE      where the base trees are kept (default .build-arm64/ in the checkout); a base
#                    tree is made once (about 2 minutes) and each run installs into a copy of it
#
# What it runs, per suite: the binaries are ARM aarch64 and need no Swift runtime library; apt
# installs the three packages; plumscaled with two simulated pans; `plumscale read` and `watch`
# against it; `plumscale calibrate --point 0 --point 100 --yes` with a weight placed through the
# simulated pan's load file; a tare kept over a restart of the daemon; plumscale-web serving the
# page and /api/status to curl; plumscale-mqtt publishing the device's discovery to a mosquitto
# broker (the host's, on a loopback port of its own); `plumscale setup --probe --json` on the
# tree's hardware, which is none.
#
# What emulation cannot show is a Pi's GPIO timing and real I2C (docs/install.md says so).
# Prints one PASS/FAIL line per check, then "N passed, N failed"; exits 1 on any failure.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
started=$(date +%s)
log() { printf '[arm64 %4ds] %s\n' "$(( $(date +%s) - started ))" "$*" >&2; }
fatal() { log "FATAL: $*"; echo "0 passed, 1 failed"; exit 1; }

[[ $# -eq 1 ]] || { echo "usage: sudo Tests/arm64/run.sh DIR   (DIR holds plumscale*_arm64.deb)" >&2; exit 64; }
[[ $(id -u) -eq 0 ]] || fatal "run as root: mmdebstrap, chroot and the mounts need it (sudo $0 $1)"
debs=$(cd "$1" 2>/dev/null && pwd) || fatal "$1 is not a folder; give the one packaging/build-deb --arch arm64 wrote"
shopt -s nullglob
packages=("$debs"/plumscale_*_arm64.deb "$debs"/plumscale-mqtt_*_arm64.deb "$debs"/plumscale-web_*_arm64.deb)
shopt -u nullglob
[[ ${#packages[@]} -eq 3 ]] ||
    fatal "$debs must hold exactly one each of plumscale, plumscale-mqtt and plumscale-web _arm64.deb (found ${#packages[@]}): packaging/build-deb --arch arm64 $1"

# Everything below in a mount namespace of its own: the trees' /proc, /dev and /run go with it.
if [[ -z ${PLUM_ARM64_UNSHARED:-} ]]; then
    exec env PLUM_ARM64_UNSHARED=1 unshare --mount --propagation private -- "$0" "$@"
fi

# ---- the host's tools -------------------------------------------------------------------------
need=(mmdebstrap qemu-user-static binfmt-support mosquitto mosquitto-clients curl python3 file binutils-aarch64-linux-gnu)
missing=()
for p in "${need[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    log "installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
        fatal "apt-get install ${missing[*]} failed"
fi
# binfmt: the kernel hands aarch64 programs to qemu-aarch64, with the F flag (the interpreter is
# opened now, so it works inside a chroot too).
if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null ||
        fatal "binfmt_misc is not mounted and cannot be: on a container host, run 'sudo mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc' there"
fi
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null ||
    fatal "binfmt for aarch64 is not enabled: sudo update-binfmts --enable qemu-aarch64 (package qemu-user-static)"

cache=${ARM64_CACHE:-$repo/.build-arm64}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
results=$cache/results.txt
: >"$results"
check() {  # check NAME DETAIL COMMAND...
    local name=$1 detail=$2; shift 2
    if "$@" >/dev/null 2>&1; then
        echo "PASS $name: $detail" | tee -a "$results"
    else
        echo "FAIL $name: $detail" | tee -a "$results"
    fi
}
until_true() {  # until_true SECONDS COMMAND...: the command's success within the deadline
    local deadline=$(( $(date +%s) + $1 )); shift
    until "$@" >/dev/null 2>&1; do
        [[ $(date +%s) -lt $deadline ]] || return 1
        sleep 0.2
    done
}

# ---- the base tree of a suite: made once, kept ----------------------------------------------------
# Debian's arm64 system with the packages' dependencies already in (installed under emulation, the
# slow part), so each run's apt-get install of the three packages is short.
base_tree() {
    local suite=$1 base=$cache/base-$1
    if [[ ! -f $base/.complete ]]; then
        log "making the $suite arm64 base tree (mmdebstrap under qemu-user)"
        rm -rf "$base"
        local gpiod=libgpiod2
        [[ $suite == bookworm ]] || gpiod=libgpiod3
        mmdebstrap --arch=arm64 --variant=apt \
            --include="ca-certificates,systemd,$gpiod,libi2c0,libsqlite3-0,libmosquitto1,adduser" \
            "$suite" "$base" >"$cache/mmdebstrap-$suite.log" 2>&1 || {
            tail -n 15 "$cache/mmdebstrap-$suite.log" >&2
            fatal "mmdebstrap of $suite arm64 failed (log: $cache/mmdebstrap-$suite.log)"; }
        touch "$base/.complete"
    fi
    echo "$base"
}

daemon_pid=""
web_pid=""
mqtt_pid=""
display_pid=""
broker_pid=""
stop_all() {
    for pid in $mqtt_pid $web_pid $display_pid $daemon_pid $broker_pid; do kill "$pid" 2>/dev/null || true; done
    for pid in $mqtt_pid $web_pid $display_pid $daemon_pid $broker_pid; do wait "$pid" 2>/dev/null || true; done
    mqtt_pid="" web_pid="" display_pid="" daemon_pid="" broker_pid=""
}
trap stop_all EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

run_suite() {
    local suite=$1 base root
    base=$(base_tree "$suite")
    root=$cache/run-$suite
    # Each run installs into a fresh copy, so the base stays as made (an overlay where it can be).
    umount -R "$root" 2>/dev/null || true
    rm -rf "$root" "$cache/upper-$suite" "$cache/work-$suite"
    mkdir -p "$root" "$cache/upper-$suite" "$cache/work-$suite"
    if ! mount -t overlay overlay \
        -o "lowerdir=$base,upperdir=$cache/upper-$suite,workdir=$cache/work-$suite" "$root" 2>/dev/null; then
        rmdir "$root"; cp -a "$base" "$root"
    fi
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs tmpfs "$root/run"
    mount -t tmpfs tmpfs "$root/tmp"
    in_tree() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"; }
    # For a program run in the background: `in_tree_exec prog … &` makes $! the program itself
    # (chroot and env exec in turn), so `kill $!` stops it. Through in_tree, $! was the
    # function's subshell: the kill stopped the shell and left the daemon running, and a
    # "restarted" daemon found the socket taken and exited while the old one answered.
    in_tree_exec() { exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"; }
    local logs=$cache/logs-$suite
    rm -rf "$logs"; mkdir -p "$logs"

    # ---- the packages --------------------------------------------------------------------------
    mkdir -p "$root/var/cache/plumscale-debs"
    cp "${packages[@]}" "$root/var/cache/plumscale-debs/"
    local t0=$SECONDS
    in_tree apt-get update -qq >"$logs/apt.out" 2>&1 || true
    local in_tree_debs=()
    for deb in "${packages[@]}"; do in_tree_debs+=("/var/cache/plumscale-debs/$(basename "$deb")"); done
    in_tree env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${in_tree_debs[@]}" >>"$logs/apt.out" 2>&1
    local rc=$?
    local installed
    installed=$(in_tree dpkg-query -W -f='${Package} ${Version} ${Architecture}\n' plumscale plumscale-mqtt plumscale-web 2>&1 | tr '\n' ';')
    check "$suite.install" "apt-get install of the three packages: rc=$rc in $((SECONDS - t0))s; $installed" \
        test "$rc" = 0
    [[ $rc -eq 0 ]] || { tail -n 20 "$logs/apt.out" >&2; return; }

    # ---- the binaries: aarch64, no Swift runtime library ---------------------------------------------
    local programs=(/usr/sbin/plumscaled /usr/bin/plumscale /usr/bin/plumscale-mqtt /usr/bin/plumscale-web
        /usr/bin/plumscale-display)
    local arch_ok=1 swift_libs="" described=""
    for program in "${programs[@]}"; do
        local what
        what=$(file -b "$root$program")
        [[ $what == *"ARM aarch64"* ]] || arch_ok=0
        described+="$(basename "$program"): ${what%%,*}, $(du -h "$root$program" | cut -f1); "
        swift_libs+=$(aarch64-linux-gnu-readelf -d "$root$program" | grep -o 'libswift[^]]*\|libFoundation[^]]*\|libdispatch[^]]*' | tr '\n' ' ' || true)
    done
    check "$suite.binaries.aarch64" "$described" test "$arch_ok" = 1
    check "$suite.binaries.no-swift-runtime" "Swift runtime libraries needed: '${swift_libs}' (want none)" \
        test -z "$swift_libs"
    local version
    version=$(in_tree plumscale --version 2>&1 | head -n1)
    check "$suite.version" "plumscale --version under qemu-user: $version" bash -c '[[ $1 =~ ^[0-9] ]]' _ "$version"

    # ---- plumscaled with two simulated pans ------------------------------------------------------------
    mkdir -p "$root/etc/plumscale-test" "$root/var/lib/plumscale-test"
    echo 0 >"$root/etc/plumscale-test/left.grams"
    cat >"$root/etc/plumscale-test/plumscale.toml" <<EOF
[scale]
capacity_grams = 385
division_grams = 0.1

[[sensor]]
name = "left"
kind = "simulated-hx711"
seed = 1
rate = 80
load_file = "/etc/plumscale-test/left.grams"

[[sensor]]
name = "right"
kind = "simulated-hx711"
seed = 2
rate = 80
load_grams = 100

[mqtt]
host = "127.0.0.1"
port = $mqtt_port
scale_id = "emulated-pi"

[web]
listen = "127.0.0.1:$web_port"
EOF
    local sock=/run/plumscale-test.sock
    start_daemon() {
        in_tree_exec plumscaled --config /etc/plumscale-test/plumscale.toml --socket "$sock" \
            --state-directory /var/lib/plumscale-test >>"$logs/plumscaled.out" 2>&1 &
        daemon_pid=$!
        until_true 120 test -S "$root$sock"
    }
    # A daemon stopped by SIGTERM removes its socket: the next start must bind its own.
    stop_daemon() {
        kill "$daemon_pid" 2>/dev/null
        wait "$daemon_pid" 2>/dev/null || true
        daemon_pid=""
        until_true 60 bash -c '! test -e "$1"' _ "$root$sock" || true
    }
    t0=$SECONDS
    start_daemon
    check "$suite.daemon.start" "plumscaled --config (two simulated pans) listening on $sock after $((SECONDS - t0))s" \
        test -S "$root$sock"
    pc() { in_tree PLUMSCALE_SOCKET="$sock" plumscale "$@"; }

    local read_out
    read_out=$(pc read --stable --timeout 60 2>&1 | tr '\n' ';')
    check "$suite.read" "plumscale read --stable: $read_out (want left near 0 g, right near 100 g)" \
        python3 -c '
import re, sys
lines = dict((m.group(1), float(m.group(2))) for m in re.finditer(r"(left|right)\s+(-?[0-9.]+) g", sys.argv[1]))
sys.exit(0 if abs(lines.get("left", 99)) < 1 and abs(lines.get("right", 0) - 100) < 2 else 1)' "$read_out"
    local watch_out
    watch_out=$(timeout 30 chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin LANG=C.UTF-8 PLUMSCALE_SOCKET="$sock" \
        plumscale watch 2>&1 | head -n 4 | tr '\n' ';')
    check "$suite.watch" "plumscale watch, not on a terminal, its first lines: $watch_out" \
        bash -c '[[ $1 == *left*g* && $1 == *right*g* && $1 != *rror* ]]' _ "$watch_out"

    # ---- calibrate with a known weight placed on the simulated pan -------------------------------------
    t0=$SECONDS
    # The weight goes on when the command asks for it ("left: place 100.0 g; waiting…").
    ( until_true 120 grep -q 'left: place 100' "$logs/calibrate.err"; echo 100 >"$root/etc/plumscale-test/left.grams" ) &
    local placer=$!
    pc calibrate --sensor left --point 0 --point 100 --yes --wait 120 >"$logs/calibrate.out" 2>"$logs/calibrate.err"
    rc=$?
    wait "$placer" 2>/dev/null || true
    check "$suite.calibrate" "plumscale calibrate --point 0 --point 100 --yes: rc=$rc in $((SECONDS - t0))s; \
$(tr '\n' ' ' <"$logs/calibrate.out" | head -c 300)" \
        bash -c '[[ $1 == 0 ]] && grep -q "calibration saved" "$2" && test -s "$3"' _ "$rc" "$logs/calibrate.out" \
        "$root/var/lib/plumscale-test/left-gain128.json"
    local after
    after=$(pc read --stable --timeout 60 --sensor left 2>&1 | tr '\n' ' ')
    check "$suite.calibrated-read" "100 g on the calibrated pan reads: $after" \
        python3 -c 'import re,sys; m=re.search(r"(-?[0-9.]+) g", sys.argv[1]); sys.exit(0 if m and abs(float(m.group(1))-100)<=0.5 else 1)' "$after"

    # ---- a tare kept over a restart ------------------------------------------------------------------------
    local tare_out
    tare_out=$(pc tare --sensor left --timeout 60 2>&1 | tr '\n' ' ')
    local net_before
    net_before=$(pc read --stable --timeout 60 --sensor left 2>&1 | tr '\n' ' ')
    stop_daemon
    start_daemon
    local net_after listening
    net_after=$(pc read --stable --timeout 60 --sensor left 2>&1 | tr '\n' ' ')
    # The restart is real only if a second daemon bound the socket: two "listening" lines (a
    # daemon that found the socket taken exits saying so, and the first one would answer).
    listening=$(grep -c '\[PlumTransport\] listening' "$logs/plumscaled.out" || true)
    check "$suite.tare-restart" "tare: $tare_out; net before the restart: $net_before; after: $net_after; \
daemons that bound the socket: $listening (want near 0 g both, the tare of 100.0 g kept, and 2 daemons)" \
        python3 -c '
import re, sys
values = [re.search(r"(-?[0-9.]+) g", text) for text in sys.argv[1:3]]
kept = "tare 100.0 g" in sys.argv[2]
sys.exit(0 if kept and sys.argv[3] == "2" and all(v and abs(float(v.group(1))) <= 0.3 for v in values) else 1)' \
        "$net_before" "$net_after" "$listening"

    # ---- plumscale-web --------------------------------------------------------------------------------------
    mkdir -p "$root/var/lib/plumscale-web-test"
    t0=$SECONDS
    in_tree_exec plumscale-web --config /etc/plumscale-test/plumscale.toml --socket "$sock" \
        --state-directory /var/lib/plumscale-web-test >"$logs/web.out" 2>&1 &
    web_pid=$!
    until_true 120 curl -sf "http://127.0.0.1:$web_port/api/status" -o "$logs/web-status.json"
    local page_status
    page_status=$(curl -s -o "$logs/web-page.html" -w '%{http_code}' "http://127.0.0.1:$web_port/" || true)
    check "$suite.web.page" "GET / from plumscale-web under qemu-user: HTTP $page_status, $(wc -c <"$logs/web-page.html") bytes, \
up after $((SECONDS - t0))s" bash -c "[[ $page_status == 200 ]] && grep -qi '<html' '$logs/web-page.html'"
    check "$suite.web.status" "GET /api/status: $(head -c 200 "$logs/web-status.json" 2>/dev/null)" \
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$logs/web-status.json"

    # ---- plumscale-display on a simulated SSD1306 ----------------------------------------------------------------
    # --check draws the test screen into the frame file; then the service follows the daemon until
    # SIGTERM, after which it draws "stopped" and exits 0.
    cat >"$root/etc/plumscale-test/display.toml" <<'EOF'
[display]
kind = "simulated-ssd1306"
frame_file = "/run/plumscale-display-test.pbm"
EOF
    in_tree plumscale-display --config /etc/plumscale-test/display.toml --check >"$logs/display-check.out" 2>&1
    rc=$?
    check "$suite.display.check" "plumscale-display --check under qemu-user: rc=$rc, $(head -c 160 "$logs/display-check.out"); \
frame: $(head -n 2 "$root/run/plumscale-display-test.pbm" 2>&1 | tr '\n' ' ')" \
        bash -c "[[ $rc == 0 && \$(head -n 2 '$root/run/plumscale-display-test.pbm' | tr '\n' ' ') == 'P1 128 64 ' ]]"
    t0=$SECONDS
    in_tree_exec plumscale-display --config /etc/plumscale-test/display.toml --socket "$sock" >"$logs/display.out" 2>&1 &
    display_pid=$!
    until_true 120 grep -q 'connected to plumscaled' "$logs/display.out"
    kill "$display_pid" 2>/dev/null
    wait "$display_pid"
    rc=$?
    display_pid=""
    check "$suite.display.service" "plumscale-display connected after $((SECONDS - t0))s and stopped on SIGTERM with rc=$rc: \
$(tail -n 1 "$logs/display.out" | head -c 200)" bash -c "[[ $rc == 0 ]] && grep -q 'connected to plumscaled' '$logs/display.out'"

    # ---- plumscale-mqtt against mosquitto ---------------------------------------------------------------------
    t0=$SECONDS
    timeout 150 mosquitto_sub -h 127.0.0.1 -p "$mqtt_port" -t 'homeassistant/#' -C 1 -W 140 -v \
        >"$logs/mqtt-discovery.out" 2>&1 &
    local sub_pid=$!
    in_tree_exec plumscale-mqtt --config /etc/plumscale-test/plumscale.toml --socket "$sock" >"$logs/mqtt.out" 2>&1 &
    mqtt_pid=$!
    wait "$sub_pid" || true
    check "$suite.mqtt.discovery" "plumscale-mqtt published Home Assistant discovery after $((SECONDS - t0))s: \
$(head -c 200 "$logs/mqtt-discovery.out")" grep -q '"dev"\|"device"' "$logs/mqtt-discovery.out"

    # ---- setup's probe on the tree's (empty) hardware ---------------------------------------------------------
    in_tree plumscale setup --probe --json --no-hx711 >"$logs/probe.json" 2>"$logs/probe.err"
    rc=$?
    check "$suite.setup.probe" "plumscale setup --probe --json: rc=$rc, $(head -c 200 "$logs/probe.json")" \
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$logs/probe.json"

    kill "$mqtt_pid" "$web_pid" 2>/dev/null || true
    wait "$mqtt_pid" "$web_pid" 2>/dev/null || true
    mqtt_pid="" web_pid=""
    stop_daemon
    umount -R "$root" 2>/dev/null || true
}

# ---- the broker: the host's mosquitto on a loopback port of its own ----------------------------------------------
mqtt_port=$(free_port)
web_port=$(free_port)
broker_conf=$cache/mosquitto.conf
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$mqtt_port" >"$broker_conf"
mosquitto -c "$broker_conf" >"$cache/mosquitto.out" 2>&1 &
broker_pid=$!
until_true 30 mosquitto_pub -h 127.0.0.1 -p "$mqtt_port" -t plumscale/arm64-test -m up ||
    fatal "mosquitto did not start on 127.0.0.1:$mqtt_port (see $cache/mosquitto.out)"

for suite in ${ARM64_SUITES:-bookworm}; do
    log "suite $suite"
    run_suite "$suite"
done
stop_all

passed=$(grep -c '^PASS' "$results" || true)
failed=$(grep -c '^FAIL' "$results" || true)
log "done in $(( $(date +%s) - started ))s"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]
