#!/usr/bin/env bash
# Kernel-in-the-loop tests: boots a stock Debian 12 kernel under QEMU (TCG) and runs the
# project's real binaries against real /dev/gpiochipN, /dev/i2c-N and IIO sysfs.
#
#   sudo Tests/kernel/run.sh          (root on Debian 12; see docs/testing.md)
#
# Environment:
#   PLUMSCALE_BIN          plumscale built against libgpiod 1.6 (default: .build/debug/plumscale)
#   PLUMSCALED_BIN         the daemon (default: plumscaled beside PLUMSCALE_BIN)
#   PLUMSCALE_DISPLAY_BIN  the panel program (default: plumscale-display beside PLUMSCALE_BIN)
#   PLUMSCALE_GPIOD2_BIN   the same CLI built against libgpiod 2.x (optional)
#   PLUMSCALE_GPIOD2_LIBDIR  where that build's libgpiod.so.3 lives, when not on its rpath
#   KERNEL_TEST_TIMEOUT    seconds the VM may run (default 900)
#   KERNEL_ABI             e.g. 6.1.0-56-amd64 (default: what linux-image-amd64 depends on)
#
# Downloads and builds are cached under .build-kernel/ at the repository root.
# Prints one PASS/FAIL/SKIP line per check, then "N passed, N failed"; exits 1 on any failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
timeout_s=${KERNEL_TEST_TIMEOUT:-900}
started=$(date +%s)

log() { printf '[kernel-tests %4ds] %s\n' "$(( $(date +%s) - started ))" "$*" >&2; }
fatal() { log "FATAL: $*"; echo "0 passed, 1 failed"; exit 1; }

# shellcheck source=Tests/kernel/prepare.sh
source "$here/prepare.sh"

# ---- initramfs: static busybox and the modules that mount 9p --------------------------
initrd="$cache/initramfs-$abi.cpio.gz"
make_initramfs "$here/initramfs-init.sh" "$initrd" virtio_pci 9pnet_virtio 9p

# ---- what the guest is told -----------------------------------------------------------
out="$cache/out"
bin=${PLUMSCALE_BIN:-$repo/.build/debug/plumscale}
daemon_bin=${PLUMSCALED_BIN:-$(dirname "$bin")/plumscaled}
display_bin=${PLUMSCALE_DISPLAY_BIN:-$(dirname "$bin")/plumscale-display}
bin2=${PLUMSCALE_GPIOD2_BIN:-}
[[ $bin == /* ]] || bin="$PWD/$bin"
[[ -z $bin2 || $bin2 == /* ]] || bin2="$PWD/$bin2"
rm -rf "$out"; mkdir -p "$out"
cat >"$out/env.sh" <<EOF
KERNEL_ABI='$abi'
MODDIR='$moddir'
MODROOT='$kdir/root'
HX711_KO='$bdir/hx711_sim.ko'
HX711_PROBE='$bdir/hx711_probe'
PLUMSCALE_BIN='$bin'
PLUMSCALED_BIN='$daemon_bin'
PLUMSCALE_DISPLAY_BIN='$display_bin'
PLUMSCALE_GPIOD2_BIN='$bin2'
PLUMSCALE_GPIOD2_LIBDIR='${PLUMSCALE_GPIOD2_LIBDIR:-}'
EOF

# ---- boot ---------------------------------------------------------------------------------
log "booting $abi under QEMU (TCG), timeout ${timeout_s}s"
vm_rc=0
timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 \
    -accel tcg -machine q35 -cpu max -smp 2 -m 1536 \
    -nographic -no-reboot -nodefaults -serial stdio \
    -kernel "$vmlinuz" -initrd "$initrd" \
    -append "console=ttyS0 panic=-1 quiet loglevel=4 PLUM_REPO=$repo PLUM_OUT=$out" \
    -virtfs local,path=/,mount_tag=hostfs,security_model=none,readonly=on,multidevs=remap,id=hostfs \
    -virtfs local,path="$out",mount_tag=outfs,security_model=none,id=outfs \
    </dev/null >"$cache/console.log" 2>&1 || vm_rc=$?
vm_s=$(( $(date +%s) - started ))
if [[ $vm_rc -eq 124 || $vm_rc -eq 137 ]]; then
    log "the VM timed out after ${timeout_s}s; console:"; tail -n 40 "$cache/console.log" >&2
    echo "FAIL vm: timed out after ${timeout_s}s" >>"$out/results.txt"
elif [[ $vm_rc -ne 0 ]]; then
    log "qemu exited with $vm_rc; console:"; tail -n 40 "$cache/console.log" >&2
    echo "FAIL vm: qemu exited with $vm_rc" >>"$out/results.txt"
fi
if [[ ${KERNEL_TEST_VERBOSE:-0} != 0 ]]; then cat "$cache/console.log" >&2; fi
grep -q '^guest-done' "$out/progress.txt" 2>/dev/null || {
    log "the guest did not finish; console tail:"; tail -n 40 "$cache/console.log" >&2
    echo "FAIL guest: did not run to the end (see .build-kernel/console.log)" >>"$out/results.txt"
}

# ---- verdicts -------------------------------------------------------------------------------
log "VM done; total ${vm_s}s so far"
exec python3 "$here/check.py" "$out"
