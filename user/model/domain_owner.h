/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes that own a device's unmanaged IOMMU domain (they hold its
 * VFIO group, device or container, or its iommufd file, and so can unmap
 * and free its page tables), and what stopping them for a read came to:
 * io/domain_owner.c finds and stops them, report/ says how long.
 */
#ifndef PTCOMPARE_MODEL_DOMAIN_OWNER_H
#define PTCOMPARE_MODEL_DOMAIN_OWNER_H

#include <stdint.h>
#include <sys/types.h>

/* Owners one read stops at most: more is refused, not half done. */
#define DOMAIN_OWNERS_MAX	64

/* How long ptcompare waits for every thread of the owners to stop. */
#define OWNER_STOP_TIMEOUT_MS	1000

enum owner_state {
	OWNER_FOUND,		/* not yet stopped */
	OWNER_STOPPED_BY_US,	/* SIGSTOP from ptcompare, SIGCONT after */
	OWNER_WAS_STOPPED,	/* already stopped (job control, a tracer):
				 * left as it was
				 */
};

struct domain_owner {
	pid_t pid;
	char comm[64];
	enum owner_state state;
	uint64_t held_ns;	/* OWNER_STOPPED_BY_US: SIGSTOP to SIGCONT */
};

/* How a device view was read. */
enum domain_read {
	DOMAIN_READ_STILL = 0,		/* no tables to free: identity,
					 * blocked, no IOMMU, or a DMA-API
					 * domain refused
					 */
	DOMAIN_READ_OWNER_STOPPED,	/* its owners stopped for the read */
	DOMAIN_READ_LIVE,		/* while its owner ran: --live-domain,
					 * or --dma-api of a DMA-API domain
					 */
};

/* Why the owners could not all be kept still: the read is refused. */
enum owner_refusal {
	OWNER_OK = 0,
	OWNER_NONE_FOUND,	/* no process holds the device's files: a
				 * kernel owner, or one out of sight
				 */
	OWNER_NO_PERMISSION,	/* kill(SIGSTOP) said EPERM */
	OWNER_EXITED,		/* gone before it stopped */
	OWNER_TRACED,		/* traced and running: its tracer's to stop */
	OWNER_TIMEOUT,		/* a thread not stopped in time */
	OWNER_TOO_MANY,		/* over DOMAIN_OWNERS_MAX */
	OWNER_SYSTEM,		/* /proc unreadable, no memory, no fork */
};

struct domain_owners {
	struct domain_owner o[DOMAIN_OWNERS_MAX];
	size_t n;
	enum owner_refusal why;
	size_t culprit;		/* index in o of the owner refused */
	pid_t tracer;		/* OWNER_TRACED: its tracer */
	pid_t thread;		/* OWNER_TIMEOUT: a thread not stopped */
	char thread_state;	/* and its state letter */
	int err;		/* OWNER_SYSTEM: the errno */
};

#endif /* PTCOMPARE_MODEL_DOMAIN_OWNER_H */
