#!/bin/sh
# No constant kernel page size in user/: pagemap has an entry per kernel
# page (4K, 16K or 64K on arm64), and every size ptcompare uses comes from
# ptwalk.ko's geometry file (struct page_geom, user/model/page.h).  Caught:
# names of a 4K page (PAGE_SHIFT_4K, PAGE_SIZE_4K, PAGE_MASK_4K, PAGE_4K),
# 4096 or 0x1000 and shifts by 12 in code.  One place may say 4K: the
# geometry assumed of a module that predates the file, geom_assume_4k() in
# parse/geometry.c (such modules were built for 4K kernels only).
# Comments are not code: lines whose text starts with "*", "/*" or "//"
# are skipped, and so are buffer sizes named as such (path[4096],
# cap = 4096 for a growing buffer: not pages) and counts of pages defined
# as such (#define VERDICT_PAGES 4096: how many, not how big).
#
# usage: tests/layout/page-size.sh USERDIR
# Prints TAP, one line, the offending lines as diagnostics; exits 1 if any.
set -u
dir=${1:?usage: page-size.sh USERDIR}
cd "$dir" || exit 2
hits=$(grep -rnE 'PAGE_(SHIFT|SIZE|MASK)_4K|PAGE_4K|\b4096\b|\b0x1000\b|(<<|>>) *12\b' \
	--include='*.[ch]' . |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' |
	grep -vE '(path|buf|line|name)\[[0-9A-Z_ ]*\]|cap = 4096|_PATH_MAX' |
	grep -vE '^[^:]+:[0-9]+:#define [A-Z_]+_PAGES[[:space:]]+[0-9]+$' |
	grep -vE '^\./parse/geometry\.c:[0-9]+:.*g->leaf\[PTWALK_LEVEL_(PTE|PMD|PUD)\] = 1ULL << (12|21|30);|^\./parse/geometry\.c:[0-9]+:[[:space:]]*g->shift = 12;')
if [ -z "$hits" ]; then
	echo "ok - page size: no constant 4 KiB page in user/"
	exit 0
fi
echo "not ok - page size: a constant 4 KiB page in user/ (use struct page_geom)"
printf '%s\n' "$hits" | sed 's/^/#   /'
exit 1
