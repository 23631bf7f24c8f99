// SPDX-License-Identifier: GPL-2.0
/* ptcompare --json --faults: one object, the schema in docs/json.md. */
#include "model/device_class.h"
#include "model/dma_fault.h"
#include "module/ptwalk_names.h"
#include "report/fault_print.h"
#include "report/owner_print.h"
#include "report/json.h"

/* "key": hex when has, else null. */
static void kv_hex_if(struct json_writer *j, const char *key, bool has,
		      uint64_t v)
{
	jw_key(j, key);
	if (has)
		jw_hex_or_null(j, v, ~v);
	else
		jw_null(j);
}

/* "key": the processes mapping a frame now. */
static void json_frames(struct json_writer *j, const char *key,
			const struct fault_frame_mapping *frames, size_t n)
{
	jw_key(j, key);
	jw_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		const struct fault_frame_mapping *m = &frames[i];

		jw_begin_object(j);
		jw_kv_i64(j, "pid", m->pid);
		jw_kv_str(j, "comm", m->comm);
		jw_kv_hex(j, "start", m->start);
		jw_key(j, "memtype");
		jw_str_or_null(j, ptwalk_memtype_name(m->memtype));
		jw_end_object(j);
	}
	jw_end_array(j);
}

/* "key": v microseconds, or null when !has. */
static void kv_us_if(struct json_writer *j, const char *key, bool has,
		     uint64_t v)
{
	jw_key(j, key);
	if (has)
		jw_u64(j, v);
	else
		jw_null(j);
}

/* The last tracked mapping of the faulting page. */
static void json_dma_mapping(struct json_writer *j,
			     const struct fault_dma_match *x)
{
	const struct ptwalk_dma_mapping *m = &x->m;
	bool ctx = !(m->flags & PTWALK_DMA_F_ATOMIC);
	char t[32];

	jw_kv_hex(j, "dma", m->dma);
	jw_kv_u64(j, "size", m->size);
	jw_kv_hex_or_null(j, "phys", m->phys, PTWALK_DMA_PHYS_NONE);
	jw_kv_hex_or_null(j, "fault_phys", x->phys, PTWALK_DMA_PHYS_NONE);
	jw_kv_str(j, "kind", dma_kind_name(m->kind));
	jw_kv_str(j, "dir", dma_dir_name(m->dir));
	jw_kv_hex(j, "attrs", m->attrs);
	jw_kv_str(j, "map_time", fault_time_str(m->map_ns / 1000, t,
						sizeof(t)));
	jw_key(j, "pid");
	if (ctx)
		jw_i64(j, m->pid);
	else
		jw_null(j);
	jw_key(j, "comm");
	jw_str_or_null(j, ctx ? m->comm : NULL);
	jw_kv_bool(j, "live", x->live);
	jw_key(j, "unmap_time");
	jw_str_or_null(j, x->live ? NULL :
			  fault_time_str(m->unmap_ns / 1000, t, sizeof(t)));
	kv_us_if(j, "mapped_us_before", x->timed, x->mapped_us_before);
	kv_us_if(j, "unmapped_us_before", x->unmapped_before,
		 x->unmapped_us_before);
	kv_us_if(j, "unmapped_us_after", x->timed && !x->live &&
		 !x->unmapped_before, x->unmapped_us_after);
}

/* A kernel driver's device: its tracked mappings at the fault. */
static void json_dma(struct json_writer *j, const struct fault_dma_explained *d)
{
	const struct fault_dma_match *x = &d->match;
	bool read = d->asked && !d->note;
	char t[32];

	if (!jw_kv_object_or_null(j, "dma", d->asked))
		return;
	jw_key(j, "note");
	jw_str_or_null(j, d->note);
	jw_key(j, "tracked_since");
	jw_str_or_null(j, read ? fault_time_str(d->tracked_ns / 1000, t,
						sizeof(t)) : NULL);
	jw_kv_u64(j, "live", d->live);
	jw_kv_u64(j, "unmaps_kept", d->unmaps);
	if (jw_kv_object_or_null(j, "last_mapping", x->found)) {
		json_dma_mapping(j, x);
		jw_end_object(j);
	}
	jw_key(j, "cause");
	jw_str_or_null(j, x->found ? dma_fault_cause_name(x->cause) : NULL);
	jw_kv_bool(j, "tracked_after_fault", x->tracked_after);
	jw_kv_bool(j, "history_after_fault", x->history_after);
	jw_key(j, "frame");
	jw_str_or_null(j, d->has_frame ? dma_frame_name(d->frame) : NULL);
	json_frames(j, "frame_mappings", d->frames, d->nr_frames);
	jw_end_object(j);
}

static void json_fault(struct json_writer *j, const struct fault_report *r,
		       const struct fault_explained *x)
{
	const struct iommu_fault *f = &x->g.first;
	char t[32];

	jw_begin_line_object(j);
	jw_key(j, "time");
	jw_str_or_null(j, f->has_time ? fault_time_str(x->g.first_us, t,
						       sizeof(t)) : NULL);
	jw_key(j, "last_time");
	jw_str_or_null(j, f->has_time ? fault_time_str(x->g.last_us, t,
						       sizeof(t)) : NULL);
	jw_key(j, "wall_time");
	jw_str_or_null(j, f->wall[0] ? f->wall : NULL);
	jw_kv_u64(j, "count", x->g.count);
	jw_key(j, "device");
	jw_str_or_null(j, x->device[0] ? x->device :
			  f->device[0] ? f->device : NULL);
	jw_key(j, "driver");
	jw_str_or_null(j, x->driver[0] ? x->driver : NULL);
	jw_kv_str(j, "iommu", f->iommu);
	jw_key(j, "format");
	jw_str_or_null(j, f->format);
	jw_key(j, "iommu_device");
	jw_str_or_null(j, f->iommu_dev[0] ? f->iommu_dev : NULL);
	kv_hex_if(j, "stream_id", f->has_sid, f->sid);
	jw_key(j, "master");
	jw_str_or_null(j, f->master[0] ? f->master : NULL);
	kv_hex_if(j, "pasid", f->has_pasid, f->pasid);
	jw_key(j, "iova");
	jw_hex_or_null(j, f->has_iova ? f->iova : PTWALK_PFN_NONE,
		       PTWALK_PFN_NONE);
	jw_kv_str(j, "access", iommu_access_name(f->access));
	kv_hex_if(j, "reason_code", f->has_code, f->code);
	jw_kv_str(j, "reason", f->reason);
	jw_kv_str(j, "class", iommu_class_name(f->cls));
	kv_hex_if(j, "domain_id", f->has_domain_id, f->domain_id);
	kv_hex_if(j, "flags", f->has_flags, f->flags);
	jw_key(j, "live_note");
	jw_str_or_null(j, x->live_note);
	jw_key(j, "domain");
	jw_str_or_null(j, x->has_domain ? iommu_domain_name(x->domain) : NULL);
	jw_kv_hex_or_null(j, "device_pfn", x->device_pfn, PTWALK_PFN_NONE);
	jw_key(j, "device_note");
	jw_str_or_null(j, x->device_note);
	jw_key(j, "device_read");
	jw_str_or_null(j, domain_read_name(x->device_read));
	jw_kv_u64(j, "device_stopped_us", x->device_stopped_ns / 1000);
	if (jw_kv_object_or_null(j, "owner", x->owner_pid)) {
		jw_kv_i64(j, "pid", x->owner_pid);
		jw_kv_str(j, "comm", x->owner_comm);
		jw_end_object(j);
	}
	if (jw_kv_object_or_null(j, "mapping_now", x->has_mapping_now)) {
		jw_kv_start_end(j, x->vma_start, x->vma_end);
		jw_kv_str(j, "name", x->vma_name);
		jw_kv_hex_or_null(j, "walk_pfn", x->walk_pfn, PTWALK_PFN_NONE);
		jw_end_object(j);
	}
	if (jw_kv_object_or_null(j, "last_mapping", x->last.found)) {
		jw_kv_hex(j, "iova", x->last.iova);
		jw_kv_u64(j, "pages", x->last.pages);
		jw_kv_hex_or_null(j, "pfn", x->last.pfn, PTWALK_PFN_NONE);
		jw_kv_i64(j, "map_pid", x->last.map_pid);
		jw_key(j, "unmapped_ms_before");
		if (x->last.unmapped)
			jw_u64(j, x->last.unmapped_ms_before);
		else
			jw_null(j);
		jw_key(j, "pid");
		if (x->last.unmapped)
			jw_i64(j, x->last.unmap_pid);
		else
			jw_null(j);
		jw_kv_u64(j, "events_dropped", x->last.dropped);
		jw_end_object(j);
	}
	jw_key(j, "recorder_since");
	jw_str_or_null(j, x->has_recorder && x->recorder_since_ns ?
		       fault_time_str(x->recorder_since_ns / 1000, t,
				      sizeof(t)) : NULL);
	json_frames(j, "frame_mappings", x->frames, x->nr_frames);
	json_dma(j, &x->dma);
	jw_end_object(j);
	(void)r;
}

int fault_print_json(FILE *f, const struct fault_report *r)
{
	struct json_writer j;

	jw_init(&j, f);
	jw_begin_object(&j);
	jw_kv_str(&j, "kernel", r->kernel);
	jw_kv_u64(&j, "page_size", 1ULL << r->page_shift);
	jw_line_key(&j, "faults");
	jw_begin_array(&j);
	for (size_t i = 0; i < r->nr_faults; i++)
		json_fault(&j, r, &r->faults[i]);
	jw_end_array(&j);
	jw_line_key(&j, "faults_unexplained");
	jw_begin_array(&j);
	for (size_t i = 0; i < r->nr_unexplained; i++) {
		const struct fault_unexplained *u = &r->unexplained[i];

		jw_begin_line_object(&j);
		jw_kv_str(&j, "why", u->why);
		jw_key(&j, "device");
		jw_str_or_null(&j, u->device[0] ? u->device : NULL);
		jw_key(&j, "iova");
		jw_hex_or_null(&j, u->has_iova ? u->iova : PTWALK_PFN_NONE,
			       PTWALK_PFN_NONE);
		jw_kv_u64(&j, "count", u->count);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_line_key(&j, "faults_undecoded");
	jw_begin_array(&j);
	for (size_t i = 0; i < r->nr_undecoded; i++) {
		const struct fault_undecoded *u = &r->undecoded[i];

		jw_begin_line_object(&j);
		jw_kv_u64(&j, "line", u->line);
		jw_kv_str(&j, "driver", u->driver);
		jw_key(&j, "format");
		jw_str_or_null(&j, u->format);
		jw_kv_str(&j, "not_read", u->what);
		jw_key(&j, "text");
		jw_str_or_null(&j, u->text[0] ? u->text : NULL);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_kv_u64(&j, "undecoded_count", r->undecoded_total);
	jw_kv_u64(&j, "log_records_read", r->records_read);
	jw_end_object(&j);
	return jw_finish(&j);
}
