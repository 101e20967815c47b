# Sourced by Tests/kernel/systemd/guest.sh: the record of a new owner's first hour, from
# `apt install` to a stable weight in Home Assistant's state and on the page in a browser.
# Expects R, RUNS and PLUM_OUT (guest.sh), and the check/pass/fail functions (guest-lib.sh).
#
# Each step's wall time goes into $PLUM_OUT/first-hour.txt as "step SECONDS detail" and into
# the suite's output as a PASS line, so a run's figures can be read off its log (docs/first-hour.md
# keeps a measured run's).
FIRST_HOUR="$PLUM_OUT/first-hour.txt"
HERE_FIRST_HOUR=$(dirname "${BASH_SOURCE[0]}")
# The owner's commands, counted as they are run: apt install, plumscale setup, open the URL.
first_hour_commands=0

# now: the wall clock, to the microsecond, for step times.
now() { echo "$EPOCHREALTIME"; }
# elapsed START [END]: seconds from START to END (default now), one decimal.
elapsed() { awk -v s="$1" -v e="${2:-$EPOCHREALTIME}" 'BEGIN {printf "%.1f", e - s}'; }
# typed: one more command the owner typed.
typed() { first_hour_commands=$((first_hour_commands + 1)); }
# step NAME SECONDS DETAIL: records a step that was done in SECONDS; a PASS line with its figure.
step() {
    echo "$1 $2 $3" >>"$FIRST_HOUR"
    pass "systemd.first-hour.$1" "$2 s: $3"
}

# weight_in_home_assistant GRAMS: within a deadline the pan's weight entity, as Home Assistant
# reads it from the bridge's discovery, state and availability topics, is a stable GRAMS.
# Records the step "weight-in-ha" from when the load went on (LOAD_AT).
weight_in_home_assistant() {
    timeout 180 python3 "$HERE_FIRST_HOUR/ha_weight.py" vm pan "$1" --deadline 120 >"$RUNS/ha-weight.out" 2>&1
    local rc=$? seconds
    seconds=$(elapsed "$LOAD_AT")
    check systemd.ha.weight "$1 g on the pan: Home Assistant's weight entity (discovery's state topic and \
template, every availability online) after ${seconds}s: $(head -c 400 "$RUNS/ha-weight.out")" test $rc = 0
    [[ $rc != 0 ]] || step weight-in-ha "$seconds" "from $1 g placed to Home Assistant's entity stable at $1 g"
}

# weight_in_browser URL GRAMS PASSWORD: the owner opens URL in Chromium (headless, in the VM):
# the pan's card shows GRAMS, and the page's password logs in. Records "weight-in-browser" from
# the URL's opening.
weight_in_browser() {
    local opened=$EPOCHREALTIME rc seconds
    typed # the owner opens the URL setup printed
    # Chromium's start and the login's bcrypt take minutes under TCG (4.5 in a run on a busy
    # host); the outer timeout bounds a browser that never starts.
    timeout 720 python3 "$HERE_FIRST_HOUR/page_weight.py" "$1" pan "$2 g" "$3" --deadline 600 \
        >"$RUNS/page-weight.out" 2>"$RUNS/page-weight.err"
    rc=$?
    seconds=$(elapsed "$opened")
    check systemd.web.browser "Chromium opens ${1:-no URL} and shows the pan at $2 g, then logs in with \
the page's password: rc=$rc after ${seconds}s: $(head -c 300 "$RUNS/page-weight.out") \
$(tail -n 2 "$RUNS/page-weight.err" | tr '\n' ' ' | head -c 300)" test $rc = 0
    [[ $rc != 0 ]] || step weight-in-browser "$seconds" "from opening the URL in Chromium (its start included) to $2 g \
on the page and logged in"
}

# stamp: each line of standard input with the wall clock it arrived at, "SECONDS.MICROS line".
stamp() { while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done; }
# stamped_at PATTERN: the wall clock of the first line of the setup's output matching PATTERN.
stamped_at() { grep -m1 -E "^[0-9.]+ ($1)" "$RUNS/setup.out" | cut -d' ' -f1; }

# first_hour_setup: the owner's second command, `sudo plumscale setup`, with every answer from
# a file the test writes (the scripted owner): the emulated HX711, the broker and the page.
# Checks that it ran, and records its steps' wall times from the times its lines were printed.
# The calibration is setup's own: the owner places the 200 g when it asks.
first_hour_setup() {
    local answers=/root/setup-answers.toml rc
    # The owner's two passwords, in plain text files of root's: setup puts the broker's into its
    # credential and only the page's hash into the page's.
    (umask 077 && echo plum-test-password >/root/web-password.txt &&
        echo plum-test-broker-secret >/root/mqtt-password.txt)
    cat >"$answers" <<'TOML'
# The package's example configuration is in place: the owner says yes to replacing it.
overwrite = true

# The HX711 on the emulated chip (hx711_sim.ko), at 10 SPS. QEMU's TCG clocks its SCK hundreds
# of times slower than a Pi, so the driver's limits are raised for this emulated bus
# (Tests/kernel/configs/hx711.toml says why), or every sample is discarded; and the sampler keeps
# its pace among the suite's clients with a real-time priority and locked memory (which also
# keep sched_setscheduler and mlockall in the system call check). On a Pi none of the four is
# needed.
[[sensor]]
name = "pan"
kind = "hx711"
chip = "hx711-sim"
dout = "DOUT"
sck = "SCK"
rate = 10
ready_timeout_ms = 1000
clock_high_limit_us = 10000
realtime_priority = 10
lock_memory = true

# The empty pan, then 200 g, placed when setup asks.
[[calibration]]
sensor = "pan"
points = [0, 200]
wait = 240

[groups]
socket_group = "plumscale"
admin_group = "plumscale-admin"

# The VM's mosquitto checks no passwords; the bridge sends this user and the password.
[mqtt]
enable = true
host = "127.0.0.1"
username = "plum-test"
password_file = "/root/mqtt-password.txt"
scale_id = "vm"

[web]
enable = true
listen = "127.0.0.1:8385"
password_file = "/root/web-password.txt"
TOML
    typed # sudo plumscale setup
    local started=$EPOCHREALTIME setup_pid
    { plumscale setup --answers "$answers" </dev/null 2>&1; echo "exit $?"; } | stamp >"$RUNS/setup.out" &
    setup_pid=$!
    # The 200 g goes on when setup asks for it (the calibration's progress lines are unbuffered).
    until_true 600 bash -c "grep -q 'calibrate pan: place 200 g' '$RUNS/setup.out' || ! kill -0 $setup_pid"
    load 200
    wait "$setup_pid"
    load 0
    rc=$(sed -n 's/^[0-9.]* exit //p' "$RUNS/setup.out")
    local probed written calibrated done_at
    probed=$(stamped_at 'probe: .*GPIO header chip') # the summary, once the HX711 was watched
    written=$(stamped_at 'daemon: answering')
    calibrated=$(stamped_at 'calibrate pan: saved')
    done_at=$(stamped_at 'done$')
    check systemd.setup "plumscale setup --answers (the owner's answers in a file): rc=${rc:-none} in \
$(elapsed "$started")s; $(cut -d' ' -f2- "$RUNS/setup.out" | grep -vE '^[-+@ ]' | tr '\n' '|' | head -c 1500)" \
        test "${rc:-x}|${probed:+p}${written:+w}${calibrated:+c}${done_at:+d}" = "0|pwcd"
    [[ "${rc:-x}|${probed:+p}${written:+w}${calibrated:+c}${done_at:+d}" == "0|pwcd" ]] || return 1
    step setup.probe "$(elapsed "$started" "$probed")" "the hardware probed: GPIO chips, I2C buses, the HX711 watched"
    step setup.configuration "$(elapsed "$probed" "$written")" "plumscale.toml written and checked, plumscaled \
restarted on it and answering"
    step calibration "$(elapsed "$written" "$calibrated")" "by setup: the empty pan, then 200 g placed when asked, \
settled and saved"
    step setup.services "$(elapsed "$calibrated" "$done_at")" "the two passwords into their credentials, [mqtt] \
and [web] written, plumscale-mqtt and plumscale-web enabled and started"
    check systemd.setup.calibrate "plumscale setup calibrated the pan with the answers' points 0 and 200: \
$(grep -E 'calibrate pan' "$RUNS/setup.out" | cut -d' ' -f2- | tr '\n' '|' | tail -c 300)" test -n "$calibrated"
    # The prompts: what the owner was asked to answer or to do. From the answers file setup asks
    # no question; what remains are the calibration's steps, the empty pan and the weight.
    first_hour_prompts=$(cat "$RUNS/setup.out" |
        grep -cE ': place [0-9.]+ g|empty pan|\[y/N\]|\[Y/n\]|\?$')
    return 0
}

# first_hour_summary: the figures of the whole first hour in one line, from the record.
first_hour_summary() {
    local total
    total=$(awk 'NF >= 3 {sum += $2} END {printf "%.1f", sum}' "$FIRST_HOUR")
    echo "commands $first_hour_commands" >>"$FIRST_HOUR"
    echo "prompts ${first_hour_prompts:-0}" >>"$FIRST_HOUR"
    local steps
    steps=$(awk 'NF >= 3 {printf "%s %s s; ", $1, $2}' "$FIRST_HOUR")
    pass systemd.first-hour "$total s in all, $first_hour_commands commands typed (apt install, plumscale setup, \
open the URL), ${first_hour_prompts:-0} prompts: $steps"
}
