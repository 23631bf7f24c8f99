#!/bin/sh
# Prints every failed case of the given TAP files and one closing line
# "N passed, N failed"; exits 1 on any failure, on a missing suite, or when
# nothing ran at all.
# usage: scripts/tap-summary.sh SUITE.tap...
passed=0 failed=0
for f in "$@"; do
	if [ ! -s "$f" ]; then
		echo "not ok - $(basename "$f" .tap) # suite produced no results"
		failed=$((failed + 1))
		continue
	fi
	p=$(grep -c '^ok ' "$f")
	n=$(grep -c '^not ok ' "$f")
	grep '^not ok ' "$f" | sed "s/^/[$(basename "$f" .tap)] /"
	passed=$((passed + p))
	failed=$((failed + n))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
