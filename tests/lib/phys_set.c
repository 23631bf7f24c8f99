// SPDX-License-Identifier: GPL-2.0
#include "engine/phys_map.h"
#include "tests/lib/test_lib.h"

void phys_set_init(struct phys_set *s, uint64_t start, uint64_t end,
		   unsigned int page_shift, size_t max)
{
	struct frame_run one = {
		start >> page_shift, (end - start) >> page_shift,
	};

	phys_set_init_runs(s, &one, 1, page_shift, max);
	s->one = one;
	s->runs = &s->one;
}
