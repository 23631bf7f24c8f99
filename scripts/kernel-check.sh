#!/bin/bash
# One kernel of the matrix (make check-vm KERNEL=K; make check-kernels runs
# them all): fetch Debian's kernel K (scripts/kernel-fetch.sh), build
# ptwalk.ko and the test fixture against its headers with W=1 and sparse
# (scripts/kernel-lint.sh: zero warnings), boot it under QEMU and run the
# whole VM suite there (scripts/vm-run.sh).  The modules build from a copy
# of their sources (build/kernels/K/mod, or /ptwalk inside the chroot for
# "newest"), so the tree's own 6.1 build is left alone.
#
# usage: scripts/kernel-check.sh KERNEL SRC...
#   KERNEL: 5.10 | 6.1 | 6.12 | newest;  SRC: the module and fixture sources
#   (the Makefile's MOD_SRCS).  user/ptcompare, build/vmtest and build/compat32
#   must be built.
# Writes build/kernels/K/kernel-K.tap (fetch, lint, VM cases) and
# build/kernels/K/times (seconds per step); exits 1 if any case failed.
# Env: KERNEL_FETCH_DONE=1 skips the fetch (the caller ran it already);
# KERNELS_SANITIZED, a list of KERNEL:SANITIZER (asan or tsan; e.g.
# "6.12:asan newest:tsan"): on those kernels the suite runs with
# ptcompare's ASan+UBSan or ThreadSanitizer build (build/asan/ptcompare,
# build/tsan/ptcompare: make check-kernels builds them) and fails on any
# report, as make check-vm-asan and check-vm-tsan do on 6.1 (TSAN_CASES:
# the ThreadSanitizer build runs only the cases it names);
# VM_ONLY, VM_TIMEOUT as for scripts/vm-run.sh; KERNEL_VM_MODE=iommu
# (make check-iommu KERNEL=K) boots the IOMMU lane instead of the VM
# suite (VM_IOMMU=1, mode iommu), into build/kernels/K/iommu and
# build/kernels/K/iommu-K.tap; KERNELS_IOMMU, a list of kernels (make
# check-kernels KERNELS_IOMMU="5.10 6.12 newest"): after the suite, the
# IOMMU lane boots with the same modules and ptcompare, its cases in the
# same TAP as iommu:CASE; an entry K:amd or K:virtio boots that lane with
# AMD-Vi or virtio-iommu instead of VT-d (VM_IOMMU_KIND), its cases as
# iommu-amd:CASE, iommu-virtio:CASE.  VM_IOMMU_KIND (make check-iommu
# IOMMU=amd KERNEL=K): which IOMMU KERNEL_VM_MODE=iommu boots, into
# build/kernels/K/iommu-KIND and build/kernels/K/iommu-KIND-K.tap.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 5.10|6.1|6.12|newest SRC..." >&2; exit 2; }
kernel=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
out=$top/build/kernels/$kernel
vm_mode=${KERNEL_VM_MODE:-test}
# the IOMMU lanes' directory and TAP prefix per emulated IOMMU: VT-d's
# iommu, the others iommu-KIND (VM_IOMMU_KIND)
iommu_name() { # KIND
	case $1 in vtd | '') echo iommu ;; *) echo "iommu-$1" ;; esac
}
case $vm_mode in
test) tap=$out/kernel-$kernel.tap vmout=$out/vm ;;
iommu)
	lane=$(iommu_name "${VM_IOMMU_KIND:-}")
	tap=$out/$lane-$kernel.tap vmout=$out/$lane; export VM_IOMMU=1 ;;
# make bench KERNEL=K: the benchmark's numbers on stdout, no TAP
bench) tap=$out/bench-$kernel.tap vmout=$out/bench ;;
*) echo "KERNEL_VM_MODE=$vm_mode: test, iommu or bench" >&2; exit 2 ;;
esac
mkdir -p "$out"
: > "$tap"
: > "$out/times"
step() { # NAME START: record the seconds since START
	echo "$1 $(($(date +%s) - $2))" >> "$out/times"
}

t=$(date +%s)
if [ "${KERNEL_FETCH_DONE:-}" != 1 ] && ! scripts/kernel-fetch.sh "$kernel" > "$out/fetch.log" 2>&1; then
	cat "$out/fetch.log" >&2
	echo "not ok - fetch # $(tail -1 "$out/fetch.log")" >> "$tap"
	exit 1
fi
step fetch "$t"
echo "ok - fetch" >> "$tap"
# shellcheck source=/dev/null
. "$out/kernel.env"
# The IOMMU lane: before 5.11 a group's default domain cannot change at run
# time, so identity comes from the command line there (vm-run.sh).
if printf '%s\n' "$KREL" 5.11 | sort -V -C; then
	export VM_IOMMU_PASSTHROUGH=1
fi

if [ -n "$CHROOT" ]; then
	moddir=$CHROOT/ptwalk
	lint_src=/ptwalk
else
	moddir=$out/mod
	lint_src=$moddir
fi
scripts/copy-changed.sh "$moddir" "$@" || exit 2
t=$(date +%s)
KDIR=$KDIR LINT_SRC=$lint_src LINT_CHROOT=$CHROOT LINT_CC=$KCC LINT_CHECKPATCH=no \
	scripts/kernel-lint.sh "$out/lint.tap" > /dev/null
step build "$t"
cat "$out/lint.tap" >> "$tap"

ptcompare=user/ptcompare sanitized=""
for ks in ${KERNELS_SANITIZED:-}; do
	[ "${ks%%:*}" = "$kernel" ] || continue
	sanitized=${ks#*:}
	case $sanitized in
	asan | tsan) ptcompare=build/$sanitized/ptcompare ;;
	*) echo "not ok - vm_run # KERNELS_SANITIZED: $ks: asan or tsan" >> "$tap"; exit 1 ;;
	esac
	[ -x "$ptcompare" ] || { echo "not ok - vm_run # no $ptcompare: make $sanitized-ptcompare" >> "$tap"; exit 1; }
done
# Then, as make bench on the default kernel, the IOMMU boot (VM_ONLY=r:
# that alone): the recorder's cost, and the DMA tracking's (6.12+).
if [ "$vm_mode" = bench ]; then
	grep -q '^not ok ' "$tap" && { cat "$tap" >&2; exit 1; }
	status=0
	if [ "${VM_ONLY:-}" != r ]; then
		VM_MEM=8G VM_TIMEOUT=3600 VM_KERNEL=$VMLINUZ VM_MODTREE=$MODTREE VM_KO_DIR=$moddir \
			scripts/vm-run.sh "$vmout" "$KREL" bench build/ptbench:/bin/ptbench "$ptcompare":/bin/ptcompare || status=1
	fi
	case ${VM_ONLY:-} in
	'' | *r*)
		echo "booting it again with VT-d and edu bound to vfio-pci, for the recorder's and the DMA tracking's cost..."
		VM_IOMMU=1 VM_ONLY='' VM_TIMEOUT=1200 VM_KERNEL=$VMLINUZ VM_MODTREE=$MODTREE VM_KO_DIR=$moddir \
			scripts/vm-run.sh "$vmout-recorder" "$KREL" bench build/ptbench:/bin/ptbench || status=1 ;;
	esac
	exit $status
fi
t=$(date +%s)
# A sanitized ptcompare is slower: twice vm-run.sh's default timeout
[ -z "$sanitized" ] || export VM_TIMEOUT=${VM_TIMEOUT:-1200}
# ThreadSanitizer's build runs the cases where ptcompare starts threads
# (TSAN_CASES, from the Makefile), the plain build the rest (vm-run.sh's
# VM_SANITIZED_ONLY) and the IOMMU lane's cases, which start none.
san_only="" plain=()
if [ "$sanitized" = tsan ] && [ -n "${TSAN_CASES:-}" ]; then
	san_only=$TSAN_CASES
	plain=(user/ptcompare:/bin/ptcompare.plain)
fi
VM_KERNEL=$VMLINUZ VM_MODTREE=$MODTREE VM_KO_DIR=$moddir VM_SANITIZED=$sanitized \
	VM_SANITIZED_ONLY=$san_only scripts/vm-run.sh "$vmout" "$KREL" "$vm_mode" \
	build/vmtest:/bin/vmtest "$ptcompare":/bin/ptcompare "${plain[@]}" build/compat32:/bin/compat32 ||
	echo "not ok - vm_run # scripts/vm-run.sh failed" >> "$tap"
step vm "$t"
cat "$vmout/vm.tap" >> "$tap" 2>/dev/null
# KERNELS_IOMMU entries: K (VT-d) or K:KIND (amd, virtio, vtd), each lane
# booted in the order given
for ki in ${KERNELS_IOMMU:-}; do
	if [ "$vm_mode" != test ] || [ "${ki%%:*}" != "$kernel" ]; then
		continue
	fi
	kind=vtd
	[ "$ki" = "${ki#*:}" ] || kind=${ki#*:}
	lane=$(iommu_name "$kind")
	t=$(date +%s)
	iommu_san=$sanitized iommu_pc=$ptcompare
	[ -z "$san_only" ] || iommu_san="" iommu_pc=user/ptcompare
	VM_IOMMU=1 VM_IOMMU_KIND=$kind VM_KERNEL=$VMLINUZ VM_MODTREE=$MODTREE VM_KO_DIR=$moddir \
		VM_SANITIZED=$iommu_san scripts/vm-run.sh "$out/$lane" "$KREL" iommu build/vmtest:/bin/vmtest "$iommu_pc":/bin/ptcompare ||
		echo "not ok - $lane:vm_run # scripts/vm-run.sh failed" >> "$tap"
	step "$lane" "$t"
	sed "s/^\(not \)\{0,1\}ok - /&$lane:/" "$out/$lane/vm.tap" >> "$tap" 2>/dev/null
done
echo "kernel $kernel ($KREL${sanitized:+, ptcompare $sanitized}): $(grep -c '^ok ' "$tap") passed, $(grep -c '^not ok ' "$tap") failed;" \
	"seconds: $(tr '\n' ' ' < "$out/times")"
! grep -q '^not ok ' "$tap"
