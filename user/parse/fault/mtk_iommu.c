// SPDX-License-Identifier: GPL-2.0
/*
 * MediaTek M4U: mtk_iommu_isr() of drivers/iommu/mtk_iommu.c and
 * drivers/iommu/mtk_iommu_v1.c (dev_err_ratelimited), "mtk-iommu NAME: "
 * ("mtk-iommu-v1", or a vendor's "mtk-iommu-mt6895"):
 *   v1 4.8+      "fault type=0x%x iova=0x%x pa=0x%x larb=%d port=%d"
 *                (reported as a read whatever it was: no access)
 *   4.6-5.18     "fault type=0x%x iova=0x%x pa=0x%x larb=%d port=%d layer=%d %s"
 *                ("0x%llx" for iova and pa from 5.13, the same text)
 *   5.19+        "fault type=0x%x iova=0x%llx pa=0x%llx master=0x%x(larb=%d port=%d) layer=%d %s"
 * %s "read" or "write"; type is REG_MMU_FAULT_ST1, master REG_MMU*_INT_ID.
 */
#include <stdio.h>
#include <string.h>
#include "parse/fault/fault_driver.h"

#define MTK "mtk-iommu"

/* REG_MMU_FAULT_ST1: bit n for MMU0, n + 7 for MMU1 (mtk_iommu.c). */
static const struct mtk_bit {
	uint32_t bit;
	const char *words;
	enum iommu_fault_class cls;
} mtk_bits[] = {
	{ 0, "translation fault", IOMMU_CLASS_UNMAPPED },
	{ 1, "main TLB multi-hit", IOMMU_CLASS_HARDWARE },
	{ 2, "invalid physical address", IOMMU_CLASS_ADDRESS },
	{ 3, "entry replacement fault", IOMMU_CLASS_HARDWARE },
	{ 4, "TLB miss fault", IOMMU_CLASS_HARDWARE },
	{ 5, "miss transaction FIFO fault", IOMMU_CLASS_HARDWARE },
	{ 6, "prefetch transaction FIFO fault", IOMMU_CLASS_HARDWARE },
};

static void mtk_reason(struct iommu_fault *f, uint32_t type, uint64_t layer,
		       bool has_layer)
{
	char buf[IOMMU_FAULT_REASON_MAX * 2] = "";
	size_t len = 0;

	f->cls = IOMMU_CLASS_OTHER;
	for (int mmu = 0; mmu < 2; mmu++)
		for (size_t i = 0; i < sizeof(mtk_bits) / sizeof(mtk_bits[0]); i++) {
			if (!(type >> (mtk_bits[i].bit + 7 * mmu) & 1))
				continue;
			if (!len)
				f->cls = mtk_bits[i].cls;
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"%sMMU%d %s", len ? ", " : "", mmu,
						mtk_bits[i].words);
			if (len >= sizeof(buf))
				len = sizeof(buf) - 1;
		}
	if (!len)
		len = (size_t)snprintf(buf, sizeof(buf), "no fault bit known");
	if (has_layer)
		snprintf(buf + len, sizeof(buf) - len, "; layer %u",
			 (unsigned int)layer);
	fault_set_reason(f, buf);
}

/* "larb=%d port=%d" into f->master. */
static const char *mtk_larb_port(const char *p, struct iommu_fault *f)
{
	uint64_t larb, port;

	p = fault_dec(fault_lit(p, "larb="), &larb);
	p = fault_dec(fault_lit(p, " port="), &port);
	if (p && larb < 1000 && port < 1000)
		snprintf(f->master, sizeof(f->master), "larb %u port %u",
			 (unsigned int)larb, (unsigned int)port);
	return p;
}

static enum iommu_line mtk_body(const char *p, struct iommu_fault *f)
{
	uint64_t type, pa, master, layer = 0;
	bool has_master = false, has_layer = false;
	const char *q;

	p = fault_hex(fault_lit(p, "type=0x"), &type);
	p = fault_hex(fault_lit(p, " iova=0x"), &f->iova);
	p = fault_hex(fault_lit(p, " pa=0x"), &pa);
	if ((q = fault_lit(p, " master=0x"))) {
		has_master = true;
		p = fault_lit(fault_hex(q, &master), "(");
		p = fault_lit(mtk_larb_port(p, f), ")");
	} else {
		p = mtk_larb_port(fault_lit(p, " "), f);
	}
	if (p && *p) {
		has_layer = true;
		p = fault_dec(fault_lit(p, " layer="), &layer);
		if (fault_lit(p, " read"))
			f->access = IOMMU_ACCESS_READ, p += 5;
		else if (fault_lit(p, " write"))
			f->access = IOMMU_ACCESS_WRITE, p += 6;
		else
			p = NULL;
	}
	if (!p || *p || type > UINT32_MAX || (has_master && master > UINT32_MAX))
		return fault_malformed(f, MTK, NULL,
				       "not \"fault type=0x.. iova=0x.. pa=0x.. [master=0x..(]larb=N port=N[)] layer=N read|write\" (cut short?)");
	f->iommu = MTK;
	f->format = has_master ? "5.19+" : has_layer ? "4.6-5.18" : "v1 (mt2701), 4.8+";
	f->has_iova = true;
	f->code = (uint32_t)type, f->has_code = true;
	if (has_master)
		f->sid = (uint32_t)master, f->has_sid = true;
	mtk_reason(f, (uint32_t)type, layer, has_layer);
	return IOMMU_LINE_FAULT;
}

static enum iommu_line mtk_decode(void *state, const char *msg,
				  struct iommu_fault *f)
{
	const char *p = strstr(msg, "mtk-iommu");
	const char *q;

	(void)state;
	/* "mtk-iommu", "mtk-iommu-v1", a vendor's "mtk-iommu-mt6895" */
	for (; p; p = strstr(p + 1, "mtk-iommu")) {
		size_t n = strcspn(p, " ");

		if ((p > msg && p[-1] != ' ' && p[-1] != '\t' && p[-1] != ']') ||
		    p[n] != ' ')
			continue;
		q = fault_lit(fault_word(p + n + 1, ": ", f->iommu_dev,
					 sizeof(f->iommu_dev)), ": ");
		if (q)
			break;
	}
	if (!p) {
		f->iommu_dev[0] = '\0';
		return IOMMU_LINE_OTHER;
	}
	if ((q = fault_lit(q, "fault ")))
		return mtk_body(q, f);
	f->iommu_dev[0] = '\0';
	return IOMMU_LINE_OTHER;
}

const struct fault_driver fault_driver_mtk_iommu = {
	.name = MTK,
	.source = "drivers/iommu/mtk_iommu.c, drivers/iommu/mtk_iommu_v1.c",
	.decode = mtk_decode,
};
