// SPDX-License-Identifier: GPL-2.0
/*
 * The scan's lifecycle: what it builds over its session (cmd/session.c)
 * is opened here for one process or, by --all, for many in turn.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/scan.h"
#include "io/spool.h"

void scan_init(struct scan *sc, const struct cli_options *o)
{
	struct compare_io real;
	uint64_t started = sc->started_ns;

	memset(sc, 0, sizeof(*sc));
	session_init(&sc->ses, o);
	sc->ses.line = &sc->progress.line;
	sc->started_ns = started;
	sc->out = stdout;
	sc->wsrc.kpf_fd = sc->wsrc.walk_fd = -1;
	suspects_init(&sc->suspects, MEMTYPE_SUSPECTS_MAX);
	proc_source_io(&sc->ses.src, &real);
	progress_watch_io(&sc->progress, &real);
}

static void open_witness(struct scan *sc)
{
	witness_source_open(&sc->wsrc, sc->ses.ep.path, sc->ses.src.pid,
			    sc->ses.opts->kpageflags, &sc->wtotals);
	witness_source_io(&sc->wsrc, &sc->wio);
}

/* Temporary files for n parts of the report: EXIT_OK, or the failure. */
static int open_spools(struct scan *sc, FILE **f, int n)
{
	for (int i = 0; i < n; i++) {
		f[i] = spool_open();
		if (!f[i]) {
			snprintf(sc->ses.msg, sizeof(sc->ses.msg),
				 "cannot create a temporary file in %s for the report: %s (set TMPDIR to a writable directory)",
				 spool_dir(), strerror(errno));
			return session_fail(&sc->ses, FAIL_INTERNAL);
		}
	}
	return EXIT_OK;
}

/* The spools, engines and VMA queue, for one process or many. */
static int open_engines(struct scan *sc)
{
	/* the text report spools the witnesses' section too */
	int status = open_spools(sc, sc->spool, 2);

	if (status == EXIT_OK && !sc->ses.opts->json)
		status = open_spools(sc, &sc->wspool, 1);
	if (status == EXIT_OK && sc->ses.opts->has_range)
		status = open_spools(sc, sc->dma_spool, 2);
	if (status != EXIT_OK)
		return status;
	sc->engine = compare_new(&sc->progress.io, BATCH_PAGES,
				 sc->ses.geom.shift);
	sc->witness = witness_new(&sc->wio, &sc->ses.geom, &sc->wtotals,
				  scan_range_done, sc);
	if (sc->witness)
		witness_set_mark(sc->witness, scan_vma_marked);
	if (!sc->engine || !sc->witness || !scan_queue_new(sc)) {
		snprintf(sc->ses.msg, sizeof(sc->ses.msg), "out of memory");
		return session_fail(&sc->ses, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

/*
 * Rewinds the spools a report of another process may have filled: what
 * lies beyond the position is never read (report_copy_spool()).
 */
static int rewind_spools(struct scan *sc)
{
	FILE *f[] = { sc->spool[0], sc->spool[1], sc->wspool,
		      sc->dma_spool[0], sc->dma_spool[1] };

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i] && (fflush(f[i]) || fseek(f[i], 0, SEEK_SET))) {
			snprintf(sc->ses.msg, sizeof(sc->ses.msg),
				 "cannot reuse a temporary file of the report: %s",
				 strerror(errno));
			return session_fail(&sc->ses, FAIL_INTERNAL);
		}
	}
	return EXIT_OK;
}

/*
 * The report of the process, over the spools; with sc->summary_only no
 * VMA rows and no physical lines are written.
 */
static int open_report(struct scan *sc)
{
	const struct cli_options *o = sc->ses.opts;
	int status = rewind_spools(sc);

	if (status != EXIT_OK)
		return status;
	report_init(&sc->report, o->json ? REPORT_JSON : REPORT_TEXT,
		    sc->out, sc->summary_only ? NULL : sc->spool[0],
		    sc->spool[1], &sc->ses.geom, sc->ses.absent_flags);
	if (o->has_range) {
		report_dma_init(&sc->dma_report, sc->report.fmt, &sc->dma,
				sc->dma_spool[0], sc->dma_spool[1]);
		report_add_dma(&sc->report, &sc->dma_report);
		struct dma_sink sink = report_dma_sink(&sc->dma_report);

		dma_init(&sc->dma, o->start, o->end, &sink,
			 sc->ses.geom.shift);
	}
	report_add_witnesses(&sc->report, &sc->wtotals,
			     sc->summary_only ? NULL : sc->wspool);
	return EXIT_OK;
}

int scan_open_host(struct scan *sc)
{
	int status = session_open_host(&sc->ses);

	sc->nr_jobs = session_count_jobs(sc->ses.opts);
	sc->progress.page_shift = sc->ses.geom.shift;
	if (status == EXIT_OK) {
		open_witness(sc);
		status = open_engines(sc);
	}
	return status;
}

int scan_open_target(struct scan *sc, pid_t pid)
{
	int status;

	sc->wsrc.pid = pid;
	status = session_open_target(&sc->ses, pid);
	if (status == EXIT_OK)
		status = open_report(sc);
	return status;
}

int scan_open(struct scan *sc)
{
	int status = scan_open_host(sc);

	return status == EXIT_OK ? scan_open_target(sc, sc->ses.opts->pid) :
				   status;
}

static void close_files(FILE **f, int n)
{
	for (int i = 0; i < n; i++)
		if (f[i])
			fclose(f[i]);
}

void scan_close_target(struct scan *sc)
{
	/* the jobs read the session's sources: stopped before they close */
	jobs_stop(sc->jobs);
	sc->jobs = NULL;
	session_close_target(&sc->ses);
	sc->wsrc.kpf_reads = sc->wsrc.kpf_bytes = sc->wsrc.kpf_ns = 0;
	if (sc->memtype_scan)
		phys_scan_free(sc->memtype_scan);
	free(sc->memtype_scan);
	sc->memtype_scan = NULL;
	suspects_free(&sc->suspects);
	suspects_init(&sc->suspects, MEMTYPE_SUSPECTS_MAX);
	memset(&sc->memtype_view, 0, sizeof(sc->memtype_view));
	witness_totals_restart(&sc->wtotals);
	/* the engine's state is that of a plan: the next scan plans anew */
	if (sc->witness)
		witness_discard(sc->witness);
	progress_restart(&sc->progress);
}

void scan_close(struct scan *sc)
{
	scan_close_target(sc);
	compare_free(sc->engine);
	witness_free(sc->witness);
	witness_source_close(&sc->wsrc);
	close_files(&sc->wspool, 1);
	close_files(sc->spool, 2);
	close_files(sc->dma_spool, 2);
	scan_queue_free(sc);
	suspects_free(&sc->suspects);
	session_close(&sc->ses);
}
