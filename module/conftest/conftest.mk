# SPDX-License-Identifier: GPL-2.0
# Feature tests, for interfaces a backport can bring to an older series,
# where a version test would be wrong (module/compat.h says which): each
# NAME.c here compiles, with this kernel's own flags, only where the kernel
# has the interface, and then defines PTWALK_HAVE_NAME (upper case) for
# the Kbuild that includes this (module/'s, the test fixture's).
# Evaluated once (:=) per build of that directory; -Wno-error so that only
# a missing interface fails a test, not a warning of the kernel's.
ptwalk_conftest_dir := $(dir $(lastword $(MAKEFILE_LIST)))
ptwalk_conftest_flags := $(KBUILD_CPPFLAGS) $(LINUXINCLUDE) $(KBUILD_CFLAGS) \
	$(KBUILD_CFLAGS_MODULE) -DKBUILD_MODNAME='"ptwalk"' \
	-DKBUILD_BASENAME='"conftest"' -Wno-error -fsyntax-only
ptwalk_have := $(shell for t in $(ptwalk_conftest_dir)*.c; do \
	n=$$(basename $$t .c | tr a-z A-Z); \
	$(CC) $(ptwalk_conftest_flags) $$t > /dev/null 2>&1 && \
	echo -DPTWALK_HAVE_$$n; done)
ccflags-y += $(ptwalk_have)
