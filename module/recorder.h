/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder of IOMMU mappings (PTWALK_IOC_EVENTS): the IOMMU core's
 * map, unmap and io_page_fault events, kept in bounded per-CPU rings
 * while a reader holds it armed (recorder.c says how and from when,
 * ptwalk_abi.h what an event says).
 */
#ifndef PTWALK_RECORDER_H
#define PTWALK_RECORDER_H

#include <linux/kconfig.h>
#include <linux/types.h>
#include "ptwalk_abi.h"

struct pid_namespace;

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

/* Arms at load if asked to (iommu_events_from_load); 0 or -errno. */
int ptwalk_recorder_init(void);
void ptwalk_recorder_exit(void);

/* Whether there is a recorder to ask (PTWALK_FEAT_IOMMU_EVENTS). */
bool ptwalk_recorder_on(void);

/*
 * A reader's hold: arms the recorder (allocating its rings the first
 * time) until the last hold is released and iommu_events_idle seconds
 * have passed.  0, -EOPNOTSUPP (no recorder) or -errno.  May sleep.
 */
int ptwalk_recorder_hold(void);
void ptwalk_recorder_release(void);

/* What PTWALK_IOC_INFO tells of the recorder. */
struct ptwalk_recorder_state {
	u64 next_seq;		/* the number the next event will get */
	u64 armed_ns;		/* local_clock() at arming; 0: disarmed */
	u64 recorded;		/* events the probes recorded since load */
};

/* Brings the numbering up to now, then reads the state.  May sleep. */
void ptwalk_recorder_state(struct ptwalk_recorder_state *st);

/*
 * Copies into @out, at most @max, the events from *@next on and before
 * @end, oldest first (a PTWALK_EVENT_DROPPED record for those no longer
 * kept, counting none from @end on), and moves *@next past them: how
 * many.  pids as @ns numbers them (0: not seen there); frames as
 * recorded: what lockdown withholds is the session's.  May sleep.
 */
unsigned int ptwalk_recorder_fill(u64 *next, u64 end,
				  struct pid_namespace *ns,
				  struct ptwalk_iommu_event *out,
				  unsigned int max);

#endif /* PTWALK_RECORDER_H */
