/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --dma's report: a device's live DMA mappings, each with its
 * frames, what each is now and, with --dma-api, what the IOMMU
 * translates its pages to, and its confirmed findings; as text or one
 * JSON document.
 */
#ifndef PTCOMPARE_REPORT_DMA_INVENTORY_PRINT_H
#define PTCOMPARE_REPORT_DMA_INVENTORY_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine/dma_inventory.h"
#include "model/dma_class.h"
#include "module/ptwalk_abi.h"

/* Whose a page's frame is now, and the name of an MMIO frame. */
struct dma_page_who {
	int32_t pid;		/* a process mapping the frame now; 0: none
				 * found (or not looked for: not a user page)
				 */
	uint64_t va;		/* where pid maps it */
	char comm[16];
	/*
	 * A page-cache frame's file: its path below its filesystem's root
	 * as ptwalk.ko found it ("..." where cut), else the path of pid's
	 * mapping of it; "" unknown.
	 */
	char file[PTWALK_FRAME_PATH_MAX + 4];
	char fstype[16];	/* the file's filesystem, "" unknown */
	uint64_t ino;		/* the file's inode number, 0 unknown */
	char iomem[96];		/* MMIO: /proc/iomem's name of the frame */
};

struct dma_item {
	struct ptwalk_dma_mapping m;
	unsigned int findings;	/* confirmed: 1u << enum dma_finding */
	uint64_t nr_pages;	/* the pages the mapping covers */
	const struct dma_page *pages;	/* the first n of them */
	const struct dma_page_who *who;	/* pages[]'s, or NULL */
	size_t n;
	int iommu_err;		/* --dma-api: 0 read, or the -errno of the
				 * read of the domain
				 */
	uint32_t domain;	/* --dma-api, read: enum ptwalk_iommu_domain */
};

/* Device addresses [start, end) a walk of the domain read. */
struct dma_window {
	uint64_t start, end;
};

struct dma_inventory {
	const char *device;
	const char *driver;	/* "" when none is bound */
	const struct ptwalk_dma_query *q;
	const struct dma_item *items;
	size_t n;
	bool dma_api;		/* the IOMMU domain was asked (--dma-api) */
	bool walked;		/* the mappings are the domain's translated
				 * runs over the windows: the DMA API is
				 * not tracked
				 */
	const struct dma_window *windows;
	size_t nr_windows;
	size_t unmap_optional;	/* of the items, those whose driver need
				 * not unmap them (not judged)
				 */
	int users_err;		/* -errno of the look for the processes
				 * mapping user frames, 0 when it went well
				 */
	unsigned int page_shift;
};

/* Findings of all items, per finding; returns the total. */
unsigned int dma_inventory_count(const struct dma_inventory *inv,
				 unsigned int per[DMA_NR_FINDINGS]);

void dma_inventory_print_text(FILE *f, const struct dma_inventory *inv);
void dma_inventory_print_json(FILE *f, const struct dma_inventory *inv);

#endif /* PTCOMPARE_REPORT_DMA_INVENTORY_PRINT_H */
