/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder of IOMMU mappings (PTWALK_IOC_EVENTS): a bounded ring of
 * the IOMMU core's map, unmap and io_page_fault events, kept from module
 * load (recorder.c says how, ptwalk_abi.h what an event says).
 */
#ifndef PTWALK_RECORDER_H
#define PTWALK_RECORDER_H

#include <linux/kconfig.h>
#include <linux/types.h>
#include "ptwalk_abi.h"

/*
 * Whether this kernel can have a recorder: the IOMMU core's tracepoints
 * are built and exported only with the IOMMU API, and a probe attaches
 * only with tracepoints.  A constant, so that without them no probe is
 * registered in the code at all and the module links against what the
 * kernel exports.
 */
static inline bool ptwalk_recorder_available(void)
{
	return IS_ENABLED(CONFIG_IOMMU_API) && IS_ENABLED(CONFIG_TRACEPOINTS);
}

/* Allocates the ring and registers the probes; 0 or -errno. */
int ptwalk_recorder_init(void);
void ptwalk_recorder_exit(void);

/* Whether events are being recorded (PTWALK_FEAT_IOMMU_EVENTS). */
bool ptwalk_recorder_on(void);

/* The sequence number the next event will get. */
u64 ptwalk_recorder_next_seq(void);

/*
 * Copies into @out, at most @max, the events from *@next on and before
 * @end, oldest first (a PTWALK_EVENT_DROPPED record for those already
 * overwritten), and moves *@next past them: how many.  Takes no sleeping
 * lock.
 */
unsigned int ptwalk_recorder_fill(u64 *next, u64 end,
				  struct ptwalk_iommu_event *out,
				  unsigned int max);

#endif /* PTWALK_RECORDER_H */
