/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device's view of a process range: ptwalk's records of the page
 * tables (virtual addresses) beside its device-view records (IOVAs), page
 * by page, classified and merged into ranges.  Pure.
 */
#ifndef PTCOMPARE_ENGINE_DEVICE_VIEW_H
#define PTCOMPARE_ENGINE_DEVICE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/device_class.h"
#include "module/ptwalk_abi.h"

struct device_view {
	struct device_range *ranges;
	size_t nr_ranges;
	size_t cap;
	uint64_t pages[DEVICE_NR_CLASSES];	/* pages per class */
	uint64_t device_runs;	/* runs of device frames contiguous in
				 * physical memory, in IOVA order
				 */
	uint32_t domain;	/* of the first device record */
	unsigned int page_shift;	/* the kernel's page, its bytes' log2 */
	bool domain_changed;	/* another domain answered some pages */
};

/* The class of a page by its two frames (PTWALK_PFN_NONE: none). */
enum device_class device_classify(uint64_t device_pfn, uint64_t walk_pfn);

/*
 * Builds v (zeroed by the caller) for [start, end) of the process, whose
 * first page the device reaches at iova_start: walk partitions
 * [start, end) (parse/record.h checked it), dev partitions
 * [iova_start, iova_start + end - start) (parse/iommu_record.h), both
 * in pages of 1 << page_shift bytes.  0, or -ENOMEM.
 */
int device_view_build(struct device_view *v, const struct ptwalk_record *walk,
		      size_t nr_walk, const struct ptwalk_iommu_record *dev,
		      size_t nr_dev, uint64_t start, uint64_t end,
		      uint64_t iova_start, unsigned int page_shift);

void device_view_free(struct device_view *v);

#endif /* PTCOMPARE_ENGINE_DEVICE_VIEW_H */
