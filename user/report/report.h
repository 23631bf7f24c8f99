/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare's output, human or JSON.  Results arrive while the scan runs
 * (ranges as they are merged, a VMA once it is done) but the document puts
 * the totals first, so the parts are spooled to temporary files and
 * assembled at the end: memory stays constant however large the process.
 * Everything is written to the FILE streams given: no other I/O.  What a
 * writer prints comes in as its arguments: the range and what the
 * witnesses noted about it, the VMA and its counts; the sections after the
 * findings (witnesses, DMA view) are attached before the scan.
 */
#ifndef PTCOMPARE_REPORT_H
#define PTCOMPARE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "engine/compare.h"
#include "engine/witness.h"
#include "model/verdict.h"
#include "parse/maps.h"
#include "report/format.h"
#include "report/json.h"

struct report_dma;
struct phys_view;

struct report_target {
	pid_t pid;
	const char *comm;	/* command name, "" if unknown */
	const char *kernel;	/* kernel release */
	uint32_t absent_flags;	/* PTWALK_F_* not on this architecture */
};

struct report {
	enum report_format fmt;
	struct page_geom geom;	/* the kernel's page and leaf sizes */
	uint32_t absent_flags;	/* PTWALK_F_* the kernel lacks */
	FILE *out;		/* where the document goes */
	FILE *vmas;		/* spool: table rows / JSON VMA objects */
	FILE *ranges;		/* spool: findings / JSON range objects */
	uint64_t nr_vmas;
	uint64_t nr_ranges;	/* ranges (JSON) or findings (text) spooled */
	uint64_t pages;		/* pages examined */
	uint64_t totals[NR_CLASSES];
	uint64_t rereads;
	struct compare_summary huge;	/* huge kinds over all VMAs */
	struct report_dma *dma;	/* the DMA view (--range), or NULL */
	/* the witnesses (report_add_witnesses), or NULL */
	const struct witness_totals *witness;
	/*
	 * The memory-type check (report_add_memtypes): the frames this
	 * process maps with more than one memory type, or NULL; and the
	 * pages with another type than the default it could not look at.
	 */
	const struct phys_view *memtypes;
	uint64_t memtype_unchecked;
	FILE *physical;		/* text: spool of the "physical memory" lines */
	uint64_t nr_physical;	/* lines spooled there */
	/* JSON: the document on out, the spools' arrays of objects */
	struct json_writer json, vmas_json, ranges_json;
};

/*
 * Prepares a report written to out at report_finish(); vmas and ranges
 * are the spools (normally tmpfile()s, any read/write stream will do);
 * geom the kernel's page geometry (pages to bytes, leaf sizes) and
 * absent_flags the PTWALK_F_* its architecture lacks (cont: null).
 */
void report_init(struct report *r, enum report_format fmt, FILE *out,
		 FILE *vmas, FILE *ranges, const struct page_geom *geom,
		 uint32_t absent_flags);

/*
 * Adds the witnesses' section: w is read at report_finish() (and for the
 * physical names of each range), physical is the text report's spool of
 * that section (NULL for JSON).
 */
void report_add_witnesses(struct report *r, const struct witness_totals *w,
			  FILE *physical);

/*
 * Adds the memory-type check's findings: v's conflicts (read at
 * report_finish()), and the pages it could not check.
 */
void report_add_memtypes(struct report *r, const struct phys_view *v,
			 uint64_t unchecked);

/* Frame runs in memtype_conflict: what report_add_memtypes() gave. */
size_t report_conflicts(const struct report *r);

/* One range, in address order; note: the witnesses', NULL without them. */
void report_range(struct report *r, const struct verdict_range *vr,
		  const struct witness_note *note);

/*
 * A VMA is done: m as /proc/PID/maps gave it, [start, end) the part that
 * was examined, sum its counts; examined false for a VMA ptcompare cannot
 * examine (the [vsyscall] page lives outside the task's page tables).
 */
void report_vma(struct report *r, const struct maps_entry *m, uint64_t start,
		uint64_t end, const struct compare_summary *sum, bool examined);

/*
 * The text report's findings alone (what follows "findings:"), copied to
 * out: --all lists them process by process.  0, or -errno.
 */
int report_copy_findings(struct report *r, FILE *out);

/*
 * --all's text: the header of its table, and the row of one process
 * scanned into r (pid, command, pages, pages per class, huge kinds,
 * verdict).
 */
void report_all_header(FILE *f);
void report_all_row(FILE *f, const struct report *r, pid_t pid,
		    const char *comm);

/* Writes the whole document to out: 0, or -errno on a write error. */
int report_finish(struct report *r, const struct report_target *t);

/*
 * Exit status the report calls for: a mismatch, or a page where
 * /proc/kpageflags contradicts ptwalk after re-checks, or a frame mapped
 * with more than one memory type, or none of these.
 */
bool report_has_mismatch(const struct report *r);

/*
 * Adds the DMA view's section (report/report_dma.h, --range), written
 * after the findings; rd lives as long as r.
 */
void report_add_dma(struct report *r, struct report_dma *rd);

/*
 * The two formats behind the functions above (report_text.c,
 * report_json.c): report.c picks one by r->fmt.
 */
struct report_ops {
	/* spool one finished range (with the witnesses' note) / VMA */
	void (*range)(struct report *r, const struct verdict_range *vr,
		      const struct witness_note *note);
	void (*vma)(struct report *r, const struct maps_entry *m,
		    uint64_t start, uint64_t end,
		    const struct compare_summary *sum, bool examined);
	/* what goes before the VMAs, between VMAs and ranges, after ranges */
	void (*head)(struct report *r, const struct report_target *t);
	void (*middle)(struct report *r);
	void (*tail)(struct report *r);
};

/* The first misuse of a JSON writer (json.h), 0 if none or text. */
int report_json_error(const struct report *r);

extern const struct report_ops report_text_ops;
extern const struct report_ops report_json_ops;

#endif /* PTCOMPARE_REPORT_H */
