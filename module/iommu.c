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
 * walk racing with it may read a freed, reused page as a table.  For an
 * unmanaged domain the owner is the process the user is debugging, whose
 * mappings the user can keep still (and a VFIO unmap of a whole table's
 * range is rare); the kernel's DMA API maps and unmaps its domains all the
 * time, from interrupt context too.  So DMA-API domains are read only when
 * the query accepts that risk (PTWALK_IOMMU_DMA_API), and never under
 * lockdown in confidentiality mode; identity and blocked domains have no
 * tables to read.
 *
 * iommu_iova_to_phys() is asked only inside the domain's aperture (the
 * generic page-table code of the newest kernels may answer an IOVA outside
 * its table with a negative errno cast to an address, not 0) and only for
 * paging domains: identity is computed (5.10 left it to the driver, and
 * Intel's passthrough answered 0), blocked translates nothing, and SVA,
 * nested and platform domains have no iova_to_phys: refused.
 */
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/dma-direct.h>
#include <linux/err.h>
#include <linux/iommu.h>
#include <linux/pci.h>
#include <linux/mem_encrypt.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include "compat.h"
#include "iommu.h"
#include "iommu_frames.h"
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
 * 0 if the query may read a domain of @kind (iommu.c's head says why a
 * DMA-API domain is refused by default), else the errno.
 */
static int kind_allowed(int kind, u32 flags)
{
	if (kind != PTWALK_IOMMU_DMA && kind != PTWALK_IOMMU_DMA_FQ)
		return 0;
	if (!(flags & PTWALK_IOMMU_DMA_API))
		return -EBUSY;
	return ptwalk_confidentiality_locked() ? -EACCES : 0;
}

static bool kind_is_paging(int kind)
{
	return kind == PTWALK_IOMMU_UNMANAGED || kind == PTWALK_IOMMU_DMA ||
	       kind == PTWALK_IOMMU_DMA_FQ;
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
	ret = kind_allowed(kind, c->q->flags) ?: granule_check(d, kind);
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
 * bound to the same driver (an unbind hands it back to the kernel, a
 * rebind to someone else), and in an IOMMU group if it had one.
 */
static bool device_still_there(const struct iommu_chunk *c,
			       const struct iommu_group *group)
{
	return device_is_registered(c->dev) &&
	       READ_ONCE(c->dev->driver) == c->q->driver &&
	       (group || !c->q->had_group);
}

/* One chunk: the device's group's mutex held around it, if it has one. */
static int chunk(struct iommu_chunk *c)
{
	struct iommu_group *group = iommu_group_get(c->dev);
	int ret;

	if (!device_still_there(c, group)) {
		iommu_group_put(group);
		return -ENODEV;
	}
	if (!group) {
		if (c->max_out)
			translate(c, NULL, PTWALK_IOMMU_NONE);
		return 0;
	}
	ret = iommu_group_for_each_dev(group, c, chunk_in_group);
	iommu_group_put(group);
	if (!ret && !c->found)
		ret = -ENODEV;
	return ret;
}

static int query_check(const struct ptwalk_iommu_query *q)
{
	if ((q->flags & ~PTWALK_IOMMU_DMA_API) ||
	    strnlen(q->device, sizeof(q->device)) == sizeof(q->device))
		return -EINVAL;
	if (!PAGE_ALIGNED(q->start) || !PAGE_ALIGNED(q->end))
		return -EINVAL;
	if (q->start >= q->end)
		return -ERANGE;
	return 0;
}

/* Without the IOMMU API none: the kernel has no domain to read. */
u64 ptwalk_iommu_features(void)
{
	if (!IS_ENABLED(CONFIG_IOMMU_API))
		return 0;
	return PTWALK_FEAT_IOMMU | PTWALK_FEAT_IOMMU_DMA_API;
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
	q->driver = READ_ONCE(pdev->dev.driver);
	group = iommu_group_get(&pdev->dev);
	q->had_group = group;
	iommu_group_put(group);
	c.q = q;
	c.dev = &pdev->dev;
	ret = chunk(&c);
	if (ret)
		ptwalk_iommu_stop(q);
	return ret;
}

void ptwalk_iommu_stop(struct ptwalk_iommu_cursor *q)
{
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
	int ret;

	if (!max)
		return 0;
	while (!c.nr_out && q->next < q->end && !yield) {
		ret = chunk(&c);
		if (ret)
			return ret;
		yield = !q->budget || signal_pending(current);
		cond_resched();
	}
	/* the run still growing goes out at the end, or cut at a yield */
	if ((q->next >= q->end || (yield && !c.nr_out)) && q->have_pending &&
	    c.nr_out < max) {
		out[c.nr_out++] = q->pending;
		q->have_pending = false;
	}
	return c.nr_out;
}
