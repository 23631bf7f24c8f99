/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the witnesses (engine/witness.c) add to the report: physical names
 * from /proc/iomem and struct page for pfnmap_hidden and huge ranges, the
 * /proc/kpageflags check of present RAM frames, and the contradictions
 * that survived a re-check.  report_witness_text.c and
 * report_witness_json.c write them for report_text.c and report_json.c;
 * they do nothing without witnesses (report.witness NULL).
 */
#ifndef PTCOMPARE_REPORT_WITNESS_H
#define PTCOMPARE_REPORT_WITNESS_H

#include <stdint.h>
#include "engine/witness.h"
#include "model/verdict.h"

struct report;

/*
 * Per range, with the witnesses' note on it (NULL: none): the line of
 * the text report's "physical memory" spool, the keys of the JSON range
 * object.
 */
void report_witness_text_range(struct report *r, const struct verdict_range *vr,
			       const struct witness_note *n);
void report_witness_json_range(struct report *r, const struct witness_note *n);

/* The text section (after the findings) and the JSON "witnesses" key. */
void report_witness_text_tail(struct report *r);
void report_witness_json_tail(struct report *r);

/* Contradicting pages the verdict counts (0 without witnesses). */
uint64_t report_witness_bad(const struct report *r);

#endif /* PTCOMPARE_REPORT_WITNESS_H */
