/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --dma: a device's live DMA-API mappings as ptwalk.ko tracked
 * them, each with what its frame is now and its findings.  Pure: the
 * caller reads the mappings (twice), /proc/kpageflags and sysfs.
 */
#ifndef PTCOMPARE_ENGINE_DMA_INVENTORY_H
#define PTCOMPARE_ENGINE_DMA_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/dma_class.h"
#include "module/ptwalk_abi.h"

/*
 * The first frame's state from the module's flags (read with the
 * mapping) and its /proc/kpageflags word (have_kpf false: unread).
 */
enum dma_frame dma_frame_of(const struct ptwalk_dma_mapping *m,
			    bool have_kpf, uint64_t kpf);

/*
 * Whether the first frame is held for block I/O now (its kpageflags
 * word: locked, as a page being read is, or under writeback): the page
 * cache's and swap's own DMA, which neither migration nor reclaim takes
 * from under the device, so no pin is due.
 */
bool dma_frame_io_held(bool have_kpf, uint64_t kpf);

/*
 * The findings (1u << enum dma_finding) of m, its frame being fr, held
 * for block I/O (io_held) or not: such a frame is no unpinned user page,
 * nor one freed for having become a file's or a process's page since its
 * map (a page read into the page cache joins the LRU while mapped).
 */
unsigned int dma_findings_of(const struct ptwalk_dma_mapping *m,
			     enum dma_frame fr, bool io_held,
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
