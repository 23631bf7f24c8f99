// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include "model/device_class.h"
#include "model/page.h"
#include "parse/hex.h"
#include "parse/iommu_record.h"
#include "parse/record.h"

/* At least min, at most max hex digits at *p, value <= limit. */
static bool hex_field(const char **p, size_t min, size_t max, uint64_t limit)
{
	uint64_t v;
	const char *c = hex_scan(*p, max, &v);

	if (!c || (size_t)(c - *p) < min || v > limit)
		return false;
	*p = c;
	return true;
}

bool pci_address_valid(const char *name)
{
	const char *p = name;

	return hex_field(&p, 4, 8, 0xffffffffUL) && *p++ == ':' &&
	       hex_field(&p, 2, 2, 0xff) && *p++ == ':' &&
	       hex_field(&p, 2, 2, 0x1f) && *p++ == '.' &&
	       hex_field(&p, 1, 1, 7) && !*p &&
	       (size_t)(p - name) < PTWALK_IOMMU_DEVICE_MAX;
}

bool iommu_check_partition(const struct ptwalk_iommu_record *recs, size_t n,
			   uint64_t start, uint64_t end,
			   unsigned int page_shift, char *why,
			   size_t why_size)
{
	uint64_t at = start;

	for (size_t i = 0; i < n; i++) {
		const struct ptwalk_iommu_record *r = &recs[i];

		if (r->iova != at) {
			snprintf(why, why_size,
				 "device record %zu starts at 0x%" PRIx64 ", expected 0x%" PRIx64,
				 i, (uint64_t)r->iova, at);
			return false;
		}
		if (!r->nr_pages || r->nr_pages > (end - at) >> page_shift) {
			snprintf(why, why_size,
				 "device record %zu at 0x%" PRIx64 " has %" PRIu64 " pages, outside the range",
				 i, (uint64_t)r->iova, (uint64_t)r->nr_pages);
			return false;
		}
		if (!iommu_domain_name(r->domain) || r->reserved) {
			snprintf(why, why_size,
				 "device record %zu at 0x%" PRIx64 " has an unknown domain %" PRIu32,
				 i, (uint64_t)r->iova, (uint32_t)r->domain);
			return false;
		}
		if (r->pfn != PTWALK_PFN_NONE &&
		    r->pfn + r->nr_pages < r->pfn) {
			snprintf(why, why_size,
				 "device record %zu at 0x%" PRIx64 " has frames past the end of memory",
				 i, (uint64_t)r->iova);
			return false;
		}
		at += r->nr_pages << page_shift;
	}
	return records_end_at("device records", at, end, why, why_size);
}

uint64_t iommu_pfn_at(const struct ptwalk_iommu_record *r, uint64_t iova,
		      unsigned int page_shift)
{
	if (r->pfn == PTWALK_PFN_NONE)
		return PTWALK_PFN_NONE;
	return r->pfn + ((iova - r->iova) >> page_shift);
}
