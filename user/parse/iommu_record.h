/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptwalk's device-view records (struct ptwalk_iommu_record) and the PCI
 * address that names a device: checked and read page by page.  Pure.
 */
#ifndef PTCOMPARE_PARSE_IOMMU_RECORD_H
#define PTCOMPARE_PARSE_IOMMU_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "module/ptwalk_abi.h"

/*
 * Whether name is a PCI address as sysfs names devices, "DDDD:BB:DD.F"
 * (hex; domain 4 to 8 digits, bus 2, slot 2 up to 1f, function 0 to 7),
 * the form ptwalk.ko accepts.
 */
bool pci_address_valid(const char *name);

/*
 * Checks that recs partition [start, end) of device addresses exactly, in
 * order, without empty records, each of a known domain with its reserved
 * field 0 and a frame range that does not wrap.  On failure writes why
 * (one line) and returns false.
 */
bool iommu_check_partition(const struct ptwalk_iommu_record *recs, size_t n,
			   uint64_t start, uint64_t end,
			   unsigned int page_shift, char *why,
			   size_t why_size);

/*
 * The device frame of iova inside r, or PTWALK_PFN_NONE (page_shift: the
 * kernel's page, which the IOMMU records count in too).
 */
uint64_t iommu_pfn_at(const struct ptwalk_iommu_record *r, uint64_t iova,
		      unsigned int page_shift);

#endif /* PTCOMPARE_PARSE_IOMMU_RECORD_H */
