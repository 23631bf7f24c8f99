// SPDX-License-Identifier: GPL-2.0
/*
 * One address, level by level, like crash's vtop: the raw entry and the
 * index read at each level, and the leaf (or non-present entry) decoded
 * with walk.c's decoders, so that it says what a ptwalk_record would.
 *
 * Locking as in walk.c: the mmap read lock keeps VMAs and the upper levels
 * stable; PUD and PMD leaves and non-present entries are re-read and
 * decoded under pud_lock()/pmd_lock(), PTEs under the PTE table lock,
 * hugetlb entries under huge_pte_lock().  A level whose entry changed
 * kind under us (a THP split, a table retracted on 6.5+) is read again.
 */
#include <linux/hugetlb.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pgtable.h>
#include <linux/sched/mm.h>
#include "compat.h"
#include "vtop.h"
#include "walk.h"

struct vtop_walk {
	struct ptwalk_walk w;		/* mm, VMA and its flags: decoder input */
	unsigned long addr;
	struct ptwalk_vtop *v;
};

static void note(struct vtop_walk *vw, enum ptwalk_vtop_level l, u64 val,
		 unsigned long index)
{
	vw->v->entry[l] = val;
	vw->v->index[l] = index;
	vw->v->walked |= 1U << l;
}

static void stop_bad(struct vtop_walk *vw, enum ptwalk_level level)
{
	vw->v->stop = PTWALK_VTOP_STOP_BAD;
	vw->v->level = level;
	vw->v->kind = PTWALK_KIND_UNKNOWN;
}

/*
 * The entry that ends the walk at @level, read as a PTE (x86 leaves share
 * its layout); @leaf_pfn decoded by the caller with its level's helper.
 * Called under the lock that guards the entry.
 */
static void decode_leaf(struct vtop_walk *vw, pte_t entry, u64 leaf_pfn,
			enum ptwalk_level level)
{
	struct ptwalk_vtop *v = vw->v;
	u64 index = leaf_index(vw->addr, level);
	struct ptwalk_record run = {};

	if (pte_none(entry))
		return;		/* stop stays PTWALK_VTOP_STOP_NONE */
	v->level = level;
	if (pte_present(entry)) {
		v->stop = PTWALK_VTOP_STOP_LEAF;
		v->kind = PTWALK_KIND_PRESENT;
		v->pfn = leaf_pfn + index;
		v->flags |= present_flags(&vw->w, entry, level, leaf_pfn);
		return;
	}
	decode_swap(&run, entry, index);
	v->stop = PTWALK_VTOP_STOP_NOT_PRESENT;
	v->kind = run.kind;
	v->flags |= run.flags;
	v->swap_type = run.swap_type;
	v->swap_offset = run.swap_offset;
}

static void vtop_hugetlb(struct vtop_walk *vw, pte_t *ptep,
			 enum ptwalk_vtop_level l, unsigned long index)
{
	spinlock_t *ptl = huge_pte_lock(hstate_vma(vw->w.vma), vw->w.mm, ptep);
	pte_t entry = ptwalk_huge_ptep_get(vw->w.mm, vw->addr, ptep);

	note(vw, l, pte_val(entry), index);
	decode_leaf(vw, entry, pte_pfn(entry), vw->w.hugetlb_level);
	spin_unlock(ptl);
}

/* False when the PTE table went away before we locked it (6.5+). */
static bool vtop_pte(struct vtop_walk *vw, pmd_t *pmdp)
{
	spinlock_t *ptl;
	pte_t *ptep, pte;

	ptep = ptwalk_pte_map_lock(vw->w.mm, pmdp, vw->addr, &ptl);
	if (ptwalk_pte_map_failed(ptep))
		return false;
	pte = ptep_get(ptep);
	note(vw, PTWALK_VTOP_PTE, pte_val(pte), pte_index(vw->addr));
	decode_leaf(vw, pte, pte_pfn(pte), PTWALK_LEVEL_PTE);
	ptwalk_pte_unmap_unlock(ptep, ptl);
	return true;
}

static bool pmd_is_table(pmd_t pmd)
{
	return pmd_present(pmd) && !ptwalk_pmd_is_leaf(pmd) && !pmd_bad(pmd);
}

/* False when a split made the leaf a table before we got the lock. */
static bool vtop_pmd_leaf(struct vtop_walk *vw, pmd_t *pmdp)
{
	spinlock_t *ptl = pmd_lock(vw->w.mm, pmdp);
	pmd_t pmd = *pmdp;
	bool done = true;

	note(vw, PTWALK_VTOP_PMD, pmd_val(pmd), pmd_index(vw->addr));
	if (pmd_is_table(pmd))
		done = false;
	else if (pmd_present(pmd) && !ptwalk_pmd_is_leaf(pmd))
		stop_bad(vw, PTWALK_LEVEL_PMD);
	else
		decode_leaf(vw, __pte(pmd_val(pmd)), pmd_pfn(pmd),
			    PTWALK_LEVEL_PMD);
	spin_unlock(ptl);
	return done;
}

static void vtop_pmd(struct vtop_walk *vw, pud_t *pudp)
{
	pmd_t *pmdp = pmd_offset(pudp, vw->addr);

	if (vw->w.hugetlb_level == PTWALK_LEVEL_PMD) {
		vtop_hugetlb(vw, (pte_t *)pmdp, PTWALK_VTOP_PMD,
			     pmd_index(vw->addr));
		return;
	}
	for (;;) {
		pmd_t pmd = ptwalk_pmdp_get(pmdp);

		note(vw, PTWALK_VTOP_PMD, pmd_val(pmd), pmd_index(vw->addr));
		if (pmd_none(pmd))
			return;
		if (pmd_is_table(pmd) ? vtop_pte(vw, pmdp) :
					vtop_pmd_leaf(vw, pmdp))
			return;
	}
}

/* A PUD leaf outside hugetlb (DAX, PUD pfn map), or a non-present one. */
static bool vtop_pud_leaf(struct vtop_walk *vw, pud_t *pudp)
{
	spinlock_t *ptl = pud_lock(vw->w.mm, pudp);
	pud_t pud = *pudp;
	bool done = true;

	note(vw, PTWALK_VTOP_PUD, pud_val(pud), pud_index(vw->addr));
	if (pud_present(pud) && !ptwalk_pud_is_leaf(pud))
		done = false;
	else
		decode_leaf(vw, __pte(pud_val(pud)), pud_pfn(pud),
			    PTWALK_LEVEL_PUD);
	spin_unlock(ptl);
	return done;
}

static void vtop_pud(struct vtop_walk *vw, p4d_t *p4dp)
{
	pud_t *pudp = pud_offset(p4dp, vw->addr);
	pud_t pud;

	if (vw->w.hugetlb_level == PTWALK_LEVEL_PUD) {
		vtop_hugetlb(vw, (pte_t *)pudp, PTWALK_VTOP_PUD,
			     pud_index(vw->addr));
		return;
	}
	pud = READ_ONCE(*pudp);
	note(vw, PTWALK_VTOP_PUD, pud_val(pud), pud_index(vw->addr));
	if (pud_none(pud))
		return;
	if (ptwalk_pud_is_leaf(pud) || !pud_present(pud)) {
		if (vtop_pud_leaf(vw, pudp))
			return;
		pud = READ_ONCE(*pudp);
		note(vw, PTWALK_VTOP_PUD, pud_val(pud), pud_index(vw->addr));
	}
	if (pud_bad(pud))
		stop_bad(vw, PTWALK_LEVEL_PUD);
	else
		vtop_pmd(vw, pudp);
}

static void vtop_p4d(struct vtop_walk *vw, pgd_t *pgdp)
{
	p4d_t *p4dp = p4d_offset(pgdp, vw->addr);
	p4d_t p4d = READ_ONCE(*p4dp);

	/*
	 * With 4-level paging the P4D is folded: p4dp is the PGD entry
	 * itself (already noted), and only the p4d_*() tests look at it.
	 */
	if (pgtable_l5_enabled())
		note(vw, PTWALK_VTOP_P4D, p4d_val(p4d), p4d_index(vw->addr));
	if (p4d_none(p4d))
		return;
	if (p4d_bad(p4d))
		stop_bad(vw, PTWALK_LEVEL_NONE);
	else
		vtop_pud(vw, p4dp);
}

static void vtop_pgd(struct vtop_walk *vw)
{
	pgd_t *pgdp = pgd_offset(vw->w.mm, vw->addr);
	pgd_t pgd = READ_ONCE(*pgdp);

	note(vw, PTWALK_VTOP_PGD, pgd_val(pgd), pgd_index(vw->addr));
	if (pgd_none(pgd))
		return;
	if (pgd_bad(pgd))
		stop_bad(vw, PTWALK_LEVEL_NONE);
	else
		vtop_p4d(vw, pgdp);
}

static void vtop_walk(struct mm_struct *mm, unsigned long addr,
		      struct ptwalk_vtop *v)
{
	struct vtop_walk vw = { .w = { .mm = mm }, .addr = addr, .v = v };
	struct vm_area_struct *vma = ptwalk_vma_lookup(mm, addr);

	lockdep_assert_held(&mm->mmap_lock);
	memset(v, 0, sizeof(*v));
	v->addr = addr;
	v->pfn = PTWALK_PFN_NONE;
	v->nr_levels = pgtable_l5_enabled() ? 5 : 4;
	if (vma) {
		enter_vma(&vw.w, vma);
		v->vm_flags = vw.w.vm_flags;
		v->vma_start = vma->vm_start;
		v->vma_end = vma->vm_end;
	} else {
		v->flags = PTWALK_F_NO_VMA;
	}
	vtop_pgd(&vw);
}

int ptwalk_vtop(struct mm_struct *mm, unsigned long addr,
		struct ptwalk_vtop *v)
{
	/* Fails once the target has exited and its memory is gone. */
	if (!mmget_not_zero(mm))
		return -ESRCH;
	if (mmap_read_lock_killable(mm)) {
		mmput(mm);
		return -EINTR;
	}
	vtop_walk(mm, addr, v);
	mmap_read_unlock(mm);
	mmput(mm);
	return 0;
}
