/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line of a report built in a buffer and written with one fwrite: the
 * per-VMA and per-range lines without printf, whose format parsing,
 * padding and per-call stream lock, a dozen calls a line, dominated a
 * scan of many small VMAs.  Each helper prints what the printf conversion in its comment
 * prints.  A line longer than the buffer (a long path name) is written
 * in pieces: nothing is cut.
 */
#ifndef PTCOMPARE_REPORT_LINE_H
#define PTCOMPARE_REPORT_LINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LINE_MAX_LEN	1024

struct line {
	FILE *f;
	size_t len;
	char buf[LINE_MAX_LEN];
};

/* A line to be written to f. */
static inline void line_init(struct line *l, FILE *f)
{
	l->f = f;
	l->len = 0;
}

/* "%s", and "%-*s" with width: s, then spaces up to width. */
void line_str(struct line *l, const char *s, unsigned int width);
/* "%c" */
void line_char(struct line *l, char c);
/* "%*" PRIu64: right-aligned in width. */
void line_u64(struct line *l, uint64_t v, unsigned int width);
/* "%0*" PRIx64: lower-case hex, zero-padded to width. */
void line_hex(struct line *l, uint64_t v, unsigned int width);
/* What is left of the line to f (and the buffer emptied). */
void line_flush(struct line *l);

#endif /* PTCOMPARE_REPORT_LINE_H */
