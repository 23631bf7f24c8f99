/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptwalk.ko's geometry line (module/ptwalk_abi.h, PTWALK_GEOMETRY_FILE),
 * parsed into struct page_geom; and the geometry assumed of a module
 * without the file (older modules build for 4 KiB pages only).
 */
#ifndef PTCOMPARE_PARSE_GEOMETRY_H
#define PTCOMPARE_PARSE_GEOMETRY_H

#include <stddef.h>
#include "model/page.h"

/*
 * Parses @line into @g: 0, or -1 with a one-line reason in @why when the
 * line lacks page_size, pte or pmd, or a size is not a power of two.
 * Unknown keys are ignored (later modules may add some).
 */
int geom_parse(const char *line, struct page_geom *g, char *why,
	       size_t why_size);

/* What a module without the geometry file means: x86-64's 4K, 2M, 1G. */
void geom_assume_4k(struct page_geom *g);

/*
 * Whether @page_size (sysconf(_SC_PAGESIZE): pagemap's entry size) agrees
 * with @g; else a one-line reason in @why.
 */
int geom_check_page_size(const struct page_geom *g, long page_size,
			 char *why, size_t why_size);

#endif /* PTCOMPARE_PARSE_GEOMETRY_H */
