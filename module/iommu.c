// SPDX-License-Identifier: GPL-2.0
/*
 * The device's view (PTWALK_IOC_IOMMU): each page of a range of device
 * addresses (IOVAs) of one PCI device, translated by the IOMMU domain the
 * device is attached to, through exported interfaces only: the PCI bus's
 * lookup, iommu_group_get(), iommu_group_for_each_dev(), the domain reader
 * of compat.h and iommu_iova_to_phys().
 *
 * Lifetimes, and why each is safe:
 *  - The device: pci_get_domain_bus_and_slot() returns it referenced; the
 *    query keeps that reference until it ends, so the struct stays valid
 *    even if the device is unbound or removed meanwhile.  Each chunk first
 *    checks that it is still registered, still in an IOMMU group if it had
 *    one, and still bound to the driver it had: a device that went away
 *    ends the query with ENODEV rather than turning into a device without
 *    an IOMMU (iommu_release_device() clears dev->iommu_group on removal).
 *    "The driver it had" is more than an equal dev->driver: an unbind
 *    and a bind to the same driver between two chunks leave that equal,
 *    so a notifier on the PCI bus (bus_register_notifier(), held while
 *    the query is) notes any unbind or bind of the device, and the query
 *    ends with ENODEV rather than mix two bindings.
 *  - A device without an IOMMU group: dma_to_phys() reads its
 *    dma_range_map, which the driver core frees when the driver is
 *    unbound (device_unbind_cleanup(), under the device lock, 5.10 to
 *    7.2) and builds anew at the next probe (the bus's dma_configure).
 *    So each chunk of such a device holds device_lock_interruptible()
 *    around the checks above and the translation, never across a copy to
 *    user memory.  While no driver is bound the map is NULL, which
 *    dma_to_phys() reads as "no offset": true only where the platform
 *    describes none (dma_offset_unknown()).
 *  - The group: iommu_group_get() per chunk, a kobject reference; NULL for
 *    a device without one (then there is no domain to free at all).
 *  - The domain: it is not reference counted, and VFIO frees its domain
 *    once the group is detached (vfio_iommu_type1_detach_group():
 *    iommu_detach_group(), then iommu_domain_free(), in 5.10 to 6.12;
 *    iommufd likewise detaches under the group first).  But a group's
 *    domain only changes with the group's mutex held (__iommu_attach_group,
 *    __iommu_detach_group, __iommu_group_set_domain in drivers/iommu/iommu.c
 *    of 5.10, 6.1, 6.12 and 7.2), and iommu_group_for_each_dev() calls its
 *    callback with that mutex held.  So the domain is read and used only
 *    inside that callback: no detach can run, hence no free, until it
 *    returns, and the pointer never leaves it.  A detach between two
 *    chunks is simply seen: the next chunk reads the new domain, and the
 *    records say which domain answered each page.
 *  - Bounded: at most PTWALK_IOMMU_CHUNK pages per hold of the mutex (an
 *    attach or detach waits that long at worst); between chunks the mutex
 *    is dropped and signals checked; one read translates at most
 *    PTWALK_IOMMU_READ_PAGES pages and ends on any signal.
 *
 * What no exported interface can exclude: an unmap racing with the walk.
 * iommu_iova_to_phys() walks the driver's IO page tables with no lock;
 * only the domain's owner serialises it against its own unmaps (VFIO
 * type1's iommu->lock, iommufd's area locks), and a third party cannot
 * take those.  An unmap frees table pages once the IOTLB is flushed, so a
 * walk racing with it may read a freed, reused page as a table.  So a
 * paging domain is read only while its owner cannot unmap: the caller
 * says it stopped every process that holds the domain's VFIO or iommufd
 * files (PTWALK_IOMMU_OWNER_STOPPED, unmanaged domains only), or accepts
 * the risk (PTWALK_IOMMU_LIVE); the kernel's DMA API, which maps and
 * unmaps from interrupt context too, cannot be stopped.  Under lockdown
 * in confidentiality mode none is read (iommu_policy.h); identity and
 * blocked domains have no tables to read.
 *
 * iommu_iova_to_phys() is asked only inside the domain's aperture (the
 * generic page-table code of the newest kernels may answer an IOVA outside
 * its table with a negative errno cast to an address, not 0) and only for
 * paging domains: identity is computed (5.10 left it to the driver, and
 * Intel's passthrough answered 0), blocked translates nothing, and SVA,
 * nested and platform domains have no iova_to_phys: refused.
 */
#include <linux/acpi.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/dma-direct.h>
#include <linux/err.h>
#include <linux/iommu.h>
#include <linux/pci.h>
#include <linux/mem_encrypt.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include "compat.h"
#include "iommu.h"
#include "iommu_frames.h"
#include "iommu_policy.h"
#include "lockdown.h"

/* Pages translated per hold of the group's mutex. */
#define PTWALK_IOMMU_CHUNK	512

/* One chunk of a query: the callback's context. */
struct iommu_chunk {
	struct ptwalk_iommu_cursor *q;
	struct device *dev;
	struct ptwalk_iommu_record *out;
	unsigned int nr_out;
	unsigned int max_out;		/* 0: only check the domain */
	bool found;			/* the callback met the device */
};

/*
 * Parses @n hex digits at most (at least one) from *@p, up to @max; moves
 * *@p past them.  Strict: no sign, no 0x, no blanks.
 */
static bool parse_hex(const char **p, unsigned int n, u32 max, u32 *out)
{
	unsigned int i;
	u32 v = 0;

	for (i = 0; i < n && isxdigit((*p)[i]); i++) {
		char c = (*p)[i];

		/* not hex_to_bin(): 7.2 moved it out of kernel.h */
		v = v * 16 + (isdigit(c) ? c - '0' : _tolower(c) - 'a' + 10);
	}
	if (!i || v > max)
		return false;
	*p += i;
	*out = v;
	return true;
}

/*
 * "DDDD:BB:DD.F", as pci_name() writes it (domain 4 to 8 hex digits: VMD
 * domains have 5), into a referenced pci_dev, or an errno.
 */
static struct pci_dev *device_lookup(const char *name)
{
	u32 domain, bus, slot, fn;
	const char *p = name;

	if (!parse_hex(&p, 8, U32_MAX, &domain) || p - name < 4 ||
	    *p++ != ':' || !parse_hex(&p, 2, 0xff, &bus) || *p++ != ':' ||
	    !parse_hex(&p, 2, 0x1f, &slot) || *p++ != '.' ||
	    !parse_hex(&p, 1, 7, &fn) || *p)
		return ERR_PTR(-EINVAL);
	return pci_get_domain_bus_and_slot(domain, bus, PCI_DEVFN(slot, fn)) ?:
	       ERR_PTR(-ENODEV);
}

/* enum ptwalk_iommu_domain of @d, or -ENOENT (none), -EOPNOTSUPP. */
static int domain_kind(const struct iommu_domain *d)
{
	if (!d)
		return -ENOENT;
	switch (d->type) {
	case IOMMU_DOMAIN_BLOCKED:
		return PTWALK_IOMMU_BLOCKED;
	case IOMMU_DOMAIN_IDENTITY:
		return PTWALK_IOMMU_IDENTITY;
	case IOMMU_DOMAIN_UNMANAGED:
		return PTWALK_IOMMU_UNMANAGED;
	case IOMMU_DOMAIN_DMA:
		return PTWALK_IOMMU_DMA;
	}
	if (ptwalk_iommu_type_is_dma_fq(d->type))
		return PTWALK_IOMMU_DMA_FQ;
	return -EOPNOTSUPP;
}

/*
 * 0 if the query @q may read a domain of @kind, else the errno
 * (iommu_policy.h).  Lockdown was asked once, at the query's start.
 */
static int kind_allowed(int kind, const struct ptwalk_iommu_cursor *q)
{
	return ptwalk_iommu_kind_allowed(kind, q->flags,
					 ptwalk_iommu_kind_is_paging(kind) &&
					 q->confidential);
}

static bool kind_is_paging(int kind)
{
	return ptwalk_iommu_kind_is_paging(kind);
}

/* The aperture of a paging domain; a driver that set none: everything. */
static void domain_aperture(const struct iommu_domain *d, int kind,
			    u64 *start, u64 *end)
{
	*start = 0;
	*end = U64_MAX;
	if (kind_is_paging(kind) && d->geometry.aperture_end) {
		*start = d->geometry.aperture_start;
		*end = d->geometry.aperture_end;
	}
}

/*
 * -EDOM when a paging domain's smallest page is smaller than the kernel's
 * (a 4K IOMMU granule under a 16K or 64K arm64 kernel): a kernel page is
 * then several IOMMU pages that may go to unrelated frames, and records
 * in kernel pages would merge them silently.
 */
static int granule_check(const struct iommu_domain *d, int kind)
{
	if (!kind_is_paging(kind))
		return 0;
	return ptwalk_granule_too_small(d->pgsize_bitmap, PAGE_SHIFT) ?
	       -EDOM : 0;
}

/* The encryption bit of a bus address (iommu_frames.h), 0 without. */
static u64 sme_bit(void)
{
	return ~(u64)__sme_clr(~(phys_addr_t)0);
}

/*
 * The frame a device without an IOMMU reaches at bus address @dma, or
 * PTWALK_PFN_NONE outside its dma_range_map (iommu_frames.h).
 */
static u64 direct_pfn(struct device *dev, u64 dma)
{
	return ptwalk_direct_frame(dma_to_phys(dev, dma), sme_bit(),
				   PAGE_SHIFT);
}

/* The frame @d of @kind sends @iova to, or PTWALK_PFN_NONE. */
static u64 domain_pfn(struct iommu_domain *d, int kind,
		      const struct ptwalk_iommu_record *tmpl, u64 iova)
{
	phys_addr_t phys;

	/*
	 * An identity domain passes the bus address through; with memory
	 * encryption (AMD SME) that address carries the C-bit, which is no
	 * part of the frame.
	 */
	if (kind == PTWALK_IOMMU_IDENTITY)
		return ptwalk_identity_frame(iova, sme_bit(), PAGE_SHIFT);
	if (!kind_is_paging(kind) || iova < tmpl->aperture_start ||
	    iova > tmpl->aperture_end)
		return PTWALK_PFN_NONE;
	phys = iommu_iova_to_phys(d, iova);
	/* 0 is "no translation"; the newest kernels may return an errno */
	if (!phys || IS_ERR_VALUE((unsigned long)phys))
		return PTWALK_PFN_NONE;
	return PHYS_PFN(phys);
}

/* Whether @next (one page) continues @rec. */
static bool extends(const struct ptwalk_iommu_record *rec,
		    const struct ptwalk_iommu_record *next)
{
	if (rec->domain != next->domain ||
	    rec->aperture_start != next->aperture_start ||
	    rec->aperture_end != next->aperture_end ||
	    rec->pgsize_bitmap != next->pgsize_bitmap ||
	    rec->iova + rec->nr_pages * PAGE_SIZE != next->iova)
		return false;
	if (rec->pfn == PTWALK_PFN_NONE || next->pfn == PTWALK_PFN_NONE)
		return rec->pfn == next->pfn;
	return rec->pfn + rec->nr_pages == next->pfn;
}

/*
 * Adds the page @page to the pending record; false, adding nothing, when
 * it starts a new record and out has no room for the one it completes.
 */
static bool emit(struct iommu_chunk *c, const struct ptwalk_iommu_record *page)
{
	struct ptwalk_iommu_cursor *q = c->q;

	if (q->have_pending && extends(&q->pending, page)) {
		q->pending.nr_pages++;
	} else {
		if (q->have_pending) {
			if (c->nr_out == c->max_out)
				return false;
			c->out[c->nr_out++] = q->pending;
		}
		q->pending = *page;
		q->have_pending = true;
	}
	q->next += PAGE_SIZE;
	return true;
}

/*
 * Translates up to PTWALK_IOMMU_CHUNK pages of @c's query through @d (NULL
 * with @kind PTWALK_IOMMU_NONE: no group).  With the group's mutex held,
 * unless there is no group.
 */
static void translate(struct iommu_chunk *c, struct iommu_domain *d, int kind)
{
	struct ptwalk_iommu_cursor *q = c->q;
	struct ptwalk_iommu_record page = { .domain = kind, .nr_pages = 1 };
	unsigned int n;

	if (d) {
		domain_aperture(d, kind, &page.aperture_start,
				&page.aperture_end);
		if (kind_is_paging(kind))
			page.pgsize_bitmap = d->pgsize_bitmap;
	} else {
		page.aperture_end = U64_MAX;
	}
	for (n = 0; n < PTWALK_IOMMU_CHUNK && q->next < q->end && q->budget;
	     n++) {
		page.iova = q->next;
		if (d)
			page.pfn = domain_pfn(d, kind, &page, q->next);
		else
			page.pfn = direct_pfn(c->dev, q->next);
		if (!emit(c, &page))
			break;
		q->budget--;
	}
}

/* iommu_group_for_each_dev()'s callback: the group's mutex is held. */
static int chunk_in_group(struct device *dev, void *data)
{
	struct iommu_chunk *c = data;
	struct iommu_domain *d;
	u64 start, end;
	int kind, ret;

	if (dev != c->dev)
		return 0;
	c->found = true;
	d = ptwalk_iommu_domain_locked(dev);
	kind = domain_kind(d);
	if (kind < 0)
		return kind;
	ret = kind_allowed(kind, c->q) ?: granule_check(d, kind);
	if (ret)
		return ret;
	if (!c->max_out) {
		/* the request's check: the whole range in the aperture */
		domain_aperture(d, kind, &start, &end);
		if (c->q->next < start || c->q->end - 1 > end)
			return -ERANGE;
		return 0;
	}
	translate(c, d, kind);
	return 0;
}

/*
 * Whether the device is still the one the query started on: registered,
 * bound to the same driver all along (an unbind hands it back to the
 * kernel, a rebind to someone else or to the same driver anew), and in an
 * IOMMU group if it had one.
 */
static bool device_still_there(const struct iommu_chunk *c,
			       const struct iommu_group *group)
{
	return device_is_registered(c->dev) &&
	       READ_ONCE(c->dev->driver) == c->q->driver &&
	       !READ_ONCE(c->q->rebound) && (group || !c->q->had_group);
}

/*
 * One chunk of a device without an IOMMU group, under its device lock
 * (iommu.c's head): -ERESTARTSYS when a signal interrupts the wait.
 */
static int chunk_direct(struct iommu_chunk *c)
{
	int ret = 0;

	if (device_lock_interruptible(c->dev))
		return -ERESTARTSYS;
	if (!device_still_there(c, NULL))
		ret = -ENODEV;
	else if (c->max_out)
		translate(c, NULL, PTWALK_IOMMU_NONE);
	device_unlock(c->dev);
	return ret;
}

/* One chunk: the device's group's mutex held around it, if it has one. */
static int chunk(struct iommu_chunk *c)
{
	struct iommu_group *group = iommu_group_get(c->dev);
	int ret;

	if (!group && !c->q->had_group)
		return chunk_direct(c);
	if (!device_still_there(c, group)) {
		iommu_group_put(group);
		return -ENODEV;
	}
	ret = iommu_group_for_each_dev(group, c, chunk_in_group);
	iommu_group_put(group);
	if (!ret && !c->found)
		ret = -ENODEV;
	return ret;
}

static int query_check(const struct ptwalk_iommu_query *q)
{
	if ((q->flags & ~PTWALK_IOMMU_FLAGS) ||
	    strnlen(q->device, sizeof(q->device)) == sizeof(q->device))
		return -EINVAL;
	if (!PAGE_ALIGNED(q->start) || !PAGE_ALIGNED(q->end))
		return -EINVAL;
	if (q->start >= q->end)
		return -ERANGE;
	return 0;
}

/*
 * Whether the platform may give @dev a DMA offset that only a bound
 * driver's dma_range_map holds: the bus's dma_configure builds the map at
 * probe from the firmware (of_dma_configure(): a "dma-ranges" with
 * entries on the device's node or an ancestor's; acpi_dma_configure():
 * _DMA or IORT, which acpi_arch_dma_setup() reads on arm64 and riscv64
 * only).  Neither of_dma_get_range() nor acpi_dma_get_range() is exported,
 * so a description that may hold an offset is enough: while no driver is
 * bound such a device is refused (EADDRNOTAVAIL) rather than answered
 * with addresses the device would not use.
 */
static bool dma_offset_unknown(struct device *dev)
{
	struct device *d;

	for (d = dev; d; d = d->parent) {
		struct device_node *np = of_node_get(d->of_node);
		int len;

		for (; np; np = of_get_next_parent(np)) {
			if (of_get_property(np, "dma-ranges", &len) && len > 0) {
				of_node_put(np);
				return true;
			}
		}
		if ((IS_ENABLED(CONFIG_ARM64) || IS_ENABLED(CONFIG_RISCV)) &&
		    has_acpi_companion(d))
			return true;
	}
	return false;
}

/*
 * The PCI bus's notifier: any unbind or bind of the query's device, noted
 * for the next chunk's device_still_there().  Runs in the driver core's
 * context, with the device lock held: it only notes.
 */
static int binding_event(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	struct ptwalk_iommu_cursor *q =
		container_of(nb, struct ptwalk_iommu_cursor, binding);

	if (data != &q->pdev->dev)
		return NOTIFY_DONE;
	switch (action) {
	case BUS_NOTIFY_BIND_DRIVER:
	case BUS_NOTIFY_UNBIND_DRIVER:
	case BUS_NOTIFY_DEL_DEVICE:
		WRITE_ONCE(q->rebound, true);
		break;
	}
	return NOTIFY_DONE;
}

/* Without the IOMMU API none: the kernel has no domain to read. */
u64 ptwalk_iommu_features(void)
{
	if (!IS_ENABLED(CONFIG_IOMMU_API))
		return 0;
	return PTWALK_FEAT_IOMMU | PTWALK_FEAT_IOMMU_DMA_API |
	       PTWALK_FEAT_IOMMU_OWNER_STOPPED;
}

int ptwalk_iommu_start(struct ptwalk_iommu_cursor *q,
		       const struct ptwalk_iommu_query *query)
{
	struct iommu_group *group;
	struct iommu_chunk c = {};
	struct pci_dev *pdev;
	int ret;

	/* as an unknown query: ptwalk_info.features says so */
	if (!IS_ENABLED(CONFIG_IOMMU_API))
		return -ENOTTY;
	ret = query_check(query);
	if (ret)
		return ret;
	pdev = device_lookup(query->device);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	memset(q, 0, sizeof(*q));
	q->pdev = pdev;
	q->next = query->start;
	q->end = query->end;
	q->flags = query->flags;
	/* asked once per query: the kernel logs each refusal it answers */
	q->confidential = ptwalk_confidentiality_locked();
	/* watched before the driver is read: no bind falls between */
	q->binding.notifier_call = binding_event;
	ret = bus_register_notifier(&pci_bus_type, &q->binding);
	if (ret) {
		q->binding.notifier_call = NULL;
		goto fail;
	}
	q->driver = READ_ONCE(pdev->dev.driver);
	group = iommu_group_get(&pdev->dev);
	q->had_group = group;
	iommu_group_put(group);
	ret = -EADDRNOTAVAIL;
	if (!group && !q->driver && dma_offset_unknown(&pdev->dev))
		goto fail;
	c.q = q;
	c.dev = &pdev->dev;
	ret = chunk(&c);
	if (!ret)
		return 0;
fail:
	ptwalk_iommu_stop(q);
	return ret;
}

void ptwalk_iommu_stop(struct ptwalk_iommu_cursor *q)
{
	/* once it returns, binding_event() runs no more */
	if (q->binding.notifier_call)
		bus_unregister_notifier(&pci_bus_type, &q->binding);
	pci_dev_put(q->pdev);
	memset(q, 0, sizeof(*q));
}

bool ptwalk_iommu_done(const struct ptwalk_iommu_cursor *q)
{
	return q->next >= q->end && !q->have_pending;
}

void ptwalk_iommu_budget_reset(struct ptwalk_iommu_cursor *q)
{
	q->budget = PTWALK_IOMMU_READ_PAGES;
}

bool ptwalk_iommu_budget_spent(const struct ptwalk_iommu_cursor *q)
{
	return !q->budget;
}

int ptwalk_iommu_fill(struct ptwalk_iommu_cursor *q,
		      struct ptwalk_iommu_record *out, unsigned int max)
{
	struct iommu_chunk c = {
		.q = q, .dev = &q->pdev->dev, .out = out, .max_out = max,
	};
	bool yield = false;
	int ret = 0;

	if (!max)
		return 0;
	if (q->error)
		return q->error;
	while (!c.nr_out && q->next < q->end && !yield) {
		ret = chunk(&c);
		if (ret == -ERESTARTSYS) {
			/* a signal, not a failure: the read ends early */
			ret = 0;
			yield = true;
			break;
		}
		if (ret)
			break;
		yield = !q->budget || signal_pending(current);
		cond_resched();
	}
	/*
	 * The run still growing goes out at the end, cut at a yield, and
	 * before a failure, which then waits for the next call: the pages
	 * translated before it are an answer too.
	 */
	if ((q->next >= q->end || ret || (yield && !c.nr_out)) &&
	    q->have_pending && c.nr_out < max) {
		out[c.nr_out++] = q->pending;
		q->have_pending = false;
	}
	if (ret) {
		q->error = ret;
		return c.nr_out ?: ret;
	}
	return c.nr_out;
}
