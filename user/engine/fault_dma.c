// SPDX-License-Identifier: GPL-2.0
/* ptcompare --faults: a fault held against a device's tracked DMA mappings. */
#include <string.h>
#include "engine/fault_dma.h"

/* Whether [start, start + size) covers part of [page, page + psize). */
static bool covers(uint64_t start, uint64_t size, uint64_t page,
		   uint64_t psize)
{
	return size && page + psize > start && page < start + size &&
	       start + size >= start;
}

enum dma_fault_cause fault_dma_cause(bool mapped, uint32_t dir,
				     enum iommu_access access)
{
	if (!mapped)
		return DMA_FAULT_AFTER_UNMAP;
	/* dma_info_to_prot(): TO_DEVICE maps read-only, FROM_DEVICE write-only */
	if (access == IOMMU_ACCESS_WRITE && dir == 1)
		return DMA_FAULT_WRITE_TO_DEVICE;
	if (access == IOMMU_ACCESS_READ && dir == 2)
		return DMA_FAULT_READ_FROM_DEVICE;
	return DMA_FAULT_UNNAMED;
}

/*
 * Whether c, covering the page, is a later answer than the best so far:
 * made no later than the fault, and after best.
 */
static bool better(const struct ptwalk_dma_mapping *c,
		   const struct ptwalk_dma_mapping *best, uint64_t fault_ns)
{
	if (fault_ns && c->map_ns > fault_ns)
		return false;
	return !best || c->map_ns > best->map_ns;
}

/* The best of set[0 .. n) covering the page, after *best: *best moved. */
static bool pick(const struct ptwalk_dma_mapping *set, size_t n,
		 uint64_t page, uint64_t psize, uint64_t fault_ns,
		 const struct ptwalk_dma_mapping **best)
{
	bool moved = false;

	for (size_t i = 0; i < n; i++)
		if (covers(set[i].dma, set[i].size, page, psize) &&
		    better(&set[i], *best, fault_ns)) {
			*best = &set[i];
			moved = true;
		}
	return moved;
}

static void times(struct fault_dma_match *out, uint64_t fault_ns)
{
	const struct ptwalk_dma_mapping *m = &out->m;

	out->timed = true;
	out->mapped_us_before = (fault_ns - m->map_ns) / 1000;
	if (out->live)
		return;
	if (m->unmap_ns <= fault_ns) {
		out->unmapped_before = true;
		out->unmapped_us_before = (fault_ns - m->unmap_ns) / 1000;
	} else {
		out->unmapped_us_after = (m->unmap_ns - fault_ns) / 1000;
	}
}

void fault_dma_match(const struct ptwalk_dma_mapping *maps, size_t nr_maps,
		     const struct ptwalk_dma_mapping *unmaps,
		     size_t nr_unmaps, uint64_t tracked_ns, uint64_t iova,
		     uint64_t fault_ns, enum iommu_access access,
		     unsigned int page_shift, struct fault_dma_match *out)
{
	uint64_t psize = 1ULL << page_shift, page = iova & ~(psize - 1);
	const struct ptwalk_dma_mapping *best = NULL;
	uint64_t oldest_unmap = UINT64_MAX;
	bool live;

	memset(out, 0, sizeof(*out));
	out->phys = PTWALK_DMA_PHYS_NONE;
	pick(unmaps, nr_unmaps, page, psize, fault_ns, &best);
	live = pick(maps, nr_maps, page, psize, fault_ns, &best);
	if (!best) {
		for (size_t i = 0; i < nr_unmaps; i++)
			if (unmaps[i].unmap_ns < oldest_unmap)
				oldest_unmap = unmaps[i].unmap_ns;
		out->tracked_after = fault_ns && tracked_ns > fault_ns;
		out->history_after = fault_ns && nr_unmaps &&
				     oldest_unmap > fault_ns;
		return;
	}
	out->found = true;
	out->m = *best;
	out->live = live;
	if (best->phys != PTWALK_DMA_PHYS_NONE) {
		uint64_t first = best->dma & ~(psize - 1);

		out->phys = (best->phys & ~(psize - 1)) + (page - first);
		out->first_frame = page == first;
	}
	if (!fault_ns)
		return;
	times(out, fault_ns);
	out->cause = fault_dma_cause(!out->unmapped_before, best->dir, access);
}

struct ptwalk_dma_mapping fault_dma_frame(const struct fault_dma_match *x)
{
	struct ptwalk_dma_mapping one = x->m;

	one.phys = x->phys;
	if (!x->first_frame)
		one.flags &= ~PTWALK_DMA_F_FREE;
	return one;
}
