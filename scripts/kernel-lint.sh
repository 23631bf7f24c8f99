#!/bin/sh
# Kernel code hygiene as TAP cases: the module and the fixture build with
# W=1 and sparse (C=2) without a single warning, and checkpatch (from
# Debian's linux-source tarball, when installed) finds nothing.
# usage: KDIR=... scripts/kernel-lint.sh OUT.tap
# The kernel matrix (scripts/kernel-check.sh) builds a copy of the sources
# against other headers with: LINT_SRC, the directory to build (M=, default
# this tree); LINT_CHROOT, a directory to run make in with chroot (KDIR and
# LINT_SRC are then paths inside it); LINT_CC, a compiler to use instead
# of the one the headers name; LINT_CHECKPATCH=no, no checkpatch case
# (it does not depend on the kernel).
set -u
tap=$1
top=$(cd "$(dirname "$0")/.." && pwd)
src=${LINT_SRC:-$top}
log=$(dirname "$tap")/$(basename "$tap" .tap)-build.log
: > "$tap"
mkdir -p "$(dirname "$tap")"

kmake() {
	if [ -n "${LINT_CHROOT:-}" ]; then
		# objtool reads /proc: mounted in a private namespace, gone after
		unshare --mount --propagation private sh -c \
			'mount -t proc proc "$0/proc" && exec chroot "$0" make "$@"' \
			"$LINT_CHROOT" ${LINT_CC:+CC=$LINT_CC} "$@"
	else
		make ${LINT_CC:+CC=$LINT_CC} "$@"
	fi
}
# The compiler warns only about what it compiles: remove the objects first
# (only these: kbuild's M= clean would sweep every *.o and *.a below the
# tree, build/ included).
find "${LINT_CHROOT:-}$src/module" "${LINT_CHROOT:-}$src/tests/fixture" -name '*.o' -delete
if ! ${LINT_CHROOT:+chroot "$LINT_CHROOT"} sh -c 'command -v sparse' >/dev/null; then
	echo "not ok - module_w1_sparse_clean # sparse missing: apt-get install sparse" >> "$tap"
elif kmake -C "$KDIR" M="$src" PTWALK_FIXTURE=1 W=1 C=2 modules > "$log" 2>&1; then
	warnings=$(grep -E 'warning:|error:|specified, but' "$log" | grep -v 'Skipping BTF' || true)
	if [ -z "$warnings" ]; then
		echo "ok - module_w1_sparse_clean" >> "$tap"
	else
		echo "not ok - module_w1_sparse_clean # $(echo "$warnings" | head -1)" >> "$tap"
	fi
else
	echo "not ok - module_w1_sparse_clean # build failed: $(grep -m1 -E 'error' "$log")" >> "$tap"
fi

if [ "${LINT_CHECKPATCH:-yes}" = no ]; then
	cat "$tap"
	exit 0
fi
cp=$top/build/checkpatch/scripts/checkpatch.pl
if [ ! -x "$cp" ] && [ -r /usr/src/linux-source-6.1.tar.xz ]; then
	mkdir -p "$top/build/checkpatch"
	tar -C "$top/build/checkpatch" --strip-components=1 -xf /usr/src/linux-source-6.1.tar.xz \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch 2>/dev/null
fi
# Ignores are per file and each for a reason: the compat headers are where
# version guards belong; ptwalk_names.h is shared with userspace (no
# ARRAY_SIZE).
checkpatch() { # checkpatch EXTRA_IGNORES FILE...
	ign=$1
	shift
	"$cp" --no-tree --quiet --terse --show-types \
		--ignore "FILE_PATH_CHANGES,SPDX_LICENSE_TAG$ign" -f "$@" 2>&1 |
		grep -v '^total: 0 errors, 0 warnings' | grep -v '^$'
}
if [ -x "$cp" ]; then
	out=$(
		checkpatch "" $(ls "$top"/module/*.[ch] "$top"/module/conftest/*.c "$top"/tests/fixture/*.[ch] |
			grep -v -e /compat.h -e /fixture_compat.h -e /ptwalk_names.h)
		checkpatch ",LINUX_VERSION_CODE,CONSTANT_COMPARISON" "$top/module/compat.h" \
			"$top/tests/fixture/fixture_compat.h"
		checkpatch ",ARRAY_SIZE" "$top/module/ptwalk_names.h"
	)
	if [ -z "$out" ]; then
		echo "ok - checkpatch_clean" >> "$tap"
	else
		echo "not ok - checkpatch_clean # $(echo "$out" | head -1)" >> "$tap"
	fi
else
	echo "not ok - checkpatch_clean # checkpatch.pl unavailable: apt-get install linux-source-6.1" >> "$tap"
fi
cat "$tap"
