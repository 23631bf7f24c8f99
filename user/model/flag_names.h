/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bit sets by name: ptwalk's entry and VMA flags, huge kinds, kpageflags.
 * The one walk over the bits that the text and the JSON writers share:
 * the names come from a bit_name_fn (module/ptwalk_names.h and the like),
 * unnamed bits are skipped.
 */
#ifndef PTCOMPARE_MODEL_FLAG_NAMES_H
#define PTCOMPARE_MODEL_FLAG_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* Name of bit number bit, or NULL for a bit without one. */
typedef const char *(*bit_name_fn)(unsigned int bit);

/*
 * The name of the first named bit of bits at or above *bit, moving *bit
 * past it; NULL once none is left.  Start with *bit = 0.
 */
const char *flag_names_next(uint64_t bits, bit_name_fn name,
			    unsigned int *bit);

/*
 * Comma-separated names of the named bits into buf, or none when no set
 * bit has a name; truncated to size.  Returns the length written.
 */
size_t flag_names_join(char *buf, size_t size, uint64_t bits, bit_name_fn name,
		       const char *none);

#endif /* PTCOMPARE_MODEL_FLAG_NAMES_H */
