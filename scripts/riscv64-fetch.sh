#!/bin/bash
# The riscv64 guest's userland (make check-riscv64): bookworm has no
# riscv64 packages, so ptcompare and vmtest are cross-built in the unstable
# chroot that the riscv64 kernels are built in (build/kernels/newest/chroot,
# made by scripts/kernel-fetch.sh riscv64-newest or riscv64-6.12), where
# this installs, with riscv64 added to its dpkg architectures, the cross
# compiler and the riscv64 libraries: libc6-dev, libjson-c-dev (vmtest
# links it statically), libkmod-dev (ptcompare's header; libkmod2 is
# opened at run time) and libdrm-dev (the DRM uAPI headers).  The guest's
# busybox is sid's busybox-static:riscv64, downloaded and unpacked with
# dpkg -x into OUT/root, whose usr/lib/riscv64-linux-gnu is a link to the
# chroot's: the shared libraries the guest's ptcompare needs
# (scripts/vm-run.sh's VM_SYSROOT).  Nothing is installed on this machine.
# Writes OUT/env.mk (RISCV64_UCHROOT, RISCV64_SYSROOT, RISCV64_UCC).
# usage: scripts/riscv64-fetch.sh [OUT]   (default: build/riscv64)
# Env: PTWALK_BUILD (default <tree>/build), DEBIAN_MIRROR (default: this
# machine's apt sources', scripts/apt-mirror.sh).
set -euo pipefail
# shellcheck source=scripts/fetch-lib.sh
. "$(dirname "$0")/fetch-lib.sh"
fetch_init riscv64-fetch
out=$(fetch_out "$build/riscv64" "${1:-}")
chroot_dir=$build/kernels/newest/chroot
[ -x "$chroot_dir/usr/bin/apt-get" ] ||
	die "no unstable chroot in $chroot_dir: scripts/kernel-fetch.sh riscv64-newest makes it"
# one change of the chroot at a time (kernel-fetch.sh takes the same lock)
exec 8> "$build/kernels/newest/chroot.lock"
flock 8

ucc=riscv64-linux-gnu-gcc
want="gcc-riscv64-linux-gnu make libc6-dev:riscv64 libjson-c-dev:riscv64 libkmod-dev:riscv64 libdrm-dev:riscv64"
# shellcheck disable=SC2086
if ! chroot "$chroot_dir" dpkg-query -W $want > /dev/null 2>&1; then
	echo "riscv64-fetch: installing $want in the chroot"
	chroot "$chroot_dir" dpkg --add-architecture riscv64
	echo "deb $mirror sid main" > "$chroot_dir/etc/apt/sources.list"
	# shellcheck disable=SC2086
	{
		chroot "$chroot_dir" apt-get -q -o Acquire::Check-Valid-Until=false --error-on=any update &&
		DEBIAN_FRONTEND=noninteractive chroot "$chroot_dir" apt-get -q -y \
			--no-install-recommends install $want
	} > "$out/chroot-install.log" 2>&1 ||
		die "installing in the chroot failed (log: $out/chroot-install.log): $(grep -m1 -E '^(E|Err):' "$out/chroot-install.log")"
fi
chroot "$chroot_dir" sh -c "command -v $ucc" > /dev/null || die "no $ucc in the chroot"

# busybox-static:riscv64, at the chroot's version of the archive
ver=$(chroot "$chroot_dir" apt-cache show --no-all-versions busybox-static:riscv64 | sed -n 's/^Version: //p')
[ -n "$ver" ] || die "sid has no busybox-static:riscv64"
if [ "$(cat "$out/root/.busybox" 2>/dev/null)" != "$ver" ]; then
	rm -rf "$chroot_dir/ptwalk-riscv64/debs"
	mkdir -p "$chroot_dir/ptwalk-riscv64/debs"
	chroot "$chroot_dir" sh -c "cd /ptwalk-riscv64/debs && apt-get -q download busybox-static:riscv64" \
		> "$out/download.log" 2>&1 || die "apt-get download busybox-static:riscv64 failed (log: $out/download.log)"
	rm -rf "$out/root"
	mkdir -p "$out/root/usr/lib"
	dpkg -x "$chroot_dir"/ptwalk-riscv64/debs/busybox-static_*_riscv64.deb "$out/root" ||
		die "dpkg -x busybox-static failed"
	echo "$ver" > "$out/root/.busybox"
fi
# merged /usr or not, the guest's busybox is OUT/root/bin/busybox
[ -x "$out/root/bin/busybox" ] || { mkdir -p "$out/root/bin" && ln -sf ../usr/bin/busybox "$out/root/bin/busybox"; }
[ -x "$out/root/bin/busybox" ] || die "no riscv64 busybox in $out/root"
ln -sfn "$chroot_dir/usr/lib/riscv64-linux-gnu" "$out/root/usr/lib/riscv64-linux-gnu"

cat > "$out/env.mk" <<EOF
# Written by scripts/riscv64-fetch.sh: sid's riscv64 userland
RISCV64_UCHROOT := $chroot_dir
RISCV64_SYSROOT := $out/root
RISCV64_UCC := $ucc
EOF
echo "riscv64-fetch: $ucc and the riscv64 libraries in $chroot_dir, busybox $ver in $out/root"
