// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "engine/watch.h"
#include "parse/pagemap.h"
#include "parse/record.h"

const char *watch_cause_name(enum watch_cause c)
{
	static const char *const names[NR_WATCH_CAUSES] = {
		[WATCH_FAULTED_IN] = "faulted_in",
		[WATCH_UNMAPPED] = "unmapped",
		[WATCH_SWAPPED_OUT] = "swapped_out",
		[WATCH_SWAPPED_IN] = "swapped_in",
		[WATCH_MIGRATING] = "migrating",
		[WATCH_MIGRATED] = "migrated",
		[WATCH_THP_COLLAPSED] = "thp_collapsed",
		[WATCH_THP_SPLIT] = "thp_split",
		[WATCH_COW] = "copy_on_write",
		[WATCH_MOVED] = "moved",
		[WATCH_STATE] = "state",
	};

	return (unsigned int)c < NR_WATCH_CAUSES ? names[c] : "?";
}

void watch_clear(struct watch_page *pages, size_t n)
{
	for (size_t k = 0; k < n; k++)
		pages[k] = (struct watch_page){
			.pfn = PTWALK_PFN_NONE, .pm_pfn = PTWALK_PFN_NONE,
			.node = PTWALK_NODE_NONE,
		};
}

void watch_fill(struct watch_page *pages, uint64_t start, size_t n,
		unsigned int page_shift, const struct ptwalk_record_ext *recs,
		size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct ptwalk_record *r = &recs[i].rec;
		uint64_t first, last;

		if (r->start < start)
			continue;
		first = (r->start - start) >> page_shift;
		last = first + r->nr_pages;
		if (last > n)
			last = n;
		for (uint64_t k = first; k < last; k++) {
			uint64_t addr = start + (k << page_shift);
			struct watch_page *p = &pages[k];

			p->kind = r->kind;
			p->level = r->level;
			p->flags = r->flags;
			p->node = (int16_t)recs[i].node;
			p->pfn = r->kind == PTWALK_KIND_PRESENT ?
				 ptwalk_pfn_at(r, addr, page_shift) :
				 r->kind == PTWALK_KIND_NONE ? PTWALK_PFN_NONE :
				 ptwalk_swap_offset_at(r, addr, page_shift);
		}
	}
}

void watch_set_pagemap(struct watch_page *pages, size_t n,
		       const uint64_t *raw)
{
	for (size_t k = 0; k < n; k++) {
		struct pagemap_entry e;

		pagemap_decode(raw[k], &e);
		pages[k].pm_pfn = e.present ? e.pfn : PTWALK_PFN_NONE;
	}
}

bool watch_changed(const struct watch_page *a, const struct watch_page *b)
{
	return a->kind != b->kind || a->pfn != b->pfn || a->level != b->level;
}

static bool present(const struct watch_page *p)
{
	return p->kind == PTWALK_KIND_PRESENT;
}

enum watch_cause watch_cause_of(const struct watch_page *a,
				const struct watch_page *b)
{
	if (b->kind == PTWALK_KIND_MIGRATION)
		return WATCH_MIGRATING;
	if (a->kind == PTWALK_KIND_NONE && present(b))
		return WATCH_FAULTED_IN;
	if (present(a) && b->kind == PTWALK_KIND_NONE)
		return WATCH_UNMAPPED;
	if (b->kind == PTWALK_KIND_SWAP)
		return WATCH_SWAPPED_OUT;
	if (a->kind == PTWALK_KIND_SWAP && present(b))
		return WATCH_SWAPPED_IN;
	if (!present(a) || !present(b))
		return a->kind == PTWALK_KIND_MIGRATION && present(b) &&
		       a->pfn != b->pfn ? WATCH_MIGRATED : WATCH_STATE;
	if (a->level == PTWALK_LEVEL_PTE && b->level > PTWALK_LEVEL_PTE)
		return WATCH_THP_COLLAPSED;
	if (a->level > PTWALK_LEVEL_PTE && b->level == PTWALK_LEVEL_PTE)
		return WATCH_THP_SPLIT;
	if (a->pfn == b->pfn)
		return WATCH_STATE;
	/* fork made the page read-only; the write gave it its own copy */
	if (!(a->flags & PTWALK_F_WRITE) && (b->flags & PTWALK_F_WRITE))
		return WATCH_COW;
	if (a->node != b->node && a->node != PTWALK_NODE_NONE &&
	    b->node != PTWALK_NODE_NONE)
		return WATCH_MIGRATED;
	return WATCH_MOVED;
}

/* Whether page b's change extends run c (the page before it). */
static bool continues(const struct watch_change *c, const struct watch_page *a,
		      const struct watch_page *b, enum watch_cause cause)
{
	uint64_t k = c->pages;

	return cause == c->cause && a->kind == c->old.kind &&
	       b->kind == c->new.kind && a->level == c->old.level &&
	       b->level == c->new.level &&
	       (c->old.pfn == PTWALK_PFN_NONE ? a->pfn == PTWALK_PFN_NONE :
		a->pfn == c->old.pfn + k) &&
	       (c->new.pfn == PTWALK_PFN_NONE ? b->pfn == PTWALK_PFN_NONE :
		b->pfn == c->new.pfn + k);
}

size_t watch_diff(const struct watch_page *old, const struct watch_page *new,
		  size_t n, uint64_t start, unsigned int page_shift,
		  void (*fn)(void *arg, const struct watch_change *c),
		  void *arg)
{
	struct watch_change c;
	bool open = false;
	size_t runs = 0;

	for (size_t k = 0; k < n; k++) {
		const struct watch_page *a = &old[k], *b = &new[k];
		enum watch_cause cause;
		bool pinned;

		if (!watch_changed(a, b)) {
			if (open)
				fn(arg, &c);
			open = false;
			continue;
		}
		cause = watch_cause_of(a, b);
		/* unmapped, the pin still holds the frame: not moved */
		pinned = present(a) && present(b) &&
			 (a->flags & PTWALK_F_DMA_PINNED) &&
			 (a->flags & PTWALK_F_PFN_VALID) && a->pfn != b->pfn;
		if (open && continues(&c, a, b, cause) &&
		    pinned == c.pinned_moved) {
			c.pages++;
			continue;
		}
		if (open)
			fn(arg, &c);
		c = (struct watch_change){
			.start = start + ((uint64_t)k << page_shift), .pages = 1,
			.old = *a, .new = *b, .cause = cause,
			.pinned_moved = pinned,
		};
		open = true;
		runs++;
	}
	if (open)
		fn(arg, &c);
	return runs;
}
