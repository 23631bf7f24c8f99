// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include "model/dma_fault.h"
#include "module/ptwalk_abi.h"

static const struct {
	const char *name, *doc;
} causes[DMA_NR_FAULT_CAUSES] = {
	[DMA_FAULT_UNNAMED] = { NULL,
		"the page was mapped at the fault and its direction allows the access: the mappings name no cause" },
	[DMA_FAULT_AFTER_UNMAP] = { "dma_after_unmap",
		"the device used the address after the driver unmapped it: DMA after unmap" },
	[DMA_FAULT_WRITE_TO_DEVICE] = { "dma_write_to_device_mapping",
		"the device wrote a buffer mapped DMA_TO_DEVICE, which the IOMMU maps read-only" },
	[DMA_FAULT_READ_FROM_DEVICE] = { "dma_read_from_device_mapping",
		"the device read a buffer mapped DMA_FROM_DEVICE, which the IOMMU maps write-only" },
};

/* 0 is no ptwalk_dma_kind: a mapping found by walking the domain */
static const char *const kinds[] = {
	[0] = "domain", [PTWALK_DMA_PAGE] = "page", [PTWALK_DMA_RESOURCE] = "resource",
	[PTWALK_DMA_SG] = "sg", [PTWALK_DMA_COHERENT] = "coherent",
	[PTWALK_DMA_PAGES] = "pages", [PTWALK_DMA_SGT] = "sgt",
};

static const char *const dirs[] = {
	"bidirectional", "to_device", "from_device", "none",
};

const char *dma_fault_cause_name(enum dma_fault_cause c)
{
	return (unsigned int)c < DMA_NR_FAULT_CAUSES ? causes[c].name : NULL;
}

const char *dma_fault_cause_doc(enum dma_fault_cause c)
{
	return (unsigned int)c < DMA_NR_FAULT_CAUSES ? causes[c].doc : "?";
}

const char *dma_kind_name(uint32_t kind)
{
	return kind < sizeof(kinds) / sizeof(kinds[0]) && kinds[kind] ?
	       kinds[kind] : "?";
}

const char *dma_dir_name(uint32_t dir)
{
	return dir < sizeof(dirs) / sizeof(dirs[0]) ? dirs[dir] : "?";
}
