// SPDX-License-Identifier: GPL-2.0
/*
 * Allwinner H6 IOMMU: sun50i_iommu_report_fault() and sun50i_iommu_irq()
 * of drivers/iommu/sun50i-iommu.c, unchanged from the driver's first
 * release (5.8), "sun50i-iommu NAME: " (dev_err):
 *   "Page fault for %pad (master %d, dir %s)"      (%s "rd" or "wr")
 *   "Page fault while iommu not attached to any domain?"
 */
#include <stdio.h>
#include <string.h>
#include "parse/fault/fault_driver.h"

#define SUN50I "sun50i-iommu"

static enum iommu_line sun50i_decode(void *state, const char *msg,
				     struct iommu_fault *f)
{
	const char *p = fault_dev_tag(msg, SUN50I, f->iommu_dev);
	uint64_t master;

	(void)state;
	if (!p) {
		/* the driver's words without its "sun50i-iommu DEVICE: " */
		const char *q = strstr(msg, SUN50I);

		if (q && strstr(q, "Page fault"))
			return fault_malformed(f, SUN50I, NULL,
					       "\"Page fault\" after \"sun50i-iommu\" without its device (abridged?)");
		return IOMMU_LINE_OTHER;
	}
	if (fault_lit(p, "Page fault while iommu not attached to any domain?"))
		return IOMMU_LINE_KNOWN;
	if (!(p = fault_lit(p, "Page fault for "))) {
		f->iommu_dev[0] = '\0';
		return IOMMU_LINE_OTHER;
	}
	p = fault_dec(fault_lit(fault_hex0x(p, &f->iova), " (master "), &master);
	p = fault_lit(p, ", dir ");
	if (fault_lit(p, "rd)") && !p[3])
		f->access = IOMMU_ACCESS_READ;
	else if (fault_lit(p, "wr)") && !p[3])
		f->access = IOMMU_ACCESS_WRITE;
	else
		return fault_malformed(f, SUN50I, "5.8+",
				       "not \"Page fault for 0xA (master N, dir rd|wr)\"");
	if (master > 999)
		return fault_malformed(f, SUN50I, "5.8+", "a master number out of range");
	f->iommu = SUN50I;
	f->format = "5.8+";
	f->has_iova = true;
	f->cls = IOMMU_CLASS_PAGE;
	snprintf(f->master, sizeof(f->master), "%u", (unsigned int)master);
	fault_set_reason(f, "page fault");
	return IOMMU_LINE_FAULT;
}

const struct fault_driver fault_driver_sun50i_iommu = {
	.name = SUN50I,
	.source = "drivers/iommu/sun50i-iommu.c",
	.decode = sun50i_decode,
};
