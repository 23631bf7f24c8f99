/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device's view (PTWALK_IOC_IOMMU): a range of device addresses of one
 * PCI device, page by page, through the IOMMU domain the device is
 * attached to.  iommu.c says why it is safe, and where it is not.
 */
#ifndef PTWALK_IOMMU_H
#define PTWALK_IOMMU_H

#include <linux/notifier.h>
#include <linux/types.h>
#include "ptwalk_abi.h"

struct pci_dev;
struct device_driver;

/* Where a device-view query stands between two reads; in the session. */
struct ptwalk_iommu_cursor {
	struct pci_dev *pdev;		/* pci_dev_get()'s; NULL: no query */
	u64 next;			/* next IOVA to translate */
	u64 end;			/* exclusive */
	u32 flags;			/* the query's PTWALK_IOMMU_* */
	bool had_group;			/* the device had an IOMMU group */
	const struct device_driver *driver; /* its driver at the start */
	struct notifier_block binding;	/* the PCI bus's driver events */
	bool rebound;			/* its driver was unbound or bound
					 * since the start (the notifier's)
					 */
	bool confidential;		/* lockdown in confidentiality mode,
					 * asked once at the start
					 */
	int error;			/* a chunk's failure, handed out once
					 * the records before it are
					 */
	unsigned long budget;		/* pages the current read may still
					 * translate
					 */
	bool have_pending;		/* pending is a run still growing */
	struct ptwalk_iommu_record pending;
};

/* The PTWALK_FEAT_* bits of the device's view. */
u64 ptwalk_iommu_features(void);

/*
 * Starts @q on @c, which holds no query: 0, or the errno the query
 * deserves (ptwalk_abi.h lists them); a failed query leaves @c without
 * one.
 */
int ptwalk_iommu_start(struct ptwalk_iommu_cursor *c,
		       const struct ptwalk_iommu_query *q);

/* Drops @c's query and its device reference, if any. */
void ptwalk_iommu_stop(struct ptwalk_iommu_cursor *c);

/* The range is translated and its last record handed out. */
bool ptwalk_iommu_done(const struct ptwalk_iommu_cursor *c);

/* A read starts: PTWALK_IOMMU_READ_PAGES pages to translate at most. */
void ptwalk_iommu_budget_reset(struct ptwalk_iommu_cursor *c);
bool ptwalk_iommu_budget_spent(const struct ptwalk_iommu_cursor *c);

/*
 * Translates into @out, at most @max records, chunk by chunk, until a
 * record is ready, the range ends, the read's budget is spent or a signal
 * is pending (then the run still growing is handed out as it is).  How
 * many records are ready, or -ENODEV once the device is removed, leaves
 * its group or its driver is unbound (rebound to the same driver too), or
 * the errno of a domain the query would have refused.  A chunk that fails
 * hands out the run before it first: its error comes with the next call,
 * and every call after.  Sleeps (the group's mutex, the device lock).
 */
int ptwalk_iommu_fill(struct ptwalk_iommu_cursor *c,
		      struct ptwalk_iommu_record *out, unsigned int max);

#endif /* PTWALK_IOMMU_H */
