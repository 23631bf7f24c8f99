#!/bin/bash
# Builds the debug kernel of the VM lane (make check-debug): a Debian
# linux-source (make debug-kernel gives bookworm-backports' 6.12, the
# first with the DMA API's tracepoints) with a small config (tinyconfig plus
# scripts/debug-kernel.config: KASAN, lockdep, kmemleak, DEBUG_VM, ...),
# bzImage and modules (the config has none: this runs modpost over vmlinux,
# which writes the Module.symvers that out-of-tree modules link against),
# so that they build with `make -C BUILDDIR/linux-source-VERSION M=...`.
#
# usage: scripts/debug-kernel.sh BUILDDIR
# Prints the kernel image and release on success.  Incremental: the source
# is extracted once (again only when the tarball changes), .config is
# replaced only when its content changes, and kbuild rebuilds what changed.
# Env: LINUX_SOURCE_TARBALL (default /usr/src/linux-source-6.1.tar.xz),
# DEBUG_KERNEL_JOBS (default 2).  Compiles run under nice -n 19
# (KERNEL_NICE).
# The same recipe builds make check-arm64's 64 KiB-page kernel
# (scripts/arm64-64k-kernel.sh): KERNEL_ARCH=arm64 cross-compiles
# (CROSS_COMPILE=aarch64-linux-gnu-) arch/arm64/boot/Image; KERNEL_CONFIG
# names the fragment instead of scripts/debug-kernel.config.
set -euo pipefail

die() { echo "debug-kernel: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: $0 BUILDDIR"
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kconfig-lib.sh
. "$top/scripts/kconfig-lib.sh"
fragment=${KERNEL_CONFIG:-$top/scripts/debug-kernel.config}
arch=${KERNEL_ARCH:-x86_64}
case $arch in
x86_64) cross="" image_target=bzImage image_path=arch/x86/boot/bzImage ;;
arm64) cross=aarch64-linux-gnu- image_target=Image image_path=arch/arm64/boot/Image
	command -v ${cross}gcc >/dev/null || die "${cross}gcc missing: apt-get install gcc-aarch64-linux-gnu" ;;
*) die "KERNEL_ARCH=$arch: x86_64 or arm64" ;;
esac
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${DEBUG_KERNEL_JOBS:-2}
[ -r "$tarball" ] || die "no $tarball: apt-get install linux-source-6.1"
for tool in gcc make flex bison bc; do
	command -v $tool >/dev/null || die "$tool missing: apt-get install build-essential flex bison bc libelf-dev libssl-dev"
done
[ -e /usr/include/libelf.h ] || die "libelf.h missing (objtool needs it): apt-get install libelf-dev"
[ -e /usr/include/openssl/ssl.h ] || die "openssl headers missing: apt-get install libssl-dev"

mkdir -p "$1"
builddir=$(cd "$1" && pwd)
name=$(basename "$tarball" .tar.xz)	# the tarball's top directory
src=$builddir/$name
log=$builddir/build.log

# One build at a time per BUILDDIR.
exec 9>"$builddir/.lock"
flock 9

# --- source: extracted once per tarball version ------------------------------
stamp="$(stat -L -c '%s %Y' "$tarball") $tarball"
if [ ! -d "$src" ] || [ "$(cat "$builddir/.extracted" 2>/dev/null)" != "$stamp" ]; then
	echo "debug-kernel: extracting $tarball into $builddir"
	rm -rf "$src" "$builddir/.extracting" "$builddir/.extracted"
	mkdir "$builddir/.extracting"
	tar -C "$builddir/.extracting" -xf "$tarball"
	[ -d "$builddir/.extracting/$name" ] || die "$tarball has no top directory $name"
	mv "$builddir/.extracting/$name" "$src"
	rmdir "$builddir/.extracting"
	echo "$stamp" > "$builddir/.extracted"
fi

kmake() { nice -n "${KERNEL_NICE:-19}" make -C "$src" ARCH="$arch" ${cross:+CROSS_COMPILE=$cross} "$@"; }

# --- config: tinyconfig + fragment, checked symbol by symbol ------------------
# Generated into a side file; .config is replaced only when it changes, so
# a rerun does not make kbuild reconsider anything.  Generating it runs
# Kconfig four times, each asking the compiler about hundreds of options
# (minutes on a loaded machine): skipped when the recipe (architecture,
# compiler, source, fragment) is the one the current .config came from.
recipe="$arch $("${cross}gcc" --version | head -1) $stamp $(sha256sum < "$fragment" | cut -d' ' -f1)"
if [ -s "$src/.config" ] && [ "$(cat "$builddir/.config-recipe" 2>/dev/null)" = "$recipe" ]; then
	echo "debug-kernel: .config is the fragment's already"
else
	new=$src/.config.debug-kernel
	rm -f "$new" "$new.old"
	{
		KCONFIG_CONFIG=$new kmake tinyconfig
		(cd "$src" && KCONFIG_CONFIG=$new scripts/kconfig/merge_config.sh -m "$new" "$fragment")
		KCONFIG_CONFIG=$new kmake olddefconfig
	} > "$builddir/config.log" 2>&1 || { tail -n 20 "$builddir/config.log" >&2; die "config generation failed, see $builddir/config.log"; }

	# Every line of the fragment must be in the result: olddefconfig silently
	# drops a symbol whose dependencies are not met.
	missing=$(config_missing "debug-kernel: ${fragment#"$top"/}" "$new" < "$fragment")
	if [ "$missing" -gt 0 ]; then
		die "$missing required option(s) did not survive olddefconfig (unmet dependencies): fix $fragment"
	fi
	if cmp -s "$new" "$src/.config"; then
		rm -f "$new" "$new.old"
	else
		echo "debug-kernel: new .config"
		mv "$new" "$src/.config"
		rm -f "$new.old"
	fi
	echo "$recipe" > "$builddir/.config-recipe"
fi

# --- build --------------------------------------------------------------------
echo "debug-kernel: make $image_target modules (nice -n ${KERNEL_NICE:-19}, -j$jobs; log: $log)"
if ! kmake -j"$jobs" "$image_target" modules > "$log" 2>&1; then
	grep -E -m 20 'error|Error' "$log" >&2 || tail -n 40 "$log" >&2
	die "kernel build failed, see $log"
fi
image=$src/$image_path
krel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$src/include/generated/utsrelease.h")
[ -r "$image" ] && [ -n "$krel" ] || die "build finished without $image or a kernel release"
[ -r "$src/Module.symvers" ] || die "no $src/Module.symvers: out-of-tree modules would not link"
echo "debug-kernel: $image ($krel)"
