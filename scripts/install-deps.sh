#!/bin/sh
# Installs, from Debian's archive, the packages a use of ptwalk needs;
# installs nothing that is already there.
# usage: scripts/install-deps.sh [--demo|--ci] [--check]
#   (no profile)  everything make check needs: build, every test lane
#   --demo        only what make demo needs: build ptwalk and ptcompare
#                 against the installed kernel and boot it under QEMU
#   --ci          everything, and what a user's machine may hold that the
#                 lanes must withstand (CI installs it: .ci/run)
#   --check       only list what is missing (exit 1 if anything is)
set -eu
profile=all
check=
for a in "$@"; do
	case $a in
	--demo) profile=demo ;;
	--ci) profile=ci ;;
	--check) check=1 ;;
	*)
		echo "usage: scripts/install-deps.sh [--demo|--ci] [--check]" >&2
		exit 2
		;;
	esac
done
# The demo: a compiler, the headers and image of Debian's kernel, libkmod
# (ptcompare opens it to explain a failure), and what scripts/vm-run.sh
# builds and boots the guest with (busybox-static, cpio, gzip, modinfo from
# kmod, qemu-system-x86).
PACKAGES="build-essential pkg-config kmod cpio gzip busybox-static \
qemu-system-x86 linux-image-amd64 linux-headers-amd64 libkmod-dev"
if [ "$profile" != demo ]; then
	# The tests: cmocka and json-c (an independent JSON parser), the DRM
	# uAPI headers of the vgem case, sparse for the lint, the debug
	# kernel's source and build tools, the man and packaging tools.
	PACKAGES="$PACKAGES linux-source-6.1 libcmocka-dev libjson-c-dev \
libdrm-dev sparse flex bison bc libelf-dev libssl-dev \
man-db groff-base mandoc bash-completion dkms \
dpkg-dev debhelper dh-dkms lintian"
	# clang-14 with libclang-rt-14-dev (the sanitizer and libFuzzer
	# runtimes) and llvm-14 (llvm-symbolizer: reports with file and line)
	# build the sanitizer lanes and the fuzz targets (tests/fuzz/Makefile).
	PACKAGES="$PACKAGES clang-14 libclang-rt-14-dev llvm-14"
	# debootstrap: make check-kernels' unstable chroot; dwarves: pahole,
	# for the BTF that 6.12's headers (they ship a vmlinux) make kbuild
	# generate.
	PACKAGES="$PACKAGES debootstrap dwarves"
	# the VM suite's 32-bit client (tests/vm/compat32.c): the i386 libc
	# and libgcc, not gcc-multilib, which conflicts with the cross
	# compilers below
	PACKAGES="$PACKAGES libc6-dev-i386 lib32gcc-12-dev"
	# make check-arm64: the cross compiler with its libc headers, QEMU
	# for arm64 (the kernel and arm64 libraries come from
	# scripts/arm64-fetch.sh)
	PACKAGES="$PACKAGES gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"
	# make check-riscv64: the same for riscv64 (qemu-system-misc has
	# qemu-system-riscv64; the kernels and libraries come from
	# scripts/kernel-fetch.sh and scripts/riscv64-fetch.sh)
	PACKAGES="$PACKAGES gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-system-misc"
fi
if [ "$profile" = ci ]; then
	# QEMU's recommended qemu-system-gui, as apt-get installs QEMU by
	# default: its UI and audio modules (ui-opengl.so, audio-pa.so) in
	# /usr/lib/x86_64-linux-gnu/qemu abort a QEMU of another build that
	# loads them, such as the riscv64 lanes' QEMU 10, which must not
	# (scripts/riscv64-qemu-fetch.sh).  No lane needs it.
	PACKAGES="$PACKAGES qemu-system-gui"
fi

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps: all packages present ($profile)"
	exit 0
fi
if [ -n "$check" ]; then
	echo "install-deps: missing ($profile):$missing"
	exit 1
fi
echo "install-deps: installing ($profile):$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
