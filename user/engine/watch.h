/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --watch: a range's pages read again and again, and each change
 * of a page's frame or state between two readings, with its cause where
 * the evidence shows one.  Pure: the readings (ptwalk's extended records
 * and pagemap's entries) come from the caller (cmd/mode_watch.c), the
 * changes go to a callback.
 *
 * A reading is one struct watch_page per page of the range.  A change is
 * consecutive pages that changed the same way: the same cause,
 * the old frames consecutive and the new ones too.
 */
#ifndef PTCOMPARE_ENGINE_WATCH_H
#define PTCOMPARE_ENGINE_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "module/ptwalk_abi.h"

/*
 * The pages --watch follows at most: 1 GiB of 4 KiB pages, 16 GiB of
 * 64 KiB ones; 8 MiB a reading.
 */
#define WATCH_MAX_PAGES (1UL << 18)

struct watch_page {
	uint64_t pfn;		/* ptwalk's frame, or swap offset; PFN_NONE */
	uint64_t pm_pfn;	/* pagemap's frame, PTWALK_PFN_NONE if none */
	uint32_t flags;		/* PTWALK_F_* */
	int16_t node;		/* PTWALK_NODE_NONE without a struct page */
	uint8_t kind;		/* enum ptwalk_kind */
	uint8_t level;		/* enum ptwalk_level */
};

enum watch_cause {
	WATCH_FAULTED_IN,	/* nothing there before: first touch */
	WATCH_UNMAPPED,		/* a frame before, nothing now */
	WATCH_SWAPPED_OUT,
	WATCH_SWAPPED_IN,
	WATCH_MIGRATING,	/* a migration entry seen */
	WATCH_MIGRATED,		/* a new frame on another node */
	WATCH_THP_COLLAPSED,	/* PTEs became one huge leaf */
	WATCH_THP_SPLIT,	/* a huge leaf became PTEs */
	WATCH_COW,		/* read-only frame replaced by a writable copy */
	WATCH_MOVED,		/* a new frame, nothing else says why */
	WATCH_STATE,		/* same frame, another kind (e.g. a marker) */
	NR_WATCH_CAUSES
};

const char *watch_cause_name(enum watch_cause c);

/* pages pages from start, the first from old[0] to new[0]. */
struct watch_change {
	uint64_t start;
	uint64_t pages;
	struct watch_page old, new;
	enum watch_cause cause;
	bool pinned_moved;	/* a DMA-pinned page got another frame */
};

/* Every page of a reading as nothing mapped, before it is filled. */
void watch_clear(struct watch_page *pages, size_t n);

/*
 * Fills the reading of [start, start + n pages) with ptwalk's records
 * recs[0 .. nr) (a batch of a query's answer: call once per batch); the
 * pagemap side is filled separately (watch_set_pagemap()).  page_shift:
 * bytes per page.  Pages no record covers stay as watch_clear() left them.
 */
void watch_fill(struct watch_page *pages, uint64_t start, size_t n,
		unsigned int page_shift, const struct ptwalk_record_ext *recs,
		size_t nr);

/* pagemap's raw entries for the same pages. */
void watch_set_pagemap(struct watch_page *pages, size_t n,
		       const uint64_t *raw);

/* Whether page p changed from a to b in a way --watch reports. */
bool watch_changed(const struct watch_page *a, const struct watch_page *b);

/* The cause of a change from a to b (watch_changed() true). */
enum watch_cause watch_cause_of(const struct watch_page *a,
				const struct watch_page *b);

/*
 * Every change from old to new over n pages from start, as runs, in
 * address order: fn(arg, change) for each.  Returns the number of runs.
 */
size_t watch_diff(const struct watch_page *old, const struct watch_page *new,
		  size_t n, uint64_t start, unsigned int page_shift,
		  void (*fn)(void *arg, const struct watch_change *c),
		  void *arg);

#endif /* PTCOMPARE_ENGINE_WATCH_H */
