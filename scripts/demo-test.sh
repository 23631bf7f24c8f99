#!/bin/bash
# make demo on a Debian 12 system that has only what
# `scripts/install-deps.sh --demo` installs: an overlay over the packaging
# test's bookworm chroot (scripts/deb-chroot.sh; minbase, plus dkms and
# the 6.1 and 6.12 headers), so the chroot itself is left as it was.  In
# it: the demo profile installed, none of the full profile's test-only
# packages (cross compilers, other QEMUs, the kernel source) present, and
# make demo-run built and booted there, printing its translation.
#
# usage: scripts/demo-test.sh OUT.tap      (appends TAP lines to OUT.tap)
# Run as root (overlay mount, chroot).  Env: DEB_CHROOT (default
# build/deb-chroot/bookworm).
set -u
# shellcheck source=scripts/tap-lib.sh
. "$(dirname "$0")/tap-lib.sh"
tap_begin demo "$@"
ovl=""
cleanup() {
	if [ -n "$ovl" ]; then
		for m in merged/proc merged/dev/pts merged/dev merged/sys merged; do
			mountpoint -q "$ovl/$m" 2> /dev/null && umount -l "$ovl/$m"
		done
		rm -rf "$ovl"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
export LC_ALL=C

if [ "$(id -u)" -ne 0 ]; then
	nok demo_chroot "needs root (overlay mount, chroot): run make check-packaging as root"
	exit 0
fi
if ! base=$(scripts/deb-chroot.sh "${DEB_CHROOT:-build/deb-chroot/bookworm}" 2> "$tmp/chroot.log"); then
	nok demo_chroot "$(tail -n 3 "$tmp/chroot.log" | tr '\n' ' ')"
	exit 0
fi
ovl=$top/build/demo-overlay
rm -rf "$ovl"
mkdir -p "$ovl/upper" "$ovl/work" "$ovl/merged"
if ! mount -t overlay overlay -o "lowerdir=$base,upperdir=$ovl/upper,workdir=$ovl/work" \
	"$ovl/merged" 2> "$tmp/mount.log"; then
	nok demo_chroot "overlay mount failed: $(oneline "$tmp/mount.log")"
	exit 0
fi
root=$ovl/merged
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount -t sysfs sysfs "$root/sys"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }

# The tree as committed plus what is changed in the work tree: its files.
mkdir -p "$root/root/ptwalk"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$root/root/ptwalk"

start=$(date +%s)
in_root sh -c 'cd /root/ptwalk && scripts/install-deps.sh --demo' > "$tmp/deps.log" 2>&1
rc=$?
check demo_deps_install "install-deps.sh --demo exited $rc: $(tail -n 3 "$tmp/deps.log" | tr '\n' ' ')" \
	test $rc -eq 0
ok "demo_deps_time # $(($(date +%s) - start)) s"
in_root sh -c 'cd /root/ptwalk && scripts/install-deps.sh --demo --check' > "$tmp/check.log" 2>&1
check demo_deps_complete "after the install: $(oneline "$tmp/check.log")" \
	grep -q 'all packages present (demo)' "$tmp/check.log"
# None of the packages only make check needs came with the demo's.
extra=""
for p in linux-source-6.1 qemu-system-arm qemu-system-misc gcc-aarch64-linux-gnu \
	gcc-riscv64-linux-gnu clang-14 lintian libcmocka-dev sparse; do
	in_root dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" &&
		extra="$extra $p"
done
check demo_deps_only_demo "the demo profile brought:$extra" test -z "$extra"

# The demo itself, against the 6.1 kernel the profile installed (the
# chroot also has 6.12's headers, which find-kdir would take).
krel=$(in_root sh -c 'ls /boot | sed -n "s/^vmlinuz-//p" | sort -V | tail -n 1')
start=$(date +%s)
in_root sh -c "cd /root/ptwalk && make demo-run KDIR=/usr/src/linux-headers-$krel" > "$tmp/demo.log" 2>&1
rc=$?
cp "$tmp/demo.log" "$top/build/demo-test.log"
check demo_runs "make demo-run exited $rc on $krel (build/demo-test.log): $(tail -n 3 "$tmp/demo.log" | tr '\n' ' ')" \
	test $rc -eq 0
check demo_shows_translation "no vtop translation in the demo's output (build/demo-test.log)" \
	grep -q 'pfn 0x' "$tmp/demo.log"
ok "demo_run_time # $(($(date +%s) - start)) s"
exit 0
