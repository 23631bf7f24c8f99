// SPDX-License-Identifier: GPL-2.0
/*
 * The page table walk, pgd -> p4d -> pud -> pmd -> pte, one function per
 * level as in mm/pagewalk.c.  The caller holds the mmap read lock: VMAs and
 * the upper levels are stable under it, PMD and PTE entries are not (faults,
 * zaps, THP splits and migration change them under their own locks), so
 * every leaf is decoded under the page table lock that guards it.
 *
 * Unlike walk_page_range(), VM_PFNMAP/VM_IO/VM_MIXEDMAP VMAs are walked
 * like any other: reporting them is what ptwalk is for.
 */
#include <linux/mm.h>
#include <linux/hugetlb.h>
#include <linux/pgtable.h>
#include "compat.h"
#include "walk.h"

static const struct {
	unsigned long vm;
	u64 ptwalk;
} vm_flag_map[] = {
	{ VM_READ, PTWALK_VM_READ },
	{ VM_WRITE, PTWALK_VM_WRITE },
	{ VM_EXEC, PTWALK_VM_EXEC },
	{ VM_SHARED, PTWALK_VM_SHARED },
	{ VM_MAYSHARE, PTWALK_VM_MAYSHARE },
	{ VM_IO, PTWALK_VM_IO },
	{ VM_PFNMAP, PTWALK_VM_PFNMAP },
	{ VM_MIXEDMAP, PTWALK_VM_MIXEDMAP },
	{ VM_HUGETLB, PTWALK_VM_HUGETLB },
	{ VM_LOCKED, PTWALK_VM_LOCKED },
	{ VM_HUGEPAGE, PTWALK_VM_HUGEPAGE },
	{ VM_NOHUGEPAGE, PTWALK_VM_NOHUGEPAGE },
	{ VM_DONTDUMP, PTWALK_VM_DONTDUMP },
	{ VM_SOFTDIRTY, PTWALK_VM_SOFTDIRTY },
	{ VM_GROWSDOWN, PTWALK_VM_GROWSDOWN },
	{ VM_DONTEXPAND, PTWALK_VM_DONTEXPAND },
	{ VM_UFFD_WP, PTWALK_VM_UFFD_WP },
};

static u64 encode_vm_flags(struct vm_area_struct *vma)
{
	u64 flags = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vm_flag_map); i++)
		if (vm_flag_map[i].vm && (vma->vm_flags & vm_flag_map[i].vm))
			flags |= vm_flag_map[i].ptwalk;
	if (vma_is_anonymous(vma))
		flags |= PTWALK_VM_ANON;
	return flags;
}

void enter_vma(struct ptwalk_walk *w, struct vm_area_struct *vma)
{
	w->vma = vma;
	w->area_start = vma->vm_start;
	w->vm_flags = encode_vm_flags(vma);
	w->hugetlb_level = PTWALK_LEVEL_NONE;
	if (is_vm_hugetlb_page(vma)) {
		unsigned long size = huge_page_size(hstate_vma(vma));

		if (size == PUD_SIZE)
			w->hugetlb_level = PTWALK_LEVEL_PUD;
		else if (size == PMD_SIZE)
			w->hugetlb_level = PTWALK_LEVEL_PMD;
	}
}

static void run_init(struct ptwalk_walk *w, struct ptwalk_record *run,
		     unsigned long addr, unsigned long end)
{
	memset(run, 0, sizeof(*run));
	run->start = addr;
	run->nr_pages = (end - addr) >> PAGE_SHIFT;
	run->pfn = PTWALK_PFN_NONE;
	run->vm_flags = w->vm_flags;
	if (!w->vma)
		run->flags = PTWALK_F_NO_VMA;
}

static void emit_empty(struct ptwalk_walk *w, unsigned long addr,
		       unsigned long end)
{
	struct ptwalk_record run;

	run_init(w, &run, addr, end);
	ptwalk_emit(w, &run);
}

/* An entry that is neither empty, nor a table, nor a leaf: a corrupt one. */
static void emit_bad(struct ptwalk_walk *w, enum ptwalk_level level,
		     unsigned long addr, unsigned long end)
{
	struct ptwalk_record run;

	run_init(w, &run, addr, end);
	run.level = level;
	run.kind = PTWALK_KIND_UNKNOWN;
	ptwalk_emit(w, &run);
}

/* Index of the page at @addr inside the leaf of @level that maps it. */
u64 leaf_index(unsigned long addr, enum ptwalk_level level)
{
	switch (level) {
	case PTWALK_LEVEL_PUD:
		return (addr & ~PUD_MASK) >> PAGE_SHIFT;
	case PTWALK_LEVEL_PMD:
		return (addr & ~PMD_MASK) >> PAGE_SHIFT;
	default:
		return 0;
	}
}

/*
 * A private anonymous VMA maps at PMD level either an anonymous THP or the
 * huge zero page, which is the only one that is not PageAnon().  The
 * kernel's own test, is_huge_zero_pmd(), uses a symbol it does not export.
 */
static bool is_huge_zero(struct ptwalk_walk *w, pte_t entry, u64 pfn)
{
	if (!w->vma || !vma_is_anonymous(w->vma) || pte_write(entry) ||
	    !pfn_valid(pfn))
		return false;
	return !PageAnon(pfn_to_page(pfn));
}

/*
 * The flags that depend on the frame rather than on the entry's bits:
 * consecutive entries with equal bits share a record only if these agree.
 */
static u32 frame_flags(u64 pfn, enum ptwalk_level level)
{
	u32 flags = 0;

	if (pfn_valid(pfn)) {
		flags |= PTWALK_F_PFN_VALID;
		/*
		 * The entry is read under its page table lock, so the page
		 * stays mapped and cannot be freed; a split racing with us
		 * only makes this hint stale, as pagemap's own flags are.
		 */
		if (PageCompound(pfn_to_page(pfn)))
			flags |= PTWALK_F_COMPOUND;
	}
	if (level == PTWALK_LEVEL_PTE && is_zero_pfn(pfn))
		flags |= PTWALK_F_ZERO_PAGE;
	return flags;
}

/* x86 layout: every level's leaf keeps these bits where a PTE has them. */
u32 present_flags(struct ptwalk_walk *w, pte_t entry,
		  enum ptwalk_level level, u64 leaf_pfn)
{
	pteval_t bits = pte_flags(entry);
	u32 flags = PTWALK_F_PRESENT | frame_flags(leaf_pfn, level);

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
	if (pte_soft_dirty(entry))
		flags |= PTWALK_F_SOFT_DIRTY;
	if (pte_uffd_wp(entry))
		flags |= PTWALK_F_UFFD_WP;
	if (level == PTWALK_LEVEL_PTE) {
		if (pte_special(entry))
			flags |= PTWALK_F_SPECIAL;
	} else if (level == PTWALK_LEVEL_PMD && !w->hugetlb_level &&
		   is_huge_zero(w, entry, leaf_pfn)) {
		flags |= PTWALK_F_HUGE_ZERO;
	}
	return flags;
}

/* A non-present, non-empty entry: swap, migration, marker, ... */
void decode_swap(struct ptwalk_record *run, pte_t entry, u64 index)
{
	ptwalk_swp_t swp;

	if (pte_swp_soft_dirty(entry))
		run->flags |= PTWALK_F_SOFT_DIRTY;
	if (pte_swp_uffd_wp(entry))
		run->flags |= PTWALK_F_UFFD_WP;
	swp = ptwalk_pte_to_swp(entry);
	run->swap_type = swp_type(swp);
	if (ptwalk_swp_is_marker(swp)) {
		run->kind = PTWALK_KIND_MARKER;
		run->swap_offset = swp_offset(swp);
		return;
	}
	/* Same offset as pagemap reports: the PFN for PFN swap entries. */
	run->swap_offset = ptwalk_swp_offset_pfn(swp) + index;

	if (ptwalk_swp_is_swap(swp)) {
		run->kind = PTWALK_KIND_SWAP;
	} else if (ptwalk_swp_is_migration(swp)) {
		run->kind = PTWALK_KIND_MIGRATION;
		if (ptwalk_swp_is_migration_write(swp))
			run->flags |= PTWALK_F_MIGRATION_WRITE;
	} else if (ptwalk_swp_is_device_private(swp)) {
		run->kind = PTWALK_KIND_DEVICE_PRIVATE;
	} else if (ptwalk_swp_is_device_exclusive(swp)) {
		run->kind = PTWALK_KIND_DEVICE_EXCLUSIVE;
	} else if (ptwalk_swp_is_hwpoison(swp)) {
		run->kind = PTWALK_KIND_HWPOISON;
	} else {
		run->kind = PTWALK_KIND_UNKNOWN;
	}
}

/*
 * Emits [addr, end), all mapped by one entry of @level.  @entry is read as
 * a PTE (x86 leaves share the PTE layout); @leaf_pfn is the frame of the
 * leaf's first page, decoded by the caller with the helper of its level.
 * Called under the page table lock that guards the entry.
 */
static void emit_entry(struct ptwalk_walk *w, pte_t entry, u64 leaf_pfn,
		       enum ptwalk_level level, unsigned long addr,
		       unsigned long end)
{
	struct ptwalk_record run;
	u64 index = leaf_index(addr, level);

	run_init(w, &run, addr, end);
	if (!pte_none(entry)) {
		run.level = level;
		if (pte_present(entry)) {
			run.kind = PTWALK_KIND_PRESENT;
			run.pfn = leaf_pfn + index;
			run.flags |= present_flags(w, entry, level, leaf_pfn);
		} else {
			decode_swap(&run, entry, index);
		}
	}
	ptwalk_emit(w, &run);
}

/*
 * Number of entries from @pte (at most @max) that one record can hold:
 * empty ones, or present ones with equal bits, each mapping the frame after
 * the one before.  Counting them here instead of building a record per
 * entry is what makes 4K-mapped memory cheap: it is mostly such runs.
 */
static unsigned int pte_run_length(pte_t *pte, unsigned int max)
{
	pte_t first = ptep_get(pte);
	pteval_t bits = pte_flags(first);
	u64 pfn = pte_pfn(first);
	u32 fflags = frame_flags(pfn, PTWALK_LEVEL_PTE);
	unsigned int n;

	if (pte_none(first)) {
		for (n = 1; n < max && pte_none(ptep_get(pte + n)); n++)
			;
		return n;
	}
	if (!pte_present(first))
		return 1;
	for (n = 1; n < max; n++) {
		pte_t entry = ptep_get(pte + n);

		if (!pte_present(entry) || pte_flags(entry) != bits ||
		    pte_pfn(entry) != pfn + n ||
		    frame_flags(pfn + n, PTWALK_LEVEL_PTE) != fflags)
			break;
	}
	return n;
}

/* Returns false when the table went away under us (6.5+): look again. */
static bool walk_pte_range(struct ptwalk_walk *w, pmd_t *pmdp,
			   unsigned long addr, unsigned long end)
{
	spinlock_t *ptl;
	pte_t *start_pte, *pte;

	start_pte = ptwalk_pte_map_lock(w->mm, pmdp, addr, &ptl);
	if (ptwalk_pte_map_failed(start_pte))
		return false;
	for (pte = start_pte; addr != end;) {
		pte_t entry = ptep_get(pte);
		unsigned int n = pte_run_length(pte, (end - addr) >> PAGE_SHIFT);
		unsigned long next = addr + ((unsigned long)n << PAGE_SHIFT);

		emit_entry(w, entry, pte_pfn(entry), PTWALK_LEVEL_PTE, addr,
			   next);
		ptwalk_charge(w, n - 1);
		if (w->stop)
			break;
		pte += n;
		addr = next;
	}
	ptwalk_pte_unmap_unlock(start_pte, ptl);
	return true;
}

static bool pmd_is_table(pmd_t pmd)
{
	return pmd_present(pmd) && !ptwalk_pmd_is_leaf(pmd) && !pmd_bad(pmd);
}

/*
 * A THP, a PMD pfn map or a THP migration entry.  Returns false when a
 * split turned it into a table before we got the lock.
 */
static bool walk_pmd_leaf(struct ptwalk_walk *w, pmd_t *pmdp,
			  unsigned long addr, unsigned long end)
{
	spinlock_t *ptl = pmd_lock(w->mm, pmdp);
	pmd_t pmd = *pmdp;
	bool done = true;

	if (pmd_is_table(pmd))
		done = false;
	else if (pmd_present(pmd) && !ptwalk_pmd_is_leaf(pmd))
		emit_bad(w, PTWALK_LEVEL_PMD, addr, end);
	else
		emit_entry(w, __pte(pmd_val(pmd)), pmd_pfn(pmd),
			   PTWALK_LEVEL_PMD, addr, end);
	spin_unlock(ptl);
	return done;
}

static void walk_pmd_entry(struct ptwalk_walk *w, pmd_t *pmdp,
			   unsigned long addr, unsigned long end)
{
	for (;;) {
		pmd_t pmd = ptwalk_pmdp_get(pmdp);

		if (pmd_none(pmd)) {
			emit_empty(w, addr, end);
			return;
		}
		if (pmd_is_table(pmd)) {
			if (walk_pte_range(w, pmdp, addr, end))
				return;
		} else if (walk_pmd_leaf(w, pmdp, addr, end)) {
			return;
		}
	}
}

/* hugetlb entries are huge PTEs: decoded with the PTE helpers, as hugetlb.c
 * does, under the lock huge_pte_lock() picks for their size.
 */
static void walk_hugetlb_entry(struct ptwalk_walk *w, pte_t *ptep,
			       unsigned long addr, unsigned long end)
{
	spinlock_t *ptl = huge_pte_lock(hstate_vma(w->vma), w->mm, ptep);
	pte_t entry = ptwalk_huge_ptep_get(w->mm, addr, ptep);

	emit_entry(w, entry, pte_pfn(entry), w->hugetlb_level, addr, end);
	spin_unlock(ptl);
}

static void walk_pmd_range(struct ptwalk_walk *w, pud_t *pudp,
			   unsigned long addr, unsigned long end)
{
	pmd_t *pmdp = pmd_offset(pudp, addr);
	unsigned long next;

	do {
		next = pmd_addr_end(addr, end);
		if (w->hugetlb_level == PTWALK_LEVEL_PMD)
			walk_hugetlb_entry(w, (pte_t *)pmdp, addr, next);
		else
			walk_pmd_entry(w, pmdp, addr, next);
		if (w->stop)
			return;
	} while (pmdp++, addr = next, addr != end);
}

/* A PUD leaf outside hugetlb: a DAX or PUD pfn mapping. */
static bool walk_pud_leaf(struct ptwalk_walk *w, pud_t *pudp,
			  unsigned long addr, unsigned long end)
{
	spinlock_t *ptl = pud_lock(w->mm, pudp);
	pud_t pud = *pudp;
	bool done = true;

	if (pud_present(pud) && !ptwalk_pud_is_leaf(pud))
		done = false;
	else
		emit_entry(w, __pte(pud_val(pud)), pud_pfn(pud),
			   PTWALK_LEVEL_PUD, addr, end);
	spin_unlock(ptl);
	return done;
}

static void walk_pud_entry(struct ptwalk_walk *w, pud_t *pudp,
			   unsigned long addr, unsigned long end)
{
	pud_t pud = READ_ONCE(*pudp);

	if (pud_none(pud)) {
		emit_empty(w, addr, end);
		return;
	}
	if (ptwalk_pud_is_leaf(pud) || !pud_present(pud)) {
		if (walk_pud_leaf(w, pudp, addr, end))
			return;
		pud = READ_ONCE(*pudp);
	}
	if (pud_bad(pud))
		emit_bad(w, PTWALK_LEVEL_PUD, addr, end);
	else
		walk_pmd_range(w, pudp, addr, end);
}

static void walk_pud_range(struct ptwalk_walk *w, p4d_t *p4dp,
			   unsigned long addr, unsigned long end)
{
	pud_t *pudp = pud_offset(p4dp, addr);
	unsigned long next;

	do {
		next = pud_addr_end(addr, end);
		if (w->hugetlb_level == PTWALK_LEVEL_PUD)
			walk_hugetlb_entry(w, (pte_t *)pudp, addr, next);
		else
			walk_pud_entry(w, pudp, addr, next);
		if (w->stop)
			return;
	} while (pudp++, addr = next, addr != end);
}

static void walk_p4d_range(struct ptwalk_walk *w, pgd_t *pgdp,
			   unsigned long addr, unsigned long end)
{
	p4d_t *p4dp = p4d_offset(pgdp, addr);
	unsigned long next;

	do {
		p4d_t p4d = READ_ONCE(*p4dp);

		next = p4d_addr_end(addr, end);
		if (p4d_none(p4d))
			emit_empty(w, addr, next);
		else if (p4d_bad(p4d))
			emit_bad(w, PTWALK_LEVEL_NONE, addr, next);
		else
			walk_pud_range(w, p4dp, addr, next);
		if (w->stop)
			return;
	} while (p4dp++, addr = next, addr != end);
}

static void walk_pgd_range(struct ptwalk_walk *w, unsigned long addr,
			   unsigned long end)
{
	pgd_t *pgdp = pgd_offset(w->mm, addr);
	unsigned long next;

	do {
		pgd_t pgd = READ_ONCE(*pgdp);

		next = pgd_addr_end(addr, end);
		if (pgd_none(pgd))
			emit_empty(w, addr, next);
		else if (pgd_bad(pgd))
			emit_bad(w, PTWALK_LEVEL_NONE, addr, next);
		else
			walk_p4d_range(w, pgdp, addr, next);
		if (w->stop)
			return;
	} while (pgdp++, addr = next, addr != end);
}

void ptwalk_walk_chunk(struct ptwalk_walk *w)
{
	struct ptwalk_cursor *cur = w->cur;

	/* not mmap_assert_locked(): with DEBUG_VM it calls dump_mm(), unexported before 6.3 */
	lockdep_assert_held(&w->mm->mmap_lock);
	while (!w->stop && cur->addr < cur->end) {
		unsigned long addr = cur->addr;
		struct vm_area_struct *vma = find_vma(w->mm, addr);

		if (!vma || vma->vm_start > addr) {
			w->vma = NULL;
			w->area_start = addr;
			w->vm_flags = 0;
			w->hugetlb_level = PTWALK_LEVEL_NONE;
			emit_empty(w, addr,
				   vma ? min(vma->vm_start, cur->end) : cur->end);
			continue;
		}
		enter_vma(w, vma);
		walk_pgd_range(w, addr, min(vma->vm_end, cur->end));
	}
}
