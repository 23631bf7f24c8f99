#!/bin/sh
# Guest test suite (TAP lines on stdout), sourced by the VM's /init.
# Mode: $PTWALK_VM_MODE from the kernel command line (test or demo).

tap() { # tap OK|FAIL name [reason]
	if [ "$1" = OK ]; then echo "ok - $2"; else echo "not ok - $2 # $3"; fi
}

if insmod /lib/ptwalk.ko; then tap OK insmod_ptwalk; else tap FAIL insmod_ptwalk "insmod failed"; fi
if insmod /lib/ptwalk_fixture.ko; then tap OK insmod_fixture; else tap FAIL insmod_fixture "insmod failed"; fi

mode=$(sed -n 's/.*ptwalk_mode=\([a-z]*\).*/\1/p' /proc/cmdline)
if [ "$mode" = demo ]; then
	. /tests/demo.sh
	return 0 2>/dev/null || exit 0
fi
if [ "$mode" = bench ]; then
	. /tests/bench.sh
	return 0 2>/dev/null || exit 0
fi

# zram swap, for the swapped-page tests, and the dmainfo cases' drivers:
# the modules scripts/vm-run.sh resolved from the kernel's modules.dep, in
# load order (none when built in), each with its parameters
kmods=true
while read -r ko params; do
	# shellcheck disable=SC2086 # the parameters, one word each
	insmod "$ko" $params || kmods=false
done < /lib/kmods.load
if $kmods && [ -e /sys/block/zram0 ] && echo 512M > /sys/block/zram0/disksize &&
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0; then
	tap OK zram_swap_on
else
	tap FAIL zram_swap_on "no zram swap: swap tests will fail"
fi

# cases another lane runs, or this one cannot yet (vm-run.sh's VM_SKIP):
# vmtest leaves them out, in every mode
PTWALK_SKIP=$(sed -n 's/.*ptwalk_skip=\([a-z0-9_,]*\).*/\1/p' /proc/cmdline)
export PTWALK_SKIP

# The IOMMU lane (make check-iommu): its own cases only.
if [ "$mode" = iommu ]; then
	only=$(sed -n 's/.*ptwalk_only=\([a-z0-9_,]*\).*/\1/p' /proc/cmdline)
	# several prefixes (the riscv64 IOMMU lane's) go as PTWALK_ONLY
	case $only in
	*,*) export PTWALK_ONLY="$only" only= ;;
	esac
	/bin/vmtest --iommu $only
	# Last (it cannot be lowered): no paging domain read under
	# confidentiality lockdown (cases_owner.c).
	grep -q ' /sys/kernel/security securityfs ' /proc/mounts ||
		mount -t securityfs securityfs /sys/kernel/security
	if echo confidentiality > /sys/kernel/security/lockdown 2>/dev/null; then
		/bin/vmtest --iommu-lockdown $only
	else
		tap FAIL iommu_lockdown_raised "cannot raise confidentiality lockdown"
	fi
	return 0 2>/dev/null || exit 0
fi

. /tests/guest-platform.sh

# A sanitized /bin/ptcompare (ptwalk_sanitized= on the command line):
# asan, the ASan+UBSan build (make check-vm-asan, make check-debug
# DEBUG_SANITIZED=1), or tsan, the ThreadSanitizer build (make
# check-vm-tsan).  Each report goes to a file of its own (SAN_LOG.PID),
# whoever ran ptcompare and wherever its stderr went; pc_run() fails the
# case whose run wrote one, the end of this suite any left.  The guest has
# no symbolizer (symbolize=0): the reports' "(/bin/ptcompare+0xOFFSET)"
# resolve on the host, llvm-symbolizer-14 -e build/asan/ptcompare (or
# build/tsan/ptcompare) 0xOFFSET.  Exit status 86 (ASan, UBSan) and 66
# (TSan) are no status of ptcompare's.
SAN_LOG=/tmp/ptcompare-sanitizer
sanitized=$(sed -n 's/.*ptwalk_sanitized=\([a-z]*\).*/\1/p' /proc/cmdline)
case $sanitized in
asan)
	# /bin/ptcompare carries both runtimes, or this lane checks nothing
	if ASAN_OPTIONS=help=1 ptcompare --version 2>&1 |
		grep -q "Available flags for AddressSanitizer" &&
		grep -q __ubsan_handle_ /bin/ptcompare; then
		tap OK ptcompare_is_sanitized
	else
		tap FAIL ptcompare_is_sanitized "/bin/ptcompare lacks the ASan or UBSan runtime"
	fi
	export ASAN_OPTIONS=halt_on_error=1:exitcode=86:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_string_checks=1:symbolize=0:log_path=$SAN_LOG
	export UBSAN_OPTIONS=halt_on_error=1:exitcode=86:print_stacktrace=1:symbolize=0:log_path=$SAN_LOG
	;;
tsan)
	if TSAN_OPTIONS=help=1 ptcompare --version 2>&1 |
		grep -q "Available flags for ThreadSanitizer"; then
		tap OK ptcompare_is_sanitized
	else
		tap FAIL ptcompare_is_sanitized "/bin/ptcompare lacks the TSan runtime"
	fi
	export TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1:symbolize=0:log_path=$SAN_LOG
	;;
esac
# the cases that bound ptcompare's memory relax their bounds (tests/vm/*.c)
[ -z "$sanitized" ] || export PTWALK_SANITIZED="$sanitized"

only=$(sed -n 's/.*ptwalk_only=\([a-z0-9_,]*\).*/\1/p' /proc/cmdline)
# Several prefixes (comma-separated: the riscv64 lanes' Sv48 and Sv39
# cases) go to vmtest as PTWALK_ONLY, one as its argument.
case $only in
*,*) export PTWALK_ONLY="$only" only= ;;
esac
# ptwalk_sanitized_only=PREFIXES (vm-run.sh's VM_SANITIZED_ONLY): the
# sanitized build runs the cases those prefixes name, then the plain one
# (/bin/ptcompare.plain) the rest, under PTWALK_SKIP.  ThreadSanitizer
# checks threads and signal handlers; the rest of the suite runs ptcompare
# in one thread, where it found nothing and took three times as long.
san_only=$(sed -n 's/.*ptwalk_sanitized_only=\([a-z0-9_,]*\).*/\1/p' /proc/cmdline)
if [ -n "$san_only" ]; then
	if [ -n "$sanitized" ] && [ -x /bin/ptcompare.plain ]; then
		PTWALK_ONLY=$san_only /bin/vmtest $only
		mv /bin/ptcompare.plain /bin/ptcompare
		unset ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS PTWALK_SANITIZED
		echo "# the plain /bin/ptcompare from here on"
	else
		tap FAIL ptcompare_plain_beside_sanitized "ptwalk_sanitized_only without a sanitized build and /bin/ptcompare.plain"
	fi
	PTWALK_SKIP=${PTWALK_SKIP:+$PTWALK_SKIP,}$san_only
fi
/bin/vmtest $only
# The IOMMU lane's cases after the suite, in the same boot
# (ptwalk_iommu_cases=1: scripts/vm-run.sh VM_IOMMU=1 with MODE test, make
# check-debug), before the unload cases and kmemleak's scans, which then
# cover both.
if grep -q ' ptwalk_iommu_cases=1' /proc/cmdline; then
	/bin/vmtest --iommu $only
fi
# edu with no IOMMU (ptwalk_edu=1: scripts/vm-run.sh's VM_EDU): its kernel
# driver's cases on dma-direct, after the suite as the IOMMU lane's are
if grep -q ' ptwalk_edu=1' /proc/cmdline; then
	/bin/vmtest --edu $only
fi

# The shell idiom for the text view (docs/interface.md) works as documented.
out=$( { echo $$ >&3; cat <&3; } 3<>/sys/kernel/debug/ptwalk/text )
if echo "$out" | grep -q "^# ptwalk pid $$" && echo "$out" | grep -q " present "; then
	tap OK text_view_shell_idiom
else
	tap FAIL text_view_shell_idiom "unexpected output: $(echo "$out" | head -3)"
fi

# Unloading waits for open files: refused while one is open, fine after.
# ("command": a file that does not open fails the case, not the suite.)
if ! command exec 4</sys/kernel/debug/ptwalk/query; then
	tap FAIL unload_refused_while_open "cannot open the query file"
elif rmmod ptwalk 2>/dev/null; then
	tap FAIL unload_refused_while_open "rmmod succeeded with a file open"
else
	tap OK unload_refused_while_open
fi
exec 4<&-
# ... and for the device (checked first: a failed exec redirection would
# end the suite)
if [ ! -c /dev/ptwalk ]; then
	tap FAIL unload_refused_while_device_open "no /dev/ptwalk"
else
	exec 4</dev/ptwalk
	if rmmod ptwalk 2>/dev/null; then
		tap FAIL unload_refused_while_device_open "rmmod succeeded with /dev/ptwalk open"
	else
		tap OK unload_refused_while_device_open
	fi
	exec 4<&-
fi

# ptcompare_exit NAME STATUS NEEDLE ARGS...: exit status and message.  The
# statuses are man/ptcompare.1's EXIT STATUS (user/model/outcome.h): 2
# usage, 3 no ptwalk, 4 lockdown, 5 privilege, 6 no such process, 7 exited
# during the scan, 8 no user memory, 9 internal.
ptcompare_exit() {
	name=$1 want=$2 needle=$3
	shift 3
	msg=$(ptcompare "$@" 2>&1 >/dev/null)
	got=$?
	if [ "$got" = "$want" ] && echo "$msg" | grep -q -- "$needle" &&
		[ "$(echo "$msg" | wc -l)" -le 1 ]; then
		tap OK "$name"
	else
		tap FAIL "$name" "exit $got (want $want), said: $msg"
	fi
}

if rmmod ptwalk && [ ! -e /sys/kernel/debug/ptwalk ] && [ ! -e /dev/ptwalk ]; then
	ptcompare_exit ptcompare_module_not_loaded 3 "insmod ptwalk.ko" $$
	# --all's workers open their sessions at once: still one line, and
	# nothing on stdout
	out=$(ptcompare --jobs 2 --all 2>/tmp/all.err)
	got=$?
	if [ "$got" = 3 ] && [ -z "$out" ] && grep -q "insmod ptwalk.ko" /tmp/all.err &&
		[ "$(wc -l < /tmp/all.err)" -eq 1 ]; then
		tap OK ptcompare_all_module_not_loaded
	else
		tap FAIL ptcompare_all_module_not_loaded "exit $got (want 3), said: $(cat /tmp/all.err), printed: $(echo "$out" | head -c 200)"
	fi
	if insmod /lib/ptwalk.ko && [ -e /sys/kernel/debug/ptwalk/query ] && [ -c /dev/ptwalk ]; then
		tap OK unload_and_reload
	else
		tap FAIL unload_and_reload "insmod after rmmod failed"
	fi
else
	tap FAIL unload_and_reload "rmmod failed"
fi
# Unload and reload in a loop while scans run: rmmod is refused while a
# scan holds a file, succeeds between scans; no splat, no leak, and the
# module answers afterwards.
sleep 1000 &
target=$!
rm -f /tmp/stop_scans
( while [ ! -e /tmp/stop_scans ]; do ptcompare $target >/dev/null 2>&1; done ) &
scanner=$!
unloaded=0
for i in $(seq 1 40); do
	if rmmod ptwalk 2>/dev/null; then
		unloaded=$((unloaded + 1))
		insmod /lib/ptwalk.ko || break
	fi
	usleep 20000
done
touch /tmp/stop_scans
wait $scanner
if lsmod | grep -q '^ptwalk ' && ptcompare $target >/dev/null && [ $unloaded -gt 0 ]; then
	tap OK unload_reload_during_scans
	echo "# unload_reload_during_scans: $unloaded unloads out of 40 tries"
else
	tap FAIL unload_reload_during_scans "unloaded $unloaded times; loaded now: $(lsmod | grep -c '^ptwalk ')"
fi
kill $target
# The entry bits the architecture lacks: x86-64 the contiguous hint
# (PTWALK_F_CONT, bit 16); arm64 soft-dirty (bit 7) and, before 6.10,
# uffd-wp (bit 8).
# ptcompare says so under its first line.
# A kernel before 6.13 has no guard-region markers (662df3e5c376): guard
# (bit 18) is absent too, named after the architecture's bits.
release=$(uname -r)
major=${release%%.*}
minor=${release#*.}
minor=${minor%%[!0-9]*}
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 13 ]; }; then
	guard_bit=0x40000 guard_name=,guard
else
	guard_bit=0 guard_name=
fi
# arm64 has uffd-wp PTE bits from 6.10 (5b32510af77b "arm64/mm: Add uffd
# write-protect support": HAVE_ARCH_USERFAULTFD_WP if USERFAULTFD); before,
# or without userfaultfd (no /proc/sys/vm/unprivileged_userfaultfd), the
# bit is absent.  Known from the kernel's release and its sysctl, not from
# ptwalk's answer.
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 10 ]; } ||
	[ ! -e /proc/sys/vm/unprivileged_userfaultfd ]; then
	arm64_uffd_bit=0x100 arm64_uffd_name=,uffd_wp
else
	arm64_uffd_bit=0 arm64_uffd_name=
fi
# riscv64 has soft-dirty and uffd-wp bits from 6.19 (the kernel's
# MEM_SOFT_DIRTY and HAVE_ARCH_USERFAULTFD_WP, 7.2's Debian configuration
# has both), and only on a CPU with Svrsw60t59b, which gives bits 60:59
# to software: /proc/cpuinfo's isa line names it (QEMU 7.2 has none).
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 19 ]; } ||
	! grep -q '^isa.*_svrsw60t59b' /proc/cpuinfo; then
	riscv_bits=0x180 riscv_names=soft_dirty,uffd_wp
else
	riscv_bits=0 riscv_names=
fi
case $(uname -m) in
x86_64) want_absent=$(printf '0x%x' $((0x10000 | guard_bit))) want_names=cont$guard_name ;;
riscv64) want_absent=$(printf '0x%x' $((riscv_bits | guard_bit))) want_names=$riscv_names$guard_name ;;
aarch64) want_absent=$(printf '0x%x' $((0x80 | arm64_uffd_bit | guard_bit))) want_names=soft_dirty$arm64_uffd_name$guard_name ;;
*) want_absent=unknown want_names=unknown ;;
esac
want_names=${want_names#,}
absent_line="entry bits not on this architecture (never set, not false): $want_names"
umount /sys/kernel/debug
# Without debugfs, ptcompare goes through /dev/ptwalk and says so.
msg=$(ptcompare --stats $$ 2>&1 >/dev/null)
got=$?
if [ "$got" = 0 ] && echo "$msg" | grep -q " interface=device$"; then
	tap OK ptcompare_device_without_debugfs
else
	tap FAIL ptcompare_device_without_debugfs "exit $got, said: $msg"
fi
# The device has its own absent_flags, and ptcompare reads it there: a
# report through the device must not claim every flag exists.
absent=$(cat /sys/class/misc/ptwalk/absent_flags)
out=$(ptcompare $$ 2>&1)
if [ "$absent" = "$want_absent" ] && echo "$out" | grep -qx "$absent_line"; then
	tap OK absent_flags_device
else
	tap FAIL absent_flags_device "absent_flags reads '$absent' (want $want_absent); ptcompare: $(echo "$out" | sed -n 3p)"
fi
# Without either, it asks for debugfs.
mv /dev/ptwalk /dev/ptwalk.hidden
ptcompare_exit ptcompare_debugfs_not_mounted 3 "mount -t debugfs" $$
mv /dev/ptwalk.hidden /dev/ptwalk
mount -t debugfs -o mode=755 debugfs /sys/kernel/debug
ptcompare_exit ptcompare_no_such_pid 6 "no process 4194000" 4194000
ptcompare_exit ptcompare_kernel_thread 8 "kernel thread" 2
ptcompare_exit ptcompare_bad_range 2 "bad range" --range 0x1000-0x10 $$
ptcompare_exit ptcompare_bad_range_equals 2 "bad range" --range=0x1000-0x10 $$
# START not a multiple of the kernel's page (any page size: 0x800 is not),
# known once ptwalk.ko's geometry is read: a usage error all the same.
ptcompare_exit ptcompare_range_not_page_aligned 2 "multiples of the kernel's page size" --range 0x800-0x40000 $$
msg=$(su -s /bin/sh nobody -c "ptcompare $$" 2>&1 >/dev/null)
got=$?
if [ "$got" = 5 ] && echo "$msg" | grep -q "run as root"; then
	tap OK ptcompare_not_root
else
	tap FAIL ptcompare_not_root "exit $got (want 5), said: $msg"
fi
# The shell itself: every page explained, a table row for its stack.
if out=$(ptcompare $$) && echo "$out" | grep -q "^verdict: ok: all " &&
	echo "$out" | grep -q " \[stack\] \[.*growsdown"; then
	tap OK ptcompare_shell_report
else
	tap FAIL ptcompare_shell_report "exit $?, output: $(echo "$out" | tail -2)"
fi
# root in a user namespace has no CAP_SYS_ADMIN in the initial one
msg=$(unshare -U ptcompare $$ 2>&1 >/dev/null)
got=$?
if [ "$got" = 5 ] && echo "$msg" | grep -q "CAP_SYS_ADMIN and CAP_SYS_PTRACE in the initial namespace"; then
	tap OK ptcompare_user_namespace
else
	tap FAIL ptcompare_user_namespace "exit $got (want 5), said: $msg"
fi
ptcompare_exit ptcompare_unknown_option 2 "unknown option" --frobnicate $$
ptcompare_exit ptcompare_bad_pid 2 "bad PID" 12abc
if [ "$(cat /sys/kernel/debug/ptwalk/abi_version)" = 3 ]; then
	tap OK abi_version_file
else
	tap FAIL abi_version_file "abi_version reads '$(cat /sys/kernel/debug/ptwalk/abi_version)'"
fi
absent=$(cat /sys/kernel/debug/ptwalk/absent_flags)
out=$(ptcompare $$ 2>&1)
if [ "$absent" = "$want_absent" ] &&
	echo "$out" | grep -qx "$absent_line"; then
	tap OK absent_flags_file
else
	tap FAIL absent_flags_file "absent_flags reads '$absent' (want $want_absent); ptcompare: $(echo "$out" | sed -n 3p)"
fi

# After every ptcompare run of the suite: no sanitizer report anywhere.
if [ -n "$sanitized" ]; then
	reports=$(ls "$SAN_LOG".* 2>/dev/null)
	if [ -z "$reports" ]; then
		tap OK sanitizer_reports_none
	else
		tap FAIL sanitizer_reports_none "$(echo "$reports" | wc -l) reports, they follow"
		cat $reports
	fi
fi
