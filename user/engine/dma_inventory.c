// SPDX-License-Identifier: GPL-2.0
#include "engine/dma_inventory.h"
#include "engine/kpageflags.h"

uint64_t dma_pages_of(const struct ptwalk_dma_mapping *m, uint64_t page_size)
{
	uint64_t first = m->dma % page_size;

	if (!m->size)
		return 0;
	return (first + m->size + page_size - 1) / page_size;
}

uint64_t dma_pfn_at(const struct ptwalk_dma_mapping *m, uint64_t i,
		    uint64_t page_size)
{
	if (m->phys == PTWALK_DMA_PHYS_NONE ||
	    (i && (m->flags & PTWALK_DMA_F_VMAPPED)))
		return PTWALK_PFN_NONE;
	return m->phys / page_size + i;
}

enum dma_frame dma_frame_at(const struct ptwalk_dma_mapping *m, uint64_t i,
			    bool known, bool have_kpf, uint64_t kpf)
{
	/* the module's flags are of the first frame */
	uint32_t flags = i ? 0 : m->flags;

	if (!known)
		return DMA_FRAME_UNKNOWN;
	if (m->kind == PTWALK_DMA_RESOURCE ||
	    (!i && !(flags & PTWALK_DMA_F_PAGE)) ||
	    (have_kpf && (kpf & KPF(NOPAGE))))
		return DMA_FRAME_MMIO;
	if ((flags & PTWALK_DMA_F_FREE) || (have_kpf && (kpf & KPF(BUDDY))))
		return DMA_FRAME_FREE;
	/*
	 * The module's word on the first frame, read with the mapping: a
	 * file's page waiting in an lru_add batch has neither LRU nor (once
	 * unmapped) MMAP in kpageflags, but has its mapping.
	 */
	switch (PTWALK_DMA_NOW(flags)) {
	case PTWALK_DMA_FRAME_SLAB:
		return DMA_FRAME_SLAB;
	case PTWALK_DMA_FRAME_PGTABLE:
		return DMA_FRAME_PAGE_TABLE;
	case PTWALK_DMA_FRAME_ANON:
		return DMA_FRAME_ANONYMOUS;
	case PTWALK_DMA_FRAME_FILE:
		return DMA_FRAME_PAGE_CACHE;
	}
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

bool dma_iommu_disagrees(uint64_t want, uint64_t got)
{
	return got == PTWALK_PFN_NONE || (want != PTWALK_PFN_NONE && got != want);
}

unsigned int dma_findings_of(const struct ptwalk_dma_mapping *m,
			     const struct dma_page *pages, size_t n,
			     bool driver_bound)
{
	unsigned int f = 0;

	/*
	 * Its driver need not unmap it, and some skip such unmaps (nvme,
	 * which unmaps some of its requests and not others): over or not,
	 * nothing says, so what became of its frames proves nothing.
	 */
	if (m->flags & PTWALK_DMA_F_UNMAP_OPTIONAL)
		return 0;
	/* allocated again for something else since the map */
	if ((m->flags & PTWALK_DMA_F_PAGE) &&
	    PTWALK_DMA_WAS(m->flags) != PTWALK_DMA_FRAME_NONE &&
	    PTWALK_DMA_WAS(m->flags) != PTWALK_DMA_NOW(m->flags) &&
	    !io_page_joined(m, n && pages[0].io_held))
		f |= 1u << DMA_FREED_WHILE_MAPPED;
	for (size_t i = 0; i < n; i++) {
		const struct dma_page *p = &pages[i];

		if (p->what == DMA_FRAME_FREE)
			f |= 1u << DMA_FREED_WHILE_MAPPED;
		/* a user page: a process's anonymous memory or a file's */
		if ((p->what == DMA_FRAME_ANONYMOUS ||
		     p->what == DMA_FRAME_PAGE_CACHE) &&
		    m->kind != DMA_KIND_WALKED &&
		    !(m->flags & PTWALK_DMA_F_PINNED) && !p->io_held)
			f |= 1u << DMA_USER_PAGE_UNPINNED;
		if (p->iommu_read && dma_iommu_disagrees(p->pfn, p->iommu_pfn))
			f |= 1u << DMA_IOMMU_DISAGREES;
	}
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
