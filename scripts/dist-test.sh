#!/bin/bash
# The release tarball (make dist) as a downstream packager gets it: it
# holds the tree's source files and nothing else (no build/, no .git),
# and, unpacked outside any git checkout, its make deb builds the same
# packages as the checkout's: the same files, modes, owners and sizes
# (dpkg-deb -c) and the same content (sha256 of every file, the ptcompare
# binary and the module's sources among them).  The checkout's packages
# are build/deb's (scripts/deb-test.sh made them just before), made here
# when missing; the tarball's are built with DEB_BUILD_OPTIONS=nocheck
# (the unit tests ran in the checkout's build; they change no file).
#
# usage: scripts/dist-test.sh OUT.tap       (appends TAP lines to OUT.tap)
set -u
# shellcheck source=scripts/tap-lib.sh
. "$(dirname "$0")/tap-lib.sh"
tap_begin dist "$@"

export LC_ALL=C
version=$(sed -n 's/^#define PTWALK_VERSION "\(.*\)"/\1/p' module/ptwalk_version.h)
arch=$(dpkg-architecture -qDEB_HOST_ARCH 2> /dev/null || dpkg --print-architecture)
debs="ptwalk-dkms_${version}_all.deb ptcompare_${version}_${arch}.deb"

# --- the tarball ---------------------------------------------------------------

tarball=build/ptwalk-$version.tar.gz
rm -f "$tarball"
make -s dist > "$tmp/dist.log" 2>&1
if [ ! -f "$tarball" ]; then
	nok dist_tarball "make dist made no $tarball: $(oneline "$tmp/dist.log")"
	exit 0
fi
ok dist_tarball
tar -tzf "$tarball" | sort > "$tmp/tar.list"
outside=$(grep -v "^ptwalk-$version/." "$tmp/tar.list" | head -n 5 | tr '\n' ' ')
check dist_one_top_directory "entries outside ptwalk-$version/: $outside" test -z "$outside"
sed "s|^ptwalk-$version/||" "$tmp/tar.list" > "$tmp/tar.files"
scripts/source-files.sh | tr '\0' '\n' | sort > "$tmp/tree.files"
check dist_tree_files "tarball and tree differ: $(diff "$tmp/tree.files" "$tmp/tar.files" | grep '^[<>]' | head -n 10 | tr '\n' ' ')" \
	cmp -s "$tmp/tree.files" "$tmp/tar.files"
stray=$(grep -E '^(build|\.git)(/|$)|\.(o|ko|a)$|^user/ptcompare$' "$tmp/tar.files" | head -n 5 | tr '\n' ' ')
check dist_no_build_products "in the tarball: $stray" test -z "$stray"

# --- make deb in the unpacked tarball -------------------------------------------

# The checkout's packages first.
for d in $debs; do
	[ -f "build/deb/$d" ] && continue
	make -s deb > "$tmp/deb.log" 2>&1 ||
		{ nok dist_deb_same "make deb in the checkout failed: $(tail -n 3 "$tmp/deb.log" | tr '\n' ' ')"; exit 0; }
	break
done

mkdir -p "$tmp/unpacked"
tar -xzf "$tarball" -C "$tmp/unpacked"
src=$tmp/unpacked/ptwalk-$version
if git -C "$src" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	nok dist_deb_build "$src is inside a git checkout (TMPDIR=${TMPDIR:-}): not a plain tree"
	exit 0
fi
(cd "$src" && DEB_BUILD_OPTIONS=nocheck make -s deb) > "$tmp/dist-deb.log" 2>&1
rc=$?
made=""
for d in $debs; do [ -f "$src/build/deb/$d" ] && made="$made $d"; done
check dist_deb_build "make deb in the unpacked tarball exited $rc, made '$made': $(tail -n 3 "$tmp/dist-deb.log" | tr '\n' ' ')" \
	test $rc -eq 0 -a "$made" = " ${debs// / }"
[ $rc -eq 0 ] || exit 0

# listing DEB: mode, owner, size and path of each entry (not the date).
listing() { dpkg-deb -c "$1" | awk '{ print $1, $2, $3, $6 }' | sort; }
# sums DEB DIR: the sha256 of every file the package holds.
sums() {
	dpkg-deb -x "$1" "$2" && (cd "$2" && find . -type f -exec sha256sum {} + | sort -k 2)
}
for d in $debs; do
	name=${d%%_*}
	listing "build/deb/$d" > "$tmp/$name.tree.c"
	listing "$src/build/deb/$d" > "$tmp/$name.dist.c"
	check "dist_deb_${name}_listing" "dpkg-deb -c differs: $(diff "$tmp/$name.tree.c" "$tmp/$name.dist.c" | grep '^[<>]' | head -n 6 | tr '\n' ' ')" \
		cmp -s "$tmp/$name.tree.c" "$tmp/$name.dist.c"
	sums "build/deb/$d" "$tmp/x-tree-$name" > "$tmp/$name.tree.sum"
	sums "$src/build/deb/$d" "$tmp/x-dist-$name" > "$tmp/$name.dist.sum"
	check "dist_deb_${name}_content" "files differ: $(diff "$tmp/$name.tree.sum" "$tmp/$name.dist.sum" | grep '^[<>]' | awk '{ print $1, $3 }' | head -n 6 | tr '\n' ' ')" \
		test -s "$tmp/$name.tree.sum" -a "$(cat "$tmp/$name.tree.sum")" = "$(cat "$tmp/$name.dist.sum")"
done
