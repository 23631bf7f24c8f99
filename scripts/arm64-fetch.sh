#!/bin/sh
# Downloads from Debian bookworm, through a private apt configuration (never
# the machine's sources, never apt-get install: arm64 packages installed on
# an amd64 machine would remove amd64 ones), what the arm64 lane needs, and
# extracts it with dpkg -x into OUT/root:
#   - Debian's current arm64 kernel: linux-image-<abi>-arm64, its headers
#     (linux-headers-<abi>-arm64 and -common) and the amd64 linux-kbuild-6.1
#     of the same version (its x86-64 fixdep and modpost handle arm64
#     objects), the headers' Makefile pointed at the extracted common tree;
#   - busybox-static for the guest;
#   - the arm64 libraries the guest programs link statically (json-c) or
#     ptcompare compiles against (libkmod.h), and the shared libraries
#     ptcompare opens at run time (libkmod2 and what it pulls in; libc and
#     libgcc_s come from the cross toolchain's /usr/aarch64-linux-gnu).
# The versions are the archive's current ones; the package lists are
# refreshed when older than ARM64_APT_MAX_AGE minutes (default 60, 0 always).
# A .deb already downloaded is neither fetched nor extracted again.  Writes
# OUT/env.mk with what the Makefile needs (ARM64_KREL, ARM64_KDIR, ...).
# The mirrors: DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR where set (as for
# scripts/kernel-fetch.sh), else those this machine's apt sources name
# (scripts/apt-mirror.sh).
# usage: scripts/arm64-fetch.sh [OUT]   (default: build/arm64)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$top/build/arm64}" && cd "${1:-$top/build/arm64}" && pwd)
root=$out/root
debs=$out/debs
max_age=${ARM64_APT_MAX_AGE:-60}

die() { echo "arm64-fetch: $*" >&2; exit 1; }
mirror=${DEBIAN_MIRROR:-$("$top/scripts/apt-mirror.sh" debian)} || exit 1
security=${DEBIAN_SECURITY_MIRROR:-$("$top/scripts/apt-mirror.sh" security)} || exit 1

# private_apt DIR apt-get|apt-cache ARGS...: runs apt on its own sources,
# lists, cache and (empty) dpkg status under DIR, for amd64 and arm64; the
# machine's apt state is neither read nor changed.
private_apt() {
	dir=$1
	shift
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	[ -e "$dir/status" ] || : > "$dir/status"
	cat > "$dir/sources.list" <<-EOF
	deb [arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm bookworm-updates main
	deb [arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $security bookworm-security main
	EOF
	"$@" -q -o Dir::Etc::SourceList="$dir/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Dir::State::Status="$dir/status" -o Debug::NoLocking=1 \
		-o Dir::Cache::pkgcache=pkgcache.bin \
		-o Dir::Cache::srcpkgcache=srcpkgcache.bin \
		-o APT::Architecture=amd64 -o APT::Architectures::=amd64 \
		-o APT::Architectures::=arm64
}
apt_get() { private_apt "$out/apt" apt-get "$@"; }
apt_cache() { private_apt "$out/apt" apt-cache "$@"; }

for tool in apt-get apt-cache dpkg-deb; do
	command -v $tool >/dev/null || die "$tool missing: this script needs Debian's apt and dpkg"
done
[ -r /usr/share/keyrings/debian-archive-keyring.gpg ] ||
	die "no /usr/share/keyrings/debian-archive-keyring.gpg: apt-get install debian-archive-keyring"

# Refresh the lists when they are missing or old.
stamp=$out/apt/updated
if [ ! -e "$stamp" ] || [ "$max_age" = 0 ] ||
	[ -n "$(find "$stamp" -mmin +"$max_age")" ]; then
	echo "arm64-fetch: refreshing bookworm's package lists (amd64, arm64)"
	apt_get update > "$out/apt-update.log" 2>&1 ||
		die "apt-get update failed, see $out/apt-update.log"
	if grep -E '^(Err|E):|^W: (Failed to fetch|Some index files)' "$out/apt-update.log"; then
		die "apt-get update could not fetch every list, see $out/apt-update.log"
	fi
	touch "$stamp"
fi

# What to fetch, as lines "name:arch version file", resolved again only
# after the lists changed.  The kernel: the newest version of the
# metapackage at which the archive also holds the amd64 linux-kbuild-6.1
# (the security archive can carry an amd64-only revision, 6.1.192-3 beside
# arm64's 6.1.192-2, until arm64's build lands), the ABI (e.g. 6.1.0-56)
# that version depends on, every kernel package of that version.
# The libraries: busybox, the -dev packages, libkmod2 and every library it
# depends on but libc6 and libgcc-s1 (and the latter's gcc-12-base), which
# the cross toolchain's /usr/aarch64-linux-gnu supplies.
resolve() {
	metas=$(apt_cache show linux-image-arm64:arm64) ||
		die "bookworm has no linux-image-arm64:arm64"
	kver=""
	for v in $(echo "$metas" | sed -n 's/^Version: //p'); do
		if [ -n "$kver" ] && dpkg --compare-versions "$v" le "$kver"; then
			continue
		fi
		# (apt-cache show PKG=VERSION prints nothing, and succeeds, when
		# there is no such version)
		[ -n "$(apt_cache show "linux-kbuild-6.1:amd64=$v" 2>/dev/null)" ] &&
			[ -n "$(apt_cache show "linux-headers-arm64:arm64=$v" 2>/dev/null)" ] &&
			kver=$v
	done
	[ -n "$kver" ] || die "no version of linux-image-arm64:arm64 has a linux-kbuild-6.1:amd64 of its own version ($(echo "$metas" | sed -n 's/^Version: //p' | tr '\n' ' '))"
	abi=$(apt_cache show "linux-image-arm64:arm64=$kver" |
		sed -n 's/^Depends: .*linux-image-\([0-9.]*-[0-9]*\)-arm64 .*/\1/p' | head -1)
	[ -n "$abi" ] || die "cannot tell the kernel ABI from linux-image-arm64:arm64 $kver"
	libs=$(apt_cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances libkmod2:arm64 |
		sed -n 's/^\([a-z0-9][a-z0-9.+-]*\):arm64$/\1/p' | sort -u |
		grep -v -x -e libc6 -e libgcc-s1 -e 'gcc-[0-9]*-base')
	echo "$libs" | grep -qx libkmod2 || die "cannot resolve libkmod2:arm64's dependencies"
	want="linux-image-$abi-arm64:arm64=$kver linux-headers-$abi-arm64:arm64=$kver
linux-headers-$abi-common:all=$kver linux-kbuild-6.1:amd64=$kver"
	for p in busybox-static libjson-c-dev libjson-c5 libkmod-dev $libs; do
		want="$want $p:arm64"
	done
	# apt-cache takes "name:all" as "name"; apt names a download
	# name_version_arch.deb, an epoch's colon written %3a.
	want=$(echo "$want" | sed 's/:all=/=/')
	# shellcheck disable=SC2086
	apt_cache show --no-all-versions $want |
		awk -F': ' '/^Package: /{p=$2} /^Architecture: /{a=$2}
			/^Version: /{v=$2}
			/^$/{ if (p) { f=v; sub(/:/, "%3a", f); print p ":" a, v, p "_" f "_" a ".deb" } p="" }
			END{ if (p) { f=v; sub(/:/, "%3a", f); print p ":" a, v, p "_" f "_" a ".deb" } }'
}
specs=$out/apt/specs
if [ ! -s "$specs" ] || [ -n "$(find "$stamp" -newer "$specs")" ]; then
	resolve > "$specs.new" || die "cannot resolve the packages"
	mv "$specs.new" "$specs"
fi
abi=$(sed -n 's/^linux-image-\([0-9.]*-[0-9]*\)-arm64:arm64 .*/\1/p' "$specs")
[ -n "$abi" ] || die "no arm64 kernel image in $specs"
kver=$(sed -n 's/^linux-image-[0-9.]*-[0-9]*-arm64:arm64 \([^ ]*\) .*/\1/p' "$specs")
for p in linux-headers-$abi-arm64:arm64 linux-headers-$abi-common:all \
	linux-kbuild-6.1:amd64 busybox-static:arm64 libjson-c-dev:arm64 \
	libkmod-dev:arm64 libkmod2:arm64; do
	grep -q "^$p " "$specs" || die "bookworm has no $p (see $specs)"
done
grep -q "^linux-kbuild-6.1:amd64 $kver " "$specs" ||
	die "linux-kbuild-6.1 is not at the kernel's version $kver (see $specs)"

# Download (into debs/, in one apt call, what is not there yet), extract.
mkdir -p "$debs" "$root"
missing=""
while read -r name ver file; do
	[ -s "$debs/$file" ] || missing="$missing ${name%:all}=$ver"
done < "$specs"
if [ -n "$missing" ]; then
	echo "arm64-fetch: downloading$missing"
	# shellcheck disable=SC2086
	(cd "$debs" && apt_get download $missing > "$debs/download.log" 2>&1) ||
		die "download failed: $(grep -E '^(E|Err):' "$debs/download.log" | head -3)"
fi
while read -r name ver file; do
	[ -s "$debs/$file" ] || die "downloaded $name=$ver, but $debs/$file is not there"
	if [ ! -e "$debs/$file.extracted" ]; then
		dpkg-deb -x "$debs/$file" "$root" || die "dpkg -x $debs/$file failed"
		: > "$debs/$file.extracted"
	fi
done < "$specs"

krel=$abi-arm64
kdir=$root/usr/src/linux-headers-$krel
common=$root/usr/src/linux-headers-$abi-common
kernel=$root/boot/vmlinuz-$krel
[ -d "$common" ] || die "no $common after extraction"
[ -r "$kernel" ] || die "no $kernel after extraction"
# The image ships its modules without modules.dep (its postinst runs depmod).
if [ ! -s "$root/lib/modules/$krel/modules.dep" ]; then
	PATH=$PATH:/sbin:/usr/sbin depmod -b "$root" "$krel" ||
		die "depmod -b $root $krel failed"
fi
[ -x "$root/bin/busybox" ] || die "no arm64 busybox after extraction"
# The headers' Makefile includes the common tree by its installed path
# (or by where an earlier extraction was, for a copied build/arm64).
sed -i "s|^include [^ ]*/linux-headers-$abi-common/|include $common/|" "$kdir/Makefile"
grep -q "^include $common/Makefile" "$kdir/Makefile" ||
	die "$kdir/Makefile does not include $common/Makefile: its layout changed"
# scripts/ and tools/ are relative links into linux-kbuild-6.1
[ -x "$kdir/scripts/basic/fixdep" ] || die "$kdir/scripts/basic/fixdep missing: linux-kbuild-6.1 not extracted?"
[ -x "$kdir/scripts/mod/modpost" ] || die "$kdir/scripts/mod/modpost missing"

cat > "$out/env.mk" <<EOF
# Written by scripts/arm64-fetch.sh: bookworm's arm64 kernel $kver
ARM64_KREL := $krel
ARM64_KDIR := $kdir
ARM64_KERNEL := $kernel
ARM64_MODDIR := $root/lib/modules/$krel
ARM64_SYSROOT := $root
EOF
echo "arm64-fetch: kernel $krel ($kver), extracted in $root"
