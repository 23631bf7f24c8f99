// SPDX-License-Identifier: GPL-2.0
/* Pure helpers over ptwalk's records (parse/record.h). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "geom.h"
#include "parse/record.h"
#include "tests/lib/test_lib.h"

static const struct ptwalk_record recs[] = {
	{ .start = 0x1000, .nr_pages = 2, .pfn = 0x500, .kind = 1, .level = 1 },
	{ .start = 0x3000, .nr_pages = 512, .pfn = PTWALK_PFN_NONE },
	{ .start = 0x203000, .nr_pages = 1, .pfn = 0x900, .kind = 1, .level = 1 },
};

static void find_covers_boundaries(void **state)
{
	(void)state;
	assert_null(ptwalk_find(recs, 3, 0x0, UT_SHIFT_4K));
	assert_ptr_equal(ptwalk_find(recs, 3, 0x1000, UT_SHIFT_4K), &recs[0]);
	assert_ptr_equal(ptwalk_find(recs, 3, 0x2fff, UT_SHIFT_4K), &recs[0]);
	assert_ptr_equal(ptwalk_find(recs, 3, 0x3000, UT_SHIFT_4K), &recs[1]);
	assert_ptr_equal(ptwalk_find(recs, 3, 0x202fff, UT_SHIFT_4K), &recs[1]);
	assert_ptr_equal(ptwalk_find(recs, 3, 0x203000, UT_SHIFT_4K), &recs[2]);
	assert_null(ptwalk_find(recs, 3, 0x204000, UT_SHIFT_4K));
	assert_null(ptwalk_find(recs, 0, 0x1000, UT_SHIFT_4K));
}

static void pfn_at_advances_per_page(void **state)
{
	(void)state;
	assert_int_equal(ptwalk_pfn_at(&recs[0], 0x1000, UT_SHIFT_4K), 0x500);
	assert_int_equal(ptwalk_pfn_at(&recs[0], 0x2abc, UT_SHIFT_4K), 0x501);
	assert_true(ptwalk_pfn_at(&recs[1], 0x4000, UT_SHIFT_4K) == PTWALK_PFN_NONE);
}

static void partition_ok_and_broken(void **state)
{
	struct ptwalk_record gap[3], empty[3];
	char why[128];

	(void)state;
	assert_true(ptwalk_check_partition(recs, 3, 0x1000, 0x204000, UT_SHIFT_4K, why,
					   sizeof(why)));
	assert_false(ptwalk_check_partition(recs, 3, 0x0, 0x204000, UT_SHIFT_4K, why,
					    sizeof(why)));
	assert_contains(why, "record 0 starts at 0x1000");
	assert_false(ptwalk_check_partition(recs, 3, 0x1000, 0x205000, UT_SHIFT_4K, why,
					    sizeof(why)));
	assert_contains(why, "records end at 0x204000");
	memcpy(gap, recs, sizeof(gap));
	gap[2].start += 0x1000;
	assert_false(ptwalk_check_partition(gap, 3, 0x1000, 0x205000, UT_SHIFT_4K, why,
					    sizeof(why)));
	memcpy(empty, recs, sizeof(empty));
	empty[1].nr_pages = 0;
	assert_false(ptwalk_check_partition(empty, 3, 0x1000, 0x204000, UT_SHIFT_4K, why,
					    sizeof(why)));
	assert_contains(why, "empty");
	/*
	 * 2^52 pages more: the end address wraps around to the same value
	 * (fuzz_record); so does one record covering the whole range and more.
	 */
	memcpy(gap, recs, sizeof(gap));
	gap[1].nr_pages += 1ULL << 52;
	assert_false(ptwalk_check_partition(gap, 3, 0x1000, 0x204000, UT_SHIFT_4K, why,
					    sizeof(why)));
	assert_contains(why, "record 1 (",
			"runs past 0x204000");
	assert_false(ptwalk_check_partition(recs, 3, 0x1000, 0x3000, UT_SHIFT_4K, why,
					    sizeof(why)));
	assert_contains(why, "record 1 (512 pages at 0x3000) runs past 0x3000");
}

/*
 * Records count kernel pages: with 16K and 64K pages a record of n pages
 * ends n << shift bytes on, and frames advance per kernel page.
 */
static void kernel_pages_16k_64k(void **state)
{
	(void)state;
	ut_for_each_big_page(sh) {
		uint64_t pg = 1ULL << sh;
		const struct ptwalk_record r[] = {
			{ .start = pg, .nr_pages = 2, .pfn = 0x500,
			  .kind = PTWALK_KIND_PRESENT, .level = PTWALK_LEVEL_PTE },
			{ .start = 3 * pg, .nr_pages = 3, .pfn = PTWALK_PFN_NONE,
			  .swap_offset = 0x40, .kind = PTWALK_KIND_SWAP },
		};
		char why[256];

		assert_int_equal(ptwalk_record_end(&r[0], sh), 3 * pg);
		assert_ptr_equal(ptwalk_find(r, 2, 3 * pg - 1, sh), &r[0]);
		assert_ptr_equal(ptwalk_find(r, 2, 3 * pg, sh), &r[1]);
		assert_null(ptwalk_find(r, 2, 6 * pg, sh));
		assert_int_equal(ptwalk_pfn_at(&r[0], 2 * pg + 0x1000, sh), 0x501);
		assert_int_equal(ptwalk_swap_offset_at(&r[1], 5 * pg, sh), 0x42);
		assert_true(ptwalk_check_partition(r, 2, pg, 6 * pg, sh, why,
						   sizeof(why)));
		assert_false(ptwalk_check_partition(r, 2, pg, 7 * pg, sh, why,
						    sizeof(why)));
	}
}

UNIT_MAIN("record", UT(kernel_pages_16k_64k), UT(find_covers_boundaries), UT(pfn_at_advances_per_page),
	  UT(partition_ok_and_broken))
