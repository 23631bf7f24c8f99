/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page table walker, pgd -> p4d -> pud -> pmd -> pte, with hooks for
 * its callers like walk_page_range() and struct mm_walk_ops (which are not
 * exported to modules).  It alone takes page table locks, re-reads entries
 * under them, and looks again when a THP split or a retracted PTE table
 * changed an entry under it.  Its callers: range.c, a range of a task into
 * ptwalk_records, and vtop.c, one address level by level.
 *
 * The contract between the walker and its hooks:
 *
 * - The caller holds a reference on the mm's users (mmget) and its mmap
 *   lock for the whole walk: the read lock inside a VMA, the write lock
 *   where no VMA is (@vma NULL), because munmap frees the page tables of
 *   the VMAs it removed after downgrading to the read lock (the rule of
 *   walk_page_range_novma(); vtop.c).  Under it VMAs and the PGD, P4D and
 *   PUD tables are stable; PUD leaves and PMD and PTE entries are not
 *   (faults, zaps, THP splits and collapses, migration change them under
 *   their own locks).
 * - A shared hugetlb VMA's PMD table may be shared with other processes
 *   and unshared under the mmap read lock: the walker itself holds the
 *   file's i_mmap_rwsem (read) across such a walk, taken before any
 *   spinlock (walk.c, shared_hugetlb_mapping()).
 * - An entry handed to leaf or pte_range was read under the lock that
 *   guards it, held until the hook returns: pud_lock() for a PUD leaf or
 *   non-present PUD, pmd_lock() for a PMD leaf or non-present PMD, the
 *   PTE table's lock for PTEs (since 6.5 inside rcu_read_lock() too),
 *   huge_pte_lock() for hugetlb entries.  The entry, and so the frame it
 *   maps, cannot change while the hook runs.
 * - Hooks may run under a spinlock: they must not sleep, fault, copy to or
 *   from user memory (the target may be the caller, whose mmap lock is
 *   held), allocate other than GFP_ATOMIC, or take the mmap lock or any
 *   page table lock.
 * - A hook returns 0 to go on, anything else to stop: the walker drops
 *   what locks it took and ptwalk_walk_range() returns that value at once,
 *   leaving the rest of the range unvisited.
 * - Unless stopped, every page of the range reaches exactly one of hole,
 *   bad, leaf and pte_range, once, in address order: a retry happens only
 *   before any of them was called for the entry retried.
 * - NULL hooks do nothing.  Without pte_range the walker reads each PTE
 *   itself and hands it to entry and then to hole or leaf, one page each.
 */
#ifndef PTWALK_WALK_H
#define PTWALK_WALK_H

#include <linux/mm_types.h>
#include "ptwalk_abi.h"

struct ptwalk_walk;

struct ptwalk_walk_ops {
	/*
	 * Sees each entry the walker reads from a table of level @table
	 * (named as ptwalk_vtop's levels, PTWALK_VTOP_PGD to _PTE): the
	 * lockless reads and the re-reads under the lock, so that a level
	 * may be seen more than once and its last value is the one the walk
	 * acted on.  A PMD or PUD hugetlb entry is seen at its table's level.
	 * With 4-level paging the P4D is folded and seen with the PGD's value.
	 */
	void (*entry)(struct ptwalk_walk *walk, enum ptwalk_vtop_level table,
		      u64 val);
	/* [addr, end) has no entry: an empty entry of some level. */
	int (*hole)(struct ptwalk_walk *walk, unsigned long addr,
		    unsigned long end);
	/*
	 * [addr, end) is below an entry that is neither empty, a table nor a
	 * leaf: a PMD or PUD of @level, or a PGD or P4D (PTWALK_LEVEL_NONE).
	 */
	int (*bad)(struct ptwalk_walk *walk, enum ptwalk_level level,
		   unsigned long addr, unsigned long end);
	/*
	 * [addr, end) is mapped by @entry, a non-empty leaf or non-present
	 * entry of @level read as a PTE (see arch.h); @leaf_pfn is its first
	 * frame, decoded with its level's pXd_pfn().  decode.h decodes both.
	 */
	int (*leaf)(struct ptwalk_walk *walk, pte_t entry, u64 leaf_pfn,
		    enum ptwalk_level level, unsigned long addr,
		    unsigned long end);
	/*
	 * The PTEs of [addr, end), all in one table, mapped and locked; @pte
	 * points to addr's.  Read them with ptep_get(), none beyond end.
	 */
	int (*pte_range)(struct ptwalk_walk *walk, pte_t *pte,
			 unsigned long addr, unsigned long end);
};

struct ptwalk_walk {
	const struct ptwalk_walk_ops *ops;
	struct mm_struct *mm;
	void *private;			/* the caller's */
	/* Set by ptwalk_walk_range() for the hooks: */
	struct vm_area_struct *vma;	/* the VMA walked; NULL: none */
	enum ptwalk_level hugetlb_level; /* leaf level of a hugetlb vma */
};

/*
 * Walks [@start, @end), page aligned, inside @vma or, with @vma NULL,
 * where no VMA is.  Returns 0, or the first non-zero value a hook returned.
 */
int ptwalk_walk_range(struct ptwalk_walk *walk, struct vm_area_struct *vma,
		      unsigned long start, unsigned long end);

#endif /* PTWALK_WALK_H */
