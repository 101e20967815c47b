#!/bin/bash
# Runs inside the test VM, chrooted into the host's tree (read-only), as root.
# Loads the modules, runs the harness's own checks of the kernel side, then runs the
# project's binaries and saves what they printed for check.py to judge on the host.
#
# Results: $PLUM_OUT/results.txt gets "PASS|FAIL|SKIP name: detail" lines; each project run
# leaves runs/NAME.{out,err,rc,before,after}. progress.txt marks how far the guest got.
set -uo pipefail
# shellcheck source=/dev/null
source "$PLUM_OUT/env.sh"
R="$PLUM_OUT/results.txt"
RUNS="$PLUM_OUT/runs"
CONF="$PLUM_REPO/Tests/kernel/configs"
P=/sys/module/hx711_sim/parameters
mkdir -p "$RUNS"
: >>"$R"

# shellcheck source=Tests/kernel/guest-lib.sh
source "$PLUM_REPO/Tests/kernel/guest-lib.sh"
setp() { echo "$2" >"$P/$1"; }
getp() { cat "$P/$1"; }
hx_stats=(conversions overwritten lost_busy readouts aborted bad_pulses power_downs edges sck_high_min_ns sck_high_max_ns sck_highs stalls readout_ns_max)
clear_stats() { local s; for s in "${hx_stats[@]}"; do setp "$s" 0; done; setp ready_log 0; }
dump_stats() { local s; for s in "${hx_stats[@]}" last_pulses gain rate_hz pd_threshold_us present code_a128 code_b32 code_a64 code_toggle stall_low_us stall_every; do echo "$s=$(getp "$s")"; done; echo "ready_log=$(getp ready_log)"; }
modp() { modprobe -d "$MODROOT" -S "$KERNEL_ABI" "$@"; }

progress guest-start
echo "guest: kernel $(uname -r), $(nproc) CPUs"

# ---- modules ----------------------------------------------------------------------------
modules_ok=1
for m in "i2c-stub chip_addr=0x48,0x49,0x3c" i2c-dev industrialio kfifo_buf industrialio-triggered-buffer ti-ads1015; do
    # shellcheck disable=SC2086
    modp $m || { modules_ok=0; echo "guest: modprobe $m failed"; }
done
# Under TCG an SCK high period is usually 0.1-2 ms, with stalls past 15 ms when the host is
# busy: the emulated chip's power-down threshold is raised from 60 us to 15 ms. It converts at
# 10 Hz: a read-out under TCG can outlast the 12.5 ms period of 80 Hz, and the chip then
# replaces the word being clocked out (configs/hx711.toml).
PD_US=15000   # between the configs' 10 ms clock-high limit and the driver's 20 ms reset hold
insmod "$HX711_KO" rate_hz=10 pd_threshold_us=$PD_US settle_periods=1 ||
    { modules_ok=0; echo "guest: insmod hx711_sim.ko failed"; }
check kernel.modules "i2c-stub, i2c-dev, ti-ads1015 (Debian's), hx711_sim (built here) loaded" test $modules_ok = 1
dmesg | grep -iE 'hx711|i2c-stub|ads1015|taint' | sed 's/^/guest: dmesg: /' | head -n 10

# ---- GPIO: the chip as libgpiod's tools see it ------------------------------------------
chip=$(gpiodetect 2>/dev/null | awk '/\[hx711-sim\]/ {print $1; exit}')
if [[ -n $chip ]]; then
    pass gpio.chip-visible "gpiodetect: $(gpiodetect | grep hx711-sim)"
    info=$(gpioinfo "$chip")
    if grep -qE 'line +0: +"SCK" .*output' <<<"$info" && grep -qE 'line +1: +"DOUT" .*input' <<<"$info"; then
        pass gpio.line-names "gpioinfo: SCK output, DOUT input"
    else
        fail gpio.line-names "$(tr '\n' ' ' <<<"$info")"
    fi
else
    fail gpio.chip-visible "gpiodetect lists no hx711-sim: $(gpiodetect 2>&1 | tr '\n' ' ')"
fi
dev="/dev/$chip"

if [[ -n $chip ]]; then
    # gpiomon (libgpiod 1.6: the v1 line-event uAPI) sees the DOUT falling edge of a conversion.
    setp present 0; sleep 0.1
    timeout 10 gpiomon --num-events=1 --falling-edge --format='%e %s.%n' "$chip" 1 >"$RUNS/gpiomon.txt" 2>&1 &
    sleep 1; setp present 1; wait
    mon=$(cat "$RUNS/gpiomon.txt")
    check gpio.gpiomon-edge "gpiomon got: $mon" grep -qE '^0 [0-9]+\.[0-9]+$' <<<"$mon"

    # ---- the emulated HX711, read by the harness's own probe (GPIO v2 uAPI) -------------
    # match_stamps FILE...: how many of the probes' non-zero edge_ns lie inside a window the
    # chip logged around raising a ready edge; sets matched and total.
    matched=0; total=0; unmatched=""
    match_stamps() {
        local log t l hit
        log=$(getp ready_log)
        for t in $(cat "$@" | awk '/^reading/ {sub("edge_ns=","",$3); if ($3 != "0") print $3}'); do
            total=$((total + 1)); hit=0
            for l in $log; do
                if ((t >= ${l%:*} && t <= ${l#*:})); then hit=1; break; fi
            done
            if ((hit)); then matched=$((matched + 1)); else unmatched+="$t "; fi
        done
        [[ -z $unmatched ]] || echo "guest: unmatched edge stamps $unmatched; log: $log"
    }
    setp code_a128 1234567; setp code_b32 -765432; setp code_a64 -1
    # The chip converts at 10 Hz whether read or not, so the word waiting now may predate the new
    # codes: wait (5 s at most) for a conversion made after them before the probe reads.
    converted=$(getp conversions)
    for _ in $(seq 100); do (( $(getp conversions) > converted )) && break; sleep 0.05; done
    clear_stats
    "$HX711_PROBE" "$dev" -n 3 -p 25 >"$RUNS/probe-a128.txt" 2>&1
    match_stamps "$RUNS/probe-a128.txt"; setp ready_log 0
    vals=$(awk '/^reading/ {sub("value=","",$2); printf "%s ", $2}' "$RUNS/probe-a128.txt")
    check hx.state-machine-a128 "values: $vals(want 1234567 x3)" test "$vals" = "1234567 1234567 1234567 "

    # 26 pulses select channel B gain 32 for the NEXT conversion; 27 select A gain 64.
    "$HX711_PROBE" "$dev" -n 3 -p 26 >"$RUNS/probe-b32.txt" 2>&1
    match_stamps "$RUNS/probe-b32.txt"; setp ready_log 0
    "$HX711_PROBE" "$dev" -n 2 -p 27 >"$RUNS/probe-a64.txt" 2>&1
    match_stamps "$RUNS/probe-a64.txt"; setp ready_log 0
    vals=$(cat "$RUNS/probe-b32.txt" "$RUNS/probe-a64.txt" | awk '/^reading/ {sub("value=","",$2); printf "%s ", $2}')
    check hx.gain-select-negative "values: $vals(want 1234567 -765432 -765432 -765432 -1)" \
        test "$vals" = "1234567 -765432 -765432 -765432 -1 "
    echo "guest: SCK high as the chip saw it: min $(getp sck_high_min_ns) ns, max $(getp sck_high_max_ns) ns over $(getp sck_highs) pulses"

    # Edge timestamps of the kernel's events are the emulated chip's ready times.
    check hx.edge-timestamps "$matched of $total edge event timestamps fall inside the chip's raise-the-edge windows" \
        test "$total" -gt 0 -a "$matched" = "$total"

    # Power-down: SCK high past the threshold resets the chip to channel A gain 128.
    setp code_a128 4242
    pd0=$(getp power_downs)
    "$HX711_PROBE" "$dev" -n 1 -p 26 -H $((PD_US * 3)) >"$RUNS/probe-pd.txt" 2>&1
    "$HX711_PROBE" "$dev" -n 1 -p 25 >"$RUNS/probe-after-pd.txt" 2>&1
    v=$(awk '/^reading/ {sub("value=","",$2); print $2}' "$RUNS/probe-after-pd.txt")
    check hx.power-down-reset "power_downs $pd0 -> $(getp power_downs), first value after power-up $v (want 4242: A128)" \
        test "$(getp power_downs)" -gt "$pd0" -a "$v" = 4242

    # Rate: at 10 Hz the probe reads each conversion, 100 ms apart. TCG delivers timer
    # interrupts late by up to ~20 ms, so each interval must be 50-150 ms (no conversion
    # missed or read twice) and their mean 100 ms within 5%.
    setp rate_hz 10; sleep 0.3
    "$HX711_PROBE" "$dev" -n 7 -p 25 >"$RUNS/probe-rate10.txt" 2>&1
    iv=$(awk '/^reading/ {sub("edge_ns=","",$3); if (p && $3 != "0") printf "%.1f ", ($3 - p) / 1e6; if ($3 != "0") p = $3}' "$RUNS/probe-rate10.txt")
    ok=$(awk -v iv="$iv" 'BEGIN {n = split(iv, a, " "); s = 0; ok = n >= 4;
        for (i = 1; i <= n; i++) { s += a[i]; if (a[i] < 50 || a[i] > 150) ok = 0 }
        if (n) { m = s / n; if (m < 95 || m > 105) ok = 0 } print ok}')
    check hx.rate-10hz "edge intervals (ms): $iv(want 100 each, mean within 5%)" test "$ok" = 1

    # Absent chip: DOUT stays high, no edge comes.
    setp present 0; sleep 0.05
    "$HX711_PROBE" "$dev" -n 1 -t 500 >"$RUNS/probe-absent.txt" 2>&1; rc=$?
    check hx.absent "probe: rc=$rc $(tr '\n' ' ' <"$RUNS/probe-absent.txt")" test $rc = 2
    setp present 1; sleep 0.1
    dump_stats >"$RUNS/probe.stats"
fi
progress gpio-done

# ---- I2C: i2c-stub behind /dev/i2c-N ----------------------------------------------------
bus=""
for d in /sys/bus/i2c/devices/i2c-*; do
    [[ $(cat "$d/name" 2>/dev/null) == "SMBus stub driver" ]] && bus=${d##*-}
done
check i2c.stub-bus "i2c-stub is /dev/i2c-${bus:-?} (the configs say bus 0)" test "${bus:-x}" = 0
bus=${bus:-0}
i2cset -y "$bus" 0x48 0x00 0x3412 w
w=$(i2cget -y "$bus" 0x48 0x00 w 2>&1)
b0=$(i2cget -y "$bus" 0x48 0x00 b 2>&1)
check i2c.stub-word "word 0x00 reads $w (wrote 0x3412), its low byte $b0 goes first on the wire" \
    test "$w" = 0x3412 -a "$b0" = 0x12
missing_err=$(i2cget -y "$bus" 0x4a 0x00 w 2>&1); rc=$?
# i2cget does not name the errno; ask the kernel directly (I2C_SLAVE, then I2C_SMBUS read word).
python3 - "$bus" >"$RUNS/i2c-missing.kernel" 2>&1 <<'PY'
import ctypes, errno, fcntl, os, struct, sys
fd = os.open(f"/dev/i2c-{sys.argv[1]}", os.O_RDWR)
fcntl.ioctl(fd, 0x0703, 0x4A)
data = ctypes.create_string_buffer(34)
try:
    fcntl.ioctl(fd, 0x0720, struct.pack("=BBxxIQ", 1, 0, 3, ctypes.addressof(data)))
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno], os.strerror(e.errno))
PY
kerr=$(cat "$RUNS/i2c-missing.kernel")
check i2c.missing-address "i2cget at 0x4a: rc=$rc ($missing_err); the SMBus ioctl fails with $kerr" \
    test $rc != 0 -a "${kerr:0:1}" = E
progress i2c-done

# ---- IIO: the kernel's ti-ads1015 bound to the stub at 0x49 ----------------------------
i2cset -y "$bus" 0x49 0x00 0x2e1f w        # the chip sends 0x1f 0x2e: conversion 0x1f2e
echo ads1115 0x49 >"/sys/bus/i2c/devices/i2c-$bus/new_device"
iio=""
for d in "/sys/bus/i2c/devices/$bus-0049"/iio:device*; do
    [[ -e $d/name ]] && iio=/sys/bus/iio/devices/${d##*/}
done
if [[ -n $iio ]]; then
    raw=$(cat "$iio/in_voltage0_raw" 2>&1); scale=$(cat "$iio/in_voltage0_scale" 2>&1)
    echo "raw=$raw scale=$scale device=${iio##*/} name=$(cat "$iio/name")" >"$RUNS/iio.kernel"
    check iio.ti-ads1015 "${iio##*/} (name $(cat "$iio/name")) in_voltage0_raw=$raw (want 7982 = 0x1f2e), scale=$scale" \
        test "$raw" = 7982 -a "${iio##*/}" = iio:device0
else
    fail iio.ti-ads1015 "no IIO device under $bus-0049 after new_device: $(dmesg | tail -n 3 | tr '\n' ' ')"
fi
progress iio-done

# ---- the project's binaries ---------------------------------------------------------
# prun NAME BIN CONFIG SENSOR SAMPLES: saves stdout, stderr, exit code and the chip's state.
prun() {
    local name=$1 bin=$2 config=$3 sensor=$4 samples=$5 rc
    [[ -d /sys/module/hx711_sim ]] && dump_stats >"$RUNS/$name.before"
    [[ -d /sys/module/hx711_sim ]] && clear_stats
    local t0; t0=$(date +%s.%N)
    timeout 60 "$bin" raw --config "$CONF/$config" --sensor "$sensor" --samples "$samples" --json \
        >"$RUNS/$name.out" 2>"$RUNS/$name.err"; rc=$?
    echo "$rc" >"$RUNS/$name.rc"
    echo "guest: ran $name: rc=$rc in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}') s"
    [[ -d /sys/module/hx711_sim ]] && dump_stats >"$RUNS/$name.after"
    return 0
}

if [[ ! -x $PLUMSCALE_BIN ]]; then
    echo "guest: no plumscale binary at $PLUMSCALE_BIN: the project checks are skipped"
    echo "$PLUMSCALE_BIN" >"$RUNS/NO-BINARY"
elif [[ -z $chip ]]; then
    echo "guest: no hx711-sim chip: HX711 runs skipped"
else
    ldd "$PLUMSCALE_BIN" >"$RUNS/bin1.ldd" 2>&1
    setp code_a128 1234567; setp code_b32 -765432; setp code_a64 -1
    prun hx-a128 "$PLUMSCALE_BIN" hx711.toml pan128 8
    prun hx-b32 "$PLUMSCALE_BIN" hx711.toml pan32 8
    prun hx-a64 "$PLUMSCALE_BIN" hx711.toml pan64 8
    setp code_a128 8388607
    prun hx-sat-high "$PLUMSCALE_BIN" hx711.toml pan128 4
    setp code_a128 -8388608
    prun hx-sat-low "$PLUMSCALE_BIN" hx711.toml pan128 4
    setp code_a128 1234567
    prun hx-rate10 "$PLUMSCALE_BIN" hx711.toml pan-rate10 6
    setp pd_threshold_us 5000
    prun hx-stretched "$PLUMSCALE_BIN" hx711.toml pan-stretched 5
    setp pd_threshold_us "$PD_US"
    # Late read-outs: every 7th read-out is preempted in a PD_SCK low phase for longer than a
    # conversion period, and every second conversion has other bits, so a word mixed from two
    # conversions would be a value neither had (check.py: hx711-late-readout).
    setp code_toggle 5592405; setp stall_every 7; setp stall_low_us 130000
    prun hx-late "$PLUMSCALE_BIN" hx711.toml pan128 20
    setp stall_every 0; setp stall_low_us 0; setp code_toggle 0
    setp present 0; sleep 0.05
    prun hx-absent "$PLUMSCALE_BIN" hx711.toml pan128 1
    setp present 1; sleep 0.1

    i2cset -y "$bus" 0x48 0x00 0x3412 w    # the chip sends 0x12 0x34: +4660
    i2cset -y "$bus" 0x48 0x01 0x8385 w    # power-on default config 0x8583
    prun ads-positive "$PLUMSCALE_BIN" ads1115.toml fsr 1
    i2cget -y "$bus" 0x48 0x01 w >"$RUNS/ads-positive.config" 2>&1
    i2cset -y "$bus" 0x48 0x00 0x5f8a w    # the chip sends 0x8a 0x5f: -30113
    prun ads-negative "$PLUMSCALE_BIN" ads1115.toml fsr 1
    i2cget -y "$bus" 0x48 0x01 w >"$RUNS/ads-negative.config" 2>&1
    prun ads-missing "$PLUMSCALE_BIN" ads1115.toml fsr-missing 1

    # `plumscale setup --probe`: the emulated HX711's chip and its rate from DOUT's falls, and
    # the stub at 0x48 as an ADS1115 by its power-on Config value, which the runs above changed
    # and which is put back here; the probe must leave it as it found it (read only).
    setp present 1; setp rate_hz 10; clear_stats
    i2cset -y "$bus" 0x48 0x01 0x8385 w
    i2cget -y "$bus" 0x48 0x01 w >"$RUNS/setup-probe.config-before" 2>&1
    timeout 60 "$PLUMSCALE_BIN" setup --probe --json --chip hx711-sim --dout DOUT --sck SCK --watch 2 \
        >"$RUNS/setup-probe.out" 2>"$RUNS/setup-probe.err"
    echo $? >"$RUNS/setup-probe.rc"
    i2cget -y "$bus" 0x48 0x01 w >"$RUNS/setup-probe.config-after" 2>&1
    dump_stats >"$RUNS/setup-probe.after"
    if [[ -n $iio ]]; then
        prun iio "$PLUMSCALE_BIN" iio.toml kernel-adc 1
        { echo "raw=$(cat "$iio/in_voltage0_raw") scale=$(cat "$iio/in_voltage0_scale") device=${iio##*/}"; } >"$RUNS/iio.kernel.after"
    fi

    if [[ -n $PLUMSCALE_GPIOD2_BIN && -x $PLUMSCALE_GPIOD2_BIN ]]; then
        [[ -n $PLUMSCALE_GPIOD2_LIBDIR ]] && export LD_LIBRARY_PATH=$PLUMSCALE_GPIOD2_LIBDIR
        ldd "$PLUMSCALE_GPIOD2_BIN" >"$RUNS/bin2.ldd" 2>&1
        prun gpiod2-a128 "$PLUMSCALE_GPIOD2_BIN" hx711.toml pan128 8
        prun gpiod2-b32 "$PLUMSCALE_GPIOD2_BIN" hx711.toml pan32 8
        unset LD_LIBRARY_PATH
    elif [[ -n $PLUMSCALE_GPIOD2_BIN ]]; then
        echo "$PLUMSCALE_GPIOD2_BIN" >"$RUNS/NO-GPIOD2-BINARY"
    fi
fi
# ---- the daemon on the emulated HX711: calibrated through its socket, then weighing ------
if [[ -x ${PLUMSCALED_BIN:-} && -d /sys/module/hx711_sim ]]; then
    setp present 1; setp rate_hz 10; setp code_a128 50000
    state=/dev/shm/plumscale-state; rm -rf "$state" /dev/shm/plumscale.sock
    timeout 300 "$PLUMSCALED_BIN" --config "$CONF/daemon.toml" --socket /dev/shm/plumscale.sock \
        --state-directory "$state" 2>"$RUNS/daemon.err" &
    daemon_pid=$!
    timeout 240 python3 "$PLUM_REPO/Tests/kernel/daemon_client.py" /dev/shm/plumscale.sock "$P" \
        >"$RUNS/daemon.out" 2>"$RUNS/daemon.client.err"
    echo $? >"$RUNS/daemon.client.rc"
    # The CLI on the same daemon: a scripted recalibration whose 200 g goes on while it waits
    # (zero at code 60000, 1500 counts per gram), then a stable read of 120 g.
    if [[ -x ${PLUMSCALE_BIN:-} ]]; then
        export PLUMSCALE_SOCKET=/dev/shm/plumscale.sock
        setp code_a128 60000
        timeout 90 "$PLUMSCALE_BIN" calibrate --sensor pan --point 0 --point 200 --yes \
            >"$RUNS/cli.calibrate.out" 2>"$RUNS/cli.calibrate.err" &
        calibrate_pid=$!
        # The 200 g goes on when the CLI asks for it (its prompt is unbuffered on stderr), not
        # after a guessed time: under TCG the empty pan can take longer to settle than any guess,
        # and a weight put on early would be captured as the zero.
        for _ in $(seq 900); do
            grep -q 'place 200.0 g' "$RUNS/cli.calibrate.err" 2>/dev/null && break
            kill -0 "$calibrate_pid" 2>/dev/null || break
            sleep 0.1
        done
        setp code_a128 $((60000 + 200 * 1500))
        wait "$calibrate_pid"; echo $? >"$RUNS/cli.calibrate.rc"
        setp code_a128 $((60000 + 120 * 1500))
        timeout 60 "$PLUMSCALE_BIN" read --sensor pan --stable --timeout 30 \
            >"$RUNS/cli.read.out" 2>"$RUNS/cli.read.err"
        echo $? >"$RUNS/cli.read.rc"
        # The push button on the emulated chip's BUTTON line (active low): a 0.4 s press tares
        # the 120 g on the next stable reading; read until the pan shows 0.0 g (30 s at most).
        setp button 1; sleep 0.4; setp button 0
        for _ in $(seq 60); do
            "$PLUMSCALE_BIN" read --sensor pan >"$RUNS/button.read.out" 2>&1 &&
                grep -qE ' 0\.0 g' "$RUNS/button.read.out" && break
            sleep 0.5
        done
        getp button_edges >"$RUNS/button.edges"
        # Past full force (400 g): the daemon pulses its cue line once, for pulse_ms = 100.
        setp cue_rises 0; setp cue_last_high_ns 0
        setp code_a128 $((60000 + 400 * 1500))
        sleep 3
        echo "$(getp cue_rises) $(getp cue_last_high_ns) $(getp cue_level)" >"$RUNS/cue.txt"
    fi
    kill -TERM "$daemon_pid" 2>/dev/null
    wait "$daemon_pid"; echo $? >"$RUNS/daemon.rc"
    ls "$state" >"$RUNS/daemon.state" 2>&1
    echo "guest: ran daemon: rc=$(cat "$RUNS/daemon.rc") client rc=$(cat "$RUNS/daemon.client.rc")"
elif [[ -n ${PLUMSCALED_BIN:-} ]]; then
    echo "$PLUMSCALED_BIN" >"$RUNS/NO-DAEMON-BINARY"
fi

# ---- display panels: a framebuffer (vfb) and an SSD1306 on i2c-stub -----------------------
# plumscale-display --check draws one check screen. The framebuffer is read back twice: by the
# program (--check-out, a PPM) and raw from /dev/fbN here; check.py decodes the raw bytes from
# the format the kernel reports and compares. The SSD1306's transfers are caught by the
# kernel's smbus_write tracepoint and replayed into a GDDRAM (display_check.py), which must
# equal the PBM the simulated panel writes for the same screen.
DISPLAY_BIN=${PLUMSCALE_DISPLAY_BIN:-}
if [[ ! -x $DISPLAY_BIN ]]; then
    skip display.fb-vfb "no plumscale-display binary at ${DISPLAY_BIN:-(unset)}"
    skip display.ssd1306-i2c-stub "no plumscale-display binary at ${DISPLAY_BIN:-(unset)}"
else
    # fb_check NAME MODPROBE-ARGS...: loads vfb, draws, saves runs/NAME.{out,err,rc,ppm,raw,info}.
    fb_check() {
        local name=$1 fb="" d v
        shift
        modp vfb vfb_enable=1 "$@" || { echo "modprobe vfb failed" >"$RUNS/$name.err"; echo 99 >"$RUNS/$name.rc"; return; }
        for d in /sys/class/graphics/fb*; do
            [[ $(cat "$d/name" 2>/dev/null) == "Virtual FB" ]] && fb=/dev/${d##*/}
        done
        # fbcon takes every new framebuffer for the virtual consoles and blinks a cursor on it:
        # unbind it so that only the program draws.
        for v in /sys/class/vtconsole/vtcon*; do
            grep -q "frame buffer" "$v/name" 2>/dev/null && echo 0 >"$v/bind"
        done
        [[ -e /sys/class/graphics/fbcon/cursor_blink ]] && echo 0 >/sys/class/graphics/fbcon/cursor_blink
        d=/sys/class/graphics/${fb#/dev/}
        { echo "device=$fb"; echo "bits_per_pixel=$(cat "$d/bits_per_pixel")"
          echo "virtual_size=$(cat "$d/virtual_size")"; echo "stride=$(cat "$d/stride")"
          echo "modprobe=vfb vfb_enable=1 $*"; } >"$RUNS/$name.info"
        # The channels as the kernel reports them (FBIOGET_VSCREENINFO, struct fb_var_screeninfo:
        # eight __u32, then red, green, blue and transp as offset, length, msb_right), asked here
        # apart from the program, for check.py to decode the raw memory with.
        python3 - "$fb" >>"$RUNS/$name.info" 2>>"$RUNS/$name.err" <<'PY'
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
var = struct.unpack("=20I", fcntl.ioctl(fd, 0x4600, bytes(160))[:80])
for i, channel in enumerate(("red", "green", "blue", "transp")):
    print(f"{channel}={var[8 + 3 * i]},{var[9 + 3 * i]}")
print(f"grayscale={var[7]}")
PY
        printf '[display]\nkind = "framebuffer"\ndevice = "%s"\n' "$fb" >"$RUNS/$name.toml"
        timeout 60 "$DISPLAY_BIN" --check --config "$RUNS/$name.toml" --check-out "$RUNS/$name.ppm" \
            >"$RUNS/$name.out" 2>"$RUNS/$name.err"
        echo $? >"$RUNS/$name.rc"
        cat "$fb" >"$RUNS/$name.raw" 2>>"$RUNS/$name.err"
        rmmod vfb 2>>"$RUNS/$name.err"
    }
    # vfb's default mode: 640x480 at 8 bpp, a palette (the panel writes grey levels); then
    # 32 bpp (vfb: RGBA8888, red in the low byte), which needs more than its default 1 MiB.
    fb_check fb-vfb
    fb_check fb-vfb-32 mode_option=640x480-32@60 videomemorysize=2097152

    # The SSD1306 at 0x3c on the stub bus, traced.
    tracing=/sys/kernel/tracing
    [[ -e $tracing/trace ]] || mount -t tracefs nodev "$tracing" 2>/dev/null ||
        mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
    [[ -e $tracing/trace ]] || tracing=/sys/kernel/debug/tracing
    if [[ -e $tracing/events/smbus/smbus_write/enable ]]; then
        echo 0 >"$tracing/tracing_on"; : >"$tracing/trace"
        echo 'addr == 0x3c' >"$tracing/events/smbus/smbus_write/filter" 2>/dev/null
        echo 1 >"$tracing/events/smbus/smbus_write/enable"
        echo 1 >"$tracing/tracing_on"
        printf '[display]\nkind = "ssd1306"\nbus = %s\naddress = 0x3c\nsize = "128x64"\n' "$bus" >"$RUNS/ssd1306.toml"
        timeout 60 "$DISPLAY_BIN" --check --config "$RUNS/ssd1306.toml" >"$RUNS/ssd1306.out" 2>"$RUNS/ssd1306.err"
        echo $? >"$RUNS/ssd1306.rc"
        echo 0 >"$tracing/tracing_on"
        cat "$tracing/trace" >"$RUNS/ssd1306.trace"
        echo 0 >"$tracing/events/smbus/smbus_write/enable"
        printf '[display]\nkind = "simulated-ssd1306"\nsize = "128x64"\nframe_file = "%s"\n' \
            "$RUNS/ssd1306-model.pbm" >"$RUNS/ssd1306-model.toml"
        timeout 60 "$DISPLAY_BIN" --check --config "$RUNS/ssd1306-model.toml" \
            >"$RUNS/ssd1306-model.out" 2>"$RUNS/ssd1306-model.err"
        echo $? >"$RUNS/ssd1306-model.rc"
    else
        fail display.ssd1306-i2c-stub "no smbus_write tracepoint under $tracing/events/smbus"
    fi
fi
progress display-done

# ---- the kernel stayed healthy ---------------------------------------------------------
if [[ -d /sys/module/hx711_sim ]]; then
    rm_err=$(rmmod hx711_sim 2>&1); rc=$?
    check kernel.hx711-unload "rmmod hx711_sim: rc=$rc $rm_err" test $rc = 0
fi
splats=$(dmesg | grep -E 'BUG:|WARNING:|Oops|Call Trace|general protection|list_del corruption' | head -n 5)
check kernel.no-splats "${splats:-no BUG/WARNING/Oops in dmesg}" test -z "$splats"
dmesg >"$PLUM_OUT/dmesg.txt"
progress guest-done
