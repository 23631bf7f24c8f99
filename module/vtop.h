/* SPDX-License-Identifier: GPL-2.0 */
/* Translating one address level by level (PTWALK_IOC_VTOP). */
#ifndef PTWALK_VTOP_H
#define PTWALK_VTOP_H

#include <linux/mm_types.h>
#include "ptwalk_abi.h"

/*
 * Translates @addr (< @mm's task size) into @v.  @mm is mmgrab()bed by the
 * caller; this takes the address space and its mmap read lock itself, and
 * drops them before returning, so @v may then be copied to user memory.
 * An address no VMA holds is not walked (vtop.c says why).
 * 0, -ESRCH once the address space is gone, -EINTR on a fatal signal.
 */
int ptwalk_vtop(struct mm_struct *mm, unsigned long addr,
		struct ptwalk_vtop *v);

/*
 * Zeroes the raw entries that hold physical addresses of page tables:
 * every one but a leaf's (or non-present entry's), which maps the
 * target's own memory.  For lockdown in confidentiality mode.
 */
void ptwalk_vtop_redact(struct ptwalk_vtop *v);

#endif /* PTWALK_VTOP_H */
