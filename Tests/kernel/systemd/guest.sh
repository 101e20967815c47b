#!/bin/bash
# Runs inside the systemd VM as root, started by plum-systemd-check.service once the machine has
# reached multi-user.target. Phase 1 installs the three packages and checks the service path;
# the VM then reboots (the overlay disk keeps what was installed) and phase 2 checks what a
# reboot must keep, upgrades to the next version and downgrades back, then removes and purges
# the packages and powers off.
#
# Results: $PLUM_OUT/results.txt gets "PASS|FAIL name: detail" lines, every name beginning with
# "systemd"; runs/ keeps what the commands printed; progress.txt marks how far the guest got.
set -uo pipefail
# shellcheck source=/dev/null
source /etc/plum-test/env.sh
R="$PLUM_OUT/results.txt"
RUNS="$PLUM_OUT/runs"
P=/sys/module/hx711_sim/parameters
STATE=/var/lib/plum-test
mkdir -p "$RUNS" "$STATE"

# shellcheck source=Tests/kernel/guest-lib.sh
source "$PLUM_REPO/Tests/kernel/guest-lib.sh"
# shellcheck source=Tests/kernel/systemd/first-hour.sh
source "$PLUM_REPO/Tests/kernel/systemd/first-hour.sh"
# shellcheck source=Tests/kernel/systemd/display.sh
source "$PLUM_REPO/Tests/kernel/systemd/display.sh"
# until_true SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds or SECONDS pass.
until_true() {
    local deadline=$((SECONDS + $1)); shift
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.2
    done
}
prop() { systemctl show -P "$2" "$1"; }
PACKAGES=(plumscale plumscale-mqtt plumscale-web)
# installed_versions: "package=version ..." of the three, as dpkg has them installed.
installed_versions() {
    dpkg-query -W -f '${db:Status-Abbrev}${Package}=${Version} ' "${PACKAGES[@]}" 2>&1 | sed 's/^ii *//; s/ ii */ /g'
}
want_versions() { printf '%s ' "${PACKAGES[@]/%/=$1}"; }
# The emulated HX711: zero at code 60000, 1500 counts per gram once calibrated.
ZERO=60000
PER_GRAM=1500
load() { echo $((ZERO + $1 * PER_GRAM)) >"$P/code_a128"; }
as() { local user=$1; shift; runuser -u "$user" -- "$@"; }
# shows USER GRAMS: USER's stable reading of the pan is GRAMS (one decimal) within 60 s.
shows() {
    as "$1" plumscale read --sensor pan --stable --timeout 60 >"$RUNS/read.out" 2>"$RUNS/read.err" &&
        grep -qE "(^| )$2 g" "$RUNS/read.out"
}
last_read() { cat "$RUNS/read.out" "$RUNS/read.err" | tr '\n' ' '; }
# creds PID: setpriv's options for PID's user, group and supplementary groups.
creds() {
    local groups
    groups=$(awk '/^Groups:/ {$1 = ""; gsub(/^ +| +$/, ""); gsub(/ +/, ","); print}' "/proc/$1/status")
    echo "--reuid $(awk '/^Uid:/ {print $2}' "/proc/$1/status") --regid $(awk '/^Gid:/ {print $2}' "/proc/$1/status")" \
        "${groups:+--groups $groups}${groups:---clear-groups}"
}
# sandboxed PID COMMAND...: COMMAND in PID's mount namespace with PID's credentials.
sandboxed() {
    local pid=$1; shift
    # shellcheck disable=SC2046
    nsenter -t "$pid" -m -- setpriv $(creds "$pid") -- "$@"
}
# outside PID COMMAND...: COMMAND with PID's credentials but outside its sandbox.
outside() {
    local pid=$1; shift
    # shellcheck disable=SC2046
    setpriv $(creds "$pid") -- "$@"
}

phase=$(cat "$STATE/phase" 2>/dev/null || echo 1)
progress "phase$phase-start"
echo "guest: phase $phase, kernel $(uname -r), $(nproc) CPUs, up $(cut -d' ' -f1 /proc/uptime) s"

if [[ $phase == 1 ]]; then
    # ---- systemd is PID 1 ------------------------------------------------------------------
    state=$(systemctl is-system-running 2>&1) # 'starting' while this check runs
    failed_units=$(systemctl --failed --no-legend --plain | awk '{print $1}' | tr '\n' ' ')
    check systemd.pid1 "PID 1 is $(readlink /proc/1/exe), the system is $state${failed_units:+ (failed: $failed_units)}" \
        test "$(readlink /proc/1/exe)" = /usr/lib/systemd/systemd -o "$(readlink /proc/1/exe)" = /lib/systemd/systemd
    # As on a Pi, and unlike in the container the host root may come from (initramfs-init.sh):
    # systemd then makes / shared, and a unit's credentials, mounted in a helper namespace, reach
    # /run/credentials/<unit>.
    container=$(systemd-detect-virt --container 2>&1)
    propagation=$(findmnt -no PROPAGATION /run 2>&1)
    check systemd.not-a-container "systemd-detect-virt --container: $container; /run's propagation: $propagation \
(want none, shared)" test "$container|$propagation" = "none|shared"

    # ---- install, as on a Pi ---------------------------------------------------------------
    # The I2C bus appears after the package (udev must apply the rules to a new device); the
    # HX711's GPIO chip was there at boot (plum-hx711.service), before the rules existed.
    rm -f /var/lib/man-db/auto-update # man-db's trigger takes minutes under TCG
    # The host root may be a container image whose policy-rc.d forbids starting any service (exit
    # 101); Debian on a Pi has none, and the package's own scripts must start the socket.
    rm -f /usr/sbin/policy-rc.d
    typed # sudo apt install ./plumscale*.deb
    install_at=$(now)
    apt-get install -y "$PLUMSCALE_DEBS"/plumscale*.deb </dev/null >"$RUNS/apt-install.out" 2>&1
    rc=$?
    install_seconds=$(elapsed "$install_at")
    installed=$(installed_versions)
    check systemd.apt-install "apt-get install ./plumscale*.deb: rc=$rc in ${install_seconds}s, installed: $installed; \
$(tail -n 2 "$RUNS/apt-install.out" | tr '\n' ' ')" \
        test "$rc|$installed" = "0|$(want_versions "$PLUMSCALE_VERSION")" &&
        step install "$install_seconds" "apt install ./plumscale*.deb, the three packages"
    modprobe -d "$MODROOT" -S "$KERNEL_ABI" i2c-stub chip_addr=0x48
    modprobe -d "$MODROOT" -S "$KERNEL_ABI" i2c-dev
    udevadm settle --timeout=30

    groups_of_plumscale=$(id -nG plumscale 2>&1)
    groups_of_web=$(id -nG plumscale-web 2>&1)
    setup_members=$(getent group plumscale-setup | cut -d: -f4)
    check systemd.sysusers "groups: $(getent group gpio i2c plumscale plumscale-admin plumscale-setup | cut -d: -f1 |
        tr '\n' ' '); user plumscale home $(getent passwd plumscale | cut -d: -f6), in: $groups_of_plumscale; \
user plumscale-web (plumscale-web's sysusers file) in: $groups_of_web; plumscale-setup's members: $setup_members" \
        bash -c "getent group gpio i2c plumscale plumscale-admin plumscale-setup | wc -l | grep -qx 5 &&
            [[ ' $groups_of_plumscale ' == *' gpio '* && ' $groups_of_plumscale ' == *' i2c '* ]] &&
            [[ \$(getent passwd plumscale | cut -d: -f6) == /var/lib/plumscale ]] &&
            [[ ' $groups_of_web ' == *' plumscale '* && ' $groups_of_web ' == *' plumscale-admin '* ]] &&
            [[ '$setup_members' == plumscale-web ]]"
    gpiochip=$(grep -l hx711-sim /sys/bus/gpio/devices/gpiochip*/of_node/name /sys/bus/gpio/devices/*/label \
        2>/dev/null | head -n1 | sed -n 's#.*/\(gpiochip[0-9]*\)/.*#\1#p')
    [[ -n $gpiochip ]] || gpiochip=$(gpiodetect | awk '/\[hx711-sim\]/ {print $1; exit}')
    i2cdev=$(ls /dev/i2c-* 2>/dev/null | head -n1)
    gpio_mode=$(stat -c '%G %a' "/dev/$gpiochip" 2>&1)
    i2c_mode=$(stat -c '%G %a' "$i2cdev" 2>&1)
    check systemd.udev "60-plumscale.rules: /dev/$gpiochip (there before the rules) is $gpio_mode, $i2cdev (added after) is $i2c_mode (want gpio 660, i2c 660)" \
        test "$gpio_mode|$i2c_mode" = "gpio 660|i2c 660"

    # ---- what the packages did, before any configuration -----------------------------------------
    # All four units enabled, only the socket started: the bridge and the web service, clients of
    # the socket, are not started by their packages while the daemon is not configured, or they
    # would wake it before the configuration says which GPIO lines are the scale's. Their
    # credentials' files exist (systemd 252 starts no unit whose LoadCredential= file is missing):
    # empty (not set), root's alone.
    units=(plumscaled.socket plumscaled.service plumscale-mqtt.service plumscale-web.service)
    enabled=$(systemctl is-enabled "${units[@]}" | tr '\n' ' ')
    before=$(systemctl is-active "${units[@]}" | tr '\n' ' ')
    credentials=$(stat -c '%n %U %a %s' /etc/plumscale/credentials/web-password \
        /etc/plumscale/credentials/mqtt-password 2>&1 | tr '\n' ' ')
    check systemd.after-install "${units[*]}: $enabled; active: $before; credentials made by postinst: $credentials" \
        bash -c "[[ '$enabled|$before' == 'enabled enabled enabled enabled |active inactive inactive inactive ' &&
            \$(stat -c '%U %a %s' /etc/plumscale/credentials/{web,mqtt}-password | sort -u) == 'root 600 0' ]]"
    useradd --no-create-home --groups plumscale reader
    useradd --no-create-home --groups plumscale,plumscale-admin admin
    useradd --no-create-home outsider
    load 0
    # The owner's Home Assistant broker runs before PlumScale is set up; and an ADS1115 as it
    # powers up (Config register 8583h) sits on the i2c-stub bus, for setup's probe to find.
    systemctl enable --now mosquitto.service >"$RUNS/enable.out" 2>&1
    i2cset -y "${i2cdev#/dev/i2c-}" 0x48 0x01 0x8385 w

    # ---- the first hour: plumscale setup, then the weight where the owner looks ----------------
    if first_hour_setup; then
        # The probe's summary line (before it, a line says plumscaled was stopped for the watch).
        probe_line=$(grep -m1 -E '^[0-9.]+ probe: .*GPIO header chip' "$RUNS/setup.out" | cut -d' ' -f2-)
        found_both() { [[ $probe_line == *"10 SPS"* && $probe_line == *"ADS1115 at i2c-"*"0x48"* ]]; }
        # On a failure, the emulated chip's own counters say what it saw of the watch.
        sim_counters=""
        found_both || for p in conversions readouts aborted lost_busy overwritten bad_pulses power_downs \
            sck_high_max_ns readout_ns_max edges; do
            sim_counters+=" $p=$(cat /sys/module/hx711_sim/parameters/$p 2>/dev/null)"
        done
        check systemd.setup.probe "setup found the emulated HX711 at 10 SPS and the ADS1115: $probe_line${sim_counters:+; hx711_sim:$sim_counters}" found_both
    fi
    conf=/etc/plumscale/plumscale.toml
    wanted=('chip = "hx711-sim"' 'dout = "DOUT"' 'sck = "SCK"' 'rate = 10'
        'admin_group = "plumscale-admin"' 'host = "127.0.0.1"' 'username = "plum-test"' 'scale_id = "vm"'
        'listen = "127.0.0.1:8385"')
    missing=""
    for line in "${wanted[@]}"; do grep -qxF "$line" "$conf" || missing+="$line; "; done
    secrets=$(grep -c 'plum-test-password\|plum-test-broker-secret' "$conf")
    check systemd.setup.configuration "$conf written by setup, $(stat -c '%U %a' "$conf"): the answers' values \
missing: '$missing' (want none); lines with a password: $secrets (want 0)" \
        test "$(stat -c '%U %a' "$conf")|$missing|$secrets" = "root 644||0"
    credentials=$(stat -c '%n %U %a %s' /etc/plumscale/credentials/web-password \
        /etc/plumscale/credentials/mqtt-password 2>&1 | tr '\n' ' ')
    check systemd.setup.credentials "written by setup: $credentials; mqtt-password holds the answers' password, \
web-password a bcrypt hash: $(head -c 4 /etc/plumscale/credentials/web-password)…" \
        bash -c "[[ \$(stat -c '%U %a' /etc/plumscale/credentials/{web,mqtt}-password | sort -u) == 'root 600' ]] &&
            grep -qx plum-test-broker-secret /etc/plumscale/credentials/mqtt-password &&
            grep -q '^\\\$2[aby]\\\$' /etc/plumscale/credentials/web-password"
    until_true 60 systemctl --quiet is-active "${units[@]}"
    enabled=$(systemctl is-enabled "${units[@]}" | tr '\n' ' ')
    active=$(systemctl is-active "${units[@]}" | tr '\n' ' ')
    check systemd.setup.units "after setup, ${units[*]}: $enabled; $active" \
        test "$enabled|$active" = "enabled enabled enabled enabled |active active active active "
    # A plum of 123 g on the pan: the owner looks in Home Assistant, then opens the URL.
    load 123
    LOAD_AT=$(now)
    weight_in_home_assistant 123.0
    # The URL setup printed ("open: http://127.0.0.1:8385/"), as the owner copies it.
    weight_in_browser "$(sed -n "s/^[0-9.]* open: //p" "$RUNS/setup.out")" 123.0 plum-test-password
    first_hour_summary
    # The page's first run, through the real units: plumscale-web (group plumscale-setup) relays
    # a logged-in admin's requests to plumscale-setup.socket, and systemd starts
    # plumscale-setup@.service, as root in its sandbox, per connection. The probe reads the I2C
    # buses through the unit's DeviceAllow= and leaves the HX711's lines to plumscaled.
    timeout 420 python3 "$PLUM_REPO/Tests/kernel/systemd/setup_socket.py" http://127.0.0.1:8385 plum-test-password --deadline 360 \
        >"$RUNS/setup-socket.out" 2>&1
    rc=$?
    check systemd.setup.socket "the page's setup through plumscale-setup.socket on a set-up scale (state; a probe \
refused until root's setup --allow-web; then a probe without the HX711's watch): rc=$rc, \
$(head -c 600 "$RUNS/setup-socket.out"); \
$(journalctl -q -u 'plumscale-setup@*' --no-pager -n 3 2>&1 | tr '\n' ' ' | head -c 300)" test $rc = 0

    # ---- the doctor, on the file setup wrote ------------------------------------------------------
    # --check watches the HX711's lines, which a running plumscaled holds: the socket stops with
    # the service, so that neither the bridge nor the page wakes the daemon meanwhile.
    systemctl stop plumscaled.socket plumscaled.service
    plumscale setup --check >"$RUNS/setup-check.out" 2>&1
    rc=$?
    systemctl start plumscaled.socket plumscaled.service
    check systemd.setup.check "plumscale setup --check on the file setup wrote: rc=$rc, \
$(tr '\n' ' ' <"$RUNS/setup-check.out" | head -c 400)" test $rc = 0

    # ---- socket activation, READY and STATUS -------------------------------------------------
    # The service stops, and with it the bridge and the web service, which would wake it through
    # the socket as they reconnect: the socket alone listens, as before setup.
    systemctl stop plumscale-mqtt.service plumscale-web.service plumscaled.service
    before=$(systemctl is-active "${units[@]}" | tr '\n' ' ')
    as reader plumscale status >"$RUNS/status.out" 2>&1
    rc=$?
    after=$(systemctl is-active plumscaled.service)
    systemctl start plumscale-mqtt.service plumscale-web.service
    check systemd.socket-activation "${units[*]} stopped but the socket: $before; \
plumscale status as a member of plumscale: rc=$rc, then the service is $after" \
        test "$before|$rc|$after" = "active inactive inactive inactive |0|active"
    until_true 60 bash -c '[[ $(systemctl show -P SubState plumscaled.service) == running &&
        -n $(systemctl show -P StatusText plumscaled.service) ]]'
    check systemd.ready-status "Type=$(prop plumscaled.service Type), SubState=$(prop plumscaled.service SubState), \
StatusText='$(prop plumscaled.service StatusText)'" \
        test "$(prop plumscaled.service SubState)" = running -a -n "$(prop plumscaled.service StatusText)"

    # ---- who may do what --------------------------------------------------------------------------
    as outsider plumscale status >"$RUNS/outsider.out" 2>&1
    rc=$?
    check systemd.permission.outsider "a user in no PlumScale group: rc=$rc, $(tr '\n' ' ' <"$RUNS/outsider.out")" \
        bash -c "[[ $rc != 0 ]] && grep -qi 'permission' '$RUNS/outsider.out'"
    as reader plumscale tare --sensor pan >"$RUNS/reader-tare.out" 2>&1
    rc=$?
    check systemd.permission.reader "a member of plumscale tares: rc=$rc, $(tr '\n' ' ' <"$RUNS/reader-tare.out")" \
        bash -c "[[ $rc != 0 ]] && grep -q 'join the group' '$RUNS/reader-tare.out'"

    # ---- the calibration setup made, kept over a restart -----------------------------------------
    load 0
    as admin plumscale tare --sensor pan --timeout 60 >"$RUNS/admin-tare.out" 2>&1
    rc=$?
    check systemd.permission.admin "a member of plumscale-admin tares the empty pan: rc=$rc, $(tr '\n' ' ' <"$RUNS/admin-tare.out")" \
        test $rc = 0
    load 120
    shows reader 120.0
    shown=$?
    check systemd.calibrate "calibrated by plumscale setup with 0 and 200 g; 120 g then reads: $(last_read)" \
        test "$shown" = 0
    pid=$(prop plumscaled.service MainPID)
    systemctl restart plumscaled.service
    shows reader 120.0
    check systemd.restart-keeps-calibration "systemctl restart (pid $pid -> $(prop plumscaled.service MainPID)): \
$(last_read)(want 120.0 g)" test $? = 0

    # ---- reload re-reads the scale's settings ----------------------------------------------------
    # setup's file leaves the division to the sensor's profile (0.1 g), which wins over [scale];
    # a key in the sensor's own table wins over both (docs/configuration.md, "Layers").
    echo $((ZERO + 120 * PER_GRAM + 3 * PER_GRAM / 10)) >"$P/code_a128" # 120.3 g
    shows reader 120.3
    before=$(last_read)
    pid=$(prop plumscaled.service MainPID)
    sed -i '/^name = "pan"$/a division_grams = 0.5' /etc/plumscale/plumscale.toml
    systemctl reload plumscaled.service
    rc=$?
    until_true 60 shows reader 120.5
    shown=$?
    check systemd.reload "120.3 g at division 0.1: $before; systemctl reload (rc $rc) with division 0.5: $(last_read)\
(want 120.5 g, the same pid $pid: $(prop plumscaled.service MainPID))" \
        test "$rc|$shown|$pid" = "0|0|$(prop plumscaled.service MainPID)"
    sed -i '/^division_grams = 0.5$/d' /etc/plumscale/plumscale.toml
    systemctl reload plumscaled.service
    load 120

    # ---- the watchdog -----------------------------------------------------------------------------
    pid=$(prop plumscaled.service MainPID)
    restarts=$(prop plumscaled.service NRestarts)
    frozen_at=$SECONDS
    kill -STOP "$pid"
    until_true 90 bash -c "p=\$(systemctl show -P MainPID plumscaled.service);
        [[ \$p != 0 && \$p != $pid && \$(systemctl show -P SubState plumscaled.service) == running ]]"
    took=$((SECONDS - frozen_at))
    journalctl -b -u plumscaled.service --no-pager >"$RUNS/plumscaled.journal" 2>&1
    check systemd.watchdog "SIGSTOP to pid $pid: restarted as $(prop plumscaled.service MainPID) after ${took}s \
(WatchdogSec=$(prop plumscaled.service WatchdogUSec)), NRestarts $restarts -> $(prop plumscaled.service NRestarts), \
journal: $(grep -io 'watchdog timeout[^.]*' "$RUNS/plumscaled.journal" | head -n1)" \
        bash -c "[[ $(prop plumscaled.service NRestarts) -gt $restarts ]] && grep -qi 'watchdog timeout' '$RUNS/plumscaled.journal'"

    # ---- the MQTT and web services, as setup set them up -------------------------------------------
    load 0
    timeout 120 mosquitto_sub -h 127.0.0.1 -t 'homeassistant/device/+/config' -C 1 -v >"$RUNS/mqtt-config.out" 2>&1
    timeout 120 mosquitto_sub -h 127.0.0.1 -t 'plumscale/vm/pan/state' -C 1 >"$RUNS/mqtt-state.out" 2>&1
    check systemd.mqtt.running "plumscale-mqtt.service $(systemctl is-active plumscale-mqtt.service) as \
$(ps -o user= -p "$(prop plumscale-mqtt.service MainPID)"): discovery '$(head -c 120 "$RUNS/mqtt-config.out")', \
state '$(head -c 160 "$RUNS/mqtt-state.out")'" \
        bash -c "grep -q plumscale_vm '$RUNS/mqtt-config.out' && grep -q '\"grams\"' '$RUNS/mqtt-state.out'"
    # Its credential (the broker's password) is there for its dynamic user, inside its sandbox: an
    # unreadable one would have stopped the bridge (it reports it rather than falling back).
    mqtt_pid=$(prop plumscale-mqtt.service MainPID)
    mqtt_uid=$(ps -o uid= -p "$mqtt_pid" | tr -d ' ')
    mqtt_seen=$(sandboxed "$mqtt_pid" stat -c '%u %a' /run/credentials/plumscale-mqtt.service/mqtt-password 2>&1)
    sandboxed "$mqtt_pid" cat /run/credentials/plumscale-mqtt.service/mqtt-password >/dev/null 2>&1
    mqtt_read=$?
    check systemd.mqtt.credential "as uid $mqtt_uid in its sandbox, mqtt-password's owner and mode: $mqtt_seen, \
cat rc=$mqtt_read (want $mqtt_uid 400, 0)" test "$mqtt_seen|$mqtt_read" = "$mqtt_uid 400|0"
    # One subscriber for the answers and a probe: once the probe comes back it is in place.
    results="$RUNS/mqtt-results.out"
    timeout 240 mosquitto_sub -h 127.0.0.1 -t plumscale/vm/pan/result -t plum-test/probe -v >"$results" 2>&1 &
    sub=$!
    until_true 60 bash -c "mosquitto_pub -h 127.0.0.1 -t plum-test/probe -m here && grep -q '^plum-test/probe' '$results'"
    # mqtt_tare: one press of Home Assistant's button; true when its answer is ok (a pan that is
    # still moving is refused, and pressed again).
    mqtt_tare() {
        local answers
        answers=$(grep -c '^plumscale/vm/pan/result' "$results")
        mosquitto_pub -h 127.0.0.1 -t plumscale/vm/pan/tare/set -m PRESS || return 1
        until_true 30 bash -c "[[ \$(grep -c '^plumscale/vm/pan/result' '$results') -gt $answers ]]" &&
            grep '^plumscale/vm/pan/result' "$results" | tail -n1 | grep -q '"ok":true'
    }
    until_true 120 mqtt_tare
    kill "$sub" 2>/dev/null
    grep '^plumscale/vm/pan/result' "$results" >"$RUNS/mqtt-result.out"
    check systemd.mqtt.tare "Home Assistant's tare button through the bridge's dynamic user in plumscale-admin: \
$(cat "$RUNS/mqtt-result.out")" grep -q '"ok":true' "$RUNS/mqtt-result.out"
    until_true 120 bash -c "curl -sf http://127.0.0.1:8385/api/poll >'$RUNS/web-poll.out'"
    curl -sf http://127.0.0.1:8385/metrics >"$RUNS/web-metrics.out"
    check systemd.web.running "plumscale-web.service $(systemctl is-active plumscale-web.service) as \
$(ps -o user= -p "$(prop plumscale-web.service MainPID)"): /api/poll '$(head -c 160 "$RUNS/web-poll.out")', \
/metrics $(grep -c '^plumscale_' "$RUNS/web-metrics.out") plumscale_ samples" \
        bash -c "grep -q '\"pan\"' '$RUNS/web-poll.out' && grep -q '^plumscale_' '$RUNS/web-metrics.out'"
    curl -s -o "$RUNS/web-login.out" -w '%{http_code}' -H 'Origin: http://127.0.0.1:8385' \
        -H 'Content-Type: application/json' --data '{"password":"plum-test-password"}' \
        http://127.0.0.1:8385/api/login >"$RUNS/web-login.code" 2>&1
    web_pid=$(prop plumscale-web.service MainPID)
    credentials_seen=$(tr '\0' '\n' <"/proc/$web_pid/environ" | grep '^CREDENTIALS_DIRECTORY=';
        sandboxed "$web_pid" ls -ln /run/credentials/plumscale-web.service 2>&1 | tr '\n' ' ')
    check systemd.web.credential "login with the password in the credential web-password: \
HTTP $(cat "$RUNS/web-login.code") $(head -c 300 "$RUNS/web-login.out"); the service sees: $credentials_seen" \
        grep -qx 200 "$RUNS/web-login.code"
    load 120

    # ---- the display: plumscale-display on a simulated SSD1306 (display.sh) -----------------------
    display_phase1

    # ---- the sandboxes are in force ------------------------------------------------------------
    mkdir -p /home/pi && echo "notes of the grower" >/home/pi/notes.txt && chmod 0644 /home/pi/notes.txt
    # walled_off SEEN HOME SHADOW: the file was readable outside, and neither it nor /etc/shadow inside.
    walled_off() { [[ $1 == "notes of the grower" && $2 == *'ermission denied'* && $3 == *'ermission denied'* ]]; }
    for unit in plumscaled plumscale-mqtt plumscale-web plumscale-display; do
        pid=$(prop "$unit.service" MainPID)
        seen=$(outside "$pid" cat /home/pi/notes.txt 2>&1)
        home=$(sandboxed "$pid" cat /home/pi/notes.txt 2>&1)
        shadow=$(sandboxed "$pid" head -c 1 /etc/shadow 2>&1)
        check "systemd.sandbox.$unit.files" "as uid $(ps -o uid= -p "$pid" | tr -d ' '): /home/pi/notes.txt \
outside the unit: '$seen'; inside: '$home'; /etc/shadow inside: '$shadow'" walled_off "$seen" "$home" "$shadow"
    done
    pid=$(prop plumscaled.service MainPID)
    links=$(nsenter -t "$pid" -n ip -o link | awk -F': ' '{print $2}' | tr '\n' ' ')
    check systemd.sandbox.plumscaled.network "network interfaces plumscaled sees: $links(want only lo)" \
        test "$links" = "lo "

    # ---- the system call filters, for a minute of everything --------------------------------------
    # With SystemCallErrorNumber=EPERM a refused call fails quietly; for this run a drop-in makes
    # every refused call kill the process (SIGSYS), so one would show as a crash and a restart.
    for unit in plumscaled plumscale-mqtt plumscale-web plumscale-display; do
        mkdir -p "/run/systemd/system/$unit.service.d"
        printf '[Service]\nSystemCallErrorNumber=kill\n' >"/run/systemd/system/$unit.service.d/50-kill.conf"
    done
    systemctl daemon-reload
    # systemd starts no socket whose service is already running ("already active, refusing"), so
    # the daemon stops first, and with it the bridge and the web service: either reconnects at
    # once and would start the daemon through plumscaled.socket before the MT-SICS socket is up.
    # So would the display.
    systemctl stop plumscale-mqtt.service plumscale-web.service plumscale-display.service plumscaled.service
    systemctl enable --now plumscaled-mtsics.socket
    systemctl start plumscaled.service plumscale-mqtt.service plumscale-web.service plumscale-display.service
    declare -A run_pid
    for unit in plumscaled plumscale-mqtt plumscale-web plumscale-display; do
        run_pid[$unit]=$(prop "$unit.service" MainPID)
    done
    until_true 60 test -S /run/plumscale/mtsics.sock
    check systemd.syscalls.mtsics-socket "plumscaled-mtsics.socket $(systemctl is-active plumscaled-mtsics.socket), \
/run/plumscale/mtsics.sock $(stat -c '%F' /run/plumscale/mtsics.sock 2>&1)" test -S /run/plumscale/mtsics.sock
    python3 - >"$RUNS/syscalls-clients.out" 2>&1 <<'PY' &
import json, socket, time
def connect(path):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
    except OSError as error:
        raise SystemExit(f"connect {path}: {error}")
    return s
end = time.monotonic() + 60
watch = connect("/run/plumscale/plumscale.sock")
watch.sendall(b'?WATCH={"enable":true,"raw":true};\n'); watch.settimeout(5)
frames = connect("/run/plumscale/plumscale.sock")
frames.sendall(b'?WATCH={"enable":true,"binary":true};\n'); frames.settimeout(5)
balance = connect("/run/plumscale/mtsics.sock"); balance.settimeout(30)
reports = frame_bytes = answers = 0
while time.monotonic() < end:
    reports += watch.recv(65536).count(b"\n")
    frame_bytes += len(frames.recv(65536))
    balance.sendall(b"SI\r\n"); answers += balance.recv(4096).count(b"\r\n")
    time.sleep(0.5)
print(json.dumps({"reports": reports, "binary_bytes": frame_bytes, "mtsics_answers": answers}))
PY
    clients=$!
    t0=$SECONDS
    while ((SECONDS - t0 < 60)); do
        as reader plumscale read --sensor pan >/dev/null 2>&1
        as reader plumscale status >/dev/null 2>&1
        as admin plumscale zero --sensor pan --timeout 5 >/dev/null 2>&1
        curl -sf http://127.0.0.1:8385/api/poll >/dev/null
        systemctl reload plumscaled.service
        sleep 5
    done
    wait "$clients"
    for unit in plumscaled plumscale-mqtt plumscale-web plumscale-display; do
        journalctl -b -u "$unit.service" --no-pager >"$RUNS/$unit.journal" 2>&1
        now=$(prop "$unit.service" MainPID)
        check "systemd.syscalls.$unit" "60 s of clients with SystemCallErrorNumber=kill: pid ${run_pid[$unit]} -> $now, \
$(systemctl is-active "$unit.service"); clients: $(tail -n1 "$RUNS/syscalls-clients.out"); \
$(grep -c 'status=31/SYS' "$RUNS/$unit.journal") SIGSYS in the journal" \
            bash -c "[[ $now == ${run_pid[$unit]} ]] && ! grep -q 'status=31/SYS' '$RUNS/$unit.journal' &&
                grep -qE '\"reports\": [1-9].*\"binary_bytes\": [1-9].*\"mtsics_answers\": [1-9]' '$RUNS/syscalls-clients.out'"
    done
    rm -rf /run/systemd/system/plumscaled.service.d /run/systemd/system/plumscale-*.service.d
    systemctl daemon-reload
    systemctl disable --now plumscaled-mtsics.socket
    display_journal_clean systemd.display.journal

    echo 2 >"$STATE/phase"
    sync
    progress phase1-done
    systemctl reboot --no-block
    exit 0
fi

# ---- phase 2: after the reboot ------------------------------------------------------------------
load 120
active="$(systemctl is-active plumscaled.socket) $(systemctl is-active plumscaled.service)"
shows reader 120.0
check systemd.reboot-keeps-calibration "after a reboot: socket/service $active; 120 g reads: $(last_read)(want 120.0 g)" \
    test $? = 0
# Enabled by their packages, the bridge and the web service come up at boot by themselves.
until_true 60 systemctl --quiet is-active plumscale-mqtt.service plumscale-web.service
services="$(systemctl is-active plumscale-mqtt.service) $(systemctl is-active plumscale-web.service)"
check systemd.reboot-services "after a reboot: plumscale-mqtt and plumscale-web $services (want active active)" \
    test "$services" = "active active"
# Enabled by hand in phase 1, as setup would: up at boot, drawing the weight, not the away screen.
until_true 60 systemctl --quiet is-active plumscale-display.service
display_settled_into "$RUNS/display-reboot.pbm" "$STATE/display-away.pbm"
drew=$?
check systemd.display.reboot "after a reboot: plumscale-display $(systemctl is-active plumscale-display.service) \
($(systemctl is-enabled plumscale-display.service)), a frame that is not the away screen: $drew (want 0), \
$(display_lit "$RUNS/display-reboot.pbm") pixels lit" \
    test "$(systemctl is-active plumscale-display.service)|$drew" = "active|0"

# ---- upgrade to the next version: nothing lost, the services restarted, no question asked ------
# A 30 g container on the pan, tared: the pan reads 0.0 g, and the daemon saves zero and tare.
# A restart keeps the tare only while the container is still on (docs/engine.md), so it stays on
# over the upgrade; a lost tare would read 30.0 g, a lost calibration neither.
CUP=30
load $CUP
until_true 120 bash -c "runuser -u admin -- plumscale tare --sensor pan --timeout 30 >'$RUNS/upgrade-tare.out' 2>&1"
rc=$?
shows reader 0.0
shown=$?
check systemd.upgrade.tared "before the upgrade: tare with a ${CUP} g container on (rc=$rc), then it reads: $(last_read)\
(want 0.0 g)" test "$rc|$shown" = "0|0"
# sums FILE...: the files' contents, to compare before and after.
sums() { sha256sum "$@" 2>&1 | awk '{print $1}' | tr '\n' ' '; }
kept_files=(/etc/plumscale/plumscale.toml /etc/plumscale/credentials/web-password
    /etc/plumscale/credentials/mqtt-password)
sums_before=$(sums "${kept_files[@]}")
state_before=$(ls /var/lib/plumscale | tr '\n' ' ')
history_before=$(stat -c %s /var/lib/plumscale-web/history.sqlite 2>&1)
declare -A pid_before
for unit in plumscaled plumscale-mqtt plumscale-web plumscale-display; do pid_before[$unit]=$(prop "$unit.service" MainPID); done
dpkg_log_lines=$(wc -l </var/log/dpkg.log)
# No --force-conf* option: a conffile question would read end-of-file from /dev/null, and fail.
DEBIAN_FRONTEND=noninteractive apt-get install -y "$PLUMSCALE_NEXT_DEBS"/plumscale*.deb </dev/null \
    >"$RUNS/apt-upgrade.out" 2>&1
rc=$?
installed=$(installed_versions)
check systemd.upgrade.install "apt-get install ./plumscale*.deb of $PLUMSCALE_NEXT_VERSION over $PLUMSCALE_VERSION: \
rc=$rc, installed: $installed" test "$rc|$installed" = "0|$(want_versions "$PLUMSCALE_NEXT_VERSION")"
tail -n +"$((dpkg_log_lines + 1))" /var/log/dpkg.log >"$RUNS/dpkg-upgrade.log"
asked=$(grep -E ' conffile ' "$RUNS/dpkg-upgrade.log"; grep -E "^Configuration file '" "$RUNS/apt-upgrade.out")
check systemd.upgrade.no-questions "dpkg.log of the upgrade: $(grep -c ' upgrade ' "$RUNS/dpkg-upgrade.log") upgrades, \
conffile decisions (made only by asking): '$(tr '\n' ' ' <<<"$asked")' (want none)" test -z "$asked"
restarted=""
for unit in plumscaled plumscale-mqtt plumscale-web; do
    until_true 60 bash -c "[[ \$(systemctl show -P SubState $unit.service) == running ]]"
    restarted+="$unit ${pid_before[$unit]} -> $(prop "$unit.service" MainPID) $(systemctl is-active "$unit.service"); "
done
check systemd.upgrade.restarted "each service runs the new program: $restarted" \
    bash -c "for unit in plumscaled plumscale-mqtt plumscale-web; do
        now=\$(systemctl show -P MainPID \$unit.service)
        [[ \$now != 0 && \$(systemctl is-active \$unit.service) == active ]] || exit 1
    done
    [[ \$(systemctl show -P MainPID plumscaled.service) != ${pid_before[plumscaled]} &&
        \$(systemctl show -P MainPID plumscale-mqtt.service) != ${pid_before[plumscale-mqtt]} &&
        \$(systemctl show -P MainPID plumscale-web.service) != ${pid_before[plumscale-web]} ]]"
# The display, enabled by setup and not by the package, runs the new program too (plumscale's
# postinst: try-restart).
until_true 60 bash -c "[[ \$(systemctl show -P SubState plumscale-display.service) == running ]]"
check systemd.display.upgrade "plumscale-display after the upgrade: pid ${pid_before[plumscale-display]} -> \
$(prop plumscale-display.service MainPID), $(systemctl is-active plumscale-display.service), \
$(systemctl is-enabled plumscale-display.service)" \
    bash -c "[[ \$(systemctl is-active plumscale-display.service) == active &&
        \$(systemctl is-enabled plumscale-display.service) == enabled &&
        \$(systemctl show -P MainPID plumscale-display.service) != ${pid_before[plumscale-display]} ]]"
shows reader 0.0
tare_kept=$?
tare_read=$(last_read)
# The bridge's next state, not a retained one (-R): it publishes when the fruit goes on. The
# subscriber is in place once its probe comes back.
mqtt_out="$RUNS/upgrade-mqtt.out"
timeout 240 mosquitto_sub -R -h 127.0.0.1 -t plumscale/vm/pan/state -t plum-test/probe -v >"$mqtt_out" 2>&1 &
mqtt_sub=$!
until_true 60 bash -c "mosquitto_pub -h 127.0.0.1 -t plum-test/probe -m here && grep -q '^plum-test/probe' '$mqtt_out'"
load $((CUP + 120))
shows reader 120.0
calibration_kept=$?
check systemd.upgrade.state-kept "after the upgrade, the container alone reads: $tare_read(want 0.0 g: tare kept); \
with 120 g of fruit: $(last_read)(want 120.0 g: calibration kept); /var/lib/plumscale: \
$(ls /var/lib/plumscale | tr '\n' ' ')(was: $state_before)" \
    test "$tare_kept|$calibration_kept|$(ls /var/lib/plumscale | tr '\n' ' ')" = "0|0|$state_before"
sums_after=$(sums "${kept_files[@]}")
check systemd.upgrade.files-kept "plumscale.toml (edited), web-password, mqtt-password: sha256 \
$( [[ $sums_after == "$sums_before" ]] && echo unchanged || echo "$sums_before -> $sums_after"); \
history.sqlite $history_before -> $(stat -c %s /var/lib/plumscale-web/history.sqlite 2>&1) bytes" \
    bash -c "[[ '$sums_after' == '$sums_before' ]] && [[ -s /var/lib/plumscale-web/history.sqlite ]]"
until_true 60 bash -c "curl -s -o '$RUNS/upgrade-login.out' -w '%{http_code}' -H 'Origin: http://127.0.0.1:8385' \
    -H 'Content-Type: application/json' --data '{\"password\":\"plum-test-password\"}' \
    http://127.0.0.1:8385/api/login >'$RUNS/upgrade-login.code' 2>&1 && grep -qx 200 '$RUNS/upgrade-login.code'"
until_true 120 grep -q '^plumscale/vm/pan/state .*"grams"' "$mqtt_out"
kill "$mqtt_sub" 2>/dev/null
check systemd.upgrade.services "the web page logs in with the kept password: HTTP $(cat "$RUNS/upgrade-login.code"); \
the bridge publishes again: '$(grep -m1 '^plumscale/vm/pan/state' "$mqtt_out" | head -c 160)'" \
    bash -c "grep -qx 200 '$RUNS/upgrade-login.code' && grep -q '^plumscale/vm/pan/state .*\"grams\"' '$mqtt_out'"

# ---- downgrade back: the older version installs over the newer one ------------------------------
load $CUP
DEBIAN_FRONTEND=noninteractive apt-get install -y --allow-downgrades "$PLUMSCALE_DEBS"/plumscale*.deb </dev/null \
    >"$RUNS/apt-downgrade.out" 2>&1
rc=$?
installed=$(installed_versions)
for unit in plumscaled plumscale-mqtt plumscale-web; do
    until_true 60 bash -c "[[ \$(systemctl show -P SubState $unit.service) == running ]]"
done
shows reader 0.0
tare_kept=$?
services=$(systemctl is-active plumscaled.service plumscale-mqtt.service plumscale-web.service | tr '\n' ' ')
check systemd.downgrade "apt-get install --allow-downgrades of $PLUMSCALE_VERSION: rc=$rc, installed: $installed; \
services: $services; the container reads: $(last_read)(want 0.0 g); files $( [[ $(sums "${kept_files[@]}") == \
"$sums_before" ]] && echo unchanged || echo changed)" \
    test "$rc|$installed|$services|$tare_kept|$(sums "${kept_files[@]}")" = \
    "0|$(want_versions "$PLUMSCALE_VERSION")|active active active |0|$sums_before"

# ---- remove and purge the three -------------------------------------------------------------------
load 120
saved=$(ls /var/lib/plumscale)
apt-get remove -y "${PACKAGES[@]}" </dev/null >"$RUNS/apt-remove.out" 2>&1
rc=$?
left="$(ls /var/lib/plumscale 2>&1 | tr '\n' ' ')"
# (a process's name is cut at 15 characters: plumscale-display's is found by its program)
running=$( (pgrep -x 'plumscaled|plumscale-mqtt|plumscale-web'; pgrep -f '^/usr/bin/plumscale-display') | tr '\n' ' ')
programs=$(ls /usr/sbin/plumscaled /usr/bin/plumscale /usr/bin/plumscale-mqtt /usr/bin/plumscale-web \
    /usr/bin/plumscale-display 2>/dev/null | tr '\n' ' ')
units=$(systemctl list-unit-files 'plumscale*' --no-legend | awk '{print $1}' | tr '\n' ' ')
kept_paths=(/etc/plumscale/plumscale.toml /etc/plumscale/credentials/web-password
    /etc/plumscale/credentials/mqtt-password /var/lib/plumscale-web/history.sqlite)
kept=$(ls "${kept_paths[@]}" 2>&1 | tr '\n' ' ')
ls "${kept_paths[@]}" >/dev/null 2>&1
all_kept=$?
check systemd.remove "apt-get remove ${PACKAGES[*]}: rc=$rc; running: '$running', programs: '$programs', \
unit files: '$units' (want none of the three); /var/lib/plumscale: $left(was: $(echo $saved)); kept: $kept" \
    bash -c "[[ $rc == 0 && $all_kept == 0 && -z '$running' && -z '$programs' && -z '$units' &&
        '$left' == '$(echo $saved) ' ]]"
apt-get purge -y "${PACKAGES[@]}" </dev/null >"$RUNS/apt-purge.out" 2>&1
rc=$?
# The display's link, made by `systemctl enable` (setup's way) and not by the package, goes too.
present=$(ls -d /var/lib/plumscale /var/lib/plumscale-web /etc/plumscale /run/plumscale /run/plumscale-display \
    /etc/systemd/system/multi-user.target.wants/plumscale-display.service 2>/dev/null | tr '\n' ' ')
check systemd.purge "apt-get purge ${PACKAGES[*]}: rc=$rc; left of /var/lib/plumscale, /var/lib/plumscale-web, \
/etc/plumscale, /run/plumscale, /run/plumscale-display, the display's enable link: '$present' (want none); dpkg knows: $(dpkg-query -W "${PACKAGES[@]}" 2>&1 | tr '\n' ' ')" \
    bash -c "[[ $rc == 0 && -z '$present' ]] && ! dpkg-query -W ${PACKAGES[*]} >/dev/null 2>&1"
journalctl -b --no-pager >"$RUNS/journal-phase2.txt" 2>&1
dmesg >"$PLUM_OUT/dmesg.txt"
progress phase2-done
systemctl poweroff --no-block
