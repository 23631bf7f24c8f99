#!/bin/sh
# Runs libFuzzer targets, one TAP line each into TAP.
# usage: tests/fuzz/run.sh runs|seconds DIR TAP TARGET[:RUNS]...
#   runs     RUNS inputs per target (default FUZZ_RUNS) with -seed=1, from
#            the seed corpus in the tree (make check: the same inputs every
#            time)
#   seconds  FUZZ_SECONDS per target, new inputs kept in DIR/corpus/TARGET
#            (make fuzz: the corpus grows from run to run)
# A crash, a sanitizer report or a broken invariant (fuzz.h) fails the
# target; its input is saved as DIR/artifacts/TARGET-crash-*; rerun it
# with DIR/fuzz_TARGET FILE.  The log of each run is DIR/TARGET.log.
# Exits 1 when a target failed.
set -u
mode=$1 dir=$2 tap=$3
shift 3
seeds=$(cd "$(dirname "$0")" && pwd)/corpus
mkdir -p "$dir/artifacts"
: > "$tap"
for spec in "$@"; do
	t=${spec%%:*} runs_wanted=${FUZZ_RUNS:-20000}
	[ "$t" = "$spec" ] || runs_wanted=${spec#*:}
	bin=$dir/fuzz_$t
	work=$dir/corpus/$t
	log=$dir/$t.log
	if [ -z "$(ls -A "$seeds/$t" 2>/dev/null)" ]; then
		echo "not ok - fuzz_$t # no seed corpus in tests/fuzz/corpus/$t" >> "$tap"
		continue
	fi
	dict=
	[ -r "$(dirname "$0")/$t.dict" ] && dict=-dict=$(dirname "$0")/$t.dict
	case $mode in
	runs)	# new inputs go to a scratch directory, never into the tree
		rm -rf "$work"
		limit="-runs=$runs_wanted -seed=1" ;;
	seconds)
		limit="-max_total_time=${FUZZ_SECONDS:-60}" ;;
	*)	echo "usage: $0 runs|seconds DIR TAP TARGET..." >&2; exit 2 ;;
	esac
	mkdir -p "$work"
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$bin" $limit $dict -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$dir/artifacts/$t-" "$work" "$seeds/$t" > "$log" 2>&1
	status=$?
	secs=$(echo "$(date +%s.%N) - $t0" | bc)
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	why=$(grep -a -m1 -E '^fuzz: |runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|deadly signal' "$log" | cut -c1-240 | tr -c "[:print:]\n" "?")
	if [ $status -eq 0 ] && [ -n "$runs" ] && [ -z "$why" ]; then
		printf 'ok - fuzz_%s # %s runs in %.1f s, %s\n' "$t" "$runs" "$secs" "$cov" >> "$tap"
	else
		printf 'not ok - fuzz_%s # exit %s: %s (%s)\n' "$t" "$status" \
			"${why:-no Done line}" "$(sed -n "s/.*Test unit written to //p" "$log" | head -1)" >> "$tap"
	fi
done
cat "$tap"
! grep -q '^not ok' "$tap"
