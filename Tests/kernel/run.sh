#!/usr/bin/env bash
# Kernel-in-the-loop tests: boots a stock Debian 12 kernel under QEMU (TCG) and runs the
# project's real binaries against real /dev/gpiochipN, /dev/i2c-N and IIO sysfs.
#
#   sudo Tests/kernel/run.sh          (root on Debian 12; see docs/testing.md)
#
# Environment:
#   PLUMSCALE_BIN          plumscale built against libgpiod 1.6 (default: .build/debug/plumscale)
#   PLUMSCALED_BIN         the daemon (default: plumscaled beside PLUMSCALE_BIN)
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
cache="$repo/.build-kernel"
out="$cache/out"
timeout_s=${KERNEL_TEST_TIMEOUT:-900}
started=$(date +%s)

log() { printf '[kernel-tests %4ds] %s\n' "$(( $(date +%s) - started ))" "$*" >&2; }
fatal() { log "FATAL: $*"; echo "0 passed, 1 failed"; exit 1; }

[[ $(id -u) -eq 0 ]] || fatal "run as root (apt-get, 9p export of / and the VM need it)"
command -v apt-get >/dev/null || fatal "needs a Debian-like host with apt-get"

# ---- packages -------------------------------------------------------------------------
need_pkgs=(qemu-system-x86 busybox-static cpio kmod gcc make libc6-dev i2c-tools gpiod libgpiod-dev python3)
missing=()
for p in "${need_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
apt_updated=0
apt_update() { [[ $apt_updated -eq 1 ]] || { log "apt-get update"; apt-get update -qq; apt_updated=1; }; }
if [[ ${#missing[@]} -gt 0 ]]; then
    apt_update
    log "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- kernel image (never installed: unpacked into the cache) ----------------------------
# The ABI linux-image-amd64 points at, e.g. 6.1.0-56-amd64. Stale package lists can name
# one the archive no longer serves: then the lists are refreshed and the ABI asked again.
current_abi() {
    apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/.*Depends: linux-image-\(6\.[0-9.]*-[0-9]*-amd64\)$/\1/p' | head -n1
}
abi=${KERNEL_ABI:-$(current_abi)}
if [[ -z $abi ]]; then apt_update; abi=$(current_abi); fi
[[ -n $abi ]] || fatal "cannot tell which linux-image-*-amd64 to use"
if [[ -z ${KERNEL_ABI:-} && ! -f $cache/kernel-$abi/.unpacked ]] &&
    ! apt-cache show "linux-headers-$abi" >/dev/null 2>&1; then
    apt_update; abi=$(current_abi)
fi
kdir="$cache/kernel-$abi"
# A new Debian kernel ABI leaves the old unpacked tree behind: drop it (hundreds of MB).
for old in "$cache"/kernel-* "$cache"/hx711-sim-* "$cache"/initramfs-*; do
    if [[ -e $old && $old != *"-$abi" && $old != *"-$abi".* ]]; then rm -rf "$old"; fi
done
if [[ ! -f $kdir/.unpacked ]]; then
    log "fetching linux-image-$abi"
    rm -rf "$kdir"; mkdir -p "$kdir/deb"
    (cd "$kdir/deb" && apt-get download -q "linux-image-$abi" >/dev/null 2>&1) ||
        { apt_update; (cd "$kdir/deb" && apt-get download -q "linux-image-$abi" >/dev/null 2>&1); } ||
        fatal "apt-get download linux-image-$abi failed (set KERNEL_ABI to one the archive has)"
    dpkg -x "$kdir"/deb/*.deb "$kdir/root"
    depmod -b "$kdir/root" "$abi"
    rm -rf "$kdir/deb"
    touch "$kdir/.unpacked"
fi
vmlinuz="$kdir/root/boot/vmlinuz-$abi"
moddir="$kdir/root/lib/modules/$abi"

if ! dpkg-query -W -f='${Status}' "linux-headers-$abi" 2>/dev/null | grep -q 'ok installed'; then
    apt_update
    log "installing linux-headers-$abi"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "linux-headers-$abi" >/dev/null
fi

# ---- the emulated HX711 and the harness's probe --------------------------------------
bdir="$cache/hx711-sim-$abi"
mkdir -p "$bdir"
cp -p "$here"/hx711-sim/{hx711_sim.c,Kbuild,Makefile} "$bdir/"
log "building hx711_sim.ko against linux-headers-$abi"
make -s -C "$bdir" KDIR="/usr/src/linux-headers-$abi" >"$bdir/build.log" 2>&1 ||
    { cat "$bdir/build.log" >&2; fatal "hx711_sim.ko did not build"; }
grep -q 'hx711_sim\.c:.*warning:' "$bdir/build.log" && { cat "$bdir/build.log" >&2; fatal "hx711_sim.c has warnings"; }
gcc -O2 -Wall -Wextra -Werror -o "$bdir/hx711_probe" "$here/hx711-sim/hx711_probe.c" ||
    fatal "hx711_probe did not build"

# ---- initramfs: static busybox and the modules that mount 9p --------------------------
initrd="$cache/initramfs-$abi.cpio.gz"
stage="$cache/initramfs-$abi"
rm -rf "$stage"; mkdir -p "$stage"/{bin,dev,proc,sys,modules}
cp /bin/busybox "$stage/bin/busybox"
ldd /bin/busybox >/dev/null 2>&1 && fatal "/bin/busybox is not static (install busybox-static)"
install -m 0755 "$here/initramfs-init.sh" "$stage/init"
: >"$stage/modules/order"
for m in virtio_pci 9pnet_virtio 9p; do
    modprobe -d "$kdir/root" -S "$abi" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
done | awk '!seen[$0]++' | while read -r ko; do
    base=$(basename "$ko")
    case $ko in
        *.xz) xz -dc "$ko" >"$stage/modules/${base%.xz}"; base=${base%.xz} ;;
        *.zst) zstd -qdc "$ko" >"$stage/modules/${base%.zst}"; base=${base%.zst} ;;
        *) cp "$ko" "$stage/modules/$base" ;;
    esac
    echo "$base" >>"$stage/modules/order"
done
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd"

# ---- what the guest is told -----------------------------------------------------------
bin=${PLUMSCALE_BIN:-$repo/.build/debug/plumscale}
daemon_bin=${PLUMSCALED_BIN:-$(dirname "$bin")/plumscaled}
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
