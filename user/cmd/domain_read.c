// SPDX-License-Identifier: GPL-2.0
/* A device-view query started by the owner rule (domain_read.h). */
#include <errno.h>
#include <string.h>
#include "cmd/domain_read.h"
#include "io/ptwalk_client.h"

void domain_reader_init(struct domain_reader *r, int fd, const char *device,
			bool live, bool dma_api, bool may_stop)
{
	struct ptwalk_info info = { 0 };

	memset(r, 0, sizeof(*r));
	r->device = device;
	r->live = live;
	r->dma_api = dma_api;
	r->may_stop = may_stop;
	r->guard.fd = -1;
	if (!ptwalk_info(fd, &info))
		r->features = info.features;
}

/* Stops the domain's owners: 0, or -EAGAIN with r->owners.why. */
static int stop_owners(struct domain_reader *r)
{
	domain_owners_find(r->device, &r->owners);
	if (r->owners.why == OWNER_OK && !r->owners.n)
		r->owners.why = OWNER_NONE_FOUND;
	if (r->owners.why != OWNER_OK ||
	    !domain_owners_stop(&r->owners, &r->guard))
		return -EAGAIN;
	r->holding = true;
	r->how = DOMAIN_READ_OWNER_STOPPED;
	return 0;
}

static int query(struct domain_reader *r, int fd, uint64_t start,
		 uint64_t end, uint32_t flags)
{
	return ptwalk_query_iommu(fd, r->device, start, end, flags);
}

/*
 * A module that predates PTWALK_IOMMU_OWNER_STOPPED reads an unmanaged
 * domain with no flag, and cannot say first which kind it has: the
 * owners found are stopped all the same, and without any the read is
 * that module's.
 */
static int start_old_module(struct domain_reader *r, int fd, uint64_t start,
			    uint64_t end)
{
	uint32_t flags = r->live || r->dma_api ? PTWALK_IOMMU_LIVE : 0;

	if (!r->live && r->may_stop && stop_owners(r)) {
		if (r->owners.why != OWNER_NONE_FOUND)
			return -EAGAIN;
		r->owners.why = OWNER_OK;	/* none: the module's read */
	}
	if (!r->holding)
		r->how = flags ? DOMAIN_READ_LIVE : DOMAIN_READ_STILL;
	return query(r, fd, start, end, flags);
}

int domain_read_start(struct domain_reader *r, int fd, uint64_t start,
		      uint64_t end)
{
	int err;

	if (!(r->features & PTWALK_FEAT_IOMMU_OWNER_STOPPED))
		return start_old_module(r, fd, start, end);
	if (r->live) {
		r->how = DOMAIN_READ_LIVE;
		return query(r, fd, start, end, PTWALK_IOMMU_LIVE);
	}
	/* asking without a flag reads nothing yet: the kind is checked */
	err = query(r, fd, start, end, 0);
	if (!err)
		return 0;
	if (err == -EBUSY && r->dma_api) {
		r->how = DOMAIN_READ_LIVE;
		return query(r, fd, start, end, PTWALK_IOMMU_LIVE);
	}
	if (err != -EAGAIN || !r->may_stop)
		return err;
	err = stop_owners(r);
	if (err)
		return err;
	err = query(r, fd, start, end, PTWALK_IOMMU_OWNER_STOPPED);
	if (err)
		domain_read_end(r, PTWALK_IOMMU_UNMANAGED);
	return err;
}

void domain_read_end(struct domain_reader *r, uint32_t domain)
{
	if (r->holding)
		domain_owners_continue(&r->owners, &r->guard);
	r->holding = false;
	if (domain != PTWALK_IOMMU_UNMANAGED && domain != PTWALK_IOMMU_DMA &&
	    domain != PTWALK_IOMMU_DMA_FQ)
		r->how = DOMAIN_READ_STILL;
}
