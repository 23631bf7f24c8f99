// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdint.h>
#include "unit.h"
#include "geom.h"
#include "engine/classify.h"

#define BASE 0x7f0000000000ULL

static struct ptwalk_record present(uint64_t pfn, uint64_t vm, int level,
				    uint64_t pages)
{
	struct ptwalk_record r = {
		.start = BASE, .nr_pages = pages, .pfn = pfn, .level = level,
		.kind = PTWALK_KIND_PRESENT, .flags = PTWALK_F_PRESENT,
		.vm_flags = vm,
	};
	return r;
}

static struct pagemap_entry pm(uint64_t raw)
{
	struct pagemap_entry e;

	pagemap_decode(raw, &e);
	return e;
}

static void match_and_mismatch(void **state)
{
	struct ptwalk_record r = present(0x1000, PTWALK_VM_ANON,
					 PTWALK_LEVEL_PTE, 4);
	struct pagemap_entry e;

	(void)state;
	e = pm(PM_PRESENT | 0x1002);
	assert_int_equal(classify_page(&r, BASE + 0x2000, &e, UT_SHIFT_4K), CLASS_MATCH);
	/* boundary: last page of the extent */
	e = pm(PM_PRESENT | 0x1003);
	assert_int_equal(classify_page(&r, BASE + 0x3fff, &e, UT_SHIFT_4K), CLASS_MATCH);
	e = pm(PM_PRESENT | 0x1004);
	assert_int_equal(classify_page(&r, BASE + 0x3000, &e, UT_SHIFT_4K), CLASS_MISMATCH);
	/* present on one side only, outside any pfn map */
	e = pm(0);
	assert_int_equal(classify_page(&r, BASE, &e, UT_SHIFT_4K), CLASS_MISMATCH);
}

static void huge_leaf_subpages(void **state)
{
	struct ptwalk_record r = present(0x200000, PTWALK_VM_HUGETLB,
					 PTWALK_LEVEL_PUD, 262144);
	struct pagemap_entry ok = pm(PM_PRESENT | (0x200000 + 0x3ffff));
	struct pagemap_entry wrong = pm(PM_PRESENT | (0x200000 + 0x3fffe));
	uint64_t last = BASE + (262143ULL << 12);

	(void)state;
	assert_int_equal(classify_page(&r, last, &ok, UT_SHIFT_4K), CLASS_MATCH);
	assert_int_equal(classify_page(&r, last, &wrong, UT_SHIFT_4K), CLASS_MISMATCH);
}

static void pfnmap_hidden(void **state)
{
	struct ptwalk_record r = present(0xfd000, PTWALK_VM_PFNMAP | PTWALK_VM_IO,
					 PTWALK_LEVEL_PTE, 16);
	struct pagemap_entry hole = pm(PM_SOFT_DIRTY);

	(void)state;
	assert_int_equal(classify_page(&r, BASE, &hole, UT_SHIFT_4K), CLASS_PFNMAP_HIDDEN);
	/* VM_IO alone is walked by pagemap: a hole there is a finding */
	r.vm_flags = PTWALK_VM_IO;
	assert_int_equal(classify_page(&r, BASE, &hole, UT_SHIFT_4K), CLASS_MISMATCH);
}

static void zeroed_and_not_present(void **state)
{
	struct ptwalk_record r = present(0x1000, 0, PTWALK_LEVEL_PTE, 1);
	struct ptwalk_record none = { .start = BASE, .nr_pages = 1,
				      .pfn = PTWALK_PFN_NONE };
	struct pagemap_entry zeroed = pm(PM_PRESENT), hole = pm(0);

	(void)state;
	assert_int_equal(classify_page(&r, BASE, &zeroed, UT_SHIFT_4K), CLASS_PFN_ZEROED);
	assert_int_equal(classify_page(&none, BASE, &hole, UT_SHIFT_4K), CLASS_NOT_PRESENT);
	assert_int_equal(classify_page(&none, BASE, &zeroed, UT_SHIFT_4K), CLASS_MISMATCH);
}

static void swap_entries(void **state)
{
	struct ptwalk_record r = {
		.start = BASE, .nr_pages = 2, .pfn = PTWALK_PFN_NONE,
		.level = PTWALK_LEVEL_PTE, .kind = PTWALK_KIND_SWAP,
		.swap_type = 1, .swap_offset = 0x100,
	};
	struct pagemap_entry same = pm(PM_SWAP | (0x101ULL << 5) | 1);
	struct pagemap_entry other = pm(PM_SWAP | (0x102ULL << 5) | 1);
	struct pagemap_entry hidden = pm(PM_SWAP);

	(void)state;
	assert_int_equal(classify_page(&r, BASE + 0x1000, &same, UT_SHIFT_4K), CLASS_SWAPPED);
	assert_int_equal(classify_page(&r, BASE + 0x1000, &other, UT_SHIFT_4K),
			 CLASS_MISMATCH);
	assert_int_equal(classify_page(&r, BASE, &hidden, UT_SHIFT_4K), CLASS_PFN_ZEROED);
	/* hugetlb migration: pagemap says not present, without bit 62 */
	r.kind = PTWALK_KIND_MIGRATION;
	r.vm_flags = PTWALK_VM_HUGETLB;
	assert_int_equal(classify_page(&r, BASE, &(struct pagemap_entry){ 0 }, UT_SHIFT_4K),
			 CLASS_NOT_PRESENT);
	r.vm_flags = 0;
	assert_int_equal(classify_page(&r, BASE, &(struct pagemap_entry){ 0 }, UT_SHIFT_4K),
			 CLASS_MISMATCH);
}

static void reread_convergence(void **state)
{
	(void)state;
	assert_int_equal(classify_reread(CLASS_MISMATCH, CLASS_MATCH, true),
			 CLASS_TRANSIENT);
	assert_int_equal(classify_reread(CLASS_MISMATCH, CLASS_NOT_PRESENT, false),
			 CLASS_TRANSIENT);
	/* a difference both sides repeat is a mismatch ... */
	assert_int_equal(classify_reread(CLASS_MISMATCH, CLASS_MISMATCH, false),
			 CLASS_MISMATCH);
	/* ... one whose sides moved meanwhile is a page changing */
	assert_int_equal(classify_reread(CLASS_MISMATCH, CLASS_MISMATCH, true),
			 CLASS_TRANSIENT);
	assert_int_equal(classify_reread(CLASS_MATCH, CLASS_MATCH, false),
			 CLASS_MATCH);
	assert_string_equal(page_class_name(CLASS_PFNMAP_HIDDEN),
			    "pfnmap_hidden");
	assert_string_equal(page_class_name(NR_CLASSES), "?");
}

/* What counts as pagemap's answer changing between two reads. */
static void pagemap_answers(void **state)
{
	struct pagemap_entry a = { .present = true, .pfn = 0x100 }, b = a;

	(void)state;
	b.soft_dirty = b.exclusive = true;	/* flags alone: the same */
	assert_true(pagemap_same_answer(&a, &b));
	b.pfn = 0x101;
	assert_false(pagemap_same_answer(&a, &b));
	b = (struct pagemap_entry){ .swapped = true, .swap_type = 1,
				    .swap_offset = 7 };
	assert_false(pagemap_same_answer(&a, &b));
	a = b;
	assert_true(pagemap_same_answer(&a, &b));
	b.swap_offset = 8;
	assert_false(pagemap_same_answer(&a, &b));
	a = b = (struct pagemap_entry){ 0 };
	assert_true(pagemap_same_answer(&a, &b));
}

/*
 * A guard marker (PTWALK_F_GUARD) is class guard whatever pagemap says
 * short of a frame: a marker swap entry before 6.15, the guard bit (58)
 * since, or nothing; a marker without the flag (uffd-wp) stays a swap
 * entry to compare.
 */
static void guard_markers(void **state)
{
	struct ptwalk_record r = {
		.start = BASE, .nr_pages = 4, .pfn = PTWALK_PFN_NONE,
		.kind = PTWALK_KIND_MARKER, .level = PTWALK_LEVEL_PTE,
		.flags = PTWALK_F_GUARD, .swap_type = 31, .swap_offset = 4,
	};
	struct pagemap_entry marker = { .swapped = true, .swap_type = 31,
					.swap_offset = 4 };
	struct pagemap_entry bit = { .swapped = true, .guard = true };
	struct pagemap_entry present = { .present = true, .pfn = 0x1234 };

	(void)state;
	assert_int_equal(classify_page(&r, BASE, &marker, 14), CLASS_GUARD);
	assert_int_equal(classify_page(&r, BASE, &bit, 14), CLASS_GUARD);
	assert_int_equal(classify_page(&r, BASE, &(struct pagemap_entry){ 0 }, 14),
			 CLASS_GUARD);
	assert_int_equal(classify_page(&r, BASE, &present, 14), CLASS_MISMATCH);
	r.flags = 0;
	assert_int_equal(classify_page(&r, BASE, &marker, 14), CLASS_SWAPPED);
	assert_string_equal(page_class_name(CLASS_GUARD), "guard");
}

UNIT_MAIN("classify", UT(guard_markers), UT(match_and_mismatch), UT(huge_leaf_subpages),
	  UT(pfnmap_hidden), UT(zeroed_and_not_present), UT(swap_entries),
	  UT(reread_convergence), UT(pagemap_answers))
