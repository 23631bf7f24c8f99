// SPDX-License-Identifier: GPL-2.0
/*
 * virtio-iommu: viommu_fault_handler() of drivers/iommu/virtio-iommu.c,
 * unchanged from 5.3 (the driver's first release) to the newest:
 *   "%s fault from EP %u at %#llx [%s%s%s]" (dev_err_ratelimited), or
 *   "%s fault from EP %u" when VIRTIO_IOMMU_FAULT_F_ADDRESS is clear;
 * %s "domain", "page" or "unknown"; the flags R, W, X.  " PASID %u"
 * before " at", as proposed PASID patches print it, is read too.
 */
#include <string.h>
#include "parse/fault/fault_driver.h"

#define VIRTIO "virtio-iommu"

/* "[%s%s%s]" of VIRTIO_IOMMU_FAULT_F_READ, _WRITE, _EXEC. */
static const char *virtio_access(const char *p, struct iommu_fault *f)
{
	bool r = false, w = false, x = false;

	if (!(p = fault_lit(p, " [")))
		return NULL;
	if (*p == 'R')
		r = true, p++;
	if (*p == 'W')
		w = true, p++;
	if (*p == 'X')
		x = true, p++;
	f->access = r && w ? IOMMU_ACCESS_READ_WRITE :
		    w ? IOMMU_ACCESS_WRITE :
		    r ? IOMMU_ACCESS_READ :
		    x ? IOMMU_ACCESS_EXEC : IOMMU_ACCESS_UNKNOWN;
	return fault_lit(p, "]");
}

/* VIRTIO_IOMMU_FAULT_R_DOMAIN, _MAPPING, _UNKNOWN, as the driver names them. */
static const struct virtio_reason {
	const char *words;
	const char *reason;
	enum iommu_fault_class cls;
	uint32_t code;
} virtio_reasons[] = {
	{ "domain fault from EP ", "domain fault", IOMMU_CLASS_CONTEXT, 1 },
	{ "page fault from EP ", "page fault", IOMMU_CLASS_UNMAPPED, 2 },
	{ "unknown fault from EP ", "unknown fault", IOMMU_CLASS_OTHER, 0 },
};

static const char *virtio_reason(const char *p, struct iommu_fault *f)
{
	for (size_t i = 0; i < sizeof(virtio_reasons) / sizeof(virtio_reasons[0]); i++)
		if (fault_lit(p, virtio_reasons[i].words)) {
			f->cls = virtio_reasons[i].cls;
			f->code = virtio_reasons[i].code, f->has_code = true;
			fault_set_reason(f, virtio_reasons[i].reason);
			return p + strlen(virtio_reasons[i].words);
		}
	return NULL;
}

static enum iommu_line virtio_decode(void *state, const char *msg,
				     struct iommu_fault *f)
{
	const char *p = strstr(msg, "virtio_iommu ");
	uint64_t ep, v;

	(void)state;
	if (!p || !(p = fault_word(p + strlen("virtio_iommu "), ": ",
				   f->iommu_dev, sizeof(f->iommu_dev))) ||
	    !(p = fault_lit(p, ": ")))
		return IOMMU_LINE_OTHER;
	if (!virtio_reason(p, f)) {
		if (strstr(p, " fault from EP "))
			return fault_malformed(f, VIRTIO, NULL,
					       "a fault line of no format known");
		return IOMMU_LINE_OTHER;	/* probe messages and the like */
	}
	p = virtio_reason(p, f);
	f->iommu = VIRTIO;
	f->format = "5.3+";
	if (!(p = fault_dec(p, &ep)) || ep > UINT32_MAX)
		return fault_malformed(f, VIRTIO, f->format, "no endpoint number");
	f->sid = (uint32_t)ep, f->has_sid = true;
	if (fault_lit(p, " PASID ") && (p = fault_dec(p + 7, &v)) &&
	    v <= UINT32_MAX)
		f->pasid = (uint32_t)v, f->has_pasid = true;
	if (p && fault_lit(p, " at ")) {
		p = virtio_access(fault_hash_x(p + 4, &f->iova), f);
		f->has_iova = true;
	}
	return p && !*p ? IOMMU_LINE_FAULT :
	       fault_malformed(f, VIRTIO, f->format,
			       "no \"at ADDRESS [FLAGS]\" after the endpoint");
}

const struct fault_driver fault_driver_virtio_iommu = {
	.name = VIRTIO,
	.source = "drivers/iommu/virtio-iommu.c",
	.decode = virtio_decode,
};
