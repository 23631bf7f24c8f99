#!/bin/sh
# Prints the kernel build tree to build against: the running kernel's when it
# has one, else the newest Debian linux-headers-*-amd64 under /usr/src
# (a machine whose own kernel cannot load modules still builds for the VM).
set -eu
running="/lib/modules/$(uname -r)/build"
if [ -d "$running" ]; then
	echo "$running"
	exit 0
fi
newest=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -z "$newest" ]; then
	echo "find-kdir: no $running and no /usr/src/linux-headers-*-amd64: apt-get install linux-headers-amd64, or pass KDIR=" >&2
	exit 1
fi
echo "find-kdir: $running is absent, using $newest" >&2
echo "$newest"
