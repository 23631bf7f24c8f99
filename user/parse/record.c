// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include "model/page.h"
#include "parse/record.h"

uint64_t ptwalk_record_end(const struct ptwalk_record *r,
			   unsigned int page_shift)
{
	return r->start + (r->nr_pages << page_shift);
}

uint64_t ptwalk_pfn_at(const struct ptwalk_record *r, uint64_t addr,
		       unsigned int page_shift)
{
	if (r->pfn == PTWALK_PFN_NONE)
		return PTWALK_PFN_NONE;
	return r->pfn + ((addr - r->start) >> page_shift);
}

uint64_t ptwalk_swap_offset_at(const struct ptwalk_record *r, uint64_t addr,
			       unsigned int page_shift)
{
	if (r->kind == PTWALK_KIND_MARKER || r->kind == PTWALK_KIND_UNKNOWN)
		return r->swap_offset;
	return r->swap_offset + ((addr - r->start) >> page_shift);
}

bool records_end_at(const char *what, uint64_t at, uint64_t end, char *why,
		    size_t why_size)
{
	if (at == end)
		return true;
	snprintf(why, why_size, "%s end at 0x%" PRIx64 ", expected 0x%" PRIx64,
		 what, at, end);
	return false;
}

bool ptwalk_check_partition(const struct ptwalk_record *recs, size_t n,
			    uint64_t start, uint64_t end,
			    unsigned int page_shift, char *why, size_t why_size)
{
	uint64_t expect = start;
	size_t i;

	for (i = 0; i < n; i++) {
		if (recs[i].start != expect) {
			snprintf(why, why_size,
				 "record %zu starts at 0x%" PRIx64
				 ", expected 0x%" PRIx64,
				 i, (uint64_t)recs[i].start, expect);
			return false;
		}
		if (!recs[i].nr_pages) {
			snprintf(why, why_size, "record %zu is empty", i);
			return false;
		}
		/* also a length whose end wraps around to a plausible address */
		if (expect > end ||
		    recs[i].nr_pages > (end - expect) >> page_shift) {
			snprintf(why, why_size,
				 "record %zu (%" PRIu64 " pages at 0x%" PRIx64
				 ") runs past 0x%" PRIx64, i,
				 (uint64_t)recs[i].nr_pages, expect, end);
			return false;
		}
		expect = ptwalk_record_end(&recs[i], page_shift);
	}
	return records_end_at("records", expect, end, why, why_size);
}
