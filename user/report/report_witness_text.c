// SPDX-License-Identifier: GPL-2.0
/*
 * The witnesses' part of the text report: a "physical" section after the
 * findings, one line per pfnmap_hidden or huge range and per range with a
 * lasting contradiction, then what the third witness did.
 */
#include <inttypes.h>
#include "engine/kpageflags.h"
#include "engine/witness.h"
#include "module/ptwalk_names.h"
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

static void contradiction(FILE *f, const struct witness_note *n)
{
	char kpf[256];

	fprintf(f,
		"    CONTRADICTION on %" PRIu64 " page%s, first 0x%" PRIx64 " (pfn 0x%" PRIx64 ", kpageflags %s): %s\n",
		n->bad_pages, n->bad_pages == 1 ? "" : "s",
		n->bad_addr, n->bad_pfn,
		kpf_format(kpf, sizeof(kpf), n->bad_kpf),
		kpf_rule_text(kpf_first_rule(n->bad_rules)));
}

void report_witness_text_range(struct report *r, const struct verdict_range *vr,
			       const struct witness_note *n)
{
	const struct witness_totals *w = r->witness;
	FILE *f = r->physical;
	char name[256], kpf[256], attrs[64];

	if (!w || !n || (!n->named && !n->bad_pages))
		return;
	if (!f) {
		/*
		 * --all's text has no physical section: a contradiction is
		 * one of the process's findings, or it would be lost
		 */
		if (n->bad_pages) {
			fprintf(r->ranges, "  0x%012" PRIx64 " %6" PRIu64 " page%s  kpageflags contradicts ptwalk\n",
				vr->start, vr->pages,
				vr->pages == 1 ? " " : "s");
			contradiction(r->ranges, n);
			r->nr_ranges++;
		}
		return;
	}
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
		contradiction(f, n);
	r->nr_physical++;
}

void report_witness_text_tail(struct report *r)
{
	const struct witness_totals *w = r->witness;

	if (!w)
		return;
	fprintf(r->out, "\nphysical memory (pfnmap_hidden and huge ranges: /proc/iomem name, struct page, /proc/kpageflags)%s\n",
		r->nr_physical ? ":" : ": none");
	report_copy_spool(r->physical, r->out);
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
