/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --jobs N: a plan's pieces cut into address-ordered items that N jobs
 * compare at once, and the parts put back together in address order so
 * that the report is the one a single job writes, byte for byte.  Pure:
 * the threads, their channels and their sources are cmd/'s.
 *
 * An item is consecutive pieces of a plan, its first and last possibly
 * parts of a piece.  A piece is cut only at a multiple of the engine's
 * batch from its start: every batch, and so every re-read, is the one a
 * single job reads.  Each part is compared on its own (compare_piece()
 * flushes its last range), so the parts of a piece are joined again:
 * job_joiner pushes each part's ranges through a range merger, which
 * merges the two ranges that meet at a cut exactly when one job would
 * have, and adds up the parts' summaries.
 */
#ifndef PTCOMPARE_JOBS_H
#define PTCOMPARE_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include "engine/compare.h"
#include "engine/ranges.h"
#include "engine/window.h"

#include "model/defaults.h"

/* What job counts are allowed: memory is one engine (a batch) per job. */
#define JOBS_MAX	PTCOMPARE_JOBS_MAX
/* Pieces in one plan at most (a job copies an item's parts: that many). */
#define JOBS_PLAN_MAX	512

/* Items of a plan, in address order, one at a time. */
struct job_cursor {
	const struct compare_piece *pieces;
	size_t n;
	size_t batch;		/* the engine's: cuts fall on its multiples */
	unsigned int shift;	/* the kernel's page shift */
	uint64_t target;	/* pages per item (at most batch) */
	size_t piece;		/* where the next item starts */
	uint64_t addr;
};

struct job_item {
	size_t first, last;	/* pieces[first..last] */
	uint64_t start;		/* inside pieces[first] */
	uint64_t end;		/* inside pieces[last] */
};

/*
 * Items of about batch pages, fewer when the plan is small so that each
 * of jobs jobs has one.
 */
void job_cursor_init(struct job_cursor *c, const struct compare_piece *pieces,
		     size_t n, size_t batch, unsigned int jobs,
		     unsigned int page_shift);

/* The next item: false when the plan is done. */
bool job_next(struct job_cursor *c, struct job_item *it);

/* Parts of it: how many, and part i of them. */
size_t job_parts(const struct job_item *it);
struct compare_piece job_part(const struct job_item *it,
			      const struct compare_piece *pieces, size_t i);

/* One piece put back together from its parts, in address order. */
struct job_joiner {
	struct range_merger m;
	struct compare_summary sum;
};

void job_joiner_init(struct job_joiner *j, range_emit_fn emit, void *arg,
		     unsigned int page_shift);
/* A range of the current part (as compare_piece() emitted it). */
void job_joiner_range(struct job_joiner *j, const struct verdict_range *r);
/* A part of the piece is done: its summary. */
void job_joiner_part(struct job_joiner *j, const struct compare_summary *part);
/* The piece's last part is in: flushes, and its summary. */
void job_joiner_end(struct job_joiner *j, struct compare_summary *sum);

#endif /* PTCOMPARE_JOBS_H */
