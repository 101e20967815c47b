#!/usr/bin/env bash
# The service path under a real init: boots a stock Debian 12 kernel under QEMU (TCG) with
# systemd as PID 1, installs the three Debian packages exactly as a Pi would (apt), and checks
# the shipped units, sysusers files and udev rules at work: a new owner's first hour (`plumscale
# setup` from an answers file, then the weight in Home Assistant's state and in Chromium, each
# step timed into first-hour.txt), socket activation, READY and STATUS,
# reload, the watchdog, the sandbox, who may do what, and calibrations kept over a restart and a
# reboot; the MQTT and web units with the same checks; then an upgrade to the same build packed
# as the next version (calibration, tare, configuration and passwords kept, the services
# restarted, dpkg asking nothing), a downgrade back, and remove and purge of all three.
#
#   packaging/build-deb DIR && packaging/build-deb --version VERSION+1 NEXT_DIR
#   sudo Tests/kernel/systemd/run.sh DIR NEXT_DIR      (root on Debian 12)
#
# DIR and NEXT_DIR each hold plumscale, plumscale-mqtt and plumscale-web (*.deb), NEXT_DIR's of
# a higher version. One boot does all but what a reboot must keep; the guest reboots once.
#
# The root the VM boots is the host's own, read-only over 9p, under an overlay whose upper layer
# is a fresh disk image (.build-kernel/systemd/disk.img): what the guest installs survives the
# VM's reboot and never touches the host. The host needs systemd, mosquitto, curl, and for the
# first hour's browser chromium, chromium-driver and python3-selenium installed (they run in the
# guest from that root; the script installs what is missing).
#
# Environment:
#   KERNEL_TEST_TIMEOUT     seconds the VM may run, both boots (default 1200)
#   KERNEL_TEST_VERBOSE=1   print the console afterwards
#
# Prints one PASS/FAIL line per check (names begin with "systemd"), then "N passed, N failed";
# exits 1 on any failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
started=$(date +%s)
log() { printf '[systemd-tests %4ds] %s\n' "$(( $(date +%s) - started ))" "$*" >&2; }
fatal() { log "FATAL: $*"; echo "0 passed, 1 failed"; exit 1; }

[[ $# -eq 2 && -d $1 && -d $2 ]] || fatal "usage: Tests/kernel/systemd/run.sh DEB_DIR NEXT_DEB_DIR (packaging/build-deb's)"
debs=$(realpath "$1")
next_debs=$(realpath "$2")
for dir in "$debs" "$next_debs"; do
    for package in plumscale plumscale-mqtt plumscale-web; do
        compgen -G "$dir/${package}_*.deb" >/dev/null || fatal "$dir has no ${package}_*.deb: packaging/build-deb $dir"
    done
done
version=$(dpkg-deb -f "$(compgen -G "$debs/plumscale_*.deb" | head -n1)" Version)
next_version=$(dpkg-deb -f "$(compgen -G "$next_debs/plumscale_*.deb" | head -n1)" Version)
dpkg --compare-versions "$next_version" gt "$version" ||
    fatal "$next_debs holds $next_version, not above $version: packaging/build-deb --version $version+1 $2"
timeout_s=${KERNEL_TEST_TIMEOUT:-1200}

# Debian's selenium, not pip's: the guest runs the system python3, whatever the host's PATH says.
extra_pkgs=(systemd udev mosquitto mosquitto-clients curl e2fsprogs util-linux
    chromium chromium-driver python3-selenium)
# shellcheck source=Tests/kernel/prepare.sh
source "$here/../prepare.sh"

work="$cache/systemd"
out="$work/out"
rm -rf "$work"; mkdir -p "$work" "$out"
initrd="$cache/initramfs-systemd-$abi.cpio.gz"
make_initramfs "$here/initramfs-init.sh" "$initrd" virtio_pci 9pnet_virtio 9p virtio_blk ext4 overlay

# ---- the upper layer, staged on the host and packed into the disk image -----------------------
upper="$work/stage/upper"
mkdir -p "$upper/etc/plum-test" "$upper/etc/systemd/system/multi-user.target.wants" "$work/stage/work"
echo "$out" >"$upper/etc/plum-test/out"
cat >"$upper/etc/plum-test/env.sh" <<ENV
KERNEL_ABI='$abi'
MODROOT='$kdir/root'
HX711_KO='$bdir/hx711_sim.ko'
PLUM_REPO='$repo'
PLUM_OUT='$out'
PLUMSCALE_DEBS='$debs'
PLUMSCALE_VERSION='$version'
PLUMSCALE_NEXT_DEBS='$next_debs'
PLUMSCALE_NEXT_VERSION='$next_version'
ENV
# A machine of its own: its id, its name, and no host services it does not need (they would
# only slow the boot under TCG). mosquitto stays: the MQTT unit's broker.
systemd-id128 new >"$upper/etc/machine-id"
echo plumscale-vm >"$upper/etc/hostname"
for unit in postgresql.service e2scrub_reap.service e2scrub_all.timer apt-daily.timer \
    apt-daily-upgrade.timer man-db.timer fstrim.timer logrotate.timer dpkg-db-backup.timer \
    systemd-networkd-wait-online.service getty@tty1.service serial-getty@ttyS0.service \
    systemd-timesyncd.service cron.service ssh.service packagekit.service gpsd.socket gpsd.service; do
    ln -s /dev/null "$upper/etc/systemd/system/$unit"
done
# The checkout may be anywhere, /tmp included (a fresh clone there is how a newcomer tries it).
# At every boot systemd-tmpfiles empties /tmp (tmp.conf's "D /tmp"): on this overlay that would
# whiteout the host's /tmp, checkout and emulated chip with it. This machine's tmp.conf keeps it.
mkdir -p "$upper/etc/tmpfiles.d"
echo 'd /tmp 1777 root root -' >"$upper/etc/tmpfiles.d/tmp.conf"
# Should the guest still not see the checkout, it says so and powers off at once, rather than
# leaving the host to wait out its whole timeout for a result that cannot come.
cat >"$upper/etc/plum-test/start.sh" <<START
#!/bin/bash
if [[ ! -r $here/guest.sh || ! -r $bdir/hx711_sim.ko ]]; then
    echo "FAIL systemd.guest: the guest cannot see the checkout at $repo (its root is the host's, over 9p)" \\
        >>"$out/results.txt"
    systemctl poweroff --no-block
    exit 1
fi
exec /bin/bash $here/guest.sh
START
chmod 755 "$upper/etc/plum-test/start.sh"
cat >"$upper/etc/systemd/system/plum-systemd-check.service" <<UNIT
[Unit]
Description=PlumScale checks of the service path
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/etc/plum-test/start.sh
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
UNIT
ln -s ../plum-systemd-check.service "$upper/etc/systemd/system/multi-user.target.wants/"
# The board's HX711 is there from power-on: the emulated chip is loaded at every boot, before the
# daemon can start, at 10 SPS with the power-down threshold raised for TCG (Tests/kernel/guest.sh
# says why), converting 60000 counts (the empty pan of guest.sh).
cat >"$upper/etc/systemd/system/plum-hx711.service" <<UNIT
[Unit]
Description=The emulated HX711 (hx711_sim.ko), as a board wired to the GPIO header
Before=plumscaled.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/sbin/insmod $bdir/hx711_sim.ko rate_hz=10 pd_threshold_us=15000 settle_periods=1 code_a128=60000

[Install]
WantedBy=multi-user.target
UNIT
ln -s ../plum-hx711.service "$upper/etc/systemd/system/multi-user.target.wants/"
disk="$work/disk.img"
mke2fs -q -t ext4 -d "$work/stage" "$disk" 2G >/dev/null || fatal "mke2fs -d could not make the overlay disk"
rm -rf "$work/stage"

# ---- boot (the guest reboots once, by itself, between its two phases) -------------------------
log "booting $abi with systemd as PID 1 under QEMU (TCG), timeout ${timeout_s}s"
vm_rc=0
timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 \
    -accel tcg -machine q35 -cpu max -smp 2 -m 2048 \
    -nographic -nodefaults -serial stdio \
    -kernel "$vmlinuz" -initrd "$initrd" \
    -append "console=ttyS0 panic=-1 quiet loglevel=4 systemd.unit=multi-user.target systemd.show_status=error" \
    -drive file="$disk",format=raw,if=virtio,cache=unsafe \
    -virtfs local,path=/,mount_tag=hostfs,security_model=none,readonly=on,multidevs=remap,id=hostfs \
    -virtfs local,path="$out",mount_tag=outfs,security_model=none,id=outfs \
    </dev/null >"$work/console.log" 2>&1 || vm_rc=$?
if [[ $vm_rc -eq 124 || $vm_rc -eq 137 ]]; then
    echo "FAIL systemd.vm: timed out after ${timeout_s}s (see .build-kernel/systemd/console.log)" >>"$out/results.txt"
elif [[ $vm_rc -ne 0 ]]; then
    echo "FAIL systemd.vm: qemu exited with $vm_rc" >>"$out/results.txt"
fi
grep -q '^phase2-done' "$out/progress.txt" 2>/dev/null ||
    echo "FAIL systemd.guest: did not run to the end ($(tail -n1 "$out/progress.txt" 2>/dev/null || echo "no progress"))" >>"$out/results.txt"
if [[ ${KERNEL_TEST_VERBOSE:-0} != 0 || $vm_rc -ne 0 ]]; then tail -n 60 "$work/console.log" >&2; fi
log "VM done"

# ---- verdicts -------------------------------------------------------------------------------------
grep -E '^(PASS|FAIL|SKIP) ' "$out/results.txt" || true
passed=$(grep -c '^PASS ' "$out/results.txt" || true)
failed=$(grep -c '^FAIL ' "$out/results.txt" || true)
echo "$passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]
