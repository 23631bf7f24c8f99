#!/bin/sh
# The layers of user/ and the one direction of their dependencies, checked
# from the include lines (user/Makefile says what each layer holds):
#
#   model (0) < parse (1) < engine (2) < report (3), io (3) < cmd (4)
#
# A file includes headers of its own layer or of a lower one, naming the
# folder ("engine/compare.h"); report/ and io/ never include each other;
# and no file includes its way back to itself: over user/ and module/
# (beside USERDIR, when there is one), a .c and its .h are one unit, and
# the units' includes draw no circle.  Only include lines count, never
# names: a static function of module/ named like one of user/ is no
# arrow.
# the module's ABI headers ("module/...") may be included anywhere.  The
# pure layers (model, parse, engine, report) include no system header
# beyond the C library's and <sys/types.h>: whatever reads files, devices
# or the clock lives in io/ or cmd/.  Every source lives in a layer
# folder, and no two share a file name (libptcompare.a names its members
# by file name alone).
#
# usage: tests/layout/layers.sh USERDIR
# Prints TAP, one line per rule and layer, the offending lines as
# diagnostics; exits 1 if any rule is broken.
set -u
dir=${1:?usage: layers.sh USERDIR}
cd "$dir" || exit 2

# Every source of the tree, as a path below USERDIR.
files=$(find . -name '*.[ch]' -type f | sed 's|^\./||' | sort)
# module/'s, beside user/ in the tree (none beside a planted tree).
mods=$(find ../module -maxdepth 1 -name '*.[ch]' -type f 2>/dev/null |
	sed 's|^\.\./module/||' | sort)

# One awk pass over all of them prints every rule's verdict.
# shellcheck disable=SC2086
awk -v files="$files" -v mods="$mods" '
BEGIN {
	nl = split("model parse engine report io cmd", layers, " ")
	split("0 1 2 3 3 4", r, " ")
	for (i = 1; i <= nl; i++)
		rank[layers[i]] = r[i]
	pure["model"] = pure["parse"] = pure["engine"] = pure["report"] = 1
	split("assert.h ctype.h errno.h inttypes.h limits.h math.h stdarg.h " \
	      "stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h " \
	      "sys/types.h", c, " ")
	for (i in c)
		libc[c[i]] = 1
	n = split(files, f, "\n")
	for (i = 1; i <= n; i++) {
		path = f[i]
		layer = path
		sub(/\/.*/, "", layer)
		if (path !~ /\// || !(layer in rank)) {
			loose = loose "\n" path ": not in a layer folder"
			continue
		}
		base = path
		sub(/.*\//, "", base)
		if (base ~ /\.c$/) {
			if (base in seen)
				dup = dup "\n" base ": in " seen[base] " and " path
			seen[base] = path
		}
		lineno = 0
		while ((getline line < path) > 0) {
			lineno++
			if (line !~ /^[ \t]*#[ \t]*include/)
				continue
			where = path ":" lineno ": "
			if (match(line, /"[^"]*"/)) {
				inc = substr(line, RSTART + 1, RLENGTH - 2)
				edge(path, inc)
				if (inc ~ /^module\//)
					continue
				if (inc !~ /\//) {
					bad[layer] = bad[layer] "\n" where "\"" inc "\" does not name its folder"
					continue
				}
				top = inc
				sub(/\/.*/, "", top)
				if (!(top in rank))
					bad[layer] = bad[layer] "\n" where "\"" inc "\" names no layer folder"
				else if (top != layer && rank[top] >= rank[layer])
					bad[layer] = bad[layer] "\n" where "\"" inc "\": " layer "/ may include only" allowed(layer)
			} else if (match(line, /<[^>]*>/)) {
				inc = substr(line, RSTART + 1, RLENGTH - 2)
				if ((layer in pure) && !(inc in libc))
					sys[layer] = sys[layer] "\n" where "<" inc "> in a pure layer"
			}
		}
		close(path)
	}
	read_module(mods)
	for (i = 1; i <= nl; i++)
		verdict(layers[i] "/ includes only" allowed(layers[i]) " (and module/)", bad[layers[i]])
	for (i = 1; i <= nl; i++)
		if (layers[i] in pure)
			verdict(layers[i] "/ includes no system header beyond the C library'"'"'s", sys[layers[i]])
	verdict("no circle of includes (a file and its header one unit)", circles())
	verdict("every source of user/ lives in a layer folder", loose)
	verdict("no two sources of user/ share a file name", dup)
	exit failed
}
# The unit of a source: its path without .c or .h.
function unit(path) {
	sub(/\.[ch]$/, "", path)
	return path
}
function edge(from, inc,    a, b) {
	a = unit(from)
	b = unit(inc)
	if (a != b && !((a, b) in linked)) {
		linked[a, b] = 1
		out[a] = out[a] " " b
		units[a] = units[b] = 1
	}
}
# The sources of module/ include their neighbours by file name alone.
function read_module(list,    n, m, i, path, line) {
	n = split(list, m, "\n")
	for (i = 1; i <= n; i++) {
		if (m[i] == "")
			continue
		path = "module/" m[i]
		while ((getline line < ("../" path)) > 0)
			if (line ~ /^[ \t]*#[ \t]*include[ \t]*"/ &&
			    match(line, /"[^"]*"/))
				edge(path, "module/" substr(line, RSTART + 1, RLENGTH - 2))
		close("../" path)
	}
}
# Depth first from every unit; an include reaching a unit still on the
# path closes a circle, said as the path around it.
function circles(    u, found) {
	for (u in units)
		if (!(u in state))
			found = found visit(u, "")
	return found
}
function visit(u, path,    k, n, to, found, p) {
	state[u] = 1
	path = path " " u
	n = split(out[u], to, " ")
	for (k = 1; k <= n; k++) {
		if (!(to[k] in state))
			found = found visit(to[k], path)
		else if (state[to[k]] == 1) {
			p = substr(path " ", index(path " ", " " to[k] " ") + 1)
			gsub(/ /, " -> ", p)
			found = found "\n" p to[k]
		}
	}
	state[u] = 2
	return found
}
function allowed(l,    i, s) {
	for (i = 1; i <= nl; i++)
		if (layers[i] == l || rank[layers[i]] < rank[l])
			s = s " " layers[i] "/"
	return s
}
function verdict(what, problems,    k, p, m) {
	if (problems == "") {
		print "ok - layers: " what
		return
	}
	print "not ok - layers: " what
	m = split(substr(problems, 2), p, "\n")
	for (k = 1; k <= m; k++)
		print "#   " p[k]
	failed = 1
}
'
