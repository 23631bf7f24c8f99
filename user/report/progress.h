/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The progress line of a long scan: when to show it, how often to redraw
 * it, what it says, and how to wipe it before other output.  Pure: the
 * caller passes the time and writes the bytes (to a terminal's stderr).
 */
#ifndef PTCOMPARE_PROGRESS_H
#define PTCOMPARE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Quiet for the first second: short scans never show a line. */
#define PROGRESS_DELAY_NS	1000000000ULL
/* At most four redraws a second. */
#define PROGRESS_INTERVAL_NS	250000000ULL
/* Longest line progress_line() writes, without its '\r'. */
#define PROGRESS_MAX_WIDTH	100

struct progress {
	bool enabled;
	uint64_t start_ns;	/* when the scan began */
	uint64_t last_ns;	/* last redraw */
	size_t width;		/* characters on screen now; 0: nothing */
	uint64_t total_pages, total_vmas;	/* 0: not known */
	uint64_t pages, vmas;	/* done */
	/* --all: processes done of total_procs; 0: a scan of one process */
	uint64_t total_procs, procs;
};

/* Whether to show progress at all: stderr is a terminal, not turned off. */
bool progress_wanted(bool stderr_is_tty, bool no_progress);

void progress_init(struct progress *p, bool enabled, uint64_t now_ns);

/* A line is due: enabled, past the delay, and the interval since the last. */
bool progress_due(const struct progress *p, uint64_t now_ns);

/*
 * The line for now into buf: "\r" + the text, padded with blanks over a
 * longer previous line.  Marks it drawn.  Returns its length.
 */
size_t progress_line(struct progress *p, uint64_t now_ns, char *buf,
		     size_t size);

/*
 * What wipes a drawn line so that other output starts on a clean line
 * ("\r", blanks, "\r"), or "" when nothing is on screen.  Returns its
 * length; afterwards nothing is on screen.
 */
size_t progress_clear(struct progress *p, char *buf, size_t size);

#endif /* PTCOMPARE_PROGRESS_H */
