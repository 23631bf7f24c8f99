#!/bin/bash
# The Debian packages on a Debian 12 system: make deb, lintian, then both
# .debs installed into a bookworm chroot (scripts/deb-chroot.sh, cached
# under build/) that has the headers of Debian's 6.1 and 6.12 kernels, and
# purged again.  Checks that DKMS built and installed ptwalk.ko for both
# kernels, that ptcompare --version runs, and that the purge leaves
# nothing behind: no file or directory that was not there before, nothing
# in the DKMS tree, nothing under /usr/src.
#
# usage: scripts/deb-test.sh OUT.tap       (appends TAP lines to OUT.tap)
# Run as root (chroot).  Env: DEB_CHROOT (default build/deb-chroot/bookworm).
set -u
# shellcheck source=scripts/tap-lib.sh
. "$(dirname "$0")/tap-lib.sh"
tap_begin deb "$@"
root=""
cleanup() {
	if [ -n "$root" ]; then
		for m in proc dev; do
			mountpoint -q "$root/$m" 2> /dev/null && umount -l "$root/$m"
		done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

export LC_ALL=C
version=$(sed -n 's/^#define PTWALK_VERSION "\(.*\)"/\1/p' module/ptwalk_version.h)
arch=$(dpkg-architecture -qDEB_HOST_ARCH 2> /dev/null || dpkg --print-architecture)

# --- the version's one source ------------------------------------------------

changelog=$(dpkg-parsechangelog -l debian/changelog -S Version 2>&1)
check deb_changelog_version "debian/changelog is at '$changelog', module/ptwalk_version.h at '$version'" \
	test "$changelog" = "$version" -a -n "$version"

# --- make deb, lintian -------------------------------------------------------

if ! make -s deb > "$tmp/deb.log" 2>&1; then
	nok deb_build "make deb failed: $(tail -n 3 "$tmp/deb.log" | tr '\n' ' ')"
	exit 0
fi
dkms_deb=build/deb/ptwalk-dkms_${version}_all.deb
pc_deb=build/deb/ptcompare_${version}_${arch}.deb
check deb_build "made: $(oneline "$tmp/deb.log")" test -f "$dkms_deb" -a -f "$pc_deb"

# The source package's own files, as dpkg-source would see them, and the
# binary packages with their .changes.
if ! command -v lintian > /dev/null; then
	nok deb_lintian_clean "lintian is missing: run scripts/install-deps.sh"
else
	lintian --fail-on error,warning --pedantic -I build/deb/ptwalk_"${version}"_"${arch}".changes \
		> "$tmp/lintian.log" 2>&1
	rc=$?
	grep -v '^running with root privileges' "$tmp/lintian.log" > "$tmp/lintian.tags"
	check deb_lintian_clean "lintian exited $rc: $(oneline "$tmp/lintian.tags")" \
		test $rc -eq 0 -a ! -s "$tmp/lintian.tags"
fi

# What each package holds: the module's sources (git's files) with
# dkms.conf; the program, its man page, its completion.
dpkg-deb -c "$dkms_deb" | awk '$1 !~ /^d/ { print $6 }' | sed -n "s|^\./usr/src/ptwalk-$version/||p" |
	sort > "$tmp/dkms.found"
{ echo dkms.conf; echo Kbuild; git ls-files module; } | sort > "$tmp/dkms.expected"
check deb_dkms_contents "usr/src/ptwalk-$version differs from the module's sources: $(diff "$tmp/dkms.expected" "$tmp/dkms.found" | grep '^[<>]' | tr '\n' ' ')" \
	cmp -s "$tmp/dkms.expected" "$tmp/dkms.found"
dpkg-deb -c "$pc_deb" | awk '$1 !~ /^d/ { print $6 }' | grep -v '^\./usr/share/doc/' | sort > "$tmp/pc.found"
printf '%s\n' ./usr/bin/ptcompare ./usr/share/bash-completion/completions/ptcompare \
	./usr/share/man/man1/ptcompare.1.gz | sort > "$tmp/pc.expected"
check deb_ptcompare_contents "ptcompare's .deb differs: $(diff "$tmp/pc.expected" "$tmp/pc.found" | grep '^[<>]' | tr '\n' ' ')" \
	cmp -s "$tmp/pc.expected" "$tmp/pc.found"

# --- install into the chroot, purge ----------------------------------------

if [ "$(id -u)" -ne 0 ]; then
	nok deb_chroot "needs root (debootstrap, chroot): run make check-packaging as root"
	exit 0
fi
start=$(date +%s)
if ! root=$(scripts/deb-chroot.sh "${DEB_CHROOT:-build/deb-chroot/bookworm}" 2> "$tmp/chroot.log"); then
	root=""
	nok deb_chroot "$(tail -n 3 "$tmp/chroot.log" | tr '\n' ' ')"
	exit 0
fi
ok "deb_chroot # ready in $(($(date +%s) - start)) s"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
# A previous run that stopped half way leaves its packages: purge them.
in_root dpkg --purge ptcompare ptwalk-dkms > /dev/null 2>&1

# Every file, directory and link of the system apart from what changes
# on its own (logs, caches, dpkg's database, the mounts).
snapshot() {
	(cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o \
		-path ./var/log -o -path ./var/cache -o -path ./var/lib/dpkg -o \
		-path ./var/lib/apt \) -prune -o -printf '%y %p\n' | sort)
}
snapshot > "$tmp/before"
krels=$(ls "$root/lib/modules")

cp "$dkms_deb" "$pc_deb" "$root/tmp/"
# dkms builds at install for the running kernel and the newest one; this
# chroot runs the host's kernel, so it is told to build for every kernel
# with headers (dkms's own switch, read by its postinst from this file),
# as on a machine that boots either.
conf=$root/etc/dkms/framework.conf
cp -p "$conf" "$tmp/framework.conf"
echo 'autoinstall_all_kernels="yes"' >> "$conf"
in_root dpkg -i "/tmp/$(basename "$dkms_deb")" "/tmp/$(basename "$pc_deb")" > "$tmp/install.log" 2>&1
rc=$?
check deb_install "dpkg -i exited $rc: $(tail -n 4 "$tmp/install.log" | tr '\n' ' ')" test $rc -eq 0
# the last build's log, whose first error says why a build failed
cp "$root/var/lib/dkms/ptwalk/$version/build/make.log" "$tmp/make.log" 2> /dev/null

for krel in $krels; do
	series=$(cut -d. -f1,2 <<< "$krel")	# 6.1, 6.12: stable case names
	# compressed like the kernel's own modules (6.12: ptwalk.ko.xz)
	ko=$(ls "$root/lib/modules/$krel"/updates/dkms/ptwalk.ko* 2> /dev/null | head -n 1)
	status=$(in_root dkms status ptwalk/"$version" -k "$krel" 2> /dev/null)
	vermagic=$(modinfo -F vermagic "${ko:-/nonexistent}" 2>&1)
	check "deb_dkms_built_$series" \
		"kernel $krel: dkms status '$status', vermagic '$vermagic'; $(grep -m 1 'error' "$tmp/make.log" 2> /dev/null)" \
		test "${vermagic%% *}" = "$krel" -a \
		"$(grep -c "^ptwalk/$version, $krel, x86_64: installed" <<< "$status")" = 1
	# signed with the DKMS key, as Secure Boot wants it
	signer=$(modinfo -F signer "${ko:-/nonexistent}" 2>&1)
	check "deb_dkms_signed_$series" "$krel: signer '$signer'" \
		test "$signer" = "DKMS module signing key"
done

got=$(in_root ptcompare --version 2>&1)
rc=$?
check deb_ptcompare_version "ptcompare --version exited $rc: $got" \
	test $rc -eq 0 -a "$(head -n 1 <<< "$got")" = "ptcompare $version (ptwalk ABI $(sed -n 's/^#define PTWALK_ABI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' module/ptwalk_abi.h))"
# The man page and the completion where man and bash-completion look,
# the tree's own.
zcat "$root/usr/share/man/man1/ptcompare.1.gz" 2> /dev/null | cmp -s - man/ptcompare.1
check deb_man_page "/usr/share/man/man1/ptcompare.1.gz is not man/ptcompare.1" test $? -eq 0
check deb_completion "/usr/share/bash-completion/completions/ptcompare is not completion/ptcompare" \
	cmp -s "$root/usr/share/bash-completion/completions/ptcompare" completion/ptcompare

in_root dpkg --purge ptcompare ptwalk-dkms > "$tmp/purge.log" 2>&1
rc=$?
check deb_purge "dpkg --purge exited $rc: $(tail -n 3 "$tmp/purge.log" | tr '\n' ' ')" test $rc -eq 0
cp -p "$tmp/framework.conf" "$conf"
rm -f "$root"/tmp/*.deb
snapshot > "$tmp/after"
left=$(diff "$tmp/before" "$tmp/after" | grep '^[<>]' | tr '\n' ' ')
check deb_purge_leaves_nothing "differs from before the install: $left" test -z "$left"
check deb_purge_dkms_tree "left in /var/lib/dkms or /usr/src: $(ls -d "$root"/var/lib/dkms/ptwalk "$root"/usr/src/ptwalk-* 2>/dev/null | tr '\n' ' ')" \
	test ! -e "$root/var/lib/dkms/ptwalk" -a -z "$(ls -d "$root"/usr/src/ptwalk-* 2>/dev/null)"
kos=$(find "$root/lib/modules" -name 'ptwalk*.ko*' | tr '\n' ' ')
check deb_purge_modules "modules left: $kos" test -z "$kos"
exit 0
