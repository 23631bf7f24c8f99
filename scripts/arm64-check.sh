#!/bin/sh
# make check-arm64: fetches Debian's current arm64 kernel and the guest's
# libraries, cross-builds ptwalk.ko, the fixture, ptcompare and vmtest,
# lints the module and the fixture (W=1, sparse), boots the kernel under
# qemu-system-aarch64 and runs the VM suite.  Every
# step runs whatever failed before it (the VM boots with what built); each
# is a TAP line in build/arm64.tap, followed by the guest's.  Ends with
# "N passed, N failed"; exits 1 on any failure.
# usage: scripts/arm64-check.sh
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/arm64
tap=$top/build/arm64.tap
mkdir -p "$out"
: > "$tap"

# step NAME MAKE-TARGET: make's output to $out/NAME.log; on failure the TAP
# line carries the first error line of the log.
step() {
	name=$1 target=$2
	start=$(date +%s)
	if make -C "$top" --no-print-directory "$target" > "$out/$name.log" 2>&1; then
		echo "ok - $name # $(($(date +%s) - start)) s" >> "$tap"
		return 0
	fi
	why=$(grep -m1 -E 'error|Error|arm64-fetch:|vm-run:' "$out/$name.log" |
		sed "s|$top/||g")
	echo "not ok - $name # ${why:-make $target failed}, see $out/$name.log" >> "$tap"
	return 1
}

step arm64_fetch arm64-fetch || {
	tail -5 "$out/arm64_fetch.log" >&2
	exec "$top/scripts/tap-summary.sh" "$tap"
}
step arm64_build_ptwalk arm64-module
ptwalk_built=$?
step arm64_build_fixture arm64-fixture
step arm64_lint arm64-lint
step arm64_build_ptcompare arm64-user
step arm64_build_vmtest arm64-vmtest
start=$(date +%s)
if step arm64_vm_boot arm64-vm && [ -s "$out/vm/vm.tap" ]; then
	cat "$out/vm/vm.tap" >> "$tap"
fi
echo "# arm64 VM: $(($(date +%s) - start)) s in all" >> "$tap"
if [ $ptwalk_built -ne 0 ]; then
	cat >&2 <<-EOF

	check-arm64: ptwalk.ko did not build for arm64:
	$(grep -m1 'error' "$out/arm64_build_ptwalk.log" | sed "s|$top/||")
	(the TAP lines below say what ran without it)

	EOF
fi
exec "$top/scripts/tap-summary.sh" "$tap"
