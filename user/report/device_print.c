// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "model/page.h"
#include "report/device_print.h"
#include "report/json.h"
#include "report/owner_print.h"

/* "0x1234 (System RAM)" or "none" for frame pfn, into buf. */
static const char *frame_text(const struct device_info *d, uint64_t pfn,
			      char *buf, size_t size)
{
	char name[160] = "";

	if (pfn == PTWALK_PFN_NONE) {
		snprintf(buf, size, "none");
		return buf;
	}
	if (d->iomem)
		iomem_path(d->iomem, iomem_find(d->iomem,
						pfn << d->page_shift),
			   name, sizeof(name));
	snprintf(buf, size, "0x%" PRIx64 "%s%s%s", pfn, *name ? " (" : "",
		 name, *name ? ")" : "");
	return buf;
}

static void header_text(FILE *f, const struct device_info *d)
{
	const char *dom = iommu_domain_name(d->domain);

	fprintf(f, "device %s, driver %s, IOMMU domain %s", d->name,
		*d->driver ? d->driver : "(none bound)", dom ? dom : "?");
	if (d->domain == PTWALK_IOMMU_NONE)
		fprintf(f, " (no IOMMU: device address = physical)\n");
	else if (d->domain == PTWALK_IOMMU_IDENTITY)
		fprintf(f, " (passthrough: device address = physical)\n");
	else
		fprintf(f, ", aperture 0x%" PRIx64 "-0x%" PRIx64 "\n",
			d->aperture_start, d->aperture_end);
	owner_print_text(f, d->read, d->owners);
}

void device_print_text(FILE *f, const struct device_info *d,
		       const struct device_view *v)
{
	char a[200], b[200];

	header_text(f, d);
	fprintf(f, "process %d (%s), range 0x%" PRIx64 "-0x%" PRIx64
		", device address 0x%" PRIx64 "%s\n", (int)d->pid, d->comm,
		d->start, d->end, d->iova_start,
		d->iova_as_va ? " (IOVA = VA)" : "");
	if (v->domain_changed)
		fprintf(f, "note: the device changed domain during the query\n");
	for (size_t i = 0; i < v->nr_ranges; i++) {
		const struct device_range *r = &v->ranges[i];

		fprintf(f, "0x%" PRIx64 "-0x%" PRIx64 " iova 0x%" PRIx64
			" %" PRIu64 " page%s %s: device frame %s, page tables %s\n",
			r->start, r->start + (r->pages << d->page_shift),
			r->iova, r->pages, r->pages == 1 ? "" : "s",
			device_class_name(r->cls),
			frame_text(d, r->device_pfn, a, sizeof(a)),
			frame_text(d, r->walk_pfn, b, sizeof(b)));
	}
	fprintf(f, "DMA view (device): %" PRIu64 " device address pages in 1 contiguous range, "
		"%" PRIu64 " physically contiguous run%s of device frames\n",
		(d->end - d->start) >> d->page_shift, v->device_runs,
		v->device_runs == 1 ? "" : "s");
	fprintf(f, "summary:");
	for (int c = 0; c < DEVICE_NR_CLASSES; c++)
		fprintf(f, " %s %" PRIu64 "%s", device_class_name(c),
			v->pages[c], c + 1 < DEVICE_NR_CLASSES ? "," : "\n");
	if (v->pages[DEVICE_STALE])
		fprintf(f, "verdict: the device reaches %" PRIu64
			" page%s the process no longer maps there (device_stale)\n",
			v->pages[DEVICE_STALE],
			v->pages[DEVICE_STALE] == 1 ? "" : "s");
}

static void device_head_json(struct json_writer *w,
			     const struct device_info *d)
{
	jw_kv_str(w, "name", d->name);
	jw_key(w, "driver");
	jw_str_or_null(w, *d->driver ? d->driver : NULL);
	jw_key(w, "domain");
	jw_str_or_null(w, iommu_domain_name(d->domain));
	jw_kv_hex(w, "aperture_start", d->aperture_start);
	jw_kv_hex(w, "aperture_end", d->aperture_end);
	owner_print_json(w, d->read, d->owners);
}

int device_print_json(FILE *f, const struct device_info *d,
		      const struct device_view *v)
{
	struct json_writer w;

	jw_init(&w, f);
	jw_begin_object(&w);
	jw_kv_i64(&w, "pid", d->pid);
	jw_kv_str(&w, "comm", d->comm);
	jw_kv_start_end(&w, d->start, d->end);
	jw_line_key(&w, "device");
	jw_begin_object(&w);
	device_head_json(&w, d);
	jw_kv_hex(&w, "iova_start", d->iova_start);
	jw_kv_bool(&w, "iova_as_va", d->iova_as_va);
	jw_kv_bool(&w, "domain_changed", v->domain_changed);
	jw_kv_u64(&w, "device_runs", v->device_runs);
	jw_key(&w, "ranges");
	jw_begin_array(&w);
	for (size_t i = 0; i < v->nr_ranges; i++) {
		const struct device_range *r = &v->ranges[i];

		jw_begin_line_object(&w);
		jw_kv_hex(&w, "start", r->start);
		jw_kv_hex(&w, "iova", r->iova);
		jw_kv_u64(&w, "pages", r->pages);
		jw_kv_str(&w, "class", device_class_name(r->cls));
		jw_kv_hex_or_null(&w, "device_pfn", r->device_pfn,
				  PTWALK_PFN_NONE);
		jw_kv_hex_or_null(&w, "walk_pfn", r->walk_pfn,
				  PTWALK_PFN_NONE);
		jw_end_object(&w);
	}
	jw_end_array(&w);
	jw_end_object(&w);
	jw_line_key(&w, "summary");
	jw_begin_object(&w);
	for (int c = 0; c < DEVICE_NR_CLASSES; c++)
		jw_kv_u64(&w, device_class_name(c), v->pages[c]);
	jw_end_object(&w);
	jw_end_object(&w);
	return jw_finish(&w);
}

void device_translate_text(FILE *f, const struct device_info *d,
			   uint64_t iova, uint64_t pfn)
{
	char a[200];

	header_text(f, d);
	if (pfn == PTWALK_PFN_NONE)
		fprintf(f, "IOVA 0x%" PRIx64 ": no translation\n", iova);
	else
		fprintf(f, "IOVA 0x%" PRIx64 " -> frame %s, physical 0x%" PRIx64 "\n",
			iova, frame_text(d, pfn, a, sizeof(a)),
			pfn << d->page_shift);
}

int device_translate_json(FILE *f, const struct device_info *d, uint64_t iova,
			  uint64_t pfn)
{
	struct json_writer w;

	jw_init(&w, f);
	jw_begin_object(&w);
	jw_line_key(&w, "device");
	jw_begin_object(&w);
	device_head_json(&w, d);
	jw_kv_hex(&w, "iova", iova);
	jw_kv_hex_or_null(&w, "device_pfn", pfn, PTWALK_PFN_NONE);
	jw_end_object(&w);
	jw_end_object(&w);
	return jw_finish(&w);
}
