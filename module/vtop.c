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

struct vtop_state {
	unsigned long addr;		/* as asked, any alignment */
	struct ptwalk_vtop *v;
};

/*
 * Index of @addr's entry in its table of level @table, with @nr_levels
 * levels in use.  The top table's is taken from the levels in use, not
 * pgd_index(): where arm64 folds a level at boot (LPA2 configured, the CPU
 * without it, 6.9+) pgd_index() still counts the configured levels, and
 * the walk reaches the top table's entry at the folded level's step
 * (p4d_to_folded_pud()).  Every table below the top is a page of 8-byte
 * entries, and the top table no larger.
 */
static unsigned long table_index(unsigned long addr,
				 enum ptwalk_vtop_level table,
				 unsigned int nr_levels)
{
	unsigned int top_shift = PAGE_SHIFT + (nr_levels - 1) * (PAGE_SHIFT - 3);

	switch (table) {
	case PTWALK_VTOP_PGD:
		return (addr >> top_shift) & (PTRS_PER_PTE - 1);
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
	struct vtop_state *vw = walk->private;
	struct ptwalk_vtop *v = vw->v;

	/*
	 * A folded level's entry is the top table's, noted as the PGD's
	 * (ptwalk_vtop_slot()): the P4D with 4-level paging, the PUD too
	 * with 3, the PMD too with 2.  The last read wins: folded at build
	 * time, every step reads the same entry; folded at boot (arm64
	 * LPA2), the PGD step reads pgd_offset()'s, by the configured
	 * levels' index, and only the folded level's step the entry the
	 * walk acts on.
	 */
	table = ptwalk_vtop_slot(table, v->nr_levels);
	v->entry[table] = val;
	v->index[table] = table_index(vw->addr, table, v->nr_levels);
	v->walked |= 1U << table;
}

static int vtop_bad(struct ptwalk_walk *walk, enum ptwalk_level level,
		    unsigned long addr, unsigned long end)
{
	struct vtop_state *vw = walk->private;

	vw->v->stop = PTWALK_VTOP_STOP_BAD;
	vw->v->level = level;
	vw->v->kind = PTWALK_KIND_UNKNOWN;
	return 0;
}

static int vtop_leaf(struct ptwalk_walk *walk, pte_t entry, u64 leaf_pfn,
		     enum ptwalk_level level, unsigned long addr,
		     unsigned long end)
{
	struct vtop_state *vw = walk->private;
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

static void vtop_translate(struct mm_struct *mm, struct vm_area_struct *vma,
		      unsigned long addr, struct ptwalk_vtop *v)
{
	struct vtop_state vw = { .addr = addr, .v = v };
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
	if (vma)
		ptwalk_walk_range(&walk, vma, page, page + PAGE_SIZE);
}

/*
 * An address no VMA holds is answered as a range query answers it, with
 * no walk: outside the VMAs the tables are not stable under the mmap read
 * lock (munmap detaches the VMAs, downgrades to the read lock and only
 * then frees their page tables: dd2283f2605e, "mm: mmap: zap pages with
 * read mmap_sem in munmap", 4.20), and walking there under the write lock,
 * as walk_page_range_novma() demands, would let any opener stall the
 * target's page faults at will, one query after another.
 */
int ptwalk_vtop(struct mm_struct *mm, unsigned long addr,
		struct ptwalk_vtop *v)
{
	/* Fails once the target has exited and its memory is gone. */
	if (!mmget_not_zero(mm))
		return -ESRCH;
	/* only a fatal signal interrupts: the caller never sees it */
	if (mmap_read_lock_killable(mm)) {
		mmput(mm);
		return -EINTR;
	}
	vtop_translate(mm, ptwalk_vma_lookup(mm, addr), addr, v);
	mmap_read_unlock(mm);
	mmput(mm);
	return 0;
}

/* The index into ptwalk_vtop.entry of a leaf of @level. */
static int leaf_table(u8 level, unsigned int nr_levels)
{
	switch (level) {
	case PTWALK_LEVEL_PTE:
		return PTWALK_VTOP_PTE;
	case PTWALK_LEVEL_PMD:
		return ptwalk_vtop_slot(PTWALK_VTOP_PMD, nr_levels);
	case PTWALK_LEVEL_PUD:
		return ptwalk_vtop_slot(PTWALK_VTOP_PUD, nr_levels);
	default:
		return -1;
	}
}

void ptwalk_vtop_redact(struct ptwalk_vtop *v)
{
	int keep = -1;
	int i;

	if (v->stop == PTWALK_VTOP_STOP_LEAF ||
	    v->stop == PTWALK_VTOP_STOP_NOT_PRESENT)
		keep = leaf_table(v->level, v->nr_levels);
	for (i = 0; i < PTWALK_VTOP_NR_LEVELS; i++)
		if (i != keep)
			v->entry[i] = 0;
}
