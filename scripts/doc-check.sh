#!/bin/bash
# The documentation against the tree, one TAP line per document (README.md,
# docs/*.md, man/*.1), so that docs cannot drift from the code they cite:
# - a tree path (module/..., user/..., tests/..., scripts/..., docs/...,
#   man/..., completion/..., .ci/..., Makefile, Kbuild, dkms.conf,
#   README.md) exists: tracked by git, a directory of tracked files, a glob
#   matching some, or a build product (a target of the Makefile in its
#   directory, a .ko whose .o a Kbuild names);
# - a `function()` exists in the tree or, for the kernel's and libc's, in
#   the kernel headers ($KDIR) or /usr/include; a function cited after a
#   file on the same line (`user/classify.c` `classify_page()`) appears in
#   that file;
# - an upper-case identifier in backticks (`COMPARE_MAX_REREADS`,
#   `PTWALK_F_*`, `VM_ONLY=`) is in the tree or those headers;
# - a `make TARGET` is a target of the Makefile (sub-makes with -C aside);
# - a relative link and its #anchor resolve.
# usage: [KDIR=...] scripts/doc-check.sh [FILE...]   (default: every doc)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptwalk-doccheck.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

[ $# -gt 0 ] || set -- README.md docs/*.md man/*.1

# --- what the tree holds ----------------------------------------------------

git ls-files > "$tmp/tracked"
# directories of tracked files
sed -n 's|/[^/]*$||p' "$tmp/tracked" | awk -F/ '{ p = $1; print p
	for (i = 2; i <= NF; i++) { p = p "/" $i; print p } }' | sort -u > "$tmp/dirs"
# every word of the tree's code, scripts and build files
git ls-files -z -- '*.c' '*.h' '*.sh' '*.config' Makefile '*/Makefile' Kbuild \
	'*/Kbuild' dkms.conf completion .ci |
	xargs -0 cat | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u > "$tmp/words"
# (and those a rule made by $(eval ...) makes: the Makefile says them .PHONY)
sed -n -e 's/^\.PHONY:\(.*\)/\1/p' \
	-e 's/^\([A-Za-z0-9_.-][A-Za-z0-9_. -]*\):\([^=]\|$\).*/\1/p' Makefile |
	tr ' ' '\n' | sed '/^$/d' | sort -u > "$tmp/targets"

# --- what each document cites ------------------------------------------------

# One line per mention: NR TAB KIND TAB NAME [TAB FILE]; KIND is make, path,
# func, ident, prefix or link.
extract_md() {
	awk -v OFS='\t' '
	function spans(line, out,   n, s) {
		n = 0
		while (match(line, /`[^`]+`/)) {
			out[++n] = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
		}
		return n
	}
	function makes(cmd,   n, w, i, sub_make) {
		if (cmd !~ /(^|[ \t;$])make([ \t]|$)/)
			return
		sub(/.*(^|[ \t;$])make([ \t]|$)/, "", cmd)
		n = split(cmd, w, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (w[i] == "-C" || w[i] == "-f")
				return
		for (i = 1; i <= n; i++) {
			if (w[i] == "" || w[i] ~ /^-/ || w[i] ~ /=/)
				continue
			if (w[i] !~ /^[a-z][a-z0-9_-]*$/)
				return
			print NR, "make", w[i]
		}
	}
	function paths(line,   p) {
		line = " " line
		while (match(line, /[][ `("|,;](\.ci|module|user|tests|scripts|docs|man|completion)\/[A-Za-z0-9_.*\/-]*/)) {
			p = substr(line, RSTART + 1, RLENGTH - 1)
			sub(/[.,:;]+$/, "", p)
			print NR, "path", p
			line = substr(line, RSTART + RLENGTH)
		}
		while (match(line, /[ `(](Makefile|Kbuild|dkms\.conf|README\.md)([ `),.:;]|$)/)) {
			p = substr(line, RSTART + 1, RLENGTH - 1)
			sub(/[ `),.:;]$/, "", p)
			print NR, "path", p
			line = substr(line, RSTART + RLENGTH)
		}
	}
	/^```/ { code = !code; next }
	{
		paths($0)
		if (code) { makes($0); next }
		n = spans($0, sp)
		file = ""
		for (i = 1; i <= n; i++) {
			makes(sp[i])
			m = split(sp[i], w, /[ \t]+/)
			for (j = 1; j <= m; j++) {
				x = w[j]
				sub(/[,;:.]$/, "", x)
				if (x ~ /^(module|user|tests|scripts)\/.*\.(c|h|sh)$/)
					file = x
				else if (x ~ /^[A-Za-z_][A-Za-z0-9_]*\(\)$/)
					print NR, "func", substr(x, 1, length(x) - 2), file
				else if (x ~ /^[A-Z][A-Z0-9]*_[A-Z0-9_]*\*$/)
					print NR, "prefix", substr(x, 1, length(x) - 1)
				else if (x ~ /^[A-Z][A-Z0-9]*_[A-Z0-9_]*(=.*)?$/) {
					sub(/=.*/, "", x)
					print NR, "ident", x
				}
			}
		}
		line = $0
		while (match(line, /\]\([^) ]+\)/)) {
			print NR, "link", substr(line, RSTART + 2, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1"
}

extract_man() {
	awk -v OFS='\t' '
	/^\.\\"/ { next }
	{
		line = " " $0
		gsub(/\\-/, "-", line)
		while (match(line, /[ (](module|user|tests|scripts|docs|man|completion)\/[A-Za-z0-9_.\/-]*|[ (]README\.md/)) {
			p = substr(line, RSTART + 1, RLENGTH - 1)
			sub(/[.,)]+$/, "", p)
			print NR, "path", p
			line = substr(line, RSTART + RLENGTH)
		}
		if (match($0, /(^|[ \t])make[ \t]+[a-z][a-z0-9_-]*/)) {
			t = substr($0, RSTART, RLENGTH)
			sub(/.*make[ \t]+/, "", t)
			print NR, "make", t
		}
	}' "$1"
}

for doc in "$@"; do
	[ -r "$doc" ] || continue
	case $doc in
	*.md) extract_md "$doc" ;;
	*) extract_man "$doc" ;;
	esac | sed "s|^|$doc\t|"
done > "$tmp/mentions"

# Names the tree lacks are looked for in the headers, in one pass.
kdir=${KDIR:-$(scripts/find-kdir.sh 2>/dev/null)}
hdirs=()
if [ -n "$kdir" ] && [ -d "$kdir/include" ]; then
	hdirs+=("$kdir/include" "$kdir/arch/x86/include")
	# Debian splits its headers: the arch package's Makefile includes the
	# common package's.
	common=$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$kdir/Makefile" 2>/dev/null)
	[ -n "$common" ] && hdirs+=("$common/include" "$common/arch/x86/include")
fi
[ -d /usr/include ] && hdirs+=(/usr/include)
awk -F'\t' '$3 == "func" || $3 == "ident" { print $4 }' "$tmp/mentions" | sort -u |
	comm -23 - "$tmp/words" > "$tmp/missing"
: > "$tmp/inheaders"
if [ -s "$tmp/missing" ] && [ ${#hdirs[@]} -gt 0 ]; then
	grep -rhowF --include='*.h' -f "$tmp/missing" "${hdirs[@]}" 2>/dev/null |
		sort -u > "$tmp/inheaders"
fi
sort -u "$tmp/words" "$tmp/inheaders" > "$tmp/known"

# --- verdicts ------------------------------------------------------------------

declare -A tracked dirs targets known
while IFS= read -r x; do tracked[$x]=1; done < "$tmp/tracked"
while IFS= read -r x; do dirs[$x]=1; done < "$tmp/dirs"
while IFS= read -r x; do targets[$x]=1; done < "$tmp/targets"
while IFS= read -r x; do known[$x]=1; done < "$tmp/known"

# path_ok PATH: 0 when PATH names something of the tree.
path_ok() {
	local p=${1%/} dir base
	[ -n "$p" ] || return 1
	case $p in *'*'*) compgen -G "$p" > /dev/null; return ;; esac
	[ -n "${tracked[$p]:-}" ] || [ -n "${dirs[$p]:-}" ] && return 0
	dir=$(dirname "$p") base=$(basename "$p")
	[ -f "$dir/Makefile" ] && grep -q "^$base:" "$dir/Makefile" && return 0
	case $base in
	*.ko) grep -qw -- "${base%.ko}\.o" Kbuild "$dir/Kbuild" 2>/dev/null && return 0 ;;
	esac
	return 1
}

# slugs FILE: the GitHub anchors of FILE's headings, one a line.
slugs() {
	awk '/^```/ { code = !code } !code && /^#+ / {
		s = tolower($0); sub(/^#+ /, "", s)
		gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s); print s }' "$1"
}

declare -A bad
while IFS=$'\t' read -r doc nr kind name file; do
	why=""
	case $kind in
	path) path_ok "$name" || why="no path '$name'" ;;
	make) [ -n "${targets[$name]:-}" ] || why="no make target '$name'" ;;
	func)
		if [ -n "$file" ]; then
			grep -qE "(^|[^A-Za-z0-9_])$name\(" "$file" 2>/dev/null ||
				why="$name() not in $file"
		elif [ -z "${known[$name]:-}" ]; then
			why="no function $name()"
		fi ;;
	ident) [ -n "${known[$name]:-}" ] || why="no identifier $name" ;;
	prefix) grep -q "^$name" "$tmp/words" || why="nothing named $name*" ;;
	link)
		target=${name%%#*} anchor=""
		[[ $name == *'#'* ]] && anchor=${name#*#}
		case $target in http:*|https:*|mailto:*) continue ;; esac
		f=$doc
		[ -n "$target" ] && f=$(dirname "$doc")/$target
		if [ ! -e "$f" ]; then
			why="broken link '$target'"
		elif [ -n "$anchor" ] && [[ $f == *.md ]] &&
			! slugs "$f" | grep -qxF -- "$anchor"; then
			why="no heading #$anchor in ${f#./}"
		fi ;;
	esac
	[ -n "$why" ] && bad[$doc]="${bad[$doc]:-} line $nr: $why;"
done < "$tmp/mentions"

for doc in "$@"; do
	name=doc_refs_$(tr '/.' '__' <<< "$doc")
	if [ ! -r "$doc" ]; then
		echo "not ok - $name # $doc is missing"
	elif [ -n "${bad[$doc]:-}" ]; then
		echo "not ok - $name # $doc:${bad[$doc]}"
	else
		echo "ok - $name"
	fi
done
