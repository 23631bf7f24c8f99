/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --watch's output, line by line as it happens: a first line
 * when the first reading is done, one per change (engine/watch.h), a last
 * one with the totals.  Text, or JSON Lines with --json (one object a
 * line, docs/json.md).
 */
#ifndef PTCOMPARE_WATCH_PRINT_H
#define PTCOMPARE_WATCH_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "engine/watch.h"

struct watch_totals {
	pid_t pid;
	uint64_t start, end;		/* the range */
	unsigned int page_shift;
	unsigned int interval_ms;
	uint64_t readings;
	uint64_t changes;		/* runs reported */
	uint64_t pages_changed;
	uint64_t pinned_moved;		/* pages: the finding */
	const char *ended;		/* "time", "signal", "exited" */
};

/* The first reading is done: what is watched. */
void watch_print_start(FILE *f, bool json, const struct watch_totals *t,
		       uint64_t present_pages);
/* A change seen at ms milliseconds after the first reading. */
void watch_print_change(FILE *f, bool json, uint64_t ms,
			const struct watch_change *c);
/* The end: why, and the totals. */
void watch_print_end(FILE *f, bool json, const struct watch_totals *t);

#endif /* PTCOMPARE_WATCH_PRINT_H */
