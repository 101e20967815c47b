#!/bin/busybox sh
# /init of the systemd VM's initramfs (busybox, static). The root the VM boots is an overlay:
# the host's root, read-only over 9p, below, and the virtio disk's upper/ on top, so what the
# guest installs and writes (the package, /etc, /var/lib/plumscale) survives a reboot of the VM
# while the host stays untouched. The results share is mounted where the host sees it; then
# systemd takes over as PID 1.
/bin/busybox --install -s /bin
export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

say() { echo "plum-init: $*" > /dev/console; }
die() { say "FATAL: $*"; poweroff -f; }

for m in $(cat /modules/order); do
    insmod "/modules/$m" || say "insmod $m failed"
done

mkdir -p /lower /disk /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 hostfs /lower ||
    die "cannot mount the host's root"
mount -t ext4 /dev/vda /disk || die "cannot mount the overlay disk /dev/vda"
mkdir -p /disk/upper /disk/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/disk/upper,workdir=/disk/work /newroot ||
    die "cannot mount the overlay root"
out=$(cat /disk/upper/etc/plum-test/out)
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 outfs "/newroot$out" ||
    die "cannot mount the results share at $out"

# The host's root may be a Docker container's, whose /.dockerenv would make systemd believe it
# runs in a container: it would then leave / private instead of making it shared, as it does as
# PID 1 on a Pi, and a mount made in a unit's helper namespace (the copy of a LoadCredential=
# secret in /run/credentials/<unit>) would never reach /run: the service would find an empty
# directory of root's (EACCES). Removed from the overlay only (a whiteout on the disk).
rm -f /newroot/.dockerenv /newroot/run/.containerenv
say "booted in $(cut -d' ' -f1 /proc/uptime) s; starting systemd"
umount /proc /sys
umount -l /dev
exec switch_root /newroot /lib/systemd/systemd
