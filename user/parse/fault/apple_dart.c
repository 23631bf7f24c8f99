// SPDX-License-Identifier: GPL-2.0
/*
 * Apple DART: apple_dart_t8020_irq() and (6.3 on) apple_dart_t8110_irq()
 * of drivers/iommu/apple-dart.c, from the driver's first release (5.15),
 * "apple-dart NAME: " (dev_err_ratelimited, no "\n"):
 *   "translation fault: status:0x%x stream:%d code:0x%x (%s) at 0x%llx"
 * %s the error's name: "READ FAULT", "WRITE FAULT", "NO PTE FOR IOVA",
 * "NO PMD FOR IOVA", "NO TTBR FOR IOVA", T8110's "NO PGD FOR IOVA", or
 * "unknown".  stream is the DART's stream index.
 */
#include <string.h>
#include "parse/fault/fault_driver.h"

#define DART "apple-dart"

static const struct dart_name {
	const char *name;
	enum iommu_access access;
	enum iommu_fault_class cls;
} dart_names[] = {
	{ "READ FAULT", IOMMU_ACCESS_READ, IOMMU_CLASS_PERMISSION },
	{ "WRITE FAULT", IOMMU_ACCESS_WRITE, IOMMU_CLASS_PERMISSION },
	{ "NO PTE FOR IOVA", IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_UNMAPPED },
	{ "NO PMD FOR IOVA", IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_UNMAPPED },
	{ "NO PGD FOR IOVA", IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_UNMAPPED },
	{ "NO TTBR FOR IOVA", IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT },
	{ "unknown", IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_OTHER },
};

static enum iommu_line dart_decode(void *state, const char *msg,
				   struct iommu_fault *f)
{
	const char *p = fault_dev_tag(msg, DART, f->iommu_dev);
	uint64_t status, stream, code;
	char name[32];
	size_t i, n = sizeof(dart_names) / sizeof(dart_names[0]);

	(void)state;
	if (!p)
		return IOMMU_LINE_OTHER;
	if (!(p = fault_lit(p, "translation fault: "))) {
		f->iommu_dev[0] = '\0';
		return IOMMU_LINE_OTHER;
	}
	p = fault_hex(fault_lit(p, "status:0x"), &status);
	p = fault_dec(fault_lit(p, " stream:"), &stream);
	p = fault_hex(fault_lit(p, " code:0x"), &code);
	p = fault_lit(fault_word(fault_lit(p, " ("), ")", name, sizeof(name)), ") at 0x");
	p = fault_hex(p, &f->iova);
	for (i = 0; p && i < n && strcmp(dart_names[i].name, name); i++)
		;
	if (!p || *p || i == n || status > UINT32_MAX || stream > UINT32_MAX ||
	    code > UINT32_MAX)
		return fault_malformed(f, DART, "5.15+",
				       "not \"translation fault: status:0xN stream:N code:0xN (NAME) at 0xA\" (cut short?)");
	f->iommu = DART;
	f->format = "5.15+";
	f->has_iova = true;
	f->sid = (uint32_t)stream, f->has_sid = true;
	f->code = (uint32_t)code, f->has_code = true;
	f->flags = (uint32_t)status, f->has_flags = true;
	f->access = dart_names[i].access;
	f->cls = dart_names[i].cls;
	fault_set_reason(f, name);
	return IOMMU_LINE_FAULT;
}

const struct fault_driver fault_driver_apple_dart = {
	.name = DART,
	.source = "drivers/iommu/apple-dart.c",
	.decode = dart_decode,
};
