// SPDX-License-Identifier: GPL-2.0
/* ptcompare --faults: the report for a reader. */
#include <inttypes.h>
#include <string.h>
#include "model/device_class.h"
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

static void text_fault(FILE *f, size_t n, const struct fault_explained *x)
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
		fprintf(f, "IOVA -> frame 0x%" PRIx64 "\n", x->device_pfn);
	else
		fprintf(f, "no translation%s%s%s\n",
			x->device_note ? " (" : "",
			x->device_note ? x->device_note : "",
			x->device_note ? ")" : "");
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
	} else {
		fprintf(f, "  before:     %s\n", x->has_recorder ?
			"no mapping of that page recorded" :
			"unknown (no recorder)");
	}
	for (size_t i = 0; i < x->nr_frames; i++)
		fprintf(f, "  frame now:  pid %d (%s) maps it at 0x%" PRIx64
			", %s\n", (int)x->frames[i].pid, x->frames[i].comm,
			x->frames[i].start,
			ptwalk_memtype_name(x->frames[i].memtype) ?
			ptwalk_memtype_name(x->frames[i].memtype) : "?");
	if (x->last.found && x->last.pfn != PTWALK_PFN_NONE && !x->nr_frames)
		fprintf(f, "  frame now:  no process maps it\n");
}

void fault_print_text(FILE *f, const struct fault_report *r)
{
	for (size_t i = 0; i < r->nr_faults; i++)
		text_fault(f, i + 1, &r->faults[i]);
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
