// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/scan.h"
#include "engine/jobs.h"
#include "io/ptwalk_client.h"
#include "model/page.h"

/* The VMAs of one plan: maps lines, parsed, and their pieces. */
struct vma_queue {
	char *line[PLAN_VMAS];
	size_t size[PLAN_VMAS];
	struct maps_entry vma[PLAN_VMAS];
	struct compare_piece piece[PLAN_VMAS];
	/* what vma_done() gets once the witnesses passed the VMA's ranges on */
	struct vma_result {
		uint64_t start, end;
		struct compare_summary sum;
		bool examined;
	} done[PLAN_VMAS];
};

bool scan_queue_new(struct scan *sc)
{
	sc->queue = calloc(1, sizeof(*sc->queue));
	return sc->queue != NULL;
}

void scan_queue_free(struct scan *sc)
{
	if (sc->queue)
		for (int i = 0; i < PLAN_VMAS; i++)
			free(sc->queue->line[i]);
	free(sc->queue);
	sc->queue = NULL;
}

/* The end of the pipeline: one range of the VMA in progress. */
void scan_range_done(const struct verdict_range *vr,
		     const struct witness_note *note, void *arg)
{
	struct scan *sc = arg;

	report_range(&sc->report, vr, note);
	if (vr->walk_pfn != NO_PFN &&
	    suspects_add(&sc->suspects, vr->walk_pfn, vr->pages,
			 walk_memtype(&vr->detail)))
		/* out of memory: counted as not checked */
		sc->suspects.dropped_pages += vr->pages;
	if (sc->ses.opts->has_range)
		dma_add_range(&sc->dma, vr);
	progress_at(&sc->progress, vr->start + (vr->pages << sc->ses.geom.shift));
}

/* A VMA is done: examined, or not (see scan_vma()). */
static void vma_done(struct scan *sc, const struct maps_entry *vma,
		     uint64_t start, uint64_t end,
		     const struct compare_summary *sum, bool examined)
{
	report_vma(&sc->report, vma, start, end, sum, examined);
	if (sc->ses.opts->has_range && examined)
		dma_add_vma(&sc->dma, (end - start) >> sc->ses.geom.shift,
			    sum->vm_flags, sum->have_vm_flags);
	progress_vma_done(&sc->progress, (end - start) >> sc->ses.geom.shift);
}

/* The witnesses passed on every range of queued VMA token: it is done. */
void scan_vma_marked(void *arg, uint64_t token)
{
	struct scan *sc = arg;
	const struct vma_result *d = &sc->queue->done[token];

	vma_done(sc, &sc->queue->vma[token], d->start, d->end, &d->sum,
		 d->examined);
}

/*
 * Queued VMA i is compared: it is done once the witnesses have passed its
 * ranges on, which they do a batch at a time across VMAs (one batch of
 * kpageflags preads for many small VMAs, not one per VMA).
 */
static void vma_compared(struct scan *sc, int i, uint64_t start,
			 uint64_t end, const struct compare_summary *sum,
			 bool examined)
{
	sc->queue->done[i] = (struct vma_result){
		.start = start, .end = end, .sum = *sum, .examined = examined,
	};
	witness_mark(sc->witness, (uint64_t)i);
}

/* Whether the scan compares vma at all (see vma_begin()). */
static bool compared(const struct maps_entry *vma)
{
	return strcmp(vma->name, "[vsyscall]") != 0;
}

/*
 * Starts queued VMA i: false if nothing of it is compared (outside the
 * range, or [vsyscall], which lives in kernel space with no page table of
 * the task, and is reported as not examined), else its part inside the
 * range in start and end.
 */
static bool vma_begin(struct scan *sc, int i, uint64_t *start,
		      uint64_t *end)
{
	const struct maps_entry *vma = &sc->queue->vma[i];
	struct compare_summary none = { 0 };

	if (!cli_clip(sc->ses.opts, vma->start, vma->end, start, end))
		return false;
	if (!compared(vma)) {
		vma_compared(sc, i, *start, *end, &none, false);
		return false;
	}
	progress_vma_begin(&sc->progress, *start, *end);
	return true;
}

/* Compares the part of queued VMA i inside the requested range. */
static int scan_vma(struct scan *sc, int i)
{
	struct compare_summary sum = { 0 };
	uint64_t start, end;
	int err;

	if (!vma_begin(sc, i, &start, &end))
		return EXIT_OK;
	err = compare_piece(sc->engine, start, end, &sum, witness_range,
			    sc->witness);
	if (err) {
		witness_discard(sc->witness);
		return session_scan_failed(&sc->ses, -err);
	}
	vma_compared(sc, i, start, end, &sum, true);
	return EXIT_OK;
}

/*
 * The next VMAs of maps into the queue, at most PLAN_VMAS: how many, or
 * -1 after a malformed line (sc->ses.msg says which).
 */
static int read_vmas(struct scan *sc)
{
	struct vma_queue *q = sc->queue;
	/* VMAs outside the range are not reported: not even queued */
	uint64_t start = sc->ses.opts->has_range ? sc->ses.opts->start : 0;
	uint64_t end = sc->ses.opts->has_range ? sc->ses.opts->end : UINT64_MAX;
	int n = 0, got = 1;

	errno = 0;
	while (n < PLAN_VMAS &&
	       (got = maps_next_in(sc->ses.maps, start, end, &q->line[n],
				   &q->size[n], &q->vma[n])) > 0) {
		n++;
		errno = 0;
	}
	if (got < 0) {
		snprintf(sc->ses.msg, sizeof(sc->ses.msg),
			 "unreadable line in /proc/%d/maps: %.80s",
			 (int)sc->ses.src.pid, q->line[n]);
		return -1;
	}
	return n;
}

/* The queued VMAs' parts to compare, as one plan: how many pieces. */
static size_t plan_vmas(struct scan *sc, int n)
{
	struct vma_queue *q = sc->queue;
	size_t k = 0;

	for (int i = 0; i < n; i++) {
		uint64_t start, end;

		if (!cli_clip(sc->ses.opts, q->vma[i].start, q->vma[i].end,
			      &start, &end) ||
		    !compared(&q->vma[i]))
			continue;
		q->piece[k++] = (struct compare_piece){ start, end };
	}
	return k;
}

/* Where the main thread is in the jobs' items and their parts. */
struct part_iter {
	struct job_cursor c;
	struct job_item it;
	size_t k;		/* item number in the plan */
	size_t i;		/* next part of it */
	bool have;
};

/*
 * scan_vma() with --jobs: the VMA's parts come from the jobs, item by item
 * in address order, and are joined as one job would have compared them.
 */
static int scan_vma_jobs(struct scan *sc, int i, struct part_iter *pi)
{
	struct compare_summary sum = { 0 };
	struct job_joiner j;
	uint64_t start, end;
	int err = 0;

	if (!vma_begin(sc, i, &start, &end))
		return EXIT_OK;
	job_joiner_init(&j, witness_range, sc->witness, sc->ses.geom.shift);
	for (;;) {
		struct compare_piece part;
		struct job_event ev;

		if (!pi->have || pi->i == job_parts(&pi->it)) {
			/* the plan has a part for every piece: there is one */
			pi->have = job_next(&pi->c, &pi->it);
			pi->k = pi->have && pi->i ? pi->k + 1 : 0;
			pi->i = 0;
		}
		part = job_part(&pi->it, sc->queue->piece, pi->i++);
		do {
			jobs_next(sc->jobs, pi->k, &ev);
			if (!ev.part_end)
				job_joiner_range(&j, &ev.range);
		} while (!ev.part_end);
		err = ev.err;
		if (err)
			break;
		job_joiner_part(&j, &ev.sum);
		if (part.end >= end)
			break;
	}
	if (err) {
		witness_discard(sc->witness);
		jobs_cancel(sc->jobs);
		return session_scan_failed(&sc->ses, -err);
	}
	job_joiner_end(&j, &sum);
	vma_compared(sc, i, start, end, &sum, true);
	return EXIT_OK;
}

/*
 * The jobs, each with its pagemap fd and ptwalk sessions, started by the
 * first plan that needs them: a process that never has a batch to split
 * does without their threads, engines and sessions.
 */
static int start_jobs(struct scan *sc)
{
	struct compare_io io[JOBS_MAX];
	int status = session_open_jobs(&sc->ses, sc->nr_jobs);

	if (status != EXIT_OK)
		return status;
	for (unsigned int i = 0; i < sc->nr_jobs; i++)
		proc_source_io(&sc->ses.job_src[i], &io[i]);
	sc->jobs = jobs_start(sc->nr_jobs, BATCH_PAGES, io,
			      sc->ses.geom.shift);
	if (!sc->jobs) {
		snprintf(sc->ses.msg, sizeof(sc->ses.msg),
			 "cannot start %u jobs (out of memory or threads): try --jobs 1",
			 sc->nr_jobs);
		return session_fail(&sc->ses, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

/* Pages of the plan's pieces[0..n). */
static uint64_t plan_pages(const struct compare_piece *pieces, size_t n,
			   unsigned int page_shift)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < n; i++)
		pages += (pieces[i].end - pieces[i].start) >> page_shift;
	return pages;
}

/*
 * The queued VMAs, compared by the jobs or by the one engine.  A plan of
 * less than JOBS_SPLIT_PAGES goes to the one engine: there the jobs'
 * set-up and hand-over of every range cost more than sharing the reads
 * saves.
 */
static int scan_queue(struct scan *sc, int n)
{
	size_t pieces = plan_vmas(sc, n);
	struct part_iter pi = { .have = false };
	bool split = sc->nr_jobs > 1 &&
		     plan_pages(sc->queue->piece, pieces, sc->ses.geom.shift) >=
		     JOBS_SPLIT_PAGES;
	int status = EXIT_OK;

	if (split && !sc->jobs)
		status = start_jobs(sc);
	if (status != EXIT_OK)
		return status;
	if (!split) {
		compare_plan(sc->engine, sc->queue->piece, pieces);
		for (int i = 0; status == EXIT_OK && i < n; i++)
			status = scan_vma(sc, i);
	} else {
		jobs_plan(sc->jobs, sc->queue->piece, pieces);
		job_cursor_init(&pi.c, sc->queue->piece, pieces, BATCH_PAGES,
				sc->nr_jobs, sc->ses.geom.shift);
		for (int i = 0; status == EXIT_OK && i < n; i++)
			status = scan_vma_jobs(sc, i, &pi);
		/* the queue is read again only once no job reads its pieces */
		jobs_wait(sc->jobs);
	}
	/* every queued VMA is done before the queue is read again */
	if (status == EXIT_OK) {
		int err = witness_flush(sc->witness);

		if (err)
			return session_scan_failed(&sc->ses, -err);
	}
	return status;
}

/* ptwalk queries the scan has sent so far, its jobs' too. */
static uint64_t walk_queries(const struct scan *sc)
{
	uint64_t n = sc->ses.src.walk_queries;

	for (unsigned int i = 0; i < JOBS_MAX; i++)
		n += sc->ses.job_src[i].walk_queries;
	return n;
}

/*
 * Whether the process still had its memory when maps ended: 0, or
 * -ESRCH.  A process that exits mid-scan ends its maps early (no mm, no
 * more lines), and must not get a half report.  A ptwalk query sent after
 * maps' end of file already says so: the module took a reference on the
 * mm then, and an mm's users never come back from 0 (the blind spot,
 * an exec between the two, is /proc/PID/stat's too).  Else one query is
 * sent now; a ptwalk.ko without the task query leaves it to stat, which
 * gives the name too.
 */
static int check_alive(struct scan *sc, bool walked_after_eof)
{
	int err;

	if (sc->ses.no_task_query)
		return proc_alive_comm(sc->ses.src.pid, sc->ses.comm, sizeof(sc->ses.comm)) ?
		       0 : -ESRCH;
	if (walked_after_eof)
		return 0;
	err = ptwalk_query(sc->ses.src.walk_fd[COMPARE_SCAN], sc->ses.src.pid, 0,
			   geom_page_size(&sc->ses.geom));
	return err == -ENXIO ? -ESRCH : err;
}

int scan_all(struct scan *sc)
{
	int status = EXIT_OK, n = 0, err;
	uint64_t queries_at_eof = UINT64_MAX;

	progress_start(&sc->progress, sc->ses.opts, sc->ses.src.pid);
	for (;;) {
		uint64_t t0 = monotonic_ns();

		n = read_vmas(sc);
		sc->maps_ns += monotonic_ns() - t0;
		if (n <= 0)
			break;
		if (feof(sc->ses.maps))
			queries_at_eof = walk_queries(sc);
		status = scan_queue(sc, n);
		if (status != EXIT_OK)
			break;
	}
	if (status != EXIT_OK)
		return status;
	if (n < 0)
		return session_fail(&sc->ses, FAIL_INTERNAL);
	if (ferror(sc->ses.maps))
		return session_scan_failed(&sc->ses, errno ? errno : EIO);
	err = check_alive(sc, queries_at_eof != UINT64_MAX &&
			     walk_queries(sc) > queries_at_eof);
	return err ? session_scan_failed(&sc->ses, -err) : EXIT_OK;
}
