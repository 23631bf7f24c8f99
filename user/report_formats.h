/* SPDX-License-Identifier: GPL-2.0 */
/* The two formats behind report.h; only report.c calls these. */
#ifndef PTCOMPARE_REPORT_FORMATS_H
#define PTCOMPARE_REPORT_FORMATS_H

#include "report.h"

void text_range(struct report *r, const struct verdict_range *vr);
void text_vma(struct report *r, const struct maps_entry *m, uint64_t start,
	      uint64_t end, const struct compare_summary *sum, bool examined);
void text_head(struct report *r, const struct report_target *t);
void text_middle(struct report *r);
void text_tail(struct report *r);

void json_range(struct report *r, const struct verdict_range *vr);
void json_vma(struct report *r, const struct maps_entry *m, uint64_t start,
	      uint64_t end, const struct compare_summary *sum, bool examined);
void json_head(struct report *r, const struct report_target *t);
void json_middle(struct report *r);
void json_tail(struct report *r);

#endif /* PTCOMPARE_REPORT_FORMATS_H */
