// SPDX-License-Identifier: GPL-2.0
/* engine/phys_map.c: who maps a frame, and memory-type conflicts. */
#include <stdlib.h>
#include "unit.h"
#include "engine/phys_map.h"
#include "tests/lib/test_lib.h"

static struct ptwalk_record_ext rec(uint64_t start, uint64_t pages,
				    uint64_t pfn, uint8_t memtype)
{
	struct ptwalk_record_ext r = {
		.rec = { .start = start, .nr_pages = pages, .pfn = pfn,
			 .kind = PTWALK_KIND_PRESENT,
			 .level = PTWALK_LEVEL_PTE, .memtype = memtype,
			 .flags = PTWALK_F_PRESENT },
		.node = 0,
	};
	return r;
}

/* A record straddling the range keeps only its pages inside, addresses too. */
static void clip_inside_range(void **state)
{
	struct ptwalk_record_ext r = rec(0x7f0000000000, 16, 0x100, 1);
	struct phys_set s;
	const struct phys_mapping *m;

	(void)state;
	phys_set_init(&s, 0x104000, 0x108000, 12, 8);	/* pfns 0x104-0x107 */
	assert_int_equal(phys_add(&s, &r, 42, 3, 5), 0);
	assert_int_equal(s.n, 1);
	m = &s.m[0];
	assert_int_equal(m->pfn, 0x104);
	assert_int_equal(m->pages, 4);
	assert_int_equal(m->addr, 0x7f0000004000);
	assert_int_equal(m->pid, 42);
	assert_int_equal(m->proc, 3);
	assert_int_equal(m->vma, 5);
	assert_int_equal(m->memtype, 1);
	phys_set_free(&s);
}

/* The page size is the set's: with 16 KiB pages one page is 0x4000 bytes. */
static void clip_16k_pages(void **state)
{
	struct ptwalk_record_ext r = rec(0xffff00000000, 8, 0x200, 16);
	struct phys_set s;
	const struct phys_mapping *m;

	(void)state;
	phys_set_init(&s, 0x203ULL << 14, 0x204ULL << 14, 14, 8);
	assert_int_equal(phys_add(&s, &r, 1, 0, 0), 0);
	assert_int_equal(s.n, 1);
	m = &s.m[0];
	assert_int_equal(m->pfn, 0x203);
	assert_int_equal(m->pages, 1);
	assert_int_equal(m->addr, 0xffff00000000 + 3 * 0x4000);
	assert_int_equal(phys_addr_of(&s, m), 0x203ULL << 14);
	phys_set_free(&s);
}

static void clip_misses(void **state)
{
	struct ptwalk_record_ext before = rec(0x1000, 4, 0x100, 1);
	struct ptwalk_record_ext after = rec(0x1000, 4, 0x108, 1);
	struct ptwalk_record_ext swap = rec(0x1000, 4, 0x104, 1);
	struct ptwalk_record_ext none = rec(0x1000, 4, PTWALK_PFN_NONE, 0);
	struct phys_set s;

	(void)state;
	swap.rec.kind = PTWALK_KIND_SWAP;
	none.rec.kind = PTWALK_KIND_NONE;
	phys_set_init(&s, 0x104000, 0x108000, 12, 8);
	assert_int_equal(phys_add(&s, &before, 1, 0, 0), 0); /* ends at 0x104 */
	assert_int_equal(phys_add(&s, &after, 1, 0, 0), 0);  /* starts at end */
	assert_int_equal(phys_add(&s, &swap, 1, 0, 0), 0);   /* no frame mapped */
	assert_int_equal(phys_add(&s, &none, 1, 0, 0), 0);
	assert_int_equal(s.n, 0);
	phys_set_free(&s);
}

/* Beyond max, mappings are counted, never kept, never lost silently. */
static void add_counts_dropped(void **state)
{
	struct phys_set s;

	(void)state;
	phys_set_init(&s, 0, 0x100000, 12, 2);
	for (int i = 0; i < 5; i++) {
		struct ptwalk_record_ext r = rec(0x1000 * (uint64_t)i, 1,
						 (uint64_t)i, 1);

		assert_int_equal(phys_add(&s, &r, 7, 0, 0), 0);
	}
	assert_int_equal(s.n, 2);
	assert_int_equal(s.dropped, 3);
	assert_int_equal(s.dropped_pages, 3);
	phys_set_free(&s);
}

struct runs {
	uint64_t pfn[8], pages[8];
	int n;
};

static void note_run(void *arg, uint64_t pfn, uint64_t pages)
{
	struct runs *r = arg;

	r->pfn[r->n] = pfn;
	r->pages[r->n++] = pages;
}

static void unmapped_gaps(void **state)
{
	struct ptwalk_record_ext a = rec(0x1000, 2, 0x102, 1);	/* 102-103 */
	struct ptwalk_record_ext b = rec(0x9000, 1, 0x103, 1);	/* overlaps a */
	struct ptwalk_record_ext c = rec(0x5000, 1, 0x106, 1);	/* 106 */
	struct runs runs = { .n = 0 };
	struct phys_set s;
	uint64_t total;

	(void)state;
	phys_set_init(&s, 0x100000, 0x108000, 12, 8);	/* 100-107 */
	phys_add(&s, &c, 1, 0, 0);
	phys_add(&s, &a, 1, 0, 0);
	phys_add(&s, &b, 2, 1, 0);
	assert_int_equal(phys_unmapped(&s, note_run, &runs, &total), 0);
	assert_int_equal(total, 5);
	assert_int_equal(runs.n, 3);
	assert_int_equal(runs.pfn[0], 0x100);
	assert_int_equal(runs.pages[0], 2);
	assert_int_equal(runs.pfn[1], 0x104);
	assert_int_equal(runs.pages[1], 2);
	assert_int_equal(runs.pfn[2], 0x107);
	assert_int_equal(runs.pages[2], 1);
	phys_set_free(&s);
}

static void unmapped_all(void **state)
{
	struct runs runs = { .n = 0 };
	struct phys_set s;
	uint64_t total;

	(void)state;
	phys_set_init(&s, 0, 0x3000, 12, 8);
	assert_int_equal(phys_unmapped(&s, note_run, &runs, &total), 0);
	assert_int_equal(total, 3);
	assert_int_equal(runs.n, 1);
}

/*
 * A set over frames 0x100 to 0x10f holding recs[0 .. n): record i a
 * mapping of process i + 1, the process's index i.
 */
static void set_of(struct phys_set *s, const struct ptwalk_record_ext *recs,
		   size_t n)
{
	phys_set_init(s, 0x100000, 0x110000, 12, 8);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(phys_add(s, &recs[i], (pid_t)i + 1,
					  (uint32_t)i, 0), 0);
}

/*
 * One frame mapped wb by one process and wc by another is a conflict of
 * exactly the frames both cover; frames mapped wb twice are not.
 */
static void conflict_wb_wc(void **state)
{
	const struct ptwalk_record_ext recs[] = {
		rec(0x10000, 4, 0x100, PTWALK_MEMTYPE_WB),
		rec(0x80000, 4, 0x100, PTWALK_MEMTYPE_WB),
		rec(0x20000, 2, 0x102, PTWALK_MEMTYPE_WC),
	};
	struct memtype_conflict *c;
	struct phys_set s;
	long n;

	(void)state;
	set_of(&s, recs, 2);			/* the two wb mappings */
	n = memtype_conflicts(&s, &c);
	assert_int_equal(n, 0);
	assert_null(c);
	phys_add(&s, &recs[2], 3, 2, 0);
	n = memtype_conflicts(&s, &c);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].pfn, 0x102);
	assert_int_equal(c[0].pages, 2);
	assert_int_equal(c[0].memtypes, 1U << PTWALK_MEMTYPE_WB |
					 1U << PTWALK_MEMTYPE_WC);
	assert_true(phys_overlaps(&s.m[0], c[0].pfn, c[0].pages));
	assert_true(phys_overlaps(&s.m[2], c[0].pfn, c[0].pages));
	assert_false(phys_overlaps(&s.m[2], 0x100, 2));
	free(c);
	phys_set_free(&s);
}

/* Where the mappings covering the frames change, a new run begins. */
static void conflict_runs_split(void **state)
{
	const struct ptwalk_record_ext recs[] = {
		rec(0x10000, 8, 0x100, PTWALK_MEMTYPE_UC_MINUS),
		rec(0x20000, 2, 0x100, PTWALK_MEMTYPE_WC),	/* wc1 */
		rec(0x30000, 4, 0x101, PTWALK_MEMTYPE_WC),	/* wc2 */
		rec(0x40000, 8, 0x100, PTWALK_MEMTYPE_NONE),
	};
	struct memtype_conflict *c;
	struct phys_set s;
	long n;

	(void)state;
	set_of(&s, recs, 4);
	n = memtype_conflicts(&s, &c);
	/* 0x100: uc-, wc1; 0x101: uc-, wc1, wc2; 0x102-0x104: uc-, wc2 */
	assert_int_equal(n, 3);
	assert_int_equal(c[0].pfn, 0x100);
	assert_int_equal(c[0].pages, 1);
	assert_int_equal(c[1].pfn, 0x101);
	assert_int_equal(c[1].pages, 1);
	assert_int_equal(c[2].pfn, 0x102);
	assert_int_equal(c[2].pages, 3);
	free(c);
	phys_set_free(&s);
}

/* A record over two runs gives a mapping in each; gaps are per run. */
static void runs_split_a_record(void **state)
{
	static const struct frame_run asked[] = { { 0x100, 2 }, { 0x105, 3 } };
	struct ptwalk_record_ext r = rec(0x40000, 8, 0x101, PTWALK_MEMTYPE_WC);
	struct runs runs = { .n = 0 };
	struct phys_set s;
	uint64_t total;

	(void)state;
	phys_set_init_runs(&s, asked, 2, 12, 8);
	assert_int_equal(phys_add(&s, &r, 9, 0, 0), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.m[0].pfn, 0x101);
	assert_int_equal(s.m[0].pages, 1);
	assert_int_equal(s.m[0].addr, 0x40000);
	assert_int_equal(s.m[1].pfn, 0x105);
	assert_int_equal(s.m[1].pages, 3);
	assert_int_equal(s.m[1].addr, 0x44000);
	assert_int_equal(phys_unmapped(&s, note_run, &runs, &total), 0);
	assert_int_equal(total, 1);	/* 0x100 only: 0x102-0x104 is no run */
	assert_int_equal(runs.pfn[0], 0x100);
	phys_set_free(&s);
}

/* Tagged and untagged Normal memory are one type for the caches. */
static void tagged_normal_is_normal(void **state)
{
	struct ptwalk_record_ext a = rec(0x1000, 1, 0x100, PTWALK_MEMTYPE_NORMAL);
	struct ptwalk_record_ext b = rec(0x2000, 1, 0x100,
					 PTWALK_MEMTYPE_NORMAL_TAGGED);
	struct ptwalk_record_ext c = rec(0x3000, 1, 0x100,
					 PTWALK_MEMTYPE_DEVICE_NGNRE);
	struct memtype_conflict *conf;
	struct phys_set s;

	(void)state;
	phys_set_init(&s, 0x100000, 0x101000, 12, 8);
	phys_add(&s, &a, 1, 0, 0);
	phys_add(&s, &b, 1, 0, 0);
	assert_int_equal(memtype_conflicts(&s, &conf), 0);
	phys_add(&s, &c, 1, 0, 0);
	assert_int_equal(memtype_conflicts(&s, &conf), 1);
	free(conf);
	phys_set_free(&s);
}

/* Only frames with another type than the default are suspects. */
static void suspects_keep_other_types(void **state)
{
	struct memtype_suspects s;

	(void)state;
	suspects_init(&s, 2);
	assert_int_equal(suspects_add(&s, 0x100, 4, PTWALK_MEMTYPE_WB), 0);
	assert_int_equal(suspects_add(&s, 0x100, 4, PTWALK_MEMTYPE_NORMAL), 0);
	assert_int_equal(suspects_add(&s, 0x100, 4, PTWALK_MEMTYPE_NONE), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(suspects_add(&s, 0x200, 2, PTWALK_MEMTYPE_WC), 0);
	assert_int_equal(suspects_add(&s, 0x202, 2, PTWALK_MEMTYPE_UC), 0);
	/* full: merging the two adjacent runs makes room */
	assert_int_equal(suspects_add(&s, 0x100, 1, PTWALK_MEMTYPE_UC_MINUS), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.dropped_pages, 0);
	/* full, nothing to merge: counted */
	assert_int_equal(suspects_add(&s, 0x900, 3, PTWALK_MEMTYPE_WC), 0);
	assert_int_equal(s.dropped_pages, 3);
	suspects_finish(&s);
	assert_int_equal(s.run[0].pfn, 0x100);
	assert_int_equal(s.run[1].pfn, 0x200);
	assert_int_equal(s.run[1].pages, 4);
	suspects_free(&s);
}

UNIT_MAIN("phys_map", UT(clip_inside_range), UT(clip_16k_pages),
	  UT(clip_misses), UT(add_counts_dropped), UT(unmapped_gaps),
	  UT(unmapped_all), UT(conflict_wb_wc), UT(conflict_runs_split),
	  UT(runs_split_a_record), UT(tagged_normal_is_normal),
	  UT(suspects_keep_other_types))
