// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "parse/pagemap.h"

void pagemap_decode(uint64_t raw, struct pagemap_entry *e)
{
	uint64_t frame = raw & PM_PFN_MASK;

	memset(e, 0, sizeof(*e));
	e->present = raw & PM_PRESENT;
	/* the kernel never sets both; a present entry is no swap entry */
	e->swapped = !e->present && (raw & PM_SWAP);
	e->soft_dirty = raw & PM_SOFT_DIRTY;
	e->exclusive = raw & PM_MMAP_EXCLUSIVE;
	e->uffd_wp = raw & PM_UFFD_WP;
	e->guard = raw & PM_GUARD_REGION;
	e->file = raw & PM_FILE;
	if (e->present) {
		e->pfn = frame;
	} else if (e->swapped) {
		e->swap_type = frame & ((1U << PM_SWAP_TYPE_BITS) - 1);
		e->swap_offset = frame >> PM_SWAP_TYPE_BITS;
	}
}
