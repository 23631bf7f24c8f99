/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Starting a device-view query by the rule of issue 40: a paging domain
 * is read only while its owner cannot change it, unless the user asks.
 * An unmanaged domain's owner processes are stopped for the read
 * (io/domain_owner.h) and the query says so (PTWALK_IOMMU_OWNER_STOPPED);
 * --live-domain reads any paging domain while its owner runs, --dma-api
 * only a DMA-API one (an unmanaged domain's owners are still stopped).
 * Used by --iommu (which stops) and --faults (which stops briefly, per
 * fault); --iommu --watch never stops (may_stop false): an unmanaged
 * domain is then "not read (owner running)".
 */
#ifndef PTCOMPARE_CMD_DOMAIN_READ_H
#define PTCOMPARE_CMD_DOMAIN_READ_H

#include <stdbool.h>
#include <stdint.h>
#include "io/domain_owner.h"

struct domain_reader {
	const char *device;	/* PCI address */
	bool live;		/* --live-domain */
	bool dma_api;		/* --dma-api */
	bool may_stop;		/* false: never stop an owner */
	uint64_t features;	/* PTWALK_IOC_INFO's */
	/* what the start did */
	enum domain_read how;
	struct domain_owners owners;	/* why set: they could not be stopped */
	struct owner_guard guard;
	bool holding;		/* owners stopped until domain_read_end() */
};

/* r's settings from the options; features asked of fd. */
void domain_reader_init(struct domain_reader *r, int fd, const char *device,
			bool live, bool dma_api, bool may_stop);

/*
 * Starts the query of [start, end) on fd, stopping owners if need be:
 * 0, or -errno as the module answers (module/ptwalk_abi.h).  -EAGAIN
 * with r->owners.why set: the owners could not be stopped
 * (report/diagnose.h's diagnose_owner() says why); without it: an
 * unmanaged domain while may_stop is false.  On 0 the caller reads the
 * records, then calls domain_read_end() (also after a failed read).
 */
int domain_read_start(struct domain_reader *r, int fd, uint64_t start,
		      uint64_t end);

/*
 * Continues the owners the start stopped; domain: the first record's
 * (enum ptwalk_iommu_domain), which turns r->how into DOMAIN_READ_STILL
 * where there were no tables after all.
 */
void domain_read_end(struct domain_reader *r, uint32_t domain);

#endif /* PTCOMPARE_CMD_DOMAIN_READ_H */
