// SPDX-License-Identifier: GPL-2.0
/*
 * module/extent.c, built in userspace against tests/unit/kshim: which runs
 * merge into one record, which start a new one, and how a chunk stops
 * (output full, budget spent) and hands out its last record.
 */
#include <stddef.h>
#include <stdint.h>
#include "unit.h"
#include <string.h>
#include "../../module/extent.h"

#define BASE	0x7f0000000000UL
#define PAGE	4096UL
#define MAX_OUT	8

struct chunk {
	struct ptwalk_cursor cur;
	struct ptwalk_record_ext out[MAX_OUT];
	struct ptwalk_extents x;
};

/* A query of @pages pages at BASE, and its first chunk. */
static void start(struct chunk *c, unsigned long pages, unsigned int max_out,
		  unsigned int budget)
{
	memset(c, 0, sizeof(*c));
	ptwalk_cursor_init(&c->cur, BASE, BASE + pages * PAGE);
	c->x.cur = &c->cur;
	c->x.out = c->out;
	c->x.max_out = max_out;
	c->x.budget = budget;
	c->x.area_start = BASE;
}

/* The next chunk of the same query: an empty output, a fresh budget. */
static void next_chunk(struct chunk *c, unsigned int budget)
{
	c->x.nr_out = 0;
	c->x.budget = budget;
	c->x.stop = false;
}

/* @n present 4 KiB pages at the cursor, from frame @pfn on. */
static struct ptwalk_record present(const struct chunk *c, uint64_t n,
				    uint64_t pfn)
{
	struct ptwalk_record r = {
		.start = c->cur.addr, .nr_pages = n, .pfn = pfn,
		.flags = PTWALK_F_PRESENT | PTWALK_F_WRITE | PTWALK_F_USER,
		.vm_flags = PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_ANON,
		.level = PTWALK_LEVEL_PTE, .kind = PTWALK_KIND_PRESENT,
	};

	return r;
}

/* @n pages at the cursor with nothing mapped. */
static struct ptwalk_record empty(const struct chunk *c, uint64_t n)
{
	struct ptwalk_record r = {
		.start = c->cur.addr, .nr_pages = n, .pfn = PTWALK_PFN_NONE,
		.vm_flags = PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_ANON,
	};

	return r;
}

/* @n non-present pages of @kind at the cursor, from swap offset @off on. */
static struct ptwalk_record swapped(const struct chunk *c, uint64_t n,
				    uint8_t kind, uint64_t off)
{
	struct ptwalk_record r = empty(c, n);

	r.level = PTWALK_LEVEL_PTE;
	r.kind = kind;
	r.swap_type = 1;
	r.swap_offset = off;
	return r;
}

/* @r as the walk hands it over: with a node (none: no struct page). */
static struct ptwalk_record_ext ext(struct ptwalk_record r, int32_t node)
{
	struct ptwalk_record_ext e = { .rec = r, .node = node };

	return e;
}

static void emit_on(struct chunk *c, struct ptwalk_record r, int32_t node)
{
	struct ptwalk_record_ext e = ext(r, node);

	assert_true(ptwalk_emit(&c->x, &e));
}

static void emit(struct chunk *c, struct ptwalk_record r)
{
	emit_on(c, r, PTWALK_NODE_NONE);
}

/* Ends the query: the pending record is handed out. */
static void finish(struct chunk *c)
{
	assert_int_equal(c->cur.addr, c->cur.end);
	ptwalk_extents_finish(&c->x);
	assert_true(ptwalk_cursor_done(&c->cur));
}

static void cursor_starts_empty(void **state)
{
	struct chunk c;

	(void)state;
	start(&c, 4, MAX_OUT, 100);
	assert_int_equal(c.cur.addr, BASE);
	assert_int_equal(c.cur.end, BASE + 4 * PAGE);
	assert_false(c.cur.have_pending);
	assert_false(ptwalk_cursor_done(&c.cur));
	ptwalk_cursor_init(&c.cur, BASE, BASE);
	assert_true(ptwalk_cursor_done(&c.cur));
}

static void following_frames_merge(void **state)
{
	struct chunk c;

	(void)state;
	start(&c, 6, MAX_OUT, 100);
	emit(&c, present(&c, 2, 0x100));
	emit(&c, present(&c, 3, 0x102));
	emit(&c, present(&c, 1, 0x105));
	assert_int_equal(c.x.nr_out, 0);	/* still growing */
	assert_int_equal(c.cur.addr, BASE + 6 * PAGE);
	finish(&c);
	assert_int_equal(c.x.nr_out, 1);
	assert_int_equal(c.out[0].rec.start, BASE);
	assert_int_equal(c.out[0].rec.nr_pages, 6);
	assert_int_equal(c.out[0].rec.pfn, 0x100);
}

static void a_frame_gap_or_step_back_breaks(void **state)
{
	struct chunk c;

	(void)state;
	start(&c, 5, MAX_OUT, 100);
	emit(&c, present(&c, 2, 0x100));
	emit(&c, present(&c, 1, 0x103));	/* 0x102 skipped */
	emit(&c, present(&c, 1, 0x103));	/* the same frame again */
	emit(&c, present(&c, 1, 0x100));	/* backwards */
	finish(&c);
	assert_int_equal(c.x.nr_out, 4);
	assert_int_equal(c.out[0].rec.nr_pages, 2);
	assert_int_equal(c.out[1].rec.start, BASE + 2 * PAGE);
	assert_int_equal(c.out[1].rec.pfn, 0x103);
	assert_int_equal(c.out[2].rec.pfn, 0x103);
	assert_int_equal(c.out[3].rec.pfn, 0x100);
}

static void frameless_runs_merge_only_with_frameless(void **state)
{
	struct chunk c;

	(void)state;
	start(&c, 10, MAX_OUT, 100);
	emit(&c, empty(&c, 2));
	emit(&c, empty(&c, 3));
	emit(&c, present(&c, 1, 0x100));
	emit(&c, empty(&c, 4));
	finish(&c);
	assert_int_equal(c.x.nr_out, 3);
	assert_int_equal(c.out[0].rec.nr_pages, 5);
	assert_true(c.out[0].rec.pfn == PTWALK_PFN_NONE);
	assert_int_equal(c.out[1].rec.pfn, 0x100);
	assert_int_equal(c.out[2].rec.nr_pages, 4);
}

/*
 * Records made of two runs of @kind, the second at swap offset @second
 * (the first at 0x40 for 2 pages).
 */
static unsigned int two_swap_runs(uint8_t kind, uint64_t second)
{
	struct chunk c;

	start(&c, 3, MAX_OUT, 100);
	emit(&c, swapped(&c, 2, kind, 0x40));
	emit(&c, swapped(&c, 1, kind, second));
	finish(&c);
	return c.x.nr_out;
}

static void swap_offsets_advance_per_kind(void **state)
{
	static const uint8_t advancing[] = {
		PTWALK_KIND_SWAP, PTWALK_KIND_MIGRATION,
		PTWALK_KIND_DEVICE_PRIVATE, PTWALK_KIND_DEVICE_EXCLUSIVE,
		PTWALK_KIND_HWPOISON,
	};
	static const uint8_t fixed[] = {
		PTWALK_KIND_MARKER, PTWALK_KIND_UNKNOWN,
	};
	size_t i;

	(void)state;
	/* Offsets that are frames or swap slots advance a page at a time. */
	for (i = 0; i < sizeof(advancing); i++) {
		assert_int_equal(two_swap_runs(advancing[i], 0x42), 1);
		assert_int_equal(two_swap_runs(advancing[i], 0x40), 2);
		assert_int_equal(two_swap_runs(advancing[i], 0x43), 2);
	}
	/* A marker's offset is a bit set, the same on every page. */
	for (i = 0; i < sizeof(fixed); i++) {
		assert_int_equal(two_swap_runs(fixed[i], 0x40), 1);
		assert_int_equal(two_swap_runs(fixed[i], 0x42), 2);
	}
}

enum change {
	SAME, FLAGS, VM_FLAGS, LEVEL, KIND, SWAP_TYPE, AREA,
};

/* Records made of two runs that follow each other but for @what. */
static unsigned int two_runs_but(enum change what)
{
	struct chunk c;
	struct ptwalk_record r;

	start(&c, 3, MAX_OUT, 100);
	emit(&c, swapped(&c, 2, PTWALK_KIND_SWAP, 0x40));
	r = swapped(&c, 1, PTWALK_KIND_SWAP, 0x42);
	switch (what) {
	case SAME:
		break;
	case FLAGS:
		r.flags |= PTWALK_F_SOFT_DIRTY;
		break;
	case VM_FLAGS:
		r.vm_flags |= PTWALK_VM_LOCKED;
		break;
	case LEVEL:
		r.level = PTWALK_LEVEL_PMD;
		break;
	case KIND:
		r.kind = PTWALK_KIND_MIGRATION;
		break;
	case SWAP_TYPE:
		r.swap_type = 2;
		break;
	case AREA:
		c.x.area_start = r.start;	/* a VMA starts here */
		break;
	}
	emit(&c, r);
	finish(&c);
	return c.x.nr_out;
}

static void any_other_difference_breaks(void **state)
{
	(void)state;
	assert_int_equal(two_runs_but(SAME), 1);
	assert_int_equal(two_runs_but(FLAGS), 2);
	assert_int_equal(two_runs_but(VM_FLAGS), 2);
	assert_int_equal(two_runs_but(LEVEL), 2);
	assert_int_equal(two_runs_but(KIND), 2);
	assert_int_equal(two_runs_but(SWAP_TYPE), 2);
	assert_int_equal(two_runs_but(AREA), 2);
}

enum frame_change {
	F_SAME, F_MEMTYPE, F_PINNED, F_NODE,
};

/* Records made of two present runs that follow each other but for @what. */
static unsigned int two_present_runs_but(enum frame_change what)
{
	struct chunk c;
	struct ptwalk_record r;
	int32_t node = 0;

	start(&c, 3, MAX_OUT, 100);
	r = present(&c, 2, 0x100);
	r.flags |= PTWALK_F_PFN_VALID;
	r.memtype = PTWALK_MEMTYPE_WB;
	emit_on(&c, r, 0);
	r = present(&c, 1, 0x102);
	r.flags |= PTWALK_F_PFN_VALID;
	r.memtype = PTWALK_MEMTYPE_WB;
	switch (what) {
	case F_SAME:
		break;
	case F_MEMTYPE:
		r.memtype = PTWALK_MEMTYPE_WC;
		break;
	case F_PINNED:
		r.flags |= PTWALK_F_DMA_PINNED;
		break;
	case F_NODE:
		node = 1;
		break;
	}
	emit_on(&c, r, node);
	finish(&c);
	return c.x.nr_out;
}

static void memtype_pinned_and_node_break_present_runs(void **state)
{
	(void)state;
	assert_int_equal(two_present_runs_but(F_SAME), 1);
	assert_int_equal(two_present_runs_but(F_MEMTYPE), 2);
	assert_int_equal(two_present_runs_but(F_PINNED), 2);
	assert_int_equal(two_present_runs_but(F_NODE), 2);
}

/* What the first run said of them is what the record says. */
static void memtype_and_node_reach_the_record(void **state)
{
	struct chunk c;
	struct ptwalk_record r;

	(void)state;
	start(&c, 4, MAX_OUT, 100);
	r = present(&c, 2, 0x100);
	r.memtype = PTWALK_MEMTYPE_UC_MINUS;
	emit_on(&c, r, 1);
	r = present(&c, 2, 0x102);
	r.memtype = PTWALK_MEMTYPE_UC_MINUS;
	emit_on(&c, r, 1);
	finish(&c);
	assert_int_equal(c.x.nr_out, 1);
	assert_int_equal(c.out[0].rec.nr_pages, 4);
	assert_int_equal(c.out[0].rec.memtype, PTWALK_MEMTYPE_UC_MINUS);
	assert_int_equal(c.out[0].node, 1);
}

static void full_output_stops_where_the_cursor_was(void **state)
{
	struct chunk c;
	struct ptwalk_record r;
	struct ptwalk_record_ext e;

	(void)state;
	start(&c, 4, 1, 100);
	emit(&c, present(&c, 1, 0x100));
	emit(&c, present(&c, 1, 0x200));	/* completes 0x100's record */
	assert_int_equal(c.x.nr_out, 1);
	assert_false(c.x.stop);
	emit(&c, present(&c, 1, 0x201));	/* merging needs no room */
	r = present(&c, 1, 0x300);
	e = ext(r, PTWALK_NODE_NONE);
	assert_false(ptwalk_emit(&c.x, &e));	/* 0x200's record has none */
	assert_true(c.x.stop);
	assert_int_equal(c.x.nr_out, 1);
	assert_int_equal(c.cur.addr, BASE + 3 * PAGE);
	assert_true(c.cur.have_pending);
	assert_int_equal(c.cur.pending.rec.pfn, 0x200);
	assert_int_equal(c.cur.pending.rec.nr_pages, 2);
	assert_int_equal(c.out[0].rec.pfn, 0x100);

	/* The next chunk resumes with the run that did not fit. */
	next_chunk(&c, 100);
	emit(&c, r);
	assert_int_equal(c.x.nr_out, 1);
	assert_int_equal(c.out[0].rec.pfn, 0x200);
	assert_int_equal(c.out[0].rec.start, BASE + PAGE);
	assert_int_equal(c.out[0].rec.nr_pages, 2);
	assert_false(c.x.stop);
}

static void a_record_grows_across_chunks(void **state)
{
	struct chunk c;

	(void)state;
	start(&c, 4, MAX_OUT, 100);
	emit(&c, present(&c, 2, 0x100));
	ptwalk_extents_finish(&c.x);		/* not at the end: keeps it */
	assert_int_equal(c.x.nr_out, 0);
	assert_true(c.cur.have_pending);
	next_chunk(&c, 100);
	emit(&c, present(&c, 2, 0x102));
	finish(&c);
	assert_int_equal(c.x.nr_out, 1);
	assert_int_equal(c.out[0].rec.nr_pages, 4);
}

static void budget_counts_runs_and_charges(void **state)
{
	struct chunk c;

	(void)state;
	start(&c, 8, MAX_OUT, 3);
	emit(&c, present(&c, 1, 0x100));
	assert_int_equal(c.x.budget, 2);
	assert_false(c.x.stop);
	ptwalk_charge(&c.x, 1);			/* a run of 2 PTEs examined */
	assert_int_equal(c.x.budget, 1);
	assert_false(c.x.stop);
	emit(&c, present(&c, 1, 0x101));	/* the last entry allowed */
	assert_int_equal(c.x.budget, 0);
	assert_true(c.x.stop);
	emit(&c, present(&c, 1, 0x102));	/* the caller ignored stop */
	assert_int_equal(c.x.budget, 0);	/* no wrap-around */
	assert_true(c.x.stop);

	next_chunk(&c, 4);
	ptwalk_charge(&c.x, 3);
	assert_false(c.x.stop);
	ptwalk_charge(&c.x, 1000);		/* more than is left */
	assert_int_equal(c.x.budget, 0);
	assert_true(c.x.stop);
}

static void finish_needs_the_end_and_room(void **state)
{
	struct chunk c;

	(void)state;
	start(&c, 2, 1, 100);
	emit(&c, present(&c, 1, 0x100));
	emit(&c, present(&c, 1, 0x300));
	assert_int_equal(c.x.nr_out, 1);
	ptwalk_extents_finish(&c.x);		/* at the end, but out is full */
	assert_int_equal(c.x.nr_out, 1);
	assert_true(c.cur.have_pending);
	assert_false(ptwalk_cursor_done(&c.cur));

	next_chunk(&c, 100);
	finish(&c);
	assert_int_equal(c.x.nr_out, 1);
	assert_int_equal(c.out[0].rec.pfn, 0x300);
	assert_false(c.cur.have_pending);
	ptwalk_extents_finish(&c.x);		/* nothing left: no-op */
	assert_int_equal(c.x.nr_out, 1);
}

UNIT_MAIN("extent", UT(cursor_starts_empty), UT(following_frames_merge),
	  UT(a_frame_gap_or_step_back_breaks),
	  UT(frameless_runs_merge_only_with_frameless),
	  UT(swap_offsets_advance_per_kind), UT(any_other_difference_breaks),
	  UT(memtype_pinned_and_node_break_present_runs),
	  UT(memtype_and_node_reach_the_record),
	  UT(full_output_stops_where_the_cursor_was),
	  UT(a_record_grows_across_chunks), UT(budget_counts_runs_and_charges),
	  UT(finish_needs_the_end_and_room))
