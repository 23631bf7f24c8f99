// SPDX-License-Identifier: GPL-2.0
/*
 * The range query, a caller of walk.c: VMAs in address order, the gaps
 * between them as records of their own, and every entry the walker hands
 * over as a run of pages for extent.c to merge.  PTEs come a table's span
 * at a time and are counted in runs under the PTE lock, so that a record
 * is built per run rather than per page.
 */
#include <linux/mm.h>
#include <linux/pgtable.h>
#include "arch.h"
#include "decode.h"
#include "range.h"
#include "walk.h"

/* The range walk's private state. */
struct range_walk {
	struct ptwalk_extents *x;
	struct vm_area_struct *vma;	/* NULL in a gap between VMAs */
	u64 vm_flags;			/* ptwalk_vm_flags(vma) */
};

static void run_init(const struct range_walk *rw,
		     struct ptwalk_record_ext *run, unsigned long addr,
		     unsigned long end)
{
	memset(run, 0, sizeof(*run));
	run->rec.start = addr;
	run->rec.nr_pages = (end - addr) >> PAGE_SHIFT;
	run->rec.pfn = PTWALK_PFN_NONE;
	run->rec.vm_flags = rw->vm_flags;
	if (!rw->vma)
		run->rec.flags = PTWALK_F_NO_VMA;
	run->node = PTWALK_NODE_NONE;
}

static void emit_empty(struct range_walk *rw, unsigned long addr,
		       unsigned long end)
{
	struct ptwalk_record_ext run;

	run_init(rw, &run, addr, end);
	ptwalk_emit(rw->x, &run);
}

/* [addr, end), all mapped by @entry of @level (see walk.h's leaf hook). */
static void emit_entry(struct range_walk *rw, pte_t entry, u64 leaf_pfn,
		       enum ptwalk_level level, unsigned long addr,
		       unsigned long end)
{
	struct ptwalk_record_ext run;

	run_init(rw, &run, addr, end);
	ptwalk_decode_entry(&run.rec, &run.node, &run.folio_shift, rw->vma,
			    entry, leaf_pfn, level, addr);
	ptwalk_emit(rw->x, &run);
}

static int range_hole(struct ptwalk_walk *walk, unsigned long addr,
		      unsigned long end)
{
	struct range_walk *rw = walk->private;

	emit_empty(rw, addr, end);
	return rw->x->stop;
}

/* An entry that is neither empty, nor a table, nor a leaf: a corrupt one. */
static int range_bad(struct ptwalk_walk *walk, enum ptwalk_level level,
		     unsigned long addr, unsigned long end)
{
	struct range_walk *rw = walk->private;
	struct ptwalk_record_ext run;

	run_init(rw, &run, addr, end);
	run.rec.level = level;
	run.rec.kind = PTWALK_KIND_UNKNOWN;
	ptwalk_emit(rw->x, &run);
	return rw->x->stop;
}

static int range_leaf(struct ptwalk_walk *walk, pte_t entry, u64 leaf_pfn,
		      enum ptwalk_level level, unsigned long addr,
		      unsigned long end)
{
	struct range_walk *rw = walk->private;

	emit_entry(rw, entry, leaf_pfn, level, addr, end);
	return rw->x->stop;
}

/*
 * Number of entries from @pte (at most @max) that one record can hold:
 * empty ones, or present ones with equal bits, each mapping the frame after
 * the one before, with equal frame flags (pinned state among them), node
 * and folio size.  Equal bits are an equal memory type.  Counting them here instead of building a record per
 * entry is what makes 4K-mapped memory cheap: it is mostly such runs.
 */
static unsigned int pte_run_length(struct vm_area_struct *vma, pte_t *pte,
				   unsigned long addr, unsigned int max)
{
	pte_t first = ptep_get(pte);
	u64 attrs = ptwalk_pte_attrs(first);
	u64 pfn = ptwalk_arch_pte_pfn(first, addr);
	/* equal attributes are an equal special bit: the whole run's rule */
	bool holds = ptwalk_entry_holds_page(vma, first, PTWALK_LEVEL_PTE);
	s32 node, next_node;
	u8 shift, next_shift;
	u32 fflags;
	unsigned int n;

	if (pte_none(first)) {
		for (n = 1; n < max && pte_none(ptep_get(pte + n)); n++)
			;
		return n;
	}
	if (!pte_present(first))
		return 1;
	fflags = ptwalk_frame_flags(pfn, PTWALK_LEVEL_PTE, holds, &node,
				    &shift);
	for (n = 1; n < max; n++) {
		pte_t entry = ptep_get(pte + n);

		if (!pte_present(entry) || ptwalk_pte_attrs(entry) != attrs ||
		    ptwalk_arch_pte_pfn(entry, addr + n * PAGE_SIZE) != pfn + n ||
		    ptwalk_frame_flags(pfn + n, PTWALK_LEVEL_PTE, holds,
				       &next_node, &next_shift) != fflags ||
		    next_node != node || next_shift != shift)
			break;
	}
	return n;
}

static int range_pte_range(struct ptwalk_walk *walk, pte_t *pte,
			   unsigned long addr, unsigned long end)
{
	struct range_walk *rw = walk->private;

	while (addr != end && !rw->x->stop) {
		pte_t entry = ptep_get(pte);
		unsigned int n = pte_run_length(rw->vma, pte, addr,
						(end - addr) >> PAGE_SHIFT);
		unsigned long next = addr + ((unsigned long)n << PAGE_SHIFT);

		emit_entry(rw, entry, ptwalk_arch_pte_pfn(entry, addr),
			   PTWALK_LEVEL_PTE, addr, next);
		ptwalk_charge(rw->x, n - 1);
		pte += n;
		addr = next;
	}
	return rw->x->stop;
}

static const struct ptwalk_walk_ops range_ops = {
	.hole = range_hole,
	.bad = range_bad,
	.leaf = range_leaf,
	.pte_range = range_pte_range,
};

/* Runs from now on come from @vma, or from a gap (NULL), at @start. */
static void enter_area(struct range_walk *rw, struct vm_area_struct *vma,
		       unsigned long start)
{
	rw->vma = vma;
	rw->vm_flags = vma ? ptwalk_vm_flags(vma) : 0;
	rw->x->area_start = start;
}

void ptwalk_range_chunk(struct mm_struct *mm, struct ptwalk_extents *x)
{
	struct range_walk rw = { .x = x };
	struct ptwalk_walk walk = {
		.ops = &range_ops,
		.mm = mm,
		.private = &rw,
	};
	struct ptwalk_cursor *cur = x->cur;

	lockdep_assert_held(&mm->mmap_lock);
	while (!x->stop && cur->addr < cur->end) {
		unsigned long addr = cur->addr;
		struct vm_area_struct *vma = find_vma(mm, addr);

		if (!vma || vma->vm_start > addr) {
			enter_area(&rw, NULL, addr);
			emit_empty(&rw, addr,
				   vma ? min(vma->vm_start, cur->end) : cur->end);
			continue;
		}
		enter_area(&rw, vma, vma->vm_start);
		ptwalk_walk_range(&walk, vma, addr, min(vma->vm_end, cur->end));
	}
}
