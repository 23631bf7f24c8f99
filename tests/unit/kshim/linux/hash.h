/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel shim (see linux/types.h): hash_ptr() as include/linux/hash.h
 * computes it on 64-bit machines (hash_64_generic()).
 */
#ifndef PTWALK_KSHIM_HASH_H
#define PTWALK_KSHIM_HASH_H

#include <stdint.h>

#define GOLDEN_RATIO_64 0x61C8864680B583EBull

static inline unsigned int hash_64(uint64_t val, unsigned int bits)
{
	return (unsigned int)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

#define hash_ptr(ptr, bits)	hash_64((uintptr_t)(ptr), (bits))

#endif
