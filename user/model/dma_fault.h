/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel driver's IOMMU fault held against the device's tracked DMA-API
 * mappings (ptcompare --faults): the causes named, and the words of a
 * mapping's kind and direction.  The tables are the one place that word
 * them, for the report, JSON and the docs.
 */
#ifndef PTCOMPARE_MODEL_DMA_FAULT_H
#define PTCOMPARE_MODEL_DMA_FAULT_H

#include <stdint.h>

/* What a fault's last mapping says went wrong. */
enum dma_fault_cause {
	DMA_FAULT_UNNAMED,		/* mapped, and the access allowed */
	DMA_FAULT_AFTER_UNMAP,		/* unmapped before the fault */
	DMA_FAULT_WRITE_TO_DEVICE,	/* a write to a DMA_TO_DEVICE mapping */
	DMA_FAULT_READ_FROM_DEVICE,	/* a read of a DMA_FROM_DEVICE one */
	DMA_NR_FAULT_CAUSES,
};

/* "dma_after_unmap", ...; NULL for DMA_FAULT_UNNAMED and beyond. */
const char *dma_fault_cause_name(enum dma_fault_cause c);

/* One sentence: what the cause means (report and docs). */
const char *dma_fault_cause_doc(enum dma_fault_cause c);

/* enum ptwalk_dma_kind's word: "page", "sg", "coherent", ...; 0: "domain"
 * (a walked mapping, engine/dma_inventory.h DMA_KIND_WALKED); "?" */
const char *dma_kind_name(uint32_t kind);

/* enum dma_data_direction's word: "to_device", ...; "?" */
const char *dma_dir_name(uint32_t dir);

#endif /* PTCOMPARE_MODEL_DMA_FAULT_H */
