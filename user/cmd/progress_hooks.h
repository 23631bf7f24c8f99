/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The progress line's view of a scan (report/progress.h draws it): hooks
 * between the engine and the real sources see the pagemap reads go
 * forward, the pipeline's ends tell ranges and VMAs done.  stderr only,
 * and only when progress is enabled.  It knows the scan only through
 * struct scan_progress, which the scan holds.
 */
#ifndef PTCOMPARE_CMD_PROGRESS_HOOKS_H
#define PTCOMPARE_CMD_PROGRESS_HOOKS_H

#include <stdint.h>
#include <sys/types.h>
#include "engine/compare.h"
#include "io/source.h"
#include "parse/cli.h"
#include "report/progress.h"

struct scan_progress {
	struct progress line;
	struct compare_io io;		/* what the engine reads through */
	struct compare_io proc_io;	/* the real sources io wraps */
	unsigned int page_shift;
	uint64_t pages_done;		/* pages of the VMAs done */
	uint64_t vma_start;		/* examined part of the VMA in progress */
	uint64_t vma_pos;		/* ... scanned up to here */
	uint64_t vma_end;		/* ... and its end */
};

/* Puts the progress hooks between the engine and the sources real. */
void progress_watch_io(struct scan_progress *p,
		       const struct compare_io *real);

/*
 * Starts the line (on a terminal, unless --no-progress) with its total:
 * the pages of pid's VMAs inside o's range.
 */
void progress_start(struct scan_progress *p, const struct cli_options *o,
		    pid_t pid);

/* The VMA in progress is [start, end). */
void progress_vma_begin(struct scan_progress *p, uint64_t start,
			uint64_t end);

/* The scan of the VMA in progress has reached addr. */
void progress_at(struct scan_progress *p, uint64_t addr);

/* A VMA of pages pages is done. */
void progress_vma_done(struct scan_progress *p, uint64_t pages);

/* Wipes the line: whatever follows starts on a clean line. */
void progress_end(struct progress *line);

/* Counts zeroed for the next process; the hooks stay. */
void progress_restart(struct scan_progress *p);

#endif /* PTCOMPARE_CMD_PROGRESS_HOOKS_H */
