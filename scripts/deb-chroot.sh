#!/bin/bash
# The Debian 12 chroot that scripts/deb-test.sh installs ptwalk's .debs
# into: debootstrap --variant=minbase bookworm, with dkms and the kernel
# headers of Debian's 6.1 (bookworm) and 6.12 (bookworm-backports)
# installed inside it, never on this machine.  Built once and cached:
# a later run reuses it when its recipe (this file) has not changed.
#
# usage: scripts/deb-chroot.sh DIR      (run as root; prints DIR when ready)
# Env: DEB_MIRROR, DEB_SECURITY_MIRROR (default: the Debian and security
# mirrors this machine's apt sources name, scripts/apt-mirror.sh).
# Every download failure fails the script: nothing is skipped.
set -euo pipefail

die() { echo "deb-chroot: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: $0 DIR"
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot)"
command -v debootstrap > /dev/null || die "debootstrap missing: run scripts/install-deps.sh"

here=$(cd "$(dirname "$0")" && pwd)
mirror=${DEB_MIRROR:-$("$here/apt-mirror.sh" debian)} || exit 2
security=${DEB_SECURITY_MIRROR:-$("$here/apt-mirror.sh" security)} || exit 2
dir=$(realpath -m "$1")
# What decides the content: this script and the mirrors.
recipe="$(sha256sum "$0" | cut -d' ' -f1) $mirror $security"
cached() { [ -f "$dir/.ptwalk-chroot" ] && [ "$(cat "$dir/.ptwalk-chroot")" = "$recipe" ]; }
cached && { echo "$dir"; exit 0; }

# One builder at a time (CI starts one early, in the background; the
# packaging test then waits for it here); a half-built tree is never
# taken for a cached one.
mkdir -p "$(dirname "$dir")"
exec 9> "$dir.lock"
flock 9
cached && { echo "$dir"; exit 0; }
new=$dir.new
umount_all() {
	for m in proc dev/pts dev sys; do
		mountpoint -q "$new/$m" 2> /dev/null && umount -l "$new/$m"
	done
	return 0
}
trap umount_all EXIT
umount_all
rm -rf "$new"
start=$(date +%s)

echo "deb-chroot: debootstrap bookworm (minbase) into $new" >&2
debootstrap --variant=minbase bookworm "$new" "$mirror" > "$dir.debootstrap.log" 2>&1 ||
	{ tail -n 20 "$dir.debootstrap.log" >&2; die "debootstrap failed, see $dir.debootstrap.log"; }

cat > "$new/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
deb $mirror bookworm-backports main
EOF
# No daemons start in the chroot (dpkg may try on upgrades).
printf '#!/bin/sh\nexit 101\n' > "$new/usr/sbin/policy-rc.d"
chmod 0755 "$new/usr/sbin/policy-rc.d"
mount -t proc proc "$new/proc"
mount --bind /dev "$new/dev"
in_root() { chroot "$new" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
apt_get() { in_root apt-get -y -q -o APT::Install-Recommends=false "$@"; }

# apt-get update fails on any index it cannot fetch (a half-updated list
# would silently lack backports).
apt_get -o APT::Update::Error-Mode=any update > "$dir.apt.log" 2>&1 ||
	{ tail -n 20 "$dir.apt.log" >&2; die "apt-get update in the chroot failed, see $dir.apt.log"; }
# The 6.12 headers: what bookworm-backports' linux-headers-amd64 depends on.
bpo=$(in_root apt-cache show 'linux-headers-amd64/bookworm-backports' |
	sed -n 's/^Depends: \(linux-headers-6\.12[^ ,]*\).*/\1/p' | head -n 1)
[ -n "$bpo" ] || die "no linux-headers-6.12 in bookworm-backports (see $dir.apt.log)"
# dwarves: pahole, for the BTF of modules built against 6.12's headers
# (they ship a vmlinux).
echo "deb-chroot: installing dkms, linux-headers-amd64 (6.1) and $bpo" >&2
apt_get install dkms linux-headers-amd64 dwarves openssl >> "$dir.apt.log" 2>&1 ||
	{ tail -n 20 "$dir.apt.log" >&2; die "installing dkms and the 6.1 headers failed, see $dir.apt.log"; }
# 6.12's headers depend on its image, whose install would build an
# initramfs no one boots (minutes under load): update-initramfs is
# diverted to a no-op first.
in_root dpkg-divert --local --rename --divert /usr/sbin/update-initramfs.distrib \
	--add /usr/sbin/update-initramfs > /dev/null
printf '#!/bin/sh\n# ptwalk test chroot: no initramfs is booted here\nexit 0\n' \
	> "$new/usr/sbin/update-initramfs"
chmod 0755 "$new/usr/sbin/update-initramfs"
apt_get -t bookworm-backports install "$bpo" >> "$dir.apt.log" 2>&1 ||
	{ tail -n 20 "$dir.apt.log" >&2; die "installing $bpo failed, see $dir.apt.log"; }
apt_get clean

# As on a machine that has used DKMS before: the module index of each
# kernel exists, and so does DKMS's signing key (made by dkms itself on
# its first build; the one a Secure Boot user enrolls as MOK).  Both
# belong to the machine and must outlive any one module package.
for k in "$new"/lib/modules/*; do
	in_root depmod -a "$(basename "$k")" 2>> "$dir.apt.log"
done
in_root openssl req -new -x509 -nodes -days 36500 -subj "/CN=DKMS module signing key" \
	-newkey rsa:2048 -keyout /var/lib/dkms/mok.key -outform DER \
	-out /var/lib/dkms/mok.pub > /dev/null 2>&1 || die "cannot make the DKMS signing key"
krels=$(ls "$new/lib/modules")
[ "$(echo "$krels" | wc -l)" -eq 2 ] || die "expected two kernels' headers, found: $krels"

umount_all
echo "$recipe" > "$new/.ptwalk-chroot"
rm -rf "$dir"
mv "$new" "$dir"
echo "deb-chroot: ready in $(($(date +%s) - start)) s: $(echo $krels)" >&2
echo "$dir"
