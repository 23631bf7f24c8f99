// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder of IOMMU mappings (PTWALK_IOC_EVENTS): probes on the IOMMU
 * core's exported tracepoints map, unmap and io_page_fault
 * (EXPORT_TRACEPOINT_SYMBOL_GPL in drivers/iommu/iommu-traces.c, the same
 * signatures from 5.10 to 7.2) put each event in the ring of the CPU it
 * happens on (recorder_ring.h).
 *
 * Nothing pays for it unasked: the probes are registered when a reader
 * first asks for events (ptwalk_recorder_hold(), an events query) and
 * unregistered iommu_events_idle seconds after the last session that
 * asked is closed; the rings are allocated at the first arming.  Module
 * parameter iommu_events_from_load=1 arms at load, for good, for history
 * from before any question.
 *
 * Probes run where the traced call runs: iommu_map() and iommu_unmap()
 * from any context (the DMA API maps from softirq and hardirq context
 * too), report_iommu_fault() from the IOMMU's interrupt.  So a probe
 * allocates nothing, sleeps never, and touches only its CPU's ring, with
 * interrupts off for one slot's copy.  Readers merge the rings under a
 * mutex of their own, off every hot path.
 */
#include <linux/device.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <trace/events/iommu.h>
#include "recorder.h"
#include "recorder_ring.h"

static unsigned int iommu_events = 16384;
module_param(iommu_events, uint, 0444);
MODULE_PARM_DESC(iommu_events,
		 "IOMMU map/unmap/fault events kept for PTWALK_IOC_EVENTS (0: no recorder)");

static bool iommu_events_from_load;
module_param(iommu_events_from_load, bool, 0444);
MODULE_PARM_DESC(iommu_events_from_load,
		 "Record IOMMU events from load on, not from the first reader's question");

static unsigned int iommu_events_idle = 600;
module_param(iommu_events_idle, uint, 0644);
MODULE_PARM_DESC(iommu_events_idle,
		 "Seconds the recorder stays armed after its last reader closed");

/* Smallest per-CPU ring: a burst on one CPU is what a VFIO owner makes. */
#define PTWALK_REC_CPU_MIN	1024

static struct {
	struct mutex lock;		/* readers: collect, fill, arm, disarm */
	struct ptwalk_rec_cpu __percpu *cpus;	/* NULL until first armed */
	struct ptwalk_rec_reader *readers;	/* one per possible CPU */
	const struct ptwalk_rec_cpu **rings;	/* the collector's view */
	struct ptwalk_rec_log log;
	unsigned int holders;		/* sessions (and load) keeping it armed */
	bool armed;
	u64 armed_ns;			/* local_clock() at arming; 0 disarmed */
	unsigned long released;		/* jiffies when holders fell to 0 */
	struct delayed_work idle;
} rec = {
	.lock = __MUTEX_INITIALIZER(rec.lock),
	.log.next_seq = 1,
};

/* The caller's thread group, in the initial pid namespace; 0 outside task. */
static s32 caller_pid(void)
{
	return in_task() ? task_tgid_nr(current) : 0;
}

static void record(struct ptwalk_iommu_event *e)
{
	struct ptwalk_rec_cpu *c;
	unsigned long flags;

	e->pid = caller_pid();
	local_irq_save(flags);
	c = this_cpu_ptr(rec.cpus);
	ptwalk_rec_begin(c);
	e->time_ns = local_clock();
	ptwalk_rec_put(c, e);
	local_irq_restore(flags);
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

/* Merges what the rings hold into the log.  Called with rec.lock held. */
static void collect(void)
{
	u64 cutoff;
	int cpu;

	if (!rec.cpus)
		return;
	cutoff = local_clock();
	smp_mb();	/* the clock before any ring's busy flag */
	for_each_possible_cpu(cpu)
		cutoff = ptwalk_rec_cutoff(per_cpu_ptr(rec.cpus, cpu),
					   &rec.readers[cpu], cutoff);
	ptwalk_rec_collect(rec.rings, rec.readers, nr_cpu_ids, cutoff,
			   &rec.log);
}

static void free_rings(void)
{
	int cpu;

	if (rec.cpus)
		for_each_possible_cpu(cpu)
			vfree(per_cpu_ptr(rec.cpus, cpu)->slots);
	free_percpu(rec.cpus);
	rec.cpus = NULL;
	kfree(rec.readers);
	rec.readers = NULL;
	kfree(rec.rings);
	rec.rings = NULL;
	vfree(rec.log.ev);
	rec.log.ev = NULL;
}

/*
 * The rings, each a power of two of at least PTWALK_REC_CPU_MIN slots,
 * together about iommu_events, and the log of iommu_events rounded up.
 */
static int alloc_rings(void)
{
	unsigned int log_size = roundup_pow_of_two(iommu_events);
	unsigned int per_cpu = max_t(unsigned int, PTWALK_REC_CPU_MIN,
				     roundup_pow_of_two(DIV_ROUND_UP(iommu_events,
								     nr_cpu_ids)));
	int cpu;

	per_cpu = min(per_cpu, log_size);
	rec.cpus = alloc_percpu(struct ptwalk_rec_cpu);
	rec.readers = kcalloc(nr_cpu_ids, sizeof(*rec.readers), GFP_KERNEL);
	rec.rings = kcalloc(nr_cpu_ids, sizeof(*rec.rings), GFP_KERNEL);
	rec.log.ev = vzalloc(array_size(log_size, sizeof(*rec.log.ev)));
	if (!rec.cpus || !rec.readers || !rec.rings || !rec.log.ev)
		goto nomem;
	rec.log.mask = log_size - 1;
	for_each_possible_cpu(cpu) {
		struct ptwalk_rec_cpu *c = per_cpu_ptr(rec.cpus, cpu);

		c->slots = vzalloc_node(array_size(per_cpu, sizeof(*c->slots)),
					cpu_to_node(cpu));
		if (!c->slots)
			goto nomem;
		c->mask = per_cpu - 1;
		rec.rings[cpu] = c;
	}
	return 0;
nomem:
	free_rings();
	return -ENOMEM;
}

/* Registers the probes.  Called with rec.lock held. */
static int arm(void)
{
	int ret;

	/* no tracepoint to attach to, or none linked: recorder.h */
	if (!ptwalk_recorder_available())
		return -EOPNOTSUPP;
	if (!rec.cpus) {
		ret = alloc_rings();
		if (ret)
			return ret;
	}
	ret = register_trace_map(probe_map, NULL);
	if (ret)
		return ret;
	ret = register_trace_unmap(probe_unmap, NULL);
	if (ret)
		goto no_unmap;
	ret = register_trace_io_page_fault(probe_fault, NULL);
	if (ret)
		goto no_fault;
	rec.armed = true;
	rec.armed_ns = local_clock();
	return 0;
no_fault:
	unregister_trace_unmap(probe_unmap, NULL);
no_unmap:
	unregister_trace_map(probe_map, NULL);
	tracepoint_synchronize_unregister();
	return ret;
}

/* Unregisters the probes, then logs what they left.  rec.lock held. */
static void disarm(void)
{
	if (!ptwalk_recorder_available())
		return;
	unregister_trace_io_page_fault(probe_fault, NULL);
	unregister_trace_unmap(probe_unmap, NULL);
	unregister_trace_map(probe_map, NULL);
	/* no probe is running, nor will one start, once this returns */
	tracepoint_synchronize_unregister();
	rec.armed = false;
	rec.armed_ns = 0;
	collect();
}

static unsigned long idle_jiffies(void)
{
	return (unsigned long)READ_ONCE(iommu_events_idle) * HZ;
}

/*
 * Disarms once the recorder has had no holder for the idle time; a hold
 * and release since this work was queued may have moved that later.
 */
static void idle_disarm(struct work_struct *work)
{
	unsigned long due;

	mutex_lock(&rec.lock);
	due = rec.released + idle_jiffies();
	if (rec.armed && !rec.holders) {
		if (time_after_eq(jiffies, due))
			disarm();
		else
			schedule_delayed_work(&rec.idle, due - jiffies);
	}
	mutex_unlock(&rec.lock);
}

static bool available(void)
{
	return iommu_events && ptwalk_recorder_available();
}

int ptwalk_recorder_init(void)
{
	INIT_DELAYED_WORK(&rec.idle, idle_disarm);
	if (!available() || !iommu_events_from_load)
		return 0;
	return ptwalk_recorder_hold();
}

void ptwalk_recorder_exit(void)
{
	cancel_delayed_work_sync(&rec.idle);
	mutex_lock(&rec.lock);
	if (rec.armed)
		disarm();
	free_rings();
	mutex_unlock(&rec.lock);
}

bool ptwalk_recorder_on(void)
{
	return available();
}

int ptwalk_recorder_hold(void)
{
	int ret = 0;

	if (!available())
		return -EOPNOTSUPP;
	mutex_lock(&rec.lock);
	/* an idle disarming now finds a holder and leaves the probes */
	cancel_delayed_work(&rec.idle);
	if (!rec.armed)
		ret = arm();
	if (!ret)
		rec.holders++;
	mutex_unlock(&rec.lock);
	return ret;
}

void ptwalk_recorder_release(void)
{
	mutex_lock(&rec.lock);
	if (!--rec.holders) {
		rec.released = jiffies;
		schedule_delayed_work(&rec.idle, idle_jiffies());
	}
	mutex_unlock(&rec.lock);
}

void ptwalk_recorder_state(struct ptwalk_recorder_state *st)
{
	int cpu;

	mutex_lock(&rec.lock);
	collect();
	st->next_seq = rec.log.next_seq;
	st->armed_ns = rec.armed_ns;
	st->recorded = 0;
	if (rec.cpus)
		for_each_possible_cpu(cpu)
			st->recorded += READ_ONCE(per_cpu_ptr(rec.cpus, cpu)->head);
	mutex_unlock(&rec.lock);
}

/* The global tgid @nr as @ns numbers it: 0 if not seen there. */
static s32 pid_in(s32 nr, struct pid_namespace *ns)
{
	struct pid *pid;
	s32 ret;

	if (!nr || ns == &init_pid_ns)
		return nr;
	rcu_read_lock();
	pid = find_pid_ns(nr, &init_pid_ns);
	ret = pid ? pid_nr_ns(pid, ns) : 0;
	rcu_read_unlock();
	return ret;
}

unsigned int ptwalk_recorder_fill(u64 *next, u64 end,
				  struct pid_namespace *ns,
				  struct ptwalk_iommu_event *out,
				  unsigned int max)
{
	unsigned int n, i;

	mutex_lock(&rec.lock);
	n = rec.log.ev ? ptwalk_rec_log_fill(&rec.log, next, end, out, max) : 0;
	mutex_unlock(&rec.lock);
	for (i = 0; i < n; i++)
		out[i].pid = pid_in(out[i].pid, ns);
	return n;
}
