// SPDX-License-Identifier: GPL-2.0
/*
 * --jobs' threads and channels (cmd/job_pool.c) against a fake pagemap and
 * ptwalk that every job reads at once: the events of each part come in
 * address order, ranges before the part's end, as one engine gives them;
 * more ranges than a block and than a channel hold get through; an error
 * of a job ends its part; a cancelled plan leaves nothing behind for the
 * next, and the threads stop whatever they were doing.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include "unit.h"
#include "geom.h"
#include "cmd/job_pool.h"
#include "engine/compare.h"
#include "engine/jobs.h"
#include "parse/pagemap.h"

#define BASE	0x7f0000000000ULL
#define PG	4096ULL
#define ANON	(PTWALK_VM_ANON | PTWALK_VM_READ | PTWALK_VM_WRITE)
#define NJOBS	3
/* more ranges in one part than a channel holds (job_pool.c: 2,048) */
#define BIG	4096

/*
 * The world, a function of the page number: two present pages of frames
 * two apart (one range each) then a page not present, over and over, the
 * same for pagemap and ptwalk.  No page is a mismatch: only the order
 * and the count of the ranges matter here.
 */
static bool present(uint64_t page)
{
	return page % 3 != 2;
}

static uint64_t pfn_of(uint64_t page)
{
	return 0x10000 + 2 * page;
}

/* One job's fake: its own streams; fail_addr is set before a plan. */
struct fake {
	uint64_t fail_addr;	/* a pagemap read over it: -EIO; 0: none */
	struct {
		uint64_t next, end;
	} st[NR_COMPARE_STREAMS];
};

static int fake_pagemap(void *ctx, uint64_t addr, size_t n, uint64_t *out)
{
	struct fake *f = ctx;

	if (f->fail_addr && f->fail_addr >= addr && f->fail_addr < addr + n * PG)
		return -EIO;
	for (size_t i = 0; i < n; i++) {
		uint64_t page = (addr - BASE) / PG + i;

		out[i] = present(page) ? PM_PRESENT | PM_MMAP_EXCLUSIVE |
					 pfn_of(page) : 0;
	}
	return 0;
}

static int fake_query(void *ctx, enum compare_stream s, uint64_t start,
		      uint64_t end)
{
	struct fake *f = ctx;

	f->st[s].next = start;
	f->st[s].end = end;
	return 0;
}

/* One record a page, up to max a read. */
static ssize_t fake_read(void *ctx, enum compare_stream s,
			 struct ptwalk_record_ext *out, size_t max)
{
	struct fake *f = ctx;
	size_t n = 0;

	for (; n < max && f->st[s].next < f->st[s].end; n++) {
		uint64_t page = (f->st[s].next - BASE) / PG;
		bool p = present(page);

		out[n] = (struct ptwalk_record_ext){
			.rec = {
				.start = f->st[s].next, .nr_pages = 1,
				.pfn = p ? pfn_of(page) : PTWALK_PFN_NONE,
				.kind = p ? PTWALK_KIND_PRESENT :
					    PTWALK_KIND_NONE,
				.level = p ? PTWALK_LEVEL_PTE :
					     PTWALK_LEVEL_NONE,
				.vm_flags = ANON,
			},
			.node = PTWALK_NODE_NONE,
		};
		f->st[s].next += PG;
	}
	return (ssize_t)n;
}

static void fake_io(struct fake *f, struct compare_io *io)
{
	*io = (struct compare_io){
		.read_pagemap = fake_pagemap, .walk_query = fake_query,
		.walk_read = fake_read, .ctx = f,
	};
}

/* Pages a summary counts, whatever their class. */
static uint64_t total(const struct compare_summary *sum)
{
	uint64_t n = 0;

	for (int c = 0; c < NR_CLASSES; c++)
		n += sum->pages[c];
	return n;
}

/* NJOBS jobs over fakes of their own. */
struct rig {
	struct fake fake[NJOBS];
	struct job_pool *pool;
};

/*
 * Starts the jobs, their pagemap failing at fail_addr (0: nowhere), and
 * hands them the plan p[0..n).
 */
static void rig_start(struct rig *r, size_t batch, uint64_t fail_addr,
		      const struct compare_piece *p, size_t n)
{
	struct compare_io io[NJOBS];

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < NJOBS; i++) {
		r->fake[i].fail_addr = fail_addr;
		fake_io(&r->fake[i], &io[i]);
	}
	r->pool = jobs_start(NJOBS, batch, io, UT_SHIFT_4K);
	assert_non_null(r->pool);
	jobs_plan(r->pool, p, n);
}

static struct compare_piece piece(uint64_t first, uint64_t pages)
{
	return (struct compare_piece){ BASE + first * PG,
				       BASE + (first + pages) * PG };
}

/* What a part gave: its ranges (at most a range a page), summary, error. */
struct part_out {
	struct verdict_range *r;	/* BIG of them */
	size_t n;
	struct compare_summary sum;
	int err;
};

static void part_out_init(struct part_out *o)
{
	memset(o, 0, sizeof(*o));
	o->r = calloc(BIG, sizeof(*o->r));
	assert_non_null(o->r);
}

static void add_range(const struct verdict_range *vr, void *arg)
{
	struct part_out *o = arg;

	assert_true(o->n < BIG);
	o->r[o->n++] = *vr;
}

/* The part as one engine of its own compares it: the oracle. */
static void one_engine(struct compare_piece part, size_t batch,
		       struct part_out *o)
{
	struct fake f = { 0 };
	struct compare_io io;
	struct compare_engine *e;

	fake_io(&f, &io);
	e = compare_new(&io, batch, UT_SHIFT_4K);
	assert_non_null(e);
	part_out_init(o);
	o->err = compare_piece(e, part.start, part.end, &o->sum, add_range, o);
	compare_free(e);
}

/* The events of item k's next part, as the main thread takes them. */
static void take_part(struct job_pool *pool, size_t k, struct part_out *o)
{
	struct job_event ev;

	part_out_init(o);
	for (;;) {
		jobs_next(pool, k, &ev);
		if (ev.part_end)
			break;
		add_range(&ev.range, o);
	}
	o->sum = ev.sum;
	o->err = ev.err;
}

/* Field by field: the padding of a verdict_range holds anything. */
static void assert_same_ranges(const struct part_out *a,
			       const struct part_out *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->r[i].start, b->r[i].start);
		assert_int_equal(a->r[i].pages, b->r[i].pages);
		assert_int_equal(a->r[i].cls, b->r[i].cls);
		assert_int_equal(a->r[i].walk_pfn, b->r[i].walk_pfn);
		assert_int_equal(a->r[i].pagemap_pfn, b->r[i].pagemap_pfn);
	}
	assert_memory_equal(a->sum.pages, b->sum.pages, sizeof(a->sum.pages));
	assert_int_equal(a->sum.rereads, b->sum.rereads);
}

/*
 * Takes every part of the plan in address order, as cmd/scan.c does, and
 * checks each against one engine: the jobs hand over what one job gives.
 * Returns the number of parts.
 */
static size_t take_plan(struct job_pool *pool, const struct compare_piece *p,
			size_t n, size_t batch)
{
	struct job_cursor c;
	struct job_item it;
	size_t k = 0, parts = 0;

	job_cursor_init(&c, p, n, batch, NJOBS, UT_SHIFT_4K);
	for (; job_next(&c, &it); k++) {
		for (size_t i = 0; i < job_parts(&it); i++, parts++) {
			struct part_out got, want;

			take_part(pool, k, &got);
			one_engine(job_part(&it, p, i), batch, &want);
			assert_int_equal(got.err, 0);
			assert_same_ranges(&got, &want);
			free(got.r);
			free(want.r);
		}
	}
	return parts;
}

/*
 * Cancels the plan in progress, waits for the jobs, and checks that they
 * compare the next one, p[0..n), whole (parts of them), then stops them.
 */
static void cancel_then_plan(struct rig *r, const struct compare_piece *p,
			     size_t n, size_t batch, size_t parts)
{
	jobs_cancel(r->pool);
	jobs_wait(r->pool);
	jobs_plan(r->pool, p, n);
	assert_int_equal(take_plan(r->pool, p, n, batch), parts);
	jobs_wait(r->pool);
	jobs_stop(r->pool);
}

/* Items over several pieces and jobs: every part, in address order. */
static void parts_in_address_order(void **state)
{
	const size_t batch = 64;
	struct compare_piece p[] = {
		piece(0, 10), piece(20, 200), piece(300, 7), piece(400, 129),
		piece(600, 1),
	};
	struct rig r;

	(void)state;
	rig_start(&r, batch, 0, p, 5);
	/* a part at least of every piece; the 200 and 129 pages are cut */
	assert_true(take_plan(r.pool, p, 5, batch) >= 5 + 2);
	jobs_wait(r.pool);
	/* the same jobs take the next plan */
	jobs_plan(r.pool, p + 1, 2);
	take_plan(r.pool, p + 1, 2, batch);
	jobs_wait(r.pool);
	jobs_stop(r.pool);
}

/*
 * One part of BIG ranges: more than a block (256) and than the channel
 * (2,048) hold, so the job waits for the main thread and hands over block
 * after block; every range arrives, in order.
 */
static void more_ranges_than_the_channel(void **state)
{
	struct compare_piece p[] = { piece(0, BIG) };
	struct part_out got;
	struct rig r;

	(void)state;
	rig_start(&r, BIG, 0, p, 1);
	take_part(r.pool, 0, &got);
	assert_int_equal(got.err, 0);
	assert_int_equal(total(&got.sum), BIG);
	/* one range a page: the frames of neighbours are two apart */
	assert_int_equal(got.n, BIG);
	for (size_t i = 0; i < got.n; i++)
		assert_int_equal(got.r[i].start, BASE + i * PG);
	free(got.r);
	jobs_wait(r.pool);
	jobs_stop(r.pool);
}

/*
 * A pagemap read that fails in the third item: the items before it come
 * whole, its part ends with the error, and after jobs_cancel() and
 * jobs_wait() the jobs take a plan again.
 */
static void error_from_a_job(void **state)
{
	const size_t batch = 32;
	struct compare_piece p[] = { piece(0, 32 * 6) };
	struct compare_piece after[] = { piece(32 * 6, 32 * 3) };
	struct job_cursor c;
	struct job_item it;
	struct rig r;
	size_t k;

	(void)state;
	/* in item 2, job 2's; none of the other items holds it */
	rig_start(&r, batch, BASE + (2 * 32 + 5) * PG, p, 1);
	job_cursor_init(&c, p, 1, batch, NJOBS, UT_SHIFT_4K);
	for (k = 0; job_next(&c, &it); k++) {
		struct part_out got;

		take_part(r.pool, k, &got);
		free(got.r);
		if (k < 2) {
			assert_int_equal(got.err, 0);
			assert_int_equal(total(&got.sum), 32);
			continue;
		}
		assert_int_equal(got.err, -EIO);
		break;
	}
	assert_int_equal(k, 2);
	/* a plan beside the failing address: three items of their own */
	cancel_then_plan(&r, after, 1, batch, 3);
}

/*
 * Cancelled after one range, every job blocked on a full channel: the
 * jobs drop the plan, jobs_wait() returns, and the next plan's first
 * event is its own, nothing of the old plan left on a channel.
 */
static void cancel_drops_the_plan(void **state)
{
	struct compare_piece old[] = { piece(0, BIG), piece(BIG, BIG),
				       piece(2 * BIG, BIG) };
	struct compare_piece next[] = { piece(5 * BIG, 10) };
	struct job_event ev;
	struct rig r;

	(void)state;
	rig_start(&r, BIG, 0, old, 3);
	jobs_next(r.pool, 0, &ev);
	assert_false(ev.part_end);
	assert_int_equal(ev.range.start, old[0].start);
	cancel_then_plan(&r, next, 1, BIG, 1);
}

/* Stopped in the middle of a plan nobody reads: the threads end. */
static void stop_mid_plan(void **state)
{
	struct compare_piece p[] = { piece(0, BIG), piece(BIG, BIG),
				     piece(2 * BIG, BIG), piece(3 * BIG, BIG) };
	struct rig r;

	(void)state;
	rig_start(&r, BIG, 0, p, 4);
	jobs_stop(r.pool);
}

UNIT_MAIN("job_pool", UT(parts_in_address_order),
	  UT(more_ranges_than_the_channel), UT(error_from_a_job),
	  UT(cancel_drops_the_plan), UT(stop_mid_plan))
