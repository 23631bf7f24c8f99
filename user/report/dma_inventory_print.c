// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <string.h>
#include "model/device_class.h"
#include "model/dma_fault.h"
#include "report/dma_inventory_print.h"
#include "report/json.h"

static const char *domain_name(uint32_t d)
{
	const char *s = iommu_domain_name(d);

	return s ? s : "?";
}

unsigned int dma_inventory_count(const struct dma_inventory *inv,
				 unsigned int per[DMA_NR_FINDINGS])
{
	unsigned int total = 0;

	for (int f = 0; f < DMA_NR_FINDINGS; f++)
		per[f] = 0;
	for (size_t i = 0; i < inv->n; i++)
		for (int f = 0; f < DMA_NR_FINDINGS; f++)
			if (inv->items[i].findings & (1u << f)) {
				per[f]++;
				total++;
			}
	return total;
}

/* The frame a page is shown with: its own, or the IOMMU's. */
static uint64_t shown_pfn(const struct dma_page *p)
{
	return p->pfn != PTWALK_PFN_NONE ? p->pfn :
	       p->iommu_read ? p->iommu_pfn : PTWALK_PFN_NONE;
}

static const struct dma_page_who nobody;

static const struct dma_page_who *who_of(const struct dma_item *it, size_t i)
{
	return it->who ? &it->who[i] : &nobody;
}

/* Whether page i continues page i - 1's line: the next frame, told alike. */
static bool same_line(const struct dma_item *it, size_t i)
{
	const struct dma_page *a = &it->pages[i - 1], *b = &it->pages[i];
	const struct dma_page_who *wa = who_of(it, i - 1), *wb = who_of(it, i);
	uint64_t pa = shown_pfn(a), pb = shown_pfn(b);

	return pa != PTWALK_PFN_NONE && pb == pa + 1 && a->what == b->what &&
	       !wa->pid && !wb->pid && a->iommu_read == b->iommu_read &&
	       (!a->iommu_read ||
		(a->iommu_pfn == a->pfn && b->iommu_pfn == b->pfn)) &&
	       !wa->iomem[0] && !wb->iomem[0];
}

static void page_text(FILE *f, const struct dma_item *it, size_t i,
		      size_t run, unsigned int shift)
{
	const struct dma_page *pg = &it->pages[i];
	const struct dma_page_who *w = who_of(it, i);
	uint64_t pfn = shown_pfn(pg);

	fprintf(f, "    +0x%" PRIx64, (uint64_t)i << shift);
	if (run > 1)
		fprintf(f, "-0x%" PRIx64, (uint64_t)(i + run) << shift);
	if (pfn == PTWALK_PFN_NONE && (it->m.flags & PTWALK_DMA_F_VMAPPED) &&
	    !pg->iommu_read)
		fprintf(f, " frame unknown (a vmap()ed buffer: --dma-api names it)");
	else if (pfn == PTWALK_PFN_NONE)
		fprintf(f, " frame unknown");
	else
		fprintf(f, " pfn 0x%" PRIx64 "%s %s", pfn, run > 1 ? "..." : "",
			dma_frame_name(pg->what));
	if (w->pid)
		fprintf(f, " of pid %d (%.16s) at 0x%" PRIx64, w->pid, w->comm,
			w->va);
	else if (pg->what == DMA_FRAME_ANONYMOUS ||
		 pg->what == DMA_FRAME_PAGE_CACHE)
		fprintf(f, " (no process maps it)");
	if (w->fstype[0])
		fprintf(f, " file %s:%s (ino %" PRIu64 ")", w->fstype,
			w->file[0] ? w->file : "(no name)", w->ino);
	else if (w->file[0])
		fprintf(f, " file %s", w->file);
	if (w->iomem[0])
		fprintf(f, " %s", w->iomem);
	if (!pg->iommu_read)
		;
	else if (pg->iommu_pfn == PTWALK_PFN_NONE)
		fprintf(f, "; iommu: no translation");
	else if (pg->pfn == PTWALK_PFN_NONE)
		fprintf(f, "; the frame the iommu translates to");
	else if (pg->iommu_pfn != pg->pfn)
		fprintf(f, "; iommu: pfn 0x%" PRIx64, pg->iommu_pfn);
	else
		fprintf(f, "; iommu agrees");
	fputc('\n', f);
}

static void item_text(FILE *f, const struct dma_item *it, bool dma_api,
		      unsigned int shift)
{
	bool walked = it->m.kind == DMA_KIND_WALKED;

	/* a walk knows neither the direction nor a pin */
	fprintf(f, "  dma 0x%" PRIx64 " +0x%" PRIx64 " %s%s%s",
		(uint64_t)it->m.dma, (uint64_t)it->m.size, dma_kind_name(it->m.kind),
		walked ? "" : " ", walked ? "" : dma_dir_name(it->m.dir));
	if ((uint64_t)it->m.phys != PTWALK_DMA_PHYS_NONE)
		fprintf(f, " phys 0x%" PRIx64, (uint64_t)it->m.phys);
	if (it->m.flags & PTWALK_DMA_F_PINNED)
		fprintf(f, " pinned");
	if (it->m.flags & PTWALK_DMA_F_UNMAP_OPTIONAL)
		fprintf(f, " unmap-optional");
	if (it->m.pid)
		fprintf(f, " by %d (%.16s)", it->m.pid, it->m.comm);
	else if (it->m.kind != DMA_KIND_WALKED)
		fprintf(f, " outside task context");
	for (int k = 0; k < DMA_NR_FINDINGS; k++)
		if (it->findings & (1u << k))
			fprintf(f, " [%s]", dma_finding_name(k));
	fputc('\n', f);
	if (dma_api && it->iommu_err)
		fprintf(f, "    iommu domain not read: %s\n",
			strerror(-it->iommu_err));
	else if (dma_api)
		fprintf(f, "    iommu domain %s\n", domain_name(it->domain));
	for (size_t i = 0, run; i < it->n; i += run) {
		for (run = 1; i + run < it->n && same_line(it, i + run); run++)
			;
		page_text(f, it, i, run, shift);
	}
	if (it->n < it->nr_pages)
		fprintf(f, "    (%" PRIu64 " more pages not listed: %d at most per mapping)\n",
			it->nr_pages - it->n, DMA_PAGES_MAX);
}

void dma_inventory_print_text(FILE *f, const struct dma_inventory *inv)
{
	unsigned int per[DMA_NR_FINDINGS];
	unsigned int total = dma_inventory_count(inv, per);

	if (inv->walked) {
		fprintf(f, "%s (driver %s): DMA API not tracked; %u runs of device addresses translated in its IOMMU domain over",
			inv->device, inv->driver[0] ? inv->driver : "none",
			inv->q->live);
		for (size_t w = 0; w < inv->nr_windows; w++)
			fprintf(f, "%s 0x%" PRIx64 "-0x%" PRIx64, w ? "," : "",
				inv->windows[w].start, inv->windows[w].end);
		fprintf(f, "%s\n", inv->q->overflow ? " (more not listed)" : "");
	} else {
		fprintf(f, "%s (driver %s): %u live DMA mappings tracked, %" PRIu64
			" not kept (no room), %" PRIu64 " unmaps of mappings not kept\n",
			inv->device, inv->driver[0] ? inv->driver : "none",
			inv->q->live, (uint64_t)inv->q->overflow,
			(uint64_t)inv->q->unmapped_unknown);
	}
	if (inv->unmap_optional || inv->q->expired)
		fprintf(f, "%zu unmap-optional (the DMA API lets the driver skip their unmap, so they may be over: not judged); the driver unmapped %"
			PRIu64 " such since tracking began, %" PRIu64
			" older ones were dropped for room\n", inv->unmap_optional,
			(uint64_t)inv->q->optional_unmapped,
			(uint64_t)inv->q->expired);
	for (size_t i = 0; i < inv->n; i++)
		item_text(f, &inv->items[i], inv->dma_api, inv->page_shift);
	if (inv->users_err)
		fprintf(f, "processes mapping the user frames: not looked for (%s)\n",
			strerror(-inv->users_err));
	for (int k = 0; k < DMA_NR_FINDINGS; k++)
		if (per[k])
			fprintf(f, "%s: %u (%s)\n", dma_finding_name(k), per[k],
				dma_finding_doc(k));
	fprintf(f, "%u finding%s\n", total, total == 1 ? "" : "s");
}

static void json_hex_or_null(FILE *f, uint64_t v, uint64_t none)
{
	if (v == none)
		fprintf(f, "null");
	else
		fprintf(f, "\"0x%" PRIx64 "\"", v);
}

static void json_string_or_null(FILE *f, const char *s)
{
	if (s[0])
		json_string(f, s);
	else
		fprintf(f, "null");
}

static void page_json(FILE *f, const struct dma_item *it, size_t i,
		      unsigned int shift)
{
	const struct dma_page *pg = &it->pages[i];
	const struct dma_page_who *w = who_of(it, i);

	fprintf(f, "%s{\"dma\": \"0x%" PRIx64 "\", \"pfn\": ", i ? ", " : "",
		((uint64_t)it->m.dma >> shift << shift) + ((uint64_t)i << shift));
	json_hex_or_null(f, shown_pfn(pg), PTWALK_PFN_NONE);
	fprintf(f, ", \"pfn_from\": \"%s\", \"frame\": \"%s\", \"pid\": ",
		pg->pfn != PTWALK_PFN_NONE ? "mapping" :
		shown_pfn(pg) != PTWALK_PFN_NONE ? "iommu" : "unknown",
		dma_frame_name(pg->what));
	if (w->pid) {
		char comm[17] = "";

		for (int k = 0; k < 16 && w->comm[k]; k++)
			comm[k] = w->comm[k];
		fprintf(f, "%d, \"va\": \"0x%" PRIx64 "\", \"comm\": ", w->pid,
			w->va);
		json_string(f, comm);
	} else {
		fprintf(f, "null, \"va\": null, \"comm\": null");
	}
	fprintf(f, ", \"file\": ");
	json_string_or_null(f, w->file);
	fprintf(f, ", \"fs\": ");
	json_string_or_null(f, w->fstype);
	fprintf(f, ", \"ino\": ");
	if (w->ino)
		fprintf(f, "%" PRIu64, w->ino);
	else
		fprintf(f, "null");
	fprintf(f, ", \"iomem\": ");
	json_string_or_null(f, w->iomem);
	fprintf(f, ", \"iommu_read\": %s, \"iommu_pfn\": ",
		pg->iommu_read ? "true" : "false");
	if (pg->iommu_read)
		json_hex_or_null(f, pg->iommu_pfn, PTWALK_PFN_NONE);
	else
		fprintf(f, "null");
	fputc('}', f);
}

static void item_json(FILE *f, const struct dma_item *it, bool dma_api,
		      unsigned int shift)
{
	const struct dma_page *first = it->n ? &it->pages[0] : NULL;
	int sep = 0;

	bool walked = it->m.kind == DMA_KIND_WALKED;

	fprintf(f, "{\"dma\": \"0x%" PRIx64 "\", \"size\": %" PRIu64
		", \"kind\": \"%s\", \"dir\": %s%s%s, \"attrs\": \"0x%"
		PRIx64 "\", \"phys\": ", (uint64_t)it->m.dma,
		(uint64_t)it->m.size, dma_kind_name(it->m.kind),
		walked ? "null" : "\"", walked ? "" : dma_dir_name(it->m.dir),
		walked ? "" : "\"", (uint64_t)it->m.attrs);
	json_hex_or_null(f, it->m.phys, PTWALK_DMA_PHYS_NONE);
	fprintf(f, ", \"frame\": \"%s\", \"iomem\": ",
		dma_frame_name(first ? first->what : DMA_FRAME_UNKNOWN));
	json_string_or_null(f, it->n ? who_of(it, 0)->iomem : "");
	fprintf(f, ", \"pinned\": %s, \"vmapped\": %s, \"unmap_optional\": %s, \"pid\": ",
		walked ? "null" :
		it->m.flags & PTWALK_DMA_F_PINNED ? "true" : "false",
		it->m.flags & PTWALK_DMA_F_VMAPPED ? "true" : "false",
		it->m.flags & PTWALK_DMA_F_UNMAP_OPTIONAL ? "true" : "false");
	if (it->m.pid) {
		char comm[17] = "";

		for (int k = 0; k < 16 && it->m.comm[k]; k++)
			comm[k] = it->m.comm[k];
		fprintf(f, "%d, \"comm\": ", it->m.pid);
		json_string(f, comm);
	} else {
		fprintf(f, "null, \"comm\": null");
	}
	fprintf(f, ", \"map_ns\": %" PRIu64 ", \"pages\": %" PRIu64
		", \"pages_listed\": %zu, \"iommu_domain\": ",
		(uint64_t)it->m.map_ns, it->nr_pages, it->n);
	if (dma_api && !it->iommu_err)
		fprintf(f, "\"%s\"", domain_name(it->domain));
	else
		fprintf(f, "null");
	fprintf(f, ", \"iommu_error\": ");
	if (dma_api && it->iommu_err)
		json_string(f, strerror(-it->iommu_err));
	else
		fprintf(f, "null");
	fprintf(f, ", \"frames\": [");
	for (size_t i = 0; i < it->n; i++)
		page_json(f, it, i, shift);
	fprintf(f, "], \"findings\": [");
	for (int k = 0; k < DMA_NR_FINDINGS; k++)
		if (it->findings & (1u << k)) {
			fprintf(f, "%s\"%s\"", sep ? ", " : "",
				dma_finding_name(k));
			sep = 1;
		}
	fprintf(f, "]}");
}

void dma_inventory_print_json(FILE *f, const struct dma_inventory *inv)
{
	unsigned int per[DMA_NR_FINDINGS];
	unsigned int total = dma_inventory_count(inv, per);

	fprintf(f, "{\"device\": ");
	json_string(f, inv->device);
	fprintf(f, ", \"driver\": ");
	json_string_or_null(f, inv->driver);
	fprintf(f, ", \"live\": %u, \"capacity\": %u, \"overflow\": %" PRIu64
		", \"unmapped_unknown\": %" PRIu64 ", \"unmap_optional\": %zu"
		", \"optional_unmapped\": %" PRIu64 ", \"expired\": %" PRIu64
		", \"dma_api\": %s"
		", \"source\": \"%s\", \"walk\": ",
		inv->q->live, inv->q->capacity, (uint64_t)inv->q->overflow,
		(uint64_t)inv->q->unmapped_unknown, inv->unmap_optional,
		(uint64_t)inv->q->optional_unmapped, (uint64_t)inv->q->expired,
		inv->dma_api ? "true" : "false",
		inv->walked ? "domain_walk" : "tracked");
	if (inv->walked) {
		fputc('[', f);
		for (size_t w = 0; w < inv->nr_windows; w++)
			fprintf(f, "%s{\"start\": \"0x%" PRIx64 "\", \"end\": \"0x%"
				PRIx64 "\"}", w ? ", " : "", inv->windows[w].start,
				inv->windows[w].end);
		fputc(']', f);
	} else {
		fprintf(f, "null");
	}
	fprintf(f, ", \"pages_listed_max\": %d, \"mappings\": [", DMA_PAGES_MAX);
	for (size_t i = 0; i < inv->n; i++) {
		if (i)
			fprintf(f, ", ");
		item_json(f, &inv->items[i], inv->dma_api, inv->page_shift);
	}
	fprintf(f, "], \"users_error\": ");
	if (inv->users_err)
		json_string(f, strerror(-inv->users_err));
	else
		fprintf(f, "null");
	fprintf(f, ", \"findings\": {");
	for (int k = 0; k < DMA_NR_FINDINGS; k++)
		fprintf(f, "%s\"%s\": %u", k ? ", " : "", dma_finding_name(k),
			per[k]);
	fprintf(f, "}, \"total_findings\": %u}\n", total);
}
