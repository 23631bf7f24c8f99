// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "diagnose.h"

enum exit_status diagnose_open(int err, enum module_state state,
			       const char *debugfs, char *msg, size_t size)
{
	switch (err) {
	case ENOENT:
		if (state == MODULE_NOT_LOADED) {
			snprintf(msg, size,
				 "ptwalk is not loaded: run 'insmod ptwalk.ko' (or 'modprobe ptwalk') as root");
		} else if (state == MODULE_LOADED) {
			snprintf(msg, size,
				 "ptwalk is loaded but %s/ptwalk is missing: mount debugfs with 'mount -t debugfs none %s'",
				 debugfs, debugfs);
		} else {
			snprintf(msg, size,
				 "%s/ptwalk not found: load ptwalk.ko and mount debugfs at %s",
				 debugfs, debugfs);
		}
		return EXIT_NO_MODULE;
	case EACCES:
	case EPERM:
		snprintf(msg, size,
			 "permission denied on %s/ptwalk: run as root (CAP_SYS_ADMIN in the initial namespace is required)",
			 debugfs);
		return EXIT_PRIVILEGE;
	default:
		snprintf(msg, size, "cannot open %s/ptwalk: %s", debugfs,
			 strerror(err));
		return EXIT_INTERNAL;
	}
}

enum exit_status diagnose_query(int err, pid_t pid, char *msg, size_t size)
{
	switch (err) {
	case ESRCH:
		snprintf(msg, size,
			 "no process %d (or it exited during the scan): check the PID",
			 (int)pid);
		return EXIT_NO_TARGET;
	case ENXIO:
		snprintf(msg, size,
			 "process %d has no user memory (a kernel thread or a zombie): pick a user process",
			 (int)pid);
		return EXIT_NO_MM;
	case ERANGE:
		snprintf(msg, size,
			 "range outside the user address space of process %d: check --range",
			 (int)pid);
		return EXIT_USAGE;
	case EPERM:
	case EACCES:
		snprintf(msg, size,
			 "ptwalk refused the query: run as root with CAP_SYS_ADMIN");
		return EXIT_PRIVILEGE;
	case EPROTO:
		snprintf(msg, size,
			 "ptwalk.ko speaks another ABI version than this ptcompare: use the pair from the same build");
		return EXIT_INTERNAL;
	default:
		snprintf(msg, size, "ptwalk query about process %d failed: %s",
			 (int)pid, strerror(err));
		return EXIT_INTERNAL;
	}
}
