// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdint.h>
#include "unit.h"
#include "geom.h"
#include "engine/classify.h"
#include "parse/pagemap.h"

static void present_entry(void **state)
{
	struct pagemap_entry e;

	(void)state;
	pagemap_decode(PM_PRESENT | PM_FILE | PM_MMAP_EXCLUSIVE | 0x12a400, &e);
	assert_true(e.present);
	assert_false(e.swapped);
	assert_true(e.file);
	assert_true(e.exclusive);
	assert_false(e.soft_dirty);
	assert_int_equal(e.pfn, 0x12a400);
	/* the largest PFN bits 0-54 hold */
	pagemap_decode(PM_PRESENT | PM_PFN_MASK, &e);
	assert_int_equal(e.pfn, (1ULL << 55) - 1);
}

static void swap_entry(void **state)
{
	struct pagemap_entry e;

	(void)state;
	pagemap_decode(PM_SWAP | PM_SOFT_DIRTY | PM_UFFD_WP | (0x4242ULL << 5) | 3,
		       &e);
	assert_false(e.present);
	assert_true(e.swapped);
	assert_true(e.soft_dirty);
	assert_true(e.uffd_wp);
	assert_int_equal(e.swap_type, 3);
	assert_int_equal(e.swap_offset, 0x4242);
	assert_int_equal(e.pfn, 0);
}

/*
 * Present and swap bits at once, which the kernel never writes: present,
 * as the struct says (swapped: a non-present entry), so that such a word
 * never passes for the swap entry of a swapped-out page (fuzz_pagemap).
 */
static void present_and_swap_bits(void **state)
{
	struct ptwalk_record swapped = {
		.start = 0x1000, .nr_pages = 1, .pfn = PTWALK_PFN_NONE,
		.level = PTWALK_LEVEL_PTE, .kind = PTWALK_KIND_SWAP,
	};
	struct pagemap_entry e;

	(void)state;
	pagemap_decode(PM_PRESENT | PM_SWAP, &e);
	assert_true(e.present);
	assert_false(e.swapped);
	assert_int_equal(classify_page(&swapped, 0x1000, &e, UT_SHIFT_4K), CLASS_MISMATCH);
}

static void hole_and_flags_only(void **state)
{
	struct pagemap_entry e;

	(void)state;
	pagemap_decode(0, &e);
	assert_false(e.present || e.swapped || e.soft_dirty || e.file);
	/* What pagemap shows for a VM_PFNMAP page: soft-dirty only. */
	pagemap_decode(PM_SOFT_DIRTY, &e);
	assert_false(e.present);
	assert_false(e.swapped);
	assert_true(e.soft_dirty);
	pagemap_decode(PM_GUARD_REGION, &e);
	assert_true(e.guard);
}

static void zeroed_pfn(void **state)
{
	struct pagemap_entry e;

	(void)state;
	pagemap_decode(PM_PRESENT | PM_MMAP_EXCLUSIVE, &e);
	assert_true(e.present);
	assert_int_equal(e.pfn, 0);
}

UNIT_MAIN("pagemap", UT(present_entry), UT(swap_entry),
	  UT(present_and_swap_bits), UT(hole_and_flags_only), UT(zeroed_pfn))
