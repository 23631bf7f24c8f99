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

/*
 * pmd_leaf()/pud_leaf() require _PAGE_PRESENT on x86, so a PROT_NONE or
 * NUMA-hinting huge entry would look like a table: test the PSE bit,
 * which non-present huge entries (PROT_NONE, migration, swap) keep.
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

/* pte_flags() masks out the frame, inverted or not (L1TF). */
static inline pteval_t ptwalk_pte_attrs(pte_t pte)
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

#endif /* PTWALK_ARCH_X86_64_H */
