/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --jobs N: N threads, each with its own pagemap fd, its own two ptwalk
 * sessions and its own engine, compare the items of a plan (engine/jobs.h)
 * at once; item k goes to job k % N.  Each job hands its ranges and part
 * summaries to the main thread through a bounded channel of its own, and
 * the main thread takes them item by item in address order, so what comes
 * out is what one job gives.  Memory: one engine and one channel per job.
 */
#ifndef PTCOMPARE_CMD_JOB_POOL_H
#define PTCOMPARE_CMD_JOB_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include "engine/jobs.h"

struct job_pool;

/* What a job hands over: a range of the current part, or its end. */
struct job_event {
	bool part_end;
	int err;			/* part_end: compare_piece()'s result */
	union {
		struct verdict_range range;	/* !part_end */
		struct compare_summary sum;	/* part_end */
	};
};

/*
 * Starts jobs threads; io[i] is job i's way to pagemap and ptwalk (for
 * ptcompare, io/source.h's proc_source_io() over sources of its own; for
 * the unit tests, a fake), copied, its ctx kept by the caller until
 * jobs_stop().  NULL when out of memory or threads.
 */
struct job_pool *jobs_start(unsigned int jobs, size_t batch,
			    const struct compare_io *io,
			    unsigned int page_shift);

/* Hands the jobs a plan (pieces kept by the caller until jobs_wait()). */
void jobs_plan(struct job_pool *r, const struct compare_piece *pieces,
	       size_t n);

/* The next event of item k (in order; blocks until it is there). */
void jobs_next(struct job_pool *r, size_t k, struct job_event *ev);

/* Waits until every job is done with the plan (after an error, too). */
void jobs_wait(struct job_pool *r);

/* Makes the jobs drop the rest of the plan (an error was met). */
void jobs_cancel(struct job_pool *r);

/* Ends the threads and frees the run (the sources stay the caller's). */
void jobs_stop(struct job_pool *r);

#endif /* PTCOMPARE_CMD_JOB_POOL_H */
