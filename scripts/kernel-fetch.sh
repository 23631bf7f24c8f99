#!/bin/bash
# Fetches one Debian kernel of the test matrix (make check-kernels): its
# image, modules, headers, headers-common and kbuild packages, each at the
# version that is current in its suite when this runs (nothing is pinned, so
# a security update is picked up, not a failure).  Packages are chosen and
# downloaded through a private apt configuration under build/apt/KERNEL/
# (its own sources.list, lists, cache and an empty dpkg status: the
# machine's apt sources are neither read nor changed), cached in
# build/kernels/KERNEL/debs/, and unpacked with dpkg -x (never installed)
# into build/kernels/KERNEL/root/.  For "newest" (Debian unstable), whose
# kbuild tools need unstable's glibc and whose headers name unstable's gcc,
# the headers are also apt-get installed, with the compiler they name, in
# an unstable chroot (build/kernels/newest/chroot, made with debootstrap
# once and reused).  A second run downloads only what changed.
#
# usage: scripts/kernel-fetch.sh KERNEL     KERNEL: 5.10 | 6.1 | 6.12 | newest
#   5.10: bullseye(-security)   6.1: bookworm(-security)
#   6.12: bookworm-backports     newest: sid's linux-headers-amd64
# Writes build/kernels/KERNEL/kernel.env, KEY=value lines that make can
# include and sh can source:
#   KREL     kernel release (uname -r of the booted kernel)
#   KDIR     headers tree to build modules against (under CHROOT when set)
#   KCC      compiler to pass as CC=, empty when the one the headers
#            name is there (on this machine or in the chroot)
#   CHROOT   directory to chroot into to run make there (empty: the host)
#   VMLINUZ  kernel image to boot
#   MODTREE  its modules tree (modules.dep, modules.builtin, *.ko*)
# Exit status: 0 ready, 1 a download, an install or the unpacking failed,
# 2 usage.  Env: PTWALK_BUILD (default <tree>/build), DEBIAN_MIRROR,
# DEBIAN_SECURITY_MIRROR (default: the mirrors this machine's apt sources
# name, scripts/apt-mirror.sh; the security one only for 5.10 and 6.1).
set -euo pipefail

die() { echo "kernel-fetch: $*" >&2; exit 1; }
[ $# -eq 1 ] || { echo "usage: $0 5.10|6.1|6.12|newest" >&2; exit 2; }
kernel=$1
top=$(cd "$(dirname "$0")/.." && pwd)
build=${PTWALK_BUILD:-$top/build}
mirror=${DEBIAN_MIRROR:-$("$top/scripts/apt-mirror.sh" debian)} || exit 1
security() { echo "${DEBIAN_SECURITY_MIRROR:-$("$top/scripts/apt-mirror.sh" security)}"; }
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

case $kernel in
5.10) security=$(security) || exit 1; suites="$mirror bullseye|$security bullseye-security" ;;
6.1) security=$(security) || exit 1; suites="$mirror bookworm|$security bookworm-security" ;;
6.12) suites="$mirror bookworm-backports" ;;
newest) suites="$mirror sid" ;;
*) echo "kernel-fetch: unknown kernel '$kernel': one of 5.10 6.1 6.12 newest" >&2; exit 2 ;;
esac
[ -r "$keyring" ] || die "no $keyring: apt-get install debian-archive-keyring"

kdir=$build/kernels/$kernel
aptdir=$build/apt/$kernel
mkdir -p "$kdir/debs" "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/prefs.d"
: > "$aptdir/status"
IFS='|' read -ra lines <<< "$suites"
for l in "${lines[@]}"; do
	echo "deb [signed-by=$keyring] ${l% *} ${l##* } main"
done > "$aptdir/sources.list"
apt_opts=(-q -o "Dir::Etc::SourceList=$aptdir/sources.list"
	-o Dir::Etc::SourceParts=/dev/null -o Dir::Etc::Preferences=/dev/null
	-o "Dir::Etc::PreferencesParts=$aptdir/prefs.d"
	-o "Dir::State::Lists=$aptdir/lists" -o "Dir::Cache=$aptdir/cache"
	-o "Dir::State::Status=$aptdir/status"
	-o APT::Architecture=amd64 -o APT::Architectures=amd64
	-o Acquire::Languages=none -o Acquire::Check-Valid-Until=false
	-o APT::Sandbox::User=root)
acache() { apt-cache "${apt_opts[@]}" "$@"; }

# Lists: refreshed on every run (an unchanged Release costs one request).
apt-get "${apt_opts[@]}" --error-on=any update > "$aptdir/update.log" 2>&1 ||
	die "apt-get update failed for '$suites' (log: $aptdir/update.log): $(grep -m1 -E '^(E|W|Err):' "$aptdir/update.log")"

# The ABI (e.g. 6.12.95+deb12-amd64): sid's metapackage names the newest;
# elsewhere the highest generic amd64 flavour of that version.
if [ "$kernel" = newest ]; then
	abi=$(acache depends linux-headers-amd64 | sed -n 's/^ *Depends: linux-headers-\([0-9].*-amd64\)$/\1/p' | head -1)
else
	re="^linux-headers-${kernel//./\\.}\\.[0-9][^ ]*-amd64\$"
	abi=$(acache pkgnames linux-headers-"$kernel". | grep -E "$re" | grep -vE -- '-(rt|cloud)-amd64$' |
		sed 's/^linux-headers-//' | sort -V | tail -1)
fi
[ -n "$abi" ] || die "no linux-headers for kernel $kernel in '$suites'"
if acache show "linux-image-$abi-unsigned" >/dev/null 2>&1; then
	image=linux-image-$abi-unsigned
else
	image=linux-image-$abi
fi
acache show "$image" >/dev/null 2>&1 || die "no $image next to linux-headers-$abi"

# The packages: the headers and the image with their linux-* dependencies
# of the same build (common headers, kbuild, and on sid linux-binary,
# linux-modules, linux-base-ABI); not the other image the headers accept
# (signed or not), not the compiler or the tools (the host's, or the
# chroot's).
want=() todo=("linux-headers-$abi" "$image")
while [ ${#todo[@]} -gt 0 ]; do
	p=${todo[0]}
	todo=("${todo[@]:1}")
	case " ${want[*]} " in *" $p "*) continue ;; esac
	want+=("$p")
	for d in $(acache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
			--no-replaces --no-enhances "$p" |
			sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: \(linux-\(headers\|kbuild\|modules\|binary\|base\)-[0-9][^ ]*\)$/\2/p'); do
		todo+=("$d")
	done
done

# Download what the cache lacks (or holds damaged: the archive's SHA256
# decides); drop debs that are no longer current.
debs=() sums=()
for p in "${want[@]}"; do
	fields=$(acache show --no-all-versions "$p" | sed -n 's/^\(Version\|Architecture\|SHA256\): //p' | tr '\n' ' ')
	read -r ver arch sum <<< "$fields"
	[ -n "$sum" ] || die "apt-cache show $p gave no version, architecture or SHA256"
	debs+=("${p}_${ver//:/%3a}_$arch.deb")
	sums+=("$sum")
done
cached() { # INDEX: the deb is there, whole
	[ "$(sha256sum < "$kdir/debs/${debs[$1]}" 2>/dev/null | cut -d' ' -f1)" = "${sums[$1]}" ]
}
missing=()
for i in "${!want[@]}"; do
	cached "$i" || missing+=("${want[$i]}")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "kernel-fetch: $kernel: downloading ${missing[*]}"
	(cd "$kdir/debs" && apt-get "${apt_opts[@]}" download "${missing[@]}") > "$kdir/download.log" 2>&1 ||
		die "apt-get download ${missing[*]} failed (log: $kdir/download.log): $(grep -m1 -E '^(E|Err):' "$kdir/download.log")"
fi
for i in "${!want[@]}"; do
	cached "$i" || die "apt-get download left no intact $kdir/debs/${debs[$i]}"
done
for f in "$kdir"/debs/*.deb; do
	case " ${debs[*]} " in *" ${f##*/} "*) ;; *) rm -f "$f" ;; esac
done

# Unpack, again only when the set changed.
stamp=$(printf '%s\n' "${debs[@]}" | sort)
root=$kdir/root
if [ "$(cat "$root/.debs" 2>/dev/null)" != "$stamp" ]; then
	echo "kernel-fetch: $kernel: unpacking $abi"
	rm -rf "$root"
	mkdir -p "$root"
	for f in "${debs[@]}"; do
		dpkg -x "$kdir/debs/$f" "$root" || die "dpkg -x $f failed"
	done
	# The headers' Makefile includes the common tree by its installed path.
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$root/usr/src/linux-headers-$abi/Makefile"
	# modules.dep is made by the image's postinst (depmod): make it here.
	# Unstable ships modules under /usr/lib/modules, which depmod -b
	# finds through lib/modules.
	[ -e "$root/lib" ] || ln -s usr/lib "$root/lib"
	for m in "$root"/lib/modules/*/kernel; do
		depmod -b "$root" "$(basename "$(dirname "$m")")" || die "depmod for $m failed"
	done
	echo "$stamp" > "$root/.debs"
fi

hdr=$root/usr/src/linux-headers-$abi
krel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$hdr/include/generated/utsrelease.h")
[ -n "$krel" ] || die "no UTS_RELEASE in $hdr"
vmlinuz=$(ls "$root/boot/vmlinuz-$krel" "$root/usr/lib/modules/$krel/vmlinuz" 2>/dev/null | head -1 || true)
modtree=$(ls -d "$root/lib/modules/$krel" "$root/usr/lib/modules/$krel" 2>/dev/null | head -1 || true)
[ -n "$vmlinuz" ] || die "no vmlinuz for $krel in $root"
[ -r "$modtree/modules.dep" ] || die "no modules.dep for $krel in $root"
# The compiler the headers were built with, e.g. gcc-12 (CONFIG_CC_VERSION_TEXT).
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*gcc[^ ]*\) .*/\1/p' "$hdr/.config")

# Kbuild (6.x) runs scripts/checker-valid.sh to see that sparse works, and
# quietly turns C=1/C=2 off without it; Debian's headers (7.2) lack it.
# This one says 1 when the checker runs on a line of C without an error.
checker_valid() { # COMMON_HEADERS_DIR
	grep -q checker-valid.sh "$1/Makefile" && [ ! -e "$1/scripts/checker-valid.sh" ] || return 0
	mkdir -p "$1/scripts"
	cat > "$1/scripts/checker-valid.sh" <<'EOS'
#!/bin/sh
# Written by ptwalk's scripts/kernel-fetch.sh (Debian's headers lack it).
f=$(mktemp --suffix=.c) || exit 1
echo 'static inline int u(const int *q) { return *q; }' > "$f"
if out=$("$@" "$f" 2>&1) && ! printf '%s' "$out" | grep -q error; then echo 1; else echo 0; fi
rm -f "$f"
EOS
	chmod +x "$1/scripts/checker-valid.sh"
}

chroot_dir=""
if [ "$kernel" = newest ]; then
	chroot_dir=$kdir/chroot
	if [ ! -x "$chroot_dir/usr/bin/apt-get" ]; then
		command -v debootstrap >/dev/null || die "debootstrap missing: apt-get install debootstrap"
		echo "kernel-fetch: $kernel: debootstrap sid into $chroot_dir (a few minutes)"
		rm -rf "$chroot_dir"
		debootstrap --variant=minbase --keyring="$keyring" sid "$chroot_dir" "$mirror" \
			> "$kdir/debootstrap.log" 2>&1 ||
			die "debootstrap failed (log: $kdir/debootstrap.log): $(tail -1 "$kdir/debootstrap.log")"
	fi
	ver=$(acache show --no-all-versions "linux-headers-$abi" | sed -n 's/^Version: //p')
	if ! chroot "$chroot_dir" dpkg-query -W -f='${Version}' "linux-headers-$abi" 2>/dev/null | grep -qxF "$ver" ||
	   ! chroot "$chroot_dir" sh -c 'command -v make && command -v sparse' >/dev/null; then
		echo "kernel-fetch: $kernel: installing linux-headers-$abi $ver in the chroot"
		echo "deb $mirror sid main" > "$chroot_dir/etc/apt/sources.list"
		{
			chroot "$chroot_dir" apt-get -q -o Acquire::Check-Valid-Until=false --error-on=any update &&
			DEBIAN_FRONTEND=noninteractive chroot "$chroot_dir" apt-get -q -y \
				--no-install-recommends install "linux-headers-$abi=$ver" make sparse
		} > "$kdir/chroot-install.log" 2>&1 ||
			die "installing linux-headers-$abi in the chroot failed (log: $kdir/chroot-install.log): $(grep -m1 -E '^(E|Err):' "$kdir/chroot-install.log")"
	fi
	kdir_build=/usr/src/linux-headers-$abi
	checker_valid "$chroot_dir/usr/src/linux-headers-${abi%-amd64}-common"
	cc_host=$(chroot "$chroot_dir" sh -c "command -v $cc" 2>/dev/null || true)
else
	kdir_build=$hdr
	checker_valid "$root/usr/src/linux-headers-${abi%-amd64}-common"
	cc_host=$(command -v "$cc" 2>/dev/null || true)
fi
# Empty: the headers' own compiler is there; else the default gcc (5.10's
# headers name gcc-10, which bookworm does not have; gcc-12 builds them).
if [ -n "$cc" ] && [ -n "$cc_host" ]; then cc=""; else cc=gcc; fi

cat > "$kdir/kernel.env" <<EOF
KREL=$krel
KDIR=$kdir_build
KCC=$cc
CHROOT=$chroot_dir
VMLINUZ=$vmlinuz
MODTREE=$modtree
EOF
echo "kernel-fetch: $kernel: $krel ready ($kdir/kernel.env)"
