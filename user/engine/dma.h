/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA view of a range: the physically contiguous runs of frames behind
 * [start, end), how each run is aligned and where it lies against the 4 GiB
 * line (32-bit DMA), and which pages have no frame at all.  It is built from
 * ptwalk's frames, the truth, since pagemap is blind in VM_PFNMAP mappings.
 *
 * Pure and constant in memory: ranges arrive in address order, one run and
 * one hole are kept open, finished ones go to the sink, the rest is
 * counters.  A 64 GiB range of scattered 4 KiB pages costs 16M sink calls,
 * not 16M entries of memory.  Pages are the kernel's (dma_init()'s
 * page_shift), frames too: the 4 GiB line is in bytes.
 */
#ifndef PTCOMPARE_DMA_H
#define PTCOMPARE_DMA_H

#include <stdbool.h>
#include <stdint.h>
#include "model/verdict.h"

#define DMA_ALIGN_CAP	(1ULL << 30)	/* alignment beyond 1 GiB is not told */
#define DMA_4G		(1ULL << 32)	/* end of 32-bit DMA's reach */
#define DMA_NR_MEMTYPES	(PTWALK_MEMTYPE_IO + 1) /* enum ptwalk_memtype counted; 0: unknown */
#define DMA_MAX_NODES	8		/* nodes counted apart; more: other */
#define DMA_MAX_DEVMEM	8		/* frame runs without struct page kept */

/* Why a page has no frame. */
enum dma_hole_kind {
	DMA_HOLE_NOT_PRESENT,	/* empty entry: never touched, or zapped */
	DMA_HOLE_SWAPPED,	/* a swap entry */
	DMA_HOLE_OTHER,		/* migration, device-private, hwpoison, ... */
	DMA_HOLE_UNMAPPED,	/* no VMA there at all */
	NR_DMA_HOLE_KINDS,
};

struct dma_run {
	uint64_t start;		/* virtual address of the first page */
	uint64_t pages;
	uint64_t pfn;		/* frame of the first page; the others follow */
	unsigned int page_shift; /* the kernel's: pages and frames in bytes */
};

struct dma_hole {
	uint64_t start;
	uint64_t pages;
	enum dma_hole_kind kind;
};

/* Frames without a struct page (device memory: a PCI BAR, ...). */
struct dma_devmem {
	uint64_t pfn;
	uint64_t pages;
};

struct dma_node_pages {
	int32_t node;
	uint64_t pages;
};

struct dma_totals {
	unsigned int page_shift;	/* the kernel's page shift */
	uint64_t pages;			/* of the range, accounted so far */
	uint64_t runs;
	uint64_t frame_pages;		/* pages with a frame */
	uint64_t largest_run;		/* pages */
	uint64_t min_align;		/* bytes; 0 while there is no run */
	uint64_t runs_crossing_4g;
	uint64_t runs_above_4g;		/* wholly at or above 4 GiB */
	uint64_t pages_above_4g;	/* frames at or above 4 GiB */
	uint64_t holes;			/* hole spans (one kind each) */
	uint64_t hole_pages[NR_DMA_HOLE_KINDS];
	uint64_t vma_pages;		/* pages inside examined VMAs */
	uint64_t locked_pages;		/* ... whose VMA has VM_LOCKED */
	/*
	 * From ptwalk's records (info: some frame came with its memory
	 * type, pin and node): pages with a frame by pinned state (enum
	 * dma_pin_state) and the spans of consecutive such pages in one
	 * state; by memory type (index enum ptwalk_memtype, 0 unknown); by
	 * NUMA node.
	 */
	bool info;
	uint64_t pin_pages[3];
	uint64_t pin_spans[3];
	uint64_t memtype_pages[DMA_NR_MEMTYPES];
	struct dma_node_pages nodes[DMA_MAX_NODES];
	unsigned int nr_nodes;
	uint64_t other_node_pages;	/* on nodes beyond DMA_MAX_NODES */
	uint64_t nodeless_pages;	/* frames without a node */
	/* the first runs of frames without a struct page, and all their pages */
	struct dma_devmem devmem[DMA_MAX_DEVMEM];
	unsigned int nr_devmem;
	uint64_t devmem_pages;
};

struct dma_sink {
	void (*run)(const struct dma_run *run, void *arg);
	void (*hole)(const struct dma_hole *hole, void *arg);
	void *arg;
};

struct dma_view {
	uint64_t start, end;	/* the range */
	unsigned int shift;	/* the kernel's page shift */
	uint64_t next;		/* first address not accounted yet */
	bool have_run, have_hole;
	bool have_span;		/* a pin span is open, of span_pin, to span_next */
	enum dma_pin_state span_pin;
	uint64_t span_next;
	struct dma_run run;
	struct dma_hole hole;
	struct dma_totals t;
	struct dma_sink sink;
};

/* Pages are the kernel's, of 1 << page_shift bytes. */
void dma_init(struct dma_view *d, uint64_t start, uint64_t end,
	      const struct dma_sink *sink, unsigned int page_shift);

/*
 * pages from vstart, backed by frames pfn, pfn + 1, ... or, with
 * pfn == NO_PFN, by none (kind says why).  They come in address order;
 * a gap since the previous ones is an unmapped hole; whatever lies outside
 * [start, end) or was already accounted is ignored.  detail: the frames'
 * memory type, pinned state and node (a verdict's detail; NULL: nothing
 * of them is known).
 */
void dma_add(struct dma_view *d, uint64_t vstart, uint64_t pages, uint64_t pfn,
	     enum dma_hole_kind kind, const struct page_detail *detail);

/*
 * A merged verdict range: ptwalk's frames, whatever the class.  Ranges of
 * different classes or levels whose frames continue join one run.
 */
void dma_add_range(struct dma_view *d, const struct verdict_range *vr);

/* pages of an examined VMA and its PTWALK_VM_* flags (if known). */
void dma_add_vma(struct dma_view *d, uint64_t pages, uint64_t vm_flags,
		 bool have_vm_flags);

/* The range is done: the rest is unmapped, the open run and hole flushed. */
void dma_finish(struct dma_view *d);

/* Largest power of two dividing phys, at most DMA_ALIGN_CAP. */
uint64_t dma_align(uint64_t phys);
bool dma_run_crosses_4g(const struct dma_run *r);
bool dma_run_above_4g(const struct dma_run *r);

/* Every page of the range lies in a VM_LOCKED VMA (and there is one). */
bool dma_locked(const struct dma_view *d);

/* Every page of the range has a frame. */
bool dma_resident(const struct dma_view *d);

const char *dma_hole_kind_name(enum dma_hole_kind k);

#endif /* PTCOMPARE_DMA_H */
