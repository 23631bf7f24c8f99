/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --iommu's output: the device's view of a process range
 * (engine/device_view.h), or one device address translated; text or JSON.
 */
#ifndef PTCOMPARE_DEVICE_PRINT_H
#define PTCOMPARE_DEVICE_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "engine/device_view.h"
#include "model/domain_owner.h"
#include "parse/iomem.h"

/* What the report says about the device and the process. */
struct device_info {
	const char *name;	/* PCI address */
	const char *driver;	/* "" when none is bound */
	uint32_t domain;	/* enum ptwalk_iommu_domain */
	uint64_t aperture_start, aperture_end;
	uint64_t iova_start;	/* device address of the range's start */
	bool iova_as_va;	/* iova_start defaulted to the start */
	pid_t pid;		/* 0: one device address, no process */
	const char *comm;
	uint64_t start, end;	/* the process range */
	const struct iomem *iomem;	/* NULL: no names */
	unsigned int page_shift;	/* the kernel's page */
	enum domain_read read;		/* how the domain was read */
	const struct domain_owners *owners; /* OWNER_STOPPED: who, how long */
};

void device_print_text(FILE *f, const struct device_info *d,
		       const struct device_view *v);
/* 0, or -EINVAL should the JSON writer be misused (json.h). */
int device_print_json(FILE *f, const struct device_info *d,
		      const struct device_view *v);

/* One device address: iova, its frame (PTWALK_PFN_NONE: none). */
void device_translate_text(FILE *f, const struct device_info *d,
			   uint64_t iova, uint64_t pfn);
int device_translate_json(FILE *f, const struct device_info *d, uint64_t iova,
			  uint64_t pfn);

#endif /* PTCOMPARE_DEVICE_PRINT_H */
