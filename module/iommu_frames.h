/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device view's frame arithmetic, apart from the kernel's lookups so
 * that tests/unit/test_iommu_frames.c checks it in userspace: what an
 * address the IOMMU core or the DMA layer hands back means as a frame of
 * the kernel's pages.  @sme_mask is the memory-encryption bit of a bus
 * address (x86 AMD SME's sme_me_mask; 0 elsewhere).
 */
#ifndef PTWALK_IOMMU_FRAMES_H
#define PTWALK_IOMMU_FRAMES_H

#include <linux/types.h>
#include "ptwalk_abi.h"

/*
 * Whether a paging domain's smallest page (the lowest bit of its
 * pgsize_bitmap) is smaller than the kernel's page: a kernel page is then
 * several IOMMU pages that may go to unrelated frames, so a record in
 * kernel pages would merge them silently (EDOM).  0: none stated.
 */
static inline bool ptwalk_granule_too_small(u64 pgsize_bitmap,
					    unsigned int page_shift)
{
	return pgsize_bitmap & ((1ULL << page_shift) - 1);
}

/*
 * The frame behind @phys, what dma_to_phys() answered for a device without
 * an IOMMU: PTWALK_PFN_NONE outside its dma_range_map, where
 * translate_dma_to_phys() answers (phys_addr_t)-1; up to 6.x dma_to_phys()
 * then clears the encryption bit of that answer, the newest kernels clear
 * it from the address first, so either form means "outside".
 */
static inline u64 ptwalk_direct_frame(u64 phys, u64 sme_mask,
				      unsigned int page_shift)
{
	if (phys == ~0ULL || phys == (~0ULL & ~sme_mask))
		return PTWALK_PFN_NONE;
	return phys >> page_shift;
}

/*
 * The frame an identity domain passes @iova through to: the bus address
 * less its encryption bit, which is no part of the frame.
 */
static inline u64 ptwalk_identity_frame(u64 iova, u64 sme_mask,
					unsigned int page_shift)
{
	return (iova & ~sme_mask) >> page_shift;
}

#endif /* PTWALK_IOMMU_FRAMES_H */
