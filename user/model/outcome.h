/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a run of ptcompare ends: its exit status, the kinds of failure a
 * diagnosis (report/diagnose.h) tells apart, and the facts about the
 * system it needs beside errno: whether the module is loaded, the kernel
 * lockdown mode, and what opening each way in to ptwalk said.
 *
 * ptcompare exits 0 when every page is explained, 1 when a mismatch
 * remains, and 2 for every usage or environment failure below; the
 * message names which one.
 */
#ifndef PTCOMPARE_MODEL_OUTCOME_H
#define PTCOMPARE_MODEL_OUTCOME_H

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
 * The kernel's lockdown mode (parse/lockdown.h reads it from
 * /sys/kernel/security/lockdown).  Under lockdown debugfs refuses files
 * that can be written, so ptwalk is reached through /dev/ptwalk instead.
 */
enum lockdown_mode {
	LOCKDOWN_UNKNOWN,	/* no lockdown LSM, securityfs not mounted, ... */
	LOCKDOWN_NONE,
	LOCKDOWN_INTEGRITY,
	LOCKDOWN_CONFIDENTIALITY,
};

/*
 * What is known after ptwalk could not be reached: the errno of each way
 * in that was tried (io/endpoint.h), whether the module is loaded, and
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

#endif /* PTCOMPARE_MODEL_OUTCOME_H */
