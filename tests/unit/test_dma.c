// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "geom.h"
#include <json-c/json.h>
#include "engine/dma.h"
#include "report/report.h"
#include "report/report_dma.h"
#include "json_get.h"

#define BASE 0x7f0000000000ULL
#define PG(n) (BASE + (uint64_t)(n) * 4096)
#define MAX_OUT 64

struct sink {
	struct dma_run runs[MAX_OUT];
	struct dma_hole holes[MAX_OUT];
	int nr_runs, nr_holes;
	uint64_t calls;		/* beyond MAX_OUT only counted */
};

static void on_run(const struct dma_run *r, void *arg)
{
	struct sink *s = arg;

	if (s->nr_runs < MAX_OUT)
		s->runs[s->nr_runs++] = *r;
	s->calls++;
}

static void on_hole(const struct dma_hole *h, void *arg)
{
	struct sink *s = arg;

	if (s->nr_holes < MAX_OUT)
		s->holes[s->nr_holes++] = *h;
	s->calls++;
}

static void view(struct dma_view *d, struct sink *s, uint64_t first,
		 uint64_t last)
{
	const struct dma_sink k = { .run = on_run, .hole = on_hole, .arg = s };

	memset(s, 0, sizeof(*s));
	dma_init(d, PG(first), PG(last), &k, UT_SHIFT_4K);
}

/* The view of pages [first, last) made of the n ranges rs, finished. */
static void view_of(struct dma_view *d, struct sink *s, uint64_t first,
		    uint64_t last, const struct verdict_range *rs, size_t n)
{
	view(d, s, first, last);
	for (size_t i = 0; i < n; i++)
		dma_add_range(d, &rs[i]);
	dma_finish(d);
}

static struct verdict_range vr(uint64_t page, uint64_t pages,
			       enum page_class cls, uint8_t level,
			       uint64_t walk, uint8_t walk_kind)
{
	struct verdict_range r = {
		.start = PG(page), .pages = pages, .cls = cls, .level = level,
		.walk_pfn = walk, .pagemap_pfn = NO_PFN,
	};

	r.detail.walk_kind = walk_kind;
	return r;
}

static void alignment(void **state)
{
	(void)state;
	assert_int_equal(dma_align(0x1000), 0x1000);
	assert_int_equal(dma_align(0x1437f8000ULL), 0x8000);
	assert_int_equal(dma_align(0x200000), 0x200000);
	assert_int_equal(dma_align(0x140000000ULL), DMA_ALIGN_CAP);
	assert_int_equal(dma_align(0x80000000ULL), DMA_ALIGN_CAP);
	assert_int_equal(dma_align(0), DMA_ALIGN_CAP);	/* frame 0: any */
}

/*
 * Verdict ranges split where class or level change, or where pagemap's
 * frames stop following; a DMA run only cares about ptwalk's frames.
 */
static void runs_join_across_classes_and_levels(void **state)
{
	struct verdict_range rs[] = {
		vr(0, 8, CLASS_PFNMAP_HIDDEN, PTWALK_LEVEL_PTE, 0x100,
		   PTWALK_KIND_PRESENT),
		vr(8, 4, CLASS_MATCH, PTWALK_LEVEL_PMD, 0x108,
		   PTWALK_KIND_PRESENT),
		vr(12, 1, CLASS_TRANSIENT, PTWALK_LEVEL_PTE, 0x10c,
		   PTWALK_KIND_PRESENT),
		vr(13, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x500,	/* jump */
		   PTWALK_KIND_PRESENT),
		vr(14, 2, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x4fe,	/* backwards */
		   PTWALK_KIND_PRESENT),
	};
	struct dma_view d;
	struct sink s;

	(void)state;
	view_of(&d, &s, 0, 16, rs, sizeof(rs) / sizeof(rs[0]));
	assert_int_equal(s.nr_runs, 3);
	assert_int_equal(s.runs[0].start, PG(0));
	assert_int_equal(s.runs[0].pages, 13);
	assert_int_equal(s.runs[0].pfn, 0x100);
	assert_int_equal(s.runs[1].pfn, 0x500);
	assert_int_equal(s.runs[2].pages, 2);
	assert_int_equal(s.nr_holes, 0);
	assert_int_equal(d.t.runs, 3);
	assert_int_equal(d.t.largest_run, 13);
	assert_int_equal(d.t.frame_pages, 16);
	assert_int_equal(d.t.pages, 16);
	assert_int_equal(d.t.min_align, 0x2000);	/* 0x4fe000 */
	assert_true(dma_resident(&d));
}

/* Frames that continue across a virtual gap are two runs, not one. */
static void virtual_gap_breaks_a_run(void **state)
{
	struct dma_view d;
	struct sink s;

	(void)state;
	view(&d, &s, 0, 8);
	dma_add(&d, PG(0), 2, 0x200, DMA_HOLE_NOT_PRESENT, NULL);
	dma_add(&d, PG(3), 2, 0x202, DMA_HOLE_NOT_PRESENT, NULL);
	dma_finish(&d);
	assert_int_equal(s.nr_runs, 2);
	assert_int_equal(s.nr_holes, 2);
	assert_int_equal(s.holes[0].start, PG(2));
	assert_int_equal(s.holes[0].pages, 1);
	assert_int_equal(s.holes[0].kind, DMA_HOLE_UNMAPPED);
	assert_int_equal(s.holes[1].start, PG(5));	/* the range's tail */
	assert_int_equal(s.holes[1].pages, 3);
	assert_int_equal(s.holes[1].kind, DMA_HOLE_UNMAPPED);
	assert_int_equal(d.t.hole_pages[DMA_HOLE_UNMAPPED], 4);
	assert_int_equal(d.t.pages, 8);
	assert_false(dma_resident(&d));
}

static void hole_kinds(void **state)
{
	struct verdict_range rs[] = {
		vr(2, 3, CLASS_NOT_PRESENT, PTWALK_LEVEL_NONE, NO_PFN,
		   PTWALK_KIND_NONE),
		vr(5, 1, CLASS_NOT_PRESENT, PTWALK_LEVEL_PTE, NO_PFN,
		   PTWALK_KIND_MARKER),		/* same kind: joins */
		vr(6, 2, CLASS_SWAPPED, PTWALK_LEVEL_PTE, NO_PFN,
		   PTWALK_KIND_SWAP),
		vr(8, 1, CLASS_SWAPPED, PTWALK_LEVEL_PTE, NO_PFN,
		   PTWALK_KIND_MIGRATION),
		vr(9, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x77,
		   PTWALK_KIND_PRESENT),
		/* ptwalk is the truth: its hole counts, not pagemap's frame */
		vr(10, 1, CLASS_MISMATCH, PTWALK_LEVEL_PTE, NO_PFN,
		   PTWALK_KIND_NONE),
	};
	struct dma_view d;
	struct sink s;

	(void)state;
	view_of(&d, &s, 0, 11, rs, sizeof(rs) / sizeof(rs[0]));
	assert_int_equal(s.nr_holes, 5);
	assert_int_equal(s.holes[0].kind, DMA_HOLE_UNMAPPED);	/* the head */
	assert_int_equal(s.holes[0].pages, 2);
	assert_int_equal(s.holes[1].kind, DMA_HOLE_NOT_PRESENT);
	assert_int_equal(s.holes[1].pages, 4);
	assert_int_equal(s.holes[2].kind, DMA_HOLE_SWAPPED);
	assert_int_equal(s.holes[3].kind, DMA_HOLE_OTHER);
	assert_int_equal(s.holes[4].start, PG(10));
	assert_int_equal(d.t.holes, 5);
	assert_int_equal(d.t.hole_pages[DMA_HOLE_NOT_PRESENT], 5);
	assert_int_equal(d.t.hole_pages[DMA_HOLE_SWAPPED], 2);
	assert_int_equal(d.t.hole_pages[DMA_HOLE_OTHER], 1);
	assert_int_equal(d.t.runs, 1);
	assert_int_equal(d.t.pages, 11);
	assert_string_equal(dma_hole_kind_name(DMA_HOLE_OTHER), "other_entry");
}

static void four_gib_line(void **state)
{
	uint64_t below4g = (DMA_4G >> 12) - 1;	/* last frame below 4 GiB */
	struct dma_view d;
	struct sink s;

	(void)state;
	view(&d, &s, 0, 16);
	dma_add(&d, PG(0), 4, 0x100, 0, NULL);		/* below */
	dma_add(&d, PG(4), 3, below4g, 0, NULL);		/* crosses: 2 above */
	dma_add(&d, PG(7), 5, 0x140000, 0, NULL);		/* above */
	dma_add(&d, PG(12), 4, below4g - 3, 0, NULL);		/* ends at the line */
	dma_finish(&d);
	assert_int_equal(s.nr_runs, 4);
	assert_false(dma_run_crosses_4g(&s.runs[0]));
	assert_false(dma_run_above_4g(&s.runs[0]));
	assert_true(dma_run_crosses_4g(&s.runs[1]));
	assert_false(dma_run_above_4g(&s.runs[1]));
	assert_false(dma_run_crosses_4g(&s.runs[2]));
	assert_true(dma_run_above_4g(&s.runs[2]));
	assert_false(dma_run_crosses_4g(&s.runs[3]));
	assert_false(dma_run_above_4g(&s.runs[3]));
	assert_int_equal(d.t.runs_crossing_4g, 1);
	assert_int_equal(d.t.runs_above_4g, 1);
	assert_int_equal(d.t.pages_above_4g, 2 + 5);
}

/*
 * With 16K and 64K pages (arm64), frames and pages are the kernel's: the
 * 4 GiB line falls at frame 4G >> shift, alignment is of the frame's
 * bytes, consecutive pages are 1 << shift apart.  A 4K constant anywhere
 * in the DMA view gets each of these wrong.
 */
static void four_gib_line_in_kernel_pages(void **state)
{
	(void)state;
	ut_for_each_big_page(sh) {
		const struct dma_sink k = { .run = on_run, .hole = on_hole };
		uint64_t page = 1ULL << sh, below4g = (DMA_4G >> sh) - 1;
		struct dma_view d;
		struct sink s = { 0 };
		struct dma_sink sk = k;

		sk.arg = &s;
		dma_init(&d, BASE, BASE + 16 * page, &sk, sh);
		/* two pieces whose frames follow: one run of 4 pages */
		dma_add(&d, BASE, 2, 0x101, 0, NULL);
		dma_add(&d, BASE + 2 * page, 2, 0x103, 0, NULL);
		/* crosses the line: its second page is above */
		dma_add(&d, BASE + 5 * page, 2, below4g, 0, NULL);
		dma_finish(&d);
		assert_int_equal(s.nr_runs, 2);
		assert_int_equal(s.runs[0].pages, 4);
		assert_int_equal(s.runs[0].page_shift, sh);
		assert_false(dma_run_crosses_4g(&s.runs[0]));
		assert_true(dma_run_crosses_4g(&s.runs[1]));
		assert_int_equal(d.t.runs_crossing_4g, 1);
		assert_int_equal(d.t.pages_above_4g, 1);
		/* frame 0x101's bytes: aligned to one kernel page */
		assert_int_equal(d.t.min_align, page);
		/* the holes: page 4, pages 7 to 15 */
		assert_int_equal(s.nr_holes, 2);
		assert_int_equal(s.holes[0].start, BASE + 4 * page);
		assert_int_equal(s.holes[0].pages, 1);
		assert_int_equal(s.holes[1].pages, 9);
		assert_int_equal(d.t.pages, 16);
	}
}

static void locked(void **state)
{
	struct dma_view d;
	struct sink s;

	(void)state;
	view(&d, &s, 0, 8);
	dma_add_vma(&d, 8, PTWALK_VM_READ | PTWALK_VM_LOCKED, true);
	dma_add(&d, PG(0), 8, 0x300, 0, NULL);
	dma_finish(&d);
	assert_true(dma_locked(&d));

	view(&d, &s, 0, 8);
	dma_add_vma(&d, 4, PTWALK_VM_LOCKED, true);
	dma_add_vma(&d, 4, PTWALK_VM_READ, true);
	dma_finish(&d);
	assert_false(dma_locked(&d));
	assert_int_equal(d.t.locked_pages, 4);

	/* an unmapped gap is not locked; flags unknown ("gone") neither */
	view(&d, &s, 0, 8);
	dma_add_vma(&d, 4, PTWALK_VM_LOCKED, true);
	dma_add(&d, PG(0), 4, 0x300, 0, NULL);
	dma_finish(&d);
	assert_false(dma_locked(&d));
	view(&d, &s, 0, 8);
	dma_add_vma(&d, 8, PTWALK_VM_LOCKED, false);
	dma_finish(&d);
	assert_false(dma_locked(&d));
	view(&d, &s, 0, 8);
	dma_finish(&d);
	assert_false(dma_locked(&d));			/* nothing mapped */
}

/* Pieces outside the range, or already accounted, are clipped. */
static void clipping(void **state)
{
	struct dma_view d;
	struct sink s;

	(void)state;
	view(&d, &s, 4, 12);
	dma_add(&d, PG(0), 6, 0x400, 0, NULL);	/* pages 4, 5 count */
	dma_add(&d, PG(5), 3, 0x405, 0, NULL);	/* page 5 again: 6, 7 */
	dma_add(&d, PG(10), 8, NO_PFN, DMA_HOLE_SWAPPED, NULL); /* 10, 11 */
	dma_add(&d, PG(40), 8, 0x999, 0, NULL);	/* beyond */
	dma_finish(&d);
	assert_int_equal(s.nr_runs, 1);
	assert_int_equal(s.runs[0].start, PG(4));
	assert_int_equal(s.runs[0].pfn, 0x404);
	assert_int_equal(s.runs[0].pages, 4);
	assert_int_equal(s.nr_holes, 2);
	assert_int_equal(s.holes[0].kind, DMA_HOLE_UNMAPPED);
	assert_int_equal(s.holes[1].pages, 2);
	assert_int_equal(d.t.pages, 8);
}

/* A million scattered pages: every run reaches the sink, memory is fixed. */
static void many_runs(void **state)
{
	const uint64_t n = 1 << 20;
	struct dma_view d;
	struct sink s;

	(void)state;
	view(&d, &s, 0, n);
	for (uint64_t i = 0; i < n; i++)
		dma_add(&d, PG(i), 1, (i * 7919) % (1 << 22) * 2,
			DMA_HOLE_NOT_PRESENT, NULL);
	dma_finish(&d);
	assert_int_equal(d.t.runs, n);
	assert_int_equal(s.calls, n);
	assert_int_equal(d.t.largest_run, 1);
}

/* --- the report section --- */

struct doc {
	char *buf;
	size_t len;
	FILE *out;
	struct report r;
	struct dma_view view;
	struct report_dma rd;
};

static void doc_open(struct doc *d, enum report_format fmt, uint64_t first,
		     uint64_t last)
{
	memset(d, 0, sizeof(*d));
	d->out = open_memstream(&d->buf, &d->len);
	assert_non_null(d->out);
	report_init(&d->r, fmt, d->out, tmpfile(), tmpfile(), UT_GEOM_X86, 0);
	report_dma_init(&d->rd, fmt, &d->view, tmpfile(), tmpfile());
	report_add_dma(&d->r, &d->rd);
	assert_non_null(d->rd.runs);
	assert_non_null(d->rd.holes);
	struct dma_sink sink = report_dma_sink(&d->rd);

	dma_init(&d->view, PG(first), PG(last), &sink, UT_SHIFT_4K);
}

/* What ptcompare does with each range and VMA of a --range scan. */
static void doc_range(struct doc *d, const struct verdict_range *vr)
{
	report_range(&d->r, vr, NULL);
	dma_add_range(&d->view, vr);
}

static void doc_vma(struct doc *d, const struct maps_entry *vma,
		    const struct compare_summary *sum)
{
	report_vma(&d->r, vma, vma->start, vma->end, sum, true);
	dma_add_vma(&d->view, (vma->end - vma->start) / 4096, sum->vm_flags,
		    sum->have_vm_flags);
}

static void doc_finish(struct doc *d)
{
	struct report_target t = { .pid = 42, .comm = "t", .kernel = "6.1.0" };

	dma_finish(&d->view);
	assert_int_equal(report_finish(&d->r, &t), 0);
	fclose(d->r.vmas);
	fclose(d->r.ranges);
	fclose(d->rd.runs);
	fclose(d->rd.holes);
	fclose(d->out);
}

/* One locked VMA [2, 14) of a range [0, 16): fixture-like frames. */
static void feed(struct doc *d, uint64_t vm_flags)
{
	struct maps_entry vma = {
		.start = PG(2), .end = PG(14), .perms = "rw-s", .name = "dev",
	};
	struct compare_summary sum = { .vm_flags = vm_flags,
				       .have_vm_flags = 1 };
	struct verdict_range rs[] = {
		vr(2, 4, CLASS_PFNMAP_HIDDEN, PTWALK_LEVEL_PTE, 0x1437f8,
		   PTWALK_KIND_PRESENT),
		vr(6, 4, CLASS_PFNMAP_HIDDEN, PTWALK_LEVEL_PTE, 0x1437fc,
		   PTWALK_KIND_PRESENT),
		vr(10, 2, CLASS_NOT_PRESENT, PTWALK_LEVEL_NONE, NO_PFN,
		   PTWALK_KIND_NONE),
		vr(12, 2, CLASS_MATCH, PTWALK_LEVEL_PTE, 0xfffff,
		   PTWALK_KIND_PRESENT),
	};

	for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
		doc_range(d, &rs[i]);
		sum.pages[rs[i].cls] += rs[i].pages;
	}
	doc_vma(d, &vma, &sum);
}

static void json_object_dma(void **state)
{
	struct json_object *o, *dma, *runs, *holes, *run, *t;
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_JSON, 0, 16);
	feed(&d, PTWALK_VM_LOCKED | PTWALK_VM_PFNMAP);
	doc_finish(&d);
	o = json_tokener_parse(d.buf);
	assert_non_null(o);
	assert_int_equal(json_object_array_length(json_get(o, "ranges")), 4);
	dma = json_get(o, "dma");
	assert_string_equal(json_object_get_string(json_get(dma, "start")),
			    "0x7f0000000000");
	assert_string_equal(json_object_get_string(json_get(dma, "end")),
			    "0x7f0000010000");
	assert_int_equal(json_num(dma, "pages"), 16);
	assert_false(json_object_get_boolean(json_get(dma, "resident")));
	/* the VMA is locked, the pages around it are not mapped at all */
	assert_false(json_object_get_boolean(json_get(dma, "locked")));
	runs = json_get(dma, "runs");
	assert_int_equal(json_object_array_length(runs), 2);
	run = json_object_array_get_idx(runs, 0);
	assert_string_equal(json_object_get_string(json_get(run, "start")),
			    "0x7f0000002000");
	assert_int_equal(json_num(run, "pages"), 8);	/* two ranges, one run */
	assert_string_equal(json_object_get_string(json_get(run, "pfn")), "0x1437f8");
	assert_string_equal(json_object_get_string(json_get(run, "phys")),
			    "0x1437f8000");
	assert_int_equal(json_num(run, "align"), 0x8000);
	assert_false(json_object_get_boolean(json_get(run, "crosses_4g")));
	assert_true(json_object_get_boolean(json_get(run, "above_4g")));
	run = json_object_array_get_idx(runs, 1);
	assert_true(json_object_get_boolean(json_get(run, "crosses_4g")));
	assert_false(json_object_get_boolean(json_get(run, "above_4g")));
	holes = json_get(dma, "holes");
	assert_int_equal(json_object_array_length(holes), 3);
	assert_string_equal(json_object_get_string(
		json_get(json_object_array_get_idx(holes, 0), "kind")), "unmapped");
	assert_string_equal(json_object_get_string(
		json_get(json_object_array_get_idx(holes, 1), "kind")), "not_present");
	assert_int_equal(json_num(json_object_array_get_idx(holes, 2), "pages"), 2);
	t = json_get(dma, "totals");
	assert_int_equal(json_num(t, "runs"), 2);
	assert_int_equal(json_num(t, "frame_pages"), 10);
	assert_int_equal(json_num(t, "largest_run"), 8);
	assert_int_equal(json_num(t, "min_align"), 0x1000);	/* 0xfffff000 */
	assert_int_equal(json_num(t, "runs_crossing_4g"), 1);
	assert_int_equal(json_num(t, "runs_above_4g"), 1);
	assert_int_equal(json_num(t, "pages_above_4g"), 9);
	assert_int_equal(json_num(t, "holes"), 3);
	assert_int_equal(json_num(json_get(t, "hole_pages"), "unmapped"), 4);
	assert_int_equal(json_num(json_get(t, "hole_pages"), "not_present"), 2);
	assert_int_equal(json_num(t, "vma_pages"), 12);
	assert_int_equal(json_num(t, "locked_pages"), 12);
	json_object_put(o);
	free(d.buf);
}

static void json_locked_and_resident(void **state)
{
	struct maps_entry vma = {
		.start = PG(0), .end = PG(4), .perms = "rw-p", .name = "",
	};
	struct compare_summary sum = { .vm_flags = PTWALK_VM_LOCKED,
				       .have_vm_flags = 1,
				       .pages[CLASS_MATCH] = 4 };
	struct verdict_range r = vr(0, 4, CLASS_MATCH, PTWALK_LEVEL_PTE,
				    0x400, PTWALK_KIND_PRESENT);
	struct json_object *o, *dma;
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_JSON, 0, 4);
	doc_range(&d, &r);
	doc_vma(&d, &vma, &sum);
	doc_finish(&d);
	o = json_tokener_parse(d.buf);
	assert_non_null(o);
	dma = json_get(o, "dma");
	assert_true(json_object_get_boolean(json_get(dma, "locked")));
	assert_true(json_object_get_boolean(json_get(dma, "resident")));
	assert_int_equal(json_object_array_length(json_get(dma, "holes")), 0);
	assert_int_equal(json_num(json_get(dma, "totals"), "min_align"), 0x400000);
	json_object_put(o);
	free(d.buf);
}

static void text_section(void **state)
{
	struct doc d;
	char *dma, *verdict;

	(void)state;
	doc_open(&d, REPORT_TEXT, 0, 16);
	feed(&d, PTWALK_VM_LOCKED);
	doc_finish(&d);
	dma = strstr(d.buf, "\nDMA view of 0x7f0000000000-0x7f0000010000 (16 pages, 64 KiB), from ptwalk's frames:\n");
	verdict = strstr(d.buf, "\nverdict: ");
	assert_non_null(dma);
	assert_non_null(verdict);
	assert_true(strstr(d.buf, "\nfindings") < dma && dma < verdict);
	assert_contains(dma, "  runs: 2 physically contiguous runs, largest 8 pages (32 KiB), smallest alignment 4 KiB\n",
			"  4 GiB: 9 pages above 4 GiB, out of reach of 32-bit DMA (1 run wholly above, 1 crossing the line)\n",
			"  resident: NO: 6 pages without a frame in 3 holes (2 not_present, 4 unmapped): the range is not fully resident\n",
			"  locked: no (12 of 16 pages in VM_LOCKED VMAs)",
			"  0x7f0000002000        8  0x1437f8     0x1437f8000       32 KiB  above\n",
			"  0x7f000000c000        2  0xfffff      0xfffff000         4 KiB  CROSSES\n",
			"  0x7f000000a000        2 pages  not_present\n");
	assert_null(strstr(dma, "more runs"));
	free(d.buf);
}

/* Past REPORT_DMA_TEXT_RUNS the text says how many more; JSON lists all. */
/* A verdict range with what extended records said of its frames. */
static struct verdict_range vrx(uint64_t page, uint64_t pages, uint64_t pfn,
				uint32_t flags, uint8_t memtype, int32_t node)
{
	struct verdict_range r = vr(page, pages, CLASS_MATCH, PTWALK_LEVEL_PTE,
				    pfn, PTWALK_KIND_PRESENT);

	r.detail.walk = (struct walk_bits){ .flags = flags, .info = 1,
					    .memtype = memtype, .node = node };
	return r;
}

#define VALID PTWALK_F_PFN_VALID
#define PINNED (PTWALK_F_PFN_VALID | PTWALK_F_DMA_PINNED)

/*
 * Pinned and unpinned spans (a hole or a change of state ends one), pages
 * per memory type and per node, and the frames without struct page kept
 * for naming their device.
 */
static void pins_memtypes_nodes(void **state)
{
	struct verdict_range rs[] = {
		vrx(0, 4, 0x100, PINNED, PTWALK_MEMTYPE_WB, 0),
		vrx(4, 2, 0x104, VALID, PTWALK_MEMTYPE_WB, 0),
		vrx(6, 2, 0x900, PINNED, PTWALK_MEMTYPE_WB, 1),
		vr(8, 1, CLASS_NOT_PRESENT, PTWALK_LEVEL_NONE, NO_PFN,
		   PTWALK_KIND_NONE),
		vrx(9, 2, 0x902, PINNED, PTWALK_MEMTYPE_WB, 1),
		vrx(11, 2, 0xfd000, 0, PTWALK_MEMTYPE_WC, PTWALK_NODE_NONE),
		vrx(13, 1, 0xfd002, 0, PTWALK_MEMTYPE_UC_MINUS,
		    PTWALK_NODE_NONE),
		vrx(14, 1, 0xfe000, 0, PTWALK_MEMTYPE_UC_MINUS,
		    PTWALK_NODE_NONE),
	};
	const struct dma_totals *t;
	struct dma_view d;
	struct sink s;

	(void)state;
	view_of(&d, &s, 0, 15, rs, sizeof(rs) / sizeof(rs[0]));
	t = &d.t;
	assert_true(t->info);
	assert_int_equal(t->pin_pages[PIN_YES], 8);
	assert_int_equal(t->pin_spans[PIN_YES], 3);
	assert_int_equal(t->pin_pages[PIN_NO], 2);
	assert_int_equal(t->pin_spans[PIN_NO], 1);
	assert_int_equal(t->pin_pages[PIN_UNKNOWN], 4);
	assert_int_equal(t->memtype_pages[PTWALK_MEMTYPE_WB], 10);
	assert_int_equal(t->memtype_pages[PTWALK_MEMTYPE_WC], 2);
	assert_int_equal(t->memtype_pages[PTWALK_MEMTYPE_UC_MINUS], 2);
	assert_int_equal(t->nr_nodes, 2);
	assert_int_equal(t->nodes[0].node, 0);
	assert_int_equal(t->nodes[0].pages, 6);
	assert_int_equal(t->nodes[1].node, 1);
	assert_int_equal(t->nodes[1].pages, 4);
	assert_int_equal(t->nodeless_pages, 4);
	/* device frames: 0xfd000-0xfd002 join, 0xfe000 is a run of its own */
	assert_int_equal(t->nr_devmem, 2);
	assert_int_equal(t->devmem[0].pfn, 0xfd000);
	assert_int_equal(t->devmem[0].pages, 3);
	assert_int_equal(t->devmem[1].pfn, 0xfe000);
	assert_int_equal(t->devmem_pages, 4);
}

/* Both formats say it, with the device the caller found for a BAR. */
static void attrs_in_both_formats(void **state)
{
	struct verdict_range rs[] = {
		vrx(0, 4, 0x100, PINNED, PTWALK_MEMTYPE_WB, 0),
		vrx(4, 2, 0x104, VALID, PTWALK_MEMTYPE_WB, 0),
		vrx(6, 2, 0xfd000, 0, PTWALK_MEMTYPE_WC, PTWALK_NODE_NONE),
	};
	struct json_object *o, *dma, *dev;
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_TEXT, 0, 8);
	for (size_t i = 0; i < 3; i++)
		doc_range(&d, &rs[i]);
	d.rd.owners[0] = (struct pci_owner){ .found = true,
					     .dev = "0000:00:01.0", .bar = 0,
					     .numa_node = -1 };
	doc_finish(&d);
	assert_contains(d.buf, "  pinned: 4 pages DMA-pinned in 1 span, 2 not pinned in 1 span, 2 unknown (no struct page, or a special entry's, which is not read)",
			"  memory types: wb 6 pages, wc 2 pages\n",
			"  NUMA nodes: node 0 6 pages, no node (no struct page) 2 pages\n",
			"  device memory: 2 pages at phys 0xfd000000: PCI 0000:00:01.0 BAR 0, device NUMA node none (-1); the range's RAM is on node 0\n");
	free(d.buf);

	doc_open(&d, REPORT_JSON, 0, 8);
	for (size_t i = 0; i < 3; i++)
		doc_range(&d, &rs[i]);
	doc_finish(&d);
	o = json_tokener_parse(d.buf);
	assert_non_null(o);
	dma = json_get(o, "dma");
	assert_true(json_object_get_boolean(json_get(dma, "extended")));
	assert_int_equal(json_num(json_get(dma, "pinned"), "pages"), 4);
	assert_int_equal(json_num(json_get(dma, "pinned"), "spans"), 1);
	assert_int_equal(json_num(json_get(dma, "unpinned"), "pages"), 2);
	assert_int_equal(json_num(dma, "pin_unknown_pages"), 2);
	assert_int_equal(json_num(json_get(dma, "memtypes"), "wc"), 2);
	assert_int_equal(json_num(json_object_array_get_idx(json_get(dma, "nodes"), 0), "pages"), 6);
	dev = json_object_array_get_idx(json_get(dma, "devices"), 0);
	assert_string_equal(json_str(dev, "pfn"), "0xfd000");
	/* nobody looked for the device: null, not a guess */
	assert_null(json_get(dev, "pci_device"));
	json_object_put(o);
	free(d.buf);
}

/* arm64's memory types (from 16 on) are counted by name, not as unknown. */
static void arm64_memtypes_counted(void **state)
{
	struct verdict_range rs[] = {
		vrx(0, 3, 0x100, VALID, PTWALK_MEMTYPE_NORMAL, 0),
		vrx(3, 2, 0x10000, 0, PTWALK_MEMTYPE_DEVICE_NGNRE,
		    PTWALK_NODE_NONE),
		vrx(5, 1, 0x10010, 0, PTWALK_MEMTYPE_NORMAL_NC,
		    PTWALK_NODE_NONE),
	};
	struct json_object *o, *mt;
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_TEXT, 0, 6);
	for (size_t i = 0; i < 3; i++)
		doc_range(&d, &rs[i]);
	doc_finish(&d);
	assert_contains(d.buf, "  memory types: normal 3 pages, normal-nc 1 page, device-ngnre 2 pages\n");
	free(d.buf);

	doc_open(&d, REPORT_JSON, 0, 6);
	for (size_t i = 0; i < 3; i++)
		doc_range(&d, &rs[i]);
	doc_finish(&d);
	o = json_tokener_parse(d.buf);
	assert_non_null(o);
	mt = json_get(json_get(o, "dma"), "memtypes");
	assert_int_equal(json_num(mt, "normal"), 3);
	assert_int_equal(json_num(mt, "device-ngnre"), 2);
	assert_int_equal(json_num(mt, "normal-nc"), 1);
	assert_int_equal(json_num(json_get(o, "dma"), "memtype_unknown_pages"), 0);
	json_object_put(o);
	free(d.buf);
}

static void text_caps_json_lists_all(void **state)
{
	const unsigned int n = 3 * REPORT_DMA_TEXT_RUNS;
	struct json_object *o;
	char line[128];
	struct doc d;

	(void)state;
	for (int fmt = REPORT_TEXT; fmt <= REPORT_JSON; fmt++) {
		doc_open(&d, fmt, 0, 2 * n);
		for (unsigned int i = 0; i < n; i++) {
			struct verdict_range a = vr(2 * i, 1, CLASS_MATCH,
						    PTWALK_LEVEL_PTE, 0x1000 + 4 * i,
						    PTWALK_KIND_PRESENT);
			struct verdict_range b = vr(2 * i + 1, 1, CLASS_NOT_PRESENT,
						    PTWALK_LEVEL_NONE, NO_PFN,
						    PTWALK_KIND_NONE);

			doc_range(&d, &a);
			doc_range(&d, &b);
		}
		doc_finish(&d);
		if (fmt == REPORT_TEXT) {
			snprintf(line, sizeof(line),
				 "\n  ... %u more runs (--json lists every run)\n",
				 n - REPORT_DMA_TEXT_RUNS);
			assert_contains(d.buf, line);
			snprintf(line, sizeof(line),
				 "\n  ... %u more holes (--json lists every hole)\n",
				 n - REPORT_DMA_TEXT_HOLES);
			assert_contains(d.buf, line);
			/* the last run shown is number REPORT_DMA_TEXT_RUNS */
			snprintf(line, sizeof(line), "  0x%012llx ",
				 (unsigned long long)PG(2 * (REPORT_DMA_TEXT_RUNS - 1)));
			assert_contains(d.buf, line);
			snprintf(line, sizeof(line), "  0x%012llx ",
				 (unsigned long long)PG(2 * REPORT_DMA_TEXT_RUNS));
			assert_null(strstr(d.buf, line));
		} else {
			o = json_tokener_parse(d.buf);
			assert_non_null(o);
			assert_int_equal(json_object_array_length(
				json_get(json_get(o, "dma"), "runs")), n);
			assert_int_equal(json_object_array_length(
				json_get(json_get(o, "dma"), "holes")), n);
			json_object_put(o);
		}
		free(d.buf);
	}
}

/* Without --range there is no DMA view at all. */
static void absent_without_range(void **state)
{
	struct report r;
	struct report_target t = { .pid = 1, .comm = "", .kernel = "" };
	struct json_object *o;
	char *buf;
	size_t len;
	FILE *out;

	(void)state;
	for (int fmt = REPORT_TEXT; fmt <= REPORT_JSON; fmt++) {
		out = open_memstream(&buf, &len);
		report_init(&r, fmt, out, tmpfile(), tmpfile(), UT_GEOM_X86, 0);
		assert_int_equal(report_finish(&r, &t), 0);
		fclose(r.vmas);
		fclose(r.ranges);
		fclose(out);
		assert_null(strstr(buf, "DMA"));
		assert_null(strstr(buf, "dma"));
		if (fmt == REPORT_JSON) {
			o = json_tokener_parse(buf);
			assert_non_null(o);
			json_object_put(o);
		}
		free(buf);
	}
}

UNIT_MAIN("dma", UT(alignment), UT(runs_join_across_classes_and_levels),
	  UT(virtual_gap_breaks_a_run), UT(hole_kinds), UT(four_gib_line), UT(four_gib_line_in_kernel_pages), UT(locked),
	  UT(clipping), UT(many_runs), UT(json_object_dma),
	  UT(json_locked_and_resident), UT(text_section),
	  UT(text_caps_json_lists_all), UT(pins_memtypes_nodes),
	  UT(arm64_memtypes_counted), UT(attrs_in_both_formats),
	  UT(absent_without_range))
