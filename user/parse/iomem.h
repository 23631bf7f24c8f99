/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/iomem as a tree: names for physical addresses ("System RAM",
 * "PCI Bus 0000:00 > 0000:00:02.0", "Video ROM").  Pure: the text comes
 * from a FILE* or a string; memory is proportional to the text.
 *
 * The kernel prints one resource per line, "%*s%0*llx-%0*llx : %s" with
 * two spaces of indentation per level (kernel/resource.c r_show), children
 * after their parent, siblings in address order.  Readers without
 * CAP_SYS_ADMIN see every address as 0: iomem.zeroed says so, and then
 * nothing can be named.
 */
#ifndef PTCOMPARE_IOMEM_H
#define PTCOMPARE_IOMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define IOMEM_NONE	((size_t)-1)

struct iomem_entry {
	uint64_t start, end;	/* physical, end inclusive as printed */
	size_t parent;		/* index, IOMEM_NONE at the top level */
	size_t kids, nr_kids;	/* children: iomem.order[kids .. +nr_kids) */
	const char *name;
};

struct iomem {
	struct iomem_entry *e;
	size_t n;
	/*
	 * Entry indices with the top-level entries first (order[0 ..
	 * nr_top)), then every entry's children together, each group
	 * sorted by start: lookups binary-search a group per level.
	 */
	size_t *order;
	size_t nr_top;
	char *names;		/* storage behind every entry's name */
	bool zeroed;		/* entries exist and every address is 0 */
};

/*
 * Parses the whole text.  0, -ENOMEM, or -EINVAL with why (one line:
 * which line and what is wrong) for text that is not /proc/iomem's.
 */
int iomem_parse_string(struct iomem *m, const char *text, char *why,
		       size_t why_size);
/* The same, reading f to its end; -errno of a read error too. */
int iomem_parse_file(struct iomem *m, FILE *f, char *why, size_t why_size);
void iomem_free(struct iomem *m);

/* Index of the innermost entry holding addr, IOMEM_NONE if none. */
size_t iomem_find(const struct iomem *m, uint64_t addr);

/*
 * "outer > ... > innermost" for entry idx into buf (truncated to size);
 * "" for IOMEM_NONE.  Returns buf.
 */
char *iomem_path(const struct iomem *m, size_t idx, char *buf, size_t size);

/* Whether the top-level entry holding entry idx is "System RAM". */
bool iomem_is_ram(const struct iomem *m, size_t idx);

#endif /* PTCOMPARE_IOMEM_H */
