#!/bin/bash
# make check-kernels: the kernel matrix, one scripts/kernel-check.sh per
# kernel (fetch, W=1 + sparse build, whole VM suite under QEMU).  The
# fetches run one after the other in the background from the start, so
# that downloading, unpacking and the unstable chroot overlap the builds
# and VM runs of the kernels before them.  Ends with the failed cases and
# "N passed, N failed" over all kernels; exits 1 on any failure.
#
# usage: scripts/kernel-matrix.sh SRC...   (SRC: the Makefile's MOD_SRCS)
# Env: KERNELS (default "5.10 6.1 6.12 newest"), and what kernel-check.sh
# and vm-run.sh take (VM_ONLY, VM_TIMEOUT); KERNELS_SKIP_OWN, kernels
# whose suite leaves out ptcompare's own cases (PTCOMPARE_OWN_CASES, the
# same work on every kernel: CI runs them on 6.1's plain lane).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
kernels=${KERNELS:-5.10 6.1 6.12 newest}
start=$(date +%s)

for k in $kernels; do
	mkdir -p "build/kernels/$k"
	# No result of an earlier run may pass for this one's.
	rm -f "build/kernels/$k/"{fetch.rc,fetch.seconds,times,"kernel-$k.tap"}
done
(
	for k in $kernels; do
		t=$(date +%s)
		scripts/kernel-fetch.sh "$k" > "build/kernels/$k/fetch.log" 2>&1
		rc=$?
		echo "$(($(date +%s) - t))" > "build/kernels/$k/fetch.seconds"
		echo $rc > "build/kernels/$k/fetch.rc"
	done
) &
fetcher=$!

taps=()
for k in $kernels; do
	out=build/kernels/$k
	taps+=("$out/kernel-$k.tap")
	while [ ! -e "$out/fetch.rc" ]; do
		sleep 2
	done
	if [ "$(cat "$out/fetch.rc")" != 0 ]; then
		cat "$out/fetch.log" >&2
		echo "not ok - fetch # $(tail -1 "$out/fetch.log")" > "$out/kernel-$k.tap"
		echo "kernel $k: fetch failed (log: $out/fetch.log)"
		continue
	fi
	skip=${VM_SKIP:-}
	if [[ " ${KERNELS_SKIP_OWN:-} " == *" $k "* ]]; then
		[ -n "${PTCOMPARE_OWN_CASES:-}" ] || { echo "kernel-matrix: KERNELS_SKIP_OWN without PTCOMPARE_OWN_CASES" >&2; exit 2; }
		skip=${skip:+$skip,}$PTCOMPARE_OWN_CASES
	fi
	VM_SKIP=$skip KERNEL_FETCH_DONE=1 scripts/kernel-check.sh "$k" "$@"
done
wait $fetcher

echo "=== kernel matrix: seconds per step (fetch ran in the background) ==="
for k in $kernels; do
	echo "$k: fetch $(cat "build/kernels/$k/fetch.seconds" 2>/dev/null)" \
		"$(tr '\n' ' ' 2>/dev/null < "build/kernels/$k/times" | sed 's/fetch [0-9]* //')"
done
echo "matrix: $(($(date +%s) - start)) s in all"
echo "=== kernel matrix summary ==="
exec scripts/tap-summary.sh "${taps[@]}"
