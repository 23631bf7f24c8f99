/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptwalk_arch_huge_ptep_get() for the architectures whose hugetlb pages
 * can be groups of contiguous entries (arm64's PTE_CONT, riscv's Svnapot),
 * included by their arch_<arch>.h (arch.h; include that, not this).
 * Neither architecture exports its huge_ptep_get(): this is the same read.
 * A hugetlb page larger than its level's entry (arm64 64K: 16 PTEs, 32M:
 * 16 PMD blocks; riscv's 64K NAPOT: 16 PTEs) is @ncontig entries from
 * @first, and the MMU may set the dirty and young (riscv: D and A) bits in
 * any of them: they are gathered from the whole group, as the kernel does;
 * the frame stays @ptep's own.
 */
#ifndef PTWALK_ARCH_CONTIG_H
#define PTWALK_ARCH_CONTIG_H

#include <linux/pgtable.h>

static inline pte_t ptwalk_arch_huge_ptep_get(struct mm_struct *mm,
					      unsigned long addr, pte_t *ptep,
					      pte_t *first,
					      unsigned long ncontig)
{
	pte_t entry = ptep_get(ptep);
	unsigned long i;

	if (ncontig <= 1 || !pte_present(entry))
		return entry;
	for (i = 0; i < ncontig; i++) {
		pte_t other = ptep_get(first + i);

		if (pte_dirty(other))
			entry = pte_mkdirty(entry);
		if (pte_young(other))
			entry = pte_mkyoung(entry);
	}
	return entry;
}

#endif /* PTWALK_ARCH_CONTIG_H */
