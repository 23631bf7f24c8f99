/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page geometries for the unit tests, as ptwalk.ko's geometry file states
 * them (module/ptwalk_abi.h): x86-64 (and arm64 4K granule: the same leaf
 * sizes, plus contiguous groups), arm64 16K and 64K granules.  Tests that
 * count pages run their logic under each, so that a 4 KiB page written
 * anywhere in user/ fails them.
 */
#ifndef PTCOMPARE_TEST_GEOM_H
#define PTCOMPARE_TEST_GEOM_H

#include "model/page.h"

/* The shift of a 4 KiB page, for the tests written before the others. */
#define UT_SHIFT_4K	12

/* For each larger page of arm64's, 16K then 64K: sh its shift. */
#define ut_for_each_big_page(sh)	for (unsigned int sh = 14; sh <= 16; sh += 2)

/* x86-64: 4K, 2M, 1G; no contiguous bit. */
static inline struct page_geom ut_geom_x86(void)
{
	return (struct page_geom){
		.shift = 12, .levels = 4,
		.leaf = { 0, 1ULL << 12, 1ULL << 21, 1ULL << 30 },
		.from_module = true,
	};
}

/* arm64 4K granule: PTE 4K (contiguous 64K), PMD 2M (32M), PUD 1G. */
static inline struct page_geom ut_geom_arm64_4k(void)
{
	return (struct page_geom){
		.shift = 12, .levels = 4,
		.leaf = { 0, 1ULL << 12, 1ULL << 21, 1ULL << 30 },
		.cont = { 0, 1ULL << 16, 1ULL << 25, 0 },
		.from_module = true,
	};
}

/* arm64 16K granule: PTE 16K (contiguous 2M), PMD 32M (1G), no PUD leaf. */
static inline struct page_geom ut_geom_arm64_16k(void)
{
	return (struct page_geom){
		.shift = 14, .levels = 4,
		.leaf = { 0, 1ULL << 14, 1ULL << 25, 0 },
		.cont = { 0, 1ULL << 21, 1ULL << 30, 0 },
		.from_module = true,
	};
}

/* arm64 64K granule: PTE 64K (contiguous 2M), PMD 512M (16G). */
static inline struct page_geom ut_geom_arm64_64k(void)
{
	return (struct page_geom){
		.shift = 16, .levels = 3,
		.leaf = { 0, 1ULL << 16, 1ULL << 29, 0 },
		.cont = { 0, 1ULL << 21, 1ULL << 34, 0 },
		.from_module = true,
	};
}

/* Pointers to them, for the functions that take one. */
#define UT_GEOM_X86	((const struct page_geom[]){ ut_geom_x86() })

#endif /* PTCOMPARE_TEST_GEOM_H */
