/* SPDX-License-Identifier: GPL-2.0 */
/* The two formats behind report.h; only report.c calls these. */
#ifndef PTCOMPARE_REPORT_FORMATS_H
#define PTCOMPARE_REPORT_FORMATS_H

#include "report/report.h"

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

/*
 * Appends a spool to the document: what was written since it was last
 * rewound (not what lies beyond, left by an earlier use).  0, or -errno.
 */
int report_copy_spool(FILE *spool, FILE *out);

/* The first misuse of a JSON writer (json.h), 0 if none or text. */
int report_json_error(const struct report *r);

extern const struct report_ops report_text_ops;
extern const struct report_ops report_json_ops;

#endif /* PTCOMPARE_REPORT_FORMATS_H */
