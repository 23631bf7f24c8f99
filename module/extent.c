// SPDX-License-Identifier: GPL-2.0
/*
 * Extent building: runs of pages come in from the walker in address order
 * and leave as records, each run merged into the one before it when nothing
 * but its position differs.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include "walk.h"

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
			  const struct ptwalk_record *run)
{
	const struct ptwalk_record *p = &cur->pending;
	u64 step = kind_offset_advances(p->kind) ? p->nr_pages : 0;

	if (cur->pending_area != area ||
	    p->start + (p->nr_pages << PAGE_SHIFT) != run->start)
		return false;
	if (p->level != run->level || p->kind != run->kind ||
	    p->flags != run->flags || p->vm_flags != run->vm_flags ||
	    p->swap_type != run->swap_type)
		return false;
	if (p->pfn == PTWALK_PFN_NONE) {
		if (run->pfn != PTWALK_PFN_NONE)
			return false;
	} else if (run->pfn != p->pfn + p->nr_pages) {
		return false;
	}
	return run->swap_offset == p->swap_offset + step;
}

/*
 * Adds @run, which must start at the cursor.  Returns false, leaving the
 * cursor where it was, when the run starts a new record and the output has
 * no room for the one it completes: the walk stops and resumes there.
 */
bool ptwalk_emit(struct ptwalk_walk *w, const struct ptwalk_record *run)
{
	struct ptwalk_cursor *cur = w->cur;

	if (cur->have_pending && run_continues(cur, w->area_start, run)) {
		cur->pending.nr_pages += run->nr_pages;
	} else {
		if (cur->have_pending) {
			if (w->nr_out >= w->max_out) {
				w->stop = true;
				return false;
			}
			w->out[w->nr_out++] = cur->pending;
		}
		cur->pending = *run;
		cur->pending_area = w->area_start;
		cur->have_pending = true;
	}
	cur->addr = run->start + (run->nr_pages << PAGE_SHIFT);
	if (w->budget)
		w->budget--;
	if (!w->budget)
		w->stop = true;
	return true;
}

void ptwalk_charge(struct ptwalk_walk *w, unsigned int entries)
{
	w->budget -= min(w->budget, entries);
	if (!w->budget)
		w->stop = true;
}

void ptwalk_walk_finish(struct ptwalk_walk *w)
{
	struct ptwalk_cursor *cur = w->cur;

	if (cur->addr < cur->end || !cur->have_pending ||
	    w->nr_out >= w->max_out)
		return;
	w->out[w->nr_out++] = cur->pending;
	cur->have_pending = false;
}
