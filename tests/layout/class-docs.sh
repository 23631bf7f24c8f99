#!/bin/sh
# The words for the classes come from one table, user/model/page_class.c:
# the CLASSES section of the man page must say, class by class and in
# order, what its .doc field says, and so must any Markdown table of the
# classes in the docs (a row "| `NAME` | MEANING | ..."), wherever it is.
# Roff and Markdown markup are taken off before comparing; the words, their
# order and the punctuation must be the same.
#
# usage: tests/layout/class-docs.sh CLASS_TABLE MANPAGE [MARKDOWN...]
#   CLASS_TABLE: the program built from tests/layout/class_table.c
# Prints TAP, one line per document; exits 1 on any difference.
set -u
table=${1:?usage: class-docs.sh CLASS_TABLE MANPAGE [MARKDOWN...]}
man=${2:?usage: class-docs.sh CLASS_TABLE MANPAGE [MARKDOWN...]}
shift 2
status=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

if ! "$table" > "$tmp/want"; then
	echo "not ok - class docs: $table could not print the class table"
	exit 1
fi
names=$(cut -f1 "$tmp/want")

# ok/not ok for one document: $1 its name, $2 what it says (NAME<tab>TEXT).
compare() {
	if diff -u "$tmp/want" "$2" > "$tmp/diff"; then
		echo "ok - class docs: $1 words the classes as model/page_class.c does"
	else
		echo "not ok - class docs: $1 words the classes otherwise than model/page_class.c"
		sed 's/^/#   /' "$tmp/diff"
		status=1
	fi
}

# The .TP entries of the man page's CLASSES section, markup taken off:
# ".B x y" and ".I x y" are their words, ".BR a b" and the like their
# arguments run together, escapes the characters they stand for.
awk '
function text(line,    n, i, a, out) {
	if (line !~ /^\./)
		return line
	n = split(substr(line, 2), a, /[ \t]+/)
	if (a[1] == "B" || a[1] == "I") {
		for (i = 2; i <= n; i++)
			out = out (i > 2 ? " " : "") a[i]
	} else if (a[1] ~ /^(BR|RB|IR|RI|BI|IB)$/) {
		for (i = 2; i <= n; i++)
			out = out a[i]
	}
	gsub(/"/, "", out)
	return out
}
function flush() {
	if (name != "") {
		gsub(/\\\(aq/, "\047", body)
		gsub(/\\\(dq/, "\"", body)
		gsub(/\\-/, "-", body)
		gsub(/\\&/, "", body)
		gsub(/\\e/, "\\", body)
		print name "\t" body
	}
	name = ""
	body = ""
}
/^\.SH/ { if (in_classes) flush(); in_classes = ($0 ~ /^\.SH +"?CLASSES"?$/); next }
!in_classes { next }
/^\.TP/ { flush(); want_name = 1; next }
want_name { name = text($0); want_name = 0; next }
name != "" { t = text($0); if (t != "") body = body (body == "" ? "" : " ") t }
END { flush() }
' "$man" > "$tmp/man"
if [ ! -s "$tmp/man" ]; then
	echo "not ok - class docs: $man has no CLASSES section with .TP entries"
	status=1
else
	compare "$man" "$tmp/man"
fi

# Markdown tables of the classes, if a document has one.
for md in "$@"; do
	[ -f "$md" ] || continue
	: > "$tmp/md"
	for n in $names; do
		grep "^| \`$n\` |" "$md" | head -1 |
			awk -F' \\| ' -v n="$n" '{ m = $2; gsub(/`|\*\*/, "", m); print n "\t" m }' >> "$tmp/md"
	done
	[ -s "$tmp/md" ] || continue	# no class table there
	compare "$md" "$tmp/md"
done
exit $status
