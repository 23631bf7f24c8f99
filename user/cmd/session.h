/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a scan of one process opens and closes on the host and in the
 * target: ptwalk's sessions, /proc/PID/maps and pagemap, the --jobs'
 * sources.  session_open_host() and session_open_target() open them,
 * session_close_target() and session_close() release them whatever
 * happened.  What the scan builds over them (the engines, the witnesses,
 * the report) is the scan's (cmd/scan.h).
 */
#ifndef PTCOMPARE_CMD_SESSION_H
#define PTCOMPARE_CMD_SESSION_H

#include <stdio.h>
#include "engine/jobs.h"
#include "io/endpoint.h"
#include "io/source.h"
#include "model/outcome.h"
#include "parse/cli.h"
#include "parse/geometry.h"
#include "report/progress.h"

/*
 * /proc/PID/maps' stdio buffer, given to stdio so it asks no fstat() for
 * a size (one a process, under --all), and large enough that a process
 * of a hundred VMAs is read in one read(): seq_file fills what it is
 * given.
 */
#define SESSION_MAPS_BUF	(16 * 1024)

struct session {
	const struct cli_options *opts;
	struct endpoint ep;		/* ptwalk's way in: debugfs or device */
	struct proc_source src;		/* the target's pagemap, ptwalk's */
	/* --jobs N > 1: each job's sources (session_open_jobs()) */
	struct proc_source job_src[JOBS_MAX];
	struct page_geom geom;		/* the kernel's, from ptwalk.ko */
	uint32_t absent_flags;		/* ptwalk.ko's, for the report */
	FILE *maps;
	char *maps_buf;		/* its stdio buffer, SESSION_MAPS_BUF bytes */
	char comm[64];		/* the target's name: ptwalk's task query
				 * (or /proc/PID/stat at the end of
				 * scan_all(), no_task_query) */
	bool no_task_query;	/* the module has no task query
					 * (PTWALK_FEAT_TASK clear)
					 */
	/*
	 * --all: a process that is gone (exited, no such pid) or has no user
	 * memory is counted by the caller, not said on stderr
	 */
	bool quiet_gone;
	/*
	 * --all's workers open sessions as they need them, two may fail at
	 * once: a failure is left in msg for the caller to say once
	 */
	bool quiet_fail;
	char msg[512];		/* the one-line error, when one occurred */
	struct progress *line;	/* wiped before a failure is said, or NULL */
};

/* Every handle closed, for o; opens nothing. */
void session_init(struct session *s, const struct cli_options *o);

/*
 * What does not depend on the process, kept from one process to the next
 * by --all: the ptwalk sessions (a query names its pid), the geometry and
 * the maps buffer: EXIT_OK, or the failure (said on stderr).
 */
int session_open_host(struct session *s);

/*
 * The process's part: ptwalk asked whether pid has memory, its maps and
 * pagemap opened.  After session_open_host(), or after
 * session_close_target() of another.
 */
int session_open_target(struct session *s, pid_t pid);

/*
 * Closes the process's part and zeroes what was counted of it, keeping
 * the host's: the session is ready for session_open_target().
 */
void session_close_target(struct session *s);

/* The first n --jobs' sources: EXIT_OK, or the failure (said). */
int session_open_jobs(struct session *s, unsigned int n);

/* --jobs: how many (the online CPUs unless given, at most JOBS_MAX). */
unsigned int session_count_jobs(const struct cli_options *o);

/* Closes whatever is open. */
void session_close(struct session *s);

/* Says s->msg on one line; returns f, the exit status. */
int session_fail(struct session *s, enum failure f);

/*
 * For an error -err writing the report (report_finish()): said, its
 * status.  -EIO is a spool's: one that outgrew memory could not move to
 * a file in spool_dir().
 */
int session_report_failed(struct session *s, int err);

/* For an error errno err during the scan: diagnosed, said, its status. */
int session_scan_failed(struct session *s, int err);

#endif /* PTCOMPARE_CMD_SESSION_H */
