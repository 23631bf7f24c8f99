#!/bin/bash
# make check-riscv64: the riscv64 lanes.  Fetches Debian's riscv64 kernels
# (scripts/kernel-fetch.sh riscv64-6.12, then riscv64-newest in the
# background) into the unstable chroot, and the guest's userland
# (scripts/riscv64-fetch.sh); cross-builds ptcompare and vmtest once, and
# for each lane's kernel ptwalk.ko and the fixture with W=1 and sparse;
# boots it under qemu-system-riscv64 (-cpu rv64 with Svnapot and Svpbmt)
# in each paging mode: Sv57 (the kernel's default) runs the whole suite,
# Sv48 (no5lvl) and Sv39 (no4lvl) the cases that walk and read leaves
# (RISCV64_MODE_CASES); the guest's paging_mode case fails a boot whose
# mode (/proc/cpuinfo's mmu) is not the one asked for.  trixie's 6.12
# boots under the installed QEMU (7.2); unstable's newest under
# bookworm-backports' QEMU 10 (scripts/riscv64-qemu-fetch.sh): 7.2 takes
# the device tree's mmu-type as the widest mode, which QEMU 7.2 always
# gives as Sv48.  Every step runs whatever failed before it (the
# VM boots with what built); each is a TAP line in build/riscv64-LANE.tap,
# followed by the guest's, a mode's cases prefixed MODE: after Sv57;
# each lane ends with its "N passed, N failed", the run with the failed
# cases and "N passed, N failed" over all lanes; exits 1 on any failure.
# Lanes (RISCV64_KERNELS, default "6.12 newest"); modes (RISCV64_MODES,
# default "sv57 sv48 sv39": MODE for every lane, LANE:MODE for one, e.g.
# "newest:sv57 6.12:sv48 6.12:sv39", what CI boots in two runs);
# The newest lane boots once more, after its modes, for the IOMMU lane
# (RISCV64_IOMMU=1, the default; 0: not): QEMU 10's riscv-iommu-pci with
# edu behind it and the IOMMU lane's cases that hold without VFIO's type1
# (RISCV64_IOMMU_CASES: edu's kernel driver, the DMA-API domain), in Sv57.
# RISCV64_FETCH_DONE=1: the kernels (and QEMU) fetched before, as they
# are; RISCV64_USER_DONE=1: ptcompare and vmtest built before (make
# riscv64-fetch, then make riscv64-user riscv64-vmtest), no shared steps
# and no build/riscv64.tap, so that two lanes may run at once (CI).
# usage: scripts/riscv64-check.sh
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
all="6.12 newest"
lanes=${RISCV64_KERNELS:-$all}
modes=${RISCV64_MODES:-sv57 sv48 sv39}
for l in $lanes; do
	case " $all " in *" $l "*) ;; *) echo "check-riscv64: unknown lane '$l': one of $all" >&2; exit 2 ;; esac
done
for m in $modes; do
	case ${m#*:} in sv57 | sv48 | sv39) ;; *) echo "check-riscv64: unknown mode '$m': [LANE:]sv57, sv48 or sv39" >&2; exit 2 ;; esac
	case $m in *:*) case " $all " in *" ${m%%:*} "*) ;; *) echo "check-riscv64: unknown lane in '$m': one of $all" >&2; exit 2 ;; esac ;; esac
done
# lane_modes LANE: the modes LANE boots, in RISCV64_MODES' order
lane_modes() {
	local m
	for m in $modes; do
		case $m in "$1":*) echo "${m#*:}" ;; *:*) ;; *) echo "$m" ;; esac
	done
}
for l in $lanes; do
	[ -n "$(lane_modes "$l")" ] ||
		{ echo "check-riscv64: RISCV64_MODES='$modes' boots nothing on lane $l" >&2; exit 2; }
done
# The lanes booted under bookworm-backports' QEMU 10 (see above)
qemu_lanes="newest"
# The lanes with an IOMMU lane (QEMU 10's riscv-iommu-pci; 6.12 lacks
# RISCV_IOMMU) and its cases: Debian's riscv64 VFIO has no type1, so
# those of a VFIO container are left out (docs/riscv64.md)
iommu_lanes="newest"
iommu=${RISCV64_IOMMU:-1}
case $iommu in 0 | 1) ;; *) echo "check-riscv64: RISCV64_IOMMU=$iommu: 1 or 0" >&2; exit 2 ;; esac
iommu_cases=${RISCV64_IOMMU_CASES:-edu_driver_,dma_driver_,iommu_dma_api_domain}
# The cases Sv48 and Sv39 run (vmtest prefixes): every kind of leaf, the
# walk over the whole address space and at its top, vtop's levels, the
# geometry.  The rest does not depend on the number of levels.
mode_cases=${RISCV64_MODE_CASES:-anon_4k,untouched,zero_page,thp_,huge_zero_page,hugetlb_,pci_bar_,pfnmap_fixture,prot_none,whole_address_space,fork_cow,pagesize_geometry,vtop_,hugepfn_}
start_all=$(date +%s)
out=$top/build/riscv64
mkdir -p "$out"
for l in $lanes; do
	mkdir -p "build/kernels/riscv64-$l" "build/riscv64-lanes/$l"
	rm -f "build/kernels/riscv64-$l/"{fetch.rc,fetch.seconds} "build/riscv64-lanes/$l/env.mk"
done

# shellcheck source=scripts/lane-lib.sh
. "$top/scripts/lane-lib.sh"
uses_qemu10() { case " $qemu_lanes " in *" $1 "*) return 0 ;; esac; return 1; }
has_iommu() { case " $iommu_lanes " in *" $1 "*) return 0 ;; esac; return 1; }
# fetch LANE: the lane's kernel (and QEMU), its status in fetch.rc
fetch() {
	local t rc
	t=$(date +%s)
	if [ "${RISCV64_FETCH_DONE:-}" = 1 ] && [ -s "build/kernels/riscv64-$1/kernel.env" ] &&
		{ ! uses_qemu10 "$1" || [ -s build/qemu-riscv64/qemu.env ]; }; then
		echo "RISCV64_FETCH_DONE=1: the fetched kernel as it is"
		rc=0
	else
		scripts/kernel-fetch.sh "riscv64-$1" &&
			{ ! uses_qemu10 "$1" || scripts/riscv64-qemu-fetch.sh; }
		rc=$?
	fi > "build/kernels/riscv64-$1/fetch.log" 2>&1
	echo "$(($(date +%s) - t))" > "build/kernels/riscv64-$1/fetch.seconds"
	echo $rc > "build/kernels/riscv64-$1/fetch.rc"
}

# The first lane's kernel makes the chroot the userland is built in; the
# others' come in the background while the first lane runs.
# shellcheck disable=SC2086 # the lanes, one word each
set -- $lanes
fetch "$1"
(
	shift
	for l in "$@"; do fetch "$l"; done
) &
fetcher=$!
taps=()
if [ "${RISCV64_USER_DONE:-}" != 1 ]; then
	shared=$top/build/riscv64.tap
	taps+=("$shared")
	: > "$shared"
	step "$shared" "$out" riscv64_fetch riscv64-fetch &&
		step "$shared" "$out" riscv64_build_ptcompare riscv64-user &&
		step "$shared" "$out" riscv64_build_vmtest riscv64-vmtest
fi

# lane LANE TAP LOGDIR KREL QEMU-VERSION: module, fixture, lint, a VM per mode
lane() {
	local l=$1 tap=$2 logdir=$3 krel=$4 qver=$5 start boot m vm
	local args=(RISCV64_LANE="$l")
	if step "$tap" "$logdir" riscv64_lint riscv64-lint "${args[@]}"; then
		args+=(RISCV64_KO=lint)
	else
		step "$tap" "$logdir" riscv64_build_ptwalk riscv64-module "${args[@]}"
		step "$tap" "$logdir" riscv64_build_fixture riscv64-fixture "${args[@]}"
	fi
	for m in $(lane_modes "$l"); do
		local margs=(RISCV64_VM="vm-$m")
		case $m in
		sv57) margs+=(RISCV64_APPEND="ptwalk_mmu=sv57") ;;
		sv48) margs+=(RISCV64_APPEND="no5lvl ptwalk_mmu=sv48" RISCV64_ONLY="$mode_cases") ;;
		sv39) margs+=(RISCV64_APPEND="no4lvl ptwalk_mmu=sv39" RISCV64_ONLY="$mode_cases") ;;
		esac
		vm=$logdir/vm-$m
		start=$(date +%s)
		if step "$tap" "$logdir" "riscv64_${m}_vm_boot" riscv64-vm "${args[@]}" "${margs[@]}" &&
			[ -s "$vm/vm.tap" ]; then
			if [ "$m" = sv57 ]; then
				cat "$vm/vm.tap" >> "$tap"
			else
				sed "s/^\(not \)\{0,1\}ok - /&$m:/" "$vm/vm.tap" >> "$tap"
			fi
		fi
		boot=$(sed -n 's/^# guest suite starts at uptime \([0-9.]*\) s.*/\1/p' "$vm/guest.txt" 2>/dev/null | head -1)
		echo "# riscv64 $l $m ($krel, QEMU $qver): booted in ${boot:-?} s, VM $(($(date +%s) - start)) s in all" >> "$tap"
	done
	if [ "$iommu" = 1 ] && has_iommu "$l"; then
		vm=$logdir/vm-iommu
		start=$(date +%s)
		if step "$tap" "$logdir" riscv64_iommu_vm_boot riscv64-vm "${args[@]}" \
			RISCV64_VM=vm-iommu RISCV64_IOMMU=1 RISCV64_ONLY="$iommu_cases" &&
			[ -s "$vm/vm.tap" ]; then
			cat "$vm/vm.tap" >> "$tap"
		fi
		boot=$(sed -n 's/^# guest suite starts at uptime \([0-9.]*\) s.*/\1/p' "$vm/guest.txt" 2>/dev/null | head -1)
		echo "# riscv64 $l iommu ($krel, QEMU $qver, riscv-iommu-pci): booted in ${boot:-?} s, VM $(($(date +%s) - start)) s in all" >> "$tap"
	fi
	echo "riscv64 $l ($krel): $(scripts/tap-summary.sh "$tap" | tail -1)"
}

for l in $lanes; do
	tap=$top/build/riscv64-$l.tap
	taps+=("$tap")
	: > "$tap"
	kout=build/kernels/riscv64-$l
	lout=$top/build/riscv64-lanes/$l
	kernel_fetched riscv64_fetch "$kout" "$tap" || continue
	lane_env_mk RISCV64 "$kout" > "$lout/env.mk"
	# shellcheck disable=SC2153 # KREL and the others: kernel.env's
	(
		# shellcheck source=/dev/null
		. "$kout/kernel.env"
		if uses_qemu10 "$l"; then
			# shellcheck source=/dev/null
			. build/qemu-riscv64/qemu.env
			cat >> "$lout/env.mk" <<-EOT
			RISCV64_QEMU := $QEMU
			RISCV64_BIOS := $BIOS
			EOT
		fi
		qver=$("${QEMU:-qemu-system-riscv64}" --version 2>/dev/null |
			sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
		lane "$l" "$tap" "$lout" "$KREL" "${qver:-?}"
	)
done
wait "$fetcher"

echo "=== riscv64 lanes: $(($(date +%s) - start_all)) s in all ==="
grep -h "^# riscv64 " "${taps[@]}" 2>/dev/null
exec scripts/tap-summary.sh "${taps[@]}"
