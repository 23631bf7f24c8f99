#!/bin/busybox sh
# /init of the test VM: mount the basics, load the modules, run the guest
# suite with its TAP output on the second serial port, then power off.
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
# pseudo-terminals, for the test of ptcompare's progress line
mkdir -p /dev/pts
mount -t devpts -o ptmxmode=0666 devpts /dev/pts
# mode=755: lets tests show that ptwalk's own file modes refuse other users
mount -t debugfs -o mode=755 debugfs /sys/kernel/debug
mount -t tmpfs tmp /tmp
exec >/dev/ttyS1 2>&1
echo "PTWALK-GUEST-BEGIN"
. /tests/guest-suite.sh
# Debug kernels only (make check-debug): kmemleak reports objects
# unreferenced for 5 s or more, after two scans; any report fails the run.
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs -o mode=755 debugfs /sys/kernel/debug
if [ -e /sys/kernel/debug/kmemleak ]; then
	sleep 6
	if echo scan > /sys/kernel/debug/kmemleak && echo scan > /sys/kernel/debug/kmemleak; then
		leaks=$(cat /sys/kernel/debug/kmemleak)
		if [ -z "$leaks" ]; then
			echo "ok - no_leaked_objects"
		else
			echo "not ok - no_leaked_objects # $(echo "$leaks" | grep -c 'unreferenced object') objects, report follows"
			echo "$leaks"
		fi
	else
		echo "not ok - no_leaked_objects # the kmemleak scan failed (detector disabled?)"
	fi
fi
# Kernel lockdown cannot be lowered once raised: its cases come last,
# after the kmemleak scan, which lockdown would refuse.
mode=$(sed -n 's/.*ptwalk_mode=\([a-z]*\).*/\1/p' /proc/cmdline)
[ "$mode" = test ] && . /tests/guest-lockdown.sh
echo "PTWALK-DMESG-BEGIN"
dmesg
echo "PTWALK-DMESG-END"
echo "PTWALK-GUEST-END"
sync
poweroff -f
