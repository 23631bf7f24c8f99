#!/bin/sh
# Guest suite, what the VM must provide for the cases that follow, on every
# architecture (sourced by guest-suite.sh, which defines tap): the hugetlb
# pools the kernel command line asks for, a PCI device whose BAR can be
# mapped (QEMU's display), and ptcompare's run-time pieces (its loader and
# libc; libkmod, which it opens only to explain a failure).

# Every hugetlb page size the kernel offers has the pool the command line
# asks for (hugepagesz=SIZE hugepages=N): none left out, none short.
asked="" size=""
read -r cmdline < /proc/cmdline
for arg in $cmdline; do
	case $arg in
	hugepagesz=*) size=${arg#*=} ;;
	hugepages=*)
		case $size in
		*K) kb=${size%K} ;;
		*M) kb=$((${size%M} * 1024)) ;;
		*G) kb=$((${size%G} * 1048576)) ;;
		*) kb=unknown ;;
		esac
		asked="$asked ${kb}kB:${arg#*=}" ;;
	esac
done
pools="" pools_ok=true
for pool in /sys/kernel/mm/hugepages/hugepages-*; do
	kb=${pool##*-}
	want=$(echo "$asked" | tr ' ' '\n' | sed -n "s/^$kb://p")
	got=$(cat "$pool/nr_hugepages")
	pools="$pools $kb:$got/${want:-unasked}"
	[ -n "$want" ] && [ "$got" = "$want" ] || pools_ok=false
done
if [ -n "$pools" ] && $pools_ok; then
	tap OK hugetlb_pools_reserved
	echo "# hugetlb pools (size:reserved/asked):$pools"
else
	tap FAIL hugetlb_pools_reserved "pools (size:reserved/asked):${pools:- none}"
fi

# QEMU's display (vendor 0x1234): BAR 0 mappable uncached and write-combined
# (riscv64: uncached alone, the kernel has no arch_can_pci_mmap_wc()).
bar=""
for dev in /sys/bus/pci/devices/*; do
	[ "$(cat "$dev/vendor" 2>/dev/null)" = 0x1234 ] || continue
	[ -e "$dev/resource0" ] || continue
	len=$(stat -c %s "$dev/resource0")
	if [ "$(uname -m)" = riscv64 ]; then
		[ "$len" -gt 0 ] && [ ! -e "$dev/resource0_wc" ] &&
			bar="$dev $len bytes, no resource0_wc"
		continue
	fi
	[ -e "$dev/resource0_wc" ] || continue
	[ "$len" -gt 0 ] && [ "$(stat -c %s "$dev/resource0_wc")" = "$len" ] &&
		bar="$dev $len bytes"
done
if [ -n "$bar" ]; then
	tap OK pci_bar_resource_files
	echo "# PCI BAR 0: $bar"
else
	tap FAIL pci_bar_resource_files "no vendor 0x1234 device with resource0 and resource0_wc: $(ls /sys/bus/pci/devices)"
fi

out=$(ptcompare --version 2>&1)
if echo "$out" | grep -qx 'ptcompare [0-9][0-9.]* (ptwalk ABI [0-9]*)'; then
	tap OK ptcompare_runs
else
	tap FAIL ptcompare_runs "ptcompare --version: $out"
fi
# Where ptwalk's files are not, ptcompare asks libkmod whether the module is
# loaded; without libkmod it can only say "not found".
out=$(ptcompare --debugfs /nonexistent $$ 2>&1)
got=$?
if [ $got = 3 ] && echo "$out" | grep -q -e "^ptcompare: ptwalk is not loaded" \
	-e "^ptcompare: ptwalk is loaded but"; then
	tap OK ptcompare_opens_libkmod
else
	tap FAIL ptcompare_opens_libkmod "exit $got (want 3: ptwalk not reachable), said: $out"
fi

# The paging mode a riscv64 lane asked for (ptwalk_mmu= on the command
# line, make check-riscv64): the kernel chose it, as /proc/cpuinfo's mmu
# line says, or the lane's cases ran in another mode than they are named
# after (a kernel takes the widest mode the device tree allows, and no5lvl
# and no4lvl only narrow it).
want_mmu=$(sed -n 's/.*ptwalk_mmu=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
if [ -n "$want_mmu" ]; then
	got_mmu=$(sed -n 's/^mmu[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | sort -u | tr '\n' ' ')
	if [ "$got_mmu" = "$want_mmu " ]; then
		tap OK paging_mode
		echo "# paging mode: $want_mmu"
	else
		tap FAIL paging_mode "mmu ${got_mmu:-not in /proc/cpuinfo}, the lane asked for $want_mmu"
	fi
fi
