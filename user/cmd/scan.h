/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scan, VMA by VMA: the VMAs read from maps up to PLAN_VMAS at a time
 * into a queue and planned together (compare_plan(): pagemap read across
 * their boundaries, one ptwalk query over them), compared by the one
 * engine or, for a plan of JOBS_SPLIT_PAGES or more with --jobs, by the jobs
 * (cmd/job_pool.h), whose parts are joined back in address order:
 *
 *   compare_piece()        pagemap against ptwalk, page by page, merged
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
#include <stdio.h>
#include "cmd/job_pool.h"
#include "cmd/mode_phys.h"
#include "cmd/progress_hooks.h"
#include "cmd/session.h"
#include "engine/compare.h"
#include "engine/dma.h"
#include "engine/witness.h"
#include "parse/maps.h"
#include "report/report.h"
#include "report/report_dma.h"

/*
 * Pages per pagemap pread: 512 KiB of entries, 256 MiB of address space.
 * pagemap costs something per call on top of per byte, so fewer, larger
 * reads are cheaper for the same bytes; larger still would only hold
 * more memory.
 */
#define BATCH_PAGES 65536

/*
 * The smallest plan --jobs splits: eight batches (2 GiB with 4K pages).
 * Below it the one engine is faster: the jobs' threads, their sources
 * and the hand-over of every range cost more than sharing the reads
 * saves (docs/performance.md measures where the two cross).
 */
#define JOBS_SPLIT_PAGES (8 * BATCH_PAGES)

/*
 * Suspect runs of frames kept for the memory-type check: 16 bytes each,
 * 64 KiB in all.
 */
#define MEMTYPE_SUSPECTS_MAX (64 * 1024 / 16)

struct vma_queue;

/*
 * Everything one scan holds over its session: the engines, the VMA
 * queue, the witnesses, the report and its spools, the DMA view, the
 * memory-type check, the progress line.  scan_open_host() and
 * scan_open_target() open them with the session, scan_close_target()
 * and scan_close() release them.
 */
struct scan {
	struct session ses;
	struct scan_progress progress;	/* the line, and the hooked io */
	struct compare_engine *engine;
	unsigned int nr_jobs;
	struct job_pool *jobs;		/* started by the first split plan */
	struct vma_queue *queue;
	struct report report;
	FILE *spool[2];
	struct dma_view dma;		/* the DMA view, with --range */
	struct report_dma dma_report;	/* ... and its section of the report */
	FILE *dma_spool[2];
	/*
	 * The memory-type check: frames mapped with another type than the
	 * default, and after the scan the look for every mapping of them
	 * (cmd/memtype_check.c)
	 */
	struct memtype_suspects suspects;
	struct phys_scan *memtype_scan;
	struct phys_view memtype_view;
	/* the witnesses beside pagemap: /proc/iomem, /proc/kpageflags */
	struct witness_source wsrc;
	struct witness_io wio;
	struct witness_totals wtotals;
	struct witness *witness;
	FILE *wspool;
	FILE *out;		/* where the report goes: stdout, or --all's */
	/*
	 * --all's text: of each process only the totals and the findings
	 * are printed, so its VMA rows and physical lines are not written
	 */
	bool summary_only;
	uint64_t started_ns;	/* when the mode began, for --stats */
	uint64_t maps_ns;	/* --stats: reading /proc/PID/maps */
};

/* Every handle closed, for o; opens nothing. */
void scan_init(struct scan *sc, const struct cli_options *o);

/*
 * The session's host part, the witnesses' sources, the spools, the
 * engines and the VMA queue: what --all keeps from one process to the
 * next (opening them anew for each process cost more than reading the
 * processes).  EXIT_OK, or the failure (said on stderr).
 */
int scan_open_host(struct scan *sc);

/*
 * The process's part: the session's target, the report begun over
 * emptied spools.  After scan_open_host(), or after scan_close_target()
 * of another.
 */
int scan_open_target(struct scan *sc, pid_t pid);

/* scan_open_host(), then scan_open_target() for the options' pid. */
int scan_open(struct scan *sc);

/* Closes the process's part, keeps the host's: ready for another. */
void scan_close_target(struct scan *sc);

/* Closes whatever is open. */
void scan_close(struct scan *sc);

/*
 * VMAs read ahead from maps and compared under one plan: 10,000 small
 * VMAs cost 20 ptwalk queries, not 10,000; their lines are kept meanwhile
 * (the report names the VMA), so memory stays bounded.
 */
#define PLAN_VMAS JOBS_PLAN_MAX

/* The queue of sc (scan_open_host() calls it): false when out of memory. */
bool scan_queue_new(struct scan *sc);
void scan_queue_free(struct scan *sc);

/* The witnesses' callbacks, for witness_new() and witness_set_mark(). */
void scan_range_done(const struct verdict_range *vr,
		     const struct witness_note *note, void *arg);
void scan_vma_marked(void *arg, uint64_t token);

/*
 * Every VMA of the process through the pipeline: EXIT_OK, or the failure
 * (said on stderr).  A process that exits meanwhile is a failure: no half
 * report.
 */
int scan_all(struct scan *sc);

#endif /* PTCOMPARE_CMD_SCAN_H */
