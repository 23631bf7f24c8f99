#!/bin/bash
# make dist: the release tarball OUT/ptwalk-VERSION.tar.gz, what a
# downstream packager starts from: the tree's source files
# (scripts/source-files.sh: no build/, no .git, no build products) under
# ptwalk-VERSION/.  make deb builds the same packages from it as from the
# checkout (make check-packaging checks that).  Reproducible: names
# sorted, owner root, every mtime the changelog's date, gzip -n.
#
# usage: scripts/dist.sh OUT          (OUT: build)
# Prints the tarball's path.
set -euo pipefail

die() { echo "dist: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: $0 OUT"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
version=$(sed -n 's/^#define PTWALK_VERSION "\(.*\)"/\1/p' module/ptwalk_version.h)
[ -n "$version" ] || die "no PTWALK_VERSION in module/ptwalk_version.h"
stamp=$(dpkg-parsechangelog -l debian/changelog -S Timestamp 2> /dev/null) ||
	die "cannot read debian/changelog's date"

out=$(realpath -m "$1")
tarball=$out/ptwalk-$version.tar.gz
mkdir -p "$out"
scripts/source-files.sh | LC_ALL=C sort -z |
	tar --no-recursion --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="@$stamp" --transform="s|^|ptwalk-$version/|" --null -T - -cf - |
	gzip -n -9 > "$tarball.new" || { rm -f "$tarball.new"; die "tar failed"; }
mv "$tarball.new" "$tarball"
echo "$tarball"
