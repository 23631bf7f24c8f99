#!/bin/busybox sh
# /init of the test VM: mount the basics, load the modules, run the guest
# suite with its TAP output on the channel to the host, then power off.
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
# The channel to the host (ptwalk_chan= on the command line; ttyS1 when
# none is named), after the modules it needs (scripts/vm-run.sh lists them);
# its device node comes a moment after the driver (devtmpfs makes it from
# its own thread), and open fails with ENODEV a moment longer (hvc0 before
# virtio_console's port is up).  Only a character device will do: a
# redirection with > creates a regular file where the node is not there
# yet, and the 16K lanes' suites once wrote their whole output into such a
# /dev/hvc0 (the node lost the race, guest.log stayed empty).
while read -r ko; do
	insmod "$ko" || echo "init: insmod $ko failed" > /dev/console
done < /lib/chan.load
# ptwalk_chan=@NAME: the virtio-serial port of that name, whose node
# (vportDpP) numbers D after the other virtio devices probed before it.
want=$(sed -n 's/.*ptwalk_chan=\([@a-zA-Z0-9]*\).*/\1/p' /proc/cmdline)
[ -z "$want" ] && want=ttyS1
chan=/dev/$want
chan_ready() {
	local p
	case $want in
	@*)
		for p in /sys/class/virtio-ports/*; do
			[ "$(cat "$p/name" 2>/dev/null)" = "${want#@}" ] &&
				chan=/dev/${p##*/}
		done ;;
	esac
	[ -c "$chan" ] && (: <"$chan") 2>/dev/null
}
i=0
while ! chan_ready && [ $i -lt 400 ]; do
	usleep 50000
	i=$((i + 1))
done
# The console says where the suite's output went (an empty guest.log then
# tells a channel that lost it from a suite that never ran).
if ! chan_ready; then
	{
		echo "init: cannot open $chan after $i waits: $(ls -l "$chan" 2>&1)"
		# the kernel's last words: what held the channel's device back
		dmesg | grep -v -E "^.{0,16}(pci .*BAR|pci_bus|Adding to iommu)"
	} > /dev/console
	poweroff -f
fi
echo "init: guest suite output on $chan after $i waits" > /dev/console
exec >"$chan" 2>&1
echo "PTWALK-GUEST-BEGIN"
echo "# guest suite starts at uptime $(cut -d' ' -f1 /proc/uptime) s"
. /tests/guest-suite.sh
echo "# guest suite ends at uptime $(cut -d' ' -f1 /proc/uptime) s"
# Debug kernels only (make check-debug): kmemleak reports objects
# unreferenced for 5 s or more, after two scans; any report fails the run.
# Two, because a scan takes an object whose checksum changed since the
# scan before as still in use (mm/kmemleak.c, update_checksum()): every
# object's first scan does.  One scan alone missed a leak that two find.
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs -o mode=755 debugfs /sys/kernel/debug
if [ -e /sys/kernel/debug/kmemleak ]; then
	# not the 1 GiB hugetlb page reserved at boot: user data, 1 GiB to
	# read twice (tests/fixture/fixture_abi.h)
	/bin/vmtest --kmemleak-ignore
	sleep 6
	if echo scan > /sys/kernel/debug/kmemleak && echo scan > /sys/kernel/debug/kmemleak; then
		echo "# kmemleak: two scans done at uptime $(cut -d' ' -f1 /proc/uptime) s"
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
# On the console as well, for a channel that lost its output (an empty
# guest.log): the kernel's words about the channel's driver.
{
	echo "init: guest suite done at uptime $(cut -d' ' -f1 /proc/uptime) s"
	dmesg | grep -i -E 'virtio|hvc|vport' | tail -5
	# what virtio_console sent, to hold against guest.log's size
	for port in /sys/kernel/debug/virtio-ports/*; do
		[ -e "$port" ] && echo "init: $port: $(grep -E 'bytes_sent|bytes_discarded' "$port" | tr '\n' ' ')"
	done
} > /dev/console
# The newest kernels shut virtio-iommu down (a reset: no mapping left)
# before the devices behind it: nvme's shutdown then waits on admin
# commands whose completions fault, longer than vm-run.sh's grace.
# Unbound now, nvme deletes its queues while its domain still maps them.
for dev in /sys/bus/pci/drivers/nvme/0*; do
	[ -e "$dev" ] && echo "${dev##*/}" > /sys/bus/pci/drivers/nvme/unbind
done
# A poweroff that hangs (vm-run.sh kills it after a grace) leaves on the
# console the device whose shutdown did not return: with initcall_debug
# on, device_shutdown() names each device before it shuts it down.
echo 1 > /sys/module/kernel/parameters/initcall_debug 2>/dev/null
echo 7 > /proc/sys/kernel/printk
sync
poweroff -f
