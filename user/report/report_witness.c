// SPDX-License-Identifier: GPL-2.0
/*
 * The witnesses' part of both reports.  Text: a "physical" section after
 * the findings, one line per pfnmap_hidden or huge range and per range
 * with a lasting contradiction, then what the third witness did.  JSON:
 * optional keys on range objects and a "witnesses" object at the end.
 */
#include <inttypes.h>
#include "engine/kpageflags.h"
#include "engine/witness.h"
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "report/page_attrs.h"
#include "report/report.h"
#include "report/report_witness.h"

static const char *phys_name(const struct witness_totals *w,
			     const struct witness_note *n, char *buf,
			     size_t size)
{
	if (!w->iomem || w->iomem->zeroed)
		return "?";
	if (n->iomem == IOMEM_NONE)
		return "(not in /proc/iomem)";
	return iomem_path(w->iomem, n->iomem, buf, size);
}

void report_witness_text_range(struct report *r, const struct verdict_range *vr,
			       const struct witness_note *n)
{
	const struct witness_totals *w = r->witness;
	FILE *f = r->physical;
	char name[256], kpf[256], attrs[64];

	if (!w || !f || !n || (!n->named && !n->bad_pages))
		return;
	page_attrs_text(attrs, sizeof(attrs), &vr->detail);
	fprintf(f, "  0x%012" PRIx64 " %6" PRIu64 " page%s  %-4s pfn 0x%-9" PRIx64 " %s, %s%s%s",
		vr->start, vr->pages, vr->pages == 1 ? " " : "s",
		ptwalk_level_name(vr->level), vr->walk_pfn,
		phys_name(w, n, name, sizeof(name)),
		n->struct_page ? "struct page" : "no struct page",
		attrs[0] ? ", " : "", attrs);
	if (n->checked)
		fprintf(f, "; kpageflags: %s", n->kpf_union ?
			kpf_format(kpf, sizeof(kpf), n->kpf_union) : "none");
	fputc('\n', f);
	if (n->bad_pages)
		fprintf(f,
			"    CONTRADICTION on %" PRIu64 " page%s, first 0x%" PRIx64 " (pfn 0x%" PRIx64 ", kpageflags %s): %s\n",
			n->bad_pages, n->bad_pages == 1 ? "" : "s",
			n->bad_addr, n->bad_pfn,
			kpf_format(kpf, sizeof(kpf), n->bad_kpf),
			kpf_rule_text(kpf_first_rule(n->bad_rules)));
	r->nr_physical++;
}

void report_witness_text_tail(struct report *r)
{
	const struct witness_totals *w = r->witness;
	char buf[65536];
	size_t got;

	if (!w)
		return;
	fprintf(r->out, "\nphysical memory (pfnmap_hidden and huge ranges: /proc/iomem name, struct page, /proc/kpageflags)%s\n",
		r->nr_physical ? ":" : ": none");
	if (r->physical && !fflush(r->physical) &&
	    !fseek(r->physical, 0, SEEK_SET))
		while ((got = fread(buf, 1, sizeof(buf), r->physical)) > 0)
			fwrite(buf, 1, got, r->out);
	if (w->iomem_note[0])
		fprintf(r->out, "  note: %s\n", w->iomem_note);
	if (w->kpf_note[0]) {
		fprintf(r->out, "  third witness skipped: %s\n", w->kpf_note);
		return;
	}
	fprintf(r->out, "  third witness (/proc/kpageflags): %" PRIu64 " present RAM page%s checked, ",
		w->kpf_pages, w->kpf_pages == 1 ? "" : "s");
	if (w->bad_pages)
		fprintf(r->out, "%" PRIu64 " page%s in %" PRIu64 " range%s contradict%s ptwalk after %d re-checks",
			w->bad_pages, w->bad_pages == 1 ? "" : "s",
			w->bad_ranges, w->bad_ranges == 1 ? "" : "s",
			w->bad_pages == 1 ? "s" : "", WITNESS_RECHECKS);
	else
		fprintf(r->out, "no contradiction");
	if (w->recheck_cleared)
		fprintf(r->out, " (%" PRIu64 " pages contradicted once and agreed when checked again)",
			w->recheck_cleared);
	fputc('\n', r->out);
}

static void json_kpf(struct json_writer *w, uint64_t flags)
{
	jw_flag_names(w, flags & KPF_SHOWN, kpf_bit_name);
}

/* The rules as bits: KPF_RULE_* bit i is named kpf_rule_name(i). */
static const char *rule_bit_name(unsigned int bit)
{
	return bit < NR_KPF_RULES ? kpf_rule_name((enum kpf_rule)bit) : NULL;
}

void report_witness_json_range(struct report *r, const struct witness_note *n)
{
	const struct witness_totals *w = r->witness;
	struct json_writer *j = &r->ranges_json;
	char name[256];

	if (!w || !n)
		return;
	if (n->named) {
		jw_key(j, "iomem");
		jw_str_or_null(j, !w->iomem || w->iomem->zeroed ||
				  n->iomem == IOMEM_NONE ? NULL :
				  iomem_path(w->iomem, n->iomem, name,
					     sizeof(name)));
		jw_kv_bool(j, "struct_page", n->struct_page);
	}
	if (n->checked) {
		jw_key(j, "kpageflags");
		json_kpf(j, n->kpf_union);
	}
	if (!n->bad_pages)
		return;
	jw_key(j, "contradiction");
	jw_begin_object(j);
	jw_kv_u64(j, "pages", n->bad_pages);
	jw_kv_hex(j, "addr", n->bad_addr);
	jw_kv_hex(j, "pfn", n->bad_pfn);
	jw_key(j, "kpageflags");
	json_kpf(j, n->bad_kpf);
	jw_key(j, "rules");
	jw_flag_names(j, n->bad_rules, rule_bit_name);
	jw_kv_str(j, "why", kpf_rule_text(kpf_first_rule(n->bad_rules)));
	jw_end_object(j);
}

void report_witness_json_tail(struct report *r)
{
	const struct witness_totals *w = r->witness;
	struct json_writer *j = &r->json;

	if (!w)
		return;
	jw_newline(j);
	jw_key(j, "witnesses");
	jw_begin_object(j);
	jw_key(j, "iomem_skipped");
	jw_str_or_null(j, w->iomem_note[0] ? w->iomem_note : NULL);
	jw_key(j, "kpageflags_skipped");
	jw_str_or_null(j, w->kpf_note[0] ? w->kpf_note : NULL);
	jw_kv_u64(j, "kpageflags_pages", w->kpf_pages);
	jw_kv_u64(j, "contradicting_pages", w->bad_pages);
	jw_kv_u64(j, "contradicting_ranges", w->bad_ranges);
	jw_kv_u64(j, "cleared_on_recheck", w->recheck_cleared);
	jw_end_object(j);
}

uint64_t report_witness_bad(const struct report *r)
{
	return r->witness ? r->witness->bad_pages : 0;
}
