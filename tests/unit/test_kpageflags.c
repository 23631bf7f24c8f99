// SPDX-License-Identifier: GPL-2.0
/*
 * The kpageflags rules, each case a page as Linux 6.1 shows it (the flags
 * stable_page_flags() computes for it) and as ptwalk shows it.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "engine/kpageflags.h"
#include "../../module/ptwalk_abi.h"

#define RULE(r)		(1U << KPF_RULE_##r)
#define VALID		(PTWALK_F_PRESENT | PTWALK_F_USER | PTWALK_F_PFN_VALID)
#define ANON_VMA	(PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_ANON)
#define PFNMAP_VMA	(PTWALK_VM_READ | PTWALK_VM_SHARED | PTWALK_VM_IO | \
			 PTWALK_VM_PFNMAP)
/* what an anonymous 4K page on the LRU reads */
#define KPF_ANON_PAGE	(KPF(MMAP) | KPF(ANON) | KPF(LRU) | KPF(SWAPBACKED) | \
			 KPF(UPTODATE))

static unsigned int check(uint32_t walk, uint64_t vm, uint8_t level,
			  bool head, uint64_t kpf)
{
	struct kpf_expect e = {
		.walk_flags = walk, .vm_flags = vm, .level = level,
		.leaf_head = head, .system_ram = true,
	};

	return kpf_check(&e, kpf);
}

static void applies_to_present_frames_with_a_page(void **state)
{
	(void)state;
	assert_true(kpf_applies(VALID));
	assert_false(kpf_applies(PTWALK_F_PRESENT | PTWALK_F_USER));
	assert_false(kpf_applies(PTWALK_F_PFN_VALID));
	assert_false(kpf_applies(0));
}

static void anonymous_4k(void **state)
{
	(void)state;
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE), 0);
	/* KSM pages are anonymous too */
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE | KPF(KSM)), 0);
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE & ~KPF(MMAP)), RULE(MMAP));
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE & ~KPF(ANON)), RULE(ANON));
	/* freed and on the buddy lists: not mapped, not anonymous either */
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF(BUDDY)),
			 RULE(FREE) | RULE(MMAP) | RULE(ANON));
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE | KPF(SLAB)), RULE(KERNEL));
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE | KPF(PGTABLE)), RULE(KERNEL));
	/* ptwalk calls it compound, kpageflags does not: the liar's claim */
	assert_int_equal(check(VALID | PTWALK_F_COMPOUND, ANON_VMA,
			       PTWALK_LEVEL_PTE, false, KPF_ANON_PAGE),
			 RULE(COMPOUND));
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE | KPF(COMPOUND_TAIL) | KPF(THP)),
			 RULE(COMPOUND));
	/* a huge page in a VMA that is not hugetlb */
	assert_int_equal(check(VALID | PTWALK_F_COMPOUND, ANON_VMA,
			       PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE | KPF(COMPOUND_TAIL) | KPF(HUGE)),
			 RULE(HUGETLB));
}

static void nopage(void **state)
{
	struct kpf_expect e = {
		.walk_flags = VALID, .vm_flags = ANON_VMA,
		.level = PTWALK_LEVEL_PTE, .system_ram = true,
	};

	(void)state;
	assert_int_equal(kpf_check(&e, KPF(NOPAGE)), RULE(NOPAGE));
	/* ZONE_DEVICE or offline memory: valid, yet no online page */
	e.system_ram = false;
	assert_int_equal(kpf_check(&e, KPF(NOPAGE)), 0);
}

static void zero_pages(void **state)
{
	uint32_t zero = VALID | PTWALK_F_ZERO_PAGE | PTWALK_F_SPECIAL;
	uint32_t huge_zero = VALID | PTWALK_F_HUGE_ZERO | PTWALK_F_COMPOUND;
	uint64_t hz = KPF(ZERO_PAGE) | KPF(THP);

	(void)state;
	/* not mapped through the rmap, not anonymous: both fine */
	assert_int_equal(check(zero, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF(ZERO_PAGE) | KPF(RESERVED)), 0);
	assert_int_equal(check(zero, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF(RESERVED)), RULE(ZERO));
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       KPF_ANON_PAGE | KPF(ZERO_PAGE)), RULE(ZERO));
	assert_int_equal(check(huge_zero, ANON_VMA, PTWALK_LEVEL_PMD, true,
			       hz | KPF(COMPOUND_HEAD)), 0);
	assert_int_equal(check(huge_zero, ANON_VMA, PTWALK_LEVEL_PMD, false,
			       hz | KPF(COMPOUND_TAIL)), 0);
	assert_int_equal(check(huge_zero, ANON_VMA, PTWALK_LEVEL_PMD, false,
			       KPF(ZERO_PAGE) | KPF(COMPOUND_TAIL)), RULE(ZERO));
	/* ptwalk's huge-zero guess on a read-only anonymous THP */
	assert_int_equal(check(huge_zero, ANON_VMA, PTWALK_LEVEL_PMD, false,
			       KPF_ANON_PAGE | KPF(THP) | KPF(COMPOUND_TAIL)),
			 RULE(ZERO));
	/*
	 * 7.2's special huge zero PMD: ptwalk reads no page, so it says
	 * nothing of compound; the head/tail order is still the leaf's
	 */
	assert_int_equal(check(VALID | PTWALK_F_HUGE_ZERO | PTWALK_F_SPECIAL,
			       ANON_VMA, PTWALK_LEVEL_PMD, true,
			       hz | KPF(COMPOUND_HEAD)), 0);
	/* a page that is read must still agree */
	assert_int_equal(check(VALID | PTWALK_F_HUGE_ZERO, ANON_VMA,
			       PTWALK_LEVEL_PMD, true, hz | KPF(COMPOUND_HEAD)),
			 RULE(COMPOUND));
}

static void thp_pmd(void **state)
{
	uint32_t f = VALID | PTWALK_F_COMPOUND;
	uint64_t thp = KPF_ANON_PAGE | KPF(THP);

	(void)state;
	assert_int_equal(check(f, ANON_VMA, PTWALK_LEVEL_PMD, true,
			       thp | KPF(COMPOUND_HEAD)), 0);
	assert_int_equal(check(f, ANON_VMA, PTWALK_LEVEL_PMD, false,
			       (thp & ~KPF(LRU)) | KPF(COMPOUND_TAIL)), 0);
	assert_int_equal(check(f, ANON_VMA, PTWALK_LEVEL_PMD, false,
			       thp | KPF(COMPOUND_HEAD)), RULE(HEAD_TAIL));
	assert_int_equal(check(f, ANON_VMA, PTWALK_LEVEL_PMD, true,
			       thp | KPF(COMPOUND_TAIL)), RULE(HEAD_TAIL));
	assert_int_equal(check(f, ANON_VMA, PTWALK_LEVEL_PMD, true,
			       KPF_ANON_PAGE | KPF(COMPOUND_HEAD)), RULE(THP));
	/* a PMD leaf over 512 small pages */
	assert_int_equal(check(VALID, ANON_VMA, PTWALK_LEVEL_PMD, true,
			       KPF_ANON_PAGE),
			 RULE(HEAD_TAIL) | RULE(THP));
	/* file THP (tmpfs): may be off the LRU, then no KPF_THP */
	assert_int_equal(check(f, PTWALK_VM_READ | PTWALK_VM_SHARED,
			       PTWALK_LEVEL_PMD, true,
			       KPF(MMAP) | KPF(COMPOUND_HEAD)), 0);
	/* PTE-mapped THP: any of its pages, head or tail */
	assert_int_equal(check(f, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       thp | KPF(COMPOUND_HEAD)), 0);
	assert_int_equal(check(f, ANON_VMA, PTWALK_LEVEL_PTE, false,
			       thp | KPF(COMPOUND_TAIL)), 0);
}

static void hugetlb(void **state)
{
	uint32_t f = VALID | PTWALK_F_COMPOUND;
	uint64_t vm = PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_HUGETLB;
	uint64_t huge = KPF(MMAP) | KPF(ANON) | KPF(HUGE) | KPF(UPTODATE);

	(void)state;
	assert_int_equal(check(f, vm, PTWALK_LEVEL_PMD, true,
			       huge | KPF(COMPOUND_HEAD)), 0);
	assert_int_equal(check(f, vm, PTWALK_LEVEL_PUD, false,
			       huge | KPF(COMPOUND_TAIL)), 0);
	assert_int_equal(check(f, vm, PTWALK_LEVEL_PUD, false,
			       (huge & ~KPF(HUGE)) | KPF(COMPOUND_TAIL)),
			 RULE(HUGETLB));
	assert_int_equal(check(f, vm, PTWALK_LEVEL_PMD, true,
			       huge | KPF(COMPOUND_TAIL)), RULE(HEAD_TAIL));
	assert_int_equal(check(f, vm, PTWALK_LEVEL_PMD, false,
			       (huge & ~KPF(MMAP)) | KPF(COMPOUND_TAIL)),
			 RULE(MMAP));
	/* arm64's 64K page, 16 contiguous PTEs: a leaf with a head too */
	f |= PTWALK_F_CONT;
	assert_int_equal(check(f, vm, PTWALK_LEVEL_PTE, true,
			       huge | KPF(COMPOUND_HEAD)), 0);
	assert_int_equal(check(f, vm, PTWALK_LEVEL_PTE, false,
			       huge | KPF(COMPOUND_TAIL)), 0);
	assert_int_equal(check(f, vm, PTWALK_LEVEL_PTE, true,
			       huge | KPF(COMPOUND_TAIL)), RULE(HEAD_TAIL));
}

static void pfnmap_and_special(void **state)
{
	uint32_t special = VALID | PTWALK_F_SPECIAL;

	(void)state;
	/* remap_pfn_range of driver pages, [vvar]: no rmap, any page kind */
	assert_int_equal(check(special, PFNMAP_VMA, PTWALK_LEVEL_PTE, false,
			       KPF(RESERVED)), 0);
	assert_int_equal(check(special, PFNMAP_VMA, PTWALK_LEVEL_PTE, false,
			       KPF(SLAB)), 0);
	/* but never a free page */
	assert_int_equal(check(special, PFNMAP_VMA, PTWALK_LEVEL_PTE, false,
			       KPF(BUDDY)), RULE(FREE));
	/* vm_insert_pfn in a VM_MIXEDMAP VMA: special PTE, no rmap */
	assert_int_equal(check(special, PTWALK_VM_READ | PTWALK_VM_MIXEDMAP,
			       PTWALK_LEVEL_PTE, false, 0), 0);
	/* a DAX-like PMD leaf in VM_MIXEDMAP: no special bit, no rmap */
	assert_int_equal(check(VALID | PTWALK_F_COMPOUND,
			       PTWALK_VM_READ | PTWALK_VM_MIXEDMAP,
			       PTWALK_LEVEL_PMD, true, KPF(COMPOUND_HEAD)), 0);
	/* a file page ([vdso], a library): mapped through the rmap */
	assert_int_equal(check(VALID, PTWALK_VM_READ | PTWALK_VM_EXEC,
			       PTWALK_LEVEL_PTE, false,
			       KPF(MMAP) | KPF(RESERVED)), 0);
	assert_int_equal(check(VALID, PTWALK_VM_READ | PTWALK_VM_EXEC,
			       PTWALK_LEVEL_PTE, false, KPF(RESERVED)),
			 RULE(MMAP));
}

static void words(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(kpf_format(buf, sizeof(buf), KPF_ANON_PAGE |
				       KPF(THP) | KPF(COMPOUND_HEAD) |
				       KPF(REFERENCED) | KPF(KSM)),
			    "mmap,anon,swapbacked,compound_head,ksm,thp");
	assert_string_equal(kpf_format(buf, sizeof(buf), 0), "");
	assert_string_equal(kpf_format(buf, sizeof(buf), KPF(MLOCKED) |
				       KPF(NOPAGE)), "nopage,mlocked");
	kpf_format(buf, 8, KPF_ANON_PAGE);
	assert_string_equal(buf, "mmap,an");
	assert_string_equal(kpf_bit_name(KPF_B_ZERO_PAGE), "zero_page");
	assert_string_equal(kpf_bit_name(KPF_B_PGTABLE), "pgtable");
	assert_null(kpf_bit_name(27));
	assert_null(kpf_bit_name(64));
	for (unsigned int i = 0; i < NR_KPF_RULES; i++) {
		assert_true(strlen(kpf_rule_text(i)) > 20);
		for (unsigned int j = 0; j < i; j++)
			assert_string_not_equal(kpf_rule_name(i),
						kpf_rule_name(j));
	}
	assert_int_equal(kpf_first_rule(RULE(MMAP) | RULE(ANON)),
			 KPF_RULE_MMAP);
	assert_int_equal(kpf_first_rule(0), NR_KPF_RULES);
}

UNIT_MAIN("kpageflags", UT(applies_to_present_frames_with_a_page),
	  UT(anonymous_4k), UT(nopage), UT(zero_pages), UT(thp_pmd), UT(hugetlb),
	  UT(pfnmap_and_special), UT(words))
