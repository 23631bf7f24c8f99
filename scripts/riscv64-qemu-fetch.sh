#!/bin/bash
# A newer qemu-system-riscv64 for the riscv64 lanes (make check-riscv64):
# bookworm-backports' qemu-system-riscv (QEMU 10) and the opensbi it
# needs, downloaded with a private apt configuration and unpacked with
# dpkg -x into OUT/root; nothing is installed on this machine.  Bookworm's
# own QEMU 7.2 tells the guest "riscv,sv48" in the device tree's mmu-type
# whatever the CPU supports, and kernels that honour it (unstable's 7.2)
# never enable Sv57 there; QEMU 10 names the CPU's widest mode (Sv57 for
# -cpu rv64).  The binary runs on bookworm against bookworm's libraries
# (those of qemu-system-misc, scripts/install-deps.sh): ldd must find every
# one.  The unpacked tree is made a QEMU bundle (usr/bin/qemu-bundle, a
# link to OUT/root): QEMU then looks for every configured path, its
# modules' directory among them, under the bundle, and so never loads the
# installed QEMU's modules from /usr/lib/x86_64-linux-gnu/qemu, which
# abort a QEMU of another build (util/module.c, util/cutils.c's
# get_relocated_path()); the check below starts it the way its default
# audio backend is probed, which loads modules.  Writes OUT/qemu.env: QEMU
# (the binary) and BIOS (its OpenSBI, which the installed QEMU's firmware
# must not stand in for).
# usage: scripts/riscv64-qemu-fetch.sh [OUT]   (default: build/qemu-riscv64)
# Env: PTWALK_BUILD (default <tree>/build), DEBIAN_MIRROR (default: this
# machine's apt sources', scripts/apt-mirror.sh).
set -euo pipefail
# shellcheck source=scripts/fetch-lib.sh
. "$(dirname "$0")/fetch-lib.sh"
fetch_init riscv64-qemu-fetch
out=$(fetch_out "$build/qemu-riscv64" "${1:-}")
mkdir -p "$out/debs"
private_apt "$out/apt" "$mirror bookworm-backports"
apt-get "${apt_opts[@]}" --error-on=any update > "$out/update.log" 2>&1 ||
	die "apt-get update of bookworm-backports failed (log: $out/update.log): $(grep -m1 -E '^(E|W|Err):' "$out/update.log")"

# The newest of each (the archive's SHA256 decides whether a cached deb is whole)
want=(qemu-system-riscv opensbi)
debs=() sums=() missing=()
for p in "${want[@]}"; do
	fields=$(apt-cache "${apt_opts[@]}" show --no-all-versions "$p" 2>/dev/null |
		sed -n 's/^\(Version\|Architecture\|SHA256\): //p' | tr '\n' ' ')
	read -r ver pkgarch sum <<< "$fields"
	[ -n "${sum:-}" ] || die "no $p in bookworm-backports"
	deb=${p}_${ver//:/%3a}_$pkgarch.deb
	debs+=("$deb")
	sums+=("$sum")
	[ "$(sha256sum 2>/dev/null < "$out/debs/$deb" | cut -d' ' -f1)" = "$sum" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "riscv64-qemu-fetch: downloading ${missing[*]}"
	rm -f "$out"/debs/*.deb
	(cd "$out/debs" && apt-get "${apt_opts[@]}" download "${want[@]}") > "$out/download.log" 2>&1 ||
		die "apt-get download ${want[*]} failed (log: $out/download.log): $(grep -m1 -E '^(E|Err):' "$out/download.log")"
fi
for i in "${!want[@]}"; do
	[ "$(sha256sum < "$out/debs/${debs[$i]}" | cut -d' ' -f1)" = "${sums[$i]}" ] ||
		die "apt-get download left no intact $out/debs/${debs[$i]}"
done

if [ "$(cat "$out/root/.debs" 2>/dev/null)" != "${debs[*]}" ]; then
	rm -rf "$out/root"
	for d in "${debs[@]}"; do
		dpkg -x "$out/debs/$d" "$out/root" || die "dpkg -x $d failed"
	done
	echo "${debs[*]}" > "$out/root/.debs"
fi
qemu=$out/root/usr/bin/qemu-system-riscv64
bios=$out/root/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
[ -x "$qemu" ] || die "no $qemu in ${debs[0]}"
[ -r "$bios" ] || die "no $bios (opensbi's) after unpacking"
lost=$(ldd "$qemu" | sed -n 's/^[[:space:]]*\([^ ]*\) => not found.*/\1/p' | tr '\n' ' ')
[ -z "$lost" ] || die "$qemu needs libraries this machine lacks: $lost(apt-get install qemu-system-misc brings them)"
# Every module QEMU loads is its own (none: the package has no module)
ln -sfn ../.. "$out/root/usr/bin/qemu-bundle"
version=$("$qemu" --version | head -1)
[ -n "$version" ] || die "$qemu --version printed nothing"
# Started with its defaults (audio backends are probed, from modules), then quit
started=$(echo quit | "$qemu" -M virt -display none -S -monitor stdio 2>&1 > /dev/null) ||
	die "$qemu does not start (exit $?): $(echo "$started" | head -3 | tr '\n' ' ')"
cat > "$out/qemu.env" <<EOF
QEMU=$qemu
BIOS=$bios
EOF
echo "riscv64-qemu-fetch: $version in $out/root ($out/qemu.env)"
