/* SPDX-License-Identifier: GPL-2.0 */
/* Translating one address level by level (PTWALK_REQ_VTOP). */
#ifndef PTWALK_VTOP_H
#define PTWALK_VTOP_H

#include <linux/mm_types.h>
#include "ptwalk_abi.h"

/*
 * Translates @addr (< @mm's task size) into @v.  @mm is mmgrab()bed by the
 * caller; this takes the address space and its mmap lock itself (the
 * read lock, the write lock where no VMA holds @addr: vtop.c says why),
 * and drops them before returning, so @v may then be copied to user
 * memory.
 * 0, -ESRCH once the address space is gone, -EINTR on a fatal signal.
 */
int ptwalk_vtop(struct mm_struct *mm, unsigned long addr,
		struct ptwalk_vtop *v);

#endif /* PTWALK_VTOP_H */
