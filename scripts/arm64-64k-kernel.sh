#!/bin/bash
# The 64k lane's kernel of make check-arm64: Debian ships no arm64 image
# with 64 KiB pages, so this builds one, minimal, the way the debug lane
# builds its kernel: bookworm-backports' linux-source-6.12 (fetched by
# scripts/kernel-fetch.sh source-6.12), tinyconfig plus
# scripts/arm64-64k-kernel.config (CONFIG_ARM64_64K_PAGES with 42-bit VA:
# two levels, the PMD folded; what the VM suite needs), cross-compiled by scripts/debug-kernel.sh with
# KERNEL_ARCH=arm64 under nice -n 10 (KERNEL_NICE), into
# build/kernels/arm64-64k/.
# Writes build/kernels/arm64-64k/kernel.env as kernel-fetch.sh writes an
# arm64 kernel's, so that the lane runs it as it runs Debian's: its module
# tree is modules.builtin and an empty modules.dep (zram, virtio-console are
# built in).  Incremental: a rerun rebuilds only what changed.
#
# usage: scripts/arm64-64k-kernel.sh
# Env: PTWALK_BUILD (default <tree>/build), DEBUG_KERNEL_JOBS (default 2),
# KERNEL_NICE (default 10; CI builds at 0).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${PTWALK_BUILD:-$top/build}
out=$build/kernels/arm64-64k
die() { echo "arm64-64k-kernel: $*" >&2; exit 1; }

# One run at a time, the source's fetch included: CI builds this kernel in
# the background while make check-arm64's fetcher may run it again.
mkdir -p "$out"
exec 7>"$out/.run.lock"
flock 7

"$top/scripts/kernel-fetch.sh" source-6.12 || die "cannot fetch linux-source-6.12"
# shellcheck source=/dev/null
. "$build/kernels/source-6.12/kernel.env"
mkdir -p "$out"
start=$(date +%s)
KERNEL_ARCH=arm64 KERNEL_NICE=${KERNEL_NICE:-10} KERNEL_CONFIG=$top/scripts/arm64-64k-kernel.config \
	LINUX_SOURCE_TARBALL=$SOURCE_TARBALL "$top/scripts/debug-kernel.sh" "$out" ||
	die "the kernel did not build (log: $out/build.log)"
src=$out/$(basename "$SOURCE_TARBALL" .tar.xz)
krel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$src/include/generated/utsrelease.h")
grep -qx 'CONFIG_ARM64_64K_PAGES=y' "$src/.config" || die "$src/.config has no 64K pages"
grep -qx 'CONFIG_PGTABLE_LEVELS=2' "$src/.config" || die "$src/.config has not two levels"
modtree=$out/modtree
mkdir -p "$modtree"
cp "$src/modules.builtin" "$modtree/"
: > "$modtree/modules.dep"
cat > "$out/kernel.env" <<EOT
KREL=$krel
KDIR=$src
KCC=aarch64-linux-gnu-gcc
CHROOT=
VMLINUZ=$src/arch/arm64/boot/Image
MODTREE=$modtree
ARCH=arm64
CROSS_COMPILE=aarch64-linux-gnu-
EOT
echo "$(($(date +%s) - start))" > "$out/build.seconds"
echo "arm64-64k-kernel: $krel ready in $(cat "$out/build.seconds") s ($out/kernel.env)"
