/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page table walker: turns a task's page tables into ptwalk_record
 * extents, in bounded chunks that the caller runs under the mmap read lock.
 */
#ifndef PTWALK_WALK_H
#define PTWALK_WALK_H

#include <linux/mm_types.h>
#include "extent.h"
#include "ptwalk_abi.h"

/* One chunk of walking: what it looks at, and where its records go. */
struct ptwalk_walk {
	struct mm_struct *mm;
	struct ptwalk_extents *x;
	/* The area being walked: a VMA or a gap between VMAs. */
	struct vm_area_struct *vma;
	u64 vm_flags;			/* PTWALK_VM_* of vma */
	enum ptwalk_level hugetlb_level; /* leaf level of a hugetlb vma */
};

/* Entries a chunk may examine before it returns to drop the locks. */
#define PTWALK_CHUNK_BUDGET	4096

/*
 * Walks from x->cur->addr until the end of the query or x->stop.  Caller
 * holds mmap_read_lock(@mm) and a reference on @mm's users.
 */
void ptwalk_walk_chunk(struct mm_struct *mm, struct ptwalk_extents *x);

/* Enters @vma: its flags, its hugetlb level. */
void enter_vma(struct ptwalk_walk *w, struct vm_area_struct *vma);

#endif /* PTWALK_WALK_H */
