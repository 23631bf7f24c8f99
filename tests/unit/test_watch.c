// SPDX-License-Identifier: GPL-2.0
/* engine/watch.c: readings of a range, and the changes between two. */
#include <string.h>
#include "unit.h"
#include "engine/watch.h"

#define START 0x7f0000000000ULL

static struct ptwalk_record_ext rec(uint64_t page, uint64_t pages,
				    uint64_t pfn, uint8_t kind, uint8_t level,
				    uint32_t flags, int32_t node)
{
	struct ptwalk_record_ext r = {
		.rec = { .start = START + page * 4096, .nr_pages = pages,
			 .pfn = kind == PTWALK_KIND_PRESENT ? pfn : PTWALK_PFN_NONE,
			 .swap_offset = kind == PTWALK_KIND_PRESENT ? 0 : pfn,
			 .kind = kind, .level = level, .flags = flags },
		.node = node,
	};
	return r;
}

#define W PTWALK_F_PRESENT | PTWALK_F_WRITE | PTWALK_F_PFN_VALID

struct seen {
	struct watch_change c[8];
	int n;
};

static void note(void *arg, const struct watch_change *c)
{
	struct seen *s = arg;

	s->c[s->n++] = *c;
}

static void fill_from_records(void **state)
{
	struct ptwalk_record_ext recs[] = {
		rec(0, 2, 0x100, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, W, 0),
		rec(2, 1, 0, PTWALK_KIND_NONE, PTWALK_LEVEL_NONE, 0, -1),
		rec(3, 1, 0x77, PTWALK_KIND_SWAP, PTWALK_LEVEL_PTE, 0, -1),
	};
	struct watch_page p[4];

	(void)state;
	watch_clear(p, 4);
	watch_fill(p, START, 4, 12, recs, 2);
	watch_fill(p, START, 4, 12, recs + 2, 1);	/* a second batch */
	assert_int_equal(p[0].pfn, 0x100);
	assert_int_equal(p[1].pfn, 0x101);
	assert_int_equal(p[1].node, 0);
	assert_int_equal(p[2].pfn, PTWALK_PFN_NONE);
	assert_int_equal(p[3].kind, PTWALK_KIND_SWAP);
	assert_int_equal(p[3].pfn, 0x77);
}

static void causes(void **state)
{
	struct watch_page none = { .pfn = PTWALK_PFN_NONE, .node = -1 };
	struct watch_page a = { .pfn = 0x100, .kind = PTWALK_KIND_PRESENT,
				.level = PTWALK_LEVEL_PTE, .flags = W,
				.node = 0 };
	struct watch_page b = a, ro = a, mig = a, swp = a, pmd = a;

	(void)state;
	b.pfn = 0x200;
	b.node = 1;
	assert_int_equal(watch_cause_of(&a, &b), WATCH_MIGRATED);
	b.node = 0;
	assert_int_equal(watch_cause_of(&a, &b), WATCH_MOVED);
	ro.flags &= ~PTWALK_F_WRITE;
	assert_int_equal(watch_cause_of(&ro, &b), WATCH_COW);
	assert_int_equal(watch_cause_of(&a, &none), WATCH_UNMAPPED);
	assert_int_equal(watch_cause_of(&none, &a), WATCH_FAULTED_IN);
	mig.kind = PTWALK_KIND_MIGRATION;
	assert_int_equal(watch_cause_of(&a, &mig), WATCH_MIGRATING);
	assert_int_equal(watch_cause_of(&mig, &b), WATCH_MIGRATED);
	swp.kind = PTWALK_KIND_SWAP;
	swp.pfn = 0x5;
	assert_int_equal(watch_cause_of(&a, &swp), WATCH_SWAPPED_OUT);
	assert_int_equal(watch_cause_of(&swp, &a), WATCH_SWAPPED_IN);
	pmd.level = PTWALK_LEVEL_PMD;
	pmd.pfn = 0x400;
	assert_int_equal(watch_cause_of(&a, &pmd), WATCH_THP_COLLAPSED);
	assert_int_equal(watch_cause_of(&pmd, &a), WATCH_THP_SPLIT);
	assert_false(watch_changed(&a, &a));
	assert_string_equal(watch_cause_name(WATCH_COW), "copy_on_write");
}

/*
 * Consecutive pages that moved to consecutive frames are one change; a
 * page that moved elsewhere starts another; unchanged pages end a run.
 */
static void diff_runs(void **state)
{
	struct watch_page old[5], new[5];
	struct seen s = { .n = 0 };

	(void)state;
	for (int k = 0; k < 5; k++) {
		old[k] = (struct watch_page){ .pfn = 0x100 + k, .node = 0,
			.kind = PTWALK_KIND_PRESENT, .level = PTWALK_LEVEL_PTE,
			.flags = W };
		new[k] = old[k];
	}
	new[0].pfn = 0x900;
	new[1].pfn = 0x901;
	new[2].pfn = 0x500;	/* not 0x902: a run of its own */
	new[0].node = new[1].node = new[2].node = 1;
	assert_int_equal(watch_diff(old, new, 5, START, 12, note, &s), 2);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.c[0].start, START);
	assert_int_equal(s.c[0].pages, 2);
	assert_int_equal(s.c[0].old.pfn, 0x100);
	assert_int_equal(s.c[0].new.pfn, 0x900);
	assert_int_equal(s.c[0].cause, WATCH_MIGRATED);
	assert_int_equal(s.c[1].start, START + 2 * 4096);
	assert_int_equal(s.c[1].pages, 1);
	assert_false(s.c[0].pinned_moved);
	/* nothing changed: nothing reported */
	s.n = 0;
	assert_int_equal(watch_diff(old, old, 5, START, 12, note, &s), 0);
	assert_int_equal(s.n, 0);
}

/* A DMA-pinned page that gets another frame is the finding. */
static void pinned_moved(void **state)
{
	struct watch_page old = { .pfn = 0x100, .node = 0,
				  .kind = PTWALK_KIND_PRESENT,
				  .level = PTWALK_LEVEL_PTE,
				  .flags = W | PTWALK_F_DMA_PINNED };
	struct watch_page new = old;
	struct seen s = { .n = 0 };

	(void)state;
	new.pfn = 0x200;
	watch_diff(&old, &new, 1, START, 12, note, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.c[0].pinned_moved);
	/* unmapped pinned page: not moved (the pin keeps the frame) */
	new = (struct watch_page){ .pfn = PTWALK_PFN_NONE, .node = -1 };
	s.n = 0;
	watch_diff(&old, &new, 1, START, 12, note, &s);
	assert_false(s.c[0].pinned_moved);
}

UNIT_MAIN("watch", UT(fill_from_records), UT(causes), UT(diff_runs),
	  UT(pinned_moved))
