#!/bin/bash
# make check-configs: ptwalk.ko built against kernels configured without
# what it can do without (scripts/kconfigs/*.config but base: no IOMMU API
# and no debugfs, with tracepoints; no tracepoints), each a small kernel from Debian's
# linux-source-6.1 (tinyconfig, scripts/kconfigs/base.config, then the
# variant), whose vmlinux build writes the Module.symvers modpost links
# the module against: what that configuration exports, nothing more.
# Per configuration, TAP cases:
#   config_NAME_links        the module builds W=1 without a warning and
#                            modpost resolves every symbol
#   config_NAME_says_lacks   its modinfo "lacks" names what the variant's
#                            "# lacks:" line says (main.c: the load message
#                            and ptwalk_info.features say the same)
# Then backport_5.14_builds: against 6.12's headers whose version.h says
# 5.14 (a vendor kernel's backports), the module builds W=1 clean and its
# feature tests find 6.12's interfaces; and config_full_lacks_nothing: the
# module of the tree's own KDIR build lacks nothing.
# The kernels are cached under KCONFIGS_DIR (one source tree, one O=
# directory per configuration): the first run builds each vmlinux, a rerun
# only what changed.
#
# usage: scripts/config-check.sh OUT.tap MOD_SRC...
# Env: KCONFIGS_DIR (default build/kconfigs), KCONFIGS (the variants to
# build, default all; empty: none), LINUX_SOURCE_TARBALL (default
# /usr/src/linux-source-6.1.tar.xz), KCONFIG_JOBS (default 2),
# KERNEL_NICE (default 19), PTWALK_KO (the tree's own module, default
# module/ptwalk.ko), KCONFIG_KERNELS_ONLY=1 (build the kernels and stop:
# CI starts that in the background, the check later finds them built).
set -uo pipefail

die() { echo "config-check: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: $0 OUT.tap MOD_SRC..."
tap=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kconfig-lib.sh
. "$top/scripts/kconfig-lib.sh"
frags=$top/scripts/kconfigs
dir=${KCONFIGS_DIR:-$top/build/kconfigs}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${KCONFIG_JOBS:-2}
all=""
for f in "$frags"/*.config; do
	f=$(basename "$f" .config)
	[ "$f" = base ] || all="$all $f"
done
names=${KCONFIGS-$all}
[ -r "$tarball" ] || die "no $tarball: apt-get install linux-source-6.1"
for tool in gcc make flex bison bc modinfo; do
	command -v $tool >/dev/null || die "$tool missing: apt-get install build-essential flex bison bc kmod libelf-dev"
done
mkdir -p "$dir" "$(dirname "$tap")"
dir=$(cd "$dir" && pwd)
: > "$tap"

# One run at a time per KCONFIGS_DIR.
exec 9>"$dir/.lock"
flock 9

# --- source: extracted once per tarball version, never built in ----------------
name=$(basename "$tarball" .tar.xz)
src=$dir/$name
stamp="$(stat -L -c '%s %Y' "$tarball") $tarball"
if [ -n "$names" ] && { [ ! -d "$src" ] || [ "$(cat "$dir/.extracted" 2>/dev/null)" != "$stamp" ]; }; then
	echo "config-check: extracting $tarball into $dir"
	rm -rf "$src" "$dir/.extracting" "$dir/.extracted"
	mkdir "$dir/.extracting"
	tar -C "$dir/.extracting" -xf "$tarball" || die "cannot extract $tarball"
	mv "$dir/.extracting/$name" "$src" || die "$tarball has no top directory $name"
	rmdir "$dir/.extracting"
	echo "$stamp" > "$dir/.extracted"
fi

kmake() { nice -n "${KERNEL_NICE:-19}" make -C "$src" ARCH=x86_64 "$@"; }

# wanted BASE VARIANT: the lines both ask for, the variant's winning
wanted() {
	local vsyms
	vsyms=$(grep -oE '^(# )?CONFIG_[A-Z0-9_]+' "$2" | sed 's/^# //')
	grep -E '^(# )?CONFIG_' "$1" | while IFS= read -r line; do
		sym=$(echo "$line" | grep -oE 'CONFIG_[A-Z0-9_]+')
		echo "$vsyms" | grep -qxF "$sym" || echo "$line"
	done
	grep -E '^(# )?CONFIG_' "$2"
}

# config NAME OUT: OUT/.config from tinyconfig, base and NAME's fragment,
# every wanted line checked; 0 or 1 (the reason on stderr)
config() {
	local cname=$1 out=$2 new recipe missing
	recipe="$(gcc --version | head -1) $stamp $(cat "$frags/base.config" "$frags/$cname.config" | sha256sum | cut -d' ' -f1)"
	if [ -s "$out/.config" ] && [ "$(cat "$out/.config-recipe" 2>/dev/null)" = "$recipe" ]; then
		return 0
	fi
	new=$out/.config.new
	rm -f "$new" "$new.old"
	{
		KCONFIG_CONFIG=$new kmake O="$out" tinyconfig &&
			(cd "$src" && KCONFIG_CONFIG=$new scripts/kconfig/merge_config.sh -m "$new" \
				"$frags/base.config" "$frags/$cname.config") &&
			KCONFIG_CONFIG=$new kmake O="$out" olddefconfig
	} > "$out/config.log" 2>&1 || { echo "config generation failed, see $out/config.log" >&2; return 1; }
	missing=$(config_missing "$cname" "$new" \
		< <(wanted "$frags/base.config" "$frags/$cname.config"))
	[ "$missing" -eq 0 ] || { echo "$missing option(s) did not survive olddefconfig: fix scripts/kconfigs/" >&2; return 1; }
	cmp -s "$new" "$out/.config" || mv "$new" "$out/.config"
	rm -f "$new" "$new.old"
	echo "$recipe" > "$out/.config-recipe"
}

for cname in $names; do
	[ -r "$frags/$cname.config" ] || die "no scripts/kconfigs/$cname.config"
	out=$dir/$cname/kernel
	mods=$dir/$cname/modules
	log=$dir/$cname/module.log
	mkdir -p "$out"
	t0=$(date +%s)
	if ! why=$(config "$cname" "$out" 2>&1); then
		echo "not ok - config_${cname}_links # $why" >> "$tap"
		echo "not ok - config_${cname}_says_lacks # no kernel" >> "$tap"
		continue
	fi
	# vmlinux and modpost over it (the configuration has no modules):
	# Module.symvers, what a module may link against
	if ! kmake O="$out" -j"$jobs" vmlinux modules > "$dir/$cname/kernel.log" 2>&1 ||
		[ ! -r "$out/Module.symvers" ]; then
		echo "not ok - config_${cname}_links # kernel build failed: $(grep -m1 -E 'error|Error' "$dir/$cname/kernel.log"), see $dir/$cname/kernel.log" >> "$tap"
		echo "not ok - config_${cname}_says_lacks # no kernel" >> "$tap"
		continue
	fi
	t1=$(date +%s)
	echo "config-check: $cname: kernel $((t1 - t0)) s" >&2
	[ "${KCONFIG_KERNELS_ONLY:-}" = 1 ] && continue
	"$top/scripts/copy-changed.sh" "$mods" "$@"
	find "$mods/module" -name '*.o' -type f -delete
	rm -f "$mods/module/ptwalk.ko"
	# W=1 and -Werror: a function only one configuration leaves unused
	# warns there alone
	if kmake -C "$out" M="$mods" W=1 KCFLAGS=-Werror modules > "$log" 2>&1 &&
		[ -r "$mods/module/ptwalk.ko" ]; then
		warnings=$(grep -E 'warning:|error:' "$log" | grep -v 'Skipping BTF' || true)
		if [ -z "$warnings" ]; then
			echo "ok - config_${cname}_links # kernel $((t1 - t0)) s" >> "$tap"
		else
			echo "not ok - config_${cname}_links # $(echo "$warnings" | head -1)" >> "$tap"
		fi
		# one word per option, in any order
		want=$(sed -n 's/^# lacks: *//p' "$frags/$cname.config" | tr ' ' '\n' | sort | xargs)
		got=$(modinfo -F lacks "$mods/module/ptwalk.ko" | sort | xargs)
		if [ "$got" = "$want" ]; then
			echo "ok - config_${cname}_says_lacks # $got" >> "$tap"
		else
			echo "not ok - config_${cname}_says_lacks # modinfo lacks '$got', want '$want'" >> "$tap"
		fi
	else
		echo "not ok - config_${cname}_links # $(grep -m1 -E 'error|ERROR|No rule|No such' "$log"), see $log" >> "$tap"
		echo "not ok - config_${cname}_says_lacks # no module" >> "$tap"
	fi
done

[ "${KCONFIG_KERNELS_ONLY:-}" = 1 ] && exit 0

# A kernel that says it is older than its interfaces, as a vendor kernel
# with backports does (RHEL 9's "5.14" carries 6.5's page-table changes):
# 6.12's headers (build/kernels/6.12, scripts/kernel-fetch.sh) with a
# version.h that says 5.14.0.  The module must build there W=1 clean and
# choose by the interfaces it finds (module/conftest/), not by the version.
bp=$dir/backport-5.14
if [ -r "$top/build/kernels/6.12/kernel.env" ] ||
	"$top/scripts/kernel-fetch.sh" 6.12 > "$dir/fetch-6.12.log" 2>&1; then
	# shellcheck source=/dev/null
	. "$top/build/kernels/6.12/kernel.env"
	rm -rf "$bp/headers"
	mkdir -p "$bp"
	cp -rs "$KDIR" "$bp/headers"
	v=$bp/headers/include/generated/uapi/linux/version.h
	rm -f "$v"
	sed -e 's/^#define LINUX_VERSION_CODE .*/#define LINUX_VERSION_CODE 331264/' \
		-e 's/^#define LINUX_VERSION_PATCHLEVEL .*/#define LINUX_VERSION_PATCHLEVEL 14/' \
		-e 's/^#define LINUX_VERSION_SUBLEVEL .*/#define LINUX_VERSION_SUBLEVEL 0/' \
		-e 's/^#define LINUX_VERSION_MAJOR .*/#define LINUX_VERSION_MAJOR 5/' "$KDIR/include/generated/uapi/linux/version.h" > "$v"
	"$top/scripts/copy-changed.sh" "$bp/modules" "$@"
	find "$bp/modules/module" -name '*.o' -type f -delete
	rm -f "$bp/modules/module/ptwalk.ko"
	log=$bp/module.log
	if nice -n "${KERNEL_NICE:-19}" make -C "$bp/headers" ${KCC:+CC=$KCC} M="$bp/modules" W=1 KCFLAGS=-Werror modules > "$log" 2>&1 &&
		[ -r "$bp/modules/module/ptwalk.ko" ]; then
		warnings=$(grep -E 'warning:|error:' "$log" | grep -v 'Skipping BTF' || true)
		# what 6.12 has, whatever the version says
		have=$(grep -o 'PTWALK_HAVE_[A-Z0-9_]*' "$bp/modules/module/.main.o.cmd" | sort -u | tr '\n' ' ')
		missing=""
		for h in PMDP_GET_LOCKLESS HUGE_PTEP_GET_MM FOLIO_MAYBE_DMA_PINNED PTE_MARKER_ENTRY SWP_OFFSET_PFN; do
			case " $have" in *" PTWALK_HAVE_$h "*) ;; *) missing="$missing $h" ;; esac
		done
		if [ -n "$warnings" ]; then
			echo "not ok - backport_5.14_builds # $(echo "$warnings" | head -1)" >> "$tap"
		elif [ -n "$missing" ]; then
			echo "not ok - backport_5.14_builds # feature tests missed:$missing" >> "$tap"
		else
			echo "ok - backport_5.14_builds # 6.12 as 5.14: $have" >> "$tap"
		fi
	else
		echo "not ok - backport_5.14_builds # $(grep -m1 -E 'error|ERROR|No rule|No such' "$log"), see $log" >> "$tap"
	fi
else
	echo "not ok - backport_5.14_builds # cannot fetch 6.12: see $dir/fetch-6.12.log" >> "$tap"
fi

ko=${PTWALK_KO:-$top/module/ptwalk.ko}
if [ -r "$ko" ]; then
	got=$(modinfo -F lacks "$ko")
	if [ -z "$got" ]; then
		echo "ok - config_full_lacks_nothing" >> "$tap"
	else
		echo "not ok - config_full_lacks_nothing # $ko lacks '$got'" >> "$tap"
	fi
else
	echo "not ok - config_full_lacks_nothing # no $ko: make module first" >> "$tap"
fi
cat "$tap"
