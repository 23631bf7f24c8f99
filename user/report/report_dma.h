/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA view (engine/dma.h) as a section of ptcompare's report, for
 * --range.  The view is the caller's, fed as the scan goes; its runs and
 * holes come here through report_dma_sink() and are spooled like the rest
 * of the report: JSON lists them all, the text shows the first few and
 * says how many more there are.
 */
#ifndef PTCOMPARE_REPORT_DMA_H
#define PTCOMPARE_REPORT_DMA_H

#include <stdint.h>
#include <stdio.h>
#include "engine/dma.h"
#include "model/pci_owner.h"
#include "report/format.h"
#include "report/json.h"

#define REPORT_DMA_TEXT_RUNS	32
#define REPORT_DMA_TEXT_HOLES	16

struct report_dma {
	const struct dma_view *view;	/* what the section describes */
	enum report_format fmt;
	FILE *runs;		/* spool: run objects, or the text lines shown */
	FILE *holes;		/* spool: hole objects, or the text lines shown */
	uint64_t nr_runs;	/* runs spooled */
	uint64_t nr_holes;	/* holes spooled */
	struct json_writer runs_json, holes_json;	/* JSON: the spools' */
	int err;		/* -errno of a failed spool copy */
	/*
	 * The PCI device of each of the view's t.devmem runs (frames
	 * without struct page), found by the caller before the report is
	 * written; all not found when it looked nowhere.
	 */
	struct pci_owner owners[DMA_MAX_DEVMEM];
};

/*
 * The section on view, in format fmt, spooling into runs and holes; a
 * report adds it with report_add_dma().  view must send its runs and
 * holes to report_dma_sink(rd), and be finished (dma_finish()) before
 * the section is written.
 */
void report_dma_init(struct report_dma *rd, enum report_format fmt,
		     const struct dma_view *view, FILE *runs, FILE *holes);

/* The sink of a dma_view that spools into rd. */
struct dma_sink report_dma_sink(struct report_dma *rd);

/*
 * The section, written to out by the formats' tails; JSON as the value
 * of the key "dma" in the document w writes to out.
 */
void report_dma_text(struct report_dma *rd, FILE *out);
void report_dma_json(struct report_dma *rd, struct json_writer *w,
		     FILE *out);

/* Each format's sink (arg: the report_dma), report_dma_sink()'s choice. */
void report_dma_text_run(const struct dma_run *run, void *arg);
void report_dma_text_hole(const struct dma_hole *h, void *arg);
void report_dma_json_run(const struct dma_run *run, void *arg);
void report_dma_json_hole(const struct dma_hole *h, void *arg);

/* Appends a spool to out; the first error is kept in rd->err. */
void report_dma_copy(struct report_dma *rd, FILE *spool, FILE *out);

#endif /* PTCOMPARE_REPORT_DMA_H */
