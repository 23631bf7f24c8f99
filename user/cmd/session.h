/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything one scan holds, and its lifecycle: the ptwalk sessions, the
 * /proc files, the witnesses' sources, the spools of the report and the
 * engines are opened by session_open() (or, for the --jobs sources, by
 * session_open_jobs() when a plan first needs them) and released by
 * session_close() whatever happened.  The rest of cmd/ uses the handles:
 * scan.c the VMA queue and the jobs, progress_hooks.c the progress line,
 * stats.c the --stats line.
 */
#ifndef PTCOMPARE_CMD_SESSION_H
#define PTCOMPARE_CMD_SESSION_H

#include <stdio.h>
#include "cmd/jobs_run.h"
#include "cmd/mode_phys.h"
#include "engine/compare.h"
#include "engine/dma.h"
#include "engine/witness.h"
#include "io/endpoint.h"
#include "io/source.h"
#include "model/outcome.h"
#include "parse/cli.h"
#include "report/progress.h"
#include "report/report.h"
#include "report/report_dma.h"

/*
 * Pages per pagemap pread: 512 KiB of entries, 256 MiB of address space.
 * make bench: pagemap's own cost per call made 128 KiB preads take 17-60%
 * longer in all than 512 KiB ones for the same bytes.
 */
#define BATCH_PAGES 65536

/*
 * The smallest plan --jobs splits: eight batches (2 GiB with 4K pages).
 * Below it the one engine is faster: the jobs' threads, their sources
 * and the hand-over of every range cost more than sharing the reads
 * saves (make bench: 1 GiB targets, four batches, one job 17-31% less
 * Cin than two; 4 GiB, sixteen, two jobs 0.61 (A+B) against 0.84).
 */
#define JOBS_SPLIT_PAGES (8 * BATCH_PAGES)

struct vma_queue;

/*
 * /proc/PID/maps' stdio buffer, given to stdio so it asks no fstat() for
 * a size (an fstat a process was 2.4% of --all's time in the bench VM),
 * and large enough that a process of a hundred VMAs is read in one
 * read(): seq_file fills what it is given.
 */
#define SESSION_MAPS_BUF	(16 * 1024)

struct session {
	const struct cli_options *opts;
	struct endpoint ep;		/* ptwalk's way in: debugfs or device */
	struct proc_source src;
	struct compare_io io;		/* src's, seen by the progress line */
	struct compare_io proc_io;	/* the real sources io wraps */
	struct compare_engine *engine;
	struct page_geom geom;		/* the kernel's, from ptwalk.ko */
	uint32_t absent_flags;		/* ptwalk.ko's, for the report */
	/* --jobs N > 1: the jobs, each with sources of its own */
	unsigned int nr_jobs;
	struct jobs_run *jobs;
	struct proc_source job_src[JOBS_MAX];
	FILE *maps;
	char *maps_buf;		/* its stdio buffer, SESSION_MAPS_BUF bytes */
	struct vma_queue *queue;	/* scan.c's */
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
	struct progress progress;
	uint64_t pages_done;		/* pages of the VMAs done */
	uint64_t vma_start;		/* examined part of the VMA in progress */
	uint64_t vma_pos;		/* ... scanned up to here */
	uint64_t vma_end;		/* ... and its end */
	/* the witnesses beside pagemap: /proc/iomem, /proc/kpageflags */
	struct witness_source wsrc;
	struct witness_io wio;
	struct witness_totals wtotals;
	struct witness *witness;
	FILE *wspool;
	FILE *out;		/* where the report goes: stdout, or --all's */
	/*
	 * --all: a process that is gone (exited, no such pid) or has no user
	 * memory is counted by the caller, not said on stderr
	 */
	bool quiet_gone;
	/*
	 * --all's workers open sessions as they need them, two may fail at
	 * once: a failure is left in msg for the caller to say once
	 */
	bool quiet_fail;
	/*
	 * --all's text: of each process only the totals and the findings
	 * are printed, so its VMA rows and physical lines are not written
	 */
	bool summary_only;
	char msg[512];		/* the one-line error, when one occurred */
	uint64_t started_ns;	/* when main() began, for --stats */
	uint64_t maps_ns;	/* --stats: reading /proc/PID/maps */
	char comm[64];		/* the target's name: ptwalk's task query
				 * (or /proc/PID/stat at the end of
				 * scan_all(), no_task_query) */
	bool no_task_query;	/* ptwalk.ko predates PTWALK_REQ_TASK */
};

/* Every handle closed, for o; opens nothing. */
void session_init(struct session *s, const struct cli_options *o);

/*
 * Opens the ptwalk sessions, /proc/PID/maps and pagemap, the witnesses'
 * sources, the report's spools and the engines: EXIT_OK, or the failure
 * (said on stderr).  session_open_host() then session_open_target() for
 * opts->pid.
 */
int session_open(struct session *s);

/*
 * What does not depend on the process, kept from one process to the next
 * by --all: the ptwalk sessions (a query names its pid), the geometry,
 * /proc/iomem's names, the spools, the engines and the VMA queue.  In the
 * bench VM, opening them for each of 230 processes cost four times the
 * reads of all of them (glibc zeroing the engines' buffers, /proc/iomem
 * parsed again, seven files opened).
 */
int session_open_host(struct session *s);

/*
 * The process's part: ptwalk asked whether pid has memory, its maps and
 * pagemap opened, the report begun over emptied spools.  After
 * session_open_host(), or after session_close_target() of another.
 */
int session_open_target(struct session *s, pid_t pid);

/*
 * Closes the process's part and zeroes what was counted of it, keeping
 * the host's: the session is ready for session_open_target().
 */
void session_close_target(struct session *s);

/* The --jobs sources and threads: EXIT_OK, or the failure (said). */
int session_open_jobs(struct session *s);

/* --jobs: how many (the online CPUs unless given, at most JOBS_MAX). */
unsigned int session_count_jobs(const struct cli_options *o);

/* Closes whatever is open. */
void session_close(struct session *s);

/*
 * Suspect runs of frames kept for the memory-type check: 16 bytes each,
 * 64 KiB in all.
 */
#define MEMTYPE_SUSPECTS_MAX (64 * 1024 / 16)

/* Says s->msg on one line; returns f, the exit status. */
int session_fail(struct session *s, enum failure f);

/*
 * For an error -err writing the report (report_finish()): said, its
 * status.  -EIO is a spool's: one that outgrew memory could not move to
 * a file in spool_dir().
 */
int session_report_failed(struct session *s, int err);

/* For an error errno err during the scan: diagnosed, said, its status. */
int session_scan_failed(struct session *s, int err);

#endif /* PTCOMPARE_CMD_SESSION_H */
