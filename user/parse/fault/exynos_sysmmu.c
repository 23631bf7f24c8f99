// SPDX-License-Identifier: GPL-2.0
/*
 * Samsung Exynos System MMU: show_fault_information() of
 * drivers/iommu/exynos-iommu.c, "exynos-sysmmu NAME: " (dev_err):
 *   4.12-6.0  "%s: %s FAULT occurred at %#x"        (master, name)
 *   6.1+      "%s: [%s] %s FAULT occurred at %#x"   (master, READ|WRITE, name)
 * then, at dev_dbg, "Page table base: %pa", "\tLv1 entry: %#x",
 * "\t Lv2 entry: %#x".  The names: "PAGE", "AR MULTI-HIT", "AW MULTI-HIT",
 * "BUS ERROR", "AR SECURITY PROTECTION", "AR ACCESS PROTECTION", "AW
 * SECURITY PROTECTION", "AW ACCESS PROTECTION" (v1-v3), "AR PTW", "AR
 * PAGE", ... (v5), "PTW", "PAGE", "MULTI-HIT", "ACCESS PROTECTION",
 * "SECURITY PROTECTION" (v5/v7, 6.1+); AR is a read, AW a write.
 */
#include <string.h>
#include "parse/fault/fault_driver.h"

#define EXYNOS "exynos-sysmmu"

static const struct exynos_kind {
	const char *word;
	enum iommu_fault_class cls;
} exynos_kinds[] = {
	{ "PAGE", IOMMU_CLASS_UNMAPPED },
	{ "PROTECTION", IOMMU_CLASS_PERMISSION },
	{ "MULTI-HIT", IOMMU_CLASS_HARDWARE },
	{ "BUS ERROR", IOMMU_CLASS_HARDWARE },
	{ "PTW", IOMMU_CLASS_HARDWARE },
};

static enum iommu_line exynos_fault(const char *p, struct iommu_fault *f)
{
	const char *at = strstr(p, " FAULT occurred at ");
	uint64_t addr;
	const char *q;
	bool v7 = false;
	size_t n;

	/* the master: a word, then ": " */
	p = fault_lit(fault_word(p, ": ", f->device, sizeof(f->device)), ": ");
	if (fault_lit(p, "[READ] "))
		f->access = IOMMU_ACCESS_READ, p += 7, v7 = true;
	else if (fault_lit(p, "[WRITE] "))
		f->access = IOMMU_ACCESS_WRITE, p += 8, v7 = true;
	q = at ? fault_hash_x(at + 19, &addr) : NULL;
	if (!p || !q || *q || p >= at || addr > UINT32_MAX)
		return fault_malformed(f, EXYNOS, NULL,
				       "not \"MASTER: [READ|WRITE] NAME FAULT occurred at 0xA\" (cut short?)");
	n = (size_t)(at - p);
	if (n >= sizeof(f->reason) - 7)
		n = sizeof(f->reason) - 7;
	memcpy(f->reason, p, n);
	strcpy(f->reason + n, " FAULT");
	if (!v7 && fault_lit(p, "AR "))
		f->access = IOMMU_ACCESS_READ;
	else if (!v7 && fault_lit(p, "AW "))
		f->access = IOMMU_ACCESS_WRITE;
	for (size_t i = 0; i < sizeof(exynos_kinds) / sizeof(exynos_kinds[0]); i++)
		if (strstr(f->reason, exynos_kinds[i].word)) {
			f->cls = exynos_kinds[i].cls;
			break;
		}
	f->iommu = EXYNOS;
	f->format = v7 ? "6.1+" : "4.12-6.0";
	f->iova = addr, f->has_iova = true;
	return IOMMU_LINE_FAULT;
}

static enum iommu_line exynos_decode(void *state, const char *msg,
				     struct iommu_fault *f)
{
	const char *p = fault_dev_tag(msg, EXYNOS, f->iommu_dev);
	const char *q;
	uint64_t bit;

	(void)state;
	if (!p)
		return IOMMU_LINE_OTHER;
	q = p + strspn(p, " \t");
	if (fault_lit(q, "Page table base: ") || fault_lit(q, "Lv1 entry: ") ||
	    fault_lit(q, "Lv2 entry: "))
		return IOMMU_LINE_KNOWN;
	if ((q = fault_lit(p, "Unhandled interrupt bit "))) {
		q = fault_dec(q, &bit);
		if (!q || *q || bit > 31)
			return fault_malformed(f, EXYNOS, NULL,
					       "not \"Unhandled interrupt bit N\"");
		f->iommu = EXYNOS;
		f->format = "6.1+";
		f->code = (uint32_t)bit, f->has_code = true;
		fault_set_reason(f, "an interrupt bit the driver has no name for");
		return IOMMU_LINE_FAULT;
	}
	/* "MASTER: ...": a fault line, whole or not */
	q = fault_lit(fault_word(p, ": ", f->device, sizeof(f->device)), ": ");
	if (strstr(p, "FAULT") || fault_lit(q, "[READ]") || fault_lit(q, "[WRITE]"))
		return exynos_fault(p, f);
	f->device[0] = '\0';
	f->iommu_dev[0] = '\0';
	return IOMMU_LINE_OTHER;
}

const struct fault_driver fault_driver_exynos_sysmmu = {
	.name = EXYNOS,
	.source = "drivers/iommu/exynos-iommu.c",
	.decode = exynos_decode,
};
