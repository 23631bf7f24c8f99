// SPDX-License-Identifier: GPL-2.0
/* ptcompare --faults: the report for a reader. */
#include <inttypes.h>
#include <string.h>
#include "model/device_class.h"
#include "model/dma_fault.h"
#include "module/ptwalk_names.h"
#include "report/fault_print.h"

/* What else the line said: format, IOMMU, IDs, flags, wall clock. */
static void text_decoded(FILE *f, const struct iommu_fault *q)
{
	fprintf(f, "  decoded:    %s%s%s", q->iommu,
		q->format ? " " : "", q->format ? q->format : "");
	if (q->iommu_dev[0])
		fprintf(f, ", IOMMU %s", q->iommu_dev);
	if (q->master[0])
		fprintf(f, ", master %s", q->master);
	if (q->has_pasid)
		fprintf(f, ", PASID 0x%x", q->pasid);
	if (q->has_domain_id)
		fprintf(f, ", domain ID 0x%04x", q->domain_id);
	if (q->has_flags)
		fprintf(f, ", flags 0x%04x", q->flags);
	if (q->wall[0])
		fprintf(f, ", logged %s", q->wall);
	fprintf(f, "\n");
}

/* us microseconds as "1.234 ms". */
static void text_ms(FILE *f, uint64_t us)
{
	fprintf(f, "%" PRIu64 ".%03" PRIu64 " ms", us / 1000, us % 1000);
}

/* The last tracked mapping of the faulting page: made, unmapped. */
static void text_dma_mapping(FILE *f, const struct fault_explained *x,
			     unsigned int shift)
{
	const struct fault_dma_match *d = &x->dma.match;
	const struct ptwalk_dma_mapping *m = &d->m;
	const char *which = x->g.count > 1 ? "last " : "";
	char t[32];

	fprintf(f, "  dma map:    %s %s, dma 0x%" PRIx64 " size 0x%" PRIx64,
		dma_kind_name(m->kind), dma_dir_name(m->dir), (uint64_t)m->dma,
		(uint64_t)m->size);
	if (d->phys != PTWALK_DMA_PHYS_NONE)
		fprintf(f, ", the page's frame 0x%" PRIx64,
			d->phys >> shift);
	fprintf(f, "\n              mapped at %s s ",
		fault_time_str(m->map_ns / 1000, t, sizeof(t)));
	if (m->flags & PTWALK_DMA_F_ATOMIC)
		fprintf(f, "outside task context");
	else
		fprintf(f, "by pid %d (%s)", (int)m->pid, m->comm);
	if (d->timed) {
		fprintf(f, ", ");
		text_ms(f, d->mapped_us_before);
		fprintf(f, " before the %sfault", which);
	}
	fprintf(f, "\n  dma unmap:  ");
	if (d->live) {
		fprintf(f, "still mapped\n");
	} else if (!d->timed) {
		fprintf(f, "unmapped at %s s\n",
			fault_time_str(m->unmap_ns / 1000, t, sizeof(t)));
	} else {
		fprintf(f, "unmapped at %s s, ",
			fault_time_str(m->unmap_ns / 1000, t, sizeof(t)));
		text_ms(f, d->unmapped_before ? d->unmapped_us_before :
			d->unmapped_us_after);
		fprintf(f, " %s the %sfault\n",
			d->unmapped_before ? "before" : "after", which);
	}
	if (d->timed && d->cause != DMA_FAULT_UNNAMED)
		fprintf(f, "  dma cause:  %s: %s\n",
			dma_fault_cause_name(d->cause),
			dma_fault_cause_doc(d->cause));
	else if (d->timed && x->g.first.access == IOMMU_ACCESS_UNKNOWN)
		fprintf(f, "  dma cause:  none named: the log gives no access to hold against the direction\n");
	else if (d->timed)
		fprintf(f, "  dma cause:  none named: %s\n",
			dma_fault_cause_doc(d->cause));
	else
		fprintf(f, "  dma cause:  none named: the fault's time is unknown\n");
}

/* A kernel driver's device against its tracked DMA mappings. */
static void text_dma(FILE *f, const struct fault_explained *x,
		     unsigned int shift)
{
	const struct fault_dma_explained *d = &x->dma;
	char t[32];

	if (!d->asked)
		return;
	if (d->note && !strcmp(d->note, "not tracked")) {
		fprintf(f, "  dma:        not tracked: run ptcompare --dma-track %s before the fault to have its driver's mappings explain it\n",
			x->device);
		return;
	}
	if (d->note) {
		fprintf(f, "  dma:        %s\n", d->note);
		return;
	}
	fprintf(f, "  dma:        tracked since %s s, %" PRIu32
		" live mappings and %" PRIu32 " unmaps kept\n",
		fault_time_str(d->tracked_ns / 1000, t, sizeof(t)), d->live,
		d->unmaps);
	if (!d->match.found) {
		fprintf(f, "  dma map:    no tracked mapping of that page%s\n",
			d->match.tracked_after ?
			": tracking began after the fault" :
			d->match.history_after ?
			": the oldest unmap kept is later than the fault, so the page's may be lost (module parameter dma_track_history)" :
			"");
		return;
	}
	text_dma_mapping(f, x, shift);
	if (!d->has_frame)
		return;
	fprintf(f, "  dma frame:  %s now\n", dma_frame_name(d->frame));
	for (size_t i = 0; i < d->nr_frames; i++)
		fprintf(f, "              pid %d (%s) maps it at 0x%" PRIx64
			", %s\n", (int)d->frames[i].pid, d->frames[i].comm,
			d->frames[i].start,
			ptwalk_memtype_name(d->frames[i].memtype) ?
			ptwalk_memtype_name(d->frames[i].memtype) : "?");
}

static void text_fault(FILE *f, size_t n, const struct fault_explained *x,
		       unsigned int shift)
{
	const struct iommu_fault *q = &x->g.first;
	char t1[32], t2[32];

	fprintf(f, "fault %zu: %s %s%s", n, q->iommu,
		q->access == IOMMU_ACCESS_UNKNOWN ? "access " : "",
		iommu_access_name(q->access));
	if (q->has_iova)
		fprintf(f, " at IOVA 0x%" PRIx64, q->iova);
	fprintf(f, " by %s", x->device[0] ? x->device :
		q->device[0] ? q->device : "(unknown device)");
	if (q->has_sid)
		fprintf(f, " (%s 0x%x)", strcmp(q->iommu, "virtio-iommu") ?
			"StreamID" : "endpoint", q->sid);
	fprintf(f, ", %" PRIu64 " time%s", x->g.count,
		x->g.count == 1 ? "" : "s");
	if (q->has_time)
		fprintf(f, ", %s to %s s after boot",
			fault_time_str(x->g.first_us, t1, sizeof(t1)),
			fault_time_str(x->g.last_us, t2, sizeof(t2)));
	fprintf(f, "\n  reason:     ");
	if (q->has_code)
		fprintf(f, "0x%02x ", q->code);
	fprintf(f, "%s (%s)\n", q->reason, iommu_class_name(q->cls));
	text_decoded(f, q);
	if (x->live_note) {
		if (x->driver[0])
			fprintf(f, "  driver:     %s\n", x->driver);
		if (x->owner_pid)
			fprintf(f, "  owner:      pid %d (%s) holds its VFIO file\n",
				(int)x->owner_pid, x->owner_comm);
		fprintf(f, "  this machine: %s: nothing read of it now\n",
			x->live_note);
		return;
	}
	fprintf(f, "  driver:     %s\n", x->driver[0] ? x->driver : "(none)");
	fprintf(f, "  domain now: %s, ",
		x->has_domain ? iommu_domain_name(x->domain) : "unknown");
	if (x->device_pfn != PTWALK_PFN_NONE)
		fprintf(f, "IOVA -> frame 0x%" PRIx64 "%s\n", x->device_pfn,
			x->device_read == DOMAIN_READ_LIVE ?
			" (read live: may be stale)" : "");
	else
		fprintf(f, "no translation%s%s%s\n",
			x->device_note ? " (" : "",
			x->device_note ? x->device_note : "",
			x->device_note ? ")" : "");
	if (x->device_read == DOMAIN_READ_OWNER_STOPPED)
		fprintf(f, "  read:       owner stopped for %" PRIu64 ".%" PRIu64
			" ms\n", x->device_stopped_ns / 1000000,
			x->device_stopped_ns / 100000 % 10);
	if (x->owner_pid)
		fprintf(f, "  owner:      pid %d (%s) holds its VFIO file\n",
			(int)x->owner_pid, x->owner_comm);
	else
		fprintf(f, "  owner:      no process (a kernel driver, or none)\n");
	if (x->has_mapping_now) {
		fprintf(f, "  at IOVA=VA: VMA 0x%" PRIx64 "-0x%" PRIx64 " %s, ",
			x->vma_start, x->vma_end,
			x->vma_name[0] ? x->vma_name : "[anon]");
		if (x->walk_pfn != PTWALK_PFN_NONE)
			fprintf(f, "frame 0x%" PRIx64 "\n", x->walk_pfn);
		else
			fprintf(f, "not present\n");
	} else if (x->owner_pid) {
		fprintf(f, "  at IOVA=VA: nothing mapped in pid %d\n",
			(int)x->owner_pid);
	}
	if (x->last.found) {
		fprintf(f, "  before:     IOVA 0x%" PRIx64 " (%" PRIu64
			" page%s) mapped frame 0x%" PRIx64 " (pid %d)",
			x->last.iova, x->last.pages,
			x->last.pages == 1 ? "" : "s", x->last.pfn,
			(int)x->last.map_pid);
		if (x->last.unmapped)
			fprintf(f, ", unmapped %" PRIu64
				" ms before the %sfault by pid %d",
				x->last.unmapped_ms_before,
				x->g.count > 1 ? "last " : "",
				(int)x->last.unmap_pid);
		fprintf(f, "\n");
		if (x->last.dropped)
			fprintf(f, "              (the recorder dropped %" PRIu64
				" events since: may be stale)\n",
				x->last.dropped);
	} else if (!x->has_recorder) {
		fprintf(f, "  before:     unknown (no recorder)\n");
	} else if (!x->recorder_since_ns) {
		fprintf(f, "  before:     unknown: the recorder was not armed before this run (it is now: run again after the next fault, or load ptwalk with iommu_events_from_load=1)\n");
	} else {
		fprintf(f, "  before:     no mapping of that page recorded since the recorder was armed at %s\n",
			fault_time_str(x->recorder_since_ns / 1000, t1,
				       sizeof(t1)));
	}
	for (size_t i = 0; i < x->nr_frames; i++)
		fprintf(f, "  frame now:  pid %d (%s) maps it at 0x%" PRIx64
			", %s\n", (int)x->frames[i].pid, x->frames[i].comm,
			x->frames[i].start,
			ptwalk_memtype_name(x->frames[i].memtype) ?
			ptwalk_memtype_name(x->frames[i].memtype) : "?");
	if (x->last.found && x->last.pfn != PTWALK_PFN_NONE && !x->nr_frames)
		fprintf(f, "  frame now:  no process maps it\n");
	text_dma(f, x, shift);
}

void fault_print_text(FILE *f, const struct fault_report *r)
{
	for (size_t i = 0; i < r->nr_faults; i++)
		text_fault(f, i + 1, &r->faults[i], r->page_shift);
	for (size_t i = 0; i < r->nr_unexplained; i++) {
		const struct fault_unexplained *u = &r->unexplained[i];

		fprintf(f, "unexplained: %s", u->why);
		if (u->device[0])
			fprintf(f, ", device %s", u->device);
		if (u->has_iova)
			fprintf(f, ", IOVA 0x%" PRIx64, u->iova);
		fprintf(f, " (%" PRIu64 ")\n", u->count);
	}
	for (size_t i = 0; i < r->nr_undecoded; i++) {
		const struct fault_undecoded *u = &r->undecoded[i];

		fprintf(f, "undecoded: line %" PRIu64 ", %s, %s%s: %s", u->line,
			u->driver, u->format ? "format " : "no format known",
			u->format ? u->format : "", u->what);
		if (u->text[0])
			fprintf(f, ": \"%s\"", u->text);
		fprintf(f, "\n");
	}
	if (r->undecoded_total > r->nr_undecoded)
		fprintf(f, "undecoded: %" PRIu64 " more lines\n",
			r->undecoded_total - r->nr_undecoded);
	if (!r->nr_faults && !r->nr_unexplained && !r->undecoded_total)
		fprintf(f, "no IOMMU faults in %s\n",
			r->from_line ? "the text given" : "the kernel log");
}
