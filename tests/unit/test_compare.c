// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison engine on synthetic worlds: a fake compare_io serves
 * pagemap entries and ptwalk records from "worlds" that can change from
 * one read to the next, the way a live process changes during a scan.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "geom.h"
#include "engine/compare.h"
#include "parse/pagemap.h"
#include "parse/record.h"

#define BASE	0x7f0000000000ULL
/* Page bytes of a world or fake: the kernel's page, 4K unless a test says. */
#define WPG(w)	(1ULL << (w)->shift)
#define MAXP	32	/* pages in a world */
#define MAXR	16	/* records in a world */
#define WORLDS	4

struct world {
	unsigned int shift;	/* the kernel's page shift */
	uint64_t pm[MAXP];
	struct ptwalk_record recs[MAXR];
	int32_t node[MAXR];	/* extended records' node of each record */
	size_t nrecs;
};

struct fake {
	struct world w[WORLDS];
	int nworlds;
	int pm_reads, queries;
	int fail_pagemap_at;	/* -1: never; else the read that fails */
	struct {
		const struct world *w;
		uint64_t start, end;
		size_t next;
	} st[NR_COMPARE_STREAMS];
};

static const struct world *pick(const struct fake *f, int n)
{
	return &f->w[n < f->nworlds ? n : f->nworlds - 1];
}

static int fake_pagemap(void *ctx, uint64_t addr, size_t n, uint64_t *out)
{
	struct fake *f = ctx;
	const struct world *w;

	if (f->pm_reads == f->fail_pagemap_at)
		return -ESRCH;
	w = pick(f, f->pm_reads++);
	memcpy(out, &w->pm[(addr - BASE) / WPG(w)], n * sizeof(*out));
	return 0;
}

static int fake_query(void *ctx, enum compare_stream s, uint64_t start,
		      uint64_t end)
{
	struct fake *f = ctx;

	f->st[s].w = pick(f, f->queries++);
	f->st[s].start = start;
	f->st[s].end = end;
	f->st[s].next = 0;
	return 0;
}

/* The world's records clipped to the query, as the module trims them. */
static ssize_t fake_records(void *ctx, enum compare_stream s,
			    struct ptwalk_record *out, size_t max)
{
	struct fake *f = ctx;
	size_t n = 0;

	/* at most two records per read: the engine must refill */
	while (n < max && n < 2 && f->st[s].next < f->st[s].w->nrecs) {
		struct ptwalk_record r = f->st[s].w->recs[f->st[s].next++];
		uint64_t pg = WPG(f->st[s].w);
		uint64_t end = r.start + r.nr_pages * pg, skip;

		if (end <= f->st[s].start || r.start >= f->st[s].end)
			continue;
		if (r.start < f->st[s].start) {
			skip = (f->st[s].start - r.start) / pg;
			r.start = f->st[s].start;
			r.nr_pages -= skip;
			if (r.kind == PTWALK_KIND_PRESENT)
				r.pfn += skip;
			else if (r.kind != PTWALK_KIND_NONE)
				r.swap_offset += skip;
		}
		if (end > f->st[s].end)
			r.nr_pages -= (end - f->st[s].end) / pg;
		out[n++] = r;
	}
	return (ssize_t)n;
}

/* The records one at a time, each with its world's node. */
static ssize_t fake_read(void *ctx, enum compare_stream s,
			 struct ptwalk_record_ext *out, size_t max)
{
	struct fake *f = ctx;
	struct ptwalk_record r;
	ssize_t n;

	if (!max)
		return 0;
	n = fake_records(ctx, s, &r, 1);
	if (n == 1)
		out[0] = (struct ptwalk_record_ext){
			.rec = r, .node = f->st[s].w->node[f->st[s].next - 1],
		};
	return n;
}

static struct compare_io fake_io(struct fake *f)
{
	struct compare_io io = {
		.read_pagemap = fake_pagemap, .walk_query = fake_query,
		.walk_read = fake_read, .ctx = f,
	};
	return io;
}

static void add(struct world *w, uint64_t page, uint64_t pages, int kind,
		int level, uint64_t pfn, uint64_t vm, uint32_t flags)
{
	w->recs[w->nrecs++] = (struct ptwalk_record){
		.start = BASE + page * WPG(w), .nr_pages = pages,
		.pfn = kind == PTWALK_KIND_PRESENT ? pfn : PTWALK_PFN_NONE,
		.swap_offset = kind == PTWALK_KIND_PRESENT ? 0 : pfn,
		.kind = kind, .level = level, .vm_flags = vm, .flags = flags,
	};
}

struct collected {
	struct verdict_range r[64];
	size_t n;
};

static void collect(const struct verdict_range *r, void *arg)
{
	struct collected *c = arg;

	assert_true(c->n < 64);
	c->r[c->n++] = *r;
}

/* Compares pages [first, first + pages) of f's worlds. */
static int run(struct fake *f, size_t batch, uint64_t first, uint64_t pages,
	       struct compare_summary *sum, struct collected *c)
{
	struct compare_io io = fake_io(f);
	unsigned int shift = f->w[0].shift;
	struct compare_engine *e = compare_new(&io, batch, shift);
	uint64_t pg = 1ULL << shift;
	int err;

	assert_non_null(e);
	memset(sum, 0, sizeof(*sum));
	memset(c, 0, sizeof(*c));
	err = compare_piece(e, BASE + first * pg, BASE + (first + pages) * pg,
			    sum, collect, c);
	compare_free(e);
	return err;
}

static void fake_init(struct fake *f, int worlds)
{
	memset(f, 0, sizeof(*f));
	f->nworlds = worlds;
	f->fail_pagemap_at = -1;
	for (int i = 0; i < WORLDS; i++)
		f->w[i].shift = UT_SHIFT_4K;
}

#define ANON	(PTWALK_VM_ANON | PTWALK_VM_READ | PTWALK_VM_WRITE)
#define PFNMAP	(PTWALK_VM_PFNMAP | PTWALK_VM_IO | PTWALK_VM_SHARED)

/*
 * One world, every class but transient: pages 0-3 match, 4-5 empty, 6-7
 * a pfn map, 8 swapped alike, 9 a zeroed PFN, 10 a lasting mismatch.
 */
static void every_class(void **state)
{
	struct compare_summary sum;
	struct collected c;
	struct fake f;
	struct world *w = &f.w[0];
	int i;

	(void)state;
	fake_init(&f, 1);
	add(w, 0, 4, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x100, ANON, 0);
	for (i = 0; i < 4; i++)
		w->pm[i] = PM_PRESENT | (0x100 + i);
	add(w, 4, 2, PTWALK_KIND_NONE, PTWALK_LEVEL_NONE, 0, ANON, 0);
	add(w, 6, 2, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0xfd000, PFNMAP, 0);
	w->pm[6] = w->pm[7] = PM_SOFT_DIRTY;
	add(w, 8, 1, PTWALK_KIND_SWAP, PTWALK_LEVEL_PTE, 0x42, ANON, 0);
	w->pm[8] = PM_SWAP | (0x42ULL << PM_SWAP_TYPE_BITS);
	add(w, 9, 1, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x300, ANON, 0);
	w->pm[9] = PM_PRESENT;
	add(w, 10, 1, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x400, ANON, 0);
	w->pm[10] = PM_PRESENT | 0x401;

	assert_int_equal(run(&f, 8, 0, 11, &sum, &c), 0);
	assert_int_equal(sum.pages[CLASS_MATCH], 4);
	assert_int_equal(sum.pages[CLASS_NOT_PRESENT], 2);
	assert_int_equal(sum.pages[CLASS_PFNMAP_HIDDEN], 2);
	assert_int_equal(sum.pages[CLASS_SWAPPED], 1);
	assert_int_equal(sum.pages[CLASS_PFN_ZEROED], 1);
	assert_int_equal(sum.pages[CLASS_MISMATCH], 1);
	assert_int_equal(sum.pages[CLASS_TRANSIENT], 0);
	/* the mismatch was read again, COMPARE_MAX_REREADS times */
	assert_int_equal(sum.rereads, COMPARE_MAX_REREADS);
	assert_true(sum.have_vm_flags);
	assert_int_equal(sum.vm_flags, ANON);

	assert_int_equal(c.n, 6);
	assert_int_equal(c.r[0].start, BASE);
	assert_int_equal(c.r[0].pages, 4);
	assert_int_equal(c.r[0].walk_pfn, 0x100);
	assert_int_equal(c.r[0].pagemap_pfn, 0x100);
	assert_int_equal(c.r[1].cls, CLASS_NOT_PRESENT);
	assert_int_equal(c.r[1].walk_pfn, NO_PFN);
	assert_int_equal(c.r[1].pagemap_pfn, NO_PFN);
	assert_int_equal(c.r[2].cls, CLASS_PFNMAP_HIDDEN);
	assert_int_equal(c.r[2].walk_pfn, 0xfd000);
	assert_int_equal(c.r[2].pagemap_pfn, NO_PFN);
	assert_int_equal(c.r[2].detail.pm_state, PM_STATE_NONE);
	assert_int_equal(c.r[3].cls, CLASS_SWAPPED);
	assert_int_equal(c.r[3].detail.walk_swap_offset, 0x42);
	assert_int_equal(c.r[3].detail.pm_swap_offset, 0x42);
	assert_int_equal(c.r[4].cls, CLASS_PFN_ZEROED);
	/* a hidden PFN is no PFN, not frame 0 */
	assert_int_equal(c.r[4].pagemap_pfn, NO_PFN);
	assert_int_equal(c.r[5].cls, CLASS_MISMATCH);
	assert_int_equal(c.r[5].walk_pfn, 0x400);
	assert_int_equal(c.r[5].pagemap_pfn, 0x401);
}

/*
 * Contiguous frames that agree with pagemap, but with a write-combining
 * part, a pinned part on node 1: three ranges, each with its memory type,
 * pinned state and node.
 */
static void memtype_pin_node_split_ranges(void **state)
{
	struct compare_summary sum;
	struct collected c;
	struct fake f;
	struct world *w = &f.w[0];
	uint32_t valid = PTWALK_F_PFN_VALID;

	(void)state;
	fake_init(&f, 1);
	add(w, 0, 4, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x100, ANON, valid);
	w->recs[0].memtype = PTWALK_MEMTYPE_WB;
	add(w, 4, 2, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x104, ANON, valid);
	w->recs[1].memtype = PTWALK_MEMTYPE_WC;
	add(w, 6, 2, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x106, ANON,
	    valid | PTWALK_F_DMA_PINNED);
	w->recs[2].memtype = PTWALK_MEMTYPE_WB;
	w->node[2] = 1;
	for (int i = 0; i < 8; i++)
		w->pm[i] = PM_PRESENT | (0x100 + i);

	assert_int_equal(run(&f, 8, 0, 8, &sum, &c), 0);
	assert_int_equal(sum.pages[CLASS_MATCH], 8);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.r[0].pages, 4);
	assert_int_equal(walk_memtype(&c.r[0].detail), PTWALK_MEMTYPE_WB);
	assert_int_equal(walk_pin_state(&c.r[0].detail), PIN_NO);
	assert_int_equal(walk_node(&c.r[0].detail), 0);
	assert_int_equal(c.r[1].pages, 2);
	assert_int_equal(walk_memtype(&c.r[1].detail), PTWALK_MEMTYPE_WC);
	assert_int_equal(c.r[2].pages, 2);
	assert_int_equal(c.r[2].walk_pfn, 0x106);
	assert_int_equal(walk_pin_state(&c.r[2].detail), PIN_YES);
	assert_int_equal(walk_node(&c.r[2].detail), 1);
}

/*
 * The process faults page 2 in between the two reads of the first pass;
 * the re-read sees both sides agree: transient, with the re-read values.
 */
static void reread_converges(void **state)
{
	struct compare_summary sum;
	struct collected c;
	struct fake f;
	int i;

	(void)state;
	fake_init(&f, 2);
	for (int k = 0; k < 2; k++) {
		add(&f.w[k], 0, 4, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x100,
		    ANON, 0);
		for (i = 0; i < 4; i++)
			f.w[k].pm[i] = PM_PRESENT | (0x100 + i);
	}
	f.w[0].pm[2] = 0;	/* pagemap read before the fault */

	assert_int_equal(run(&f, 16, 0, 4, &sum, &c), 0);
	assert_int_equal(sum.pages[CLASS_MATCH], 3);
	assert_int_equal(sum.pages[CLASS_TRANSIENT], 1);
	assert_int_equal(sum.pages[CLASS_MISMATCH], 0);
	assert_int_equal(sum.rereads, 1);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.r[1].cls, CLASS_TRANSIENT);
	assert_int_equal(c.r[1].start, BASE + 2 * (1ULL << UT_SHIFT_4K));
	assert_int_equal(c.r[1].pagemap_pfn, 0x102);
}

/*
 * A difference that needs two re-reads to settle; one whose pagemap side
 * moves at each read though it never agrees (a page changing faster than
 * both reads: arm64 folding a contiguous group while a process churns);
 * then one that never settles.
 */
static void reread_rounds(void **state)
{
	struct compare_summary sum;
	struct collected c;
	struct fake f;

	(void)state;
	fake_init(&f, 3);
	for (int k = 0; k < 3; k++)
		add(&f.w[k], 0, 1, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x100,
		    ANON, 0);
	f.w[0].pm[0] = PM_PRESENT | 0x200;
	f.w[1].pm[0] = PM_PRESENT | 0x200;
	f.w[2].pm[0] = PM_PRESENT | 0x100;
	assert_int_equal(run(&f, 16, 0, 1, &sum, &c), 0);
	assert_int_equal(sum.pages[CLASS_TRANSIENT], 1);
	assert_int_equal(sum.rereads, 2);

	fake_init(&f, 4);
	for (int k = 0; k < 4; k++) {
		add(&f.w[k], 0, 1, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE,
		    0x100 + k, ANON, 0);
		f.w[k].pm[0] = k & 1 ? 0 : PM_PRESENT | (0x300 + k);
	}
	assert_int_equal(run(&f, 16, 0, 1, &sum, &c), 0);
	assert_int_equal(sum.pages[CLASS_TRANSIENT], 1);
	assert_int_equal(sum.pages[CLASS_MISMATCH], 0);
	assert_int_equal(sum.rereads, 1);
	/* the verdict is the last read's: walk 0x101, pagemap nothing */
	assert_int_equal(c.r[0].walk_pfn, 0x101);
	assert_int_equal(c.r[0].pagemap_pfn, NO_PFN);

	/* only the walk side moves: a change all the same */
	fake_init(&f, 2);
	for (int k = 0; k < 2; k++) {
		add(&f.w[k], 0, 1, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE,
		    0x100 + k, ANON, 0);
		f.w[k].pm[0] = PM_PRESENT | 0x200;
	}
	assert_int_equal(run(&f, 16, 0, 1, &sum, &c), 0);
	assert_int_equal(sum.pages[CLASS_TRANSIENT], 1);
	assert_int_equal(sum.rereads, 1);

	fake_init(&f, 1);
	add(&f.w[0], 0, 1, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PTE, 0x100, ANON, 0);
	f.w[0].pm[0] = PM_PRESENT | 0x200;
	assert_int_equal(run(&f, 16, 0, 1, &sum, &c), 0);
	assert_int_equal(sum.pages[CLASS_MISMATCH], 1);
	assert_int_equal(sum.rereads, COMPARE_MAX_REREADS);
	/* one pagemap read for the pass, one per re-read, never per page */
	assert_int_equal(f.pm_reads, 1 + COMPARE_MAX_REREADS);
}

/*
 * A 16-page PMD-like leaf scanned in batches of 5, from its 3rd page: the
 * engine checks each 4K page against base + index across batch edges,
 * merges agreeing pages into one range, and isolates a wrong sub-page.
 */
static void huge_leaf_across_batches(void **state)
{
	struct compare_summary sum;
	struct collected c;
	struct fake f;
	int i;

	(void)state;
	fake_init(&f, 1);
	add(&f.w[0], 0, 16, PTWALK_KIND_PRESENT, PTWALK_LEVEL_PMD, 0x2000,
	    ANON, PTWALK_F_COMPOUND);
	for (i = 0; i < 16; i++)
		f.w[0].pm[i] = PM_PRESENT | (0x2000 + i);
	assert_int_equal(run(&f, 5, 2, 14, &sum, &c), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.r[0].pages, 14);
	assert_int_equal(c.r[0].level, PTWALK_LEVEL_PMD);
	assert_int_equal(c.r[0].walk_pfn, 0x2002);
	assert_int_equal(sum.huge, HUGE_THP);

	f.w[0].pm[9] = PM_PRESENT | 0x2000;	/* sub-page 9 points at the head */
	assert_int_equal(run(&f, 5, 0, 16, &sum, &c), 0);
	assert_int_equal(sum.pages[CLASS_MISMATCH], 1);
	assert_int_equal(sum.pages[CLASS_MATCH], 15);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.r[1].start, BASE + 9 * (1ULL << UT_SHIFT_4K));
	assert_int_equal(c.r[1].walk_pfn, 0x2009);
	assert_int_equal(c.r[1].pagemap_pfn, 0x2000);
	assert_int_equal(c.r[2].walk_pfn, 0x200a);
}

static void huge_kinds_and_vm_flags(void **state)
{
	struct ptwalk_record r = {
		.kind = PTWALK_KIND_PRESENT, .level = PTWALK_LEVEL_PUD,
		.vm_flags = PTWALK_VM_HUGETLB,
	};
	struct compare_summary sum;
	struct collected c;
	struct fake f;

	(void)state;
	assert_int_equal(huge_kind_of(&r), HUGE_HUGETLB_1G);
	r.level = PTWALK_LEVEL_PMD;
	assert_int_equal(huge_kind_of(&r), HUGE_HUGETLB_2M);
	/* arm64's contiguous groups: 16 PMDs, 16 PTEs */
	r.flags = PTWALK_F_CONT | PTWALK_F_COMPOUND;
	assert_int_equal(huge_kind_of(&r), HUGE_HUGETLB_32M);
	r.level = PTWALK_LEVEL_PTE;
	assert_int_equal(huge_kind_of(&r), HUGE_HUGETLB_64K);
	assert_string_equal(huge_kind_name(6), "hugetlb-64K");
	assert_string_equal(huge_kind_name(7), "hugetlb-32M");
	r.flags = 0;
	r.level = PTWALK_LEVEL_PMD;
	r.vm_flags = PTWALK_VM_ANON;
	assert_int_equal(huge_kind_of(&r), HUGE_THP);
	r.flags = PTWALK_F_HUGE_ZERO;
	assert_int_equal(huge_kind_of(&r), HUGE_ZERO);
	r.vm_flags = PTWALK_VM_PFNMAP;
	assert_int_equal(huge_kind_of(&r), HUGE_PFNMAP);
	r = (struct ptwalk_record){ .kind = PTWALK_KIND_PRESENT,
				    .level = PTWALK_LEVEL_PTE,
				    .flags = PTWALK_F_COMPOUND };
	assert_int_equal(huge_kind_of(&r), HUGE_THP_PTE);
	r.flags = 0;
	assert_int_equal(huge_kind_of(&r), 0);
	r.kind = PTWALK_KIND_SWAP;
	r.level = PTWALK_LEVEL_PMD;
	assert_int_equal(huge_kind_of(&r), 0);
	assert_string_equal(huge_kind_name(0), "thp");
	assert_null(huge_kind_name(NR_HUGE_KINDS));

	/* The VMA's flags come from its first record inside a VMA. */
	fake_init(&f, 1);
	add(&f.w[0], 0, 2, PTWALK_KIND_NONE, PTWALK_LEVEL_NONE, 0, 0,
	    PTWALK_F_NO_VMA);
	add(&f.w[0], 2, 2, PTWALK_KIND_NONE, PTWALK_LEVEL_NONE, 0, ANON, 0);
	assert_int_equal(run(&f, 16, 0, 4, &sum, &c), 0);
	assert_true(sum.have_vm_flags);
	assert_int_equal(sum.vm_flags, ANON);
	assert_int_equal(sum.pages[CLASS_NOT_PRESENT], 4);
}

/* The names of a summary's kinds. */
/* The names of sum's kinds, comma-separated, are want. */
static void names_are(const struct compare_summary *sum, const char *want)
{
	char names[32][HUGE_NAME_MAX], buf[256];
	size_t n = huge_kind_names(sum, names, 32), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? "," : "", names[i]);
	assert_string_equal(buf, want);
}

/* sum: what x alone says, with pages of 2^page_shift bytes. */
static void observe_alone(struct compare_summary *sum,
			  const struct ptwalk_record_ext *x,
			  unsigned int page_shift)
{
	memset(sum, 0, sizeof(*sum));
	huge_observe(sum, x, page_shift);
}

/*
 * Several sizes at once: kinds first, then hugetlb and mTHP sizes each
 * from the smallest; max bounds what is written.
 */
static void huge_names_in_order(void **state)
{
	struct compare_summary sum = {
		.huge = HUGE_THP,
		.hugetlb_shifts = (1ULL << 30) | (1ULL << 21),
		.mthp_shifts = (1ULL << 17) | (1ULL << 16) | (1ULL << 63),
	};
	char names[3][HUGE_NAME_MAX];

	(void)state;
	names_are(&sum, "thp,hugetlb-2M,hugetlb-1G,mthp-64K,mthp-128K,mthp-8192P");
	assert_int_equal(huge_kind_names(&sum, names, 3), 3);
	assert_string_equal(names[2], "hugetlb-1G");
	memset(&sum, 0, sizeof(sum));
	names_are(&sum, "");
}

/*
 * With folio sizes (ptwalk_record_ext.folio_shift) the kinds are named by size, on
 * every granule: hugetlb pages by their folio (a 16K kernel's 2M page is
 * 128 contiguous PTEs, its 32M page one PMD), PTE-mapped folios smaller
 * than a PMD as mTHP, contiguous PTEs outside hugetlb (contpte) as cont.
 * A record without a folio size (no struct page to read it from) gets the
 * level names of the 4K kernels.
 */
static void huge_kinds_by_size(void **state)
{
	struct ptwalk_record_ext x = { .rec = {
		.kind = PTWALK_KIND_PRESENT, .level = PTWALK_LEVEL_PTE,
		.vm_flags = PTWALK_VM_HUGETLB,
		.flags = PTWALK_F_CONT | PTWALK_F_COMPOUND,
	} };
	struct compare_summary sum, all = { 0 };

	(void)state;
	/* 16K pages: a 2M hugetlb page of contiguous PTEs */
	x.folio_shift = 21;
	observe_alone(&sum, &x, 14);
	names_are(&sum, "hugetlb-2M");
	/* 64K pages: a 512M PMD page */
	x.rec.level = PTWALK_LEVEL_PMD;
	x.rec.flags = PTWALK_F_COMPOUND;
	x.folio_shift = 29;
	observe_alone(&sum, &x, 16);
	names_are(&sum, "hugetlb-512M");
	/* without a folio size: the 4K names */
	x.folio_shift = 0;
	observe_alone(&sum, &x, 12);
	names_are(&sum, "hugetlb-2M");
	huge_add(&all, &sum);
	/* mTHP: a 64K folio by PTEs on 4K, and 128K folded by contpte */
	memset(&sum, 0, sizeof(sum));
	x = (struct ptwalk_record_ext){ .rec = {
		.kind = PTWALK_KIND_PRESENT, .level = PTWALK_LEVEL_PTE,
		.vm_flags = PTWALK_VM_ANON, .flags = PTWALK_F_COMPOUND,
	}, .folio_shift = 16 };
	huge_observe(&sum, &x, 12);
	x.folio_shift = 17;
	x.rec.flags |= PTWALK_F_CONT;
	huge_observe(&sum, &x, 12);
	names_are(&sum, "cont,mthp-64K,mthp-128K");
	huge_add(&all, &sum);
	/* a PMD-sized folio mapped by PTEs (a split PMD) is thp-pte */
	x.rec.flags = PTWALK_F_COMPOUND;
	x.folio_shift = 21;
	observe_alone(&sum, &x, 12);
	names_are(&sum, "thp-pte");
	/* on 16K, a 2M folio by PTEs is an mTHP: its PMD is 32M */
	observe_alone(&sum, &x, 14);
	names_are(&sum, "mthp-2M");
	/* not present: nothing */
	x.rec.kind = PTWALK_KIND_SWAP;
	observe_alone(&sum, &x, 12);
	names_are(&sum, "");
	huge_add(&all, &sum);
	names_are(&all, "hugetlb-2M,cont,mthp-64K,mthp-128K");
}

/* Records that leave a page uncovered are a protocol error, not a verdict. */
static void broken_partition(void **state)
{
	struct compare_summary sum;
	struct collected c;
	struct fake f;

	(void)state;
	fake_init(&f, 1);
	add(&f.w[0], 0, 2, PTWALK_KIND_NONE, PTWALK_LEVEL_NONE, 0, ANON, 0);
	add(&f.w[0], 3, 1, PTWALK_KIND_NONE, PTWALK_LEVEL_NONE, 0, ANON, 0);
	assert_int_equal(run(&f, 16, 0, 4, &sum, &c), -EPROTO);
	assert_int_equal(c.n, 0);
	/* records that end early */
	fake_init(&f, 1);
	add(&f.w[0], 0, 2, PTWALK_KIND_NONE, PTWALK_LEVEL_NONE, 0, ANON, 0);
	assert_int_equal(run(&f, 16, 0, 4, &sum, &c), -EPROTO);
}

/* The process vanishes at the second batch: the error, no partial range. */
static void source_error_stops(void **state)
{
	struct compare_summary sum;
	struct collected c;
	struct fake f;

	(void)state;
	fake_init(&f, 1);
	add(&f.w[0], 0, 8, PTWALK_KIND_NONE, PTWALK_LEVEL_NONE, 0, ANON, 0);
	f.fail_pagemap_at = 1;
	assert_int_equal(run(&f, 4, 0, 8, &sum, &c), -ESRCH);
	assert_int_equal(c.n, 0);
	assert_int_equal(sum.pages[CLASS_NOT_PRESENT], 4);
}

/*
 * What compare_piece must produce, computed the slow way: every page
 * classified on its own and pushed alone.  One world, so nothing changes
 * between reads and re-reads leave the classes as they are.
 */
static void reference(const struct world *w, uint64_t pages,
		      struct compare_summary *sum, struct collected *c)
{
	struct range_merger m;

	memset(sum, 0, sizeof(*sum));
	memset(c, 0, sizeof(*c));
	range_merger_init(&m, collect, c, w->shift);
	for (uint64_t p = 0, ri = 0; p < pages; p++) {
		uint64_t addr = BASE + p * WPG(w);
		struct pagemap_entry pm;
		struct page_verdict v = { .addr = addr };
		const struct ptwalk_record *r;

		while (ptwalk_record_end(&w->recs[ri], w->shift) <= addr)
			ri++;
		r = &w->recs[ri];
		pagemap_decode(w->pm[p], &pm);
		v.cls = classify_page(r, addr, &pm, w->shift);
		v.level = r->level;
		v.walk_pfn = r->kind == PTWALK_KIND_PRESENT ?
			     ptwalk_pfn_at(r, addr, w->shift) : NO_PFN;
		v.pagemap_pfn = pm.present && v.cls != CLASS_PFN_ZEROED ?
				pm.pfn : NO_PFN;
		sum->pages[v.cls]++;
		range_merger_push(&m, &v);
	}
	range_merger_flush(&m);
}

/* Deterministic pseudo-random numbers (an LCG), so failures reproduce. */
static unsigned int next_rand(unsigned int *seed)
{
	*seed = *seed * 1103515245U + 12345U;
	return (*seed >> 16) & 0x7fff;
}

/* A random world: records partitioning MAXP pages, pagemap mostly agreeing. */
static void random_world(struct world *w, unsigned int *seed,
			 unsigned int shift)
{
	uint64_t page = 0;

	memset(w, 0, sizeof(*w));
	w->shift = shift;
	while (page < MAXP) {
		uint64_t len = 1 + (uint64_t)next_rand(seed) % 8;
		int kind = next_rand(seed) % 4;
		uint64_t vm = next_rand(seed) % 3 ? ANON : PFNMAP;

		if (len > MAXP - page || w->nrecs == MAXR - 1)
			len = MAXP - page;
		kind = kind == 3 ? PTWALK_KIND_SWAP :
		       kind ? PTWALK_KIND_PRESENT : PTWALK_KIND_NONE;
		add(w, page, len, kind, kind ? PTWALK_LEVEL_PTE :
		    PTWALK_LEVEL_NONE, (uint64_t)next_rand(seed) % 64, vm, 0);
		for (uint64_t i = 0; i < len; i++) {
			const struct ptwalk_record *r = &w->recs[w->nrecs - 1];
			uint64_t raw = 0, x = (uint64_t)next_rand(seed) % 16;

			if (kind == PTWALK_KIND_PRESENT && !(vm & PTWALK_VM_PFNMAP))
				raw = PM_PRESENT | (r->pfn + i);
			else if (kind == PTWALK_KIND_SWAP)
				raw = PM_SWAP | ((r->swap_offset + i) << 5);
			if (x == 0)		/* a lie */
				raw = PM_PRESENT | (1000 + x);
			else if (x == 1)	/* hidden frames */
				raw &= ~PM_PFN_MASK;
			else if (x == 2)	/* flags that differ page to page */
				raw |= PM_SOFT_DIRTY;
			w->pm[page + i] = raw;
		}
		page += len;
	}
}

/*
 * The engine classifies runs of pages from their first page; over many
 * random worlds and batch sizes its ranges and counts equal the page by
 * page reference, with 4K, 16K and 64K kernel pages alike (pagemap's
 * entries and the records count those).
 */
static void runs_equal_page_by_page(void **state)
{
	static const unsigned int shifts[] = { 12, 14, 16 };
	unsigned int seed = 12345;

	(void)state;
	for (int iter = 0; iter < 3000; iter++) {
		struct compare_summary sum, want_sum;
		struct collected c, want;
		struct fake f;
		size_t batch = 1 + (size_t)next_rand(&seed) % MAXP;

		fake_init(&f, 1);
		random_world(&f.w[0], &seed, shifts[iter % 3]);
		reference(&f.w[0], MAXP, &want_sum, &want);
		assert_int_equal(run(&f, batch, 0, MAXP, &sum, &c), 0);
		assert_memory_equal(sum.pages, want_sum.pages,
				    sizeof(sum.pages));
		assert_int_equal(c.n, want.n);
		for (size_t i = 0; i < c.n; i++) {
			assert_int_equal(c.r[i].start, want.r[i].start);
			assert_int_equal(c.r[i].pages, want.r[i].pages);
			assert_int_equal(c.r[i].cls, want.r[i].cls);
			assert_int_equal(c.r[i].level, want.r[i].level);
			assert_int_equal(c.r[i].walk_pfn, want.r[i].walk_pfn);
			assert_int_equal(c.r[i].pagemap_pfn,
					 want.r[i].pagemap_pfn);
		}
	}
}

/*
 * A world where every page differs, as big as the caller likes: pagemap
 * shows no page, ptwalk one record claiming the whole query mapped (the
 * fixture's impostor does that in the VM).  It counts pagemap's reads by
 * size.
 */
struct liar {
	size_t reads, whole, max_other;
	uint64_t start, end;
	bool served;
};

static int liar_pagemap(void *ctx, uint64_t addr, size_t n, uint64_t *out)
{
	struct liar *l = ctx;

	(void)addr;
	memset(out, 0, n * sizeof(*out));
	l->reads++;
	if (n == 65536)
		l->whole++;
	else if (n > l->max_other)
		l->max_other = n;
	return 0;
}

static int liar_query(void *ctx, enum compare_stream s, uint64_t start,
		      uint64_t end)
{
	struct liar *l = ctx;

	(void)s;
	l->start = start;
	l->end = end;
	l->served = false;
	return 0;
}

static ssize_t liar_read(void *ctx, enum compare_stream s,
			 struct ptwalk_record_ext *out, size_t max)
{
	struct liar *l = ctx;

	(void)s;
	if (l->served || !max)
		return 0;
	l->served = true;
	out[0] = (struct ptwalk_record_ext){
		.rec = {
			.start = l->start, .nr_pages = (l->end - l->start) / (1ULL << UT_SHIFT_4K),
			/* the same frame for an address, whatever the query */
			.pfn = 0x100000 + (l->start - BASE) / (1ULL << UT_SHIFT_4K),
			.kind = PTWALK_KIND_PRESENT,
			.level = PTWALK_LEVEL_PTE, .vm_flags = ANON,
		},
		.node = PTWALK_NODE_NONE,
	};
	return 1;
}

static void count_range(const struct verdict_range *r, void *arg)
{
	*(uint64_t *)arg += r->pages;
}

/*
 * Where every page differs, the engine keeps verdicts for 4,096 pages at
 * a time, not for a whole pagemap read: the re-reads are of 4,096 pages
 * at most, while the scan still reads pagemap 65,536 pages at a time.
 */
static void verdicts_bounded_reads_whole(void **state)
{
	struct liar l = { 0 };
	struct compare_io io = {
		.read_pagemap = liar_pagemap, .walk_query = liar_query,
		.walk_read = liar_read, .ctx = &l,
	};
	uint64_t pages = 3 * 65536 + 100, seen = 0;
	struct compare_engine *e = compare_new(&io, 65536, UT_SHIFT_4K);
	struct compare_summary sum = { 0 };

	(void)state;
	assert_int_equal(compare_block_pages(65536), 4096);
	assert_int_equal(compare_block_pages(10000), 2500);
	assert_int_equal(compare_block_pages(16), 16);
	assert_int_equal(compare_block_pages(8193), 2731);
	assert_non_null(e);
	assert_int_equal(compare_piece(e, BASE, BASE + pages * (1ULL << UT_SHIFT_4K), &sum,
				       count_range, &seen), 0);
	compare_free(e);
	assert_int_equal(seen, pages);
	assert_int_equal(sum.pages[CLASS_MISMATCH], pages);
	/*
	 * The scan: four window reads, three of them whole; 49 batches of
	 * verdicts, each re-read COMPARE_MAX_REREADS times, 4,096 pages at
	 * most.
	 */
	assert_int_equal(l.whole, 3);
	assert_int_equal(l.reads, 4 + 49 * COMPARE_MAX_REREADS);
	assert_int_equal(l.max_other, 4096);
}

UNIT_MAIN("compare", UT(every_class), UT(memtype_pin_node_split_ranges),
	  UT(reread_converges), UT(reread_rounds), UT(huge_leaf_across_batches),
	  UT(huge_kinds_and_vm_flags), UT(huge_kinds_by_size), UT(huge_names_in_order), UT(broken_partition), UT(source_error_stops),
	  UT(runs_equal_page_by_page), UT(verdicts_bounded_reads_whole))
