/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device's view (PTWALK_REQ_IOMMU): a range of device addresses of one
 * PCI device, page by page, through the IOMMU domain the device is
 * attached to.  iommu.c says why it is safe.
 */
#ifndef PTWALK_IOMMU_H
#define PTWALK_IOMMU_H

#include <linux/types.h>
#include "ptwalk_abi.h"

struct pci_dev;

/* Where an IOMMU query stands between two reads; lives in the session. */
struct ptwalk_iommu_query {
	struct pci_dev *pdev;		/* pci_dev_get()'s; NULL: no query */
	u64 next;			/* next IOVA to translate */
	u64 end;			/* exclusive */
	bool have_pending;		/* pending is a run still growing */
	struct ptwalk_iommu_record pending;
};

/*
 * Starts @req (PTWALK_REQ_IOMMU) on @q, which holds no query: 0, or the
 * errno the request deserves (ptwalk_abi.h lists them); a failed request
 * leaves @q without a query.
 */
int ptwalk_iommu_start(struct ptwalk_iommu_query *q,
		       const struct ptwalk_iommu_request *req);

/* Drops @q's query and its device reference, if any. */
void ptwalk_iommu_stop(struct ptwalk_iommu_query *q);

/* The range is translated and its last record handed out. */
bool ptwalk_iommu_done(const struct ptwalk_iommu_query *q);

/*
 * Translates one bounded chunk into @out, at most @max records: how many
 * are ready (possibly 0 before the end), or -ENODEV once the device has
 * left its group, -EOPNOTSUPP/-ENOENT once it is attached to a domain of
 * a kind that cannot be asked.  Sleeps (the group's mutex).
 */
int ptwalk_iommu_fill(struct ptwalk_iommu_query *q,
		      struct ptwalk_iommu_record *out, unsigned int max);

#endif /* PTWALK_IOMMU_H */
