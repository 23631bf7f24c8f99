/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --iommu DEVICE --watch, the pure part: which of the
 * recorder's events are the device's, and what each one changed.
 *
 * The IOMMU core's map and unmap events name no domain and no device
 * (module/ptwalk_abi.h), so an event is the device's when it touches the
 * watched IOVA range and its pid is a process that holds the device's
 * VFIO file (VFIO maps and unmaps in the calling process); the caller
 * finds those processes and ties them here.  The mappings themselves are
 * rebuilt from the events: the IOVAs the device's processes mapped and
 * have not unmapped (at most IOMMU_WATCH_LIVE_MAX, VFIO type1's own
 * default limit of mappings per container), and the last
 * IOMMU_WATCH_GONE_MAX IOVA maps unmapped, so that an unmap can say
 * which frame the IOVA pointed to and a map whether it is a remap.
 * No I/O: cmd/mode_iommu_watch.c reads the events and the processes,
 * report/iommu_watch_print.h writes the lines.
 */
#ifndef PTCOMPARE_ENGINE_IOMMU_WATCH_H
#define PTCOMPARE_ENGINE_IOMMU_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "module/ptwalk_abi.h"

#define IOMMU_WATCH_LIVE_MAX	65535
#define IOMMU_WATCH_GONE_MAX	256

/*
 * An IOVA map: IOVAs [iova, iova + size) mapped to consecutive frames from
 * pfn on, by one map event (or what an unmap left of it).
 */
struct iova_map {
	uint64_t iova;
	uint64_t size;
	uint64_t pfn;		/* PTWALK_PFN_NONE: withheld (lockdown) */
};

struct iommu_watch {
	uint64_t start, last;	/* the IOVAs watched, last inclusive */
	unsigned int page_shift;
	/* mapped and not unmapped, disjoint, in IOVA order */
	struct iova_map *live;
	size_t nr_live, cap_live;
	uint64_t not_kept;	/* maps beyond IOMMU_WATCH_LIVE_MAX */
	/* the IOVA maps unmapped last, a ring: gone[next_gone] goes next */
	struct iova_map gone[IOMMU_WATCH_GONE_MAX];
	size_t nr_gone, next_gone;
	/* the processes tied to the device, in the order they were tied */
	int32_t *pids;
	size_t nr_pids, cap_pids;
};

/* What one map or unmap changed, beside what the event says. */
struct iommu_watch_seen {
	/*
	 * The frame the event's first IOVA page pointed to before it:
	 * an unmap's old frame, a remap's previous one; PTWALK_PFN_NONE
	 * when no event of it was seen (mapped before the recorder's
	 * oldest event, or by a process not tied to the device).
	 */
	uint64_t old_pfn;
	bool remap;		/* map: that page had been mapped before */
};

/*
 * Watches [start, last] (inclusive: the whole 64-bit space is 0 and
 * UINT64_MAX) in pages of 1 << page_shift bytes.
 */
void iommu_watch_init(struct iommu_watch *w, uint64_t start, uint64_t last,
		      unsigned int page_shift);
void iommu_watch_free(struct iommu_watch *w);

/* Ties pid's events to the device from now on: 0, or -ENOMEM. */
int iommu_watch_tie(struct iommu_watch *w, int32_t pid);
bool iommu_watch_tied(const struct iommu_watch *w, int32_t pid);

/* Whether e is a map or unmap touching the watched IOVAs. */
bool iommu_watch_in_range(const struct iommu_watch *w,
			  const struct ptwalk_iommu_event *e);

/*
 * Whether e is one to report: a map or unmap in range by a tied process,
 * or a DROPPED record (whose events may have been the device's).
 */
bool iommu_watch_keep(const struct iommu_watch *w,
		      const struct ptwalk_iommu_event *e);

/*
 * Applies a kept map or unmap to the mappings and says what it changed
 * into out (other kinds change nothing): 0, or -ENOMEM.
 */
int iommu_watch_apply(struct iommu_watch *w,
		      const struct ptwalk_iommu_event *e,
		      struct iommu_watch_seen *out);

/* The frame iova points to as the events tell: PTWALK_PFN_NONE if none. */
uint64_t iommu_watch_frame(const struct iommu_watch *w, uint64_t iova);

/* The end of [iova, iova + size), at most UINT64_MAX. */
uint64_t iova_end(uint64_t iova, uint64_t size);

#endif /* PTCOMPARE_ENGINE_IOMMU_WATCH_H */
