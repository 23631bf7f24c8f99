#!/bin/sh
# Installs, from Debian's archive, every package ptwalk needs to build and to
# run its tests; installs nothing that is already there.
# usage: scripts/install-deps.sh [--check]   (--check: only list what is missing)
set -eu
# clang-14 with libclang-rt-14-dev (the sanitizer and libFuzzer runtimes) and
# llvm-14 (llvm-symbolizer: reports with file and line) build the sanitizer
# lanes and the fuzz targets (tests/fuzz/Makefile).
# debootstrap: make check-kernels' unstable chroot; dwarves: pahole, for the
# BTF that 6.12's headers (they ship a vmlinux) make kbuild generate.
PACKAGES="build-essential pkg-config kmod cpio gzip busybox-static \
qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1 \
libkmod-dev libcmocka-dev libjson-c-dev libdrm-dev sparse \
flex bison bc libelf-dev libssl-dev \
man-db groff-base mandoc bash-completion dkms \
clang-14 libclang-rt-14-dev llvm-14 \
dpkg-dev debhelper dh-dkms lintian debootstrap dwarves"
# gcc-multilib: the VM suite's 32-bit client (tests/vm/compat32.c)
PACKAGES="$PACKAGES gcc-multilib"
# make check-arm64: the cross compiler with its libc headers, QEMU for
# arm64 (the kernel and arm64 libraries come from scripts/arm64-fetch.sh)
PACKAGES="$PACKAGES gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"
# make check-riscv64: the same for riscv64 (qemu-system-misc has
# qemu-system-riscv64; the kernels and libraries come from
# scripts/kernel-fetch.sh and scripts/riscv64-fetch.sh)
PACKAGES="$PACKAGES gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-system-misc"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi
if [ "${1:-}" = --check ]; then
	echo "install-deps: missing:$missing"
	exit 1
fi
echo "install-deps: installing:$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
