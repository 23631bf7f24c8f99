/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --all's document around the processes' own (report.h): its
 * head, each process's place in it, and its end with the totals, the
 * memory-type conflicts across processes and the verdict; text or JSON
 * (docs/json.md).  The caller hands in what the mode counted.
 */
#ifndef PTCOMPARE_REPORT_ALL_PRINT_H
#define PTCOMPARE_REPORT_ALL_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "model/page_class.h"
#include "report/format.h"
#include "report/json.h"
#include "report/phys_print.h"
#include "report/report.h"

/* What --all counted over every process, for the document's end. */
struct all_totals {
	unsigned int scanned;		/* processes scanned */
	unsigned int no_mm;		/* ... of them without user memory */
	unsigned int bad;		/* ... with a mismatch */
	uint64_t pages;
	uint64_t totals[NR_CLASSES];
	const pid_t *gone;		/* exited during the scan */
	size_t nr_gone;
	uint64_t memtype_unchecked;	/* pages not checked for conflicts */
};

/*
 * The head: JSON begins its object on j (over out) up to the processes'
 * array; text writes the table's header line to out.
 */
void all_print_begin(enum report_format fmt, struct json_writer *j,
		     FILE *out, const char *kernel);

/*
 * One process's part, in its turn: JSON its document (doc, a spool) as
 * the next element of the array; text its row on out and its findings,
 * under its name, in the findings spool.  0, or -errno.
 */
int all_print_process(enum report_format fmt, struct json_writer *j,
		      FILE *out, FILE *doc, struct report *r, pid_t pid,
		      const char *comm, FILE *findings);

/*
 * The end: JSON closes the array and writes the totals, conflicts and
 * verdict on j; text the findings spool, the conflicts, the notes and
 * the verdict line on out.  0, or -errno.
 */
int all_print_end(enum report_format fmt, struct json_writer *j, FILE *out,
		  FILE *findings, const struct all_totals *t,
		  const struct phys_view *v);

#endif /* PTCOMPARE_REPORT_ALL_PRINT_H */
