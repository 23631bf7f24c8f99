// SPDX-License-Identifier: GPL-2.0
/*
 * --json: one document.  Key order is pid, comm, kernel, pages, verdict,
 * summary, vmas, ranges; the schema is in docs/json.md.
 */
#include <inttypes.h>
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "report/page_attrs.h"
#include "report/report_dma.h"
#include "report/report_formats.h"
#include "report/report_witness.h"

static void class_counts(FILE *f, const uint64_t pages[NR_CLASSES])
{
	fputc('{', f);
	for (int c = 0; c < NR_CLASSES; c++) {
		fprintf(f, "%s", c ? "," : "");
		json_string(f, page_class_name(c));
		fprintf(f, ":%" PRIu64, pages[c]);
	}
	fputc('}', f);
}

static void json_range(struct report *r, const struct verdict_range *vr,
		       const struct witness_note *note)
{
	FILE *f = r->ranges;

	fprintf(f, "%s\n{\"start\":\"0x%" PRIx64 "\",\"pages\":%" PRIu64
		",\"class\":\"%s\",\"level\":", r->nr_ranges ? "," : "",
		vr->start, vr->pages, page_class_name(vr->cls));
	if (vr->level == PTWALK_LEVEL_NONE)
		fputs("null", f);
	else
		fprintf(f, "\"%s\"", ptwalk_level_name(vr->level));
	fputs(",\"walk_pfn\":", f);
	json_hex_or_null(f, vr->walk_pfn, NO_PFN);
	fputs(",\"pagemap_pfn\":", f);
	json_hex_or_null(f, vr->pagemap_pfn, NO_PFN);
	page_attrs_json(f, &vr->detail);
	report_witness_json_range(r, note);
	fputc('}', f);
	r->nr_ranges++;
}

static void json_vma(struct report *r, const struct maps_entry *m, uint64_t start,
	      uint64_t end, const struct compare_summary *sum, bool examined)
{
	FILE *f = r->vmas;

	fprintf(f, "%s\n{\"start\":\"0x%" PRIx64 "\",\"end\":\"0x%" PRIx64
		"\",\"perms\":", r->nr_vmas ? "," : "", m->start, m->end);
	json_string(f, m->perms);
	fputs(",\"name\":", f);
	json_string(f, m->name);
	fprintf(f, ",\"deleted\":%s,\"vm_flags\":", m->deleted ? "true" : "false");
	json_flag_names(f, sum->have_vm_flags ? sum->vm_flags : 0,
			ptwalk_vm_flag_name);
	fputs(",\"huge\":", f);
	json_flag_names(f, sum->huge, huge_kind_name);
	fprintf(f, ",\"examined\":%s", examined ? "true" : "false");
	if (examined) {
		fprintf(f, ",\"examined_start\":\"0x%" PRIx64
			"\",\"examined_end\":\"0x%" PRIx64 "\",\"pages\":",
			start, end);
		class_counts(f, sum->pages);
	}
	fputc('}', f);
}

static void json_head(struct report *r, const struct report_target *t)
{
	FILE *f = r->out;

	fprintf(f, "{\"pid\":%d,\"comm\":", (int)t->pid);
	json_string(f, t->comm);
	fputs(",\"kernel\":", f);
	json_string(f, t->kernel);
	fputs(",\"absent_flags\":", f);
	json_flag_names(f, t->absent_flags, ptwalk_flag_name);
	fprintf(f, ",\"pages\":%" PRIu64 ",\"verdict\":\"%s\",\"summary\":",
		r->pages, report_has_mismatch(r) ? "mismatch" : "ok");
	class_counts(f, r->totals);
	fputs(",\n\"vmas\":[", f);
}

static void json_middle(struct report *r)
{
	fputs("],\n\"ranges\":[", r->out);
}

static void json_tail(struct report *r)
{
	fputc(']', r->out);
	report_witness_json_tail(r);
	if (r->dma)
		report_dma_json(r);
	fputs("}\n", r->out);
}

const struct report_ops report_json_ops = {
	.range = json_range, .vma = json_vma, .head = json_head,
	.middle = json_middle, .tail = json_tail,
};
