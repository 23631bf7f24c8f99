/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merges per-page verdicts into ranges: adjacent pages join only when their
 * class and level are equal and both sides' PFN sequences continue.  Pure,
 * constant memory: finished ranges go to a callback.
 */
#ifndef PTCOMPARE_RANGES_H
#define PTCOMPARE_RANGES_H

#include <stdbool.h>
#include <stdint.h>
#include "model/verdict.h"
#include "module/ptwalk_abi.h"

/*
 * Flags a range keeps for all its pages: the witnesses judge a range by
 * its first page's, so pages that differ in these start a new range.
 */
#define RANGE_SAME_WALK_FLAGS (PTWALK_F_PFN_VALID | PTWALK_F_ZERO_PAGE | \
			       PTWALK_F_HUGE_ZERO | PTWALK_F_COMPOUND |    \
			       PTWALK_F_SPECIAL | PTWALK_F_DMA_PINNED)

struct range_merger {
	bool have;
	struct verdict_range cur;
	range_emit_fn emit;
	void *arg;
	unsigned int shift;	/* the kernel's page shift */
};

void range_merger_init(struct range_merger *m, range_emit_fn emit, void *arg,
		       unsigned int page_shift);
void range_merger_push(struct range_merger *m, const struct page_verdict *v);
/*
 * Pushes pages pages at once: v is the first, and each next page continues
 * the one before it (next address, same class and level, both frames + 1
 * or both sides without a frame), as range_merger_push() would find.
 */
void range_merger_push_run(struct range_merger *m,
			   const struct page_verdict *v, uint64_t pages);
void range_merger_flush(struct range_merger *m);

#endif /* PTCOMPARE_RANGES_H */
