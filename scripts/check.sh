#!/bin/sh
# make check: every suite runs even when an earlier one fails; the last line
# is the summary over all of them.
# Env: CHECK_VM_SANITIZED (default "asan tsan"): the sanitized ptcompare
# builds the 6.1 VM suite runs again with (make check-vm-asan,
# check-vm-tsan).  CI (.ci/run) sets it empty and runs them over the
# kernel matrix instead (make check-kernels KERNELS_SANITIZED=...), where
# the same suite boots anyway: the whole suite under each sanitizer,
# without two more boots of 6.1.  CHECK_IOMMU_AMD (default 1): 0 leaves
# out the IOMMU lane's AMD-Vi run on 6.1 (CI boots AMD-Vi on newest).
# CHECK_CONFIGS (default 1): 0 leaves out make check-configs (CI runs it
# at a stream's end).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
build=$top/build
mkdir -p "$build"
rm -f "$build"/build.tap "$build"/unit.tap "$build"/lint.tap "$build"/layout.tap "$build"/vm.tap "$build"/packaging.tap \
	"$build"/unit-asan.tap "$build"/fuzz.tap "$build"/vm-asan.tap "$build"/vm-tsan.tap \
	"$build"/iommu.tap "$build"/iommu-amd.tap "$build"/configs.tap

# step TARGET [VAR=value...]: make TARGET, its wall time kept for the
# summary (where CI's time goes: docs/testing.md)
times=""
step() {
	t0=$(date +%s)
	make "$@"
	rc=$?
	times="$times $(echo "$*" | tr ' ' ':') $(($(date +%s) - t0))s"
	return $rc
}
step all || echo "not ok - build # make all failed" > "$build/build.tap"
[ -e "$build/build.tap" ] || echo "ok - build" > "$build/build.tap"
step check-unit
step check-unit-asan
step check-fuzz
step check-lint
step check-layout
step check-vm
sanitized=${CHECK_VM_SANITIZED-asan tsan}
san_taps=""
for san in $sanitized; do
	case $san in
	asan | tsan) step "check-vm-$san"; san_taps="$san_taps $build/vm-$san.tap" ;;
	*) echo "not ok - vm-$san # CHECK_VM_SANITIZED: asan or tsan" > "$build/vm-$san.tap"; san_taps="$san_taps $build/vm-$san.tap" ;;
	esac
done
step check-iommu
# the same cases with QEMU's AMD-Vi instead of VT-d (CHECK_IOMMU_AMD=0:
# not here; CI runs AMD-Vi on the newest kernel's lane instead)
amd_tap=""
if [ "${CHECK_IOMMU_AMD:-1}" = 1 ]; then
	step check-iommu IOMMU=amd
	amd_tap=$build/iommu-amd.tap
else
	echo "# make check-iommu IOMMU=amd: not here (CHECK_IOMMU_AMD=0)"
fi
step check-packaging
# last: its kernels take long to build the first time (CHECK_CONFIGS=0:
# not here; CI runs make check-configs at the end of a stream, its
# kernels built in the background from the start)
configs_tap=""
if [ "${CHECK_CONFIGS:-1}" = 1 ]; then
	step check-configs
	configs_tap=$build/configs.tap
else
	echo "# make check-configs: not here (CHECK_CONFIGS=0)"
fi
echo "=== summary ==="
echo "# seconds per step:$times"
[ -n "$sanitized" ] || echo "# the VM suite with the sanitized ptcompare builds: not here (CHECK_VM_SANITIZED empty: make check-kernels KERNELS_SANITIZED runs it)"
# shellcheck disable=SC2086 # san_taps, amd_tap, configs_tap: paths without blanks
exec scripts/tap-summary.sh "$build/build.tap" "$build/unit.tap" \
	"$build/unit-asan.tap" "$build/fuzz.tap" \
	"$build/lint.tap" "$build/layout.tap" $configs_tap "$build/vm.tap" $san_taps \
	"$build/iommu.tap" $amd_tap "$build/packaging.tap"
