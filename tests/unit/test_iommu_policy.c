// SPDX-License-Identifier: GPL-2.0
/*
 * module/iommu_policy.h in userspace: the whole table of which domain a
 * device-view query reads, by domain kind, query flags and lockdown.
 */
#include <errno.h>
#include "unit.h"
#include "../../module/iommu_policy.h"

#define LIVE	PTWALK_IOMMU_LIVE
#define STOPPED	PTWALK_IOMMU_OWNER_STOPPED

/* Identity, blocked and no IOMMU: no tables, read with any flags. */
static void no_tables(void **state)
{
	static const int kinds[] = {
		PTWALK_IOMMU_NONE, PTWALK_IOMMU_BLOCKED, PTWALK_IOMMU_IDENTITY,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		for (unsigned int f = 0; f <= (LIVE | STOPPED); f++) {
			assert_int_equal(ptwalk_iommu_kind_allowed(kinds[i], f,
								   false), 0);
			assert_int_equal(ptwalk_iommu_kind_allowed(kinds[i], f,
								   true), 0);
		}
}

/* Unmanaged: refused while its owner may run, read stopped or at risk. */
static void unmanaged(void **state)
{
	const int k = PTWALK_IOMMU_UNMANAGED;

	(void)state;
	assert_int_equal(ptwalk_iommu_kind_allowed(k, 0, false), -EAGAIN);
	assert_int_equal(ptwalk_iommu_kind_allowed(k, STOPPED, false), 0);
	assert_int_equal(ptwalk_iommu_kind_allowed(k, LIVE, false), 0);
	assert_int_equal(ptwalk_iommu_kind_allowed(k, LIVE | STOPPED, false),
			 0);
}

/* DMA API: the kernel owns it; "stopped" cannot be true of it. */
static void dma_api(void **state)
{
	static const int kinds[] = { PTWALK_IOMMU_DMA, PTWALK_IOMMU_DMA_FQ };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(ptwalk_iommu_kind_allowed(kinds[i], 0, false),
				 -EBUSY);
		assert_int_equal(ptwalk_iommu_kind_allowed(kinds[i], STOPPED,
							   false), -EBUSY);
		assert_int_equal(ptwalk_iommu_kind_allowed(kinds[i], LIVE,
							   false), 0);
	}
	/* the old name is the same bit */
	assert_int_equal(PTWALK_IOMMU_DMA_API, PTWALK_IOMMU_LIVE);
}

/* Confidentiality lockdown: no paging domain, whatever the flags. */
static void lockdown(void **state)
{
	static const int kinds[] = {
		PTWALK_IOMMU_UNMANAGED, PTWALK_IOMMU_DMA, PTWALK_IOMMU_DMA_FQ,
	};

	(void)state;
	for (size_t i = 0; i < 3; i++)
		for (unsigned int f = 0; f <= (LIVE | STOPPED); f++)
			assert_int_equal(ptwalk_iommu_kind_allowed(kinds[i], f,
								   true),
					 -EACCES);
}

UNIT_MAIN("iommu_policy", UT(no_tables), UT(unmanaged), UT(dma_api),
	  UT(lockdown))
