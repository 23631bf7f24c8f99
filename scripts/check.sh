#!/bin/sh
# make check: every suite runs even when an earlier one fails; the last line
# is the summary over all of them.
# Env: CHECK_VM_SANITIZED (default "asan tsan"): the sanitized ptcompare
# builds the 6.1 VM suite runs again with (make check-vm-asan,
# check-vm-tsan).  CI (.ci/run) sets it empty and runs them over the
# kernel matrix instead (make check-kernels KERNELS_SANITIZED=...), where
# the same suite boots anyway: the whole suite under each sanitizer,
# without two more boots of 6.1.
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
# the same cases with QEMU's AMD-Vi instead of VT-d
step check-iommu IOMMU=amd
step check-packaging
# last: CI builds its kernels in the background meanwhile (.ci/run)
step check-configs
echo "=== summary ==="
echo "# seconds per step:$times"
[ -n "$sanitized" ] || echo "# the VM suite with the sanitized ptcompare builds: not here (CHECK_VM_SANITIZED empty: make check-kernels KERNELS_SANITIZED runs it)"
# shellcheck disable=SC2086 # san_taps: a list of paths without blanks
exec scripts/tap-summary.sh "$build/build.tap" "$build/unit.tap" \
	"$build/unit-asan.tap" "$build/fuzz.tap" \
	"$build/lint.tap" "$build/layout.tap" "$build/configs.tap" "$build/vm.tap" $san_taps \
	"$build/iommu.tap" "$build/iommu-amd.tap" "$build/packaging.tap"
