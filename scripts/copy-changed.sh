#!/bin/sh
# Copies FILEs (paths relative to the current directory) to the same paths
# under DEST, each only when its content differs: kbuild, building in DEST
# with M=, then rebuilds exactly what changed, and the tree's own build
# (module/*.o, *.ko) is left alone.  Used for the debug kernel and the
# kernel matrix, which build the same sources against other kernels.
# usage: scripts/copy-changed.sh DEST FILE...
set -eu
dest=$1
shift
for f in "$@"; do
	cmp -s "$f" "$dest/$f" || install -D -m 0644 "$f" "$dest/$f"
done
