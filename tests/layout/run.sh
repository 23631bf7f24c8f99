#!/bin/sh
# make check-layout: the shape of the source, as TAP in OUT/layout.tap.
#   - tests/layout/layers.sh on user/: the layers and their one direction;
#   - the same check on small planted trees, so that it is known to fail
#     on each kind of break it is there to catch, and to pass a clean tree;
#   - tests/layout/class-docs.sh: the man page and the docs word the
#     classes as user/model/page_class.c does; and that check, too, on a
#     man page with one word changed;
#   - tests/layout/page-size.sh: no constant 4 KiB page in user/, and
#     that check on a copy with one put back;
#   - tests/layout/apt-mirror.sh: scripts/apt-mirror.sh on sample apt
#     sources, and no script naming a Debian mirror.
# usage: tests/layout/run.sh OUT CLASS_TABLE
set -u
out=${1:?usage: run.sh OUT CLASS_TABLE}
table=${2:?usage: run.sh OUT CLASS_TABLE}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tap=$out/layout.tap
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
: > "$tap"

"$here/layers.sh" "$top/user" >> "$tap"

# A planted tree: $1 the file (under user/), $2 its include line.
plant() {
	rm -rf "$tmp/user"
	for d in model parse engine report io cmd; do
		mkdir -p "$tmp/user/$d"
		printf '#include <stdint.h>\n#include "model/page.h"\n' > "$tmp/user/$d/ok_$d.c"
	done
	if [ -n "$1" ]; then
		mkdir -p "$(dirname "$tmp/user/$1")"
		printf '%s\n' "$2" > "$tmp/user/$1"
	fi
	"$here/layers.sh" "$tmp/user" > "$tmp/result" 2>&1
}

# $1 what the planted break is; the rest: plant's arguments.
must_fail() {
	what=$1
	shift
	if plant "$@"; then
		echo "not ok - layers self-test: $what passed the check"
	elif ! grep -q '^not ok' "$tmp/result"; then
		echo "not ok - layers self-test: $what failed without saying which rule"
	else
		echo "ok - layers self-test: $what is caught"
	fi >> "$tap"
}

if plant "" ""; then
	echo "ok - layers self-test: a clean tree passes" >> "$tap"
else
	echo "not ok - layers self-test: a clean tree fails" >> "$tap"
	sed 's/^/#   /' "$tmp/result" >> "$tap"
fi
must_fail "engine/ including io/" engine/bad.c '#include "io/ptwalk_client.h"'
must_fail "model/ including engine/" model/bad.h '#include "engine/compare.h"'
must_fail "report/ including io/ (siblings)" report/bad.c '#include "io/spool.h"'
must_fail "io/ including report/ (siblings)" io/bad.c '#include "report/report.h"'
must_fail "a header named without its folder" parse/bad.c '#include "maps.h"'
must_fail "a path out of user/" engine/bad.c '#include "../io/source.h"'
must_fail "<unistd.h> in engine/" engine/bad.c '#include <unistd.h>'
must_fail "a source outside the layer folders" bad.c '#include "model/page.h"'
must_fail "two sources of one name" io/ok_engine.c '#include "model/page.h"'

# A circle of includes, named as a circle: $1 what, $2 the folder beside
# user/ where its two files go ("user/engine" or "module"), $3 and $4 how
# each names the other's header.
circle_caught() {
	plant "" ""
	rm -rf "$tmp/module"
	mkdir -p "$tmp/$2"
	printf '#include "%s"\n' "$3" > "$tmp/$2/a.c"
	printf '#include "%s"\n' "$4" > "$tmp/$2/b.c"
	"$here/layers.sh" "$tmp/user" > "$tmp/result" 2>&1
	status=$?
	rm -rf "$tmp/module"
	if [ $status -eq 0 ]; then
		echo "not ok - layers self-test: $1 passed the check"
	elif ! grep -q '^not ok - layers: no circle' "$tmp/result" ||
	     ! grep -q 'a -> .*b -> .*a' "$tmp/result"; then
		echo "not ok - layers self-test: $1 failed without naming the circle"
	else
		echo "ok - layers self-test: $1 is caught"
	fi >> "$tap"
}
circle_caught "a circle in engine/" user/engine engine/b.h engine/a.h
circle_caught "a circle in module/" module b.h a.h

# A static function of module/ named like one of user/ is no arrow: only
# include lines count.
plant "" ""
mkdir -p "$tmp/module"
printf 'static int session_open(void) { return 0; }\n' > "$tmp/module/session_fops.c"
printf 'int session_open(void);\n' > "$tmp/user/io/session.h"
if "$here/layers.sh" "$tmp/user" > "$tmp/result" 2>&1; then
	echo "ok - layers self-test: a namesake in module/ is no arrow"
else
	echo "not ok - layers self-test: a namesake in module/ failed the check"
	sed 's/^/#   /' "$tmp/result"
fi >> "$tap"
rm -rf "$tmp/module"

man=$top/man/ptcompare.1
set -- "$top/README.md"
for md in "$top"/docs/*.md; do
	[ -f "$md" ] && set -- "$@" "$md"
done
"$here/class-docs.sh" "$table" "$man" "$@" | sed "s|$top/||g" >> "$tap"

# The wording check must notice one word changed in one class.
sed '/^\.B transient$/,/^\.TP$/s/differed/diverged/' "$man" > "$tmp/changed.1"
if cmp -s "$man" "$tmp/changed.1"; then
	echo "not ok - class docs self-test: could not change the man page's transient entry" >> "$tap"
elif "$here/class-docs.sh" "$table" "$tmp/changed.1" > /dev/null; then
	echo "not ok - class docs self-test: a changed word in the man page passed" >> "$tap"
else
	echo "ok - class docs self-test: a changed word in the man page is caught" >> "$tap"
fi

"$here/page-size.sh" "$top/user" >> "$tap"

# The page-size check on a copy of user/ with one 4K constant put back:
# page_size_caught WHAT LINE (LINE appended to engine/dma.c).
page_size_caught() {
	rm -rf "$tmp/user"
	cp -r "$top/user" "$tmp/user"
	printf '%s\n' "$2" >> "$tmp/user/engine/dma.c"
	if "$here/page-size.sh" "$tmp/user" > /dev/null; then
		echo "not ok - page size self-test: $1 in engine/dma.c passed" >> "$tap"
	else
		echo "ok - page size self-test: $1 in engine/dma.c is caught" >> "$tap"
	fi
}
page_size_caught "a shift by 12" 'static unsigned long pages(unsigned long b) { return b >> 12; }'
# ... and a size, where only a count of pages may be 4096
page_size_caught "#define DMA_UNIT_BYTES 4096" "$(printf '#define DMA_UNIT_BYTES\t4096')"

"$here/apt-mirror.sh" >> "$tap"

cat "$tap"
! grep -q '^not ok' "$tap"
