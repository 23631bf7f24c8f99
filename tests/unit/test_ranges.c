// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdint.h>
#include "unit.h"
#include "geom.h"
#include "engine/ranges.h"

#define BASE 0x10000000ULL
#define MAX_OUT 16

struct sink {
	struct verdict_range r[MAX_OUT];
	int n;
};

static void collect(const struct verdict_range *r, void *arg)
{
	struct sink *s = arg;

	assert_true(s->n < MAX_OUT);
	s->r[s->n++] = *r;
}

static void push(struct range_merger *m, unsigned int page, enum page_class c,
		 uint8_t level, uint64_t walk, uint64_t pm)
{
	struct page_verdict v = {
		.addr = BASE + page * 4096ULL, .cls = c, .level = level,
		.walk_pfn = walk, .pagemap_pfn = pm,
	};

	range_merger_push(m, &v);
}

static void contiguous_pages_merge(void **state)
{
	struct range_merger m;
	struct sink s = { .n = 0 };
	unsigned int i;

	(void)state;
	range_merger_init(&m, collect, &s, UT_SHIFT_4K);
	for (i = 0; i < 512; i++)
		push(&m, i, CLASS_MATCH, 2, 0x200 + i, 0x200 + i);
	range_merger_flush(&m);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.r[0].start, BASE);
	assert_int_equal(s.r[0].pages, 512);
	assert_int_equal(s.r[0].walk_pfn, 0x200);
	range_merger_flush(&m);		/* idempotent */
	assert_int_equal(s.n, 1);
}

static void breaks(void **state)
{
	struct range_merger m;
	struct sink s = { .n = 0 };

	(void)state;
	range_merger_init(&m, collect, &s, UT_SHIFT_4K);
	push(&m, 0, CLASS_MATCH, 1, 0x10, 0x10);
	push(&m, 1, CLASS_MATCH, 1, 0x12, 0x12);	/* walk pfn jumps */
	push(&m, 2, CLASS_MATCH, 1, 0x13, 0x99);	/* pagemap pfn jumps */
	push(&m, 3, CLASS_MISMATCH, 1, 0x14, 0x9a);	/* class changes */
	push(&m, 4, CLASS_MISMATCH, 2, 0x15, 0x9b);	/* level changes */
	push(&m, 6, CLASS_MISMATCH, 2, 0x17, 0x9d);	/* address gap */
	range_merger_flush(&m);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.r[5].start, BASE + 6 * 4096);
}

static void no_pfn_sides(void **state)
{
	struct range_merger m;
	struct sink s = { .n = 0 };

	(void)state;
	range_merger_init(&m, collect, &s, UT_SHIFT_4K);
	push(&m, 0, CLASS_NOT_PRESENT, 0, NO_PFN, NO_PFN);
	push(&m, 1, CLASS_NOT_PRESENT, 0, NO_PFN, NO_PFN);
	push(&m, 2, CLASS_PFNMAP_HIDDEN, 1, 0xfd000, NO_PFN);
	push(&m, 3, CLASS_PFNMAP_HIDDEN, 1, 0xfd001, NO_PFN);
	push(&m, 4, CLASS_PFNMAP_HIDDEN, 1, 0xfd002, 0x5);	/* a side appears */
	range_merger_flush(&m);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.r[0].pages, 2);
	assert_int_equal(s.r[1].pages, 2);
	assert_true(s.r[1].pagemap_pfn == NO_PFN);
	assert_int_equal(s.r[2].pages, 1);
}

UNIT_MAIN("ranges", UT(contiguous_pages_merge), UT(breaks), UT(no_pfn_sides))
