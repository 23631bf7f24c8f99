/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel drivers' DMA (ptcompare --dma): what a mapped frame is now, and
 * the findings a live mapping can carry.  The table behind them is the
 * one place that words them, for the report, JSON and the docs.
 */
#ifndef PTCOMPARE_MODEL_DMA_CLASS_H
#define PTCOMPARE_MODEL_DMA_CLASS_H

/* What a frame of a mapping is now. */
enum dma_frame {
	DMA_FRAME_UNKNOWN,	/* no physical address known */
	DMA_FRAME_MMIO,		/* no struct page: a BAR or other MMIO */
	DMA_FRAME_FREE,		/* in the page allocator */
	DMA_FRAME_SLAB,
	DMA_FRAME_PAGE_TABLE,
	DMA_FRAME_RESERVED,
	DMA_FRAME_ANONYMOUS,	/* a process's anonymous memory */
	DMA_FRAME_PAGE_CACHE,	/* a file's page (on the LRU, not anon) */
	DMA_FRAME_KERNEL,	/* allocated, none of the above */
	DMA_NR_FRAMES,
};

/* The findings of a live mapping, each a bit of a mask (1u << f). */
enum dma_finding {
	DMA_FREED_WHILE_MAPPED,	/* a mapped frame is free */
	DMA_USER_PAGE_UNPINNED,	/* a user page mapped without a pin */
	DMA_LEAKED,		/* mapped with no driver bound */
	DMA_IOMMU_DISAGREES,	/* the IOMMU translates a page elsewhere */
	DMA_NR_FINDINGS,
};

/* "free", "slab", ...: the report's and JSON's words. */
const char *dma_frame_name(enum dma_frame f);

/* "dma_freed_while_mapped", ...; "?" beyond the findings. */
const char *dma_finding_name(enum dma_finding f);

/* One sentence: what the finding means (report and docs). */
const char *dma_finding_doc(enum dma_finding f);

#endif /* PTCOMPARE_MODEL_DMA_CLASS_H */
