/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --dma's report: a device's live DMA mappings, each with its
 * frame now and its confirmed findings, as text or one JSON document.
 */
#ifndef PTCOMPARE_REPORT_DMA_INVENTORY_PRINT_H
#define PTCOMPARE_REPORT_DMA_INVENTORY_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include "model/dma_class.h"
#include "module/ptwalk_abi.h"

struct dma_item {
	struct ptwalk_dma_mapping m;
	enum dma_frame frame;
	unsigned int findings;	/* confirmed: 1u << enum dma_finding */
	char where[128];	/* MMIO: /proc/iomem's name of the frame */
};

struct dma_inventory {
	const char *device;
	const char *driver;	/* "" when none is bound */
	const struct ptwalk_dma_query *q;
	const struct dma_item *items;
	size_t n;
};

/* Findings of all items, per finding; returns the total. */
unsigned int dma_inventory_count(const struct dma_inventory *inv,
				 unsigned int per[DMA_NR_FINDINGS]);

void dma_inventory_print_text(FILE *f, const struct dma_inventory *inv);
void dma_inventory_print_json(FILE *f, const struct dma_inventory *inv);

#endif /* PTCOMPARE_REPORT_DMA_INVENTORY_PRINT_H */
