// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA Tegra: tegra-smmu has no fault interrupt; the memory controller
 * reports what the SMMU refused.  tegra_mc_irq() of drivers/memory/tegra/mc.c
 * (tegra30_mc_handle_irq() from 5.14), the same text from 3.19 on,
 * "tegra-mc NAME: " (dev_err_ratelimited):
 *   "%s: %s%s @%pa: %s (%s%s)"
 * the client (the master, "unknown" if none), "secure " or "", "read" or
 * "write", the address, the status bit's name, the error type's name and,
 * for an SMMU translation error, " [%c%c%c]" (R or -, W or -, S when
 * non-secure... as the page's permissions).
 */
#include <string.h>
#include "parse/fault/fault_driver.h"

#define TEGRA "tegra-smmu"

/* tegra_mc_status_names[] as the line gives them. */
static const struct tegra_status {
	const char *name;
	enum iommu_fault_class cls;
} tegra_status[] = {
	{ "Page fault", IOMMU_CLASS_PAGE },
	{ "GART page fault", IOMMU_CLASS_PAGE },
	{ "EMEM address decode error", IOMMU_CLASS_ADDRESS },
	{ "Security violation", IOMMU_CLASS_PERMISSION },
	{ "VPR violation", IOMMU_CLASS_PERMISSION },
	{ "Secure carveout violation", IOMMU_CLASS_PERMISSION },
	{ "MTS carveout violation", IOMMU_CLASS_PERMISSION },
	{ "Generalized carveout violation", IOMMU_CLASS_PERMISSION },
	{ "Invalid APB ASID update", IOMMU_CLASS_CONTEXT },
	{ "EMEM arbitration error", IOMMU_CLASS_HARDWARE },
};

static enum iommu_line tegra_decode(void *state, const char *msg,
				    struct iommu_fault *f)
{
	const char *p = fault_dev_tag(msg, "tegra-mc", f->iommu_dev);
	size_t n;

	(void)state;
	if (!p)
		return IOMMU_LINE_OTHER;
	f->iommu = TEGRA;
	/* the client: a word, then ": " */
	if (!(p = fault_lit(fault_word(p, ": ", f->master, sizeof(f->master)), ": "))) {
		f->iommu_dev[0] = '\0';
		return IOMMU_LINE_OTHER;
	}
	/* another message of the driver ("NAME: text"), not a fault */
	if (!fault_lit(p, "secure ") && !fault_lit(p, "read") &&
	    !fault_lit(p, "write") && !strstr(p, " @0x")) {
		f->master[0] = f->iommu_dev[0] = '\0';
		return IOMMU_LINE_OTHER;
	}
	if (fault_lit(p, "secure "))
		p += 7;
	if (fault_lit(p, "read @"))
		f->access = IOMMU_ACCESS_READ, p += 5;
	else if (fault_lit(p, "write @"))
		f->access = IOMMU_ACCESS_WRITE, p += 6;
	else
		return fault_malformed(f, TEGRA, NULL,
				       "not \"CLIENT: [secure ]read|write @ADDR: STATUS (TYPE)\" (cut short?)");
	p = fault_lit(fault_hex0x(fault_lit(p, "@"), &f->iova), ": ");
	n = p ? strlen(p) : 0;
	if (!p || !strstr(p, " (") || !n || p[n - 1] != ')')
		return fault_malformed(f, TEGRA, "3.19+",
				       "no \"@ADDR: STATUS (TYPE)\" after the access (cut short?)");
	f->format = "3.19+";
	f->has_iova = true;
	f->cls = IOMMU_CLASS_OTHER;
	for (size_t i = 0; i < sizeof(tegra_status) / sizeof(tegra_status[0]); i++) {
		size_t len = strlen(tegra_status[i].name);

		if (!strncmp(p, tegra_status[i].name, len) && p[len] == ' ')
			f->cls = tegra_status[i].cls;
	}
	fault_set_reason(f, p);
	return IOMMU_LINE_FAULT;
}

const struct fault_driver fault_driver_tegra_mc = {
	.name = TEGRA,
	.source = "drivers/memory/tegra/mc.c",
	.decode = tegra_decode,
};
