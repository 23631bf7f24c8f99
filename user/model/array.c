// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include "model/array.h"

void *array_grow(void *elems, size_t *cap, size_t need, size_t size,
		 size_t first, size_t max)
{
	size_t want = *cap ? *cap : first;
	void *p;

	if (need <= *cap)
		return elems;
	while (want < need && want <= SIZE_MAX / 2)
		want *= 2;
	if (want < need)
		want = need;
	if (max && want > max)
		want = max;
	if (want > SIZE_MAX / size)
		return NULL;
	p = realloc(elems, want * size);
	if (p)
		*cap = want;
	return p;
}
