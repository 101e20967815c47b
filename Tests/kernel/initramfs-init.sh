#!/bin/busybox sh
# /init of the test VM's initramfs (busybox, static). It mounts the host's root read-only
# over 9p, mounts the writable results share at the same path the host sees it, chroots
# into the host tree and runs Tests/kernel/guest.sh there. The kernel passes PLUM_REPO and
# PLUM_OUT from its command line as environment variables.
/bin/busybox --install -s /bin
export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

say() { echo "plum-init: $*" > /dev/console; }

for m in $(cat /modules/order); do
    insmod "/modules/$m" || say "insmod $m failed"
done

mkdir -p /host
if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 hostfs /host; then
    say "FATAL: cannot mount the host's root"
    poweroff -f
fi
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 outfs "/host$PLUM_OUT"; then
    say "FATAL: cannot mount the results share at $PLUM_OUT"
    poweroff -f
fi
mount -t proc proc /host/proc
mount -t sysfs sysfs /host/sys
mount -t devtmpfs devtmpfs /host/dev
# The guest's only scratch space. /tmp, /root and /run stay the host's (read-only), so a
# repository or a binary there is still visible.
mkdir -p /host/dev/shm
mount -t tmpfs -o mode=1777 tmpfs /host/dev/shm

say "booted in $(cut -d' ' -f1 /proc/uptime) s; running guest checks"
chroot /host /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/dev/shm TMPDIR=/dev/shm PLUM_REPO="$PLUM_REPO" PLUM_OUT="$PLUM_OUT" \
    /bin/bash "$PLUM_REPO/Tests/kernel/guest.sh" > /dev/console 2>&1
say "guest checks exited with $?"
sync
umount "/host$PLUM_OUT" 2>/dev/null
poweroff -f
