// SPDX-License-Identifier: GPL-2.0
/*
 * Samsung Exynos System MMU: show_fault_information() of
 * drivers/iommu/exynos-iommu.c:
 *   3.x-4.9   "%s occurred at %#x by %s(Page table base: %pa)" (pr_err:
 *             no device prefix; the fault's name, the master)
 * then "exynos-sysmmu NAME: " (dev_err):
 *   4.10-4.11 "%s FAULT occurred at %#x (page table base: %pa)"
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

/* The fault's name (n bytes of name) and address into f. */
static enum iommu_line exynos_named(struct iommu_fault *f, const char *name,
				    size_t n, const char *suffix, uint64_t addr,
				    const char *format)
{
	if (n + strlen(suffix) >= sizeof(f->reason))
		n = sizeof(f->reason) - 1 - strlen(suffix);
	memcpy(f->reason, name, n);
	strcpy(f->reason + n, suffix);
	if (f->access == IOMMU_ACCESS_UNKNOWN && fault_lit(name, "AR "))
		f->access = IOMMU_ACCESS_READ;
	else if (f->access == IOMMU_ACCESS_UNKNOWN && fault_lit(name, "AW "))
		f->access = IOMMU_ACCESS_WRITE;
	for (size_t i = 0; i < sizeof(exynos_kinds) / sizeof(exynos_kinds[0]); i++)
		if (strstr(f->reason, exynos_kinds[i].word)) {
			f->cls = exynos_kinds[i].cls;
			break;
		}
	f->iommu = EXYNOS;
	f->format = format;
	f->iova = addr, f->has_iova = true;
	return IOMMU_LINE_FAULT;
}

/* 3.x-4.9's sysmmu_fault_name[], each followed by " occurred at ". */
static const char *const exynos_old_names[] = {
	"PAGE FAULT", "AR MULTI-HIT FAULT", "AW MULTI-HIT FAULT", "BUS ERROR",
	"AR SECURITY PROTECTION FAULT", "AR ACCESS PROTECTION FAULT",
	"AW SECURITY PROTECTION FAULT", "AW ACCESS PROTECTION FAULT",
	"UNKNOWN FAULT",
};

/* "%s occurred at %#x by %s(Page table base: %pa)", without a prefix. */
static enum iommu_line exynos_old(const char *msg, struct iommu_fault *f)
{
	for (size_t i = 0; i < sizeof(exynos_old_names) / sizeof(exynos_old_names[0]); i++) {
		const char *name = exynos_old_names[i];
		const char *p = strstr(msg, name);
		uint64_t addr, base;

		if (!p || !fault_lit(p + strlen(name), " occurred at "))
			continue;
		p = fault_lit(fault_hash_x(p + strlen(name) + 13, &addr), " by ");
		if (!p)		/* 4.12 on's text wrapped after its "[READ]" */
			return IOMMU_LINE_OTHER;
		p = fault_word(p, "(", f->device, sizeof(f->device));
		p = fault_hash_x(fault_lit(p, "(Page table base: "), &base);
		if (!p || !fault_lit(p, ")") || p[1] || addr > UINT32_MAX)
			return fault_malformed(f, EXYNOS, "3.x-4.9",
					       "not \"NAME occurred at 0xA by MASTER(Page table base: 0xB)\"");
		return exynos_named(f, name, strlen(name), "", addr, "3.x-4.9");
	}
	return IOMMU_LINE_OTHER;
}

/* 4.10-4.11: "%s FAULT occurred at %#x (page table base: %pa)" */
static enum iommu_line exynos_4_10(const char *p, const char *at,
				   struct iommu_fault *f)
{
	uint64_t addr, base;
	const char *q = fault_hash_x(at + 19, &addr);

	q = fault_hash_x(fault_lit(q, " (page table base: "), &base);
	if (!q || !fault_lit(q, ")") || q[1] || addr > UINT32_MAX)
		return fault_malformed(f, EXYNOS, "4.10-4.11",
				       "not \"NAME FAULT occurred at 0xA (page table base: 0xB)\"");
	return exynos_named(f, p, (size_t)(at - p), " FAULT", addr, "4.10-4.11");
}

static enum iommu_line exynos_fault(const char *p, struct iommu_fault *f)
{
	const char *at = strstr(p, " FAULT occurred at ");
	uint64_t addr;
	const char *q;
	bool v7 = false;

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
	return exynos_named(f, p, (size_t)(at - p), " FAULT", addr,
			    v7 ? "6.1+" : "4.12-6.0");
}

static enum iommu_line exynos_decode(void *state, const char *msg,
				     struct iommu_fault *f)
{
	const char *p = fault_dev_tag(msg, EXYNOS, f->iommu_dev);
	const char *q;
	uint64_t bit;

	(void)state;
	if (!p)
		return exynos_old(msg, f);
	q = strstr(p, " FAULT occurred at ");
	if (q && !memchr(p, ':', (size_t)(q - p)))	/* no master before it */
		return exynos_4_10(p, q, f);
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
