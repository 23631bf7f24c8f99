// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include "model/array.h"
#include "engine/device_view.h"
#include "model/page.h"
#include "parse/iommu_record.h"
#include "parse/record.h"

enum device_class device_classify(uint64_t device_pfn, uint64_t walk_pfn)
{
	if (device_pfn == PTWALK_PFN_NONE)
		return walk_pfn == PTWALK_PFN_NONE ? DEVICE_NEITHER :
						     DEVICE_UNMAPPED;
	if (walk_pfn == PTWALK_PFN_NONE)
		return DEVICE_ONLY;
	return device_pfn == walk_pfn ? DEVICE_MATCH : DEVICE_STALE;
}

/* a, n pages on, is b; PTWALK_PFN_NONE continues PTWALK_PFN_NONE. */
static bool pfn_follows(uint64_t a, uint64_t n, uint64_t b)
{
	if (a == PTWALK_PFN_NONE || b == PTWALK_PFN_NONE)
		return a == b;
	return a + n == b;
}

static int push(struct device_view *v, const struct device_range *r)
{
	struct device_range *p = array_grow(v->ranges, &v->cap,
					    v->nr_ranges + 1, sizeof(*p), 16, 0);

	if (!p)
		return -ENOMEM;
	v->ranges = p;
	v->ranges[v->nr_ranges++] = *r;
	return 0;
}

/*
 * A walk frame that pagemap would also call a frame: present kinds only
 * (ptwalk_pfn_at() also returns swap offsets).
 */
static uint64_t walk_frame(const struct ptwalk_record *r, uint64_t addr,
			   unsigned int page_shift)
{
	if (!r || r->kind != PTWALK_KIND_PRESENT)
		return PTWALK_PFN_NONE;
	return ptwalk_pfn_at(r, addr, page_shift);
}

int device_view_build(struct device_view *v, const struct ptwalk_record *walk,
		      size_t nr_walk, const struct ptwalk_iommu_record *dev,
		      size_t nr_dev, uint64_t start, uint64_t end,
		      uint64_t iova_start, unsigned int page_shift)
{
	struct device_range cur = { 0 };
	size_t w = 0, d = 0;
	uint64_t last_dev = PTWALK_PFN_NONE;
	bool have = false;

	v->page_shift = page_shift;
	if (nr_dev)
		v->domain = dev[0].domain;
	for (uint64_t va = start; va < end; va += 1ULL << page_shift) {
		uint64_t iova = iova_start + (va - start);
		struct device_range p = { .start = va, .iova = iova, .pages = 1 };

		while (w < nr_walk &&
		       ptwalk_record_end(&walk[w], page_shift) <= va)
			w++;
		while (d < nr_dev &&
		       dev[d].iova + (dev[d].nr_pages << page_shift) <= iova)
			d++;
		p.walk_pfn = walk_frame(w < nr_walk ? &walk[w] : NULL, va,
					page_shift);
		p.device_pfn = d < nr_dev ?
			       iommu_pfn_at(&dev[d], iova, page_shift) :
			       PTWALK_PFN_NONE;
		if (d < nr_dev && dev[d].domain != v->domain)
			v->domain_changed = true;
		p.cls = device_classify(p.device_pfn, p.walk_pfn);
		v->pages[p.cls]++;
		if (p.device_pfn != PTWALK_PFN_NONE &&
		    (last_dev == PTWALK_PFN_NONE || last_dev + 1 != p.device_pfn))
			v->device_runs++;
		last_dev = p.device_pfn;
		if (have && cur.cls == p.cls &&
		    pfn_follows(cur.device_pfn, cur.pages, p.device_pfn) &&
		    pfn_follows(cur.walk_pfn, cur.pages, p.walk_pfn)) {
			cur.pages++;
			continue;
		}
		if (have && push(v, &cur))
			return -ENOMEM;
		cur = p;
		have = true;
	}
	if (have && push(v, &cur))
		return -ENOMEM;
	return 0;
}

void device_view_free(struct device_view *v)
{
	free(v->ranges);
	v->ranges = NULL;
	v->nr_ranges = v->cap = 0;
}
