// SPDX-License-Identifier: GPL-2.0
/*
 * pagemap read across VMA boundaries (engine/window.h, compare_plan()): the
 * window's reach, and the engine under a plan on synthetic worlds that
 * may change from one read to the next.  Under a plan, many small pieces
 * cost one pagemap read and one ptwalk query, and every piece's ranges
 * and counts are those of a piece compared on its own.  The same worlds
 * cut into --jobs items (engine/jobs.h), compared by several engines in
 * any order and joined again, give what one engine gives.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "geom.h"
#include <stdlib.h>
#include "engine/compare.h"
#include "engine/jobs.h"
#include "engine/window.h"
#include "parse/pagemap.h"
#include "parse/record.h"

#define BASE	0x7f0000000000ULL
#define PG	4096ULL
#define MAXP	6144	/* pages in a world: room for gaps above WINDOW_GAP_PAGES */
#define MAXR	2048	/* records in a world */
#define MAXPC	256	/* pieces in a plan */
#define WORLDS	2

#define ANON	(PTWALK_VM_ANON | PTWALK_VM_READ | PTWALK_VM_WRITE)

struct world {
	uint64_t pm[MAXP];
	struct ptwalk_record recs[MAXR];
	size_t nrecs;
};

/* Worlds are large: static, one fake at a time. */
static struct fake {
	struct world w[WORLDS];
	int nworlds;
	int pm_reads, queries;
	uint64_t pm_pages;	/* entries read in all */
	int fail_pagemap_at;
	struct {
		const struct world *w;
		uint64_t start, end;
		size_t next;
	} st[NR_COMPARE_STREAMS];
} F;

static const struct world *pick(int n)
{
	return &F.w[n < F.nworlds ? n : F.nworlds - 1];
}

static int fake_pagemap(void *ctx, uint64_t addr, size_t n, uint64_t *out)
{
	const struct world *w;

	(void)ctx;
	if (F.pm_reads == F.fail_pagemap_at)
		return -ESRCH;
	assert_true(addr >= BASE && (addr - BASE) / PG + n <= MAXP);
	w = pick(F.pm_reads++);
	F.pm_pages += n;
	memcpy(out, &w->pm[(addr - BASE) / PG], n * sizeof(*out));
	return 0;
}

static int fake_query(void *ctx, enum compare_stream s, uint64_t start,
		      uint64_t end)
{
	(void)ctx;
	F.st[s].w = pick(F.queries++);
	F.st[s].start = start;
	F.st[s].end = end;
	F.st[s].next = 0;
	return 0;
}

/* The world's records clipped to the query, a few per read. */
static ssize_t fake_read(void *ctx, enum compare_stream s,
			 struct ptwalk_record_ext *out, size_t max)
{
	size_t n = 0;

	(void)ctx;
	while (n < max && n < 3 && F.st[s].next < F.st[s].w->nrecs) {
		struct ptwalk_record r = F.st[s].w->recs[F.st[s].next++];
		uint64_t end = r.start + r.nr_pages * PG, skip;

		if (end <= F.st[s].start || r.start >= F.st[s].end)
			continue;
		if (r.start < F.st[s].start) {
			skip = (F.st[s].start - r.start) / PG;
			r.start = F.st[s].start;
			r.nr_pages -= skip;
			if (r.kind == PTWALK_KIND_PRESENT)
				r.pfn += skip;
			else if (r.kind != PTWALK_KIND_NONE)
				r.swap_offset += skip;
		}
		if (end > F.st[s].end)
			r.nr_pages -= (end - F.st[s].end) / PG;
		out[n++] = (struct ptwalk_record_ext){
			.rec = r, .node = PTWALK_NODE_NONE,
		};
	}
	return (ssize_t)n;
}

static const struct compare_io IO = {
	.read_pagemap = fake_pagemap, .walk_query = fake_query,
	.walk_read = fake_read, .ctx = NULL,
};

static void fake_init(int worlds)
{
	memset(&F, 0, sizeof(F));
	F.nworlds = worlds;
	F.fail_pagemap_at = -1;
}

static void add(struct world *w, uint64_t page, uint64_t pages, int kind,
		uint64_t pfn, uint64_t vm, uint32_t flags)
{
	assert_true(w->nrecs < MAXR);
	w->recs[w->nrecs++] = (struct ptwalk_record){
		.start = BASE + page * PG, .nr_pages = pages,
		.pfn = kind == PTWALK_KIND_PRESENT ? pfn : PTWALK_PFN_NONE,
		.swap_offset = kind == PTWALK_KIND_PRESENT ? 0 : pfn,
		.kind = kind,
		.level = kind == PTWALK_KIND_NONE ? PTWALK_LEVEL_NONE :
						    PTWALK_LEVEL_PTE,
		.vm_flags = vm, .flags = flags,
	};
}

/* What one piece produced. */
struct out {
	struct verdict_range r[64];
	size_t n;
	struct compare_summary sum;
};

static void collect(const struct verdict_range *r, void *arg)
{
	struct out *o = arg;

	assert_true(o->n < 64);
	o->r[o->n++] = *r;
}

static struct compare_piece piece(uint64_t first, uint64_t pages)
{
	return (struct compare_piece){ BASE + first * PG,
				       BASE + (first + pages) * PG };
}

/* Compares pieces[0..n), under a plan or each on its own. */
static int compare_pieces(size_t batch, const struct compare_piece *p,
			  size_t n, bool plan, struct out *o)
{
	struct compare_engine *e = compare_new(&IO, batch, UT_SHIFT_4K);
	int err = 0;

	assert_non_null(e);
	if (plan)
		compare_plan(e, p, n);
	for (size_t i = 0; i < n && !err; i++) {
		memset(&o[i], 0, sizeof(o[i]));
		err = compare_piece(e, p[i].start, p[i].end, &o[i].sum,
				    collect, &o[i]);
	}
	compare_free(e);
	return err;
}

/* Field by field: the padding of a verdict_range holds anything. */
static void assert_range_equal(const struct verdict_range *a,
			       const struct verdict_range *b)
{
	assert_int_equal(a->start, b->start);
	assert_int_equal(a->pages, b->pages);
	assert_int_equal(a->cls, b->cls);
	assert_int_equal(a->level, b->level);
	assert_int_equal(a->walk_pfn, b->walk_pfn);
	assert_int_equal(a->pagemap_pfn, b->pagemap_pfn);
	assert_int_equal(a->detail.walk_kind, b->detail.walk_kind);
	assert_int_equal(a->detail.walk_swap_type, b->detail.walk_swap_type);
	assert_int_equal(a->detail.pm_state, b->detail.pm_state);
	assert_int_equal(a->detail.pm_swap_type, b->detail.pm_swap_type);
	assert_int_equal(a->detail.walk_swap_offset,
			 b->detail.walk_swap_offset);
	assert_int_equal(a->detail.pm_swap_offset, b->detail.pm_swap_offset);
	assert_int_equal(a->detail.walk.flags, b->detail.walk.flags);
	assert_int_equal(a->detail.walk.vm_flags, b->detail.walk.vm_flags);
}

static void assert_same(const struct out *a, const struct out *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		assert_memory_equal(a[i].sum.pages, b[i].sum.pages,
				    sizeof(a[i].sum.pages));
		assert_int_equal(a[i].sum.rereads, b[i].sum.rereads);
		assert_int_equal(a[i].sum.huge, b[i].sum.huge);
		assert_int_equal(a[i].sum.vm_flags, b[i].sum.vm_flags);
		assert_int_equal(a[i].sum.have_vm_flags,
				 b[i].sum.have_vm_flags);
		assert_int_equal(a[i].n, b[i].n);
		for (size_t k = 0; k < a[i].n; k++)
			assert_range_equal(&a[i].r[k], &b[i].r[k]);
	}
}

/* The window's reach: across small gaps, never across a large one. */
static void reach(void **state)
{
	struct compare_piece p[4] = {
		piece(0, 2), piece(3, 2),
		piece(5 + WINDOW_GAP_PAGES, 1),		/* gap: exactly the limit */
		piece(7 + 2 * WINDOW_GAP_PAGES, 4),	/* gap: one too many */
	};
	uint64_t buf[8];
	struct pagemap_window w;

	(void)state;
	window_init(&w, buf, 8192, UT_SHIFT_4K);
	window_plan(&w, p, 4);
	assert_int_equal(window_reach(&w, p[0].start), 6 + WINDOW_GAP_PAGES);
	assert_int_equal(window_reach(&w, p[0].start + PG), 5 + WINDOW_GAP_PAGES);
	assert_int_equal(window_reach(&w, p[2].start), 1);
	assert_int_equal(window_reach(&w, p[3].start + PG), 3);
	/* the cursor moved past the earlier pieces: they are not read again */
	assert_int_equal(window_reach(&w, p[0].start), 0);
	/* at most the capacity */
	window_init(&w, buf, 4, UT_SHIFT_4K);
	window_plan(&w, p, 4);
	assert_int_equal(window_reach(&w, p[0].start), 4);
	/* outside every piece: nothing */
	assert_int_equal(window_reach(&w, BASE + 2 * PG), 0);
}

/*
 * With 16K and 64K kernel pages the window counts entries, one per kernel
 * page: a piece of n pages is n entries, the gap limit is in pages too;
 * job items are cut at multiples of the batch in kernel pages.
 */
static void reach_and_cuts_in_kernel_pages(void **state)
{
	(void)state;
	ut_for_each_big_page(sh) {
		uint64_t pg = 1ULL << sh;
		struct compare_piece p[2] = {
			{ BASE, BASE + 3 * pg },
			{ BASE + (3 + WINDOW_GAP_PAGES) * pg,
			  BASE + (5 + WINDOW_GAP_PAGES) * pg },
		};
		struct compare_piece big = { BASE, BASE + 250 * pg };
		uint64_t buf[8];
		struct pagemap_window w;
		struct job_cursor c;
		struct job_item it;

		window_init(&w, buf, 8192, sh);
		window_plan(&w, p, 2);
		assert_int_equal(window_reach(&w, BASE), 5 + WINDOW_GAP_PAGES);
		assert_int_equal(window_reach(&w, BASE + pg), 4 + WINDOW_GAP_PAGES);
		job_cursor_init(&c, &big, 1, 100, 2, sh);
		assert_int_equal(c.target, 100);
		assert_true(job_next(&c, &it));
		assert_int_equal(it.end, BASE + 100 * pg);
		assert_true(job_next(&c, &it));
		assert_int_equal(it.end, BASE + 200 * pg);
		assert_true(job_next(&c, &it));
		assert_int_equal(it.end, BASE + 250 * pg);
		assert_false(job_next(&c, &it));
	}
}

/*
 * 200 VMAs of 2 pages, one page apart, each its own record, the gaps
 * no_vma records: under a plan, one pagemap read and one ptwalk query for
 * all of them; on their own, one of each per VMA; the same results.
 */
static void many_small_vmas_one_read(void **state)
{
	static struct compare_piece p[200];
	static struct out planned[200], alone[200];
	static struct world copy;
	struct world *w;

	(void)state;
	fake_init(1);
	w = &F.w[0];
	for (uint64_t i = 0; i < 200; i++) {
		uint64_t first = 3 * i;

		p[i] = piece(first, 2);
		add(w, first, 2, PTWALK_KIND_PRESENT, 0x1000 + 7 * i,
		    i % 2 ? PTWALK_VM_ANON | PTWALK_VM_READ : ANON, 0);
		w->pm[first] = PM_PRESENT | (0x1000 + 7 * i);
		w->pm[first + 1] = PM_PRESENT | (0x1001 + 7 * i);
		add(w, first + 2, 1, PTWALK_KIND_NONE, 0, 0, PTWALK_F_NO_VMA);
	}
	assert_int_equal(compare_pieces(65536, p, 200, true, planned), 0);
	assert_int_equal(F.pm_reads, 1);
	assert_int_equal(F.queries, 1);
	assert_int_equal(F.pm_pages, 599);	/* the span, the last gap not */
	for (int i = 0; i < 200; i++) {
		assert_int_equal(planned[i].sum.pages[CLASS_MATCH], 2);
		assert_int_equal(planned[i].n, 1);
		assert_int_equal(planned[i].r[0].walk_pfn, 0x1000 + 7 * i);
		assert_int_equal(planned[i].sum.vm_flags,
				 i % 2 ? PTWALK_VM_ANON | PTWALK_VM_READ : ANON);
	}
	copy = *w;
	fake_init(1);
	F.w[0] = copy;
	assert_int_equal(compare_pieces(65536, p, 200, false, alone), 0);
	assert_int_equal(F.pm_reads, 200);
	assert_int_equal(F.queries, 200);
	assert_same(planned, alone, 200);
}

/*
 * A plan whose window holds fewer pages than the span: the reads are
 * windows of the capacity, each page read once.
 */
static void window_smaller_than_span(void **state)
{
	static struct compare_piece p[40];
	static struct out o[40];
	struct world *w;

	(void)state;
	fake_init(1);
	w = &F.w[0];
	add(w, 0, 400, PTWALK_KIND_NONE, 0, ANON, 0);
	for (int i = 0; i < 40; i++)
		p[i] = piece(10 * (uint64_t)i, 10);	/* adjacent pieces */
	assert_int_equal(compare_pieces(64, p, 40, true, o), 0);
	assert_int_equal(F.pm_pages, 400);
	assert_int_equal(F.pm_reads, 7);	/* ceil(400 / 64) */
	assert_int_equal(F.queries, 1);
}

/*
 * window_peek() lends the window's own entries: after one read from a
 * piece's start, every batch inside what it read comes without another
 * read or a copy; a batch the window holds only in part, one beyond its
 * reach, or one outside the plan is refused (NULL, no error) for
 * window_read() to copy; a failed read is returned.
 */
static void peek_in_place(void **state)
{
	struct compare_piece p[2] = { piece(0, 100), piece(200, 8) };
	uint64_t buf[64], out[16];
	const uint64_t *v;
	struct pagemap_window w;
	int err = 1;

	(void)state;
	fake_init(1);
	for (size_t k = 0; k < MAXP; k++)
		F.w[0].pm[k] = PM_PRESENT | k;
	window_init(&w, buf, 64, UT_SHIFT_4K);
	window_plan(&w, p, 2);
	v = window_peek(&w, fake_pagemap, NULL, BASE, 16, &err);
	assert_ptr_equal(v, buf);
	assert_int_equal(err, 0);
	assert_int_equal(F.pm_reads, 1);
	assert_int_equal(F.pm_pages, 64);	/* the window's capacity */
	v = window_peek(&w, fake_pagemap, NULL, BASE + 16 * PG, 48, &err);
	assert_ptr_equal(v, buf + 16);
	assert_true(v[47] == (PM_PRESENT | 63));
	assert_int_equal(F.pm_reads, 1);
	/* held in part (pages 60 to 75): refused, window_read() copies */
	v = window_peek(&w, fake_pagemap, NULL, BASE + 60 * PG, 16, &err);
	assert_null(v);
	assert_int_equal(err, 0);
	assert_int_equal(window_read(&w, fake_pagemap, NULL, BASE + 60 * PG, 16,
				     out), 0);
	assert_true(out[0] == (PM_PRESENT | 60) && out[15] == (PM_PRESENT | 75));
	/* beyond the reach from addr: the piece ends 4 pages on */
	v = window_peek(&w, fake_pagemap, NULL, BASE + 96 * PG, 8, &err);
	assert_null(v);
	assert_int_equal(err, 0);
	/* outside the plan */
	v = window_peek(&w, fake_pagemap, NULL, BASE + 150 * PG, 4, &err);
	assert_null(v);
	assert_int_equal(err, 0);
	/* a failed read is the answer */
	F.fail_pagemap_at = F.pm_reads;
	v = window_peek(&w, fake_pagemap, NULL, BASE + 200 * PG, 8, &err);
	assert_null(v);
	assert_int_equal(err, -ESRCH);
}

/*
 * World 0 is what the scan reads, world 1 what every later read sees: a
 * page that differs in the scan's window agrees on re-read (transient).
 * The re-read is a fresh pagemap read, never the window's stale copy.
 */
static void reread_is_fresh(void **state)
{
	static struct compare_piece p[3];
	static struct out o[3];

	(void)state;
	fake_init(2);
	for (int k = 0; k < 2; k++)
		for (uint64_t i = 0; i < 3; i++) {
			add(&F.w[k], 4 * i, 3, PTWALK_KIND_PRESENT,
			    0x500 + 4 * i, ANON, 0);
			add(&F.w[k], 4 * i + 3, 1, PTWALK_KIND_NONE, 0, 0,
			    PTWALK_F_NO_VMA);
			for (uint64_t j = 0; j < 3; j++)
				F.w[k].pm[4 * i + j] = PM_PRESENT |
						       (0x500 + 4 * i + j);
		}
	for (uint64_t i = 0; i < 3; i++)
		p[i] = piece(4 * i, 3);
	F.w[0].pm[5] = PM_PRESENT | 0x999;	/* piece 1, page 1, first read */
	assert_int_equal(compare_pieces(16, p, 3, true, o), 0);
	assert_int_equal(o[0].sum.pages[CLASS_MATCH], 3);
	assert_int_equal(o[1].sum.pages[CLASS_TRANSIENT], 1);
	assert_int_equal(o[1].sum.pages[CLASS_MATCH], 2);
	assert_int_equal(o[1].sum.rereads, 1);
	assert_int_equal(o[2].sum.pages[CLASS_MATCH], 3);
	/* one read for the span, one for the re-read */
	assert_int_equal(F.pm_reads, 2);
}

/*
 * A failed read inside a plan ends it; a range compared afterwards is
 * read on its own, and right.
 */
static void error_ends_plan(void **state)
{
	struct compare_piece p[2] = { piece(0, 2), piece(2, 2) };
	struct compare_engine *e;
	struct out o = { 0 };

	(void)state;
	fake_init(1);
	add(&F.w[0], 0, 4, PTWALK_KIND_PRESENT, 0x10, ANON, 0);
	for (int i = 0; i < 4; i++)
		F.w[0].pm[i] = PM_PRESENT | (0x10 + (uint64_t)i);
	F.fail_pagemap_at = 0;
	e = compare_new(&IO, 16, UT_SHIFT_4K);
	assert_non_null(e);
	compare_plan(e, p, 2);
	assert_int_equal(compare_piece(e, p[0].start, p[0].end, &o.sum,
				       collect, &o), -ESRCH);
	F.fail_pagemap_at = -1;
	assert_int_equal(compare_piece(e, p[1].start, p[1].end, &o.sum,
				       collect, &o), 0);
	assert_int_equal(o.sum.pages[CLASS_MATCH], 2);
	assert_int_equal(o.r[0].walk_pfn, 0x12);
	assert_int_equal(F.queries, 2);
	compare_free(e);
}

/* Deterministic pseudo-random numbers (an LCG), so failures reproduce. */
static unsigned int next_rand(unsigned int *seed)
{
	*seed = *seed * 1103515245U + 12345U;
	return (*seed >> 16) & 0x7fff;
}

/*
 * A random process: pieces (VMAs) of 1-64 pages with gaps of 0 pages to
 * twice WINDOW_GAP_PAGES, records inside each cut at random, pagemap mostly
 * agreeing, a few lies and hidden frames.  Returns the number of pieces.
 */
static size_t random_process(struct world *w, struct compare_piece *p,
			     unsigned int *seed)
{
	uint64_t page = 0;
	size_t n = 0;

	memset(w, 0, sizeof(*w));
	while (n < MAXPC) {
		uint64_t len = 1 + next_rand(seed) % 64;
		uint64_t gap = next_rand(seed) % 4 ? next_rand(seed) % 8 :
			       next_rand(seed) % (2 * WINDOW_GAP_PAGES + 2);

		if (page + gap + len > MAXP || w->nrecs + 70 > MAXR)
			break;
		if (gap)
			add(w, page, gap, PTWALK_KIND_NONE, 0, 0,
			    PTWALK_F_NO_VMA);
		page += gap;
		p[n++] = piece(page, len);
		for (uint64_t done = 0; done < len;) {
			uint64_t r = 1 + next_rand(seed) % 8;
			int kind = next_rand(seed) % 3 ? PTWALK_KIND_PRESENT :
				   PTWALK_KIND_NONE;
			uint64_t pfn = 0x100 + next_rand(seed) % 4096;

			if (r > len - done)
				r = len - done;
			add(w, page + done, r, kind, pfn, ANON, 0);
			for (uint64_t i = 0; i < r; i++) {
				uint64_t raw = kind ? PM_PRESENT | (pfn + i) : 0;
				unsigned int x = next_rand(seed) % 32;

				if (x == 0)
					raw = PM_PRESENT | 7;	/* a lie */
				else if (x == 1)
					raw &= ~PM_PFN_MASK;	/* hidden */
				w->pm[page + done + i] = raw;
			}
			done += r;
		}
		page += len;
	}
	return n;
}

/*
 * On random processes and batch sizes, pieces compared under one plan
 * give exactly what each gives compared on its own, reading each page's
 * entry at most once in the scan.
 */
static void plan_equals_alone(void **state)
{
	static struct compare_piece p[MAXPC];
	static struct out planned[MAXPC], alone[MAXPC];
	static struct world copy;
	unsigned int seed = 2026;
	int fewer = 0;

	(void)state;
	for (int iter = 0; iter < 150; iter++) {
		size_t batch = 1 + next_rand(&seed) % 512, n;
		uint64_t planned_pages, small_gaps = 0;
		int reads;

		fake_init(1);
		n = random_process(&F.w[0], p, &seed);
		copy = F.w[0];
		assert_true(n > 0);
		for (size_t i = 1; i < n; i++)
			if ((p[i].start - p[i - 1].end) / PG <= WINDOW_GAP_PAGES)
				small_gaps += (p[i].start - p[i - 1].end) / PG;
		assert_int_equal(compare_pieces(batch, p, n, true, planned), 0);
		reads = F.pm_reads;
		planned_pages = F.pm_pages;
		fake_init(1);
		F.w[0] = copy;
		assert_int_equal(compare_pieces(batch, p, n, false, alone), 0);
		/*
		 * The re-reads are the same either way; beyond them the plan
		 * reads each piece's pages once plus some small gaps, and
		 * never in more preads.
		 */
		assert_true(reads <= F.pm_reads);
		assert_true(planned_pages >= F.pm_pages);
		assert_true(planned_pages <= F.pm_pages + small_gaps);
		assert_same(planned, alone, n);
		fewer += reads < F.pm_reads;
	}
	/* the worlds had small gaps: most plans saved preads */
	assert_true(fewer > 100);
}

/* Events of one item, as a job's channel carries them. */
struct item_out {
	struct verdict_range *r;
	size_t nr, cap;
	size_t part_ranges[MAXPC];	/* ranges of each part */
	struct compare_summary sum[MAXPC];
};

static void collect_item(const struct verdict_range *r, void *arg)
{
	struct item_out *o = arg;

	if (o->nr == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->r = realloc(o->r, o->cap * sizeof(*o->r));
		assert_non_null(o->r);
	}
	o->r[o->nr++] = *r;
}

static void collect_joined(const struct verdict_range *r, void *arg)
{
	collect(r, arg);
}

/*
 * Items of random plans cover every page once, in address order, each cut
 * inside a piece on a multiple of the batch from its start.
 */
static void items_cover_in_order(void **state)
{
	static struct compare_piece p[MAXPC];
	unsigned int seed = 77;

	(void)state;
	for (int iter = 0; iter < 300; iter++) {
		size_t batch = 1 + next_rand(&seed) % 300, n;
		unsigned int jobs = 1 + next_rand(&seed) % JOBS_MAX;
		struct job_cursor c;
		struct job_item it;
		size_t piece = 0, items = 0;
		uint64_t addr;

		fake_init(1);
		n = random_process(&F.w[0], p, &seed);
		addr = p[0].start;
		job_cursor_init(&c, p, n, batch, jobs, UT_SHIFT_4K);
		while (job_next(&c, &it)) {
			uint64_t pages = 0;

			items++;
			for (size_t i = 0; i < job_parts(&it); i++) {
				struct compare_piece part = job_part(&it, p, i);

				pages += (part.end - part.start) / PG;
				if (addr == p[piece].end) {
					piece++;
					addr = p[piece].start;
				}
				assert_int_equal(it.first + i, piece);
				assert_int_equal(part.start, addr);
				assert_true(part.end > part.start);
				assert_true(part.end == p[piece].end ||
					    (part.end - p[piece].start) / PG %
					    batch == 0);
				addr = part.end;
			}
			/*
			 * Items share the work: none is above the target
			 * (the plan's pages over the jobs, at most a batch)
			 * unless it is one part of at most a batch.
			 */
			assert_true(pages <= c.target ||
				    (job_parts(&it) == 1 && pages <= batch));
		}
		assert_int_equal(piece, n - 1);
		assert_int_equal(addr, p[n - 1].end);
		assert_true(items >= 1);
	}
	/* one large piece, two jobs: items of one batch each */
	{
		struct compare_piece big = piece(0, 4 * 100);
		struct job_cursor c;
		struct job_item it;
		int k = 0;

		job_cursor_init(&c, &big, 1, 100, 2, UT_SHIFT_4K);
		while (job_next(&c, &it)) {
			assert_int_equal(it.start, BASE + 100 * PG * (uint64_t)k);
			assert_int_equal(it.end, it.start + 100 * PG);
			k++;
		}
		assert_int_equal(k, 4);
	}
}

/*
 * --jobs on random worlds: the plan cut into items, item k compared by
 * engine k % jobs, the items done in reverse (as threads may finish),
 * then joined in address order: every piece's ranges and counts are one
 * engine's, byte for byte.
 */
static void jobs_equal_one_job(void **state)
{
	static struct compare_piece p[MAXPC];
	static struct out one[MAXPC], joined[MAXPC];
	static struct compare_piece parts[MAXPC];
	static struct item_out items[MAXP];
	unsigned int seed = 4242;

	(void)state;
	for (int iter = 0; iter < 150; iter++) {
		size_t batch = 1 + next_rand(&seed) % 256, n, nitems = 0;
		unsigned int jobs = 2 + next_rand(&seed) % (JOBS_MAX - 1);
		struct compare_engine *e[JOBS_MAX];
		struct job_cursor c;
		struct job_item it[MAXP];
		size_t piece = 0;
		struct job_joiner j;

		fake_init(1);
		n = random_process(&F.w[0], p, &seed);
		assert_int_equal(compare_pieces(batch, p, n, true, one), 0);

		for (unsigned int k = 0; k < jobs; k++) {
			e[k] = compare_new(&IO, batch, UT_SHIFT_4K);
			assert_non_null(e[k]);
		}
		job_cursor_init(&c, p, n, batch, jobs, UT_SHIFT_4K);
		while (job_next(&c, &it[nitems]))
			nitems++;
		for (size_t k = nitems; k-- > 0;) {
			struct item_out *o = &items[k];
			size_t np = job_parts(&it[k]);

			o->nr = 0;
			for (size_t i = 0; i < np; i++)
				parts[i] = job_part(&it[k], p, i);
			compare_plan(e[k % jobs], parts, np);
			for (size_t i = 0; i < np; i++) {
				size_t before = o->nr;

				memset(&o->sum[i], 0, sizeof(o->sum[i]));
				assert_int_equal(compare_piece(e[k % jobs],
						 parts[i].start, parts[i].end,
						 &o->sum[i], collect_item, o), 0);
				o->part_ranges[i] = o->nr - before;
			}
		}
		/* the consumer: items in order, parts joined per piece */
		memset(&joined[0], 0, sizeof(joined[0]));
		job_joiner_init(&j, collect_joined, &joined[0], UT_SHIFT_4K);
		for (size_t k = 0; k < nitems; k++) {
			const struct item_out *o = &items[k];
			size_t r = 0;

			for (size_t i = 0; i < job_parts(&it[k]); i++) {
				struct compare_piece part = job_part(&it[k], p, i);

				for (size_t q = 0; q < o->part_ranges[i]; q++)
					job_joiner_range(&j, &o->r[r++]);
				job_joiner_part(&j, &o->sum[i]);
				if (part.end == p[piece].end) {
					job_joiner_end(&j, &joined[piece].sum);
					if (++piece < n) {
						memset(&joined[piece], 0,
						       sizeof(joined[piece]));
						job_joiner_init(&j, collect_joined,
								&joined[piece], UT_SHIFT_4K);
					}
				}
			}
		}
		assert_int_equal(piece, n);
		assert_same(one, joined, n);
		for (unsigned int k = 0; k < jobs; k++)
			compare_free(e[k]);
	}
	for (size_t k = 0; k < MAXP; k++)
		free(items[k].r);
}

UNIT_MAIN("plan", UT(reach), UT(reach_and_cuts_in_kernel_pages), UT(many_small_vmas_one_read),
	  UT(window_smaller_than_span), UT(peek_in_place), UT(reread_is_fresh), UT(error_ends_plan),
	  UT(plan_equals_alone), UT(items_cover_in_order), UT(jobs_equal_one_job))
