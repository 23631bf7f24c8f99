// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "report/all_print.h"

void all_print_begin(enum report_format fmt, struct json_writer *j,
		     FILE *out, const char *kernel)
{
	if (fmt == REPORT_TEXT) {
		report_all_header(out);
		return;
	}
	jw_init(j, out);
	jw_begin_object(j);
	jw_kv_str(j, "kernel", kernel);
	jw_line_key(j, "processes");
	jw_begin_array(j);
}

int all_print_process(enum report_format fmt, struct json_writer *j,
		      FILE *out, FILE *doc, struct report *r, pid_t pid,
		      const char *comm, FILE *findings)
{
	if (fmt == REPORT_JSON) {
		if (!jw_raw_value(j))
			return jw_error(j);
		return report_copy_spool(doc, out);
	}
	report_all_row(out, r, pid, comm);
	if (!r->nr_ranges)
		return 0;
	fprintf(findings, "pid %d (%s):\n", (int)pid, comm);
	return report_copy_findings(r, findings);
}

static const char *verdict(const struct all_totals *t, size_t conflicts)
{
	return t->bad ? "mismatch" : conflicts ? "memtype_conflict" : "ok";
}

static void end_json(struct json_writer *j, const struct all_totals *t,
		     const struct phys_view *v)
{
	jw_end_array(j);
	jw_line_key(j, "exited");
	jw_begin_array(j);
	for (size_t i = 0; i < t->nr_gone; i++)
		jw_i64(j, t->gone[i]);
	jw_end_array(j);
	jw_line_key(j, "conflicts");
	jw_begin_array(j);
	if (v->set)
		phys_print_conflicts_json(j, v);
	jw_end_array(j);
	jw_kv_u64(j, "memtype_unchecked_pages", t->memtype_unchecked);
	jw_line_key(j, "summary");
	jw_begin_object(j);
	jw_kv_u64(j, "processes", t->scanned);
	jw_kv_u64(j, "without_memory", t->no_mm);
	jw_kv_u64(j, "exited", t->nr_gone);
	jw_kv_u64(j, "with_mismatch", t->bad);
	jw_kv_u64(j, "pages", t->pages);
	for (int c = 0; c < NR_CLASSES; c++)
		jw_kv_u64(j, page_class_name(c), t->totals[c]);
	jw_end_object(j);
	jw_kv_str(j, "verdict", verdict(t, v->nr_conflicts));
	jw_end_object(j);
}

static int end_text(FILE *out, FILE *findings, const struct all_totals *t,
		    const struct phys_view *v)
{
	int err;

	fprintf(out, "\nfindings%s\n", ftell(findings) ? ":" : ": none");
	err = report_copy_spool(findings, out);
	if (err)
		return err;
	if (v->nr_conflicts) {
		fputc('\n', out);
		phys_print_conflicts_text(out, v);
	}
	if (t->memtype_unchecked)
		fprintf(out,
			"\nnote: %" PRIu64 " pages mapped with another memory type than the default were not checked for conflicts; use --phys on their frames\n",
			t->memtype_unchecked);
	if (t->nr_gone) {
		fprintf(out, "\nexited during the scan (%zu):", t->nr_gone);
		for (size_t i = 0; i < t->nr_gone; i++)
			fprintf(out, " %d", (int)t->gone[i]);
		fputc('\n', out);
	}
	fprintf(out,
		"\nverdict: %s: %u processes scanned (%" PRIu64 " pages), %u with a mismatch, %zu memtype conflict%s; %u without user memory, %zu exited\n",
		t->bad || v->nr_conflicts ? "MISMATCH" : "ok", t->scanned,
		t->pages, t->bad, v->nr_conflicts,
		v->nr_conflicts == 1 ? "" : "s", t->no_mm, t->nr_gone);
	return 0;
}

int all_print_end(enum report_format fmt, struct json_writer *j, FILE *out,
		  FILE *findings, const struct all_totals *t,
		  const struct phys_view *v)
{
	if (fmt == REPORT_TEXT)
		return end_text(out, findings, t, v);
	end_json(j, t, v);
	return jw_finish(j);
}
