// SPDX-License-Identifier: GPL-2.0
/* ptcompare --faults: the last mapping of a page, StreamID to device. */
#include <string.h>
#include "engine/fault_explain.h"
#include "parse/hex.h"

/* Whether [start, start + size) covers the page [page, page + psize). */
static bool covers(uint64_t start, uint64_t size, uint64_t page,
		   uint64_t psize)
{
	return size && page + psize > start && page < start + size &&
	       start + size >= start;
}

void fault_last_mapping(const struct ptwalk_iommu_event *ev, size_t n,
			uint64_t iova, uint64_t fault_ns,
			unsigned int page_shift,
			struct fault_last_mapping *out)
{
	uint64_t psize = 1ULL << page_shift;
	uint64_t page = iova & ~(psize - 1);
	uint64_t unmap_ns = 0, dropped = 0;
	size_t map = n;
	bool unmapped = false;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const struct ptwalk_iommu_event *e = &ev[i];

		if (fault_ns && e->time_ns > fault_ns &&
		    e->kind != PTWALK_EVENT_DROPPED)
			break;
		switch (e->kind) {
		case PTWALK_EVENT_MAP:
			if (!covers(e->iova, e->size, page, psize))
				break;
			map = i;
			unmapped = false;
			dropped = 0;
			out->unmap_pid = 0;
			break;
		case PTWALK_EVENT_UNMAP:
			if (map == n || unmapped ||
			    !covers(e->iova, e->size, page, psize))
				break;
			unmapped = true;
			unmap_ns = e->time_ns;
			out->unmap_pid = e->pid;
			break;
		case PTWALK_EVENT_DROPPED:
			dropped += e->size;
			break;
		}
	}
	out->dropped = dropped;
	if (map == n)
		return;
	out->found = true;
	out->iova = ev[map].iova;
	out->pages = (ev[map].size + psize - 1) >> page_shift;
	out->map_pid = ev[map].pid;
	out->pfn = ev[map].pfn == PTWALK_PFN_NONE ? PTWALK_PFN_NONE :
		   ev[map].pfn + ((page - (ev[map].iova & ~(psize - 1))) >>
				  page_shift);
	out->unmapped = unmapped;
	if (unmapped && fault_ns >= unmap_ns)
		out->unmapped_ms_before = (fault_ns - unmap_ns) / 1000000;
}

/* 1 to max hex digits at s, then the character end: what follows, or NULL. */
static const char *field(const char *s, size_t max, char end, uint64_t *v)
{
	const char *p = hex_scan(s, max, v);

	return p && *p == end ? p + 1 : NULL;
}

bool fault_pci_rid(const char *bdf, uint32_t *domain, uint32_t *rid)
{
	uint64_t d = 0, b = 0, s = 0, f = 0;
	const char *p = field(bdf, 4, ':', &d);

	/* "BB:DD.F" has one colon: its first field is the bus */
	if (!p || !strchr(p, ':')) {
		d = 0;
		p = bdf;
	}
	p = field(p, 2, ':', &b);
	p = p ? field(p, 2, '.', &s) : NULL;
	p = p ? hex_scan(p, 1, &f) : NULL;
	if (!p || *p || s > 31 || f > 7)
		return false;
	*domain = (uint32_t)d;
	*rid = (uint32_t)(b << 8 | s << 3 | f);
	return true;
}

bool fault_sid_matches(const char *bdf, uint32_t sid, uint32_t sid_base)
{
	uint32_t domain, rid;

	return fault_pci_rid(bdf, &domain, &rid) && rid + sid_base == sid;
}
