// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include "engine/dma.h"
#include "model/page.h"
#include "module/ptwalk_abi.h"

void dma_init(struct dma_view *d, uint64_t start, uint64_t end,
	      const struct dma_sink *sink, unsigned int page_shift)
{
	*d = (struct dma_view){ .start = start, .end = end, .next = start,
				.sink = *sink, .shift = page_shift };
	d->t.page_shift = page_shift;
}

uint64_t dma_align(uint64_t phys)
{
	uint64_t low = phys & -phys;	/* lowest set bit; 0 for phys 0 */

	return !low || low > DMA_ALIGN_CAP ? DMA_ALIGN_CAP : low;
}

static uint64_t run_phys_end(const struct dma_run *r)
{
	return (r->pfn + r->pages) << r->page_shift;
}

bool dma_run_crosses_4g(const struct dma_run *r)
{
	return (r->pfn << r->page_shift) < DMA_4G && run_phys_end(r) > DMA_4G;
}

bool dma_run_above_4g(const struct dma_run *r)
{
	return (r->pfn << r->page_shift) >= DMA_4G;
}

static void flush_run(struct dma_view *d)
{
	const struct dma_run *r = &d->run;
	uint64_t first_high = DMA_4G >> r->page_shift, align;
	struct dma_totals *t = &d->t;

	if (!d->have_run)
		return;
	d->have_run = false;
	t->runs++;
	if (r->pages > t->largest_run)
		t->largest_run = r->pages;
	align = dma_align(r->pfn << r->page_shift);
	if (!t->min_align || align < t->min_align)
		t->min_align = align;
	if (dma_run_crosses_4g(r))
		t->runs_crossing_4g++;
	if (dma_run_above_4g(r))
		t->runs_above_4g++;
	if (r->pfn + r->pages > first_high)
		t->pages_above_4g += r->pfn + r->pages -
				     (r->pfn > first_high ? r->pfn : first_high);
	d->sink.run(r, d->sink.arg);
}

static void flush_hole(struct dma_view *d)
{
	if (!d->have_hole)
		return;
	d->have_hole = false;
	d->t.holes++;
	d->sink.hole(&d->hole, d->sink.arg);
}

static void add_frames(struct dma_view *d, uint64_t vstart, uint64_t pages,
		       uint64_t pfn)
{
	struct dma_run *r = &d->run;

	flush_hole(d);
	d->t.frame_pages += pages;
	if (d->have_run && vstart == r->start + (r->pages << d->shift) &&
	    pfn == r->pfn + r->pages) {
		r->pages += pages;
		return;
	}
	flush_run(d);
	*r = (struct dma_run){ .start = vstart, .pages = pages, .pfn = pfn,
			       .page_shift = d->shift };
	d->have_run = true;
}

static void add_node(struct dma_totals *t, int32_t node, uint64_t pages)
{
	unsigned int i;

	if (node < 0) {
		t->nodeless_pages += pages;
		return;
	}
	for (i = 0; i < t->nr_nodes; i++) {
		if (t->nodes[i].node == node) {
			t->nodes[i].pages += pages;
			return;
		}
	}
	if (t->nr_nodes == DMA_MAX_NODES) {
		t->other_node_pages += pages;
		return;
	}
	t->nodes[t->nr_nodes++] = (struct dma_node_pages){ node, pages };
}

static void add_devmem(struct dma_totals *t, uint64_t pfn, uint64_t pages)
{
	struct dma_devmem *last = t->nr_devmem ? &t->devmem[t->nr_devmem - 1] :
						 NULL;

	t->devmem_pages += pages;
	if (last && pfn == last->pfn + last->pages)
		last->pages += pages;
	else if (t->nr_devmem < DMA_MAX_DEVMEM)
		t->devmem[t->nr_devmem++] = (struct dma_devmem){ pfn, pages };
}

/* What the records say of frames: pin spans, memory types, nodes. */
static void add_attrs(struct dma_view *d, uint64_t vstart, uint64_t pages,
		      uint64_t pfn, const struct page_detail *detail)
{
	struct dma_totals *t = &d->t;
	enum dma_pin_state pin = walk_pin_state(detail);
	uint8_t mt = walk_memtype(detail);

	t->info = true;
	t->pin_pages[pin] += pages;
	if (!d->have_span || d->span_pin != pin || vstart != d->span_next)
		t->pin_spans[pin]++;
	d->have_span = true;
	d->span_pin = pin;
	d->span_next = vstart + (pages << d->shift);
	t->memtype_pages[mt < DMA_NR_MEMTYPES ? mt : 0] += pages;
	add_node(t, walk_node(detail), pages);
	if (!(detail->walk.flags & PTWALK_F_PFN_VALID))
		add_devmem(t, pfn, pages);
}

static void add_hole(struct dma_view *d, uint64_t vstart, uint64_t pages,
		     enum dma_hole_kind kind)
{
	struct dma_hole *h = &d->hole;

	flush_run(d);
	d->have_span = false;
	d->t.hole_pages[kind] += pages;
	if (d->have_hole && h->kind == kind &&
	    vstart == h->start + (h->pages << d->shift)) {
		h->pages += pages;
		return;
	}
	flush_hole(d);
	*h = (struct dma_hole){ .start = vstart, .pages = pages, .kind = kind };
	d->have_hole = true;
}

void dma_add(struct dma_view *d, uint64_t vstart, uint64_t pages, uint64_t pfn,
	     enum dma_hole_kind kind, const struct page_detail *detail)
{
	uint64_t end = vstart + (pages << d->shift);

	if (end > d->end)
		end = d->end;
	/* what lies before d->next was accounted already */
	if (vstart < d->next) {
		if (pfn != NO_PFN)
			pfn += (d->next - vstart) >> d->shift;
		vstart = d->next;
	}
	if (vstart >= end)
		return;
	if (vstart > d->next) {
		uint64_t gap = (vstart - d->next) >> d->shift;

		add_hole(d, d->next, gap, DMA_HOLE_UNMAPPED);
		d->t.pages += gap;
	}
	pages = (end - vstart) >> d->shift;
	if (pfn == NO_PFN) {
		add_hole(d, vstart, pages, kind);
	} else {
		add_frames(d, vstart, pages, pfn);
		if (detail && detail->walk.info)
			add_attrs(d, vstart, pages, pfn, detail);
	}
	d->t.pages += pages;
	d->next = end;
}

static enum dma_hole_kind hole_kind_of(uint8_t walk_kind)
{
	switch (walk_kind) {
	case PTWALK_KIND_SWAP:
		return DMA_HOLE_SWAPPED;
	case PTWALK_KIND_MIGRATION:
	case PTWALK_KIND_DEVICE_PRIVATE:
	case PTWALK_KIND_DEVICE_EXCLUSIVE:
	case PTWALK_KIND_HWPOISON:
	case PTWALK_KIND_UNKNOWN:
		return DMA_HOLE_OTHER;
	default:	/* none, a marker on an empty entry */
		return DMA_HOLE_NOT_PRESENT;
	}
}

void dma_add_range(struct dma_view *d, const struct verdict_range *vr)
{
	dma_add(d, vr->start, vr->pages, vr->walk_pfn,
		hole_kind_of(vr->detail.walk_kind), &vr->detail);
}

void dma_add_vma(struct dma_view *d, uint64_t pages, uint64_t vm_flags,
		 bool have_vm_flags)
{
	d->t.vma_pages += pages;
	if (have_vm_flags && (vm_flags & PTWALK_VM_LOCKED))
		d->t.locked_pages += pages;
}

void dma_finish(struct dma_view *d)
{
	if (d->next < d->end) {
		uint64_t gap = (d->end - d->next) >> d->shift;

		add_hole(d, d->next, gap, DMA_HOLE_UNMAPPED);
		d->t.pages += gap;
		d->next = d->end;
	}
	flush_run(d);
	flush_hole(d);
}

bool dma_locked(const struct dma_view *d)
{
	return d->t.vma_pages && d->t.locked_pages == d->t.pages;
}

bool dma_resident(const struct dma_view *d)
{
	return d->t.frame_pages == d->t.pages;
}

const char *dma_hole_kind_name(enum dma_hole_kind k)
{
	static const char *const names[NR_DMA_HOLE_KINDS] = {
		"not_present", "swapped", "other_entry", "unmapped",
	};

	return k < NR_DMA_HOLE_KINDS ? names[k] : "?";
}
