/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which domains a device-view query may read, apart from the kernel's
 * lookups so that tests/unit/test_iommu_policy.c checks the whole table
 * in userspace.  A paging domain's owner frees IO page-table pages after
 * an unmap with no lock a third party can take (iommu.c's head), so one
 * is read only while that owner is stopped (PTWALK_IOMMU_OWNER_STOPPED,
 * unmanaged domains only: the DMA API's owner is the kernel) or at the
 * caller's risk (PTWALK_IOMMU_LIVE).  Under lockdown in confidentiality
 * mode none is: lockdown distrusts root, and "stopped" is root's claim,
 * which the module cannot check.
 */
#ifndef PTWALK_IOMMU_POLICY_H
#define PTWALK_IOMMU_POLICY_H

#include <linux/errno.h>
#include <linux/types.h>
#include "ptwalk_abi.h"

static inline bool ptwalk_iommu_kind_is_paging(int kind)
{
	return kind == PTWALK_IOMMU_UNMANAGED || kind == PTWALK_IOMMU_DMA ||
	       kind == PTWALK_IOMMU_DMA_FQ;
}

/*
 * 0 if a query with @flags may read a domain of @kind (enum
 * ptwalk_iommu_domain), @locked whether confidentiality lockdown is on;
 * else the errno (module/ptwalk_abi.h lists them).
 */
static inline int ptwalk_iommu_kind_allowed(int kind, u32 flags, bool locked)
{
	if (!ptwalk_iommu_kind_is_paging(kind))
		return 0;
	if (locked)
		return -EACCES;
	if (flags & PTWALK_IOMMU_LIVE)
		return 0;
	if (kind != PTWALK_IOMMU_UNMANAGED)
		return -EBUSY;
	return (flags & PTWALK_IOMMU_OWNER_STOPPED) ? 0 : -EAGAIN;
}

#endif /* PTWALK_IOMMU_POLICY_H */
