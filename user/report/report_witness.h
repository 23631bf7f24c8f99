/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the witnesses (witness.c) add to the report: physical names from
 * /proc/iomem and struct page for pfnmap_hidden and huge ranges, the
 * /proc/kpageflags check of present RAM frames, and the contradictions
 * that survived a re-check.  report_text.c and report_json.c call the
 * hooks below; they do nothing when report.witness is NULL.
 */
#ifndef PTCOMPARE_REPORT_WITNESS_H
#define PTCOMPARE_REPORT_WITNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "parse/iomem.h"
#include "engine/ranges.h"

struct report;

/* What the witnesses found about one range. */
struct witness_note {
	bool named;		/* pfnmap_hidden or huge: gets a physical name */
	size_t iomem;		/* innermost /proc/iomem entry, IOMEM_NONE */
	bool struct_page;	/* ptwalk: PTWALK_F_PFN_VALID */
	bool checked;		/* kpageflags was read for its pages */
	uint64_t kpf_pages;	/* pages whose kpageflags were read */
	uint64_t kpf_union;	/* kpageflags bits seen on them (KPF_SHOWN) */
	/* contradictions that survived the re-checks */
	uint64_t bad_pages;
	unsigned int bad_rules;	/* KPF_RULE_* bits */
	uint64_t bad_addr;	/* first contradicting page */
	uint64_t bad_pfn;
	uint64_t bad_kpf;	/* its kpageflags */
};

struct witness_report {
	FILE *spool;		/* text: the "physical" section, NULL for JSON */
	const struct witness_note *cur; /* the range being reported */
	const struct iomem *iomem;	/* NULL or zeroed: nothing named */
	char iomem_note[160];	/* why nothing is named, "" if named */
	char kpf_note[160];	/* why kpageflags was skipped, "" if read */
	uint64_t named;		/* ranges spooled in the text section */
	uint64_t kpf_pages;	/* pages checked against kpageflags */
	uint64_t recheck_cleared;	/* contradicting pages gone on re-check */
	uint64_t bad_pages;	/* pages still contradicting */
	uint64_t bad_ranges;
};

/* Per range: the text spool line, the JSON keys of the range object. */
void report_witness_text_range(struct report *r, const struct verdict_range *vr);
void report_witness_json_range(struct report *r, const struct verdict_range *vr);

/* The text section (after the findings) and the JSON "witnesses" key. */
void report_witness_text_tail(struct report *r);
void report_witness_json_tail(struct report *r);

/* Contradicting pages the verdict counts (0 without witnesses). */
uint64_t report_witness_bad(const struct report *r);

#endif /* PTCOMPARE_REPORT_WITNESS_H */
