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
# usage: scripts/kernel-fetch.sh KERNEL
#   x86-64 (flavour amd64), KERNEL: 5.10 | 6.1 | 6.12 | newest
#     5.10: bullseye(-security)   6.1: bookworm(-security)
#     6.12: bookworm-backports     newest: sid's linux-headers-amd64
#   arm64 (make check-arm64's lanes), KERNEL: arm64-6.12 | arm64-6.12-16k |
#     arm64-newest | arm64-newest-16k: the same suites' arm64 image and
#     headers of flavour arm64 (4 KiB pages) or arm64-16k (16 KiB pages),
#     with the amd64 linux-kbuild of their version (its x86-64 fixdep and
#     modpost handle arm64 objects).  The newest ones are unpacked into the
#     unstable chroot (build/kernels/newest/chroot, shared with "newest",
#     under ptwalk-kernels/KERNEL), which gets the aarch64 cross compiler
#     the headers name (gcc-N-aarch64-linux-gnu).
#   riscv64 (make check-riscv64's lanes), KERNEL: riscv64-6.12 (trixie's
#     linux-headers-6.12.*-riscv64, as its point releases update it: the
#     security archive's riscv64 index can lag its Release file on a
#     mirror) | riscv64-newest
#     (sid's): the image, headers and the amd64 linux-kbuild of their
#     version, all unpacked into the unstable chroot (trixie's kbuild
#     tools need a newer glibc than bookworm's too), which gets the riscv64
#     cross compiler the headers name (gcc-N-riscv64-linux-gnu).
#   source-6.12: bookworm-backports' linux-source-6.12, the tree the arm64
#     64 KiB-page kernel is built from (scripts/arm64-64k-kernel.sh); its
#     kernel.env holds only SOURCE_TARBALL.
# Writes build/kernels/KERNEL/kernel.env, KEY=value lines that make can
# include and sh can source:
#   KREL     kernel release (uname -r of the booted kernel)
#   KDIR     headers tree to build modules against (under CHROOT when set)
#   KCC      compiler to pass as CC=, empty when the one the headers
#            name is there (on this machine or in the chroot)
#   CHROOT   directory to chroot into to run make there (empty: the host)
#   VMLINUZ  kernel image to boot
#   MODTREE  its modules tree (modules.dep, modules.builtin, *.ko*)
#   ARCH     x86_64, arm64 or riscv; for arm64 and riscv also CROSS_COMPILE
#            (aarch64-linux-gnu-, riscv64-linux-gnu-) and KCC the cross
#            compiler to pass as CC=
# Exit status: 0 ready, 1 a download, an install or the unpacking failed,
# 2 usage.  Env: PTWALK_BUILD (default <tree>/build), DEBIAN_MIRROR,
# DEBIAN_SECURITY_MIRROR (default: the mirrors this machine's apt sources
# name, scripts/apt-mirror.sh; the security one only for 5.10 and 6.1).
set -euo pipefail

# shellcheck source=scripts/fetch-lib.sh
. "$(dirname "$0")/fetch-lib.sh"
usage="5.10|6.1|6.12|newest|arm64-6.12[-16k]|arm64-newest[-16k]|riscv64-6.12|riscv64-newest|source-6.12"
[ $# -eq 1 ] || { echo "usage: $0 $usage" >&2; exit 2; }
fetch_init kernel-fetch
kernel=$1
security() { echo "${DEBIAN_SECURITY_MIRROR:-$("$top/scripts/apt-mirror.sh" security)}"; }

# arch: the kernel's; flavour: the packages' suffix; base: the suite's key.
case $kernel in
arm64-*-16k) arch=arm64 flavour=arm64-16k base=${kernel#arm64-} base=${base%-16k} ;;
arm64-*) arch=arm64 flavour=arm64 base=${kernel#arm64-} ;;
riscv64-*) arch=riscv64 flavour=riscv64 base=${kernel#riscv64-} ;;
source-*) arch=source flavour="" base=${kernel#source-} ;;
*) arch=x86_64 flavour=amd64 base=$kernel ;;
esac
case $arch:$base in
x86_64:5.10) security=$(security) || exit 1; suites="$mirror bullseye|$security bullseye-security" ;;
x86_64:6.1) security=$(security) || exit 1; suites="$mirror bookworm|$security bookworm-security" ;;
riscv64:6.12) suites="$mirror trixie" ;;
*:6.12) suites="$mirror bookworm-backports" ;;
x86_64:newest | arm64:newest | riscv64:newest) suites="$mirror sid" ;;
*) echo "kernel-fetch: unknown kernel '$kernel': one of $usage" >&2; exit 2 ;;
esac
kdir=$build/kernels/$kernel
aptdir=$build/apt/$kernel
mkdir -p "$kdir/debs"
# One fetch of a kernel at a time (CI's 64K and debug kernel builds both
# fetch source-6.12 from the start): the second finds it done.
exec 7> "$kdir/.fetch.lock"
flock 7
IFS='|' read -ra lines <<< "$suites"
private_apt "$aptdir" "${lines[@]}"
case $arch in arm64 | riscv64) apt_opts+=(-o "APT::Architectures::=$arch") ;; esac
acache() { apt-cache "${apt_opts[@]}" "$@"; }
# qualify NAME: the package as apt must be asked for it: arm64's (riscv64's)
# own packages as NAME:arm64, the build tools (linux-kbuild-*) as the host's
# NAME:amd64, Architecture: all ones (headers-common, source) bare.
qualify() {
	case $arch:$1 in
	arm64:linux-kbuild-* | riscv64:linux-kbuild-*) echo "$1:amd64" ;;
	arm64:* | riscv64:*)
		# (not grep -q: under pipefail its early exit fails apt-cache)
		if [ "$(acache show --no-all-versions "$1:$arch" 2>/dev/null | sed -n 's/^Architecture: //p')" = "$arch" ]; then
			echo "$1:$arch"
		else
			echo "$1"
		fi ;;
	*) echo "$1" ;;
	esac
}

# Lists: refreshed on every run (an unchanged Release costs one request).
apt-get "${apt_opts[@]}" --error-on=any update > "$aptdir/update.log" 2>&1 ||
	die "apt-get update failed for '$suites' (log: $aptdir/update.log): $(grep -m1 -E '^(E|W|Err):' "$aptdir/update.log")"

# The kernel source alone: the newest linux-source-BASE, unpacked; its
# kernel.env names the tarball.
if [ "$arch" = source ]; then
	fields=$(acache show --no-all-versions "linux-source-$base" 2>/dev/null |
		sed -n 's/^\(Version\|Architecture\|SHA256\): //p' | tr '\n' ' ')
	read -r ver pkgarch sum <<< "$fields"
	[ -n "${sum:-}" ] || die "no linux-source-$base in '$suites'"
	deb=linux-source-${base}_${ver//:/%3a}_$pkgarch.deb
	if [ "$(sha256sum 2>/dev/null < "$kdir/debs/$deb" | cut -d' ' -f1)" != "$sum" ]; then
		echo "kernel-fetch: $kernel: downloading linux-source-$base $ver"
		rm -f "$kdir"/debs/*.deb
		(cd "$kdir/debs" && apt-get "${apt_opts[@]}" download "linux-source-$base") > "$kdir/download.log" 2>&1 ||
			die "apt-get download linux-source-$base failed (log: $kdir/download.log)"
	fi
	if [ "$(cat "$kdir/root/.debs" 2>/dev/null)" != "$deb" ]; then
		rm -rf "$kdir/root"
		dpkg -x "$kdir/debs/$deb" "$kdir/root" || die "dpkg -x $deb failed"
		echo "$deb" > "$kdir/root/.debs"
	fi
	tarball=$kdir/root/usr/src/linux-source-$base.tar.xz
	[ -r "$tarball" ] || die "no $tarball in $deb"
	echo "SOURCE_TARBALL=$tarball" > "$kdir/kernel.env"
	echo "kernel-fetch: $kernel: $tarball ($ver) ready ($kdir/kernel.env)"
	exit 0
fi

# The ABI (e.g. 6.12.95+deb12-amd64): sid's metapackage names the newest;
# elsewhere the highest generic version of the flavour (not rt, not cloud).
if [ "$base" = newest ]; then
	abi=$(acache depends "$(qualify "linux-headers-$flavour")" |
		sed -n "s/^ *Depends: linux-headers-\([0-9].*-$flavour\)\(:$arch\)\{0,1\}\$/\1/p" | head -1)
else
	re="^linux-headers-${base//./\\.}\\.[0-9][^ ]*-$flavour\$"
	abi=$(acache pkgnames linux-headers-"$base". | grep -E "$re" | grep -vE -- "-(rt|cloud)-$flavour\$" |
		sed 's/^linux-headers-//' | sort -V | tail -1)
fi
[ -n "$abi" ] || die "no linux-headers for kernel $kernel in '$suites'"
# (a name other packages only mention, riscv64's -unsigned, shows nothing)
if [ -n "$(acache show --no-all-versions "$(qualify "linux-image-$abi-unsigned")" 2>/dev/null | sed -n 's/^Version: //p')" ]; then
	image=linux-image-$abi-unsigned
else
	image=linux-image-$abi
fi
acache show "$(qualify "$image")" >/dev/null 2>&1 || die "no $image next to linux-headers-$abi"

# The packages: the headers and the image with their linux-* dependencies
# of the same build (common headers, kbuild, and on sid linux-binary,
# linux-modules, linux-base-ABI); not the other image the headers accept
# (signed or not), not the compiler or the tools (the host's, or the
# chroot's).
# Names are asked for qualified (qualify); apt prints a foreign
# architecture's dependency as NAME:arm64, an Architecture: all one met
# from arm64 as <NAME:arm64>.
want=() todo=("linux-headers-$abi" "$image")
while [ ${#todo[@]} -gt 0 ]; do
	p=$(qualify "${todo[0]}")
	todo=("${todo[@]:1}")
	case " ${want[*]} " in *" $p "*) continue ;; esac
	want+=("$p")
	for d in $(acache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
			--no-replaces --no-enhances "$p" |
			sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: <\{0,1\}\(linux-\(headers\|kbuild\|modules\|binary\|base\)-[0-9][^ :>]*\).*$/\2/p'); do
		todo+=("$d")
	done
done

# Download what the cache lacks (or holds damaged: the archive's SHA256
# decides); drop debs that are no longer current.
debs=() sums=()
for p in "${want[@]}"; do
	fields=$(acache show --no-all-versions "$p" | sed -n 's/^\(Version\|Architecture\|SHA256\): //p' | tr '\n' ' ')
	read -r ver pkgarch sum <<< "$fields"
	[ -n "$sum" ] || die "apt-cache show $p gave no version, architecture or SHA256"
	debs+=("${p%%:*}_${ver//:/%3a}_$pkgarch.deb")
	sums+=("$sum")
done
cached() { # INDEX: the deb is there, whole
	[ "$(sha256sum 2>/dev/null < "$kdir/debs/${debs[$1]}" | cut -d' ' -f1)" = "${sums[$1]}" ]
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

# The unstable chroot (newest, arm64-newest*): kbuild's host tools of
# unstable need its glibc, its headers its compiler.  Made once with
# debootstrap, shared by every "newest" kernel; one fetch at a time changes it.
chroot_dir=""
if [ "$base" = newest ] || [ "$arch" = riscv64 ]; then
	chroot_dir=$build/kernels/newest/chroot
	mkdir -p "$build/kernels/newest"
	exec 8> "$build/kernels/newest/chroot.lock"
	flock 8
	if [ ! -x "$chroot_dir/usr/bin/apt-get" ]; then
		command -v debootstrap >/dev/null || die "debootstrap missing: apt-get install debootstrap"
		echo "kernel-fetch: $kernel: debootstrap sid into $chroot_dir (a few minutes)"
		rm -rf "$chroot_dir"
		debootstrap --variant=minbase --keyring="$keyring" sid "$chroot_dir" "$mirror" \
			> "$kdir/debootstrap.log" 2>&1 ||
			die "debootstrap failed (log: $kdir/debootstrap.log): $(tail -1 "$kdir/debootstrap.log")"
	fi
fi
# chroot_install PACKAGE...: apt-get install them in the chroot.
chroot_install() {
	echo "kernel-fetch: $kernel: installing $* in the chroot"
	echo "deb $mirror sid main" > "$chroot_dir/etc/apt/sources.list"
	{
		chroot "$chroot_dir" apt-get -q -o Acquire::Check-Valid-Until=false --error-on=any update &&
		DEBIAN_FRONTEND=noninteractive chroot "$chroot_dir" apt-get -q -y \
			--no-install-recommends install "$@"
	} > "$kdir/chroot-install.log" 2>&1 ||
		die "installing $* in the chroot failed (log: $kdir/chroot-install.log): $(grep -m1 -E '^(E|Err):' "$kdir/chroot-install.log")"
}

# Unpack, again only when the set changed: under build/kernels/KERNEL/root,
# or for an arm64 kernel of unstable in the chroot, where its headers are
# built against (inroot: root as seen from where make runs).
if [ "$arch" != x86_64 ] && [ -n "$chroot_dir" ]; then
	inroot=/ptwalk-kernels/$kernel
	root=$chroot_dir$inroot
else
	root=$kdir/root
	inroot=$root
fi
stamp=$(printf '%s\n' "${debs[@]}" | sort)
if [ "$(cat "$root/.debs" 2>/dev/null)" != "$stamp" ]; then
	echo "kernel-fetch: $kernel: unpacking $abi"
	rm -rf "$root"
	mkdir -p "$root"
	for f in "${debs[@]}"; do
		dpkg -x "$kdir/debs/$f" "$root" || die "dpkg -x $f failed"
	done
	# modules.dep is made by the image's postinst (depmod): make it here.
	# Unstable ships modules under /usr/lib/modules, which depmod -b
	# finds through lib/modules.
	[ -e "$root/lib" ] || ln -s usr/lib "$root/lib"
	for m in "$root"/lib/modules/*/kernel; do
		depmod -b "$root" "$(basename "$(dirname "$m")")" || die "depmod for $m failed"
	done
	echo "$stamp" > "$root/.debs"
fi
# The headers' Makefile names the common tree (include) and, from 7.x, its
# own (KBUILD_OUTPUT) by their installed paths: where they are unpacked.
sed -i "s#^\(include \|KBUILD_OUTPUT=\)/usr/src/#\1$inroot/usr/src/#" "$root/usr/src/linux-headers-$abi/Makefile"

hdr=$root/usr/src/linux-headers-$abi
krel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$hdr/include/generated/utsrelease.h")
[ -n "$krel" ] || die "no UTS_RELEASE in $hdr"
# (riscv64's image is an uncompressed Image named vmlinux)
vmlinuz=$(ls "$root/boot/vmlinuz-$krel" "$root/usr/lib/modules/$krel/vmlinuz" \
	"$root/boot/vmlinux-$krel" "$root/usr/lib/modules/$krel/vmlinux" 2>/dev/null | head -1 || true)
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

# kernel.env, what the builds source: $1 the compiler (empty: the
# headers' own), $2 the kernel's ARCH, $3 CROSS_COMPILE (cross builds).
write_env() {
	{
		echo "KREL=$krel"
		echo "KDIR=$kdir_build"
		echo "KCC=$1"
		echo "CHROOT=$chroot_dir"
		echo "VMLINUZ=$vmlinuz"
		echo "MODTREE=$modtree"
		echo "ARCH=$2"
		[ -z "${3-}" ] || echo "CROSS_COMPILE=$3"
	} > "$kdir/kernel.env"
	echo "kernel-fetch: $kernel: $krel ready ($kdir/kernel.env)"
}

common=linux-headers-${abi%-"$flavour"}-common
if [ "$arch" != x86_64 ]; then
	# Cross-built with the compiler the headers name (gcc-N, or Debian's
	# own cross build's aarch64-linux-gnu-gcc-N): from the host (bookworm's
	# gcc-12) or, for unstable, installed in the chroot with what the
	# builds need.
	gnu=aarch64-linux-gnu karch=arm64
	[ "$arch" = riscv64 ] && gnu=riscv64-linux-gnu karch=riscv
	cross=$gnu-
	cc=${cc#"$cross"}
	kcc=$cross$cc
	if [ -n "$chroot_dir" ]; then
		if ! chroot "$chroot_dir" sh -c "command -v $kcc && command -v make && command -v sparse && command -v pahole" >/dev/null; then
			chroot_install "$cc-$gnu" make sparse dwarves
		fi
		chroot "$chroot_dir" sh -c "command -v $kcc" >/dev/null || die "no $kcc in the chroot after installing $cc-$gnu"
		kdir_build=$inroot/usr/src/linux-headers-$abi
	else
		command -v "$kcc" >/dev/null || die "no $kcc: apt-get install $cc-$gnu (or gcc-$gnu)"
		kdir_build=$hdr
	fi
	checker_valid "$root/usr/src/$common"
	write_env "$kcc" "$karch" "$cross"
	exit 0
fi

if [ -n "$chroot_dir" ]; then
	ver=$(acache show --no-all-versions "linux-headers-$abi" | sed -n 's/^Version: //p')
	if ! chroot "$chroot_dir" dpkg-query -W -f='${Version}' "linux-headers-$abi" 2>/dev/null | grep -qxF "$ver" ||
	   ! chroot "$chroot_dir" sh -c 'command -v make && command -v sparse' >/dev/null; then
		chroot_install "linux-headers-$abi=$ver" make sparse
	fi
	kdir_build=/usr/src/linux-headers-$abi
	checker_valid "$chroot_dir/usr/src/$common"
	cc_host=$(chroot "$chroot_dir" sh -c "command -v $cc" 2>/dev/null || true)
else
	kdir_build=$hdr
	checker_valid "$root/usr/src/$common"
	cc_host=$(command -v "$cc" 2>/dev/null || true)
fi
# Empty: the headers' own compiler is there; else the default gcc (5.10's
# headers name gcc-10, which bookworm does not have; gcc-12 builds them).
if [ -n "$cc" ] && [ -n "$cc_host" ]; then cc=""; else cc=gcc; fi

write_env "$cc" x86_64
