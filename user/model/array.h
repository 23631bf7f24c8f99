/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way ptcompare grows an array: by doubling, so that n appends
 * cost O(n) copies in all.  Every growing array of the tree goes through
 * it: its element count and capacity stay the caller's.
 */
#ifndef PTCOMPARE_MODEL_ARRAY_H
#define PTCOMPARE_MODEL_ARRAY_H

#include <stddef.h>

/*
 * Room in elems, an array of *cap elements of size bytes, for need
 * elements (need >= 1): elems itself when it has room, else the array
 * moved to a capacity at least twice *cap (first when *cap is 0, at
 * least need, at most max when max is not 0: need must not pass it), and
 * *cap set; NULL when out of memory, elems then untouched and still the
 * caller's to free.
 */
void *array_grow(void *elems, size_t *cap, size_t need, size_t size,
		 size_t first, size_t max);

#endif /* PTCOMPARE_MODEL_ARRAY_H */
