// SPDX-License-Identifier: GPL-2.0
/*
 * Renesas IPMMU-VMSA: ipmmu_domain_irq() of drivers/iommu/ipmmu-vmsa.c,
 * "ipmmu-vmsa NAME: " (dev_err_ratelimited):
 *   3.17-4.x  "Unhandled fault: status 0x%08x iova 0x%08x"
 *             "Multiple TLB hits @0x%08x", "Page Table Walk Abort @0x%08x"
 *   ~4.19+    the same with "0x%lx" (a 64-bit IOVA: IMELAR and IMEUAR)
 * status is IMSTR: TF bit 0, PF bit 1, ABORT bit 2, MHIT bit 4.  The
 * driver reports no access.
 */
#include <stdio.h>
#include <string.h>
#include "parse/fault/fault_driver.h"

#define IPMMU "ipmmu-vmsa"

static const struct ipmmu_bit {
	uint32_t bit;
	const char *words;
	enum iommu_fault_class cls;
} ipmmu_bits[] = {
	{ 1u << 0, "translation fault (TF)", IOMMU_CLASS_UNMAPPED },
	{ 1u << 1, "page fault (PF)", IOMMU_CLASS_PAGE },
	{ 1u << 2, "page table walk abort", IOMMU_CLASS_HARDWARE },
	{ 1u << 4, "multiple TLB hits", IOMMU_CLASS_HARDWARE },
};

/* "0x%08x" is 8 digits; "0x%lx" may be any */
static const char *ipmmu_releases(const char *digits, const char *end)
{
	return end - digits == 8 ? "3.17+" : "~4.19+ (64-bit IOVA)";
}

static enum iommu_line ipmmu_decode(void *state, const char *msg,
				    struct iommu_fault *f)
{
	const char *p = fault_dev_tag(msg, IPMMU, f->iommu_dev);
	const char *q, *digits;
	uint64_t status;

	(void)state;
	if (!p)
		return IOMMU_LINE_OTHER;
	f->iommu = IPMMU;
	if ((q = fault_lit(p, "Unhandled fault: status 0x"))) {
		q = fault_lit(fault_hex(q, &status), " iova 0x");
		digits = q;
		q = fault_hex(q, &f->iova);
		if (!q || *q || status > UINT32_MAX)
			return fault_malformed(f, IPMMU, NULL,
					       "not \"Unhandled fault: status 0xN iova 0xA\"");
		f->format = ipmmu_releases(digits, q);
		f->code = (uint32_t)status, f->has_code = true;
		f->cls = IOMMU_CLASS_OTHER;
		fault_set_reason(f, "no fault bit known");
		for (size_t i = sizeof(ipmmu_bits) / sizeof(ipmmu_bits[0]); i-- > 0;)
			if (status & ipmmu_bits[i].bit) {
				f->cls = ipmmu_bits[i].cls;
				fault_set_reason(f, ipmmu_bits[i].words);
			}
	} else if ((q = fault_lit(p, "Multiple TLB hits @0x")) ||
		   (q = fault_lit(p, "Page Table Walk Abort @0x"))) {
		bool mhit = *p == 'M';

		digits = q;
		q = fault_hex(q, &f->iova);
		if (!q || *q)
			return fault_malformed(f, IPMMU, NULL, "no address after \"@0x\"");
		f->format = ipmmu_releases(digits, q);
		f->cls = IOMMU_CLASS_HARDWARE;
		fault_set_reason(f, mhit ? "multiple TLB hits" : "page table walk abort");
	} else {
		if (strstr(p, "fault"))
			return fault_malformed(f, IPMMU, NULL,
					       "an ipmmu-vmsa fault line of no format known");
		f->iommu_dev[0] = '\0';
		return IOMMU_LINE_OTHER;
	}
	f->has_iova = true;
	return IOMMU_LINE_FAULT;
}

const struct fault_driver fault_driver_ipmmu_vmsa = {
	.name = IPMMU,
	.source = "drivers/iommu/ipmmu-vmsa.c",
	.decode = ipmmu_decode,
};
