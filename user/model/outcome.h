/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a run of ptcompare ends: its exit status, the kinds of failure a
 * diagnosis (report/diagnose.h) tells apart, and the one fact about the
 * system it needs beside errno, whether the module is loaded.
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

#endif /* PTCOMPARE_MODEL_OUTCOME_H */
