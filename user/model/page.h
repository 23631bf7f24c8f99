/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page ptcompare counts in: ptwalk's records, pagemap's entries and
 * kpageflags' frames each describe 4 KiB pages, whatever the leaf size.
 */
#ifndef PTCOMPARE_MODEL_PAGE_H
#define PTCOMPARE_MODEL_PAGE_H

#include "module/ptwalk_abi.h"

#define PAGE_SHIFT_4K	12
#define PAGE_SIZE_4K	(1ULL << PAGE_SHIFT_4K)
#define PAGE_MASK_4K	(PAGE_SIZE_4K - 1)	/* the offset inside a page */

/*
 * Entries in a group marked PTWALK_F_CONT: arm64 with 4 KiB pages, the only
 * architecture that sets it, groups 16 PTEs (a 64 KiB leaf) or 16 PMDs
 * (32 MiB).
 */
#define CONT_ENTRIES	16

/* Bytes one leaf of @level maps (0 for none), a contiguous group whole. */
static inline unsigned long long leaf_size(unsigned int level,
					   unsigned int flags)
{
	static const unsigned int shift[] = { 0, 12, 21, 30 };
	unsigned long long size;

	if (level == 0 || level >= sizeof(shift) / sizeof(shift[0]))
		return 0;
	size = 1ULL << shift[level];
	return flags & PTWALK_F_CONT ? size * CONT_ENTRIES : size;
}

#endif /* PTCOMPARE_MODEL_PAGE_H */
