/* SPDX-License-Identifier: GPL-2.0 */
/* ptcompare PID ADDR's output: what engine/vtop.h resolved, text or JSON. */
#ifndef PTCOMPARE_VTOP_PRINT_H
#define PTCOMPARE_VTOP_PRINT_H

#include <stdio.h>
#include "engine/vtop.h"
#include "model/verdict.h"

void vtop_print_text(FILE *f, const struct vtop_view *v);
/* 0, or -EINVAL should the JSON writer be misused (json.h). */
int vtop_print_json(FILE *f, const struct vtop_view *v);

/*
 * What both printers read off the answer.  The highest level the walk
 * read (where it stopped), -1 for none; what the entry of level l says
 * about the walk ("table", "leaf", "folded", ...; NULL: not read).
 */
int vtop_last_level(const struct ptwalk_vtop *w);
const char *vtop_level_state(const struct ptwalk_vtop *w, int l);

/* A leaf with a frame: its first page's frame, addr's offset in it. */
bool vtop_has_frame(const struct ptwalk_vtop *w, const struct page_geom *g);
uint64_t vtop_leaf_pfn(const struct ptwalk_vtop *w, const struct page_geom *g);
uint64_t vtop_leaf_offset(const struct ptwalk_vtop *w,
			  const struct page_geom *g);
uint64_t vtop_phys(const struct ptwalk_vtop *w, const struct page_geom *g);	/* addr's */

/* What the reports know of a page (page_attrs.h), from the answer. */
struct page_detail vtop_page_detail(const struct vtop_view *v);

#endif /* PTCOMPARE_VTOP_PRINT_H */
