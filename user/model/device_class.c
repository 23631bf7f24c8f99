// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include "model/device_class.h"

const char *device_class_name(enum device_class c)
{
	static const char *const names[DEVICE_NR_CLASSES] = {
		[DEVICE_MATCH] = "device_match",
		[DEVICE_STALE] = "device_stale",
		[DEVICE_UNMAPPED] = "device_unmapped",
		[DEVICE_ONLY] = "device_only",
		[DEVICE_NEITHER] = "neither",
	};

	return (unsigned int)c < DEVICE_NR_CLASSES ? names[c] : "?";
}

const char *iommu_domain_name(uint32_t domain)
{
	static const char *const names[] = {
		[PTWALK_IOMMU_NONE] = "none",
		[PTWALK_IOMMU_BLOCKED] = "blocked",
		[PTWALK_IOMMU_IDENTITY] = "identity",
		[PTWALK_IOMMU_UNMANAGED] = "unmanaged",
		[PTWALK_IOMMU_DMA] = "dma",
		[PTWALK_IOMMU_DMA_FQ] = "dma-fq",
	};

	return domain < sizeof(names) / sizeof(names[0]) ? names[domain] :
							   NULL;
}
