/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Extent building: runs of pages come in from the walk in address order
 * and leave as ptwalk_record_exts, a run merged into the one before it when
 * nothing but its position differs.  A range query is walked in chunks,
 * the mmap lock dropped between them to copy records out; the cursor keeps
 * where the query stands and the record still growing from one chunk to
 * the next.  Nothing here touches the kernel's mm: tests/unit/test_extent.c
 * builds extent.c in userspace.
 */
#ifndef PTWALK_EXTENT_H
#define PTWALK_EXTENT_H

#include <linux/types.h>
#include "ptwalk_abi.h"

/* Where a query stands between two chunks; lives in the session. */
struct ptwalk_cursor {
	unsigned long addr;		/* next address to examine */
	unsigned long end;		/* exclusive end of the query */
	bool have_pending;		/* pending holds a run still growing */
	unsigned long pending_area;	/* start of the VMA (or gap) of pending */
	struct ptwalk_record_ext pending;
};

/* What one chunk produces, and what it may still examine. */
struct ptwalk_extents {
	struct ptwalk_cursor *cur;
	struct ptwalk_record_ext *out;	/* finished records of this chunk */
	unsigned int nr_out;
	unsigned int max_out;
	unsigned int budget;		/* entries left before yielding */
	bool stop;			/* out is full or budget is spent */
	/* Start of the VMA (or gap) runs come from: areas never merge. */
	unsigned long area_start;
};

void ptwalk_cursor_init(struct ptwalk_cursor *cur, unsigned long start,
			unsigned long end);

/* The range is walked and its last record handed out. */
bool ptwalk_cursor_done(const struct ptwalk_cursor *cur);

/*
 * Adds @run, which must start at the cursor, and counts it as one entry
 * examined.  Returns false, leaving the cursor where it was, when the run
 * starts a new record and out has no room for the one it completes: the
 * chunk stops (x->stop) and the next one resumes there.  Sets x->stop also
 * when the budget is spent.
 */
bool ptwalk_emit(struct ptwalk_extents *x,
		 const struct ptwalk_record_ext *run);

/*
 * Counts @entries more examined against the chunk's budget: runs of entries
 * found without a record each (a PTE run) cost what they examined.
 */
void ptwalk_charge(struct ptwalk_extents *x, unsigned int entries);

/* Moves the pending record to out once the whole range is walked. */
void ptwalk_extents_finish(struct ptwalk_extents *x);

#endif /* PTWALK_EXTENT_H */
