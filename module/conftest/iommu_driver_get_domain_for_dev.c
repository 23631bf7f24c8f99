// SPDX-License-Identifier: GPL-2.0
/* iommu_driver_get_domain_for_dev(), for callers holding the group's mutex. */
#include <linux/iommu.h>

__typeof__(iommu_driver_get_domain_for_dev) *ptwalk_conftest =
	iommu_driver_get_domain_for_dev;
