/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --iommu DEVICE --watch's output, a line as each event is
 * read: a first line saying what is watched, one per map, unmap or
 * DROPPED record of the recorder (engine/iommu_watch.h), a last one with
 * the totals.  Text, or JSON Lines with --json (docs/json.md).
 */
#ifndef PTCOMPARE_IOMMU_WATCH_PRINT_H
#define PTCOMPARE_IOMMU_WATCH_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "engine/iommu_watch.h"

/* What is watched: the first line. */
struct iommu_watch_info {
	const char *device;	/* PCI name */
	const char *driver;	/* "": none bound */
	bool whole;		/* no --range: every IOVA */
	uint64_t start, end;	/* --range, end exclusive */
	unsigned int seconds, interval_ms;
	uint64_t from_seq;	/* the first event reported */
	pid_t owner;		/* a process holding its VFIO file; 0: none now */
	const char *owner_comm;
};

/* One event of the device, or a DROPPED record. */
struct iommu_watch_line {
	const struct ptwalk_iommu_event *e;
	const char *comm;	/* e->pid's name; "" unknown */
	struct iommu_watch_seen seen;
	/* map: what the device's domain translates e->iova to when read */
	bool has_device_pfn;
	uint64_t device_pfn;	/* PTWALK_PFN_NONE: no translation */
	bool owner_running;	/* not read: an unmanaged domain whose
				 * owner a watch does not stop
				 */
	/* unmap: e->pid still maps seen.old_pfn at VA = IOVA */
	bool old_mapped;
};

struct iommu_watch_totals {
	const char *ended;	/* "time", "signal" */
	uint64_t maps, unmaps;
	uint64_t dropped;	/* events the ring lost before they were read */
	uint64_t not_kept;	/* maps beyond what the watch keeps */
};

void iommu_watch_print_start(FILE *f, bool json,
			     const struct iommu_watch_info *w);
void iommu_watch_print_event(FILE *f, bool json, const char *device,
			     unsigned int page_shift,
			     const struct iommu_watch_line *l);
void iommu_watch_print_end(FILE *f, bool json,
			   const struct iommu_watch_totals *t);

#endif /* PTCOMPARE_IOMMU_WATCH_PRINT_H */
