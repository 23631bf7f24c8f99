// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel drivers' DMA (PTWALK_IOC_DMA_TRACK, PTWALK_IOC_DMA_MAPS): per
 * tracked device, its live DMA-API mappings and its recent unmaps, kept
 * from the DMA API's tracepoints (include/trace/events/dma.h, 6.12+).
 *
 * The tracepoints are not exported: for_each_kernel_tracepoint() finds
 * them by name and tracepoint_probe_register() attaches the probes, both
 * exported, and only while some device is tracked.  Their arguments, read
 * in 6.12's and 7.2's headers, are one prototype per class: map (dev,
 * phys, dma, size, dir, attrs: dma_map_page and dma_map_resource, 6.18+
 * dma_map_phys), unmap (dev, dma, size, dir, attrs), alloc (dev, virt,
 * dma, size, dir, gfp, attrs: dma_alloc, dma_alloc_pages), free (dev,
 * virt, dma, size, dir, attrs), dma_map_sg (dev, sgl, nents, ents, dir,
 * attrs), dma_unmap_sg (dev, sgl, nents, dir, attrs), dma_alloc_sgt (dev,
 * sgt, size, dir, gfp, attrs), dma_free_sgt (dev, sgt, size, dir).
 *
 * Probes run where the DMA API is called: any context, hardirq included.
 * Tracked devices sit in a small open-addressed table (dma_table.h),
 * published with release semantics and never holding a removed device:
 * an untrack builds the other of two tables afresh and switches to it.
 * So an untracked device costs a hash of its pointer and at most
 * PTWALK_DMA_MAX_DEVICES + 1 comparisons (one per tracked device in its
 * run, then an empty slot).  A tracked device's probe takes that
 * device's raw spinlock, interrupts off, and takes entries from the
 * device's pool, allocated when tracking began: it never sleeps nor
 * allocates.  A full pool drops its oldest unmap-optional mapping
 * (PTWALK_DMA_F_UNMAP_OPTIONAL: one its driver need never unmap), in
 * O(1) from a list in the order they were made, or else counts the new
 * mapping in overflow.
 *
 * Who keeps a device tracked: each session that asked (a hold, dropped
 * by PTWALK_DMA_TRACK_OFF or when the session's file is closed, a
 * crashed tool's too), and the module parameter dma_track (for good).
 * Once no hold is left the device stays tracked dma_track_idle seconds
 * after the last release or PTWALK_IOC_DMA_MAPS of it, then is untracked:
 * nothing pays for the probes long after the last question.
 */
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include "compat.h"
#include "dma_table.h"
#include "dma_track.h"
#include "lockdown.h"
#include "query_copy.h"

static unsigned int dma_track_maps = 4096;
module_param(dma_track_maps, uint, 0444);
MODULE_PARM_DESC(dma_track_maps, "Live DMA mappings kept per tracked device");
static unsigned int dma_track_history = 256;
module_param(dma_track_history, uint, 0444);
MODULE_PARM_DESC(dma_track_history, "Recent unmaps kept per tracked device");
static char *dma_track;
module_param(dma_track, charp, 0444);
MODULE_PARM_DESC(dma_track, "PCI devices (DDDD:BB:DD.F, comma-separated) tracked from load, for good");
static unsigned int dma_track_idle = 600;
module_param(dma_track_idle, uint, 0644);
MODULE_PARM_DESC(dma_track_idle,
		 "Seconds a device stays tracked after its last hold went and it was last read");

#define HASH_BITS_MAPS	10
#define NIL		(-1)

struct entry {
	struct ptwalk_dma_mapping m;
	unsigned long key;	/* dma address, or the sg list of SG kinds */
	s32 next;		/* in its bucket or the free list */
	s32 prev;		/* in its bucket: removal in O(1) */
	s32 older, newer;	/* unmap-optional ones: in the age list */
};

struct tracked {
	struct ptwalk_dma_key key;	/* dev: the table's key */
	struct device *dev;		/* referenced */
	raw_spinlock_t lock;
	struct entry *pool;
	s32 buckets[1U << HASH_BITS_MAPS];
	s32 free;
	s32 oldest, newest;	/* the age list of unmap-optional entries */
	u32 live, capacity;
	struct ptwalk_dma_mapping *hist;	/* ring of recent unmaps */
	u32 hist_size;
	u64 hist_next;				/* unmaps ever kept */
	u64 overflow, unmapped_unknown, tracked_ns, expired, optional_unmapped;
	/* the rest under track_lock */
	unsigned int holds;	/* sessions holding it */
	bool for_good;		/* module parameter dma_track */
	unsigned long used;	/* jiffies: last release or read */
};

/*
 * Two tables (dma_table.h): probes read the live one; an untrack
 * rebuilds the other without the device and switches to it.
 */
static struct ptwalk_dma_table tables[2];
static struct ptwalk_dma_table __rcu *live_table =
	RCU_INITIALIZER(&tables[0]);
static unsigned int nr_tracked;
static DEFINE_MUTEX(track_lock);	/* tracking on or off, probes, holds */
static void idle_untrack(struct work_struct *work);
static DECLARE_DELAYED_WORK(idle_work, idle_untrack);

/* The live table: in a probe (preemption off) or under track_lock. */
static struct ptwalk_dma_table *table(void)
{
	return rcu_dereference_sched_check(live_table,
					   lockdep_is_held(&track_lock));
}

static struct tracked *lookup(struct device *dev)
{
	struct ptwalk_dma_key *k = ptwalk_dma_table_find(table(), dev, NULL);

	return k ? container_of(k, struct tracked, key) : NULL;
}

static bool is_sg(u32 kind)
{
	return kind == PTWALK_DMA_SG || kind == PTWALK_DMA_SGT;
}

static unsigned int bucket(unsigned long key)
{
	return hash_long(key, HASH_BITS_MAPS);
}

/* What the frame pfn is now (enum ptwalk_dma_frame): a racy read. */
static u32 frame_kind(unsigned long pfn)
{
	/* as fs/proc/page.c: offline or ZONE_DEVICE memmaps are no answer */
	struct page *page = pfn_to_online_page(pfn);

	if (!page)
		return PTWALK_DMA_FRAME_NONE;
	if (PageSlab(page))
		return PTWALK_DMA_FRAME_SLAB;
	if (PageTable(page))
		return PTWALK_DMA_FRAME_PGTABLE;
	if (PageAnon(page))
		return PTWALK_DMA_FRAME_ANON;
	/*
	 * A file's page reaches the LRU in batches (lru_add): not yet there
	 * when a driver maps it just after it was read in, there when asked.
	 * Its mapping says so from the start.
	 */
	/* swap cache (a swap-in being read) is anonymous memory to be */
	if (ptwalk_page_swapcache(page))
		return PTWALK_DMA_FRAME_ANON;
	if (PageLRU(page) || ptwalk_page_in_file(page))
		return PTWALK_DMA_FRAME_FILE;
	return PTWALK_DMA_FRAME_KERNEL;
}

/*
 * Who maps: the task's thread group and name, or the interrupted context;
 * and whether the first frame holds a reference now, which a free frame
 * later does not (tails of an allocation that is no compound page never
 * do).
 */
static void caller(struct ptwalk_dma_mapping *m)
{
	unsigned long pfn = PHYS_PFN(m->phys);
	struct page *page = m->phys == PTWALK_DMA_PHYS_NONE ? NULL :
			    pfn_to_online_page(pfn);

	if (page) {
		if (page_count(page))
			m->flags |= PTWALK_DMA_F_COUNTED;
		m->flags |= frame_kind(pfn) << PTWALK_DMA_WAS_SHIFT;
	}
	m->map_ns = local_clock();
	if (in_task()) {
		m->pid = task_tgid_nr(current);
		/* no task_lock(): a probe may run under any lock */
		strscpy_pad(m->comm, current->comm, sizeof(m->comm));
	} else {
		m->flags |= PTWALK_DMA_F_ATOMIC;
	}
}

/*
 * Whether the DMA API let the driver skip e's unmap when it was mapped
 * (dma_need_unmap() may say otherwise later: a swiotlb bounce, a new DMA
 * mask).
 */
static bool unmap_optional(const struct entry *e)
{
	return e->m.flags & PTWALK_DMA_F_UNMAP_OPTIONAL;
}

/*
 * Takes entry i out of its bucket b and, if unmap-optional, the age list,
 * to the free list, in O(1): both lists are doubly linked, so that
 * dropping the oldest entry for room never walks a bucket (a scatterlist's
 * entries share its key, hence one bucket); t->lock held.
 */
static void free_locked(struct tracked *t, unsigned int b, s32 i)
{
	struct entry *e = &t->pool[i];

	if (e->prev == NIL)
		t->buckets[b] = e->next;
	else
		t->pool[e->prev].next = e->next;
	if (e->next != NIL)
		t->pool[e->next].prev = e->prev;
	if (unmap_optional(e)) {
		if (e->older == NIL)
			t->oldest = e->newer;
		else
			t->pool[e->older].newer = e->newer;
		if (e->newer == NIL)
			t->newest = e->older;
		else
			t->pool[e->newer].older = e->older;
	}
	e->next = t->free;
	t->free = i;
	t->live--;
}

/* Drops unmap-optional entry i, never unmapped, to no history. */
static void expire_locked(struct tracked *t, s32 i)
{
	free_locked(t, bucket(t->pool[i].key), i);
	t->expired++;
}

/* Adds m under key; t->lock held. */
static void add_locked(struct tracked *t, const struct ptwalk_dma_mapping *m,
		       unsigned long key)
{
	unsigned int b = bucket(key);
	struct entry *e;
	s32 i;

	/* room: the oldest unmap-optional entry makes it */
	if (t->free == NIL && t->oldest != NIL)
		expire_locked(t, t->oldest);
	i = t->free;
	if (i == NIL) {
		t->overflow++;
		return;
	}
	e = &t->pool[i];
	t->free = e->next;
	e->m = *m;
	e->key = key;
	e->prev = NIL;
	e->next = t->buckets[b];
	if (e->next != NIL)
		t->pool[e->next].prev = i;
	t->buckets[b] = i;
	t->live++;
	if (unmap_optional(e)) {
		e->older = t->newest;
		e->newer = NIL;
		if (t->newest == NIL)
			t->oldest = i;
		else
			t->pool[t->newest].newer = i;
		t->newest = i;
	}
}

/* Moves entry i of bucket b to the history; t->lock held. */
static void remove_locked(struct tracked *t, unsigned int b, s32 i, u64 now)
{
	struct entry *e = &t->pool[i];

	e->m.unmap_ns = now;
	t->optional_unmapped += unmap_optional(e);
	if (t->hist_size)
		t->hist[t->hist_next++ % t->hist_size] = e->m;
	free_locked(t, b, i);
}

/*
 * Removes what key maps: the one mapping of a non-SG kind (sg false), or
 * every entry of the sg list key (sg true).
 */
static void remove_key(struct tracked *t, unsigned long key, bool sg)
{
	unsigned int b = bucket(key);
	u64 now = local_clock();
	unsigned long flags;
	bool found = false;
	s32 i;

	raw_spin_lock_irqsave(&t->lock, flags);
	for (i = t->buckets[b]; i != NIL;) {
		s32 next = t->pool[i].next;

		if (t->pool[i].key == key && is_sg(t->pool[i].m.kind) == sg) {
			remove_locked(t, b, i, now);
			found = true;
			if (!sg)
				break;
		}
		i = next;
	}
	if (!found)
		t->unmapped_unknown++;
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

static void add_one(struct tracked *t, const struct ptwalk_dma_mapping *m,
		    unsigned long key)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&t->lock, flags);
	add_locked(t, m, key);
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

static void probe_map(void *kind, struct device *dev, phys_addr_t phys,
		      dma_addr_t dma, size_t size,
		      enum dma_data_direction dir, unsigned long attrs)
{
	struct tracked *t;
	struct ptwalk_dma_mapping m;

	/* a failed map is traced too (dma_map_page_attrs(), 6.12) */
	if (dma == DMA_MAPPING_ERROR)
		return;
	t = lookup(dev);
	if (!t)
		return;
	m = (struct ptwalk_dma_mapping){
		.dma = dma, .phys = phys, .size = size, .attrs = attrs,
		.dir = dir, .kind = (uintptr_t)kind,
		.flags = ptwalk_dma_unmap_optional(dev) ?
			 PTWALK_DMA_F_UNMAP_OPTIONAL : 0,
	};
	/* 6.18+: dma_map_phys() maps MMIO too, dma_map_resource() gone */
	if (attrs & PTWALK_DMA_ATTR_MMIO)
		m.kind = PTWALK_DMA_RESOURCE;
	caller(&m);
	add_one(t, &m, dma);
}

static void probe_unmap(void *data, struct device *dev, dma_addr_t dma,
			size_t size, enum dma_data_direction dir,
			unsigned long attrs)
{
	struct tracked *t = lookup(dev);

	if (t)
		remove_key(t, dma, false);
}

/*
 * A coherent buffer's first frame: linear or vmap()ed (dma-iommu
 * remaps); with DMA_ATTR_NO_KERNEL_MAPPING dma-direct returns the struct
 * page * itself as the cookie, taken as one only when it is the memmap
 * entry of an online frame.
 */
static u64 virt_phys(void *virt, unsigned long attrs)
{
	struct page *page;

	if (!virt)
		return PTWALK_DMA_PHYS_NONE;
	if (virt_addr_valid(virt))
		return virt_to_phys(virt);
	if (is_vmalloc_addr(virt)) {
		page = vmalloc_to_page(virt);
		return page ? page_to_phys(page) + offset_in_page(virt) :
			      PTWALK_DMA_PHYS_NONE;
	}
	/* with a virtual memmap page_to_pfn() is arithmetic, reading nothing */
	if (IS_ENABLED(CONFIG_SPARSEMEM_VMEMMAP) &&
	    (attrs & DMA_ATTR_NO_KERNEL_MAPPING)) {
		unsigned long pfn = page_to_pfn((struct page *)virt);

		if (pfn_to_online_page(pfn) == virt)
			return PFN_PHYS(pfn);
	}
	return PTWALK_DMA_PHYS_NONE;
}

/*
 * Whether a coherent buffer is a vmap() of frames apart (dma-iommu's
 * remap of single pages), which PTWALK_DMA_F_VMAPPED says; other remaps
 * (dma-direct's, dma-iommu's contiguous and atomic pools) are of one
 * contiguous range.  On a tracked device's allocation only.
 */
static bool vmapped_apart(void *virt, size_t size)
{
	unsigned long first, i;

	if (!is_vmalloc_addr(virt))
		return false;
	first = vmalloc_to_pfn(virt);
	for (i = 1; i < DIV_ROUND_UP(size, PAGE_SIZE); i++)
		if (vmalloc_to_pfn(virt + i * PAGE_SIZE) != first + i)
			return true;
	return false;
}

static void probe_alloc(void *kind, struct device *dev, void *virt,
			dma_addr_t dma, size_t size,
			enum dma_data_direction dir, gfp_t gfp,
			unsigned long attrs)
{
	struct tracked *t = lookup(dev);
	struct ptwalk_dma_mapping m;

	if (!t || !virt)	/* a failed allocation is traced too */
		return;
	m = (struct ptwalk_dma_mapping){
		.dma = dma, .phys = virt_phys(virt, attrs), .size = size,
		.attrs = attrs, .dir = dir, .kind = (uintptr_t)kind,
		.flags = vmapped_apart(virt, size) ? PTWALK_DMA_F_VMAPPED : 0,
	};
	caller(&m);
	add_one(t, &m, dma);
}

static void probe_free(void *data, struct device *dev, void *virt,
		       dma_addr_t dma, size_t size,
		       enum dma_data_direction dir, unsigned long attrs)
{
	struct tracked *t = lookup(dev);

	if (t)
		remove_key(t, dma, false);
}

/*
 * One entry per segment of the list as the driver built it (nents of
 * them), each with its device address: the DMA segments (ents) cover the
 * entries in order, dma-direct one each, dma-iommu several merged into
 * one IOVA range (exact where the entries are whole pages, as a pinned
 * user buffer's are).
 */
static void add_sg(struct tracked *t, struct device *dev,
		   struct scatterlist *sgl, int nents,
		   int ents, enum dma_data_direction dir, unsigned long attrs,
		   u32 kind)
{
	struct scatterlist *sg, *seg = sgl;
	struct ptwalk_dma_mapping m = {
		.attrs = attrs, .dir = dir, .kind = kind,
	};
	/* dma_free_noncontiguous() always comes: only dma_map_sg()'s may not */
	u32 optional = kind == PTWALK_DMA_SG &&
		       ptwalk_dma_unmap_optional(dev) ?
		       PTWALK_DMA_F_UNMAP_OPTIONAL : 0;
	unsigned long flags;
	unsigned int off = 0;
	int i, s = 0;
	s32 j, next;

	raw_spin_lock_irqsave(&t->lock, flags);
	/*
	 * The list mapped again while an unmap-optional mapping of it is
	 * kept: that one is over (dma_map_sg() wrote its device addresses
	 * anew, so no unmap of it can come), dropped as if for room, lest
	 * the next dma_unmap_sg() of the list take it for unmapped now.
	 */
	for (j = t->buckets[bucket((unsigned long)sgl)]; j != NIL; j = next) {
		struct entry *e = &t->pool[j];

		next = e->next;
		if (e->key == (unsigned long)sgl && is_sg(e->m.kind) &&
		    unmap_optional(e))
			expire_locked(t, j);
	}
	for_each_sg(sgl, sg, nents, i) {
		if (!seg || s >= ents)
			break;
		m.dma = sg_dma_address(seg) + off;
		m.phys = sg_phys(sg);
		m.size = sg->length;
		m.flags = optional;
		caller(&m);
		add_locked(t, &m, (unsigned long)sgl);
		off += sg->length;
		if (off >= sg_dma_len(seg)) {
			seg = sg_next(seg);
			s++;
			off = 0;
		}
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

static void probe_map_sg(void *data, struct device *dev,
			 struct scatterlist *sgl, int nents, int ents,
			 enum dma_data_direction dir, unsigned long attrs)
{
	struct tracked *t;

	/* a failure is dma_map_sg_err, not traced here; kept safe anyway */
	if (ents <= 0)
		return;
	t = lookup(dev);
	if (t)
		add_sg(t, dev, sgl, nents, ents, dir, attrs, PTWALK_DMA_SG);
}

static void probe_unmap_sg(void *data, struct device *dev,
			   struct scatterlist *sgl, int nents,
			   enum dma_data_direction dir, unsigned long attrs)
{
	struct tracked *t = lookup(dev);

	if (t)
		remove_key(t, (unsigned long)sgl, true);
}

static void probe_alloc_sgt(void *data, struct device *dev,
			    struct sg_table *sgt, size_t size,
			    enum dma_data_direction dir, gfp_t gfp,
			    unsigned long attrs)
{
	struct tracked *t = lookup(dev);

	if (t)
		add_sg(t, dev, sgt->sgl, sgt->orig_nents, sgt->nents, dir,
		       attrs, PTWALK_DMA_SGT);
}

static void probe_free_sgt(void *data, struct device *dev,
			   struct sg_table *sgt, size_t size,
			   enum dma_data_direction dir)
{
	struct tracked *t = lookup(dev);

	if (t)
		remove_key(t, (unsigned long)sgt->sgl, true);
}

/*
 * Each probe's type against its tracepoint's, as lttng-modules checks
 * (check_trace_callback_type_*() of DECLARE_TRACE): a prototype changed
 * in a later release fails the build instead of a probe reading its
 * arguments wrong.  Kbuild says which events the header has.
 */
#if defined(PTWALK_HAVE_TRACE_DMA_MAP_PAGE) || \
	defined(PTWALK_HAVE_TRACE_DMA_MAP_PHYS)
#include <trace/events/dma.h>

static void __maybe_unused check_probe_types(void)
{
#ifdef PTWALK_HAVE_TRACE_DMA_MAP_PAGE
	check_trace_callback_type_dma_map_page(probe_map);
	check_trace_callback_type_dma_map_resource(probe_map);
	check_trace_callback_type_dma_unmap_page(probe_unmap);
	check_trace_callback_type_dma_unmap_resource(probe_unmap);
#endif
#ifdef PTWALK_HAVE_TRACE_DMA_MAP_PHYS
	check_trace_callback_type_dma_map_phys(probe_map);
	check_trace_callback_type_dma_unmap_phys(probe_unmap);
#endif
	check_trace_callback_type_dma_alloc(probe_alloc);
	check_trace_callback_type_dma_alloc_pages(probe_alloc);
	check_trace_callback_type_dma_free(probe_free);
	check_trace_callback_type_dma_free_pages(probe_free);
	check_trace_callback_type_dma_map_sg(probe_map_sg);
	check_trace_callback_type_dma_unmap_sg(probe_unmap_sg);
	check_trace_callback_type_dma_alloc_sgt(probe_alloc_sgt);
	check_trace_callback_type_dma_free_sgt(probe_free_sgt);
}
#endif

/* The events, by name; data is what the probe is given (a kind). */
static struct dma_event {
	const char *name;
	void *probe;
	uintptr_t data;
	struct tracepoint *tp;	/* found on this kernel, or NULL */
	bool attached;
} events[] = {
	{ "dma_map_page", probe_map, PTWALK_DMA_PAGE },
	{ "dma_map_phys", probe_map, PTWALK_DMA_PAGE },
	{ "dma_map_resource", probe_map, PTWALK_DMA_RESOURCE },
	{ "dma_unmap_page", probe_unmap },
	{ "dma_unmap_phys", probe_unmap },
	{ "dma_unmap_resource", probe_unmap },
	{ "dma_alloc", probe_alloc, PTWALK_DMA_COHERENT },
	{ "dma_alloc_pages", probe_alloc, PTWALK_DMA_PAGES },
	{ "dma_free", probe_free },
	{ "dma_free_pages", probe_free },
	{ "dma_map_sg", probe_map_sg },
	{ "dma_unmap_sg", probe_unmap_sg },
	{ "dma_alloc_sgt", probe_alloc_sgt },
	{ "dma_free_sgt", probe_free_sgt },
};

static void find_event(struct tracepoint *tp, void *unused)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (!strcmp(tp->name, events[i].name))
			events[i].tp = tp;
}

/*
 * Whether this kernel has the events a mapping needs to be known: a map
 * and an unmap (6.12's dma_map_page or 7.x's dma_map_phys).
 */
static bool have_events(void)
{
	return (events[0].tp || events[1].tp) && (events[3].tp || events[4].tp);
}

static void detach_all(void)
{
	size_t i;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return;
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (!events[i].attached)
			continue;
		tracepoint_probe_unregister(events[i].tp, events[i].probe,
					    (void *)events[i].data);
		events[i].attached = false;
	}
	/* no probe runs, nor will one start, once this returns */
	tracepoint_synchronize_unregister();
}

static int attach_all(void)
{
	size_t i;
	int ret;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return -EOPNOTSUPP;
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (!events[i].tp)
			continue;
		ret = tracepoint_probe_register(events[i].tp, events[i].probe,
						(void *)events[i].data);
		if (ret) {
			detach_all();
			return ret;
		}
		events[i].attached = true;
	}
	return 0;
}

static void tracked_free(struct tracked *t)
{
	put_device(t->dev);
	vfree(t->pool);
	vfree(t->hist);
	kfree(t);
}

static struct tracked *tracked_alloc(struct device *dev)
{
	struct tracked *t = kzalloc(sizeof(*t), GFP_KERNEL);
	u32 i;

	if (!t)
		return NULL;
	t->pool = vmalloc(array_size(dma_track_maps, sizeof(*t->pool)));
	t->hist = dma_track_history ?
		  vzalloc(array_size(dma_track_history, sizeof(*t->hist))) :
		  NULL;
	if (!t->pool || (dma_track_history && !t->hist)) {
		vfree(t->pool);
		vfree(t->hist);
		kfree(t);
		return NULL;
	}
	raw_spin_lock_init(&t->lock);
	for (i = 0; i < ARRAY_SIZE(t->buckets); i++)
		t->buckets[i] = NIL;
	for (i = 0; i < dma_track_maps; i++)
		t->pool[i].next = i + 1 < dma_track_maps ? i + 1 : NIL;
	t->free = dma_track_maps ? 0 : NIL;
	t->oldest = NIL;
	t->newest = NIL;
	t->capacity = dma_track_maps;
	t->hist_size = dma_track_history;
	t->tracked_ns = local_clock();
	t->dev = dev;
	t->key.dev = dev;
	return t;
}

/* The referenced PCI device of a NUL-terminated name, or an ERR_PTR. */
static struct device *device_named(const char *name, size_t max)
{
	struct device *dev;

	if (!memchr(name, '\0', max) || !*name)
		return ERR_PTR(-EINVAL);
	dev = bus_find_device_by_name(&pci_bus_type, NULL, name);
	return dev ?: ERR_PTR(-ENODEV);
}

/*
 * Tracks dev (its reference kept, or dropped): the tracked device, or an
 * ERR_PTR; track_lock held.
 */
static struct tracked *track_locked(struct device *dev)
{
	struct tracked *t = lookup(dev);
	int ret;

	if (t) {
		put_device(dev);
		return t;
	}
	if (nr_tracked >= PTWALK_DMA_MAX_DEVICES) {
		put_device(dev);
		return ERR_PTR(-ENOSPC);
	}
	t = tracked_alloc(dev);
	if (!t) {
		put_device(dev);
		return ERR_PTR(-ENOMEM);
	}
	if (!nr_tracked) {
		ret = attach_all();
		if (ret) {
			tracked_free(t);
			return ERR_PTR(ret);
		}
	}
	t->used = jiffies;
	ptwalk_dma_table_insert(table(), &t->key);
	nr_tracked++;
	return t;
}

/* Stops tracking t and frees it; track_lock held. */
static void untrack_locked(struct tracked *t)
{
	struct ptwalk_dma_table *old = table();
	struct ptwalk_dma_table *tb = old == &tables[0] ? &tables[1] :
							 &tables[0];

	/* no probe reads tb: the last switch away from it waited for them */
	ptwalk_dma_table_rebuild(tb, old, &t->key);
	rcu_assign_pointer(live_table, tb);
	if (--nr_tracked) {
		/* probes that found t, or read old, have returned */
		tracepoint_synchronize_unregister();
	} else {
		detach_all();
	}
	tracked_free(t);
}

static unsigned long idle_jiffies(void)
{
	return (unsigned long)READ_ONCE(dma_track_idle) * HZ;
}

/* Whether t is kept by nothing but the idle time; track_lock held. */
static bool idle(const struct tracked *t)
{
	return !t->holds && !t->for_good;
}

/*
 * Untracks the devices idle for dma_track_idle seconds since their last
 * release or read, and comes back for the next one due.
 */
static void idle_untrack(struct work_struct *work)
{
	unsigned long next = 0;
	bool again = false;
	unsigned int i;

	mutex_lock(&track_lock);
	for (i = 0; i < PTWALK_DMA_SLOTS; i++) {
		struct ptwalk_dma_key *k = table()->slot[i];
		struct tracked *t = k ? container_of(k, struct tracked, key) :
					NULL;
		unsigned long due;

		if (!t || !idle(t))
			continue;
		due = t->used + idle_jiffies();
		if (time_after_eq(jiffies, due)) {
			untrack_locked(t);
			i = -1;		/* the table was rebuilt: start over */
		} else if (!again || time_before(due, next)) {
			next = due;
			again = true;
		}
	}
	if (again)
		schedule_delayed_work(&idle_work, next - jiffies);
	mutex_unlock(&track_lock);
}

/* t was released or read now; track_lock held. */
static void used_now(struct tracked *t)
{
	t->used = jiffies;
	if (idle(t))
		schedule_delayed_work(&idle_work, idle_jiffies());
}

static int hold_slot(struct ptwalk_dma_holds *h, struct device *dev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(h->dev); i++)
		if (h->dev[i] == dev)
			return i;
	return -1;
}

/*
 * Tracking on: the session holds the device (once, however often it
 * asks).  Off: the session's hold goes, and the device is untracked now
 * unless another session holds it or dma_track named it (EBUSY when this
 * session held none).
 */
static int track_ioctl(struct ptwalk_dma_holds *h, void __user *arg)
{
	struct ptwalk_dma_track q;
	struct tracked *t;
	struct device *dev;
	int ret, held;

	ret = ptwalk_query_copy(&q, sizeof(q), sizeof(q), arg);
	if (ret)
		return ret;
	if (q.flags & ~PTWALK_DMA_TRACK_OFF)
		return -EINVAL;
	dev = device_named(q.device, sizeof(q.device));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	mutex_lock(&track_lock);
	held = hold_slot(h, dev);
	if (q.flags & PTWALK_DMA_TRACK_OFF) {
		t = lookup(dev);
		put_device(dev);
		ret = 0;
		if (!t) {
			ret = -ENOENT;
		} else if (held >= 0) {
			h->dev[held] = NULL;
			t->holds--;
		} else if (!idle(t)) {
			ret = -EBUSY;
		}
		if (t && idle(t))
			untrack_locked(t);
	} else if (held < 0) {
		held = hold_slot(h, NULL);
		/* held < 0: it holds every tracked device, so none is free */
		t = held < 0 ? (put_device(dev), ERR_PTR(-ENOSPC)) :
			       track_locked(dev);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
		} else {
			/* a free slot: one per tracked device at most */
			h->dev[held] = t->dev;
			t->holds++;
		}
	} else {
		put_device(dev);
	}
	mutex_unlock(&track_lock);
	return ret;
}

void ptwalk_dma_release(struct ptwalk_dma_holds *h)
{
	unsigned int i;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return;
	mutex_lock(&track_lock);
	for (i = 0; i < ARRAY_SIZE(h->dev); i++) {
		struct tracked *t = h->dev[i] ? lookup(h->dev[i]) : NULL;

		if (!t)
			continue;
		h->dev[i] = NULL;
		t->holds--;
		used_now(t);
	}
	mutex_unlock(&track_lock);
}

/*
 * Flags read now (of the first frame alone where the buffer was
 * vmap()ed): whether the frames have struct pages, are all pinned,
 * and whether one is free: in the buddy allocator (no frame of a live
 * allocation is), or the first frame, which held a reference when
 * mapped, holds none (a page freed to the per-CPU lists has no flag to
 * say so).  Racy reads, which the caller re-reads before reporting.
 */
static void frame_flags(struct ptwalk_dma_mapping *m)
{
	unsigned long pfn, last;
	bool pinned = true;

	if (m->phys == PTWALK_DMA_PHYS_NONE || !m->size)
		return;
	pfn = PHYS_PFN(m->phys);
	/* a vmap()ed buffer's next frames are not the ones after its first */
	last = m->flags & PTWALK_DMA_F_VMAPPED ? pfn :
	       PHYS_PFN(m->phys + m->size - 1);
	if (!pfn_to_online_page(pfn))
		return;
	m->flags |= PTWALK_DMA_F_PAGE | frame_kind(pfn) << PTWALK_DMA_NOW_SHIFT;
	for (; pfn <= last; pfn++) {
		struct page *page = pfn_to_online_page(pfn);

		if (page && (PageBuddy(page) ||
			     (pfn == PHYS_PFN(m->phys) &&
			      (m->flags & PTWALK_DMA_F_COUNTED) &&
			      !page_count(page))))
			m->flags |= PTWALK_DMA_F_FREE;
		if (!page || !ptwalk_page_maybe_dma_pinned(page))
			pinned = false;
		cond_resched();
	}
	if (pinned)
		m->flags |= PTWALK_DMA_F_PINNED;
}

/* Buckets copied per hold of t->lock (interrupts off meanwhile). */
#define SNAPSHOT_BUCKETS	32

/*
 * Copies out what t keeps into bounded buffers, taking t->lock once per
 * SNAPSHOT_BUCKETS buckets, whole buckets each time: every entry copied
 * was live when its bucket was copied, none twice (an entry stays in
 * the bucket of its key); one made or unmapped meanwhile may be in or
 * out.  The counts are read with the last chunk.
 */
static void snapshot(struct tracked *t, struct ptwalk_dma_query *q,
		     struct ptwalk_dma_mapping *maps,
		     struct ptwalk_dma_mapping *unmaps)
{
	u32 n = 0, b = 0, end, h = 0;
	unsigned long flags;
	s32 i;

	for (;;) {
		end = min_t(u32, b + SNAPSHOT_BUCKETS, ARRAY_SIZE(t->buckets));
		raw_spin_lock_irqsave(&t->lock, flags);
		for (; b < end && n < q->nr_maps; b++)
			for (i = t->buckets[b]; i != NIL && n < q->nr_maps;
			     i = t->pool[i].next)
				maps[n++] = t->pool[i].m;
		if (b < ARRAY_SIZE(t->buckets) && n < q->nr_maps) {
			raw_spin_unlock_irqrestore(&t->lock, flags);
			cond_resched();
			continue;
		}
		break;
	}
	while (h < q->nr_unmaps && h < t->hist_size && h < t->hist_next) {
		unmaps[h] = t->hist[(t->hist_next - 1 - h) % t->hist_size];
		h++;
	}
	q->live = t->live;
	q->capacity = t->capacity;
	q->overflow = t->overflow;
	q->unmapped_unknown = t->unmapped_unknown;
	q->tracked_ns = t->tracked_ns;
	q->expired = t->expired;
	q->optional_unmapped = t->optional_unmapped;
	raw_spin_unlock_irqrestore(&t->lock, flags);
	q->nr_maps = n;
	q->nr_unmaps = h;
}

static long maps_ioctl(void __user *arg)
{
	struct ptwalk_dma_mapping *maps = NULL, *unmaps = NULL;
	struct ptwalk_dma_query q;
	struct device *dev;
	struct tracked *t;
	size_t usize;
	u32 i;
	int ret;

	ret = ptwalk_query_copy(&q, sizeof(q), PTWALK_DMA_QUERY_SIZE_V1, arg);
	if (ret)
		return ret;
	if (q.flags)
		return -EINVAL;
	/* the caller's struct: the answer goes as far as it does */
	usize = min_t(size_t, q.size, sizeof(q));
	dev = device_named(q.device, sizeof(q.device));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	mutex_lock(&track_lock);
	t = lookup(dev);
	put_device(dev);
	if (!t) {
		ret = -ENOENT;
		goto out;
	}
	q.nr_maps = min(q.nr_maps, t->capacity);
	q.nr_unmaps = min(q.nr_unmaps, t->hist_size);
	maps = kvcalloc(q.nr_maps ?: 1, sizeof(*maps), GFP_KERNEL);
	unmaps = kvcalloc(q.nr_unmaps ?: 1, sizeof(*unmaps), GFP_KERNEL);
	if (!maps || !unmaps) {
		ret = -ENOMEM;
		goto out;
	}
	used_now(t);
	snapshot(t, &q, maps, unmaps);
	for (i = 0; i < q.nr_maps; i++)
		frame_flags(&maps[i]);
	/* what an unmapped frame is now: a fault after the unmap asks */
	for (i = 0; i < q.nr_unmaps; i++) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto out;
		}
		frame_flags(&unmaps[i]);
	}
	if (copy_to_user(u64_to_user_ptr(q.maps), maps,
			 array_size(q.nr_maps, sizeof(*maps))) ||
	    copy_to_user(u64_to_user_ptr(q.unmaps), unmaps,
			 array_size(q.nr_unmaps, sizeof(*unmaps))) ||
	    copy_to_user(arg, &q, usize))
		ret = -EFAULT;
out:
	mutex_unlock(&track_lock);
	kvfree(maps);
	kvfree(unmaps);
	return ret;
}

long ptwalk_dma_ioctl(struct ptwalk_dma_holds *h, unsigned int cmd,
		      void __user *arg)
{
	if (!IS_ENABLED(CONFIG_TRACEPOINTS) || !have_events())
		return -EOPNOTSUPP;
	if (ptwalk_confidentiality_locked())
		return -EACCES;
	return cmd == PTWALK_IOC_DMA_TRACK ? track_ioctl(h, arg) :
					     maps_ioctl(arg);
}

void ptwalk_dma_track_init(void)
{
	char *list, *p, *name;
	struct device *dev;
	struct tracked *t;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return;
	for_each_kernel_tracepoint(find_event, NULL);
	if (!dma_track || !*dma_track)
		return;
	if (!have_events()) {
		pr_notice("ptwalk: dma_track needs the DMA API's tracepoints (Linux 6.12 or later)\n");
		return;
	}
	list = kstrdup(dma_track, GFP_KERNEL);
	for (p = list; p && (name = strsep(&p, ",")) != NULL;) {
		if (!*name)
			continue;
		dev = device_named(name, strlen(name) + 1);
		mutex_lock(&track_lock);
		t = IS_ERR(dev) ? ERR_CAST(dev) : track_locked(dev);
		if (!IS_ERR(t))
			t->for_good = true;
		mutex_unlock(&track_lock);
		if (IS_ERR(t))
			pr_notice("ptwalk: dma_track %s: %ld\n", name,
				  PTR_ERR(t));
	}
	kfree(list);
}

void ptwalk_dma_track_exit(void)
{
	struct ptwalk_dma_table *tb;
	unsigned int i;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return;
	/* no session is left: only the idle work could still untrack */
	cancel_delayed_work_sync(&idle_work);
	mutex_lock(&track_lock);
	if (nr_tracked)
		detach_all();
	tb = table();
	for (i = 0; i < PTWALK_DMA_SLOTS; i++)
		if (tb->slot[i])
			tracked_free(container_of(tb->slot[i], struct tracked,
						  key));
	memset(tb, 0, sizeof(*tb));
	nr_tracked = 0;
	mutex_unlock(&track_lock);
}
