#!/bin/sh
# scripts/apt-mirror.sh on sample apt configurations (one-line
# sources.list, *.list and deb822 *.sources, disabled files and stanzas,
# foreign repositories, none at all), and no script of the tree naming a
# Debian mirror itself.  TAP lines on stdout.
# usage: tests/layout/apt-mirror.sh
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
helper=$top/scripts/apt-mirror.sh
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# etc NAME: a fresh sample /etc/apt under $tmp/NAME; files written after.
etc() { rm -rf "${tmp:?}/$1"; mkdir -p "$tmp/$1/sources.list.d"; dir=$tmp/$1; }
# expect NAME KIND ANSWER: the helper's answer for KIND on $tmp/NAME
# (ANSWER "fail": exit 1 with one line on stderr).
expect() {
	got=$(APT_ETC=$tmp/$1 "$helper" "$2" 2> "$tmp/err")
	rc=$?
	if [ "$3" = fail ]; then
		if [ $rc -eq 1 ] && [ -z "$got" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then
			echo "ok - apt-mirror: $1: no $2 mirror fails with one line"
		else
			echo "not ok - apt-mirror: $1: $2 gave '$got', exit $rc, stderr '$(tr '\n' ' ' < "$tmp/err")'"
		fi
	elif [ $rc -eq 0 ] && [ "$got" = "$3" ]; then
		echo "ok - apt-mirror: $1: $2 is $3"
	else
		echo "not ok - apt-mirror: $1: $2 gave '$got' (exit $rc), expected '$3'"
	fi
}

# One-line sources.list: a foreign repository first, options in brackets,
# a comment, a deb-src line, a trailing slash.
etc oneline
cat > "$dir/sources.list" <<'S'
# deb http://commented.example/debian bookworm main
deb https://packages.example.com/apt cloud-sdk-bookworm main
deb-src http://src.example/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example/debian/ bookworm main contrib
deb http://mirror.example/debian bookworm-updates main
deb http://security.example/debian-security bookworm-security main
S
expect oneline debian http://mirror.example/debian
expect oneline security http://security.example/debian-security

# Old-style security suite (buster/updates) in a .list file; sources.list
# is read before sources.list.d.
etc oldsec
echo 'deb http://first.example/debian buster main' > "$dir/sources.list"
echo 'deb http://second.example/debian bullseye main' > "$dir/sources.list.d/a.list"
echo 'deb http://sec.example/debian-security buster/updates main' > "$dir/sources.list.d/b.list"
expect oldsec debian http://first.example/debian
expect oldsec security http://sec.example/debian-security

# deb822 as Debian 12 installs it, with comments inside the stanza; a
# disabled stanza and a disabled file before it; a foreign .sources.
etc deb822
cat > "$dir/sources.list.d/a-off.sources" <<'S'
Types: deb
URIs: http://off.example/debian
Suites: bookworm
Components: main
Enabled: no
S
cat > "$dir/sources.list.d/a-renamed.sources.disabled" <<'S'
Types: deb
URIs: http://renamed.example/debian
Suites: bookworm
Components: main
S
cat > "$dir/sources.list.d/b-node.sources" <<'S'
Types: deb
URIs: https://node.example/node_20.x
Suites: nodistro
Components: main
S
cat > "$dir/sources.list.d/debian.sources" <<'S'
Types: deb deb-src
# http://snapshot.example/archive/debian/20250520T000000Z
URIs: http://mirror822.example/debian http://other.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://srconly.example/debian-security
Suites: bookworm-security
Components: main

Types: deb
# http://snapshot.example/archive/debian-security/20250520T000000Z
URIs: http://sec822.example/debian-security
Suites: bookworm-security
Components: main
S
expect deb822 debian http://mirror822.example/debian
expect deb822 security http://sec822.example/debian-security

# Fields continued on indented lines; Enabled: false.
etc folded
cat > "$dir/sources.list.d/a.sources" <<'S'
Types: deb
URIs: http://disabled.example/debian
Suites: trixie
Enabled: false

Types: deb
URIs:
 http://folded.example/debian
 http://second.example/debian
Suites:
 trixie
 trixie-updates
S
expect folded debian http://folded.example/debian

# A machine with a Debian mirror and no security source; one with none.
etc nosec
echo 'deb http://only.example/debian sid main' > "$dir/sources.list"
expect nosec debian http://only.example/debian
expect nosec security fail
etc empty
echo 'deb https://packages.example.com/apt cloud-sdk-bookworm main' > "$dir/sources.list.d/cloud.list"
expect empty debian fail

# No script names a Debian mirror: they ask scripts/apt-mirror.sh.
named=$(cd "$top" && grep -rlE 'deb\.debian\.org|security\.debian\.org' scripts Makefile .ci 2> /dev/null | tr '\n' ' ')
if [ -z "$named" ]; then
	echo "ok - no script names a Debian mirror"
else
	echo "not ok - a Debian mirror named in: $named(take it from scripts/apt-mirror.sh)"
fi
