/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --faults, the pure parts: what the recorder's events say an
 * IOVA pointed to before a fault, and which PCI device an SMMUv3
 * StreamID names.  No I/O: cmd/mode_faults.c reads the log, the ring and
 * sysfs, and hands the results to report/fault_print.h.
 */
#ifndef PTCOMPARE_ENGINE_FAULT_EXPLAIN_H
#define PTCOMPARE_ENGINE_FAULT_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "module/ptwalk_abi.h"

/* The last mapping of a page before a fault, from the recorder. */
struct fault_last_mapping {
	bool found;		/* a map event covers the page */
	uint64_t iova;		/* the map event's IOVA and size in pages */
	uint64_t pages;
	uint64_t pfn;		/* the frame the faulting page pointed to */
	int32_t map_pid;
	bool unmapped;		/* an unmap of the page followed it */
	uint64_t unmapped_ms_before;	/* ... this long before the fault */
	int32_t unmap_pid;
	/*
	 * Events the ring lost between the answer and the fault (or before
	 * the fault, when nothing was found): the answer may be stale.
	 */
	uint64_t dropped;
};

/*
 * The newest map event of ev[0..n) (oldest first, as PTWALK_IOC_EVENTS
 * returns them) covering the page of iova and no later than fault_ns,
 * and the first unmap of that page after it and no later than
 * fault_ns.  page_shift: the kernel's page.  fault_ns 0: no time known,
 * every event counts.
 */
void fault_last_mapping(const struct ptwalk_iommu_event *ev, size_t n,
			uint64_t iova, uint64_t fault_ns,
			unsigned int page_shift,
			struct fault_last_mapping *out);

/*
 * A PCI device's requester ID (bus << 8 | device << 3 | function) from
 * its name "DDDD:BB:DD.F" (or "BB:DD.F"): false if malformed; *domain
 * the PCI segment.
 */
bool fault_pci_rid(const char *bdf, uint32_t *domain, uint32_t *rid);

/*
 * Whether the PCI device bdf is StreamID sid, by the rule of the
 * firmware's identity map: the StreamID of a PCI function behind an
 * SMMUv3 is its requester ID plus the map's base (the iommu-map of the
 * device tree, the IORT's ID mapping), which is 0 on QEMU's virt and on
 * most systems; sid_base is that base.
 */
bool fault_sid_matches(const char *bdf, uint32_t sid, uint32_t sid_base);

#endif /* PTCOMPARE_ENGINE_FAULT_EXPLAIN_H */
