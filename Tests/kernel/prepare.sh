# Sourced by Tests/kernel/run.sh and Tests/kernel/systemd/run.sh: what both VM suites need on the
# host, cached under .build-kernel/. Expects $here (the sourcing script's directory), $repo, and
# log and fatal functions. Sets abi, kdir, vmlinuz, moddir and bdir (the emulated HX711's build:
# hx711_sim.ko and hx711_probe), and defines make_initramfs.

[[ $(id -u) -eq 0 ]] || fatal "run as root (apt-get, 9p export of / and the VM need it)"
command -v apt-get >/dev/null || fatal "needs a Debian-like host with apt-get"
cache="$repo/.build-kernel"
kernel_src="$repo/Tests/kernel"

# ---- packages (and the caller's extra_pkgs) --------------------------------------------
declare -p extra_pkgs >/dev/null 2>&1 || extra_pkgs=()
need_pkgs=(qemu-system-x86 busybox-static cpio kmod gcc make libc6-dev i2c-tools gpiod libgpiod-dev python3
    "${extra_pkgs[@]}")
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
cp -p "$kernel_src"/hx711-sim/{hx711_sim.c,Kbuild,Makefile} "$bdir/"
log "building hx711_sim.ko against linux-headers-$abi"
make -s -C "$bdir" KDIR="/usr/src/linux-headers-$abi" >"$bdir/build.log" 2>&1 ||
    { cat "$bdir/build.log" >&2; fatal "hx711_sim.ko did not build"; }
grep -q 'hx711_sim\.c:.*warning:' "$bdir/build.log" && { cat "$bdir/build.log" >&2; fatal "hx711_sim.c has warnings"; }
gcc -O2 -Wall -Wextra -Werror -o "$bdir/hx711_probe" "$kernel_src/hx711-sim/hx711_probe.c" ||
    fatal "hx711_probe did not build"

# make_initramfs INIT OUTPUT MODULE...: a gzipped cpio of static busybox, INIT as /init, and the
# kernel's modules MODULE... with their dependencies, in load order, listed in /modules/order.
make_initramfs() {
    local init=$1 output=$2 stage="$2.d" m ko base
    shift 2
    rm -rf "$stage"; mkdir -p "$stage"/{bin,dev,proc,sys,modules}
    cp /bin/busybox "$stage/bin/busybox"
    ldd /bin/busybox >/dev/null 2>&1 && fatal "/bin/busybox is not static (install busybox-static)"
    install -m 0755 "$init" "$stage/init"
    : >"$stage/modules/order"
    for m in "$@"; do
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
    (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$output"
    rm -rf "$stage"
}
