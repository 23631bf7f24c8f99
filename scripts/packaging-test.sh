#!/bin/bash
# make check-packaging: make install/uninstall, the man page, the bash
# completion, make modules_install and dkms, each checked on its result, and
# the documentation against the tree (scripts/doc-check.sh); then the Debian
# packages (scripts/deb-test.sh: make deb, lintian, install into and purge
# from a bookworm chroot with 6.1 and 6.12 headers) and the release tarball
# (scripts/dist-test.sh: make dist, and make deb in it, unpacked outside any
# checkout, makes the same packages), and make demo in an overlay of
# that chroot with only the demo's packages (scripts/demo-test.sh).
# Writes TAP to OUT (build/packaging.tap) and prints it.
# Everything happens under one temporary directory: dkms runs with its own
# source, dkms and install trees, its own signing key and no depmod, so the
# machine's /usr/src, /var/lib/dkms and /lib/modules are never touched.
# dkms install checks for root: run as root (CI does).
# usage: KDIR=/kernel/build scripts/packaging-test.sh OUT
set -u
# shellcheck source=scripts/tap-lib.sh
. "$(dirname "$0")/tap-lib.sh"
tap_begin packaging "${1-}" new

export LC_ALL=C
kdir=${KDIR:-$(scripts/find-kdir.sh)}
krel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$kdir/include/generated/utsrelease.h" 2>/dev/null)
version=$(user/ptcompare --version | sed -n 's/^ptcompare \([^ ]*\).*/\1/p')
man_src=man/ptcompare.1
comp_src=completion/ptcompare

# --- make install / uninstall -----------------------------------------------

dest=$tmp/root
make -s install DESTDIR="$dest" PREFIX=/usr > "$tmp/install.log" 2>&1
printf '%s\n' "755 usr/bin/ptcompare" \
	"644 usr/share/bash-completion/completions/ptcompare" \
	"644 usr/share/man/man1/ptcompare.1" | sort > "$tmp/expected"
(cd "$dest" 2>/dev/null && find . -type f -printf '%m %P\n' | sort) > "$tmp/found"
check install_files "installed files or modes differ: $(diff "$tmp/expected" "$tmp/found" | grep '^[<>]' | tr '\n' ' ')" \
	cmp -s "$tmp/expected" "$tmp/found"
check install_same_content "installed files differ from the tree" \
	cmp -s "$dest/usr/share/man/man1/ptcompare.1" "$man_src"

installed_version=$("$dest/usr/bin/ptcompare" --version 2>&1)
check installed_ptcompare_runs "installed ptcompare --version said '$installed_version'" \
	test "$installed_version" = "$(user/ptcompare --version)" -a -n "$version"

# man finds the page where install put it.
found_page=$(man --manpath="$dest/usr/share/man" -w ptcompare 2>&1)
check man_finds_installed_page "man -w said '$found_page'" \
	test "$found_page" = "$dest/usr/share/man/man1/ptcompare.1"

# From the environment: a Makefile that assigns them with := or = would
# ignore these, unlike command-line overrides.
BINDIR=/opt/pt/bin MANDIR=/opt/pt/man COMPLETIONDIR=/opt/pt/bash \
	make -s install DESTDIR="$tmp/alt" > "$tmp/install-alt.log" 2>&1
check install_dirs_overridable "BINDIR/MANDIR/COMPLETIONDIR not honoured" \
	test -x "$tmp/alt/opt/pt/bin/ptcompare" -a -f "$tmp/alt/opt/pt/man/man1/ptcompare.1" \
	-a -f "$tmp/alt/opt/pt/bash/ptcompare"

make -s uninstall DESTDIR="$dest" PREFIX=/usr > "$tmp/uninstall.log" 2>&1
left=$(find "$dest" -type f | sed "s|^$dest/||" | tr '\n' ' ')
check uninstall_removes_all "left behind: $left" test -z "$left"

# --- man page ---------------------------------------------------------------

man --warnings -l "$man_src" > /dev/null 2> "$tmp/man.err"
check man_no_groff_warnings "man --warnings: $(head -c 300 "$tmp/man.err" | tr '\n' ' ')" \
	test ! -s "$tmp/man.err"
if command -v mandoc > /dev/null; then
	mandoc -Tlint -Wwarning "$man_src" > "$tmp/mandoc.err" 2>&1
	check man_mandoc_lint "mandoc -Tlint: $(head -c 300 "$tmp/mandoc.err" | tr '\n' ' ')" \
		test ! -s "$tmp/mandoc.err"
else
	nok man_mandoc_lint "mandoc is missing: run scripts/install-deps.sh"
fi
whatis=$(lexgrog "$man_src" 2>&1)
check man_name_section "lexgrog: $whatis" grep -q ': "ptcompare - ' <<< "$whatis"

# Options as --help lists them: every -x / --word after a space, '[' or ','
# (lower case: "ADDR[-END]" names an argument's parts, not an option).
user/ptcompare --help | grep -oE '(^|[][ ,(])--?[a-z][A-Za-z0-9-]*' |
	sed 's/^[][ ,(]*//' | sort -u > "$tmp/help.opts"
# Options the man page documents: the tag lines of .TP items under OPTIONS.
awk '/^\.SH/ { in_opts = ($2 == "OPTIONS") } in_opts && tag { print; tag = 0 }
	in_opts && /^\.TP/ { tag = 1 }' "$man_src" |
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' |
	grep -oE '(^|[ ,"])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,"]*//' |
	sort -u > "$tmp/man.opts"
missing=$(comm -23 "$tmp/help.opts" "$tmp/man.opts" | tr '\n' ' ')
if [ ! -s "$tmp/help.opts" ]; then
	nok man_documents_every_option "no option found in ptcompare --help"
else
	check man_documents_every_option "not in the man page's OPTIONS: $missing" test -z "$missing"
fi
th_version=$(sed -n 's/^\.TH [^"]*"ptwalk \([^"]*\)".*/\1/p' "$man_src")
check man_version "man page says ptwalk '$th_version', ptcompare --version '$version'" \
	test "$th_version" = "$version"

# --- bash completion --------------------------------------------------------

# complete MODE WORD...: the candidates for the last word, one a line, as
# bash would ask for them; MODE full loads bash-completion first.
complete_words() {
	local mode=$1
	shift
	bash --norc --noprofile -c '
		mode=$1 comp=$2; shift 2
		if [ "$mode" = full ]; then
			. /usr/share/bash-completion/bash_completion || exit 3
		fi
		. "$comp" || exit 3
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_ptcompare ptcompare "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$mode" "$top/$comp_src" "$@" |
		sed '/^$/d'
}

# Processes to complete: a live one, a zombie (its parent never reaps) and,
# when visible, a kernel thread.
sleep 600 &
live_pid=$!
# perl (Debian's perl-base is essential) forks a child it never reaps.
perl -e '$| = 1; my $p = fork // die; exit 0 unless $p; print "$p\n"; sleep 600' \
	> "$tmp/zombie.pid" &
zparent=$!
zombie=""
for _ in $(seq 50); do
	zombie=$(cat "$tmp/zombie.pid")
	[ -n "$zombie" ] && [ "$(awk '{print $3}' "/proc/$zombie/stat" 2>/dev/null)" = Z ] && break
	zombie=""
	sleep 0.1
done
kthread=""
for d in /proc/[0-9]*; do
	flags=$(sed 's/.*) //' "$d/stat" 2>/dev/null | awk '{print $7}')
	if [ -n "$flags" ] && [ $((flags & 0x00200000)) -ne 0 ]; then
		kthread=${d#/proc/}
		break
	fi
done
trap 'kill $live_pid $zparent 2>/dev/null; rm -rf "$tmp"' EXIT

mkdir -p "$tmp/cwd/dbgdir1" "$tmp/cwd/dbgdir2"
touch "$tmp/cwd/dbgfile"

modes="plain"
if [ -r /usr/share/bash-completion/bash_completion ]; then
	modes="plain full"
else
	nok completion_with_bash_completion "bash-completion is missing: run scripts/install-deps.sh"
fi
for mode in $modes; do
	got=$(complete_words "$mode" ptcompare --j | tr '\n' ' ')
	check "completion_${mode}_option" "--j gave '$got'" test "$got" = "--json --jobs "
	got=$(complete_words "$mode" ptcompare --jobs "" | tr '\n' ' ')
	check "completion_${mode}_jobs_counts" "--jobs gave '$got'" \
		test "$got" = "1 2 3 4 5 6 7 8 "

	complete_words "$mode" ptcompare - | sort -u > "$tmp/comp.opts"
	missing=$(comm -23 "$tmp/help.opts" "$tmp/comp.opts" | tr '\n' ' ')
	check "completion_${mode}_every_help_option" "not offered: $missing" \
		test -z "$missing" -a -s "$tmp/help.opts"

	got=$(complete_words "$mode" ptcompare "$live_pid")
	check "completion_${mode}_pid" "'$live_pid' gave '${got//$'\n'/ }'" grep -qx "$live_pid" <<< "$got"
	bad=""
	for p in $(complete_words "$mode" ptcompare "${live_pid:0:1}"); do
		[[ $p =~ ^[0-9]+$ ]] && [[ $p == "${live_pid:0:1}"* ]] || bad="$bad $p"
	done
	check "completion_${mode}_pids_only" "not a matching pid:$bad" test -z "$bad"
	got=$(complete_words "$mode" ptcompare 999999999)
	check "completion_${mode}_no_such_pid" "999999999 gave '$got'" test -z "$got"
	if [ -n "$zombie" ]; then
		got=$(complete_words "$mode" ptcompare "$zombie")
		check "completion_${mode}_no_zombie" "zombie $zombie offered" \
			test -z "$(grep -x "$zombie" <<< "$got")"
	else
		nok "completion_${mode}_no_zombie" "could not make a zombie"
	fi
	if [ -n "$kthread" ]; then
		got=$(complete_words "$mode" ptcompare "$kthread")
		check "completion_${mode}_no_kernel_thread" "kernel thread $kthread offered" \
			test -z "$(grep -x "$kthread" <<< "$got")"
	else
		ok "completion_${mode}_no_kernel_thread # SKIP no kernel thread visible here"
	fi

	got=$(complete_words "$mode" ptcompare --vtop 0x1000 "$live_pid")
	check "completion_${mode}_pid_after_vtop" "gave '${got//$'\n'/ }'" grep -qx "$live_pid" <<< "$got"
	got=$(complete_words "$mode" ptcompare --iommu 0000:00:03.0 --watch 5 "${live_pid:0:1}" | tr '\n' ' ')
	check "completion_${mode}_no_pid_for_iommu_watch" "gave '$got'" test -z "$got"
	got=$(complete_words "$mode" ptcompare "$live_pid" "" | tr '\n' ' ')
	check "completion_${mode}_nothing_for_addr" "after PID gave '$got'" test -z "$got"
	got=$(complete_words "$mode" ptcompare --range "" | tr '\n' ' ')
	check "completion_${mode}_nothing_after_range" "gave '$got'" test -z "$got"
	got=$(complete_words "$mode" ptcompare --vtop "" | tr '\n' ' ')
	check "completion_${mode}_nothing_after_vtop" "gave '$got'" test -z "$got"
	got=$( (cd "$tmp/cwd" && complete_words "$mode" ptcompare --json --debugfs dbg) | sort | tr '\n' ' ')
	check "completion_${mode}_debugfs_dirs" "gave '$got'" test "$got" = "dbgdir1 dbgdir2 "
	# --device takes a file (a device node): files and directories offered
	got=$( (cd "$tmp/cwd" && complete_words "$mode" ptcompare --device dbg) | sort | tr '\n' ' ')
	check "completion_${mode}_device_files" "gave '$got'" test "$got" = "dbgdir1 dbgdir2 dbgfile "
done

# --- make modules_install ---------------------------------------------------

if [ -z "$krel" ]; then
	nok modules_install "no kernel release under KDIR='$kdir'"
else
	# A fixture build first: kbuild would install every module of the last
	# build's modules.order, the test fixture included.
	make -s fixture > "$tmp/fixture.log" 2>&1
	# A Makefile that loses INSTALL_MOD_PATH installs into the live
	# system: DEPMOD=true keeps depmod off it, and the check below finds
	# (and removes) a module that landed there.
	live_dir=/lib/modules/$krel/extra/module
	live_before=$(ls "$live_dir" 2>/dev/null)
	for how in INSTALL_MOD_PATH DESTDIR; do
		mp=$tmp/mod-$how
		make modules_install "$how=$mp" DEPMOD=true > "$tmp/modinst-$how.log" 2>&1 ||
			echo "make failed" >> "$tmp/modinst-$how.log"
		kos=$(cd "$mp" 2>/dev/null && find . -name '*.ko*' | sort | tr '\n' ' ')
		check "modules_install_$how" "modules installed: '$kos' ($(tail -n 2 "$tmp/modinst-$how.log" | tr '\n' ' '))" \
			test "$kos" = "./lib/modules/$krel/extra/module/ptwalk.ko "
	done
	vermagic=$(modinfo -F vermagic "$tmp/mod-DESTDIR/lib/modules/$krel/extra/module/ptwalk.ko" 2>&1)
	check modules_install_vermagic "vermagic '$vermagic', kernel $krel" \
		test "${vermagic%% *}" = "$krel"
	live_after=$(ls "$live_dir" 2>/dev/null)
	if [ "$live_after" != "$live_before" ]; then
		nok modules_install_staged_only "installed into $live_dir: removed again"
		[ -z "$live_before" ] && rm -rf "/lib/modules/$krel/extra/module" &&
			rmdir "/lib/modules/$krel/extra" 2>/dev/null
	else
		ok modules_install_staged_only
	fi
fi

# --- dkms -------------------------------------------------------------------

conf_version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
check dkms_conf_version "dkms.conf PACKAGE_VERSION '$conf_version', ptcompare --version '$version'" \
	test "$conf_version" = "$version" -a -n "$version"

src=$tmp/src/ptwalk-$conf_version
make -s dkms-source DKMS_SRCDIR="$src" > "$tmp/dkms-source.log" 2>&1
# The module's sources as git knows them: no build products.
{ echo dkms.conf; echo Kbuild; git ls-files module; } | sort > "$tmp/expected"
(cd "$src" 2>/dev/null && find . -type f -printf '%P\n' | sort) > "$tmp/found"
check dkms_source_files "dkms-source copied: $(diff "$tmp/expected" "$tmp/found" | grep '^[<>]' | tr '\n' ' ')" \
	cmp -s "$tmp/expected" "$tmp/found"

# dkms_run NAME COMMAND...: runs dkms on the private trees, logs, checks status.
dkms_run() {
	local name=$1
	shift
	{ echo "+ dkms $*"; dkms --dkmstree "$tmp/dkms" --sourcetree "$tmp/src" \
		--installtree "$tmp/inst" "$@"; } >> "$tmp/dkms.log" 2>&1
	local rc=$?
	check "$name" "dkms $* exited $rc: $(tail -n 3 "$tmp/dkms.log" | tr '\n' ' ')" test $rc -eq 0
	return $rc
}
dkms_status() {
	dkms --dkmstree "$tmp/dkms" --sourcetree "$tmp/src" --installtree "$tmp/inst" status 2>&1
}

if ! command -v dkms > /dev/null; then
	nok dkms "dkms is missing: run scripts/install-deps.sh"
elif [ "$(id -u)" -ne 0 ]; then
	nok dkms "needs root: dkms install refuses to run otherwise; run make check-packaging as root"
elif [ -z "$krel" ]; then
	nok dkms "no kernel release under KDIR='$kdir'"
else
	mkdir -p "$tmp/dkms" "$tmp/inst/$krel"
	touch "$tmp/stamp"
	sleep 1	# -newer compares whole seconds on some file systems
	# dkms signs what it builds and, without these, would create its key
	# in /var/lib/dkms.
	export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub
	m=ptwalk/$conf_version
	if dkms_run dkms_add add "$m" &&
		dkms_run dkms_build build "$m" -k "$krel" --kernelsourcedir "$kdir" &&
		dkms_run dkms_install install "$m" -k "$krel" --kernelsourcedir "$kdir" --no-depmod; then
		ko=$tmp/inst/$krel/updates/dkms/ptwalk.ko
		vermagic=$(modinfo -F vermagic "$ko" 2>&1)
		check dkms_module_vermagic "installed module's vermagic '$vermagic', kernel $krel" \
			test "${vermagic%% *}" = "$krel"
		status=$(dkms_status)
		check dkms_status_installed "dkms status: $status" \
			grep -q "^ptwalk/$conf_version, $krel, x86_64: installed" <<< "$status"
		others=$(cd "$tmp/inst" && find . -name '*.ko*' ! -path "./$krel/updates/dkms/ptwalk.ko" | tr '\n' ' ')
		check dkms_installs_only_ptwalk "also installed: $others" test -z "$others"
	fi
	dkms_run dkms_remove remove "$m" --all --no-depmod
	status=$(dkms_status)
	kos=$(find "$tmp/inst" "$tmp/dkms" -name '*.ko*' | tr '\n' ' ')
	check dkms_remove_clean "after remove: status '$status', modules '$kos'" \
		test -z "$status" -a -z "$kos"
	touched=$(find /var/lib/dkms /usr/src -maxdepth 1 -newer "$tmp/stamp" 2>/dev/null;
		find "/lib/modules/$krel" -newer "$tmp/stamp" 2>/dev/null)
	check dkms_system_untouched "changed on the machine: ${touched//$'\n'/ }" test -z "$touched"
fi

# --- documentation ----------------------------------------------------------

# README.md, docs/*.md and the man page: every tree path, function, make
# target, identifier and link they cite exists (one case per document).
KDIR=$kdir scripts/doc-check.sh >> "$out"

# --- Debian packages ---------------------------------------------------------

scripts/deb-test.sh "$out"

# --- make demo with the demo's packages only ---------------------------------

scripts/demo-test.sh "$out"

# --- the release tarball -----------------------------------------------------

scripts/dist-test.sh "$out"

cat "$out"
