/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A verdict: the class of a page with what each side said about it, and
 * the merged range of pages that share one (engine/ranges.h merges them).
 * What the engine hands to the witnesses, the report and the DMA view.
 */
#ifndef PTCOMPARE_MODEL_VERDICT_H
#define PTCOMPARE_MODEL_VERDICT_H

#include <stdint.h>
#include "model/page_class.h"
#include "module/ptwalk_abi.h"

#define NO_PFN UINT64_MAX	/* that side has no frame for the page */

/* What each side said about a page beyond its PFN, for the report. */
enum pagemap_state { PM_STATE_NONE, PM_STATE_PRESENT, PM_STATE_SWAPPED };

struct page_detail {
	uint8_t walk_kind;		/* enum ptwalk_kind */
	uint8_t walk_swap_type;
	uint8_t pm_state;		/* enum pagemap_state */
	uint8_t pm_swap_type;
	uint64_t walk_swap_offset;
	uint64_t pm_swap_offset;
	/* ptwalk's record for the page, for the witnesses (engine/witness.c) */
	struct walk_bits {
		uint32_t flags;		/* PTWALK_F_* */
		uint64_t vm_flags;	/* PTWALK_VM_* */
		/*
		 * Set when the walk read the page's leaf (a vtop that
		 * stopped above one did not): enum ptwalk_memtype, and
		 * the NUMA node (PTWALK_NODE_NONE: no frame or no struct
		 * page).  The pinned state is flags'
		 * PTWALK_F_DMA_PINNED, known with PFN_VALID only.
		 */
		uint8_t info;
		uint8_t memtype;
		/*
		 * log2 of the folio's bytes (ptwalk_record_ext.folio_shift),
		 * 0: no struct page or no frame
		 */
		uint8_t folio_shift;
		int32_t node;
	} walk;
};

struct page_verdict {
	uint64_t addr;
	enum page_class cls;
	uint8_t level;		/* enum ptwalk_level */
	uint64_t walk_pfn;
	uint64_t pagemap_pfn;
	struct page_detail detail;
};

struct verdict_range {
	uint64_t start;
	uint64_t pages;
	enum page_class cls;
	uint8_t level;
	uint64_t walk_pfn;	/* of the first page */
	uint64_t pagemap_pfn;	/* of the first page */
	struct page_detail detail;	/* of the first page */
};

/* What is known of a page's memory type, pinned state and node. */
enum dma_pin_state { PIN_UNKNOWN, PIN_NO, PIN_YES };

/*
 * A special entry (remap_pfn_range(), vmf_insert_pfn()) holds no page, so
 * ptwalk reads no pin count for it (vm_normal_page()'s rule): unknown.
 */
static inline enum dma_pin_state walk_pin_state(const struct page_detail *d)
{
	if (!d->walk.info || d->walk_kind != PTWALK_KIND_PRESENT ||
	    !(d->walk.flags & PTWALK_F_PFN_VALID) ||
	    (d->walk.flags & PTWALK_F_SPECIAL))
		return PIN_UNKNOWN;
	return d->walk.flags & PTWALK_F_DMA_PINNED ? PIN_YES : PIN_NO;
}

/* enum ptwalk_memtype of a present page, 0 (PTWALK_MEMTYPE_NONE) if unknown. */
static inline uint8_t walk_memtype(const struct page_detail *d)
{
	return d->walk.info && d->walk_kind == PTWALK_KIND_PRESENT ?
	       d->walk.memtype : 0;
}

/* NUMA node of a present page with a struct page, or -1. */
static inline int32_t walk_node(const struct page_detail *d)
{
	return d->walk.info && d->walk_kind == PTWALK_KIND_PRESENT ?
	       d->walk.node : -1;
}

/* Where finished ranges go, in address order. */
typedef void (*range_emit_fn)(const struct verdict_range *r, void *arg);

#endif /* PTCOMPARE_MODEL_VERDICT_H */
