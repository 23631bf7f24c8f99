// SPDX-License-Identifier: GPL-2.0
/*
 * module/iommu_frames.h in userspace (the kshim of test_extent.c): the
 * device view's refusal of an IOMMU page smaller than the kernel's, the
 * no-IOMMU frame outside a dma_range_map, and the memory-encryption bit
 * kept out of frames.
 */
#include "unit.h"
#include "../../module/iommu_frames.h"

#define SZ_4K	(1ULL << 12)
#define SZ_16K	(1ULL << 14)
#define SZ_64K	(1ULL << 16)
#define SZ_2M	(1ULL << 21)
#define SZ_32M	(1ULL << 25)
#define SZ_512M	(1ULL << 29)
#define SZ_1G	(1ULL << 30)
#define SME	(1ULL << 47)	/* an AMD SME C-bit position */

/* An SMMU's pgsize_bitmap for each granule, against each kernel page. */
static void granule(void **state)
{
	(void)state;
	/* 4K granule: fine under a 4K kernel, refused under 16K and 64K */
	assert_false(ptwalk_granule_too_small(SZ_4K | SZ_2M | SZ_1G, 12));
	assert_true(ptwalk_granule_too_small(SZ_4K | SZ_2M | SZ_1G, 14));
	assert_true(ptwalk_granule_too_small(SZ_4K | SZ_2M | SZ_1G, 16));
	/* the kernel's own granule: fine */
	assert_false(ptwalk_granule_too_small(SZ_16K | SZ_32M, 14));
	assert_false(ptwalk_granule_too_small(SZ_64K | SZ_512M, 16));
	/* larger pages than the kernel's are fine too */
	assert_false(ptwalk_granule_too_small(SZ_64K | SZ_512M, 12));
	/* VT-d's bitmap (every size from 4K) under a 4K kernel */
	assert_false(ptwalk_granule_too_small(~(SZ_4K - 1), 12));
	/* no bitmap stated: nothing to refuse */
	assert_false(ptwalk_granule_too_small(0, 16));
}

/* dma_to_phys()'s answers, before and after 7.x moved the SME clear. */
static void direct_frame(void **state)
{
	(void)state;
	assert_int_equal(ptwalk_direct_frame(0x12345000, 0, 12), 0x12345);
	assert_int_equal(ptwalk_direct_frame(0x12345678, SME, 12), 0x12345);
	/* outside every dma_range_map region: never frame 0xfff... */
	assert_true(ptwalk_direct_frame(~0ULL, 0, 12) == PTWALK_PFN_NONE);
	assert_true(ptwalk_direct_frame(~0ULL, SME, 12) == PTWALK_PFN_NONE);
	/* 6.x: translate_dma_to_phys()'s -1, its C-bit cleared after */
	assert_true(ptwalk_direct_frame(~SME, SME, 12) == PTWALK_PFN_NONE);
	assert_int_equal(ptwalk_direct_frame(0x40000000, 0, 16), 0x4000);
}

/* An identity domain's bus address carries the C-bit; the frame does not. */
static void identity_frame(void **state)
{
	(void)state;
	assert_int_equal(ptwalk_identity_frame(SME | 0x5003000, SME, 12),
			 0x5003);
	assert_int_equal(ptwalk_identity_frame(0x5003000, SME, 12), 0x5003);
	assert_int_equal(ptwalk_identity_frame(0x5003000, 0, 12), 0x5003);
	assert_int_equal(ptwalk_identity_frame(SZ_1G, 0, 16), SZ_1G >> 16);
}

UNIT_MAIN("iommu_frames", UT(granule), UT(direct_frame), UT(identity_frame))
