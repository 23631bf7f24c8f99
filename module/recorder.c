// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder of IOMMU mappings (PTWALK_IOC_EVENTS): probes on the IOMMU
 * core's exported tracepoints map, unmap and io_page_fault
 * (EXPORT_TRACEPOINT_SYMBOL_GPL in drivers/iommu/iommu-traces.c, 5.10 to
 * 7.2) put each event in a ring preallocated at load.
 *
 * Probes run where the traced call runs: iommu_map() and iommu_unmap()
 * from any context (the DMA API maps from softirq and hardirq context too,
 * iommu_map_atomic()), report_iommu_fault() from the IOMMU's interrupt.
 * So a probe allocates nothing, sleeps never, and takes only a raw
 * spinlock with interrupts off, held for one slot's copy.  A reader copies
 * a bounded batch out under the same lock and hands it to user memory
 * after dropping it.
 */
#include <linux/device.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <trace/events/iommu.h>
#include "lockdown.h"
#include "recorder.h"

static unsigned int iommu_events = 16384;
module_param(iommu_events, uint, 0444);
MODULE_PARM_DESC(iommu_events,
		 "IOMMU map/unmap/fault events kept for PTWALK_IOC_EVENTS (0: no recorder)");

/* The ring: slot (seq - 1) % size holds event seq, once it is written. */
static struct {
	raw_spinlock_t lock;
	struct ptwalk_iommu_event *slots;
	unsigned int size;
	u64 next_seq;			/* the seq the next event gets */
} ring = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(ring.lock),
	.next_seq = 1,
};

/* The caller's thread group, or 0 outside task context. */
static s32 caller_pid(void)
{
	return in_task() ? task_tgid_nr(current) : 0;
}

static void record(struct ptwalk_iommu_event *e)
{
	unsigned long flags;

	e->time_ns = local_clock();
	e->pid = caller_pid();
	raw_spin_lock_irqsave(&ring.lock, flags);
	e->seq = ring.next_seq++;
	ring.slots[(e->seq - 1) % ring.size] = *e;
	raw_spin_unlock_irqrestore(&ring.lock, flags);
}

static void probe_map(void *data, unsigned long iova, phys_addr_t paddr,
		      size_t size)
{
	struct ptwalk_iommu_event e = {
		.kind = PTWALK_EVENT_MAP, .iova = iova, .size = size,
		.pfn = PHYS_PFN(paddr),
	};

	record(&e);
}

static void probe_unmap(void *data, unsigned long iova, size_t size,
			size_t unmapped)
{
	struct ptwalk_iommu_event e = {
		.kind = PTWALK_EVENT_UNMAP, .iova = iova, .size = size,
		.pfn = PTWALK_PFN_NONE, .done = unmapped,
	};

	record(&e);
}

static void probe_fault(void *data, struct device *dev, unsigned long iova,
			int fault_flags)
{
	struct ptwalk_iommu_event e = {
		.kind = PTWALK_EVENT_FAULT, .iova = iova,
		.pfn = PTWALK_PFN_NONE, .done = (u32)fault_flags,
	};

	strscpy(e.device, dev_name(dev), sizeof(e.device));
	record(&e);
}

int ptwalk_recorder_init(void)
{
	int ret;

	if (!iommu_events || !ptwalk_recorder_available())
		return 0;
	ring.slots = vzalloc(array_size(iommu_events, sizeof(*ring.slots)));
	if (!ring.slots)
		return -ENOMEM;
	ring.size = iommu_events;
	ret = register_trace_map(probe_map, NULL);
	if (ret)
		goto free;
	ret = register_trace_unmap(probe_unmap, NULL);
	if (ret)
		goto no_unmap;
	ret = register_trace_io_page_fault(probe_fault, NULL);
	if (!ret)
		return 0;
	unregister_trace_unmap(probe_unmap, NULL);
no_unmap:
	unregister_trace_map(probe_map, NULL);
	tracepoint_synchronize_unregister();
free:
	vfree(ring.slots);
	ring.slots = NULL;
	ring.size = 0;
	return ret;
}

void ptwalk_recorder_exit(void)
{
	if (!ptwalk_recorder_available() || !ring.slots)
		return;
	unregister_trace_io_page_fault(probe_fault, NULL);
	unregister_trace_unmap(probe_unmap, NULL);
	unregister_trace_map(probe_map, NULL);
	/* no probe is running, nor will one start, once this returns */
	tracepoint_synchronize_unregister();
	vfree(ring.slots);
	ring.slots = NULL;
}

bool ptwalk_recorder_on(void)
{
	return ring.slots;
}

u64 ptwalk_recorder_next_seq(void)
{
	unsigned long flags;
	u64 seq;

	raw_spin_lock_irqsave(&ring.lock, flags);
	seq = ring.next_seq;
	raw_spin_unlock_irqrestore(&ring.lock, flags);
	return seq;
}

unsigned int ptwalk_recorder_fill(u64 *next, u64 end,
				  struct ptwalk_iommu_event *out,
				  unsigned int max)
{
	bool withhold = ptwalk_confidentiality_locked();
	unsigned int n = 0, i;
	unsigned long flags;
	u64 oldest;

	if (!ring.slots || !max)
		return 0;
	raw_spin_lock_irqsave(&ring.lock, flags);
	oldest = ring.next_seq > ring.size ? ring.next_seq - ring.size : 1;
	if (*next < oldest && *next < end) {
		/* overwritten before they were read: counted, in place */
		out[n] = (struct ptwalk_iommu_event){
			.kind = PTWALK_EVENT_DROPPED, .seq = *next,
			.size = oldest - *next, .pfn = PTWALK_PFN_NONE,
		};
		n++;
		*next = oldest;
	}
	for (; n < max && *next < end && *next < ring.next_seq; n++, (*next)++)
		out[n] = ring.slots[(*next - 1) % ring.size];
	raw_spin_unlock_irqrestore(&ring.lock, flags);
	for (i = 0; withhold && i < n; i++)
		out[i].pfn = PTWALK_PFN_NONE;
	return n;
}
