#!/bin/sh
# Runs the cmocka unit test binaries with TAP output into OUT/unit.tap.
# usage: scripts/run-unit.sh OUT TEST...  (exits 1 if any case failed)
# A binary that exits non-zero without a failed case of its own (a crash,
# a sanitizer halting it mid-run), or whose output holds a sanitizer
# report, adds a failed case of its own.
set -u
out=$1
shift
: > "$out/unit.tap"
for t in "$@"; do
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" > "$out/unit.one" 2>&1
	status=$?
	cat "$out/unit.one" >> "$out/unit.tap"
	if [ $status -ne 0 ] && ! grep -q '^not ok' "$out/unit.one"; then
		echo "not ok - $(basename "$t") # exited $status" >> "$out/unit.tap"
	fi
	report=$(grep -a -m1 -E 'runtime error:|ERROR: (Address|Leak)Sanitizer' "$out/unit.one")
	[ -z "$report" ] || echo "not ok - $(basename "$t") # sanitizer: $report" >> "$out/unit.tap"
done
rm -f "$out/unit.one"
cat "$out/unit.tap"
# make check-unit alone fails as make check's summary would
! grep -q '^not ok' "$out/unit.tap"
