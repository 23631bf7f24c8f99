// SPDX-License-Identifier: GPL-2.0
/*
 * --json: one document.  Key order is pid, comm, kernel, pages, verdict,
 * summary, vmas, ranges; the schema is in docs/json.md.  The VMA and
 * range objects go to their spools one a line, each through its own
 * writer, and are copied into the document's arrays at the end.
 */
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "report/page_attrs.h"
#include "report/phys_print.h"
#include "report/report_dma.h"
#include "report/report.h"
#include "report/report_witness.h"

static void class_counts(struct json_writer *w,
			 const uint64_t pages[NR_CLASSES])
{
	jw_begin_object(w);
	for (int c = 0; c < NR_CLASSES; c++)
		jw_kv_u64(w, page_class_name(c), pages[c]);
	jw_end_object(w);
}

/*
 * What maps the range, in bytes: leaf_size (the entry, or the contiguous
 * group, that maps it; null without a leaf), cont (a contiguous group;
 * null where the architecture has no contiguous bit), folio_size (null
 * without a struct page, or from a module without folio sizes).
 */
static void json_sizes(const struct report *r, struct json_writer *w,
		       const struct verdict_range *vr)
{
	uint32_t f = vr->detail.walk.flags;
	bool present = vr->detail.walk_kind == PTWALK_KIND_PRESENT;
	uint64_t leaf = present ? geom_leaf_size(&r->geom, vr->level, f) : 0;

	jw_key(w, "leaf_size");
	if (leaf)
		jw_u64(w, leaf);
	else
		jw_null(w);
	jw_key(w, "cont");
	if (r->absent_flags & PTWALK_F_CONT)
		jw_null(w);
	else
		jw_bool(w, present && (f & PTWALK_F_CONT));
	jw_key(w, "folio_size");
	if (present && vr->detail.walk.folio_shift)
		jw_u64(w, 1ULL << vr->detail.walk.folio_shift);
	else
		jw_null(w);
}

static void json_range(struct report *r, const struct verdict_range *vr,
		       const struct witness_note *note)
{
	struct json_writer *w = &r->ranges_json;

	jw_begin_line_object(w);
	jw_kv_hex(w, "start", vr->start);
	jw_kv_u64(w, "pages", vr->pages);
	jw_kv_str(w, "class", page_class_name(vr->cls));
	jw_key(w, "level");
	jw_str_or_null(w, vr->level == PTWALK_LEVEL_NONE ? NULL :
			  ptwalk_level_name(vr->level));
	jw_kv_hex_or_null(w, "walk_pfn", vr->walk_pfn, NO_PFN);
	jw_kv_hex_or_null(w, "pagemap_pfn", vr->pagemap_pfn, NO_PFN);
	json_sizes(r, w, vr);
	page_attrs_json(w, &vr->detail);
	report_witness_json_range(r, note);
	jw_end_object(w);
	r->nr_ranges++;
}

/* The huge kinds of a VMA: ["thp", "mthp-64K", ...]. */
static void json_huge(struct json_writer *w, const struct compare_summary *sum)
{
	char names[NR_HUGE_KINDS + 128][HUGE_NAME_MAX];
	size_t n = huge_kind_names(sum, names, sizeof(names) / sizeof(names[0]));

	jw_begin_array(w);
	for (size_t i = 0; i < n; i++)
		jw_str(w, names[i]);
	jw_end_array(w);
}

static void json_vma(struct report *r, const struct maps_entry *m, uint64_t start,
	      uint64_t end, const struct compare_summary *sum, bool examined)
{
	struct json_writer *w = &r->vmas_json;

	jw_begin_line_object(w);
	jw_kv_start_end(w, m->start, m->end);
	jw_kv_str(w, "perms", m->perms);
	jw_kv_str(w, "name", m->name);
	jw_kv_bool(w, "deleted", m->deleted);
	jw_key(w, "vm_flags");
	jw_flag_names(w, sum->have_vm_flags ? sum->vm_flags : 0,
		      ptwalk_vm_flag_name);
	jw_key(w, "huge");
	json_huge(w, sum);
	jw_kv_bool(w, "examined", examined);
	if (examined) {
		jw_kv_hex(w, "examined_start", start);
		jw_kv_hex(w, "examined_end", end);
		jw_key(w, "pages");
		class_counts(w, sum->pages);
	}
	jw_end_object(w);
}

/* A page mismatch outranks a conflict of memory types: it is the tool's. */
static const char *verdict(const struct report *r)
{
	if (r->totals[CLASS_MISMATCH] || report_witness_bad(r))
		return "mismatch";
	return report_conflicts(r) ? "memtype_conflict" : "ok";
}

static void json_head(struct report *r, const struct report_target *t)
{
	struct json_writer *w = &r->json;

	jw_begin_object(w);
	jw_kv_i64(w, "pid", t->pid);
	jw_kv_str(w, "comm", t->comm);
	jw_kv_str(w, "kernel", t->kernel);
	jw_key(w, "absent_flags");
	jw_flag_names(w, t->absent_flags, ptwalk_flag_name);
	jw_kv_u64(w, "pages", r->pages);
	jw_kv_u64(w, "page_size", geom_page_size(&r->geom));
	jw_kv_str(w, "verdict", verdict(r));
	jw_key(w, "summary");
	class_counts(w, r->totals);
	jw_line_key(w, "vmas");
	jw_begin_array(w);
}

static void json_middle(struct report *r)
{
	struct json_writer *w = &r->json;

	jw_end_array(w);
	jw_line_key(w, "ranges");
	jw_begin_array(w);
}

static void json_tail(struct report *r)
{
	struct json_writer *w = &r->json;

	jw_end_array(w);
	jw_line_key(w, "conflicts");
	jw_begin_array(w);
	if (r->memtypes)
		phys_print_conflicts_json(w, r->memtypes);
	jw_end_array(w);
	jw_kv_u64(w, "memtype_unchecked_pages", r->memtype_unchecked);
	report_witness_json_tail(r);
	if (r->dma)
		report_dma_json(r->dma, &r->json, r->out);
	jw_end_object(w);
	jw_finish(w);
}

int report_json_error(const struct report *r)
{
	if (r->fmt != REPORT_JSON)
		return 0;
	if (jw_error(&r->json))
		return jw_error(&r->json);
	if (jw_error(&r->vmas_json))
		return jw_error(&r->vmas_json);
	return jw_error(&r->ranges_json);
}

const struct report_ops report_json_ops = {
	.range = json_range, .vma = json_vma, .head = json_head,
	.middle = json_middle, .tail = json_tail,
};
