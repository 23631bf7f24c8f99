// SPDX-License-Identifier: GPL-2.0
#include "parse/record.h"
#include "tests/lib/test_lib.h"

const struct ptwalk_record *ptwalk_find(const struct ptwalk_record *recs,
					size_t n, uint64_t addr,
					unsigned int page_shift)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ptwalk_record_end(&recs[mid], page_shift) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && recs[lo].start <= addr)
		return &recs[lo];
	return NULL;
}
