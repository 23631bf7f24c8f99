// SPDX-License-Identifier: GPL-2.0
/*
 * One address, level by level, like crash's vtop: a caller of walk.c over
 * the page that holds the address, noting the raw value and index of each
 * entry the walker reads, and decoding the leaf (or non-present entry)
 * with decode.c, so that it says what a ptwalk_record would.  Locking and
 * retries are the walker's (walk.h); a level read again is noted again, so
 * what stays noted is the value the walk acted on.
 */
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pgtable.h>
#include <linux/sched/mm.h>
#include "arch.h"
#include "compat.h"
#include "decode.h"
#include "ptwalk_names.h"
#include "vtop.h"
#include "walk.h"

struct vtop_walk {
	unsigned long addr;		/* as asked, any alignment */
	struct ptwalk_vtop *v;
};

/* Index of @addr's entry in its table of level @table. */
static unsigned long table_index(unsigned long addr,
				 enum ptwalk_vtop_level table)
{
	switch (table) {
	case PTWALK_VTOP_PGD:
		return pgd_index(addr);
	case PTWALK_VTOP_P4D:
		/* p4d_index() is x86's; 0 where the P4D is folded */
		return (addr >> P4D_SHIFT) & (PTRS_PER_P4D - 1);
	case PTWALK_VTOP_PUD:
		return pud_index(addr);
	case PTWALK_VTOP_PMD:
		return pmd_index(addr);
	default:
		return pte_index(addr);
	}
}

static void vtop_entry(struct ptwalk_walk *walk, enum ptwalk_vtop_level table,
		       u64 val)
{
	struct vtop_walk *vw = walk->private;
	struct ptwalk_vtop *v = vw->v;

	/*
	 * A folded level's entry is the one above it itself (already
	 * noted), and only the pXd_*() tests look at it: the P4D with
	 * 4-level paging, the PUD too with 3.
	 */
	if (ptwalk_vtop_folded(table, v->nr_levels))
		return;
	v->entry[table] = val;
	v->index[table] = table_index(vw->addr, table);
	v->walked |= 1U << table;
}

static int vtop_bad(struct ptwalk_walk *walk, enum ptwalk_level level,
		    unsigned long addr, unsigned long end)
{
	struct vtop_walk *vw = walk->private;

	vw->v->stop = PTWALK_VTOP_STOP_BAD;
	vw->v->level = level;
	vw->v->kind = PTWALK_KIND_UNKNOWN;
	return 0;
}

static int vtop_leaf(struct ptwalk_walk *walk, pte_t entry, u64 leaf_pfn,
		     enum ptwalk_level level, unsigned long addr,
		     unsigned long end)
{
	struct vtop_walk *vw = walk->private;
	struct ptwalk_vtop *v = vw->v;
	struct ptwalk_record rec = { .pfn = PTWALK_PFN_NONE };
	s32 node = PTWALK_NODE_NONE;
	u8 folio_shift = 0;

	ptwalk_decode_entry(&rec, &node, &folio_shift, walk->vma, entry,
			    leaf_pfn, level, vw->addr);
	v->stop = rec.kind == PTWALK_KIND_PRESENT ? PTWALK_VTOP_STOP_LEAF :
						     PTWALK_VTOP_STOP_NOT_PRESENT;
	v->level = rec.level;
	v->kind = rec.kind;
	v->pfn = rec.pfn;
	v->flags |= rec.flags;
	v->swap_type = rec.swap_type;
	v->swap_offset = rec.swap_offset;
	v->memtype = rec.memtype;
	v->node = node;
	v->folio_shift = folio_shift;
	return 0;
}

/* No hole hook: an empty entry leaves stop at PTWALK_VTOP_STOP_NONE. */
static const struct ptwalk_walk_ops vtop_ops = {
	.entry = vtop_entry,
	.bad = vtop_bad,
	.leaf = vtop_leaf,
};

static void vtop_walk(struct mm_struct *mm, struct vm_area_struct *vma,
		      unsigned long addr, struct ptwalk_vtop *v)
{
	struct vtop_walk vw = { .addr = addr, .v = v };
	struct ptwalk_walk walk = { .ops = &vtop_ops, .mm = mm, .private = &vw };
	unsigned long page = addr & PAGE_MASK;

	memset(v, 0, sizeof(*v));
	v->addr = addr;
	v->pfn = PTWALK_PFN_NONE;
	v->nr_levels = ptwalk_pgtable_levels();
	v->node = PTWALK_NODE_NONE;
	if (vma) {
		v->vm_flags = ptwalk_vm_flags(vma);
		v->vma_start = vma->vm_start;
		v->vma_end = vma->vm_end;
	} else {
		v->flags = PTWALK_F_NO_VMA;
	}
	ptwalk_walk_range(&walk, vma, page, page + PAGE_SIZE);
}

/*
 * Outside any VMA the tables may still hold something (a leftover of a
 * driver, a table munmap has not freed yet), so vtop walks there too, but
 * not under the read lock: munmap detaches the VMAs, downgrades to the
 * read lock and only then frees their page tables (dd2283f2605e, "mm:
 * mmap: zap pages with read mmap_sem in munmap", 4.20), which is why
 * walk_page_range_novma() wants the write lock for user address spaces.
 * So an address no VMA holds is looked up again, and walked, under the
 * write lock: by then any such munmap has finished freeing.
 */
static int vtop_novma(struct mm_struct *mm, unsigned long addr,
		      struct ptwalk_vtop *v)
{
	if (mmap_write_lock_killable(mm))
		return -EINTR;
	vtop_walk(mm, ptwalk_vma_lookup(mm, addr), addr, v);
	mmap_write_unlock(mm);
	return 0;
}

int ptwalk_vtop(struct mm_struct *mm, unsigned long addr,
		struct ptwalk_vtop *v)
{
	struct vm_area_struct *vma;
	int err = 0;

	/* Fails once the target has exited and its memory is gone. */
	if (!mmget_not_zero(mm))
		return -ESRCH;
	if (mmap_read_lock_killable(mm)) {
		mmput(mm);
		return -EINTR;
	}
	vma = ptwalk_vma_lookup(mm, addr);
	if (vma)
		vtop_walk(mm, vma, addr, v);
	mmap_read_unlock(mm);
	if (!vma)
		err = vtop_novma(mm, addr, v);
	mmput(mm);
	return err;
}
