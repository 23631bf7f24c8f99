// SPDX-License-Identifier: GPL-2.0
/*
 * Writers of the "DMA view" section (text) and the "dma" object (JSON).
 * What a driver needs before it maps the range for DMA: how many
 * scatter-gather entries it takes, whether 32-bit DMA reaches it, whether
 * every page is resident and whether anything keeps it there.
 */
#include <errno.h>
#include <inttypes.h>
#include "model/page.h"
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "report/report_dma.h"
#include "report/report_formats.h"

#define KIB 1024ULL

/* A size in the largest binary unit that divides it: "32 KiB", "2 MiB". */
static void format_size(char *buf, size_t size, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u + 1 < sizeof(unit) / sizeof(unit[0]) && bytes &&
	       !(bytes % KIB)) {
		bytes /= KIB;
		u++;
	}
	snprintf(buf, size, "%" PRIu64 " %s", bytes, unit[u]);
}

static const char *four_gib(const struct dma_run *run)
{
	return dma_run_crosses_4g(run) ? "CROSSES" :
	       dma_run_above_4g(run) ? "above" : "below";
}

static void text_run(const struct dma_run *run, struct report_dma *rd)
{
	uint64_t phys = run->pfn << PAGE_SHIFT_4K;
	char align[32];

	if (rd->nr_runs >= REPORT_DMA_TEXT_RUNS)
		return;
	format_size(align, sizeof(align), dma_align(phys));
	fprintf(rd->runs, "  0x%012" PRIx64 " %8" PRIu64 "  0x%-10" PRIx64
		" 0x%-13" PRIx64 " %8s  %s\n", run->start, run->pages, run->pfn,
		phys, align, four_gib(run));
	rd->nr_runs++;
}

static void json_run(const struct dma_run *run, struct report_dma *rd)
{
	struct json_writer *w = &rd->runs_json;
	uint64_t phys = run->pfn << PAGE_SHIFT_4K;

	jw_newline(w);
	jw_begin_object(w);
	jw_kv_hex(w, "start", run->start);
	jw_kv_u64(w, "pages", run->pages);
	jw_kv_hex(w, "pfn", run->pfn);
	jw_kv_hex(w, "phys", phys);
	jw_kv_u64(w, "align", dma_align(phys));
	jw_kv_bool(w, "crosses_4g", dma_run_crosses_4g(run));
	jw_kv_bool(w, "above_4g", dma_run_above_4g(run));
	jw_end_object(w);
	rd->nr_runs++;
}

static void spool_run(const struct dma_run *run, void *arg)
{
	struct report_dma *rd = arg;

	if (rd->fmt == REPORT_JSON)
		json_run(run, rd);
	else
		text_run(run, rd);
}

static void spool_hole(const struct dma_hole *h, void *arg)
{
	struct report_dma *rd = arg;

	if (rd->fmt == REPORT_JSON) {
		struct json_writer *w = &rd->holes_json;

		jw_newline(w);
		jw_begin_object(w);
		jw_kv_hex(w, "start", h->start);
		jw_kv_u64(w, "pages", h->pages);
		jw_kv_str(w, "kind", dma_hole_kind_name(h->kind));
		jw_end_object(w);
	} else if (rd->nr_holes < REPORT_DMA_TEXT_HOLES) {
		fprintf(rd->holes, "  0x%012" PRIx64 " %8" PRIu64 " page%s  %s\n",
			h->start, h->pages, h->pages == 1 ? " " : "s",
			dma_hole_kind_name(h->kind));
	} else {
		return;
	}
	rd->nr_holes++;
}

void report_dma_init(struct report_dma *rd, struct report *r,
		     const struct dma_view *view, FILE *runs, FILE *holes)
{
	*rd = (struct report_dma){ .view = view, .fmt = r->fmt, .runs = runs,
				   .holes = holes };
	jw_init(&rd->runs_json, runs);
	jw_init(&rd->holes_json, holes);
	r->dma = rd;
}

struct dma_sink report_dma_sink(struct report_dma *rd)
{
	return (struct dma_sink){ .run = spool_run, .hole = spool_hole,
				  .arg = rd };
}

static void copy(struct report_dma *rd, FILE *spool, FILE *out)
{
	int err = report_copy_spool(spool, out);

	if (err && !rd->err)
		rd->err = err;
}

static void text_summary(FILE *f, const struct dma_view *d)
{
	const struct dma_totals *t = &d->t;
	char size[32], largest[32], align[32];
	uint64_t holes = t->pages - t->frame_pages;

	format_size(size, sizeof(size), t->pages << PAGE_SHIFT_4K);
	fprintf(f, "\nDMA view of 0x%" PRIx64 "-0x%" PRIx64
		" (%" PRIu64 " pages, %s), from ptwalk's frames:\n",
		d->start, d->end, t->pages, size);
	if (t->runs) {
		format_size(largest, sizeof(largest),
			    t->largest_run << PAGE_SHIFT_4K);
		format_size(align, sizeof(align), t->min_align);
		fprintf(f, "  runs: %" PRIu64 " physically contiguous run%s, largest %"
			PRIu64 " page%s (%s), smallest alignment %s\n", t->runs,
			t->runs == 1 ? "" : "s", t->largest_run,
			t->largest_run == 1 ? "" : "s", largest, align);
	} else {
		fprintf(f, "  runs: none: no page of the range has a frame\n");
	}
	if (t->pages_above_4g)
		fprintf(f, "  4 GiB: %" PRIu64 " page%s above 4 GiB, out of reach of 32-bit DMA (%"
			PRIu64 " run%s wholly above, %" PRIu64 " crossing the line)\n",
			t->pages_above_4g, t->pages_above_4g == 1 ? "" : "s",
			t->runs_above_4g, t->runs_above_4g == 1 ? "" : "s",
			t->runs_crossing_4g);
	else if (t->runs)
		fprintf(f, "  4 GiB: every frame lies below 4 GiB, within reach of 32-bit DMA\n");
	if (holes) {
		fprintf(f, "  resident: NO: %" PRIu64 " page%s without a frame in %"
			PRIu64 " hole%s (", holes, holes == 1 ? "" : "s",
			t->holes, t->holes == 1 ? "" : "s");
		for (int k = 0, n = 0; k < NR_DMA_HOLE_KINDS; k++)
			if (t->hole_pages[k])
				fprintf(f, "%s%" PRIu64 " %s", n++ ? ", " : "",
					t->hole_pages[k], dma_hole_kind_name(k));
		fprintf(f, "): the range is not fully resident\n");
	} else {
		fprintf(f, "  resident: yes, every page has a frame\n");
	}
	if (dma_locked(d))
		fprintf(f, "  locked: mlocked (VM_LOCKED on every VMA of the range): kept resident, though compaction may still move frames\n");
	else
		fprintf(f, "  locked: no (%" PRIu64 " of %" PRIu64
			" pages in VM_LOCKED VMAs): frames may be reclaimed or move\n",
			t->locked_pages, t->pages);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* Pinned state, memory types, nodes, devices: from extended records. */
static void text_attrs(FILE *f, const struct report_dma *rd)
{
	const struct dma_totals *t = &rd->view->t;
	bool any = false;

	if (!t->info) {
		if (t->frame_pages)
			fprintf(f, "  pinned, memory type, node: unknown: this ptwalk.ko predates extended records\n");
		return;
	}
	fprintf(f, "  pinned: %" PRIu64 " page%s DMA-pinned in %" PRIu64
		" span%s, %" PRIu64 " not pinned in %" PRIu64 " span%s",
		t->pin_pages[PIN_YES], plural(t->pin_pages[PIN_YES]),
		t->pin_spans[PIN_YES], plural(t->pin_spans[PIN_YES]),
		t->pin_pages[PIN_NO], t->pin_spans[PIN_NO],
		plural(t->pin_spans[PIN_NO]));
	if (t->pin_pages[PIN_UNKNOWN])
		fprintf(f, ", %" PRIu64 " unknown (no struct page)",
			t->pin_pages[PIN_UNKNOWN]);
	fprintf(f, " (page_maybe_dma_pinned(): FOLL_PIN pins, \"maybe\": a page with over 1024 references looks pinned)\n");
	fprintf(f, "  memory types:");
	for (int m = 1; m < DMA_NR_MEMTYPES; m++) {
		const char *name = ptwalk_memtype_name((unsigned int)m);

		if (!t->memtype_pages[m] || !name)
			continue;
		fprintf(f, "%s %s %" PRIu64 " page%s", any ? "," : "", name,
			t->memtype_pages[m], plural(t->memtype_pages[m]));
		any = true;
	}
	if (t->memtype_pages[0])
		fprintf(f, "%s unknown %" PRIu64 " page%s", any ? "," : "",
			t->memtype_pages[0], plural(t->memtype_pages[0]));
	fprintf(f, "\n  NUMA nodes:");
	any = false;
	for (unsigned int i = 0; i < t->nr_nodes; i++, any = true)
		fprintf(f, "%s node %d %" PRIu64 " page%s", any ? "," : "",
			(int)t->nodes[i].node, t->nodes[i].pages,
			plural(t->nodes[i].pages));
	if (t->other_node_pages)
		fprintf(f, "%s other nodes %" PRIu64 " page%s", any ? "," : "",
			t->other_node_pages, plural(t->other_node_pages));
	if (t->nodeless_pages)
		fprintf(f, "%s no node (no struct page) %" PRIu64 " page%s",
			any || t->other_node_pages ? "," : "",
			t->nodeless_pages, plural(t->nodeless_pages));
	fputc('\n', f);
	for (unsigned int i = 0; i < t->nr_devmem; i++) {
		const struct pci_owner *o = &rd->owners[i];

		fprintf(f, "  device memory: %" PRIu64 " page%s at phys 0x%" PRIx64,
			t->devmem[i].pages, plural(t->devmem[i].pages),
			t->devmem[i].pfn << PAGE_SHIFT_4K);
		if (!o->found) {
			fprintf(f, ", in no PCI BAR\n");
			continue;
		}
		fprintf(f, ": PCI %s BAR %d, device NUMA node ", o->dev, o->bar);
		if (o->numa_node < 0)
			fprintf(f, "none (-1)");
		else
			fprintf(f, "%d", o->numa_node);
		if (t->nr_nodes == 1)
			fprintf(f, "; the range's RAM is on node %d",
				(int)t->nodes[0].node);
		else if (t->nr_nodes)
			fprintf(f, "; the range's RAM is on %u nodes",
				t->nr_nodes);
		fputc('\n', f);
	}
	if (t->devmem_pages && t->nr_devmem == DMA_MAX_DEVMEM)
		fprintf(f, "  device memory: %" PRIu64 " pages in all (--json lists the first %d runs)\n",
			t->devmem_pages, DMA_MAX_DEVMEM);
}

static void json_attrs(struct json_writer *w, const struct report_dma *rd)
{
	const struct dma_totals *t = &rd->view->t;

	jw_newline(w);
	jw_kv_bool(w, "extended", t->info);
	if (!t->info)
		return;
	jw_key(w, "pinned");
	jw_begin_object(w);
	jw_kv_u64(w, "pages", t->pin_pages[PIN_YES]);
	jw_kv_u64(w, "spans", t->pin_spans[PIN_YES]);
	jw_end_object(w);
	jw_key(w, "unpinned");
	jw_begin_object(w);
	jw_kv_u64(w, "pages", t->pin_pages[PIN_NO]);
	jw_kv_u64(w, "spans", t->pin_spans[PIN_NO]);
	jw_end_object(w);
	jw_kv_u64(w, "pin_unknown_pages", t->pin_pages[PIN_UNKNOWN]);
	jw_key(w, "memtypes");
	jw_begin_object(w);
	for (int m = 1; m < DMA_NR_MEMTYPES; m++) {
		const char *name = ptwalk_memtype_name((unsigned int)m);

		if (t->memtype_pages[m] && name)
			jw_kv_u64(w, name, t->memtype_pages[m]);
	}
	jw_end_object(w);
	jw_kv_u64(w, "memtype_unknown_pages", t->memtype_pages[0]);
	jw_key(w, "nodes");
	jw_begin_array(w);
	for (unsigned int i = 0; i < t->nr_nodes; i++) {
		jw_begin_object(w);
		jw_kv_i64(w, "node", t->nodes[i].node);
		jw_kv_u64(w, "pages", t->nodes[i].pages);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_kv_u64(w, "other_node_pages", t->other_node_pages);
	jw_kv_u64(w, "nodeless_pages", t->nodeless_pages);
	jw_kv_u64(w, "devmem_pages", t->devmem_pages);
	jw_key(w, "devices");
	jw_begin_array(w);
	for (unsigned int i = 0; i < t->nr_devmem; i++) {
		const struct pci_owner *o = &rd->owners[i];

		jw_begin_object(w);
		jw_kv_hex(w, "pfn", t->devmem[i].pfn);
		jw_kv_u64(w, "pages", t->devmem[i].pages);
		if (o->found) {
			jw_kv_str(w, "pci_device", o->dev);
			jw_kv_i64(w, "bar", o->bar);
			jw_kv_i64(w, "numa_node", o->numa_node);
		} else {
			jw_kv_null(w, "pci_device");
			jw_kv_null(w, "bar");
			jw_kv_null(w, "numa_node");
		}
		jw_end_object(w);
	}
	jw_end_array(w);
}

void report_dma_text(struct report *r)
{
	struct report_dma *rd = r->dma;
	const struct dma_totals *t = &rd->view->t;
	FILE *f = r->out;

	text_summary(f, rd->view);
	text_attrs(f, rd);
	if (t->runs) {
		fprintf(f, "\n  %-14s %8s  %-12s %-15s %8s  %s\n", "VIRTUAL",
			"PAGES", "PFN", "PHYS", "ALIGN", "4 GiB");
		copy(rd, rd->runs, f);
		if (t->runs > rd->nr_runs)
			fprintf(f, "  ... %" PRIu64 " more runs (--json lists every run)\n",
				t->runs - rd->nr_runs);
	}
	if (t->holes) {
		fprintf(f, "\n  holes:\n");
		copy(rd, rd->holes, f);
		if (t->holes > rd->nr_holes)
			fprintf(f, "  ... %" PRIu64 " more holes (--json lists every hole)\n",
				t->holes - rd->nr_holes);
	}
}

void report_dma_json(struct report *r)
{
	struct report_dma *rd = r->dma;
	const struct dma_view *d = rd->view;
	const struct dma_totals *t = &d->t;
	struct json_writer *w = &r->json;

	jw_newline(w);
	jw_key(w, "dma");
	jw_begin_object(w);
	jw_kv_hex(w, "start", d->start);
	jw_kv_hex(w, "end", d->end);
	jw_kv_u64(w, "pages", t->pages);
	jw_kv_bool(w, "resident", dma_resident(d));
	jw_kv_bool(w, "locked", dma_locked(d));
	jw_key(w, "totals");
	jw_begin_object(w);
	jw_kv_u64(w, "runs", t->runs);
	jw_kv_u64(w, "frame_pages", t->frame_pages);
	jw_kv_u64(w, "largest_run", t->largest_run);
	jw_kv_u64(w, "min_align", t->min_align);
	jw_kv_u64(w, "runs_crossing_4g", t->runs_crossing_4g);
	jw_kv_u64(w, "runs_above_4g", t->runs_above_4g);
	jw_kv_u64(w, "pages_above_4g", t->pages_above_4g);
	jw_kv_u64(w, "holes", t->holes);
	jw_key(w, "hole_pages");
	jw_begin_object(w);
	for (int k = 0; k < NR_DMA_HOLE_KINDS; k++)
		jw_kv_u64(w, dma_hole_kind_name(k), t->hole_pages[k]);
	jw_end_object(w);
	jw_kv_u64(w, "vma_pages", t->vma_pages);
	jw_kv_u64(w, "locked_pages", t->locked_pages);
	jw_end_object(w);
	json_attrs(w, rd);
	jw_newline(w);
	jw_key(w, "runs");
	jw_begin_array(w);
	copy(rd, rd->runs, r->out);
	jw_end_array(w);
	jw_newline(w);
	jw_key(w, "holes");
	jw_begin_array(w);
	copy(rd, rd->holes, r->out);
	jw_end_array(w);
	jw_end_object(w);
	if (!rd->err)
		rd->err = jw_error(&rd->runs_json);
	if (!rd->err)
		rd->err = jw_error(&rd->holes_json);
}
