/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every section of a report shares, below the report itself: the
 * two formats, and the spools its parts wait in until the document is
 * assembled (report.h).
 */
#ifndef PTCOMPARE_REPORT_FORMAT_H
#define PTCOMPARE_REPORT_FORMAT_H

#include <stdint.h>
#include <stdio.h>

enum report_format { REPORT_TEXT, REPORT_JSON };

/* The plural ending of a count in text: "1 page", "2 pages". */
static inline const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/*
 * Appends a spool to out: what was written since it was last rewound, up
 * to the position now.  Not to its end: a spool reused for another
 * process (--all) is rewound, not truncated (on tmpfs the truncation
 * freed pages the next process's report allocated again).  NULL: nothing.
 * 0, or -errno.
 */
int report_copy_spool(FILE *spool, FILE *out);

#endif /* PTCOMPARE_REPORT_FORMAT_H */
