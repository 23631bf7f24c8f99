/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A range query: the pages of [start, end) of a task as ptwalk_record
 * extents, walked in bounded chunks that the caller runs under the mmap
 * read lock and between which it drops the lock to copy records out.
 */
#ifndef PTWALK_RANGE_H
#define PTWALK_RANGE_H

#include <linux/mm_types.h>
#include "extent.h"

/* Entries a chunk may examine before it returns to drop the locks. */
#define PTWALK_CHUNK_BUDGET	4096

/*
 * Walks from x->cur->addr until the end of the query or until x->stop
 * (out full or budget spent), the records into @x.  Caller holds
 * mmap_read_lock(@mm) and a reference on @mm's users.
 */
void ptwalk_range_chunk(struct mm_struct *mm, struct ptwalk_extents *x);

#endif /* PTWALK_RANGE_H */
