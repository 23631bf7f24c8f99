/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a failure means for the user: one line saying what happened and
 * what to do, and the kind of failure.  Pure: the facts (errno, module
 * state) are gathered by the caller.
 *
 * ptcompare exits 0 when every page is explained, 1 when a mismatch
 * remains, and 2 for every usage or environment failure below; the
 * message names which one.
 */
#ifndef PTCOMPARE_DIAGNOSE_H
#define PTCOMPARE_DIAGNOSE_H

#include <stddef.h>
#include <sys/types.h>
#include "lockdown.h"

enum exit_status {
	EXIT_OK = 0,
	EXIT_MISMATCH = 1,	/* an unexplained difference remains */
	EXIT_ERROR = 2,		/* usage or environment error */
};

enum failure {
	FAIL_USAGE,		/* bad command line */
	FAIL_NO_MODULE,		/* ptwalk not loaded, or debugfs missing */
	FAIL_LOCKDOWN,		/* lockdown refuses debugfs, no device */
	FAIL_PRIVILEGE,		/* not root / no CAP_SYS_ADMIN */
	FAIL_NO_TARGET,		/* no such pid */
	FAIL_EXITED,		/* the process exited during the scan */
	FAIL_NO_MM,		/* kernel thread or zombie: nothing to walk */
	FAIL_INTERNAL,		/* ABI mismatch, I/O error, out of memory */
};

enum module_state {
	MODULE_STATE_UNKNOWN,	/* libkmod could not tell */
	MODULE_NOT_LOADED,
	MODULE_LOADED,
};

/*
 * What is known after ptwalk could not be reached: the errno of each way
 * in that was tried (user/endpoint.h), whether the module is loaded, and
 * the lockdown mode.
 */
struct open_failure {
	const char *debugfs;	/* debugfs mount point tried; NULL: not tried */
	int debugfs_err;	/* errno of opening <debugfs>/ptwalk/query */
	const char *device;	/* device node tried; NULL: not tried */
	int device_err;		/* errno of opening it */
	enum module_state module;
	enum lockdown_mode lockdown;
};

/* For a failed open of ptwalk's query file or device. */
enum failure diagnose_endpoint(const struct open_failure *f, char *msg,
			       size_t size);

/* For a failed query or read about pid before the scan started. */
enum failure diagnose_query(int err, pid_t pid, char *msg, size_t size);

/* For a failed open of /proc/pid/maps or /proc/pid/pagemap. */
enum failure diagnose_proc_open(int err, pid_t pid, const char *file,
				char *msg, size_t size);

/*
 * For an error during the scan; alive tells whether the process still
 * exists (a vanished process turns ESRCH and short reads into FAIL_EXITED).
 */
enum failure diagnose_scan(int err, pid_t pid, int alive, char *msg,
			   size_t size);

#endif /* PTCOMPARE_DIAGNOSE_H */
