/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --faults for a device whose DMA-API mappings ptwalk.ko
 * tracks (--dma-track): a fault's page held against the device's live
 * mappings and its recent unmaps.  The last mapping of the page before
 * the fault, how long before the fault it was made and unmapped, the
 * frame the page pointed to, and the cause named.  Pure: cmd/mode_faults.c
 * reads the mappings (PTWALK_IOC_DMA_MAPS) and the frame.
 */
#ifndef PTCOMPARE_ENGINE_FAULT_DMA_H
#define PTCOMPARE_ENGINE_FAULT_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/dma_fault.h"
#include "module/ptwalk_abi.h"
#include "parse/iommu_fault.h"

struct fault_dma_match {
	bool found;		/* a tracked mapping covers the page */
	struct ptwalk_dma_mapping m;	/* the last one made before the fault */
	bool live;		/* m is mapped now (else from the history) */
	/*
	 * The physical address of the faulting page's frame under m
	 * (PTWALK_DMA_PHYS_NONE: unknown), and whether it is m's first
	 * frame, the one m's flags speak of.
	 */
	uint64_t phys;
	bool first_frame;
	/* The fault's time was known: the times below are measured. */
	bool timed;
	uint64_t mapped_us_before;	/* m made this long before the fault */
	bool unmapped_before;		/* m unmapped before the fault ... */
	uint64_t unmapped_us_before;	/* ... this long before it */
	uint64_t unmapped_us_after;	/* unmapped after it (!live only) */
	enum dma_fault_cause cause;	/* named only with a time */
	/*
	 * Nothing found, and what the module kept may not reach back to
	 * the fault: tracking began after it, or the oldest unmap kept is
	 * later than the fault (the history may have lost the page's).
	 */
	bool tracked_after;
	bool history_after;
};

/*
 * The last mapping of the page of iova (page_shift: the kernel's page)
 * made no later than fault_ns (local_clock(), kmsg's clock; 0: unknown,
 * every mapping counts and no cause is named) among the live mappings
 * maps[0 .. nr_maps) and the unmapped ones unmaps[0 .. nr_unmaps) (any
 * order), tracking having begun at tracked_ns; access is the fault's.
 */
void fault_dma_match(const struct ptwalk_dma_mapping *maps, size_t nr_maps,
		     const struct ptwalk_dma_mapping *unmaps,
		     size_t nr_unmaps, uint64_t tracked_ns, uint64_t iova,
		     uint64_t fault_ns, enum iommu_access access,
		     unsigned int page_shift, struct fault_dma_match *out);

/*
 * The cause of a fault with access on a page mapped in direction dir
 * (enum dma_data_direction), mapped at the fault or not.
 */
enum dma_fault_cause fault_dma_cause(bool mapped, uint32_t dir,
				     enum iommu_access access);

/*
 * x->m as dma_frame_at() is to read it for the faulting page's frame:
 * phys moved to x->phys, and FREE (said of the first frame) dropped when
 * the faulting page's frame is another.
 */
struct ptwalk_dma_mapping fault_dma_frame(const struct fault_dma_match *x);

#endif /* PTCOMPARE_ENGINE_FAULT_DMA_H */
