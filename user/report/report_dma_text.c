// SPDX-License-Identifier: GPL-2.0
/*
 * The "DMA view" section of the text report.  What a driver needs before
 * it maps the range for DMA: how many scatter-gather entries it takes,
 * whether 32-bit DMA reaches it, whether every page is resident and
 * whether anything keeps it there.  The first runs and holes are shown,
 * then how many more there are.
 */
#include <inttypes.h>
#include "model/page.h"
#include "module/ptwalk_names.h"
#include "report/format.h"
#include "report/report_dma.h"

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

void report_dma_text_run(const struct dma_run *run, void *arg)
{
	struct report_dma *rd = arg;
	uint64_t phys = run->pfn << run->page_shift;
	char align[32];

	if (rd->nr_runs >= REPORT_DMA_TEXT_RUNS)
		return;
	format_size(align, sizeof(align), dma_align(phys));
	fprintf(rd->runs, "  0x%012" PRIx64 " %8" PRIu64 "  0x%-10" PRIx64
		" 0x%-13" PRIx64 " %8s  %s\n", run->start, run->pages, run->pfn,
		phys, align, four_gib(run));
	rd->nr_runs++;
}

void report_dma_text_hole(const struct dma_hole *h, void *arg)
{
	struct report_dma *rd = arg;
	if (rd->nr_holes >= REPORT_DMA_TEXT_HOLES)
		return;
	fprintf(rd->holes, "  0x%012" PRIx64 " %8" PRIu64 " page%s  %s\n",
		h->start, h->pages, h->pages == 1 ? " " : "s",
		dma_hole_kind_name(h->kind));
	rd->nr_holes++;
}

static void text_summary(FILE *f, const struct dma_view *d)
{
	const struct dma_totals *t = &d->t;
	char size[32], largest[32], align[32];
	uint64_t holes = t->pages - t->frame_pages;

	format_size(size, sizeof(size), t->pages << t->page_shift);
	fprintf(f, "\nDMA view of 0x%" PRIx64 "-0x%" PRIx64
		" (%" PRIu64 " pages, %s), from ptwalk's frames:\n",
		d->start, d->end, t->pages, size);
	if (t->runs) {
		format_size(largest, sizeof(largest),
			    t->largest_run << t->page_shift);
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

/* Pinned state, memory types, nodes, devices: from ptwalk's records. */
static void text_attrs(FILE *f, const struct report_dma *rd)
{
	const struct dma_totals *t = &rd->view->t;
	bool any = false;

	if (!t->info)
		return;
	fprintf(f, "  pinned: %" PRIu64 " page%s DMA-pinned in %" PRIu64
		" span%s, %" PRIu64 " not pinned in %" PRIu64 " span%s",
		t->pin_pages[PIN_YES], plural(t->pin_pages[PIN_YES]),
		t->pin_spans[PIN_YES], plural(t->pin_spans[PIN_YES]),
		t->pin_pages[PIN_NO], t->pin_spans[PIN_NO],
		plural(t->pin_spans[PIN_NO]));
	if (t->pin_pages[PIN_UNKNOWN])
		fprintf(f, ", %" PRIu64 " unknown (no struct page, or a special entry's, which is not read)",
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
			t->devmem[i].pfn << t->page_shift);
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

void report_dma_text(struct report_dma *rd, FILE *f)
{
	const struct dma_totals *t = &rd->view->t;

	text_summary(f, rd->view);
	text_attrs(f, rd);
	if (t->runs) {
		fprintf(f, "\n  %-14s %8s  %-12s %-15s %8s  %s\n", "VIRTUAL",
			"PAGES", "PFN", "PHYS", "ALIGN", "4 GiB");
		report_dma_copy(rd, rd->runs, f);
		if (t->runs > rd->nr_runs)
			fprintf(f, "  ... %" PRIu64 " more runs (--json lists every run)\n",
				t->runs - rd->nr_runs);
	}
	if (t->holes) {
		fprintf(f, "\n  holes:\n");
		report_dma_copy(rd, rd->holes, f);
		if (t->holes > rd->nr_holes)
			fprintf(f, "  ... %" PRIu64 " more holes (--json lists every hole)\n",
				t->holes - rd->nr_holes);
	}
}
