#!/bin/sh
# Prints the Debian mirror this machine's apt uses, so that no script of
# the tree names one: the first enabled "deb" URI of a Debian suite
# (KIND debian: bookworm, bookworm-updates, sid, stable, ...) or of a
# security suite (KIND security: bookworm-security, or the old
# "buster/updates"), read as apt reads them: sources.list, then
# sources.list.d/*.list (one-line format) and *.sources (deb822) in name
# order; files of other names (*.disabled, ...) and "Enabled: no" stanzas
# are not read.  A trailing slash is dropped.
# Fails, with one line on stderr, when the sources name no such URI.
#
# usage: scripts/apt-mirror.sh debian|security
# Env: APT_ETC (default /etc/apt): the directory to read (the tests give
# their own).  The fetch scripts run this only when their own override
# (DEBIAN_MIRROR, DEB_MIRROR, ...) is unset.
set -u
kind=${1:-}
case $kind in
debian | security) ;;
*) echo "usage: $0 debian|security" >&2; exit 2 ;;
esac
etc=${APT_ETC:-/etc/apt}

# Each source as "URI SUITE...", one a line, in apt's order.
sources() {
	[ -f "$etc/sources.list" ] && oneline "$etc/sources.list"
	for f in "$etc"/sources.list.d/*; do
		case $f in
		*.list) [ -f "$f" ] && oneline "$f" ;;
		*.sources) [ -f "$f" ] && deb822 "$f" ;;
		esac
	done
	return 0
}
# deb [options] URI SUITE COMPONENT...: options in brackets dropped.
oneline() {
	sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$1" |
		awk '$1 == "deb" && NF >= 3 { print $2, $3 }'
}
# Stanzas of Types:, URIs:, Suites:, Enabled:, separated by blank lines,
# a field continued on indented lines; the first URI of each enabled
# stanza of Type deb.
deb822() {
	sed -e '/^[[:space:]]*#/d' -e 's/#.*//' "$1" | awk '
		function flush() {
			if (deb && uri != "" && suites != "" && tolower(enabled) !~ /^(no|false|0)$/)
				print uri, suites
			deb = 0; uri = ""; suites = ""; enabled = ""
		}
		/^[ \t]*$/ { flush(); next }
		/^[ \t]/ {	# a continuation of the field before
			if (key == "uris:" && uri == "") uri = $1
			else if (key == "suites:") suites = suites " " $0
			else if (key == "types:") deb = deb || (" " $0 " ") ~ /[ \t]deb[ \t]/
			next
		}
		{
			key = tolower($1); $1 = ""; sub(/^[ \t]+/, "")
			if (key == "types:") deb = (" " $0 " ") ~ / deb /
			else if (key == "uris:") uri = $1
			else if (key == "suites:") suites = $0
			else if (key == "enabled:") enabled = $1
		}
		END { flush() }'
}

uri=$(sources | awk -v kind="$kind" '
	$1 ~ /^cdrom:/ { next }
	{
		for (i = 2; i <= NF; i++) {
			s = $i
			sec = s ~ /-security$/ || s ~ /\/updates$/
			base = s; sub(/-(updates|backports|backports-sloppy|proposed-updates)$/, "", base)
			deb = !sec && base ~ /^(jessie|stretch|buster|bullseye|bookworm|trixie|forky|duke|sid|experimental|rc-buggy|oldoldstable|oldstable|stable|testing|unstable)$/
			if ((kind == "security" && sec) || (kind == "debian" && deb)) {
				u = $1; sub(/\/+$/, "", u); print u; exit
			}
		}
	}')
if [ -z "$uri" ]; then
	echo "apt-mirror: no $kind 'deb' source in $etc/sources.list or $etc/sources.list.d/*.list|*.sources: add one, or set the script's mirror variable" >&2
	exit 1
fi
echo "$uri"
