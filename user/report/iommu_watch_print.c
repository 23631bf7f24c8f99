// SPDX-License-Identifier: GPL-2.0
/* ptcompare --iommu --watch: text lines, or JSON Lines. */
#include <inttypes.h>
#include "report/fault_print.h"
#include "report/format.h"
#include "report/iommu_watch_print.h"
#include "report/json.h"

void iommu_watch_print_start(FILE *f, bool json,
			     const struct iommu_watch_info *w)
{
	struct json_writer j;

	if (!json) {
		fprintf(f, "watching %s (%s), ", w->device,
			w->driver[0] ? w->driver : "no driver");
		if (w->whole)
			fputs("every IOVA", f);
		else
			fprintf(f, "IOVA 0x%" PRIx64 "-0x%" PRIx64, w->start,
				w->end);
		fprintf(f, ", for %u s, ptwalk's recorder read every %u ms from event %" PRIu64 ": ",
			w->seconds, w->interval_ms, w->from_seq);
		if (w->owner)
			fprintf(f, "pid %d (%s) holds its VFIO file\n",
				(int)w->owner, w->owner_comm);
		else
			fputs("no process holds its VFIO file now\n", f);
		fflush(f);
		return;
	}
	jw_event_begin(&j, f, "start");
	jw_kv_str(&j, "device", w->device);
	jw_key(&j, "driver");
	jw_str_or_null(&j, w->driver[0] ? w->driver : NULL);
	if (jw_kv_object_or_null(&j, "range", !w->whole)) {
		jw_kv_start_end(&j, w->start, w->end);
		jw_end_object(&j);
	}
	jw_kv_u64(&j, "seconds", w->seconds);
	jw_kv_u64(&j, "interval_ms", w->interval_ms);
	jw_kv_u64(&j, "from_seq", w->from_seq);
	if (jw_kv_object_or_null(&j, "owner", w->owner)) {
		jw_kv_i64(&j, "pid", w->owner);
		jw_kv_str(&j, "comm", w->owner_comm);
		jw_end_object(&j);
	}
	jw_event_end(&j);
}

static uint64_t pages_of(uint64_t bytes, unsigned int shift)
{
	return (bytes >> shift) + !!(bytes & ((1ULL << shift) - 1));
}

/* "frame 0x12" or "frames 0x12-0x15" for pages pages from pfn. */
static void frames_text(FILE *f, uint64_t pfn, uint64_t pages)
{
	if (pages > 1)
		fprintf(f, "frames 0x%" PRIx64 "-0x%" PRIx64, pfn,
			pfn + pages - 1);
	else
		fprintf(f, "frame 0x%" PRIx64, pfn);
}

static void map_text(FILE *f, const struct iommu_watch_line *l,
		     uint64_t pages)
{
	const struct ptwalk_iommu_event *e = l->e;

	if (e->pfn == PTWALK_PFN_NONE)
		fputs("frame withheld (kernel lockdown)", f);
	else
		frames_text(f, (uint64_t)e->pfn, pages);
	if (l->has_device_pfn && l->device_pfn != PTWALK_PFN_NONE)
		fprintf(f, ", device now 0x%" PRIx64, l->device_pfn);
	else if (l->has_device_pfn)
		fputs(", device now no translation (unmapped again)", f);
	else if (l->owner_running)
		fputs(", device now not read (owner running)", f);
	if (l->seen.remap && l->seen.old_pfn != PTWALK_PFN_NONE)
		fprintf(f, ", remap (was frame 0x%" PRIx64 ")", l->seen.old_pfn);
	else if (l->seen.remap)
		fputs(", remap", f);
}

static void unmap_text(FILE *f, const struct iommu_watch_line *l,
		       unsigned int shift)
{
	const struct ptwalk_iommu_event *e = l->e;

	if (!e->done)
		fputs("nothing was mapped there", f);
	else if (l->seen.old_pfn == PTWALK_PFN_NONE)
		fputs("old frame unknown (mapped before the recorder's oldest event)", f);
	else
		fprintf(f, "was frame 0x%" PRIx64, l->seen.old_pfn);
	if (e->done && e->done != e->size)
		fprintf(f, ", %" PRIu64 " of %" PRIu64 " page%s unmapped",
			pages_of(e->done, shift), pages_of(e->size, shift),
			plural(pages_of(e->size, shift)));
	if (l->old_mapped)
		fprintf(f, ", which pid %d still maps at 0x%" PRIx64,
			(int)e->pid, (uint64_t)e->iova);
}

static void event_text(FILE *f, const char *device, unsigned int shift,
		       const struct iommu_watch_line *l)
{
	const struct ptwalk_iommu_event *e = l->e;
	uint64_t pages = pages_of(e->size, shift);
	char t[32];

	if (e->kind == PTWALK_EVENT_DROPPED) {
		fprintf(f, "%s dropped %" PRIu64 " event%s (seq %" PRIu64 " to %" PRIu64
			"): the recorder's ring overwrote them before they were read; old frames after this may be wrong\n",
			device, (uint64_t)e->size, plural(e->size),
			(uint64_t)e->seq, (uint64_t)(e->seq + e->size - 1));
		return;
	}
	fprintf(f, "%s %s %s 0x%" PRIx64 "-0x%" PRIx64 " (%" PRIu64 " page%s) pid %d",
		fault_time_str(e->time_ns / 1000, t, sizeof(t)), device,
		e->kind == PTWALK_EVENT_MAP ? "map" : "unmap", (uint64_t)e->iova,
		iova_end(e->iova, e->size), pages, plural(pages), (int)e->pid);
	if (l->comm[0])
		fprintf(f, " (%s)", l->comm);
	fputs(": ", f);
	if (e->kind == PTWALK_EVENT_MAP)
		map_text(f, l, pages);
	else
		unmap_text(f, l, shift);
	fputc('\n', f);
}

static void event_json(FILE *f, const char *device, unsigned int shift,
		       const struct iommu_watch_line *l)
{
	const struct ptwalk_iommu_event *e = l->e;
	struct json_writer j;
	char t[32];

	if (e->kind == PTWALK_EVENT_DROPPED) {
		jw_event_begin(&j, f, "dropped");
		jw_kv_u64(&j, "seq", e->seq);
		jw_kv_u64(&j, "events", e->size);
		jw_kv_str(&j, "device", device);
		jw_event_end(&j);
		return;
	}
	jw_event_begin(&j, f, e->kind == PTWALK_EVENT_MAP ? "map" : "unmap");
	jw_kv_u64(&j, "seq", e->seq);
	jw_kv_str(&j, "time", fault_time_str(e->time_ns / 1000, t, sizeof(t)));
	jw_kv_str(&j, "device", device);
	jw_kv_hex(&j, "iova", e->iova);
	jw_kv_u64(&j, "size", e->size);
	jw_kv_u64(&j, "pages", pages_of(e->size, shift));
	jw_kv_i64(&j, "pid", e->pid);
	jw_key(&j, "comm");
	jw_str_or_null(&j, l->comm[0] ? l->comm : NULL);
	if (e->kind == PTWALK_EVENT_MAP) {
		jw_kv_hex_or_null(&j, "pfn", e->pfn, PTWALK_PFN_NONE);
		if (l->has_device_pfn)
			jw_kv_hex_or_null(&j, "device_pfn", l->device_pfn,
					  PTWALK_PFN_NONE);
		else
			jw_kv_null(&j, "device_pfn");
		jw_key(&j, "device_note");
		jw_str_or_null(&j, l->owner_running ?
			       "not read (owner running)" : NULL);
		jw_kv_bool(&j, "remap", l->seen.remap);
		jw_kv_hex_or_null(&j, "old_pfn", l->seen.old_pfn,
				  PTWALK_PFN_NONE);
	} else {
		jw_kv_u64(&j, "unmapped", e->done);
		jw_kv_hex_or_null(&j, "old_pfn", l->seen.old_pfn,
				  PTWALK_PFN_NONE);
		if (jw_kv_object_or_null(&j, "old_mapped_by", l->old_mapped)) {
			jw_kv_i64(&j, "pid", e->pid);
			jw_kv_hex(&j, "address", e->iova);
			jw_end_object(&j);
		}
	}
	jw_event_end(&j);
}

void iommu_watch_print_event(FILE *f, bool json, const char *device,
			     unsigned int page_shift,
			     const struct iommu_watch_line *l)
{
	if (json)
		event_json(f, device, page_shift, l);
	else
		event_text(f, device, page_shift, l);
	fflush(f);
}

void iommu_watch_print_end(FILE *f, bool json,
			   const struct iommu_watch_totals *t)
{
	struct json_writer j;

	if (!json) {
		fprintf(f, "watch ended (%s): %" PRIu64 " map%s, %" PRIu64 " unmap%s, %" PRIu64
			" event%s dropped by the recorder",
			t->ended, t->maps, plural(t->maps), t->unmaps,
			plural(t->unmaps), t->dropped, plural(t->dropped));
		if (t->not_kept)
			fprintf(f, ", %" PRIu64 " mapping%s not kept (old frames unknown)",
				t->not_kept, plural(t->not_kept));
		fputc('\n', f);
		fflush(f);
		return;
	}
	jw_event_begin(&j, f, "end");
	jw_kv_str(&j, "ended", t->ended);
	jw_kv_u64(&j, "maps", t->maps);
	jw_kv_u64(&j, "unmaps", t->unmaps);
	jw_kv_u64(&j, "events_dropped", t->dropped);
	jw_kv_u64(&j, "mappings_not_kept", t->not_kept);
	jw_event_end(&j);
}
