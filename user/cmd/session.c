// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/session.h"
#include "io/ptwalk_client.h"
#include "io/spool.h"
#include "model/page.h"
#include "report/diagnose.h"

/* No stream or source of s is open: every fd -1. */
static void proc_source_closed(struct proc_source *src, pid_t pid)
{
	src->pid = pid;
	src->pagemap_fd = -1;
	for (int k = 0; k < NR_COMPARE_STREAMS; k++)
		src->walk_fd[k] = -1;
}

void session_init(struct session *s, const struct cli_options *o)
{
	memset(s, 0, sizeof(*s));
	s->opts = o;
	proc_source_closed(&s->src, o->pid);
	for (int i = 0; i < JOBS_MAX; i++)
		proc_source_closed(&s->job_src[i], o->pid);
}

int session_fail(struct session *s, enum failure f)
{
	if (s->line) {
		char line[PROGRESS_MAX_WIDTH + 8];
		size_t n = progress_clear(s->line, line, sizeof(line));

		fwrite(line, 1, n, stderr);
	}
	if (!s->quiet_fail &&
	    (!s->quiet_gone || (f != FAIL_EXITED && f != FAIL_NO_TARGET &&
				f != FAIL_NO_MM)))
		fprintf(stderr, "ptcompare: %s\n", s->msg);
	return (int)f;
}

int session_report_failed(struct session *s, int err)
{
	if (err == -EIO)
		snprintf(s->msg, sizeof(s->msg),
			 "cannot write the report: a part of it could not move to a temporary file in %s (set TMPDIR to a writable directory with room)",
			 spool_dir());
	else
		snprintf(s->msg, sizeof(s->msg), "cannot write the report: %s",
			 strerror(-err));
	return session_fail(s, FAIL_INTERNAL);
}

int session_scan_failed(struct session *s, int err)
{
	return session_fail(s, diagnose_scan(err, s->src.pid,
					     proc_alive(s->src.pid), s->msg,
					     sizeof(s->msg)));
}

/*
 * The scan's ptwalk session; the other streams' are opened by their first
 * query (io/source.c), at the path this one was found at.
 */
static int open_walk(struct session *s)
{
	enum failure why;
	int fd = connect_ptwalk(s->opts, &s->ep, &why, s->msg, sizeof(s->msg));

	if (fd < 0)
		return session_fail(s, why);
	s->src.walk_fd[COMPARE_SCAN] = fd;
	s->src.walk_path = s->ep.path;
	if (connect_geometry(&s->ep, &s->geom, s->msg, sizeof(s->msg)))
		return session_fail(s, FAIL_NO_MODULE);
	s->src.page_shift = s->geom.shift;
	for (int i = 0; i < JOBS_MAX; i++)
		s->job_src[i].page_shift = s->geom.shift;
	if (s->opts->has_range &&
	    cli_check_range_pages(s->opts->start, s->opts->end,
				  geom_page_size(&s->geom), s->msg,
				  sizeof(s->msg)))
		return session_fail(s, FAIL_USAGE);
	s->absent_flags = connect_absent_flags(&s->ep);
	return EXIT_OK;
}

/*
 * Only ptwalk tells a kernel thread or a zombie (no mm: ENXIO) from a
 * process with nothing mapped; ask before reading /proc, as the scan will.
 * The task query answers with the name too.  A module without it
 * (EOPNOTSUPP: the fixture's impostor) is asked for a range instead, and
 * the name is read with the liveness at the end of the scan (scan_all()).
 */
static int probe_target(struct session *s)
{
	int fd = s->src.walk_fd[COMPARE_SCAN];
	struct ptwalk_task t;
	int err = 0;

	s->comm[0] = '\0';
	if (!s->no_task_query) {
		err = ptwalk_query_task(fd, s->src.pid, &t);
		s->no_task_query = err == -EOPNOTSUPP;
		if (!err)
			snprintf(s->comm, sizeof(s->comm), "%s", t.comm);
	}
	if (s->no_task_query)
		err = ptwalk_query(fd, s->src.pid, 0,
				   geom_page_size(&s->geom));
	if (err)
		return session_fail(s, diagnose_query(-err, s->src.pid, s->msg,
						      sizeof(s->msg)));
	return EXIT_OK;
}

static int open_proc(struct session *s)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)s->src.pid);
	s->maps = fopen(path, "re");
	if (!s->maps)
		return session_fail(s, diagnose_proc_open(errno, s->src.pid,
							  "maps", s->msg,
							  sizeof(s->msg)));
	setvbuf(s->maps, s->maps_buf, _IOFBF, SESSION_MAPS_BUF);
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)s->src.pid);
	s->src.pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->src.pagemap_fd < 0)
		return session_fail(s, diagnose_proc_open(errno, s->src.pid,
							  "pagemap", s->msg,
							  sizeof(s->msg)));
	return EXIT_OK;
}

unsigned int session_count_jobs(const struct cli_options *o)
{
	long cpus;

	/* glibc reads /sys for it: not for each of --all's sessions */
	if (o->jobs)
		return o->jobs;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus < 1 ? 1 : cpus > JOBS_MAX ? JOBS_MAX : (unsigned int)cpus;
}

int session_open_host(struct session *s)
{
	int status = open_walk(s);

	if (status != EXIT_OK)
		return status;
	s->maps_buf = malloc(SESSION_MAPS_BUF);
	if (!s->maps_buf) {
		snprintf(s->msg, sizeof(s->msg), "out of memory");
		return session_fail(s, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

int session_open_target(struct session *s, pid_t pid)
{
	int status;

	s->src.pid = pid;
	status = probe_target(s);
	if (status == EXIT_OK)
		status = open_proc(s);
	return status;
}

/*
 * The jobs' sources, each its pagemap fd and ptwalk sessions, opened by
 * the first plan that needs them (scan.c): a process that never has a
 * batch to split does without them.
 */
int session_open_jobs(struct session *s, unsigned int n)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)s->src.pid);
	for (unsigned int i = 0; i < n; i++) {
		struct proc_source *src = &s->job_src[i];

		src->pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
		/* pagemap was opened before: only an exit makes this fail */
		if (src->pagemap_fd < 0)
			return session_scan_failed(s, errno);
		enum failure why;

		/* the re-reads' session: by its first query (io/source.c) */
		src->walk_path = s->ep.path;
		src->walk_fd[COMPARE_SCAN] = connect_again(&s->ep, &why, s->msg,
							   sizeof(s->msg));
		if (src->walk_fd[COMPARE_SCAN] < 0)
			return session_fail(s, why);
	}
	return EXIT_OK;
}

static void proc_source_close(struct proc_source *src)
{
	fd_close(&src->pagemap_fd);
	for (int k = 0; k < NR_COMPARE_STREAMS; k++)
		fd_close(&src->walk_fd[k]);
}

/* The source's counts of what was read zeroed, for the next process. */
static void proc_source_restart(struct proc_source *src)
{
	src->pagemap_bytes = src->walk_queries = src->walk_records = 0;
	src->pagemap_ns = src->walk_ns = 0;
}

void session_close_target(struct session *s)
{
	for (unsigned int i = 0; i < JOBS_MAX; i++) {
		proc_source_close(&s->job_src[i]);
		proc_source_closed(&s->job_src[i], s->src.pid);
		s->job_src[i].page_shift = s->geom.shift;
	}
	if (s->maps)
		fclose(s->maps);
	s->maps = NULL;
	fd_close(&s->src.pagemap_fd);
	proc_source_restart(&s->src);
}

void session_close(struct session *s)
{
	session_close_target(s);
	proc_source_close(&s->src);
	free(s->maps_buf);
	s->maps_buf = NULL;
}
