/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page table walker: turns a task's page tables into ptwalk_record
 * extents, in bounded chunks that the caller runs under the mmap read lock.
 */
#ifndef PTWALK_WALK_H
#define PTWALK_WALK_H

#include <linux/mm_types.h>
#include "ptwalk_abi.h"

/* Where a query stands between two chunks; lives in the session. */
struct ptwalk_cursor {
	unsigned long addr;		/* next address to examine */
	unsigned long end;		/* exclusive end of the query */
	bool have_pending;		/* pending holds a run still growing */
	unsigned long pending_area;	/* start of the VMA (or gap) of pending */
	struct ptwalk_record pending;
};

/* One chunk of walking: what it may produce and what it is looking at. */
struct ptwalk_walk {
	struct mm_struct *mm;
	struct ptwalk_cursor *cur;
	struct ptwalk_record *out;	/* finished records of this chunk */
	unsigned int nr_out;
	unsigned int max_out;
	unsigned int budget;		/* entries left before yielding */
	bool stop;			/* out is full or budget is spent */
	/* The area being walked: a VMA or a gap between VMAs. */
	struct vm_area_struct *vma;
	unsigned long area_start;
	u64 vm_flags;			/* PTWALK_VM_* of vma */
	enum ptwalk_level hugetlb_level; /* leaf level of a hugetlb vma */
};

/* Entries a chunk may examine before it returns to drop the locks. */
#define PTWALK_CHUNK_BUDGET	4096

void ptwalk_cursor_init(struct ptwalk_cursor *cur, unsigned long start,
			unsigned long end);
bool ptwalk_cursor_done(const struct ptwalk_cursor *cur);

/* Caller holds mmap_read_lock(w->mm) and a reference on w->mm's users. */
void ptwalk_walk_chunk(struct ptwalk_walk *w);

/* Moves the finished pending run to out once the range is walked. */
void ptwalk_walk_finish(struct ptwalk_walk *w);

/* Enters @vma: the area runs are merged in, its flags, its hugetlb level. */
void enter_vma(struct ptwalk_walk *w, struct vm_area_struct *vma);

/* Extent building, in extent.c: add one run of pages to the output. */
bool ptwalk_emit(struct ptwalk_walk *w, const struct ptwalk_record *run);

/*
 * Counts @entries more examined against the chunk's budget: runs of entries
 * found without a record each (a PTE run) cost what they examined.
 */
void ptwalk_charge(struct ptwalk_walk *w, unsigned int entries);

#endif /* PTWALK_WALK_H */
