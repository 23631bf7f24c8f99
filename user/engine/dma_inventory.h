/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --dma: a device's live DMA-API mappings as ptwalk.ko tracked
 * them, each frame with what it is now, and the findings.  Pure: the
 * caller reads the mappings (twice), /proc/kpageflags, the device's
 * IOMMU domain and sysfs.
 */
#ifndef PTCOMPARE_ENGINE_DMA_INVENTORY_H
#define PTCOMPARE_ENGINE_DMA_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/dma_class.h"
#include "module/ptwalk_abi.h"

/*
 * Pages listed per mapping at most: a bigger mapping is shown by its first
 * DMA_PAGES_MAX pages, and the report says how many it has.
 */
#define DMA_PAGES_MAX	64

/*
 * Whether a frame is held for block I/O now (its kpageflags word:
 * locked, as a page being read is, or under writeback): the page cache's
 * and swap's own DMA, which neither migration nor reclaim takes from
 * under the device, so no pin is due.
 */
bool dma_frame_io_held(bool have_kpf, uint64_t kpf);

/*
 * The kind of a mapping found by walking the device's DMA-API domain
 * (--dma --dma-api where the DMA API is not tracked): a run of device
 * addresses translated to consecutive frames, with no record of who
 * mapped it nor of a pin.  No ptwalk_dma_kind is 0.
 */
#define DMA_KIND_WALKED	0

/* One page of a mapping's device address range. */
struct dma_page {
	uint64_t pfn;		/* the frame the mapping holds there, or
				 * PTWALK_PFN_NONE: not known from the map
				 * (a vmap()ed buffer past its first page:
				 * the IOMMU's translation then names it)
				 */
	uint64_t iommu_pfn;	/* what the device's IOMMU translates the
				 * page's device address to (iommu_read),
				 * or PTWALK_PFN_NONE: nothing
				 */
	bool iommu_read;
	enum dma_frame what;	/* what the frame is now: pfn, or where
				 * pfn is not known, iommu_pfn
				 */
	bool io_held;		/* held for block I/O now:
				 * dma_frame_io_held()
				 */
};

/* Pages of page_size bytes that m's device address range covers. */
uint64_t dma_pages_of(const struct ptwalk_dma_mapping *m, uint64_t page_size);

/*
 * The frame m holds at its page i, from its physical range: contiguous,
 * but for a vmap()ed buffer, whose pages after the first are not known
 * from it (PTWALK_PFN_NONE), as for a mapping with no physical address.
 */
uint64_t dma_pfn_at(const struct ptwalk_dma_mapping *m, uint64_t i,
		    uint64_t page_size);

/*
 * What frame i of m is now: the module's flags (read with the mapping,
 * of its first frame) first, then the frame's /proc/kpageflags word
 * (have_kpf false: unread).  known: whether the frame is known at all.
 */
enum dma_frame dma_frame_at(const struct ptwalk_dma_mapping *m, uint64_t i,
			    bool known, bool have_kpf, uint64_t kpf);

/*
 * Whether the IOMMU's translation got of a page disagrees with the frame
 * want the mapping holds there: it translates to nothing, or to another
 * frame (want PTWALK_PFN_NONE, not known: only nothing disagrees).
 */
bool dma_iommu_disagrees(uint64_t want, uint64_t got);

/*
 * The findings (1u << enum dma_finding) of m, given its pages[0 .. n)
 * as the caller read them.  A walked mapping (DMA_KIND_WALKED) has no
 * record of a pin: it is never dma_user_page_unpinned.  Nor is a page
 * held for block I/O (io_held), nor is one freed for having become a
 * file's or a process's page since its map while so held (a page read
 * into the page cache joins the LRU while mapped).  Nor is an
 * unmap-optional mapping (PTWALK_DMA_F_UNMAP_OPTIONAL) anything: its
 * driver may be done with it without a word.
 */
unsigned int dma_findings_of(const struct ptwalk_dma_mapping *m,
			     const struct dma_page *pages, size_t n,
			     bool driver_bound);

/*
 * The findings of a first read that hold in the second too: the same
 * mapping (device address, frame, kind) still live in again[n] with the
 * same findings.  A mapping unmapped between the reads has none.
 */
unsigned int dma_confirmed(const struct ptwalk_dma_mapping *m,
			   unsigned int first,
			   const struct ptwalk_dma_mapping *again,
			   const unsigned int *again_findings, size_t n);

#endif /* PTCOMPARE_ENGINE_DMA_INVENTORY_H */
