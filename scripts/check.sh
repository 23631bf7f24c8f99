#!/bin/sh
# make check: every suite runs even when an earlier one fails; the last line
# is the summary over all of them.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
build=$top/build
mkdir -p "$build"
rm -f "$build"/build.tap "$build"/unit.tap "$build"/lint.tap "$build"/layout.tap "$build"/vm.tap "$build"/packaging.tap \
	"$build"/unit-asan.tap "$build"/fuzz.tap "$build"/vm-asan.tap "$build"/vm-tsan.tap \
	"$build"/iommu.tap

make all || echo "not ok - build # make all failed" > "$build/build.tap"
[ -e "$build/build.tap" ] || echo "ok - build" > "$build/build.tap"
make check-unit
make check-unit-asan
make check-fuzz
make check-lint
make check-layout
make check-vm
make check-vm-asan
make check-vm-tsan
make check-iommu
make check-packaging
echo "=== summary ==="
exec scripts/tap-summary.sh "$build/build.tap" "$build/unit.tap" \
	"$build/unit-asan.tap" "$build/fuzz.tap" \
	"$build/lint.tap" "$build/layout.tap" "$build/vm.tap" "$build/vm-asan.tap" \
	"$build/vm-tsan.tap" "$build/iommu.tap" "$build/packaging.tap"
