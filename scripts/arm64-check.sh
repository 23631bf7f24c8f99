#!/bin/bash
# make check-arm64: the arm64 lanes.  Fetches Debian's current arm64 6.1
# kernel and the guest's libraries (scripts/arm64-fetch.sh), cross-builds
# ptcompare and vmtest once for all lanes, and for each lane's kernel
# cross-builds ptwalk.ko and the fixture with W=1 and sparse, boots
# the kernel under qemu-system-aarch64 with the hugetlb pools of its page
# size and runs the VM suite.  Every step runs whatever failed before it
# (the VM boots with what built); each is a TAP line in the lane's TAP
# (build/arm64.tap for 6.1, build/arm64-LANE.tap for the others), followed
# by the guest's; each lane ends with its "N passed, N failed", the run
# with the lanes' failed cases and "N passed, N failed" over all of them;
# exits 1 on any failure.
#
# Lanes (ARM64_KERNELS, default all): 6.1 (bookworm, 4K pages), 6.12 and
# 6.12-16k (bookworm-backports' arm64 and arm64-16k flavours, 4K and 16K
# pages), newest and newest-16k (unstable's, built in its chroot), 64k
# (6.12 built from Debian's source with 64K pages,
# scripts/arm64-64k-kernel.sh).  The other lanes' kernels are fetched (or
# built) one after the other in the background from the start
# (scripts/kernel-fetch.sh arm64-LANE), as make check-kernels fetches.
# ARM64_JOBS: how many lanes run at a time (default 1; CI runs 2);
# ARM64_FETCH_DONE=1: use the lanes' kernels fetched before, as they are.
# ARM64_IOMMU=1 (make check-arm64-iommu): the IOMMU lane instead, the same
# steps with the VM of scripts/vm-run.sh's VM_IOMMU=1 (virt's SMMUv3, edu
# bound to vfio-pci, the device-view cases alone), into
# build/arm64-iommu.tap and build/arm64-iommu-LANE.tap, its VM's files in
# the lane's iommu-vm/.  ARM64_KERNELS_IOMMU, a list of lanes (make
# check-arm64 ARM64_KERNELS_IOMMU="6.1 6.12"): after such a lane's suite
# the IOMMU lane's VM boots too, with the same modules (no second lint),
# its cases in the lane's TAP as iommu:CASE.  ARM64_KERNELS_VIRTIO_IOMMU,
# a list of lanes whose kernel has virtio-iommu (6.12, newest and their
# 16K flavours; not 6.1): after those, the same cases with
# virtio-iommu-pci instead of the SMMU (ARM64_IOMMU_KIND=virtio), as
# iommu-virtio:CASE.
# usage: scripts/arm64-check.sh
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
all="6.1 6.12 6.12-16k newest newest-16k 64k"
lanes=${ARM64_KERNELS:-$all}
for l in $lanes ${ARM64_KERNELS_IOMMU:-} ${ARM64_KERNELS_VIRTIO_IOMMU:-}; do
	case " $all " in *" $l "*) ;; *) echo "check-arm64: unknown lane '$l': one of $all" >&2; exit 2 ;; esac
done
out=$top/build/arm64
mkdir -p "$out"
iommu=${ARM64_IOMMU:-}
case $iommu in
'' | 1) ;;
*) echo "check-arm64: ARM64_IOMMU=$iommu: 1 or empty" >&2; exit 2 ;;
esac
# A lane named for the IOMMU VM that would not run is an error, not a skip.
for l in ${ARM64_KERNELS_IOMMU:-} ${ARM64_KERNELS_VIRTIO_IOMMU:-}; do
	if [ -n "$iommu" ] || [[ " $lanes " != *" $l "* ]]; then
		echo "check-arm64: ARM64_KERNELS_IOMMU lane '$l' would not run: list it in ARM64_KERNELS too, without ARM64_IOMMU=1" >&2
		exit 2
	fi
done
# the TAP file names and the VM's directory of this kind of lane
kind=arm64${iommu:+-iommu}
vmdir=${iommu:+iommu-}vm
# ARM64_IOMMU_KIND=virtio with ARM64_IOMMU=1: virtio-iommu's lane alone
# (build/arm64-iommu-virtio*.tap, the lane's iommu-virtio-vm/)
case ${ARM64_IOMMU_KIND:-}:$iommu in
: | :1 | smmuv3:1) ;;
virtio:1) kind=arm64-iommu-virtio vmdir=iommu-virtio-vm ;;
*) echo "check-arm64: ARM64_IOMMU_KIND=${ARM64_IOMMU_KIND:-}: virtio or smmuv3, with ARM64_IOMMU=1" >&2; exit 2 ;;
esac
start_all=$(date +%s)

# The other lanes' kernels, in the background.
for l in $lanes; do
	[ "$l" = 6.1 ] && continue
	mkdir -p "build/kernels/arm64-$l" "build/arm64-lanes/$l"
	# No result of an earlier run may pass for this one's.
	rm -f "build/kernels/arm64-$l/"{fetch.rc,fetch.seconds} "build/arm64-lanes/$l/env.mk"
done
(
	for l in $lanes; do
		[ "$l" = 6.1 ] && continue
		t=$(date +%s)
		if [ "${ARM64_FETCH_DONE:-}" = 1 ] && [ -s "build/kernels/arm64-$l/kernel.env" ]; then
			echo "ARM64_FETCH_DONE=1: the fetched kernel as it is"
		elif [ "$l" = 64k ]; then
			scripts/arm64-64k-kernel.sh
		else
			scripts/kernel-fetch.sh "arm64-$l"
		fi > "build/kernels/arm64-$l/fetch.log" 2>&1
		rc=$?
		echo "$(($(date +%s) - t))" > "build/kernels/arm64-$l/fetch.seconds"
		echo $rc > "build/kernels/arm64-$l/fetch.rc"
	done
) &
fetcher=$!

# shellcheck source=scripts/lane-lib.sh
. "$top/scripts/lane-lib.sh"
# page_size CONFIG: 4K, 16K or 64K, from the kernel's own configuration
page_size() {
	sed -n 's/^CONFIG_ARM64_\([0-9]*K\)_PAGES=y$/\1/p' "$1"
}

# Shared by all lanes: the guest's userland and 6.1's kernel, ptcompare and
# vmtest (user space does not depend on the kernel); their TAP lines are
# 6.1's lane's (build/arm64.tap).
tap61=$top/build/$kind.tap
: > "$tap61"
taps=()
if ! step "$tap61" "$out" arm64_fetch arm64-fetch; then
	tail -5 "$out/arm64_fetch.log" >&2
	kill "$fetcher" 2>/dev/null
	exec scripts/tap-summary.sh "$tap61"
fi
step "$tap61" "$out" arm64_build_ptcompare arm64-user
step "$tap61" "$out" arm64_build_vmtest arm64-vmtest

# lane LANE TAP LOGDIR KREL PAGESIZE: module, fixture, lint, VM
lane() {
	local l=$1 tap=$2 logdir=$3 krel=$4 ps=$5 start ptwalk_built boot
	local args=(ARM64_LANE="$l" ARM64_PAGE_SIZE="$ps" ARM64_IOMMU="$iommu")
	# The lint's build (W=1, sparse, any warning an error) is the one the VM
	# boots, as make check-kernels does; only when it fails are the module
	# and the fixture built plainly, each on its own, for the VM to run
	# what it can.
	ptwalk_built=0
	if step "$tap" "$logdir" arm64_lint arm64-lint "${args[@]}"; then
		args+=(ARM64_KO=lint)
	else
		step "$tap" "$logdir" arm64_build_ptwalk arm64-module "${args[@]}"
		ptwalk_built=$?
		step "$tap" "$logdir" arm64_build_fixture arm64-fixture "${args[@]}"
	fi
	start=$(date +%s)
	if step "$tap" "$logdir" arm64_vm_boot arm64-vm "${args[@]}" && [ -s "$logdir/$vmdir/vm.tap" ]; then
		cat "$logdir/$vmdir/vm.tap" >> "$tap"
	fi
	# the guest's uptime when its suite started: the kernel's boot under TCG
	boot=$(sed -n 's/^# guest suite starts at uptime \([0-9.]*\) s.*/\1/p' "$logdir/$vmdir/guest.txt" 2>/dev/null | head -1)
	echo "# $kind $l ($krel, $ps pages): booted in ${boot:-?} s, VM $(($(date +%s) - start)) s in all" >> "$tap"
	if [ -z "$iommu" ] && [[ " ${ARM64_KERNELS_IOMMU:-} " == *" $l "* ]]; then
		start=$(date +%s)
		args[2]=ARM64_IOMMU=1
		if step "$tap" "$logdir" arm64_iommu_vm_boot arm64-vm "${args[@]}" && [ -s "$logdir/iommu-vm/vm.tap" ]; then
			sed 's/^\(not \)\{0,1\}ok - /&iommu:/' "$logdir/iommu-vm/vm.tap" >> "$tap"
		fi
		echo "# $kind $l: the IOMMU lane's VM $(($(date +%s) - start)) s" >> "$tap"
	fi
	if [ -z "$iommu" ] && [[ " ${ARM64_KERNELS_VIRTIO_IOMMU:-} " == *" $l "* ]]; then
		start=$(date +%s)
		args[2]=ARM64_IOMMU=1
		if step "$tap" "$logdir" arm64_iommu_virtio_vm_boot arm64-vm "${args[@]}" ARM64_IOMMU_KIND=virtio &&
			[ -s "$logdir/iommu-virtio-vm/vm.tap" ]; then
			sed 's/^\(not \)\{0,1\}ok - /&iommu-virtio:/' "$logdir/iommu-virtio-vm/vm.tap" >> "$tap"
		fi
		echo "# $kind $l: the virtio-iommu lane's VM $(($(date +%s) - start)) s" >> "$tap"
	fi
	if [ $ptwalk_built -ne 0 ]; then
		echo "check-arm64: $l: ptwalk.ko did not build: $(grep -m1 ' error:' "$logdir/arm64_build_ptwalk.log" | sed "s|$top/||")" >&2
	fi
	echo "$kind $l ($krel, $ps pages): $(scripts/tap-summary.sh "$tap" | tail -1)"
}

# run_lane LANE: one lane, into its TAP; waits for its kernel's fetch.
run_lane() {
	local l=$1 tap kout lout krel kdir
	if [ "$l" = 6.1 ]; then
		# shellcheck source=/dev/null
		krel=$(sed -n 's/^ARM64_KREL := //p' "$out/env.mk")
		kdir=$(sed -n 's/^ARM64_KDIR := //p' "$out/env.mk")
		lane 6.1 "$tap61" "$out" "$krel" "$(page_size "$kdir/.config")"
		return
	fi
	tap=$top/build/$kind-$l.tap
	: > "$tap"
	kout=build/kernels/arm64-$l
	lout=$top/build/arm64-lanes/$l
	if ! kernel_fetched arm64_fetch "$kout" "$tap"; then
		echo "arm64 $l: the kernel's fetch or build failed (log: $kout/fetch.log)"
		return
	fi
	{
		lane_env_mk ARM64 "$kout"
		echo "ARM64_LANE_KREL := $(sed -n 's/^KREL=//p' "$kout/kernel.env")"
	} > "$lout/env.mk"
	(
		# shellcheck source=/dev/null
		. "$kout/kernel.env"
		lane "$l" "$tap" "$lout" "$KREL" "$(page_size "$CHROOT$KDIR/.config")"
	)
}

# ARM64_JOBS lanes at a time (default 1): a lane's VM keeps about one of
# the machine's cores busy (the suite's cases run one after the other), so
# on two cores two lanes take little more than one.
jobs=${ARM64_JOBS:-1}
# the shared builds' lines count whether or not 6.1's lane runs
case " $lanes " in *" 6.1 "*) ;; *) taps+=("$tap61") ;; esac
for l in $lanes; do
	if [ "$l" = 6.1 ]; then taps+=("$tap61"); else taps+=("$top/build/$kind-$l.tap"); fi
	# the lanes running now (the fetcher is a job too)
	while [ "$(jobs -rp | grep -cvx "$fetcher")" -ge "$jobs" ]; do
		wait -n
	done
	run_lane "$l" &
done
wait

echo "=== $kind lanes: $(($(date +%s) - start_all)) s in all ==="
grep -h "^# $kind " "${taps[@]}" 2>/dev/null
exec scripts/tap-summary.sh "${taps[@]}"
