// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include "engine/compare.h"
#include "engine/window.h"
#include "model/page.h"
#include "parse/record.h"

#define STREAM_RECS	256	/* records buffered per ptwalk stream */
/*
 * A block: the pages classified at once, the verdict arrays' size.
 * pagemap is still read a batch at a time (through the window); verdicts
 * are kept for a block of it only.  A verdict is about 90 bytes: where
 * every page differs, a 64K-page batch expanded to one verdict a page
 * held 5.6 MiB per engine, and eight jobs 45 MiB; 4,096 pages hold 0.35
 * MiB.  Only where pages differ are more than a few touched (a segment is
 * one verdict), so only there does a smaller block cost more re-reads.
 */
#define VERDICT_PAGES	4096

/* A ptwalk query read in order, a buffer of records at a time. */
struct record_stream {
	enum compare_stream id;
	struct ptwalk_record_ext recs[STREAM_RECS];
	size_t n, pos;
	bool eof;
};

struct compare_engine {
	const struct compare_io *io;
	unsigned int shift;		/* the kernel's page shift */
	size_t block;			/* pages classified at once */
	uint64_t *pm;			/* a block's pagemap entries the window
				 * cannot lend (window_peek()), a re-read's */
	/*
	 * Verdicts of a block: after the scan, one per segment (consecutive
	 * pages whose verdicts follow from the first's), seg_pages[i] pages
	 * each; once expanded for re-reading, one per page.
	 */
	struct page_verdict *v;
	uint32_t *seg_pages;
	size_t nr_segs;
	bool *pending;			/* still differing after re-reads */
	struct record_stream streams[NR_COMPARE_STREAMS];
	/*
	 * The plan (compare_plan()): pagemap read across its pieces through
	 * the window, and one scan query over its span, started by the first
	 * compare_piece() inside it and read on by the next ones.
	 */
	struct pagemap_window win;
	uint64_t *win_buf;
	bool planned;
	bool span_started;
	uint64_t plan_end;		/* end of the last piece */
	uint64_t plan_pos;		/* compared up to here */
	struct compare_piece solo;	/* the plan of a piece outside one */
};

const char *huge_kind_name(unsigned int i)
{
	static const char *const names[NR_HUGE_KINDS] = {
		"thp", "thp-pte", "huge-zero", "hugetlb-2M", "hugetlb-1G",
		"pfnmap-huge", "hugetlb-64K", "hugetlb-32M", "cont",
	};

	return i < NR_HUGE_KINDS ? names[i] : NULL;
}

unsigned int huge_kind_of(const struct ptwalk_record *r)
{
	bool hugetlb = r->vm_flags & PTWALK_VM_HUGETLB;

	if (r->kind != PTWALK_KIND_PRESENT)
		return 0;
	if (hugetlb) {
		bool cont = r->flags & PTWALK_F_CONT;

		if (r->level == PTWALK_LEVEL_PUD)
			return HUGE_HUGETLB_1G;
		if (r->level == PTWALK_LEVEL_PMD)
			return cont ? HUGE_HUGETLB_32M : HUGE_HUGETLB_2M;
		return cont ? HUGE_HUGETLB_64K : 0;
	}
	if (r->level == PTWALK_LEVEL_PTE)
		return r->flags & PTWALK_F_COMPOUND ? HUGE_THP_PTE : 0;
	if (r->vm_flags & PTWALK_VM_PFNMAP)
		return HUGE_PFNMAP;
	if (r->flags & PTWALK_F_HUGE_ZERO)
		return HUGE_ZERO;
	return r->level == PTWALK_LEVEL_PMD ? HUGE_THP : 0;
}

void huge_observe(struct compare_summary *sum,
		  const struct ptwalk_record_ext *x, unsigned int page_shift)
{
	const struct ptwalk_record *r = &x->rec;
	unsigned int kind = huge_kind_of(r), shift = x->folio_shift;
	bool hugetlb = r->vm_flags & PTWALK_VM_HUGETLB;
	/* a page-table page holds 2^(page_shift - 3) entries */
	unsigned int pmd_shift = 2 * page_shift - 3;

	if (r->kind != PTWALK_KIND_PRESENT)
		return;
	if (hugetlb && shift) {
		sum->hugetlb_shifts |= 1ULL << shift;
		kind &= ~(HUGE_HUGETLB_2M | HUGE_HUGETLB_1G | HUGE_HUGETLB_64K |
			  HUGE_HUGETLB_32M);
	} else if (!hugetlb && r->level == PTWALK_LEVEL_PTE &&
		   shift > page_shift && shift < pmd_shift) {
		sum->mthp_shifts |= 1ULL << shift;
		kind &= ~HUGE_THP_PTE;
	}
	if (!hugetlb && (r->flags & PTWALK_F_CONT))
		kind |= HUGE_CONT;
	sum->huge |= kind;
}

/* "64K", "2M", "1G": bytes 2^shift, in the largest unit that divides. */
static void size_name(char *buf, size_t size, const char *prefix,
		      unsigned int shift)
{
	static const char units[] = "KMGTP";
	unsigned int u = shift >= 10 ? (shift - 10) / 10 : 0;

	if (u >= sizeof(units) - 1)
		u = sizeof(units) - 2;
	if (shift < 10)
		snprintf(buf, size, "%s%lluB", prefix, 1ULL << shift);
	else
		snprintf(buf, size, "%s%llu%c", prefix,
			 1ULL << (shift - 10 - 10 * u), units[u]);
}

size_t huge_kind_names(const struct compare_summary *sum,
		       char (*names)[HUGE_NAME_MAX], size_t max)
{
	size_t n = 0;

	for (unsigned int i = 0; i < NR_HUGE_KINDS && n < max; i++)
		if (sum->huge & (1U << i))
			snprintf(names[n++], HUGE_NAME_MAX, "%s",
				 huge_kind_name(i));
	/*
	 * Set bits only, lowest first: called for every row of the VMA
	 * table, nearly all with no bit set, where a loop over 64 bits
	 * would cost each row 64 tests for nothing.
	 */
	for (uint64_t m = sum->hugetlb_shifts; m && n < max; m &= m - 1)
		size_name(names[n++], HUGE_NAME_MAX, "hugetlb-",
			  (unsigned int)__builtin_ctzll(m));
	for (uint64_t m = sum->mthp_shifts; m && n < max; m &= m - 1)
		size_name(names[n++], HUGE_NAME_MAX, "mthp-",
			  (unsigned int)__builtin_ctzll(m));
	return n;
}

void huge_add(struct compare_summary *sum, const struct compare_summary *part)
{
	sum->huge |= part->huge;
	sum->hugetlb_shifts |= part->hugetlb_shifts;
	sum->mthp_shifts |= part->mthp_shifts;
}

size_t compare_block_pages(size_t batch)
{
	size_t k = 1;

	while (batch / k > VERDICT_PAGES || batch % k)
		k++;
	return batch / k;
}

struct compare_engine *compare_new(const struct compare_io *io, size_t batch,
				   unsigned int page_shift)
{
	struct compare_engine *e = calloc(1, sizeof(*e));
	size_t n = compare_block_pages(batch);

	if (!e || !batch)
		goto fail;
	e->io = io;
	e->shift = page_shift;
	e->block = n;
	e->pm = calloc(n, sizeof(*e->pm));
	e->v = calloc(n, sizeof(*e->v));
	e->pending = calloc(n, sizeof(*e->pending));
	e->seg_pages = calloc(n, sizeof(*e->seg_pages));
	e->win_buf = calloc(batch, sizeof(*e->win_buf));
	if (!e->pm || !e->v || !e->pending || !e->seg_pages || !e->win_buf)
		goto fail;
	window_init(&e->win, e->win_buf, batch, page_shift);
	e->streams[COMPARE_SCAN].id = COMPARE_SCAN;
	e->streams[COMPARE_REREAD].id = COMPARE_REREAD;
	return e;
fail:
	compare_free(e);
	return NULL;
}

void compare_free(struct compare_engine *e)
{
	if (!e)
		return;
	free(e->pm);
	free(e->v);
	free(e->pending);
	free(e->seg_pages);
	free(e->win_buf);
	free(e);
}

static int stream_start(struct compare_engine *e, struct record_stream *s,
			uint64_t start, uint64_t end)
{
	s->n = s->pos = 0;
	s->eof = false;
	return e->io->walk_query(e->io->ctx, s->id, start, end);
}

/*
 * The record covering addr.  Addresses only grow within one query, so
 * records before it are dropped for good.  NULL with *err set when the
 * records end early or skip addr (-EPROTO) or the read fails.
 */
static ssize_t stream_read(struct compare_engine *e, struct record_stream *s)
{
	return e->io->walk_read(e->io->ctx, s->id, s->recs, STREAM_RECS);
}

static const struct ptwalk_record_ext *stream_at(struct compare_engine *e,
						 struct record_stream *s,
						 uint64_t addr, int *err)
{
	for (;;) {
		while (s->pos < s->n) {
			const struct ptwalk_record_ext *x = &s->recs[s->pos];

			if (addr < x->rec.start) {
				*err = -EPROTO;
				return NULL;
			}
			if (addr < ptwalk_record_end(&x->rec, e->shift))
				return x;
			s->pos++;
		}
		if (s->eof) {
			*err = -EPROTO;
			return NULL;
		}
		ssize_t n = stream_read(e, s);
		if (n < 0) {
			*err = (int)n;
			return NULL;
		}
		for (ssize_t i = 0; i < n; i++) {
			/*
			 * Empty or not page aligned (fuzz_compare: a record
			 * ending mid-page made scan_block() loop for ever)
			 */
			if (!s->recs[i].rec.nr_pages ||
			    s->recs[i].rec.start & ((1ULL << e->shift) - 1)) {
				*err = -EPROTO;
				return NULL;
			}
		}
		s->n = (size_t)n;
		s->pos = 0;
		s->eof = n == 0;
	}
}

void compare_page_verdict(struct page_verdict *v,
			  const struct ptwalk_record_ext *x, uint64_t addr,
			  uint64_t raw, unsigned int page_shift)
{
	const struct ptwalk_record *r = &x->rec;
	struct pagemap_entry pm;

	pagemap_decode(raw, &pm);
	v->addr = addr;
	v->cls = classify_page(r, addr, &pm, page_shift);
	v->level = r->level;
	v->walk_pfn = r->kind == PTWALK_KIND_PRESENT ? ptwalk_pfn_at(r, addr, page_shift) :
						       NO_PFN;
	/* A zeroed PFN is hidden, not frame 0: that side shows none. */
	v->pagemap_pfn = pm.present && v->cls != CLASS_PFN_ZEROED ? pm.pfn :
								    NO_PFN;
	v->detail = (struct page_detail){
		.walk_kind = r->kind,
		.walk_swap_type = r->swap_type,
		.pm_state = pm.present ? PM_STATE_PRESENT :
			    pm.swapped ? PM_STATE_SWAPPED : PM_STATE_NONE,
		.pm_swap_type = (uint8_t)pm.swap_type,
		.pm_swap_offset = pm.swap_offset,
		.walk = {
			.flags = r->flags, .vm_flags = r->vm_flags, .info = 1,
			.memtype = r->memtype, .folio_shift = x->folio_shift,
			.node = x->node,
		},
	};
	if (r->kind != PTWALK_KIND_NONE && r->kind != PTWALK_KIND_PRESENT)
		v->detail.walk_swap_offset = ptwalk_swap_offset_at(r, addr, page_shift);
}

/*
 * Notes what a record tells about the VMA, once per record: records of one
 * query never share a start address.
 */
static void observe_record(struct compare_summary *sum,
			   const struct ptwalk_record_ext *x,
			   unsigned int page_shift, uint64_t *last_start)
{
	const struct ptwalk_record *r = &x->rec;

	if (r->start == *last_start)
		return;
	*last_start = r->start;
	huge_observe(sum, x, page_shift);
	if (!sum->have_vm_flags && !(r->flags & PTWALK_F_NO_VMA)) {
		sum->vm_flags = r->vm_flags;
		sum->have_vm_flags = 1;
	}
}

/*
 * How many pages from i (below end, all inside one record) share the
 * verdict v of page i but for their position: both sides' frames advance
 * together (a match), or pagemap's entry repeats while it shows no frame
 * (hidden, zeroed or not present; the walk's frame, if any, advances on its
 * own).  The class of each such page follows from classify_page() by the
 * same argument, so the pages are not classified one by one; differing and
 * swapped pages always are.
 */
static size_t segment_length(const uint64_t *pm, size_t i, size_t end,
			     const struct page_verdict *v)
{
	uint64_t raw = pm[i], step;
	size_t j;

	if (v->cls == CLASS_MISMATCH || (raw & PM_SWAP) ||
	    (v->detail.walk_kind != PTWALK_KIND_NONE &&
	     v->detail.walk_kind != PTWALK_KIND_PRESENT))
		return 1;
	step = v->cls == CLASS_MATCH && (raw & PM_PRESENT) ? 1 : 0;
	for (j = i + 1; j < end && pm[j] == raw + step * (j - i); j++)
		;
	return j - i;
}

/* First pass over n pages from addr, on the scan stream, into segments. */
static int scan_block(struct compare_engine *e, uint64_t addr, size_t n,
		      struct compare_summary *sum, bool *differs)
{
	struct record_stream *s = &e->streams[COMPARE_SCAN];
	uint64_t last_start = UINT64_MAX;
	const uint64_t *pm;
	size_t i = 0;
	int err;

	/* in the window where it holds the block; else copied into e->pm */
	pm = window_peek(&e->win, e->io->read_pagemap, e->io->ctx, addr, n,
			 &err);
	if (!pm) {
		if (!err)
			err = window_read(&e->win, e->io->read_pagemap,
					  e->io->ctx, addr, n, e->pm);
		if (err)
			return err;
		pm = e->pm;
	}
	e->nr_segs = 0;
	*differs = false;
	while (i < n) {
		uint64_t a = addr + i * (1ULL << e->shift);
		const struct ptwalk_record_ext *x = stream_at(e, s, a, &err);
		const struct ptwalk_record *r = x ? &x->rec : NULL;
		size_t rec_end;

		if (!r)
			return err;
		observe_record(sum, x, e->shift, &last_start);
		rec_end = (ptwalk_record_end(r, e->shift) - addr) / (1ULL << e->shift);
		if (rec_end > n)
			rec_end = n;
		while (i < rec_end) {
			struct page_verdict *v = &e->v[e->nr_segs];
			size_t len;

			compare_page_verdict(v, x, addr + i * (1ULL << e->shift),
					     pm[i], e->shift);
			len = segment_length(pm, i, rec_end, v);
			e->seg_pages[e->nr_segs++] = (uint32_t)len;
			*differs |= v->cls == CLASS_MISMATCH;
			i += len;
		}
	}
	return 0;
}

/* Page k of a segment whose first page has verdict v. */
static void verdict_at(struct page_verdict *out, const struct page_verdict *v,
		       uint64_t k, unsigned int shift)
{
	*out = *v;
	out->addr += k << shift;
	if (out->walk_pfn != NO_PFN)
		out->walk_pfn += k;
	if (out->pagemap_pfn != NO_PFN)
		out->pagemap_pfn += k;
}

/*
 * Turns the segments into one verdict per page, for the re-reads.  From
 * the last segment back: segment s starts at page s or later, so no
 * segment is overwritten before it is expanded.
 */
static void expand_segments(struct compare_engine *e, size_t n)
{
	size_t end = n;

	for (size_t s = e->nr_segs; s-- > 0;) {
		struct page_verdict first = e->v[s];
		size_t start = end - e->seg_pages[s];

		for (size_t k = end - start; k-- > 0;) {
			verdict_at(&e->v[start + k], &first, k, e->shift);
			e->pending[start + k] = first.cls == CLASS_MISMATCH;
		}
		end = start;
	}
}

/* Pending pages lie in [*lo, *hi); false if none is left. */
static bool pending_span(const struct compare_engine *e, size_t n, size_t *lo,
			 size_t *hi)
{
	size_t i;

	for (i = 0; i < n && !e->pending[i]; i++)
		;
	if (i == n)
		return false;
	*lo = i;
	for (i = n; !e->pending[i - 1]; i--)
		;
	*hi = i;
	return true;
}

bool compare_sides_changed(const struct page_verdict *a,
			   const struct page_verdict *b)
{
	const struct page_detail *x = &a->detail, *y = &b->detail;

	return a->walk_pfn != b->walk_pfn || a->pagemap_pfn != b->pagemap_pfn ||
	       x->walk_kind != y->walk_kind || x->pm_state != y->pm_state ||
	       x->walk_swap_type != y->walk_swap_type ||
	       x->walk_swap_offset != y->walk_swap_offset ||
	       x->pm_swap_type != y->pm_swap_type ||
	       x->pm_swap_offset != y->pm_swap_offset;
}

/*
 * Reads the span of differing pages again, both sides close together in
 * time, and settles each page that now agrees, or whose sides changed
 * since the last read, as transient (classify_reread()).
 */
static int reread_span(struct compare_engine *e, uint64_t addr, size_t lo,
		       size_t hi)
{
	struct record_stream *s = &e->streams[COMPARE_REREAD];
	uint64_t first = addr + lo * (1ULL << e->shift);
	int err;

	err = e->io->read_pagemap(e->io->ctx, first, hi - lo, e->pm + lo);
	if (!err)
		err = stream_start(e, s, first, addr + hi * (1ULL << e->shift));
	if (err)
		return err;
	for (size_t i = lo; i < hi; i++) {
		struct page_verdict again;
		const struct ptwalk_record_ext *x;

		x = stream_at(e, s, addr + i * (1ULL << e->shift), &err);
		if (!x)
			return err;
		if (!e->pending[i])
			continue;
		compare_page_verdict(&again, x, addr + i * (1ULL << e->shift),
				     e->pm[i], e->shift);
		again.cls = classify_reread(CLASS_MISMATCH, again.cls,
					    compare_sides_changed(&e->v[i], &again));
		e->v[i] = again;
		e->pending[i] = again.cls == CLASS_MISMATCH;
	}
	return 0;
}

/* Re-reads the pages of a block that differ, then hands out every page. */
static int settle_block(struct compare_engine *e, uint64_t addr, size_t n,
			struct compare_summary *sum, struct range_merger *m)
{
	size_t lo, hi;
	int err = 0;

	expand_segments(e, n);
	for (int round = 0; !err && round < COMPARE_MAX_REREADS &&
	     pending_span(e, n, &lo, &hi); round++) {
		sum->rereads++;
		err = reread_span(e, addr, lo, hi);
	}
	for (size_t i = 0; !err && i < n; i++) {
		sum->pages[e->v[i].cls]++;
		range_merger_push(m, &e->v[i]);
	}
	return err;
}

void compare_plan(struct compare_engine *e,
		  const struct compare_piece *pieces, size_t n)
{
	window_plan(&e->win, pieces, n);
	e->planned = n > 0;
	e->span_started = false;
	e->plan_pos = n ? pieces[0].start : 0;
	e->plan_end = n ? pieces[n - 1].end : 0;
}

/*
 * Starts the scan stream for the piece [start, end): inside the plan, the
 * span's one query (started once, from the first piece compared); else a
 * query of its own, and a plan of this piece alone replaces the plan, so
 * that pagemap is read through the window there too.
 */
static int scan_start(struct compare_engine *e, uint64_t start, uint64_t end)
{
	struct record_stream *s = &e->streams[COMPARE_SCAN];

	if (e->planned && start >= e->plan_pos && end <= e->plan_end) {
		e->plan_pos = end;
		if (e->span_started)
			return 0;
		e->span_started = true;
		return stream_start(e, s, start, e->plan_end);
	}
	e->solo = (struct compare_piece){ start, end };
	compare_plan(e, &e->solo, 1);
	e->plan_pos = end;
	e->span_started = true;
	return stream_start(e, s, start, end);
}

int compare_piece(struct compare_engine *e, uint64_t start, uint64_t end,
		  struct compare_summary *sum, range_emit_fn emit, void *arg)
{
	struct range_merger m;
	uint64_t addr;
	int err;

	range_merger_init(&m, emit, arg, e->shift);
	err = scan_start(e, start, end);
	for (addr = start; !err && addr < end;) {
		size_t n = (end - addr) / (1ULL << e->shift);
		bool differs;

		if (n > e->block)
			n = e->block;
		err = scan_block(e, addr, n, sum, &differs);
		if (!err && differs) {
			err = settle_block(e, addr, n, sum, &m);
		} else if (!err) {
			/* the common case: no page differs, whole segments go */
			for (size_t s = 0; s < e->nr_segs; s++) {
				sum->pages[e->v[s].cls] += e->seg_pages[s];
				range_merger_push_run(&m, &e->v[s],
						      e->seg_pages[s]);
			}
		}
		addr += n * (1ULL << e->shift);
	}
	/* After an error the piece is abandoned: no partial range either. */
	if (!err)
		range_merger_flush(&m);
	else
		compare_plan(e, NULL, 0);	/* the span's stream is lost */
	return err;
}
