// SPDX-License-Identifier: GPL-2.0
/*
 * RISC-V IOMMU: riscv_iommu_fault() of drivers/iommu/riscv/iommu.c, one
 * format from the driver's first release (6.13) to the newest:
 *   "Fault %d devid: 0x%x iotval: %llx iotval2: %llx" (dev_warn_ratelimited)
 * CAUSE in decimal, the device ID (a PCI requester ID, or the "iommus"
 * cell of a platform device), iotval (the faulting IOVA) and iotval2 (the
 * guest physical address of a guest-page fault) in hex without "0x".
 * The causes are the RISC-V IOMMU specification's (fault queue record).
 */
#include <stdio.h>
#include <string.h>
#include "parse/fault/fault_driver.h"

#define RISCV "riscv-iommu"

static const struct riscv_cause {
	uint16_t cause;
	enum iommu_access access;
	enum iommu_fault_class cls;
	const char *words;
} riscv_causes[] = {
	{ 1, IOMMU_ACCESS_EXEC, IOMMU_CLASS_PERMISSION, "Instruction access fault" },
	{ 4, IOMMU_ACCESS_READ, IOMMU_CLASS_OTHER, "Read address misaligned" },
	{ 5, IOMMU_ACCESS_READ, IOMMU_CLASS_PERMISSION, "Read access fault" },
	{ 6, IOMMU_ACCESS_WRITE, IOMMU_CLASS_OTHER, "Write/AMO address misaligned" },
	{ 7, IOMMU_ACCESS_WRITE, IOMMU_CLASS_PERMISSION, "Write/AMO access fault" },
	{ 12, IOMMU_ACCESS_EXEC, IOMMU_CLASS_PAGE, "Instruction page fault" },
	{ 13, IOMMU_ACCESS_READ, IOMMU_CLASS_PAGE, "Read page fault" },
	{ 15, IOMMU_ACCESS_WRITE, IOMMU_CLASS_PAGE, "Write/AMO page fault" },
	{ 20, IOMMU_ACCESS_EXEC, IOMMU_CLASS_PAGE, "Instruction guest page fault" },
	{ 21, IOMMU_ACCESS_READ, IOMMU_CLASS_PAGE, "Read guest-page fault" },
	{ 23, IOMMU_ACCESS_WRITE, IOMMU_CLASS_PAGE, "Write/AMO guest-page fault" },
	{ 256, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT, "All inbound transactions disallowed" },
	{ 257, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT, "DDT entry load access fault" },
	{ 258, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT, "DDT entry not valid" },
	{ 259, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT, "DDT entry misconfigured" },
	{ 260, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT, "Transaction type disallowed" },
	{ 261, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_INTERRUPT, "MSI PTE load access fault" },
	{ 262, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_INTERRUPT, "MSI PTE not valid" },
	{ 263, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_INTERRUPT, "MSI PTE misconfigured" },
	{ 264, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_INTERRUPT, "MRIF access fault" },
	{ 265, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT, "PDT entry load access fault" },
	{ 266, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT, "PDT entry not valid" },
	{ 267, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_CONTEXT, "PDT entry misconfigured" },
	{ 268, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_HARDWARE, "DDT data corruption" },
	{ 269, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_HARDWARE, "PDT data corruption" },
	{ 270, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_HARDWARE, "MSI PT data corruption" },
	{ 271, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_HARDWARE, "MRIF data corruption" },
	{ 272, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_HARDWARE, "Internal datapath error" },
	{ 273, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_INTERRUPT, "IOMMU MSI write access fault" },
	{ 274, IOMMU_ACCESS_UNKNOWN, IOMMU_CLASS_HARDWARE, "First/second-stage PT data corruption" },
};

/* iotval is the faulting address for the causes below 256 (the accesses). */
static void riscv_name(struct iommu_fault *f, uint64_t iotval, uint64_t iotval2)
{
	char buf[IOMMU_FAULT_REASON_MAX];
	const char *words = "reserved or custom cause";

	for (size_t i = 0; i < sizeof(riscv_causes) / sizeof(riscv_causes[0]); i++)
		if (riscv_causes[i].cause == f->code) {
			words = riscv_causes[i].words;
			f->access = riscv_causes[i].access;
			f->cls = riscv_causes[i].cls;
		}
	if (f->code < 256)
		f->iova = iotval, f->has_iova = true;
	if (iotval2)
		snprintf(buf, sizeof(buf), "%s; iotval2 0x%llx", words,
			 (unsigned long long)iotval2);
	else
		snprintf(buf, sizeof(buf), "%s", words);
	fault_set_reason(f, buf);
}

static enum iommu_line riscv_decode(void *state, const char *msg,
				    struct iommu_fault *f)
{
	const char *p = strstr(msg, "Fault ");
	uint64_t cause, devid, iotval, iotval2;
	const char *q;

	(void)state;
	if (strstr(msg, "riscv_iommu_fault: ") && strstr(msg, " callbacks suppressed"))
		return IOMMU_LINE_KNOWN;	/* the ratelimit's */
	for (; p; p = strstr(p + 1, "Fault ")) {
		q = fault_dec(p + 6, &cause);
		if (fault_lit(q, " devid: 0x"))
			break;
	}
	if (!p)
		return IOMMU_LINE_OTHER;
	/* the driver's prefix when the line kept it: "riscv,iommu DEV: " */
	if (!fault_dev_prefix(msg, p, f->iommu_dev, sizeof(f->iommu_dev)))
		f->iommu_dev[0] = '\0';
	p = fault_hex(fault_lit(q, " devid: 0x"), &devid);
	p = fault_hex(fault_lit(p, " iotval: "), &iotval);
	p = fault_hex(fault_lit(p, " iotval2: "), &iotval2);
	if (!p || cause > 0xfff || devid > 0xffffff)
		return fault_malformed(f, RISCV, "6.13+",
				       "not \"Fault N devid: 0xN iotval: HEX iotval2: HEX\"");
	if (*p)
		return fault_malformed(f, RISCV, "6.13+",
				       "more after iotval2 than the driver prints (a patched kernel?)");
	f->iommu = RISCV;
	f->format = "6.13+";
	f->code = (uint32_t)cause, f->has_code = true;
	f->sid = (uint32_t)devid, f->has_sid = true;
	riscv_name(f, iotval, iotval2);
	return IOMMU_LINE_FAULT;
}

const struct fault_driver fault_driver_riscv_iommu = {
	.name = RISCV,
	.source = "drivers/iommu/riscv/iommu.c",
	.decode = riscv_decode,
};
