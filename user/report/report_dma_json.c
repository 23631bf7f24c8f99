// SPDX-License-Identifier: GPL-2.0
/* The "dma" object of the JSON document: every run and hole (docs/json.md). */
#include "model/page.h"
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "report/report_dma.h"

void report_dma_json_run(const struct dma_run *run, void *arg)
{
	struct report_dma *rd = arg;
	struct json_writer *w = &rd->runs_json;
	uint64_t phys = run->pfn << run->page_shift;

	jw_begin_line_object(w);
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

void report_dma_json_hole(const struct dma_hole *h, void *arg)
{
	struct report_dma *rd = arg;
	struct json_writer *w = &rd->holes_json;

	jw_begin_line_object(w);
	jw_kv_hex(w, "start", h->start);
	jw_kv_u64(w, "pages", h->pages);
	jw_kv_str(w, "kind", dma_hole_kind_name(h->kind));
	jw_end_object(w);
	rd->nr_holes++;
}

/* {"pages":N,"spans":N} of the pages in one pinned state. */
static void pin_state(struct json_writer *w, const char *key,
		      const struct dma_totals *t, enum dma_pin_state pin)
{
	jw_key(w, key);
	jw_begin_object(w);
	jw_kv_u64(w, "pages", t->pin_pages[pin]);
	jw_kv_u64(w, "spans", t->pin_spans[pin]);
	jw_end_object(w);
}

static void json_attrs(struct json_writer *w, const struct report_dma *rd)
{
	const struct dma_totals *t = &rd->view->t;

	jw_line_key(w, "extended");
	jw_bool(w, t->info);
	if (!t->info)
		return;
	pin_state(w, "pinned", t, PIN_YES);
	pin_state(w, "unpinned", t, PIN_NO);
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

void report_dma_json(struct report_dma *rd, struct json_writer *w,
		     FILE *out)
{
	const struct dma_view *d = rd->view;
	const struct dma_totals *t = &d->t;

	jw_line_key(w, "dma");
	jw_begin_object(w);
	jw_kv_start_end(w, d->start, d->end);
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
	jw_line_key(w, "runs");
	jw_begin_array(w);
	report_dma_copy(rd, rd->runs, out);
	jw_end_array(w);
	jw_line_key(w, "holes");
	jw_begin_array(w);
	report_dma_copy(rd, rd->holes, out);
	jw_end_array(w);
	jw_end_object(w);
	if (!rd->err)
		rd->err = jw_error(&rd->runs_json);
	if (!rd->err)
		rd->err = jw_error(&rd->holes_json);
}
