/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page ptcompare counts in: the *kernel's* page.  ptwalk's records,
 * pagemap's entries and kpageflags' frames each describe one kernel page
 * (4 KiB on x86-64, 4, 16 or 64 KiB on arm64), whatever the leaf size.
 * Every size comes from struct page_geom, which ptwalk.ko's geometry file
 * fills (parse/geometry.c); nothing here assumes a page size.
 */
#ifndef PTCOMPARE_MODEL_PAGE_H
#define PTCOMPARE_MODEL_PAGE_H

#include <stdbool.h>
#include <stdint.h>
#include "module/ptwalk_abi.h"

/* The running kernel's page geometry (module/ptwalk_abi.h, "geometry"). */
struct page_geom {
	unsigned int shift;	/* log2 of the kernel page size */
	unsigned int levels;	/* page-table levels in use, 0: not said */
	uint64_t leaf[4];	/* bytes one entry of enum ptwalk_level maps,
				 * 0 for NONE and levels without leaves
				 */
	uint64_t cont[4];	/* bytes a contiguous group of that level
				 * maps, 0 where there is none
				 */
	bool from_module;	/* read from the geometry file, not assumed */
};

static inline uint64_t geom_page_size(const struct page_geom *g)
{
	return 1ULL << g->shift;
}

/* The offset inside a kernel page. */
static inline uint64_t geom_page_mask(const struct page_geom *g)
{
	return geom_page_size(g) - 1;
}

static inline uint64_t geom_pages_to_bytes(const struct page_geom *g,
					   uint64_t pages)
{
	return pages << g->shift;
}

static inline uint64_t geom_bytes_to_pages(const struct page_geom *g,
					   uint64_t bytes)
{
	return bytes >> g->shift;
}

/*
 * Bytes one leaf of @level maps (0 for none); a contiguous group whole
 * when @flags has PTWALK_F_CONT.
 */
static inline uint64_t geom_leaf_size(const struct page_geom *g,
				      unsigned int level, unsigned int flags)
{
	if (level == PTWALK_LEVEL_NONE || level > PTWALK_LEVEL_PUD)
		return 0;
	if ((flags & PTWALK_F_CONT) && g->cont[level])
		return g->cont[level];
	return g->leaf[level];
}

#endif /* PTCOMPARE_MODEL_PAGE_H */
