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
#include "engine/classify.h"

#define NO_PFN UINT64_MAX	/* that side has no frame for the page */

/* What each side said about a page beyond its PFN, for the report. */
enum pagemap_state { PM_STATE_NONE, PM_STATE_PRESENT, PM_STATE_SWAPPED };

struct page_detail {
	uint8_t walk_kind;		/* enum ptwalk_kind */
	uint8_t walk_swap_type;
	uint8_t pm_state;		/* enum pagemap_state */
	uint8_t pm_swap_type;
	uint64_t walk_swap_offset;
	uint64_t pm_swap_offset;
	/* ptwalk's record for the page, for the witnesses (engine/witness.c) */
	struct walk_bits {
		uint32_t flags;		/* PTWALK_F_* */
		uint64_t vm_flags;	/* PTWALK_VM_* */
	} walk;
};

/*
 * Flags a range keeps for all its pages: the witnesses judge a range by
 * its first page's, so pages that differ in these start a new range.
 */
#define RANGE_SAME_WALK_FLAGS (PTWALK_F_PFN_VALID | PTWALK_F_ZERO_PAGE | \
			       PTWALK_F_HUGE_ZERO | PTWALK_F_COMPOUND |    \
			       PTWALK_F_SPECIAL)

struct page_verdict {
	uint64_t addr;
	enum page_class cls;
	uint8_t level;		/* enum ptwalk_level */
	uint64_t walk_pfn;
	uint64_t pagemap_pfn;
	struct page_detail detail;
};

struct verdict_range {
	uint64_t start;
	uint64_t pages;
	enum page_class cls;
	uint8_t level;
	uint64_t walk_pfn;	/* of the first page */
	uint64_t pagemap_pfn;	/* of the first page */
	struct page_detail detail;	/* of the first page */
};

typedef void (*range_emit_fn)(const struct verdict_range *r, void *arg);

struct range_merger {
	bool have;
	struct verdict_range cur;
	range_emit_fn emit;
	void *arg;
};

void range_merger_init(struct range_merger *m, range_emit_fn emit, void *arg);
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
