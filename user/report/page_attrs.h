/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page's memory type, DMA-pinned state and NUMA node as the reports
 * write them: a phrase for the text report, three keys for JSON.  What is
 * unknown (no frame, no struct page) is left out of the phrase and null
 * in JSON.
 */
#ifndef PTCOMPARE_PAGE_ATTRS_H
#define PTCOMPARE_PAGE_ATTRS_H

#include <stddef.h>
#include <stdio.h>
#include "model/verdict.h"
#include "report/json.h"

/*
 * "wc, dma-pinned, node 1" (the parts known, in that order; "not pinned"
 * for a page with a struct page and no pin) into buf; "" when nothing is
 * known.  Returns buf.
 */
const char *page_attrs_text(char *buf, size_t size,
			    const struct page_detail *d);

/* The members memtype, dma_pinned, node of the object w is writing. */
void page_attrs_json(struct json_writer *w, const struct page_detail *d);

#endif /* PTCOMPARE_PAGE_ATTRS_H */
