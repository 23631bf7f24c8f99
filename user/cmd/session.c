// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/progress_hooks.h"
#include "cmd/scan.h"
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
	uint64_t started = s->started_ns;

	memset(s, 0, sizeof(*s));
	s->opts = o;
	s->started_ns = started;
	s->out = stdout;
	proc_source_closed(&s->src, o->pid);
	for (int i = 0; i < JOBS_MAX; i++)
		proc_source_closed(&s->job_src[i], o->pid);
	s->wsrc.kpf_fd = s->wsrc.walk_fd = -1;
	suspects_init(&s->suspects, MEMTYPE_SUSPECTS_MAX);
	proc_source_io(&s->src, &s->io);
	progress_watch_io(s);
}

int session_fail(struct session *s, enum failure f)
{
	progress_end(s);
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
		err = ptwalk_query_ext(fd, s->src.pid, 0,
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

static void open_witness(struct session *s)
{
	witness_source_open(&s->wsrc, s->ep.path, s->src.pid,
			    s->opts->kpageflags, &s->wtotals);
	witness_source_io(&s->wsrc, &s->wio);
}

/* Temporary files for n parts of the report: EXIT_OK, or the failure. */
static int open_spools(struct session *s, FILE **f, int n)
{
	for (int i = 0; i < n; i++) {
		f[i] = spool_open();
		if (!f[i]) {
			snprintf(s->msg, sizeof(s->msg),
				 "cannot create a temporary file in %s for the report: %s (set TMPDIR to a writable directory)",
				 spool_dir(), strerror(errno));
			return session_fail(s, FAIL_INTERNAL);
		}
	}
	return EXIT_OK;
}

/* The spools, engines and VMA queue, for one process or many. */
static int open_engines(struct session *s)
{
	/* the text report spools the witnesses' section too */
	int status = open_spools(s, s->spool, 2);

	if (status == EXIT_OK && !s->opts->json)
		status = open_spools(s, &s->wspool, 1);
	if (status == EXIT_OK && s->opts->has_range)
		status = open_spools(s, s->dma_spool, 2);
	if (status != EXIT_OK)
		return status;
	s->absent_flags = connect_absent_flags(&s->ep);
	s->maps_buf = malloc(SESSION_MAPS_BUF);
	s->engine = compare_new(&s->io, BATCH_PAGES, s->geom.shift);
	s->witness = witness_new(&s->wio, &s->geom, &s->wtotals,
				 scan_range_done, s);
	if (s->witness)
		witness_set_mark(s->witness, scan_vma_marked);
	if (!s->maps_buf || !s->engine || !s->witness || !scan_queue_new(s)) {
		snprintf(s->msg, sizeof(s->msg), "out of memory");
		return session_fail(s, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

/*
 * Rewinds the spools a report of another process may have filled: what
 * lies beyond the position is never read (report_copy_spool()).
 */
static int rewind_spools(struct session *s)
{
	FILE *f[] = { s->spool[0], s->spool[1], s->wspool, s->dma_spool[0],
		      s->dma_spool[1] };

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i] && (fflush(f[i]) || fseek(f[i], 0, SEEK_SET))) {
			snprintf(s->msg, sizeof(s->msg),
				 "cannot reuse a temporary file of the report: %s",
				 strerror(errno));
			return session_fail(s, FAIL_INTERNAL);
		}
	}
	return EXIT_OK;
}

/*
 * The report of the process, over the spools; with s->summary_only no
 * VMA rows and no physical lines are written.
 */
static int open_report(struct session *s)
{
	int status = rewind_spools(s);

	if (status != EXIT_OK)
		return status;
	report_init(&s->report, s->opts->json ? REPORT_JSON : REPORT_TEXT,
		    s->out, s->summary_only ? NULL : s->spool[0], s->spool[1],
		    &s->geom, s->absent_flags);
	if (s->opts->has_range) {
		report_dma_init(&s->dma_report, &s->report, &s->dma,
				s->dma_spool[0], s->dma_spool[1]);
		struct dma_sink sink = report_dma_sink(&s->dma_report);

		dma_init(&s->dma, s->opts->start, s->opts->end, &sink,
			 s->geom.shift);
	}
	report_add_witnesses(&s->report, &s->wtotals,
			     s->summary_only ? NULL : s->wspool);
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

	s->nr_jobs = session_count_jobs(s->opts);
	if (status == EXIT_OK) {
		open_witness(s);
		status = open_engines(s);
	}
	return status;
}

int session_open_target(struct session *s, pid_t pid)
{
	int status;

	s->src.pid = s->wsrc.pid = pid;
	status = probe_target(s);
	if (status == EXIT_OK)
		status = open_proc(s);
	if (status == EXIT_OK)
		status = open_report(s);
	return status;
}

int session_open(struct session *s)
{
	int status = session_open_host(s);

	return status == EXIT_OK ? session_open_target(s, s->opts->pid) :
				   status;
}

/*
 * The jobs, each with its pagemap fd and ptwalk sessions, started by the
 * first plan that needs them (scan.c): a process that never has a batch
 * to split does without their threads, engines and sessions (in the bench
 * VM, a bare process: 35-45 ms of run -> 26-28, as --jobs 1).
 */
int session_open_jobs(struct session *s)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)s->src.pid);
	for (unsigned int i = 0; i < s->nr_jobs; i++) {
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
	struct compare_io io[JOBS_MAX];

	for (unsigned int i = 0; i < s->nr_jobs; i++)
		proc_source_io(&s->job_src[i], &io[i]);
	s->jobs = jobs_start(s->nr_jobs, BATCH_PAGES, io, s->geom.shift);
	if (!s->jobs) {
		snprintf(s->msg, sizeof(s->msg),
			 "cannot start %u jobs (out of memory or threads): try --jobs 1",
			 s->nr_jobs);
		return session_fail(s, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

static void proc_source_close(struct proc_source *src)
{
	if (src->pagemap_fd >= 0)
		close(src->pagemap_fd);
	for (int k = 0; k < NR_COMPARE_STREAMS; k++)
		if (src->walk_fd[k] >= 0)
			close(src->walk_fd[k]);
}

static void close_files(FILE **f, int n)
{
	for (int i = 0; i < n; i++)
		if (f[i])
			fclose(f[i]);
}

/* The source's counts of what was read zeroed, for the next process. */
static void proc_source_restart(struct proc_source *src)
{
	src->pagemap_bytes = src->walk_queries = src->walk_records = 0;
	src->pagemap_ns = src->walk_ns = 0;
}

void session_close_target(struct session *s)
{
	jobs_stop(s->jobs);
	s->jobs = NULL;
	for (unsigned int i = 0; i < JOBS_MAX; i++) {
		proc_source_close(&s->job_src[i]);
		proc_source_closed(&s->job_src[i], s->src.pid);
		s->job_src[i].page_shift = s->geom.shift;
	}
	close_files(&s->maps, 1);
	s->maps = NULL;
	if (s->src.pagemap_fd >= 0)
		close(s->src.pagemap_fd);
	s->src.pagemap_fd = -1;
	proc_source_restart(&s->src);
	s->wsrc.kpf_reads = s->wsrc.kpf_bytes = s->wsrc.kpf_ns = 0;
	if (s->memtype_scan)
		phys_scan_free(s->memtype_scan);
	free(s->memtype_scan);
	s->memtype_scan = NULL;
	suspects_free(&s->suspects);
	suspects_init(&s->suspects, MEMTYPE_SUSPECTS_MAX);
	memset(&s->memtype_view, 0, sizeof(s->memtype_view));
	witness_totals_restart(&s->wtotals);
	/* the engine's state is that of a plan: the next scan plans anew */
	if (s->witness)
		witness_discard(s->witness);
	s->pages_done = s->vma_start = s->vma_pos = s->vma_end = 0;
}

void session_close(struct session *s)
{
	session_close_target(s);
	compare_free(s->engine);
	witness_free(s->witness);
	witness_source_close(&s->wsrc);
	close_files(&s->wspool, 1);
	close_files(s->spool, 2);
	close_files(s->dma_spool, 2);
	scan_queue_free(s);
	suspects_free(&s->suspects);
	proc_source_close(&s->src);
	free(s->maps_buf);
	s->maps_buf = NULL;
}
