/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The size rule of every query struct (docs/interface.md): one reader for
 * the session's queries (session_fops.c) and the DMA tracking's
 * (dma_track.c).
 */
#ifndef PTWALK_QUERY_COPY_H
#define PTWALK_QUERY_COPY_H

#include <linux/mm.h>
#include <linux/uaccess.h>

/*
 * Reads the query struct at @arg into @dst (@ksize bytes, what this module
 * knows), as openat2() reads its how: the caller's size first, at least
 * @min (the struct's first version), at most a page; a longer struct's
 * tail must be zero (E2BIG), a shorter one's missing fields read as zero.
 */
static inline int ptwalk_query_copy(void *dst, size_t ksize, size_t min,
				    const void __user *arg)
{
	u32 usize;

	if (get_user(usize, (const u32 __user *)arg))
		return -EFAULT;
	if (usize < min)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	return copy_struct_from_user(dst, ksize, arg, usize);
}

#endif /* PTWALK_QUERY_COPY_H */
