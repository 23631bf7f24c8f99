// SPDX-License-Identifier: GPL-2.0
/*
 * The page table walk (walk.h has the contract with the hooks), one
 * function per level as in mm/pagewalk.c.  Under the mmap read lock the
 * upper levels are read without a lock; a PUD or PMD that is a leaf or not
 * present is re-read and decided under pud_lock()/pmd_lock(), PTEs under
 * their table's lock, hugetlb entries under huge_pte_lock() (a hugetlb
 * page may be a group of contiguous entries: hugetlb_entry_get()).  The PMD
 * level is read again when a split made a leaf a table before we locked
 * it, or when the PTE table went away (6.5+), and a PUD that stopped being
 * a leaf is walked as a table: this is the only place that retries.
 *
 * Unlike walk_page_range(), VM_PFNMAP/VM_IO/VM_MIXEDMAP VMAs are walked
 * like any other: reporting them is what ptwalk is for.
 */
#include <linux/hugetlb.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include "arch.h"
#include "compat.h"
#include "walk.h"

static void walk_entry(struct ptwalk_walk *walk, enum ptwalk_vtop_level table,
		       u64 val)
{
	if (walk->ops->entry)
		walk->ops->entry(walk, table, val);
}

static int walk_hole(struct ptwalk_walk *walk, unsigned long addr,
		     unsigned long end)
{
	return walk->ops->hole ? walk->ops->hole(walk, addr, end) : 0;
}

static int walk_bad(struct ptwalk_walk *walk, enum ptwalk_level level,
		    unsigned long addr, unsigned long end)
{
	return walk->ops->bad ? walk->ops->bad(walk, level, addr, end) : 0;
}

/* An entry read under its lock that maps [addr, end), or no longer does. */
static int walk_leaf(struct ptwalk_walk *walk, pte_t entry, u64 leaf_pfn,
		     enum ptwalk_level level, unsigned long addr,
		     unsigned long end)
{
	if (pte_none(entry))
		return walk_hole(walk, addr, end);
	if (!walk->ops->leaf)
		return 0;
	return walk->ops->leaf(walk, entry, leaf_pfn, level, addr, end);
}

/* Without a pte_range hook: each PTE read here, one page at a time. */
static int walk_ptes(struct ptwalk_walk *walk, pte_t *pte, unsigned long addr,
		     unsigned long end)
{
	int err = 0;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		pte_t entry = ptep_get(pte);

		walk_entry(walk, PTWALK_VTOP_PTE, pte_val(entry));
		err = walk_leaf(walk, entry, ptwalk_arch_pte_pfn(entry, addr),
				PTWALK_LEVEL_PTE, addr, addr + PAGE_SIZE);
		if (err)
			break;
	}
	return err;
}

/*
 * Sets *again when the PMD changed before we got the table (a retraction
 * or a THP collapse, 6.5+ or a backport of it): look again.
 */
static int walk_pte_range(struct ptwalk_walk *walk, pmd_t *pmdp,
			  unsigned long addr, unsigned long end, bool *again)
{
	spinlock_t *ptl;
	pte_t *pte;
	int err;

	pte = ptwalk_pte_map_lock(walk->mm, pmdp, addr, &ptl);
	if (!pte) {
		*again = true;
		return 0;
	}
	if (walk->ops->pte_range)
		err = walk->ops->pte_range(walk, pte, addr, end);
	else
		err = walk_ptes(walk, pte, addr, end);
	ptwalk_pte_unmap_unlock(pte, ptl);
	return err;
}

static bool pmd_is_table(pmd_t pmd)
{
	return pmd_present(pmd) && !ptwalk_pmd_is_leaf(pmd) && !pmd_bad(pmd);
}

/*
 * A THP, a PMD pfn map or a THP migration entry.  Sets *again when a split
 * turned it into a table before we got the lock.
 */
static int walk_pmd_leaf(struct ptwalk_walk *walk, pmd_t *pmdp,
			 unsigned long addr, unsigned long end, bool *again)
{
	spinlock_t *ptl = pmd_lock(walk->mm, pmdp);
	pmd_t pmd = *pmdp;
	int err = 0;

	walk_entry(walk, PTWALK_VTOP_PMD, pmd_val(pmd));
	if (pmd_is_table(pmd))
		*again = true;
	else if (pmd_present(pmd) && !ptwalk_pmd_is_leaf(pmd))
		err = walk_bad(walk, PTWALK_LEVEL_PMD, addr, end);
	else
		err = walk_leaf(walk, ptwalk_pmd_pte(pmd), pmd_pfn(pmd),
				PTWALK_LEVEL_PMD, addr, end);
	spin_unlock(ptl);
	return err;
}

static int walk_pmd_entry(struct ptwalk_walk *walk, pmd_t *pmdp,
			  unsigned long addr, unsigned long end)
{
	for (;;) {
		pmd_t pmd = ptwalk_pmdp_get(pmdp);
		bool again = false;
		int err;

		walk_entry(walk, PTWALK_VTOP_PMD, pmd_val(pmd));
		if (pmd_none(pmd))
			return walk_hole(walk, addr, end);
		if (pmd_is_table(pmd))
			err = walk_pte_range(walk, pmdp, addr, end, &again);
		else
			err = walk_pmd_leaf(walk, pmdp, addr, end, &again);
		if (!again)
			return err;
	}
}

/* Bytes one entry of @level maps. */
static unsigned long level_size(enum ptwalk_level level)
{
	switch (level) {
	case PTWALK_LEVEL_PUD:
		return PUD_SIZE;
	case PTWALK_LEVEL_PMD:
		return PMD_SIZE;
	default:
		return PAGE_SIZE;
	}
}

/*
 * The hugetlb entry at @ptep, which maps @addr: read by the architecture
 * (arch.h), told the group of entries the page is made of when it is
 * larger than one entry of its level (arm64's 64K and 32M pages).
 */
static pte_t hugetlb_entry_get(struct ptwalk_walk *walk, pte_t *ptep,
			       unsigned long addr)
{
	unsigned long size = huge_page_size(hstate_vma(walk->vma));
	unsigned long lsize = level_size(walk->hugetlb_level);

	return ptwalk_arch_huge_ptep_get(walk->mm, addr, ptep,
					 ptep - (addr & (size - 1)) / lsize,
					 size / lsize);
}

/*
 * hugetlb entries are huge PTEs: decoded as PTEs, as hugetlb.c does, under
 * the lock huge_pte_lock() picks for their size; seen at @table's level.
 */
static int walk_hugetlb_entry(struct ptwalk_walk *walk, pte_t *ptep,
			      enum ptwalk_vtop_level table, unsigned long addr,
			      unsigned long end)
{
	spinlock_t *ptl = huge_pte_lock(hstate_vma(walk->vma), walk->mm, ptep);
	pte_t entry = hugetlb_entry_get(walk, ptep, addr);
	int err;

	walk_entry(walk, table, pte_val(entry));
	err = walk_leaf(walk, entry,
			walk->hugetlb_level == PTWALK_LEVEL_PTE ?
			ptwalk_arch_pte_pfn(entry, addr) : pte_pfn(entry),
			walk->hugetlb_level, addr, end);
	spin_unlock(ptl);
	return err;
}

/*
 * hugetlb pages made of contiguous PTEs (arm64's 64K, riscv64's NAPOT 64K).  Their page tables
 * are freed only with the VMA, under the mmap write lock, so the table is
 * read without a PMD lock, as huge_pte_offset() does.
 */
static int walk_hugetlb_ptes(struct ptwalk_walk *walk, pmd_t *pmdp,
			     unsigned long addr, unsigned long end)
{
	pmd_t pmd = ptwalk_pmdp_get(pmdp);
	pte_t *pte;
	int err = 0;

	walk_entry(walk, PTWALK_VTOP_PMD, pmd_val(pmd));
	if (pmd_none(pmd))
		return walk_hole(walk, addr, end);
	if (!pmd_is_table(pmd))
		return walk_bad(walk, PTWALK_LEVEL_PMD, addr, end);
	for (pte = pte_offset_kernel(pmdp, addr); addr != end;
	     pte++, addr += PAGE_SIZE) {
		err = walk_hugetlb_entry(walk, pte, PTWALK_VTOP_PTE, addr,
					 addr + PAGE_SIZE);
		if (err)
			break;
	}
	return err;
}

static int walk_pmd_range(struct ptwalk_walk *walk, pud_t *pudp,
			  unsigned long addr, unsigned long end)
{
	pmd_t *pmdp = pmd_offset(pudp, addr);
	unsigned long next;
	int err;

	do {
		next = pmd_addr_end(addr, end);
		if (walk->hugetlb_level == PTWALK_LEVEL_PMD)
			err = walk_hugetlb_entry(walk, (pte_t *)pmdp,
						 PTWALK_VTOP_PMD, addr, next);
		else if (walk->hugetlb_level == PTWALK_LEVEL_PTE)
			err = walk_hugetlb_ptes(walk, pmdp, addr, next);
		else
			err = walk_pmd_entry(walk, pmdp, addr, next);
		if (err)
			return err;
	} while (pmdp++, addr = next, addr != end);
	return 0;
}

/*
 * Whether the entry read at the PUD step can map memory itself.  Never
 * where the PMD is folded (asm-generic/pgtable-nopmd.h, arm64 with two
 * levels): the PUD step's pud_t is then the PMD's entry, pud_none() false
 * and pud_present() true whatever it holds, and the entry is decided, and
 * named, at the PMD step; nor where the architecture makes no PUD leaf
 * with this page size (arm64 with 16K or 64K pages), so that a non-table
 * entry there is bad, not a leaf of a size that does not exist.
 */
static bool pud_has_leaves(void)
{
#ifdef __PAGETABLE_PMD_FOLDED
	return false;
#else
	return ptwalk_arch_pud_leaf_size() != 0;
#endif
}

/*
 * A PUD leaf outside hugetlb (a DAX or PUD pfn mapping), or a non-present
 * PUD.  Sets *table when it is a table once locked.
 */
static int walk_pud_leaf(struct ptwalk_walk *walk, pud_t *pudp,
			 unsigned long addr, unsigned long end, bool *table)
{
	spinlock_t *ptl = pud_lock(walk->mm, pudp);
	pud_t pud = *pudp;
	int err = 0;

	walk_entry(walk, PTWALK_VTOP_PUD, pud_val(pud));
	if (pud_present(pud) && !ptwalk_pud_is_leaf(pud))
		*table = true;
	else
		err = walk_leaf(walk, ptwalk_pud_pte(pud), pud_pfn(pud),
				PTWALK_LEVEL_PUD, addr, end);
	spin_unlock(ptl);
	return err;
}

static int walk_pud_entry(struct ptwalk_walk *walk, pud_t *pudp,
			  unsigned long addr, unsigned long end)
{
	pud_t pud = READ_ONCE(*pudp);

	walk_entry(walk, PTWALK_VTOP_PUD, pud_val(pud));
	if (pud_none(pud))
		return walk_hole(walk, addr, end);
	if (pud_has_leaves() &&
	    (ptwalk_pud_is_leaf(pud) || !pud_present(pud))) {
		bool table = false;
		int err = walk_pud_leaf(walk, pudp, addr, end, &table);

		if (!table)
			return err;
		pud = READ_ONCE(*pudp);
		walk_entry(walk, PTWALK_VTOP_PUD, pud_val(pud));
	}
	if (pud_bad(pud))
		return walk_bad(walk, PTWALK_LEVEL_PUD, addr, end);
	return walk_pmd_range(walk, pudp, addr, end);
}

static int walk_pud_range(struct ptwalk_walk *walk, p4d_t *p4dp,
			  unsigned long addr, unsigned long end)
{
	pud_t *pudp = ptwalk_pud_offset(p4dp, addr);
	unsigned long next;
	int err;

	do {
		next = pud_addr_end(addr, end);
		if (walk->hugetlb_level == PTWALK_LEVEL_PUD)
			err = walk_hugetlb_entry(walk, (pte_t *)pudp,
						 PTWALK_VTOP_PUD, addr, next);
		else
			err = walk_pud_entry(walk, pudp, addr, next);
		if (err)
			return err;
	} while (pudp++, addr = next, addr != end);
	return 0;
}

static int walk_p4d_range(struct ptwalk_walk *walk, pgd_t *pgdp,
			  unsigned long addr, unsigned long end)
{
	p4d_t *p4dp = ptwalk_p4d_offset(pgdp, addr);
	unsigned long next;
	int err;

	do {
		p4d_t p4d = READ_ONCE(*p4dp);

		next = p4d_addr_end(addr, end);
		walk_entry(walk, PTWALK_VTOP_P4D, p4d_val(p4d));
		if (p4d_none(p4d))
			err = walk_hole(walk, addr, next);
		else if (p4d_bad(p4d))
			err = walk_bad(walk, PTWALK_LEVEL_NONE, addr, next);
		else
			err = walk_pud_range(walk, p4dp, addr, next);
		if (err)
			return err;
	} while (p4dp++, addr = next, addr != end);
	return 0;
}

static int walk_pgd_range(struct ptwalk_walk *walk, unsigned long addr,
			  unsigned long end)
{
	pgd_t *pgdp = pgd_offset(walk->mm, addr);
	unsigned long next;
	int err;

	do {
		pgd_t pgd = READ_ONCE(*pgdp);

		next = pgd_addr_end(addr, end);
		walk_entry(walk, PTWALK_VTOP_PGD, pgd_val(pgd));
		if (pgd_none(pgd))
			err = walk_hole(walk, addr, next);
		else if (pgd_bad(pgd))
			err = walk_bad(walk, PTWALK_LEVEL_NONE, addr, next);
		else
			err = walk_p4d_range(walk, pgdp, addr, next);
		if (err)
			return err;
	} while (pgdp++, addr = next, addr != end);
	return 0;
}

/*
 * The level hugetlb entries of @vma sit at: the largest whose entry is no
 * larger than the page (a 64K page is 16 PTEs, a 32M page 16 PMDs, on
 * arm64), of those that hold leaves (with the PMD folded PUD_SIZE is
 * PMD_SIZE: a 512M page is a PMD leaf); NONE: not hugetlb, walk it as any
 * other.
 */
static enum ptwalk_level hugetlb_level(struct vm_area_struct *vma)
{
	unsigned long size;

	if (!vma || !is_vm_hugetlb_page(vma))
		return PTWALK_LEVEL_NONE;
	size = huge_page_size(hstate_vma(vma));
	if (pud_has_leaves() && size >= PUD_SIZE)
		return PTWALK_LEVEL_PUD;
	if (size >= PMD_SIZE)
		return PTWALK_LEVEL_PMD;
	return PTWALK_LEVEL_PTE;
}

/*
 * The mapping whose i_mmap_rwsem keeps @vma's page tables alive: a shared
 * hugetlb VMA may map its pages through a PMD table shared with other
 * processes (x86-64, arm64 with 4K pages), and huge_pmd_unshare() frees
 * this process's hold on it, under the mmap *read* lock for MADV_DONTNEED,
 * while holding i_mmap_rwsem for writing (c0d0381ade79, 5.7; 6.1 added the
 * hugetlb VMA lock, 40549ba8f8e0, which walk_hugetlb_range() takes but
 * modules cannot: hugetlb_walk()'s lockdep check accepts i_mmap_rwsem in
 * its stead).  NULL: nothing to take.
 */
static struct address_space *shared_hugetlb_mapping(struct vm_area_struct *vma)
{
	if (!vma || !is_vm_hugetlb_page(vma) || !(vma->vm_flags & VM_MAYSHARE) ||
	    !vma->vm_file)
		return NULL;
	return vma->vm_file->f_mapping;
}

int ptwalk_walk_range(struct ptwalk_walk *walk, struct vm_area_struct *vma,
		      unsigned long start, unsigned long end)
{
	struct address_space *mapping = shared_hugetlb_mapping(vma);
	int err;

	/* not mmap_assert_locked(): with DEBUG_VM it calls dump_mm(), unexported before 6.3 */
	if (vma)
		lockdep_assert_held(&walk->mm->mmap_lock);
	else
		lockdep_assert_held_write(&walk->mm->mmap_lock);
	walk->vma = vma;
	walk->hugetlb_level = hugetlb_level(vma);
	/* a sleeping lock: taken before any page table spinlock */
	if (mapping)
		i_mmap_lock_read(mapping);
	err = walk_pgd_range(walk, start, end);
	if (mapping)
		i_mmap_unlock_read(mapping);
	return err;
}
