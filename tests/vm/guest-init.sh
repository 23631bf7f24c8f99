#!/bin/busybox sh
# /init of the test VM: mount the basics, load the modules, run the guest
# suite with its TAP output on the second serial port, then power off.
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
# mode=755: lets tests show that ptwalk's own file modes refuse other users
mount -t debugfs -o mode=755 debugfs /sys/kernel/debug
mount -t tmpfs tmp /tmp
exec >/dev/ttyS1 2>&1
echo "PTWALK-GUEST-BEGIN"
. /tests/guest-suite.sh
echo "PTWALK-DMESG-BEGIN"
dmesg
echo "PTWALK-DMESG-END"
echo "PTWALK-GUEST-END"
sync
poweroff -f
