#!/bin/bash
# make deb: the Debian packages ptwalk-dkms_VERSION_all.deb and
# ptcompare_VERSION_ARCH.deb (debian/, debhelper with dh-dkms), into OUT.
# dpkg-buildpackage writes its results beside the tree it builds, so it
# builds a copy of the project's files (scripts/source-files.sh: in a git
# checkout those git tracks and new ones it does not ignore; in a plain
# tree, such as the release tarball of make dist unpacked, every file but
# build/ and what .gitignore names) under OUT/src, and the results are
# moved to OUT.
#
# usage: scripts/build-deb.sh OUT          (OUT: build/deb)
# Prints the paths of the two .debs.
set -euo pipefail

die() { echo "build-deb: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: $0 OUT"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
for tool in dpkg-buildpackage dh dh_dkms; do
	command -v $tool > /dev/null || die "$tool missing: run scripts/install-deps.sh (debhelper, dh-dkms, dpkg-dev)"
done

# One version: module/ptwalk_version.h; the changelog must follow it.
version=$(sed -n 's/^#define PTWALK_VERSION "\(.*\)"/\1/p' module/ptwalk_version.h)
changelog=$(dpkg-parsechangelog -l debian/changelog -S Version)
[ -n "$version" ] || die "no PTWALK_VERSION in module/ptwalk_version.h"
[ "$changelog" = "$version" ] ||
	die "debian/changelog is at $changelog, module/ptwalk_version.h at $version: add a changelog entry (dch -v $version)"

out=$(realpath -m "$1")
src=$out/src/ptwalk-$version
rm -rf "$out"
mkdir -p "$src"
scripts/source-files.sh | cpio -0 -pdm --quiet "$src" ||
	die "cannot copy the tree's files to $src"

log=$out/build.log
(cd "$src" && dpkg-buildpackage -b -us -uc -j"${DEB_JOBS:-2}") > "$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "dpkg-buildpackage failed, see $log"; }
mv "$out"/src/*.deb "$out"/src/*.buildinfo "$out"/src/*.changes "$out"/
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
for deb in "ptwalk-dkms_${version}_all.deb" "ptcompare_${version}_${arch}.deb"; do
	[ -f "$out/$deb" ] || die "dpkg-buildpackage made no $deb (see $log)"
	echo "$out/$deb"
done
