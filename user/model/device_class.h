/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device's view (ptcompare --iommu): each page of a process's range
 * beside the device address (IOVA) that reaches it, in one class by the
 * frame the IOMMU translates the IOVA to (the device frame) and the frame
 * the page tables map at the virtual address (the walk frame).
 */
#ifndef PTCOMPARE_MODEL_DEVICE_CLASS_H
#define PTCOMPARE_MODEL_DEVICE_CLASS_H

#include <stdint.h>
#include "module/ptwalk_abi.h"

enum device_class {
	DEVICE_MATCH,		/* both map, the same frame */
	DEVICE_STALE,		/* both map, different frames: the device
				 * writes where the process no longer looks
				 */
	DEVICE_UNMAPPED,	/* the page tables map, the IOMMU does not */
	DEVICE_ONLY,		/* the IOMMU maps, the process nothing */
	DEVICE_NEITHER,		/* neither maps anything */
	DEVICE_NR_CLASSES,
};

/* A run of pages of one class whose frames are each contiguous. */
struct device_range {
	uint64_t start;		/* virtual address of the first page */
	uint64_t iova;		/* its device address */
	uint64_t pages;
	uint64_t device_pfn;	/* PTWALK_PFN_NONE: no translation */
	uint64_t walk_pfn;	/* PTWALK_PFN_NONE: nothing mapped */
	enum device_class cls;
};

/* "device_match", ...: the names the report and JSON use. */
const char *device_class_name(enum device_class c);

/*
 * "none", "blocked", "identity", "unmanaged", "dma", "dma-fq" for an enum
 * ptwalk_iommu_domain; NULL for a value this ptcompare does not know.
 */
const char *iommu_domain_name(uint32_t domain);

#endif /* PTCOMPARE_MODEL_DEVICE_CLASS_H */
