/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the unit, fuzz and VM tests share and ptcompare does not use,
 * kept out of user/ so that ptcompare carries no code only tests call.
 * record_find.c goes into every test program (the VM suite's too),
 * phys_set.c into those linked with engine/phys_map.c, vfio.c into the
 * VM suite and make bench's ptbench (and, unused, the unit and fuzz
 * programs, which link every file here).
 */
#ifndef PTCOMPARE_TESTS_LIB_H
#define PTCOMPARE_TESTS_LIB_H

#include <stddef.h>
#include <stdint.h>
#include "module/ptwalk_abi.h"

struct phys_set;

/* The record covering addr, or NULL; recs sorted as the module sends them. */
const struct ptwalk_record *ptwalk_find(const struct ptwalk_record *recs,
					size_t n, uint64_t addr,
					unsigned int page_shift);

/*
 * An empty set for the frames of physical [start, end) (page aligned,
 * start < end), keeping at most max mappings; allocates nothing yet.
 */
void phys_set_init(struct phys_set *s, uint64_t start, uint64_t end,
		   unsigned int page_shift, size_t max);

/*
 * A VFIO type1 container with IOMMU group group_nr attached, as a
 * user-space driver opens one: 0 with both fds set, or -errno (EBUSY: the
 * group is not viable); the fds set so far are the caller's to close.
 */
int vfio_container_open(int group_nr, int *container, int *group);

/* VFIO_IOMMU_MAP_DMA of [va, va + len) at iova, read-write: 0 or -errno. */
int vfio_dma_map(int container, const void *va, uint64_t iova, uint64_t len);

/* VFIO_IOMMU_UNMAP_DMA of [iova, iova + len): 0 or -errno. */
int vfio_dma_unmap(int container, uint64_t iova, uint64_t len);

#endif /* PTCOMPARE_TESTS_LIB_H */
