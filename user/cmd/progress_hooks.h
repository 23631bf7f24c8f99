/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The progress line's view of a scan (report/progress.h draws it): hooks
 * between the engine and the real sources see the pagemap reads go
 * forward, the pipeline's ends tell ranges and VMAs done.  stderr only,
 * and only when progress is enabled.
 */
#ifndef PTCOMPARE_CMD_PROGRESS_HOOKS_H
#define PTCOMPARE_CMD_PROGRESS_HOOKS_H

#include <stdint.h>
#include "cmd/session.h"

/* Puts the progress hooks between s->io's engine and the real sources. */
void progress_watch_io(struct session *s);

/* Starts the line (on a terminal, unless --no-progress) with its total. */
void progress_start(struct session *s);

/* The scan of the VMA in progress has reached addr. */
void progress_at(struct session *s, uint64_t addr);

/* A VMA of pages pages is done. */
void progress_vma_done(struct session *s, uint64_t pages);

/* Wipes the line: whatever follows starts on a clean line. */
void progress_end(struct session *s);

#endif /* PTCOMPARE_CMD_PROGRESS_HOOKS_H */
