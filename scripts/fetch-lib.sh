# shellcheck shell=bash
# shellcheck disable=SC2034 # top, build, mirror, apt_opts: for the sourcing script
# What the bash fetch scripts (kernel-fetch.sh, riscv64-fetch.sh,
# riscv64-qemu-fetch.sh) share; sourced, after `set -euo pipefail`.
#
# fetch_init NAME: die() prefixed with NAME; top (the tree), build
# (PTWALK_BUILD, default <tree>/build), mirror (DEBIAN_MIRROR, default the
# one this machine's apt sources name, scripts/apt-mirror.sh) and keyring.
fetch_init() {
	fetch_name=$1
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	build=${PTWALK_BUILD:-$top/build}
	mirror=${DEBIAN_MIRROR:-$("$top/scripts/apt-mirror.sh" debian)} || exit 1
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
}
die() { echo "$fetch_name: $*" >&2; exit 1; }

# fetch_out DEFAULT [DIR]: DIR (or DEFAULT), made and absolute.
fetch_out() {
	local dir=${2:-$1}

	mkdir -p "$dir" && (cd "$dir" && pwd)
}

# private_apt DIR "URI SUITE"...: apt_opts, the options that run apt-get
# and apt-cache on their own sources (each URI SUITE's main, signed by
# Debian's keyring), lists, cache and (empty) dpkg status under DIR, for
# amd64; the machine's apt state is neither read nor changed.
private_apt() {
	local dir=$1 s
	shift
	[ -r "$keyring" ] || die "no $keyring: apt-get install debian-archive-keyring"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/prefs.d"
	: > "$dir/status"
	for s in "$@"; do
		echo "deb [signed-by=$keyring] $s main"
	done > "$dir/sources.list"
	apt_opts=(-q -o "Dir::Etc::SourceList=$dir/sources.list"
		-o Dir::Etc::SourceParts=/dev/null -o Dir::Etc::Preferences=/dev/null
		-o "Dir::Etc::PreferencesParts=$dir/prefs.d"
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o "Dir::State::Status=$dir/status"
		-o APT::Architecture=amd64 -o APT::Architectures::=amd64
		-o Acquire::Languages=none -o Acquire::Check-Valid-Until=false
		-o APT::Sandbox::User=root)
}
