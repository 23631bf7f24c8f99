/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that knows which architecture ptwalk decodes.  Each
 * architecture has a header of its own beside this one, arch_<arch>.h,
 * that gives, as static inlines:
 *
 *   p4d_t *ptwalk_p4d_offset(pgd_t *, unsigned long addr),
 *   pud_t *ptwalk_pud_offset(p4d_t *, unsigned long addr)
 *	p4d_offset(), pud_offset(), which riscv64 does not export;
 *   bool ptwalk_pmd_is_leaf(pmd_t), ptwalk_pud_is_leaf(pud_t)
 *	whether a PMD/PUD entry, present or not, maps memory itself;
 *   pte_t ptwalk_pmd_pte(pmd_t), ptwalk_pud_pte(pud_t)
 *	a PMD/PUD leaf in the layout of a PTE, for the decoders;
 *   u64 ptwalk_arch_pte_pfn(pte_t, unsigned long addr)
 *	the frame a PTE maps at @addr: pte_pfn(), but for riscv's NAPOT
 *	entries, which all name their group's first frame;
 *   u64 ptwalk_pte_attrs(pte_t)
 *	the bits of a PTE other than its frame: two present PTEs with equal
 *	attributes decode to equal PTWALK_F_* (given equal frame flags);
 *   u32 ptwalk_arch_present_flags(pte_t)
 *	the PTWALK_F_* that the hardware bits of a present leaf say
 *	(write, user, dirty, accessed, no-execute, PROT_NONE, contiguous);
 *   unsigned int ptwalk_pgtable_levels(void)
 *	how many levels the page tables have now (x86: 4, or 5 with LA57;
 *	arm64: by granule, VA size and, 6.9+, LPA2 chosen at boot;
 *	riscv64: 5, 4 or 3 for Sv57, Sv48, Sv39, chosen at boot);
 *   unsigned long ptwalk_arch_pud_leaf_size(void)
 *	bytes a PUD leaf maps, 0 where the page size has no PUD leaf;
 *   unsigned long ptwalk_arch_cont_pte_size(void), _cont_pmd_size(void)
 *	bytes a group of contiguous PTEs/PMDs maps, 0 without one;
 *   pte_t ptwalk_arch_huge_ptep_get(struct mm_struct *mm,
 *	unsigned long addr, pte_t *ptep, pte_t *first, unsigned long ncontig)
 *	the hugetlb entry at @ptep (mapping @addr) as huge_ptep_get() sees
 *	it, for a page made of @ncontig entries from @first (1: one entry);
 *	under huge_pte_lock(); arm64's and riscv64's is arch_contig.h's;
 *   PTWALK_ARCH_ABSENT_FLAGS
 *	the PTWALK_F_* entry bits the architecture does not have at all
 *	(those its kernels may or may not have are decode.c's to say);
 *   u8 ptwalk_arch_memtype(pte_t, enum ptwalk_level)
 *	the enum ptwalk_memtype of a present leaf of that level (x86: PAT,
 *	PCD, PWT; arm64: the MAIR index's attributes; riscv64: Svpbmt's
 *	PBMT).
 */
#ifndef PTWALK_ARCH_H
#define PTWALK_ARCH_H

#if defined(CONFIG_X86_64)
#include "arch_x86_64.h"
#elif defined(CONFIG_ARM64)
#include "arch_arm64.h"
#elif defined(CONFIG_RISCV) && defined(CONFIG_64BIT)
#include "arch_riscv64.h"
#else
#error "ptwalk decodes x86-64, arm64 and riscv64 page table entries only"
#endif

#endif /* PTWALK_ARCH_H */
