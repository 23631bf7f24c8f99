#!/bin/sh
# Runs the cmocka unit test binaries with TAP output into OUT/unit.tap.
# usage: scripts/run-unit.sh OUT TEST...
set -u
out=$1
shift
: > "$out/unit.tap"
for t in "$@"; do
	if ! CMOCKA_MESSAGE_OUTPUT=TAP "$t" >> "$out/unit.tap" 2>&1; then
		# A crash before cmocka reports still counts as a failure.
		grep -q '^not ok' "$out/unit.tap" ||
			echo "not ok - $(basename "$t") # exited non-zero" >> "$out/unit.tap"
	fi
done
cat "$out/unit.tap"
