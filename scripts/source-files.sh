#!/bin/bash
# The tree's source files, NUL-separated paths relative to the top, for
# make deb and make dist.  In a git checkout (the tree is its top): the
# files git tracks and new ones it does not ignore, minus those deleted in
# the work tree.  In a plain tree (an unpacked release tarball): every
# file but .git/, build/ and what .gitignore names (build products).
# usage: scripts/source-files.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if [ "$(git rev-parse --show-toplevel 2> /dev/null)" = "$top" ]; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done
	exit 0
fi

# .gitignore's patterns, of the three kinds it uses: "dir/" (a directory
# of that name anywhere), "a/b" (that path), "glob" (a file name anywhere).
dirs=(.git build) paths=() names=()
while IFS= read -r p; do
	case $p in
	'' | '#'*) ;;
	*/) dirs+=("${p%/}") ;;
	*/*) paths+=("${p#/}") ;;
	*) names+=("$p") ;;
	esac
done < <(cat .gitignore 2> /dev/null)
ignored() { # PATH
	local p
	for p in "${paths[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $p ]] && return 0
	done
	for p in "${names[@]}"; do
		# shellcheck disable=SC2053
		[[ ${1##*/} == $p ]] && return 0
	done
	return 1
}
prune=()
for d in "${dirs[@]}"; do prune+=(-name "$d" -o); done
find . -mindepth 1 -type d \( "${prune[@]}" -false \) -prune -o \( -type f -o -type l \) -printf '%P\0' |
	sort -z |
	while IFS= read -r -d '' f; do ignored "$f" || printf '%s\0' "$f"; done
