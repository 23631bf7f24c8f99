// SPDX-License-Identifier: GPL-2.0
#include "engine/dma_inventory.h"
#include "engine/kpageflags.h"

enum dma_frame dma_frame_of(const struct ptwalk_dma_mapping *m,
			    bool have_kpf, uint64_t kpf)
{
	if (m->phys == PTWALK_DMA_PHYS_NONE)
		return DMA_FRAME_UNKNOWN;
	if (!(m->flags & PTWALK_DMA_F_PAGE) ||
	    (have_kpf && (kpf & KPF(NOPAGE))))
		return DMA_FRAME_MMIO;
	if ((m->flags & PTWALK_DMA_F_FREE) ||
	    (have_kpf && (kpf & KPF(BUDDY))))
		return DMA_FRAME_FREE;
	if (!have_kpf)
		return DMA_FRAME_KERNEL;
	if (kpf & KPF(SLAB))
		return DMA_FRAME_SLAB;
	if (kpf & KPF(PGTABLE))
		return DMA_FRAME_PAGE_TABLE;
	if (kpf & KPF(RESERVED))
		return DMA_FRAME_RESERVED;
	if (kpf & KPF(ANON))
		return DMA_FRAME_ANONYMOUS;
	if (kpf & (KPF(LRU) | KPF(MMAP)))
		return DMA_FRAME_PAGE_CACHE;
	return DMA_FRAME_KERNEL;
}

/*
 * A page mapped for its own block I/O before it reached the LRU or the
 * process: a page-cache page being read (or a swap-in) is in neither
 * when its request is mapped, and a file's or anonymous page once the
 * per-CPU LRU batch is drained, the I/O still holding it (io_held).
 */
static bool io_page_joined(const struct ptwalk_dma_mapping *m, bool io_held)
{
	return io_held && PTWALK_DMA_WAS(m->flags) == PTWALK_DMA_FRAME_KERNEL &&
	       (PTWALK_DMA_NOW(m->flags) == PTWALK_DMA_FRAME_FILE ||
		PTWALK_DMA_NOW(m->flags) == PTWALK_DMA_FRAME_ANON);
}

bool dma_frame_io_held(bool have_kpf, uint64_t kpf)
{
	return have_kpf && (kpf & (KPF(LOCKED) | KPF(WRITEBACK)));
}

unsigned int dma_findings_of(const struct ptwalk_dma_mapping *m,
			     enum dma_frame fr, bool io_held,
			     bool driver_bound)
{
	unsigned int f = 0;

	/* free now, or allocated again for something else since the map */
	if (fr == DMA_FRAME_FREE ||
	    ((m->flags & PTWALK_DMA_F_PAGE) &&
	     PTWALK_DMA_WAS(m->flags) != PTWALK_DMA_FRAME_NONE &&
	     PTWALK_DMA_WAS(m->flags) != PTWALK_DMA_NOW(m->flags) &&
	     !io_page_joined(m, io_held)))
		f |= 1u << DMA_FREED_WHILE_MAPPED;
	/* a user page: a process's anonymous memory or a file's */
	if ((fr == DMA_FRAME_ANONYMOUS || fr == DMA_FRAME_PAGE_CACHE) &&
	    !(m->flags & PTWALK_DMA_F_PINNED) && !io_held)
		f |= 1u << DMA_USER_PAGE_UNPINNED;
	if (!driver_bound)
		f |= 1u << DMA_LEAKED;
	return f;
}

unsigned int dma_confirmed(const struct ptwalk_dma_mapping *m,
			   unsigned int first,
			   const struct ptwalk_dma_mapping *again,
			   const unsigned int *again_findings, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (again[i].dma == m->dma && again[i].phys == m->phys &&
		    again[i].kind == m->kind && again[i].map_ns == m->map_ns)
			return first & again_findings[i];
	return 0;
}
