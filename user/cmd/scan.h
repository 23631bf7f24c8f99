/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scan, VMA by VMA: the VMAs read from maps up to PLAN_VMAS at a time
 * into a queue and planned together (compare_plan(): pagemap read across
 * their boundaries, one ptwalk query over them), compared by the one
 * engine or, for a plan of JOBS_SPLIT_PAGES or more with --jobs, by the jobs
 * (cmd/jobs_run.h), whose parts are joined back in address order:
 *
 *   compare_range()        pagemap against ptwalk, page by page, merged
 *                          into ranges (engine/compare.c)
 *   -> witness_range()     held in a bounded batch; witness_flush() names
 *                          the frames and checks them against kpageflags
 *                          (engine/witness.c)
 *   -> range_done()        each range in address order, with its note:
 *        report_range()      the findings and physical names (report/)
 *        dma_add_range()     the DMA view of --range (engine/dma.c)
 *        progress_at()       the progress line on a terminal
 *   vma_done()             the VMA's counts, once the witnesses passed
 *                          its ranges on (witness_mark()): report_vma(),
 *                          dma_add_vma(), the progress line
 */
#ifndef PTCOMPARE_CMD_SCAN_H
#define PTCOMPARE_CMD_SCAN_H

#include <stdbool.h>
#include "cmd/session.h"
#include "parse/maps.h"

/*
 * VMAs read ahead from maps and compared under one plan: 10,000 small
 * VMAs cost 20 ptwalk queries, not 10,000; their lines are kept meanwhile
 * (the report names the VMA), so memory stays bounded.
 */
#define PLAN_VMAS JOBS_PLAN_MAX

/* The queue of s (session_open() calls it): false when out of memory. */
bool scan_queue_new(struct session *s);
void scan_queue_free(struct session *s);

/* The part of vma inside the requested range: false if none. */
bool scan_clip(const struct cli_options *o, const struct maps_entry *vma,
	       uint64_t *start, uint64_t *end);

/* The witnesses' callbacks, for witness_new() and witness_set_mark(). */
void scan_range_done(const struct verdict_range *vr,
		     const struct witness_note *note, void *arg);
void scan_vma_marked(void *arg, uint64_t token);

/*
 * Every VMA of the process through the pipeline: EXIT_OK, or the failure
 * (said on stderr).  A process that exits meanwhile is a failure: no half
 * report.
 */
int scan_all(struct session *s);

#endif /* PTCOMPARE_CMD_SCAN_H */
