/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA view (dma.h) as a section of ptcompare's report, for --range.
 * Runs and holes are spooled like the rest of the report: JSON lists them
 * all, the text shows the first few and says how many more there are.
 */
#ifndef PTCOMPARE_REPORT_DMA_H
#define PTCOMPARE_REPORT_DMA_H

#include <stdint.h>
#include <stdio.h>
#include "engine/dma.h"
#include "report/report.h"

#define REPORT_DMA_TEXT_RUNS	32
#define REPORT_DMA_TEXT_HOLES	16

struct report_dma {
	struct dma_view view;
	struct report *report;
	FILE *runs;		/* spool: run objects, or the text lines shown */
	FILE *holes;		/* spool: hole objects, or the text lines shown */
	uint64_t nr_runs;	/* runs spooled */
	uint64_t nr_holes;	/* holes spooled */
	int err;		/* -errno of a failed spool copy */
};

/*
 * Adds the DMA view of [start, end) to r (after report_init()); rd lives
 * as long as r.  report_range()/report_vma() then feed it, and
 * report_finish() writes it after the findings.
 */
void report_dma_init(struct report_dma *rd, struct report *r, uint64_t start,
		     uint64_t end, FILE *runs, FILE *holes);

/* The section, written to r->out by the formats' tails. */
void report_dma_text(struct report *r);
void report_dma_json(struct report *r);

#endif /* PTCOMPARE_REPORT_DMA_H */
