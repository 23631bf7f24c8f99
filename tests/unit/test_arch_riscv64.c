// SPDX-License-Identifier: GPL-2.0
/*
 * module/arch_riscv64.h, built in userspace against
 * tests/unit/kshim-riscv64 (riscv64's entry layout as the kernel defines
 * it): which entries are leaves, the frame of each page of a Svnapot 64K
 * group, the PTWALK_F_* of the A, D, G, U, W, X bits, Svpbmt's memory
 * types (and T-Head's encoding of them, and none), the A/D gathering of a
 * NAPOT hugetlb page, and the geometry's answers.
 */
#include <stddef.h>
#include <stdint.h>
#include "unit.h"
#include "../../module/arch_riscv64.h"

unsigned long shim_mtmask, shim_nocache, shim_io;
bool shim_svnapot, pgtable_l5_enabled, pgtable_l4_enabled;

#define PFN(p)		((unsigned long)(p) << _PAGE_PFN_SHIFT)
#define USER_RW		(_PAGE_PRESENT | _PAGE_READ | _PAGE_WRITE | _PAGE_USER)
#define BASE		0x3fff000000UL	/* a 64K-aligned user address */

static void svpbmt(void)
{
	shim_mtmask = _PAGE_MTMASK_SVPBMT;
	shim_nocache = _PAGE_NOCACHE_SVPBMT;
	shim_io = _PAGE_IO_SVPBMT;
}

static int setup(void **state)
{
	(void)state;
	svpbmt();
	shim_svnapot = true;
	pgtable_l5_enabled = pgtable_l4_enabled = true;
	return 0;
}

/* A 64K NAPOT entry for the group whose first frame is @first. */
static pte_t napot(unsigned long first, unsigned long bits)
{
	return __pte(bits | _PAGE_NAPOT |
		     PFN(first | (1UL << (NAPOT_CONT64KB_ORDER - 1))));
}

/* R, W or X make a leaf, present, PROT_NONE or invalidated; V alone a table. */
static void leaves_and_tables(void **state)
{
	(void)state;
	assert_false(ptwalk_pmd_is_leaf(__pmd(PFN(0x81234) | _PAGE_TABLE)));
	assert_false(ptwalk_pud_is_leaf(__pud(PFN(0x81234) | _PAGE_TABLE)));
	assert_true(ptwalk_pmd_is_leaf(__pmd(PFN(0x80200) | USER_RW)));
	assert_true(ptwalk_pud_is_leaf(__pud(PFN(0x80000) | USER_RW)));
	/* PROT_NONE keeps R; a split's pmdp_invalidate() clears V only */
	assert_true(ptwalk_pmd_is_leaf(__pmd(PFN(0x80200) | _PAGE_PROT_NONE |
					     _PAGE_READ)));
	assert_true(ptwalk_pmd_is_leaf(__pmd(PFN(0x80200) | _PAGE_READ |
					     _PAGE_WRITE | _PAGE_USER)));
	/* a migration entry: type from bit 7, offset from bit 12, no R/W/X */
	assert_false(ptwalk_pmd_is_leaf(__pmd((0x1eUL << 7) | (0x80200UL << 12))));
	/* a leaf's bits are a PTE's */
	assert_int_equal(pte_val(ptwalk_pmd_pte(__pmd(PFN(0x80200) | USER_RW))),
			 PFN(0x80200) | USER_RW);
	assert_int_equal(pte_val(ptwalk_pud_pte(__pud(PFN(0x80000) | USER_RW))),
			 PFN(0x80000) | USER_RW);
}

/* Each page of a NAPOT group has its own frame; pte_pfn() the first. */
static void napot_frames(void **state)
{
	pte_t e = napot(0x80010, USER_RW | _PAGE_ACCESSED);
	unsigned long i;

	(void)state;
	assert_int_equal(pte_pfn(e), 0x80010);
	for (i = 0; i < 16; i++)
		assert_int_equal(ptwalk_arch_pte_pfn(e, BASE + i * PAGE_SIZE),
				 0x80010 + i);
	/* the next group starts again */
	assert_int_equal(ptwalk_arch_pte_pfn(e, BASE + 0x10000 + PAGE_SIZE),
			 0x80011);
	/* a plain PTE: its own frame wherever it is */
	assert_int_equal(ptwalk_arch_pte_pfn(__pte(PFN(0x80015) | USER_RW),
					     BASE + 3 * PAGE_SIZE), 0x80015);
	/* a swap entry is no NAPOT group, whatever bit 63 says */
	assert_int_equal(ptwalk_arch_pte_pfn(__pte(_PAGE_NAPOT | PFN(0x18)),
					     BASE + 5 * PAGE_SIZE),
			 pte_pfn(__pte(_PAGE_NAPOT | PFN(0x18))));
	/* the group's entries have equal attributes, the PPN left out */
	assert_int_equal(ptwalk_pte_attrs(e),
			 USER_RW | _PAGE_ACCESSED | _PAGE_NAPOT);
	assert_int_equal(ptwalk_pte_attrs(__pte(PFN(0x80015) | USER_RW |
						_PAGE_IO_SVPBMT)),
			 USER_RW | _PAGE_IO_SVPBMT);
}

/* N is PTWALK_F_CONT; the geometry's cont_pte is 64K with Svnapot. */
static void napot_is_contiguous(void **state)
{
	(void)state;
	assert_true(ptwalk_arch_present_flags(napot(0x80010, USER_RW)) &
		    PTWALK_F_CONT);
	assert_false(ptwalk_arch_present_flags(__pte(PFN(0x80010) | USER_RW)) &
		     PTWALK_F_CONT);
	assert_int_equal(ptwalk_arch_cont_pte_size(), 65536);
	assert_int_equal(ptwalk_arch_cont_pmd_size(), 0);
	shim_svnapot = false;
	assert_int_equal(ptwalk_arch_cont_pte_size(), 0);
}

/* A, D, U, W, X, and G without V (PROT_NONE). */
static void access_bits(void **state)
{
	u32 f;

	(void)state;
	f = ptwalk_arch_present_flags(__pte(PFN(1) | USER_RW | _PAGE_ACCESSED |
					    _PAGE_DIRTY));
	assert_int_equal(f, PTWALK_F_WRITE | PTWALK_F_USER | PTWALK_F_ACCESSED |
			    PTWALK_F_DIRTY | PTWALK_F_NX);
	f = ptwalk_arch_present_flags(__pte(PFN(1) | _PAGE_PRESENT |
					    _PAGE_READ | _PAGE_EXEC |
					    _PAGE_USER));
	assert_int_equal(f, PTWALK_F_USER);
	/* a kernel (not U) read-only entry: none but NX */
	f = ptwalk_arch_present_flags(__pte(PFN(1) | _PAGE_PRESENT |
					    _PAGE_READ | _PAGE_GLOBAL));
	assert_int_equal(f, PTWALK_F_NX);
	/* PROT_NONE: V clear, G (the kernel's _PAGE_PROT_NONE) and R set */
	f = ptwalk_arch_present_flags(__pte(PFN(1) | _PAGE_PROT_NONE |
					    _PAGE_READ | _PAGE_ACCESSED));
	assert_int_equal(f, PTWALK_F_PROTNONE | PTWALK_F_ACCESSED | PTWALK_F_NX);
	assert_true(pte_present(__pte(PFN(1) | _PAGE_PROT_NONE | _PAGE_READ)));
}

/* Svpbmt: PBMT 0 PMA, 1 NC, 2 IO, at every level. */
static void pbmt_memtypes(void **state)
{
	static const enum ptwalk_level levels[] = {
		PTWALK_LEVEL_PTE, PTWALK_LEVEL_PMD, PTWALK_LEVEL_PUD,
	};
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		unsigned long e = PFN(0x40000) | USER_RW;

		assert_int_equal(ptwalk_arch_memtype(__pte(e), levels[i]),
				 PTWALK_MEMTYPE_PMA);
		assert_int_equal(ptwalk_arch_memtype(__pte(e | (1UL << 61)),
						     levels[i]),
				 PTWALK_MEMTYPE_NC);
		assert_int_equal(ptwalk_arch_memtype(__pte(e | (2UL << 61)),
						     levels[i]),
				 PTWALK_MEMTYPE_IO);
	}
	/* the type and N are apart: a NAPOT NC group is NC */
	assert_int_equal(ptwalk_arch_memtype(napot(0x80010, USER_RW |
						   _PAGE_NOCACHE_SVPBMT),
					     PTWALK_LEVEL_PTE),
			 PTWALK_MEMTYPE_NC);
}

/* T-Head's encoding (bits 63:59), and a CPU with neither: PMA. */
static void other_memtype_encodings(void **state)
{
	unsigned long e = PFN(0x40000) | USER_RW;

	(void)state;
	shim_mtmask = _PAGE_MTMASK_THEAD;
	shim_nocache = _PAGE_NOCACHE_THEAD;
	shim_io = _PAGE_IO_THEAD;
	assert_int_equal(ptwalk_arch_memtype(__pte(e | _PAGE_PMA_THEAD),
					     PTWALK_LEVEL_PTE),
			 PTWALK_MEMTYPE_PMA);
	assert_int_equal(ptwalk_arch_memtype(__pte(e | _PAGE_NOCACHE_THEAD),
					     PTWALK_LEVEL_PMD),
			 PTWALK_MEMTYPE_NC);
	assert_int_equal(ptwalk_arch_memtype(__pte(e | _PAGE_IO_THEAD),
					     PTWALK_LEVEL_PTE),
			 PTWALK_MEMTYPE_IO);
	shim_mtmask = shim_nocache = shim_io = 0;
	assert_int_equal(ptwalk_arch_memtype(__pte(e | (2UL << 61)),
					     PTWALK_LEVEL_PTE),
			 PTWALK_MEMTYPE_PMA);
	svpbmt();
}

/* A hugetlb NAPOT page: A and D from any of its 16 entries, the frame kept. */
static void napot_hugetlb_gathers_a_and_d(void **state)
{
	pte_t group[16];
	pte_t e;
	size_t i;

	(void)state;
	for (i = 0; i < 16; i++)
		group[i] = napot(0x80010, USER_RW);
	group[9] = __pte(pte_val(group[9]) | _PAGE_DIRTY);
	group[14] = __pte(pte_val(group[14]) | _PAGE_ACCESSED);
	e = ptwalk_arch_huge_ptep_get(NULL, BASE + 2 * PAGE_SIZE, &group[2],
				      group, 16);
	assert_int_equal(pte_val(e), pte_val(group[2]) | _PAGE_DIRTY |
				     _PAGE_ACCESSED);
	/* one entry (2M, 1G): read alone */
	e = ptwalk_arch_huge_ptep_get(NULL, BASE, &group[9], &group[9], 1);
	assert_int_equal(pte_val(e), pte_val(group[9]));
	/* not present: as it is */
	group[0] = __pte((0x3UL << 7) | (0x1234UL << 12));
	e = ptwalk_arch_huge_ptep_get(NULL, BASE, &group[0], group, 16);
	assert_int_equal(pte_val(e), (0x3UL << 7) | (0x1234UL << 12));
}

/* Sv57, Sv48, Sv39: 5, 4, 3 levels; 1G PUD leaves in all. */
static void levels_by_mode(void **state)
{
	(void)state;
	assert_int_equal(ptwalk_pgtable_levels(), 5);
	pgtable_l5_enabled = false;
	assert_int_equal(ptwalk_pgtable_levels(), 4);
	pgtable_l4_enabled = false;
	assert_int_equal(ptwalk_pgtable_levels(), 3);
	assert_int_equal(ptwalk_arch_pud_leaf_size(), 1UL << 30);
}

/*
 * The lookups riscv does not export: a level folded at boot is its parent
 * entry itself, else the table the entry points to, at the address's index.
 */
static void folded_levels(void **state)
{
	static p4d_t p4ds[512] __attribute__((aligned(4096)));
	static pud_t puds[512] __attribute__((aligned(4096)));
	unsigned long addr = (3UL << 39) | (5UL << 30) | 0x1234;
	pgd_t pgd = { (unsigned long)p4ds | _PAGE_TABLE };
	p4d_t *p4d;

	(void)state;
	p4ds[3].p4d = (unsigned long)puds | _PAGE_TABLE;
	/* Sv57: both tables */
	p4d = ptwalk_p4d_offset(&pgd, addr);
	assert_ptr_equal(p4d, &p4ds[3]);
	assert_ptr_equal(ptwalk_pud_offset(p4d, addr), &puds[5]);
	/* Sv48: the P4D is the PGD entry */
	pgtable_l5_enabled = false;
	p4d = ptwalk_p4d_offset(&pgd, addr);
	assert_ptr_equal(p4d, (p4d_t *)&pgd);
	/* Sv39: and the PUD too */
	pgtable_l4_enabled = false;
	assert_ptr_equal(ptwalk_pud_offset(p4d, addr), (pud_t *)&pgd);
}

#define UTS(name) cmocka_unit_test_setup(name, setup)
UNIT_MAIN("arch_riscv64", UTS(leaves_and_tables), UTS(napot_frames),
	  UTS(napot_is_contiguous), UTS(access_bits), UTS(pbmt_memtypes),
	  UTS(other_memtype_encodings), UTS(napot_hugetlb_gathers_a_and_d),
	  UTS(levels_by_mode), UTS(folded_levels))
