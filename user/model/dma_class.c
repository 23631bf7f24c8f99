// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include "model/dma_class.h"

static const char *const frames[DMA_NR_FRAMES] = {
	[DMA_FRAME_UNKNOWN] = "unknown",
	[DMA_FRAME_MMIO] = "mmio",
	[DMA_FRAME_FREE] = "free",
	[DMA_FRAME_SLAB] = "slab",
	[DMA_FRAME_PAGE_TABLE] = "page_table",
	[DMA_FRAME_RESERVED] = "reserved",
	[DMA_FRAME_ANONYMOUS] = "anonymous",
	[DMA_FRAME_PAGE_CACHE] = "page_cache",
	[DMA_FRAME_KERNEL] = "kernel",
};

static const struct {
	const char *name, *doc;
} findings[DMA_NR_FINDINGS] = {
	[DMA_FREED_WHILE_MAPPED] = { "dma_freed_while_mapped",
		"a frame the device still has mapped was freed: it is free now, or allocated again for something else; DMA there is a use after free" },
	[DMA_USER_PAGE_UNPINNED] = { "dma_user_page_unpinned",
		"a user page is mapped for DMA without a pin (FOLL_PIN): it can move or be freed under the device" },
	[DMA_LEAKED] = { "dma_leaked",
		"the device has mappings and no driver bound: left behind at unbind" },
	[DMA_IOMMU_DISAGREES] = { "dma_iommu_disagrees",
		"the device's IOMMU translates a mapped device address to another frame than the mapping's, or to none: the device reaches memory the driver did not map for it, or faults" },
};

const char *dma_frame_name(enum dma_frame f)
{
	return (unsigned int)f < DMA_NR_FRAMES ? frames[f] : "?";
}

const char *dma_finding_name(enum dma_finding f)
{
	return (unsigned int)f < DMA_NR_FINDINGS ? findings[f].name : "?";
}

const char *dma_finding_doc(enum dma_finding f)
{
	return (unsigned int)f < DMA_NR_FINDINGS ? findings[f].doc : "?";
}
