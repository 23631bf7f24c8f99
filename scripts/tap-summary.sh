#!/bin/sh
# Prints every failed case of the given TAP files, each with the "#"
# lines that follow it (at most 80, up to its "# time" line: a kernel
# splat's report), and one closing line "N passed, N failed"; exits 1 on
# any failure, on a missing suite, or when nothing ran at all.
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
	awk -v tag="[$(basename "$f" .tap)] " '
		/^not ok / { print tag $0; more = 80; next }
		/^# time / && more > 0 { print tag $0; more = 0; next }
		/^#/ && more > 0 { print tag $0; more--; next }
		{ more = 0 }' "$f"
	passed=$((passed + p))
	failed=$((failed + n))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
