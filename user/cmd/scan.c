// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/progress_hooks.h"
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

bool scan_queue_new(struct session *s)
{
	s->queue = calloc(1, sizeof(*s->queue));
	return s->queue != NULL;
}

void scan_queue_free(struct session *s)
{
	if (s->queue)
		for (int i = 0; i < PLAN_VMAS; i++)
			free(s->queue->line[i]);
	free(s->queue);
	s->queue = NULL;
}

bool scan_clip(const struct cli_options *o, const struct maps_entry *vma,
	       uint64_t *start, uint64_t *end)
{
	*start = vma->start;
	*end = vma->end;
	if (o->has_range) {
		*start = *start > o->start ? *start : o->start;
		*end = *end < o->end ? *end : o->end;
	}
	return *start < *end;
}

/* The end of the pipeline: one range of the VMA in progress. */
void scan_range_done(const struct verdict_range *vr,
		     const struct witness_note *note, void *arg)
{
	struct session *s = arg;

	report_range(&s->report, vr, note);
	if (vr->walk_pfn != NO_PFN &&
	    suspects_add(&s->suspects, vr->walk_pfn, vr->pages,
			 walk_memtype(&vr->detail)))
		/* out of memory: counted as not checked */
		s->suspects.dropped_pages += vr->pages;
	if (s->opts->has_range)
		dma_add_range(&s->dma, vr);
	progress_at(s, vr->start + (vr->pages << s->geom.shift));
}

/* A VMA is done: examined, or not (see scan_vma()). */
static void vma_done(struct session *s, const struct maps_entry *vma,
		     uint64_t start, uint64_t end,
		     const struct compare_summary *sum, bool examined)
{
	report_vma(&s->report, vma, start, end, sum, examined);
	if (s->opts->has_range && examined)
		dma_add_vma(&s->dma, (end - start) >> s->geom.shift,
			    sum->vm_flags, sum->have_vm_flags);
	progress_vma_done(s, (end - start) >> s->geom.shift);
}

/* The witnesses passed on every range of queued VMA token: it is done. */
void scan_vma_marked(void *arg, uint64_t token)
{
	struct session *s = arg;
	const struct vma_result *d = &s->queue->done[token];

	vma_done(s, &s->queue->vma[token], d->start, d->end, &d->sum,
		 d->examined);
}

/*
 * Queued VMA i is compared: it is done once the witnesses have passed its
 * ranges on, which they do a batch at a time across VMAs (one batch of
 * kpageflags preads for many small VMAs, not one per VMA).
 */
static void vma_compared(struct session *s, int i, uint64_t start,
			 uint64_t end, const struct compare_summary *sum,
			 bool examined)
{
	s->queue->done[i] = (struct vma_result){
		.start = start, .end = end, .sum = *sum, .examined = examined,
	};
	witness_mark(s->witness, (uint64_t)i);
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
static bool vma_begin(struct session *s, int i, uint64_t *start,
		      uint64_t *end)
{
	const struct maps_entry *vma = &s->queue->vma[i];
	struct compare_summary none = { 0 };

	if (!scan_clip(s->opts, vma, start, end))
		return false;
	if (!compared(vma)) {
		vma_compared(s, i, *start, *end, &none, false);
		return false;
	}
	s->vma_start = s->vma_pos = *start;
	s->vma_end = *end;
	return true;
}

/* Compares the part of queued VMA i inside the requested range. */
static int scan_vma(struct session *s, int i)
{
	struct compare_summary sum = { 0 };
	uint64_t start, end;
	int err;

	if (!vma_begin(s, i, &start, &end))
		return EXIT_OK;
	err = compare_range(s->engine, start, end, &sum, witness_range,
			    s->witness);
	if (err) {
		witness_discard(s->witness);
		return session_scan_failed(s, -err);
	}
	vma_compared(s, i, start, end, &sum, true);
	return EXIT_OK;
}

/*
 * The next VMAs of maps into the queue, at most PLAN_VMAS: how many, or
 * -1 after a malformed line (s->msg says which).
 */
static int read_vmas(struct session *s)
{
	struct vma_queue *q = s->queue;
	/* VMAs outside the range are not reported: not even queued */
	uint64_t start = s->opts->has_range ? s->opts->start : 0;
	uint64_t end = s->opts->has_range ? s->opts->end : UINT64_MAX;
	int n = 0, got = 1;

	errno = 0;
	while (n < PLAN_VMAS &&
	       (got = maps_next_in(s->maps, start, end, &q->line[n],
				   &q->size[n], &q->vma[n])) > 0) {
		n++;
		errno = 0;
	}
	if (got < 0) {
		snprintf(s->msg, sizeof(s->msg),
			 "unreadable line in /proc/%d/maps: %.80s",
			 (int)s->src.pid, q->line[n]);
		return -1;
	}
	return n;
}

/* The queued VMAs' parts to compare, as one plan: how many pieces. */
static size_t plan_vmas(struct session *s, int n)
{
	struct vma_queue *q = s->queue;
	size_t k = 0;

	for (int i = 0; i < n; i++) {
		uint64_t start, end;

		if (!scan_clip(s->opts, &q->vma[i], &start, &end) ||
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
static int scan_vma_jobs(struct session *s, int i, struct part_iter *pi)
{
	struct compare_summary sum = { 0 };
	struct job_joiner j;
	uint64_t start, end;
	int err = 0;

	if (!vma_begin(s, i, &start, &end))
		return EXIT_OK;
	job_joiner_init(&j, witness_range, s->witness, s->geom.shift);
	for (;;) {
		struct compare_piece part;
		struct job_event ev;

		if (!pi->have || pi->i == job_parts(&pi->it)) {
			/* the plan has a part for every piece: there is one */
			pi->have = job_next(&pi->c, &pi->it);
			pi->k = pi->have && pi->i ? pi->k + 1 : 0;
			pi->i = 0;
		}
		part = job_part(&pi->it, s->queue->piece, pi->i++);
		do {
			jobs_next(s->jobs, pi->k, &ev);
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
		witness_discard(s->witness);
		jobs_cancel(s->jobs);
		return session_scan_failed(s, -err);
	}
	job_joiner_end(&j, &sum);
	vma_compared(s, i, start, end, &sum, true);
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
 * set-up and hand-over of every range cost more than they share (make
 * bench: --range over 10,000 small VMAs, Cin 30% more with two jobs than
 * with one; 1 GiB targets 17-31% more).
 */
static int scan_queue(struct session *s, int n)
{
	size_t pieces = plan_vmas(s, n);
	struct part_iter pi = { .have = false };
	bool split = s->nr_jobs > 1 &&
		     plan_pages(s->queue->piece, pieces, s->geom.shift) >=
		     JOBS_SPLIT_PAGES;
	int status = EXIT_OK;

	if (split && !s->jobs)
		status = session_open_jobs(s);
	if (status != EXIT_OK)
		return status;
	if (!split) {
		compare_plan(s->engine, s->queue->piece, pieces);
		for (int i = 0; status == EXIT_OK && i < n; i++)
			status = scan_vma(s, i);
	} else {
		jobs_plan(s->jobs, s->queue->piece, pieces);
		job_cursor_init(&pi.c, s->queue->piece, pieces, BATCH_PAGES,
				s->nr_jobs, s->geom.shift);
		for (int i = 0; status == EXIT_OK && i < n; i++)
			status = scan_vma_jobs(s, i, &pi);
		/* the queue is read again only once no job reads its pieces */
		jobs_wait(s->jobs);
	}
	/* every queued VMA is done before the queue is read again */
	if (status == EXIT_OK) {
		int err = witness_flush(s->witness);

		if (err)
			return session_scan_failed(s, -err);
	}
	return status;
}

/* ptwalk queries the scan has sent so far, its jobs' too. */
static uint64_t walk_queries(const struct session *s)
{
	uint64_t n = s->src.walk_queries;

	for (unsigned int i = 0; i < JOBS_MAX; i++)
		n += s->job_src[i].walk_queries;
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
static int check_alive(struct session *s, bool walked_after_eof)
{
	int err;

	if (s->no_task_query)
		return proc_alive_comm(s->src.pid, s->comm, sizeof(s->comm)) ?
		       0 : -ESRCH;
	if (walked_after_eof)
		return 0;
	err = ptwalk_query_ext(s->src.walk_fd[COMPARE_SCAN], s->src.pid, 0,
			       geom_page_size(&s->geom));
	return err == -ENXIO ? -ESRCH : err;
}

int scan_all(struct session *s)
{
	int status = EXIT_OK, n = 0, err;
	uint64_t queries_at_eof = UINT64_MAX;

	progress_start(s);
	for (;;) {
		uint64_t t0 = monotonic_ns();

		n = read_vmas(s);
		s->maps_ns += monotonic_ns() - t0;
		if (n <= 0)
			break;
		if (feof(s->maps))
			queries_at_eof = walk_queries(s);
		status = scan_queue(s, n);
		if (status != EXIT_OK)
			break;
	}
	if (status != EXIT_OK)
		return status;
	if (n < 0)
		return session_fail(s, FAIL_INTERNAL);
	if (ferror(s->maps))
		return session_scan_failed(s, errno ? errno : EIO);
	err = check_alive(s, queries_at_eof != UINT64_MAX &&
			     walk_queries(s) > queries_at_eof);
	return err ? session_scan_failed(s, -err) : EXIT_OK;
}
