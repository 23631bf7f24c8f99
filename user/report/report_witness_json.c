// SPDX-License-Identifier: GPL-2.0
/*
 * The witnesses' part of the JSON document: optional keys on range
 * objects and a "witnesses" object at the end (docs/json.md).
 */
#include "engine/kpageflags.h"
#include "engine/witness.h"
#include "report/json.h"
#include "report/report.h"
#include "report/report_witness.h"

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
	jw_line_key(j, "witnesses");
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
