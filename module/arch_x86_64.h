/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 page table entries as ptwalk reads them (the interface is in
 * arch.h; include that, not this).  All of ptwalk's knowledge of the x86
 * entry layout is here: the _PAGE_* bits, PROT_NONE's alias of
 * _PAGE_GLOBAL, the PSE bit of huge leaves.
 */
#ifndef PTWALK_ARCH_X86_64_H
#define PTWALK_ARCH_X86_64_H

#include <linux/hugetlb.h>
#include <linux/pgtable.h>
#include "compat.h"
#include "ptwalk_abi.h"

/* The kernel's own lookups (riscv64 needs its own: arch_riscv64.h). */
#define ptwalk_p4d_offset(pgd, addr)	p4d_offset(pgd, addr)
#define ptwalk_pud_offset(p4d, addr)	pud_offset(p4d, addr)

/*
 * A huge leaf is one with the PSE bit, present or not in the hardware's
 * sense: PROT_NONE and NUMA-hinting leaves clear _PAGE_PRESENT but keep
 * PSE, and so does a leaf pmdp_invalidate() has cleared for a split; x86's
 * pmd_present() counts all of them present, and they map memory.  The
 * kernel's pmd_leaf() tests PSE alone, as here, but its pud_leaf() wants
 * _PAGE_PRESENT too, and would call a PROT_NONE 1G leaf a table.  In a
 * non-present entry (swap, migration) PSE means something else
 * (_PAGE_SWP_EXCLUSIVE where the kernel has it); the walker sends a
 * non-present entry to its leaf hook whatever this says of it.
 */
static inline bool ptwalk_pud_is_leaf(pud_t pud)
{
	return pud_flags(pud) & _PAGE_PSE;
}

static inline bool ptwalk_pmd_is_leaf(pmd_t pmd)
{
	return pmd_flags(pmd) & _PAGE_PSE;
}

/* Every level's leaf keeps its bits where a PTE has them. */
static inline pte_t ptwalk_pmd_pte(pmd_t pmd)
{
	return __pte(pmd_val(pmd));
}

static inline pte_t ptwalk_pud_pte(pud_t pud)
{
	return __pte(pud_val(pud));
}

static inline u64 ptwalk_arch_pte_pfn(pte_t pte, unsigned long addr)
{
	return pte_pfn(pte);
}

/* pte_flags() masks out the frame, inverted or not (L1TF). */
static inline u64 ptwalk_pte_attrs(pte_t pte)
{
	return pte_flags(pte);
}

static inline u32 ptwalk_arch_present_flags(pte_t entry)
{
	pteval_t bits = pte_flags(entry);
	u32 flags = 0;

	if (bits & _PAGE_RW)
		flags |= PTWALK_F_WRITE;
	if (bits & _PAGE_USER)
		flags |= PTWALK_F_USER;
	if (bits & _PAGE_DIRTY)
		flags |= PTWALK_F_DIRTY;
	if (bits & _PAGE_ACCESSED)
		flags |= PTWALK_F_ACCESSED;
	if (bits & _PAGE_NX)
		flags |= PTWALK_F_NX;
	/* _PAGE_PROTNONE aliases _PAGE_GLOBAL, which user entries never set */
	if ((bits & (_PAGE_PROTNONE | _PAGE_PRESENT)) == _PAGE_PROTNONE)
		flags |= PTWALK_F_PROTNONE;
	return flags;
}

/*
 * The memory type of a present leaf.  PAT, PCD and PWT index the PAT MSR,
 * whose eight entries the kernel programmed at boot (arch/x86/mm/pat/);
 * the PAT bit is bit 7 (_PAGE_PAT) in a 4K entry and bit 12
 * (_PAGE_PAT_LARGE) in a 2M or 1G leaf, where bit 7 is PSE.  The kernel's
 * own index-to-mode table (__pte2cachemode_tbl, behind pgprot2cachemode())
 * is not exported, but its inverse is: cachemode2protval() gives the bits
 * the kernel writes for each mode, and entries are only ever written with
 * those.  Modes that share bits when PAT is off (WC and WP fall back to
 * UC-) are tried after the mode the bits really give.  Bits no mode has
 * (a PAT index the kernel never uses) decode to PTWALK_MEMTYPE_NONE.
 */
static inline u8 ptwalk_arch_memtype(pte_t entry, enum ptwalk_level level)
{
	static const struct {
		enum page_cache_mode pcm;
		u8 memtype;
	} modes[] = {
		{ _PAGE_CACHE_MODE_UC_MINUS, PTWALK_MEMTYPE_UC_MINUS },
		{ _PAGE_CACHE_MODE_UC, PTWALK_MEMTYPE_UC },
		{ _PAGE_CACHE_MODE_WT, PTWALK_MEMTYPE_WT },
		{ _PAGE_CACHE_MODE_WC, PTWALK_MEMTYPE_WC },
		{ _PAGE_CACHE_MODE_WP, PTWALK_MEMTYPE_WP },
	};
	pgprotval_t bits = pte_val(entry);
	size_t i;

	if (level != PTWALK_LEVEL_PTE)
		bits = protval_large_2_4k(bits);
	bits &= _PAGE_CACHE_MASK;
	/* PAT entry 0 is write-back whether PAT is on or off */
	if (!bits)
		return PTWALK_MEMTYPE_WB;
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		if (cachemode2protval(modes[i].pcm) == bits)
			return modes[i].memtype;
	return PTWALK_MEMTYPE_NONE;
}

/* A hugetlb page is one entry on x86: the kernel's own read (compat.h). */
static inline pte_t ptwalk_arch_huge_ptep_get(struct mm_struct *mm,
					      unsigned long addr, pte_t *ptep,
					      pte_t *first,
					      unsigned long ncontig)
{
	return ptwalk_huge_ptep_get(mm, addr, ptep);
}

/* No contiguous-entry hint (arm64's PTE_CONT) on x86. */
#define PTWALK_ARCH_ABSENT_FLAGS	PTWALK_F_CONT

static inline unsigned int ptwalk_pgtable_levels(void)
{
	return pgtable_l5_enabled() ? 5 : 4;
}

/* 1G leaves (hugetlb, PUD pfn maps) where the CPU has them: PUD_SIZE. */
static inline unsigned long ptwalk_arch_pud_leaf_size(void)
{
	return PUD_SIZE;
}

static inline unsigned long ptwalk_arch_cont_pte_size(void)
{
	return 0;
}

static inline unsigned long ptwalk_arch_cont_pmd_size(void)
{
	return 0;
}

#endif /* PTWALK_ARCH_X86_64_H */
