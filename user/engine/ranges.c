// SPDX-License-Identifier: GPL-2.0
#include "engine/ranges.h"

void range_merger_init(struct range_merger *m, range_emit_fn emit, void *arg,
		       unsigned int page_shift)
{
	m->have = false;
	m->shift = page_shift;
	m->emit = emit;
	m->arg = arg;
}

static bool pfn_continues(uint64_t first, uint64_t pages, uint64_t next)
{
	if (first == NO_PFN)
		return next == NO_PFN;
	return next != NO_PFN && next == first + pages;
}

static bool continues(const struct verdict_range *r,
		      const struct page_verdict *v, unsigned int shift)
{
	return v->addr == r->start + (r->pages << shift) &&
	       v->cls == r->cls && v->level == r->level &&
	       !((v->detail.walk.flags ^ r->detail.walk.flags) &
		 RANGE_SAME_WALK_FLAGS) &&
	       v->detail.walk.info == r->detail.walk.info &&
	       v->detail.walk.memtype == r->detail.walk.memtype &&
	       v->detail.walk.node == r->detail.walk.node &&
	       v->detail.walk.folio_shift == r->detail.walk.folio_shift &&
	       pfn_continues(r->walk_pfn, r->pages, v->walk_pfn) &&
	       pfn_continues(r->pagemap_pfn, r->pages, v->pagemap_pfn);
}

void range_merger_push(struct range_merger *m, const struct page_verdict *v)
{
	range_merger_push_run(m, v, 1);
}

void range_merger_push_run(struct range_merger *m,
			   const struct page_verdict *v, uint64_t pages)
{
	if (m->have && continues(&m->cur, v, m->shift)) {
		m->cur.pages += pages;
		return;
	}
	range_merger_flush(m);
	m->cur = (struct verdict_range){
		.start = v->addr, .pages = pages, .cls = v->cls, .level = v->level,
		.walk_pfn = v->walk_pfn, .pagemap_pfn = v->pagemap_pfn,
		.detail = v->detail,
	};
	m->have = true;
}

void range_merger_flush(struct range_merger *m)
{
	if (m->have)
		m->emit(&m->cur, m->arg);
	m->have = false;
}
