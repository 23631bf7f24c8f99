/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/PID/pagemap entries (Documentation/admin-guide/mm/pagemap.rst). */
#ifndef PTCOMPARE_PAGEMAP_H
#define PTCOMPARE_PAGEMAP_H

#include <stdbool.h>
#include <stdint.h>

#define PM_PFN_MASK		((1ULL << 55) - 1)
#define PM_SWAP_TYPE_BITS	5
#define PM_SOFT_DIRTY		(1ULL << 55)
#define PM_MMAP_EXCLUSIVE	(1ULL << 56)
#define PM_UFFD_WP		(1ULL << 57)
#define PM_GUARD_REGION		(1ULL << 58)	/* 6.15+ */
#define PM_FILE			(1ULL << 61)
#define PM_SWAP			(1ULL << 62)
#define PM_PRESENT		(1ULL << 63)

struct pagemap_entry {
	bool present;
	bool swapped;		/* any non-present, non-empty entry */
	bool soft_dirty;
	bool exclusive;
	bool uffd_wp;
	bool guard;
	bool file;		/* file page or shared anonymous */
	uint64_t pfn;		/* present: frame, 0 when hidden */
	unsigned int swap_type;	/* swapped */
	uint64_t swap_offset;	/* swapped: offset, or pfn of pfn entries */
};

void pagemap_decode(uint64_t raw, struct pagemap_entry *e);

#endif /* PTCOMPARE_PAGEMAP_H */
