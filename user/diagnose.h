/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a failure means for the user: one line saying what happened and
 * what to do, and the exit status that names its class.  Pure: the facts
 * (errno, module state) are gathered by the caller.
 */
#ifndef PTCOMPARE_DIAGNOSE_H
#define PTCOMPARE_DIAGNOSE_H

#include <stddef.h>
#include <sys/types.h>

enum exit_status {
	EXIT_OK = 0,
	EXIT_MISMATCH = 1,	/* an unexplained difference (ptcompare) */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_NO_MODULE = 3,	/* ptwalk not loaded, or debugfs missing */
	EXIT_PRIVILEGE = 4,	/* not root / no CAP_SYS_ADMIN */
	EXIT_NO_TARGET = 5,	/* no such pid, or it exited */
	EXIT_NO_MM = 6,		/* kernel thread or zombie: nothing to walk */
	EXIT_INTERNAL = 7,	/* ABI mismatch, I/O error, out of memory */
};

enum module_state {
	MODULE_STATE_UNKNOWN,	/* libkmod could not tell */
	MODULE_NOT_LOADED,
	MODULE_LOADED,
};

/* For a failed open of the ptwalk debugfs file. */
enum exit_status diagnose_open(int err, enum module_state state,
			       const char *debugfs, char *msg, size_t size);

/* For a failed query or read about pid. */
enum exit_status diagnose_query(int err, pid_t pid, char *msg, size_t size);

#endif /* PTCOMPARE_DIAGNOSE_H */
