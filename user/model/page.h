/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page ptcompare counts in: ptwalk's records, pagemap's entries and
 * kpageflags' frames each describe 4 KiB pages, whatever the leaf size.
 */
#ifndef PTCOMPARE_MODEL_PAGE_H
#define PTCOMPARE_MODEL_PAGE_H

#define PAGE_SHIFT_4K	12
#define PAGE_SIZE_4K	(1ULL << PAGE_SHIFT_4K)
#define PAGE_MASK_4K	(PAGE_SIZE_4K - 1)	/* the offset inside a page */

#endif /* PTCOMPARE_MODEL_PAGE_H */
