// SPDX-License-Identifier: GPL-2.0
/*
 * Extent building (extent.h): a run merges into the pending record when
 * it continues it in address, frame (or swap offset), area and attributes
 * (those of the entry, of its frames, memory type, node and folio size
 * alike).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include "extent.h"

void ptwalk_cursor_init(struct ptwalk_cursor *cur, unsigned long start,
			unsigned long end)
{
	memset(cur, 0, sizeof(*cur));
	cur->addr = start;
	cur->end = end;
}

bool ptwalk_cursor_done(const struct ptwalk_cursor *cur)
{
	return cur->addr >= cur->end && !cur->have_pending;
}

/* Kinds whose swap_offset advances by one per page, like a PFN does. */
static bool kind_offset_advances(u8 kind)
{
	switch (kind) {
	case PTWALK_KIND_SWAP:
	case PTWALK_KIND_MIGRATION:
	case PTWALK_KIND_DEVICE_PRIVATE:
	case PTWALK_KIND_DEVICE_EXCLUSIVE:
	case PTWALK_KIND_HWPOISON:
		return true;
	default:
		return false;
	}
}

static bool run_continues(const struct ptwalk_cursor *cur, unsigned long area,
			  const struct ptwalk_record_ext *run_ext)
{
	const struct ptwalk_record *p = &cur->pending.rec;
	const struct ptwalk_record *run = &run_ext->rec;
	u64 step = kind_offset_advances(p->kind) ? p->nr_pages : 0;

	if (cur->pending_area != area ||
	    p->start + (p->nr_pages << PAGE_SHIFT) != run->start)
		return false;
	if (p->level != run->level || p->kind != run->kind ||
	    p->flags != run->flags || p->vm_flags != run->vm_flags ||
	    p->swap_type != run->swap_type || p->memtype != run->memtype ||
	    cur->pending.node != run_ext->node ||
	    cur->pending.folio_shift != run_ext->folio_shift)
		return false;
	if (p->pfn == PTWALK_PFN_NONE) {
		if (run->pfn != PTWALK_PFN_NONE)
			return false;
	} else if (run->pfn != p->pfn + p->nr_pages) {
		return false;
	}
	return run->swap_offset == p->swap_offset + step;
}

bool ptwalk_emit(struct ptwalk_extents *x,
		 const struct ptwalk_record_ext *run)
{
	struct ptwalk_cursor *cur = x->cur;

	if (cur->have_pending && run_continues(cur, x->area_start, run)) {
		cur->pending.rec.nr_pages += run->rec.nr_pages;
	} else {
		if (cur->have_pending) {
			if (x->nr_out >= x->max_out) {
				x->stop = true;
				return false;
			}
			x->out[x->nr_out++] = cur->pending;
		}
		cur->pending = *run;
		cur->pending_area = x->area_start;
		cur->have_pending = true;
	}
	cur->addr = run->rec.start + (run->rec.nr_pages << PAGE_SHIFT);
	if (x->budget)
		x->budget--;
	if (!x->budget)
		x->stop = true;
	return true;
}

void ptwalk_charge(struct ptwalk_extents *x, unsigned int entries)
{
	x->budget -= min(x->budget, entries);
	if (!x->budget)
		x->stop = true;
}

void ptwalk_extents_finish(struct ptwalk_extents *x)
{
	struct ptwalk_cursor *cur = x->cur;

	if (cur->addr < cur->end || !cur->have_pending ||
	    x->nr_out >= x->max_out)
		return;
	x->out[x->nr_out++] = cur->pending;
	cur->have_pending = false;
}
