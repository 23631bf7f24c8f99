// SPDX-License-Identifier: GPL-2.0
/*
 * The human report: header, per-VMA table, findings (every range that is
 * neither match nor not_present), what each finding means, verdict.
 */
#include <inttypes.h>
#include "model/flag_names.h"
#include "model/page.h"
#include "module/ptwalk_names.h"
#include "report/report_dma.h"
#include "report/line.h"
#include "report/page_attrs.h"
#include "report/phys_print.h"
#include "report/report.h"
#include "report/report_witness.h"

static void describe_walk(char *buf, size_t size, const struct verdict_range *vr,
			  unsigned int page_shift)
{
	const struct page_detail *d = &vr->detail;

	switch (d->walk_kind) {
	case PTWALK_KIND_PRESENT:
		snprintf(buf, size, "pfn 0x%" PRIx64 " (phys 0x%" PRIx64 ")",
			 vr->walk_pfn, vr->walk_pfn << page_shift);
		break;
	case PTWALK_KIND_NONE:
		snprintf(buf, size, "not mapped");
		break;
	case PTWALK_KIND_SWAP:
		snprintf(buf, size, "swap type %u offset 0x%" PRIx64,
			 d->walk_swap_type, d->walk_swap_offset);
		break;
	default:
		snprintf(buf, size, "%s entry 0x%" PRIx64,
			 ptwalk_kind_name(d->walk_kind), d->walk_swap_offset);
		break;
	}
}

static void describe_pagemap(char *buf, size_t size,
			     const struct verdict_range *vr)
{
	const struct page_detail *d = &vr->detail;

	if (d->pm_state == PM_STATE_PRESENT && vr->pagemap_pfn == NO_PFN)
		snprintf(buf, size, "present, pfn hidden");
	else if (d->pm_state == PM_STATE_PRESENT)
		snprintf(buf, size, "pfn 0x%" PRIx64, vr->pagemap_pfn);
	else if (d->pm_state == PM_STATE_SWAPPED)
		snprintf(buf, size, "swap type %u offset 0x%" PRIx64,
			 d->pm_swap_type, d->pm_swap_offset);
	else
		snprintf(buf, size, "hole");
}

static void text_range(struct report *r, const struct verdict_range *vr,
		       const struct witness_note *note)
{
	char walk[96], pm[96], attrs[64];

	report_witness_text_range(r, vr, note);
	if (vr->cls == CLASS_MATCH || vr->cls == CLASS_NOT_PRESENT ||
	    vr->cls == CLASS_PFN_ZEROED)
		return;
	describe_walk(walk, sizeof(walk), vr, r->geom.shift);
	describe_pagemap(pm, sizeof(pm), vr);
	page_attrs_text(attrs, sizeof(attrs), &vr->detail);
	fprintf(r->ranges,
		"  0x%012" PRIx64 " %6" PRIu64 " page%s  %-13s %-4s ptwalk: %s%s%s%s; pagemap: %s%s\n",
		vr->start, vr->pages, vr->pages == 1 ? " " : "s",
		page_class_name(vr->cls), ptwalk_level_name(vr->level), walk,
		attrs[0] ? " [" : "", attrs, attrs[0] ? "]" : "",
		pm, vr->cls == CLASS_TRANSIENT ? " (as re-read)" : "");
	r->nr_ranges++;
}

/* A name as maps prints it: control characters as octal escapes. */
static void put_name(struct line *l, const char *name)
{
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		if (*c < 0x20 || *c == 0x7f) {
			line_char(l, '\\');
			line_char(l, (char)('0' + (*c >> 6)));
			line_char(l, (char)('0' + (*c >> 3 & 7)));
			line_char(l, (char)('0' + (*c & 7)));
		} else {
			line_char(l, (char)*c);
		}
	}
}

/* The huge kinds of a VMA, comma separated: "thp,mthp-64K"; "-" for none. */
static void huge_join(char *buf, size_t size, const struct compare_summary *sum)
{
	char names[NR_HUGE_KINDS + 128][HUGE_NAME_MAX];
	size_t n = huge_kind_names(sum, names, sizeof(names) / sizeof(names[0]));
	size_t len = 0;

	snprintf(buf, size, "-");
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? "," : "", names[i]);
}

/* A row of the VMA table; the header is text_head()'s. */
static void text_vma(struct report *r, const struct maps_entry *m, uint64_t start,
	      uint64_t end, const struct compare_summary *sum, bool examined)
{
	char flags[512], huge[128];
	struct line l;

	line_init(&l, r->vmas);
	line_str(&l, "0x", 0);
	line_hex(&l, m->start, 12);
	line_str(&l, "-0x", 0);
	line_hex(&l, m->end, 12);
	line_char(&l, ' ');
	line_str(&l, m->perms, 4);
	if (!examined) {
		line_str(&l, "        -  (not examined: outside the process's page tables) ",
			 0);
		put_name(&l, m->name);
		line_char(&l, '\n');
		line_flush(&l);
		return;
	}
	line_char(&l, ' ');
	line_u64(&l, (end - start) >> r->geom.shift, 8);
	for (int c = 0; c < NR_CLASSES; c++) {
		line_char(&l, ' ');
		line_u64(&l, sum->pages[c], 7);
	}
	huge_join(huge, sizeof(huge), sum);
	if (sum->have_vm_flags)
		flag_names_join(flags, sizeof(flags), sum->vm_flags,
				ptwalk_vm_flag_name, "-");
	else
		snprintf(flags, sizeof(flags), "gone");
	line_str(&l, "  ", 0);
	line_str(&l, huge, 10);
	line_char(&l, ' ');
	put_name(&l, m->name);
	/* the name keeps maps' own " (deleted)" suffix */
	line_str(&l, " [", 0);
	line_str(&l, flags, 0);
	line_str(&l, "]\n", 0);
	line_flush(&l);
}

static void text_head(struct report *r, const struct report_target *t)
{
	fprintf(r->out,
		"ptcompare: pid %d (%s), kernel %s: %" PRIu64 " pages examined in %" PRIu64 " VMAs\n\n",
		(int)t->pid, t->comm, t->kernel, r->pages, r->nr_vmas);
	if (t->absent_flags) {
		char absent[256];

		flag_names_join(absent, sizeof(absent), t->absent_flags,
				ptwalk_flag_name, ",");
		fprintf(r->out, "entry bits not on this architecture (never set, not false): %s\n\n",
			absent);
	}
	fprintf(r->out, "%-29s %-4s %8s", "VMA", "PERM", "PAGES");
	for (int c = 0; c < NR_CLASSES; c++)
		fprintf(r->out, " %7s", page_class_info(c)->column);
	fprintf(r->out, "  %-10s %s\n", "HUGE", "NAME [VM FLAGS]");
}

static void text_middle(struct report *r)
{
	fprintf(r->out, "\nfindings%s\n", r->nr_ranges ? ":" : ": none");
}

/*
 * The memory-type check: each conflict with the mappings in it, or a
 * word on what could not be checked.
 */
static void text_memtypes(struct report *r)
{
	if (report_conflicts(r)) {
		fputc('\n', r->out);
		phys_print_conflicts_text(r->out, r->memtypes);
	}
	if (r->memtype_unchecked)
		fprintf(r->out,
			"\nnote: %" PRIu64 " pages mapped with another memory type than the default were not checked for conflicts (too many runs of frames to keep); use --phys on their frames\n",
			r->memtype_unchecked);
}

static void text_tail(struct report *r)
{
	uint64_t bad = r->totals[CLASS_MISMATCH];
	uint64_t witness_bad = report_witness_bad(r);
	size_t conflicts = report_conflicts(r);
	bool first = true, listed = false;

	/* what each class seen means, once, when it is worth a word */
	for (int c = 0; c < NR_CLASSES; c++) {
		const struct page_class_info *k = page_class_info(c);

		if (!k->note || !r->totals[c])
			continue;
		fprintf(r->out, "%s  %s: %s\n", first ? "\n" : "", k->name,
			k->note);
		first = false;
	}
	if (r->totals[CLASS_PFN_ZEROED])
		fprintf(r->out,
			"\nnote: pagemap hid the frame numbers of %" PRIu64 " present pages (they read as 0) because ptcompare's pagemap reader lacks CAP_SYS_ADMIN; those pages are counted as pfn_zeroed, not compared by frame.\n",
			r->totals[CLASS_PFN_ZEROED]);
	report_witness_text_tail(r);
	if (r->dma)
		report_dma_text(r->dma, r->out);
	text_memtypes(r);
	fprintf(r->out, "\nverdict: ");
	if (bad || witness_bad || conflicts) {
		fprintf(r->out, "MISMATCH: ");
		if (bad)
			fprintf(r->out,
				"%" PRIu64 " of %" PRIu64 " pages differ between the page tables and pagemap",
				bad, r->pages);
		if (witness_bad)
			fprintf(r->out,
				"%s%" PRIu64 " page%s where /proc/kpageflags contradicts the page tables",
				bad ? "; " : "", witness_bad,
				witness_bad == 1 ? "" : "s");
		if (conflicts)
			fprintf(r->out,
				"%s%zu run%s of frames mapped with different memory types (memtype_conflict)",
				bad || witness_bad ? "; " : "", conflicts,
				conflicts == 1 ? "" : "s");
		fputc('\n', r->out);
		return;
	}
	fprintf(r->out, "ok: all %" PRIu64 " pages explained (", r->pages);
	for (int c = 0; c < NR_CLASSES; c++) {
		if (!r->totals[c])
			continue;
		fprintf(r->out, "%s%" PRIu64 " %s", listed ? ", " : "",
			r->totals[c], page_class_name(c));
		listed = true;
	}
	fprintf(r->out, "%s)\n", listed ? "" : "no pages");
}

const struct report_ops report_text_ops = {
	.range = text_range, .vma = text_vma, .head = text_head,
	.middle = text_middle, .tail = text_tail,
};

void report_all_header(FILE *f)
{
	fprintf(f, "%7s %-16s %9s", "PID", "COMM", "PAGES");
	for (int c = 0; c < NR_CLASSES; c++)
		fprintf(f, " %7s", page_class_info(c)->column);
	fprintf(f, "  %-16s %s\n", "HUGE", "VERDICT");
}

void report_all_row(FILE *f, const struct report *r, pid_t pid,
		    const char *comm)
{
	char huge[128];

	huge_join(huge, sizeof(huge), &r->huge);
	fprintf(f, "%7d %-16s %9" PRIu64, (int)pid, comm, r->pages);
	for (int c = 0; c < NR_CLASSES; c++)
		fprintf(f, " %7" PRIu64, r->totals[c]);
	fprintf(f, "  %-16s %s\n", huge,
		r->totals[CLASS_MISMATCH] || report_witness_bad(r) ?
		"mismatch" : "ok");
}
