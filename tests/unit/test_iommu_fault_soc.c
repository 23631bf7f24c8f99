// SPDX-License-Identifier: GPL-2.0
/*
 * The embedded IOMMUs' decoders of parse/fault/: riscv-iommu, mtk-iommu,
 * rockchip-iommu, ipmmu-vmsa, apple-dart, tegra-smmu (tegra-mc's lines),
 * exynos-sysmmu, sun50i-iommu.  Real lines of tests/unit/data/iommu_faults
 * (their sources in its README.md), field by field; lines built from the
 * format strings where no real one was found; lines that must not decode.
 */
#include <stdbool.h>
#include <string.h>
#include "unit.h"
#include "fault_file.h"

static void malformed_lines(const char *const *lines, size_t n, const char *iommu)
{
	struct iommu_fault f;

	for (size_t i = 0; i < n; i++) {
		assert_int_equal(fault_line(lines[i], &f), IOMMU_LINE_MALFORMED);
		assert_string_equal(f.iommu, iommu);
		assert_true(f.reason[0]);
	}
}

/* name read: n faults, and no line of an IOMMU's left undecoded. */
static void read_clean(const char *name, struct fault_file *r, size_t n)
{
	fault_file_read(name, r);
	assert_int_equal(r->n, n);
	assert_int_equal(r->malformed, 0);
}

/* Which driver decoded f, by which of its formats, for which instance. */
static void fault_is(const struct iommu_fault *f, const char *iommu,
		     const char *format, const char *iommu_dev)
{
	assert_string_equal(f->iommu, iommu);
	assert_string_equal(f->format, format);
	assert_string_equal(f->iommu_dev, iommu_dev);
}

#define MALFORMED(iommu, ...)						\
	do {								\
		static const char *const l[] = { __VA_ARGS__ };		\
		malformed_lines(l, sizeof(l) / sizeof(l[0]), iommu);	\
	} while (0)

/* ---- riscv-iommu ---------------------------------------------------------- */

/* No upstream line was found: built from 6.13's format string. */
static void riscv_built(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_int_equal(fault_line("[   33.100200] riscv,iommu 10000000.iommu: Fault 13 devid: 0x10 iotval: 82d00000 iotval2: 0", &f),
			 IOMMU_LINE_FAULT);
	fault_is(&f, "riscv-iommu", "6.13+", "10000000.iommu");
	assert_true(f.has_code);
	assert_int_equal(f.code, 13);
	assert_string_equal(f.reason, "Read page fault");
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.cls, IOMMU_CLASS_PAGE);
	assert_true(f.has_sid);
	assert_int_equal(f.sid, 0x10);
	assert_true(f.has_iova);
	assert_int_equal(f.iova, 0x82d00000);
	/* the PCI-attached IOMMU; a DDT fault has no address */
	assert_int_equal(fault_line("riscv-iommu-pci 0000:00:01.0: Fault 258 devid: 0x18 iotval: 0 iotval2: 0", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.iommu_dev, "0000:00:01.0");
	assert_string_equal(f.reason, "DDT entry not valid");
	assert_int_equal(f.cls, IOMMU_CLASS_CONTEXT);
	assert_false(f.has_iova);
	/* a guest-page fault names the guest physical address too */
	assert_int_equal(fault_line("riscv,iommu 10000000.iommu: Fault 23 devid: 0x8 iotval: 7f001000 iotval2: 2000400", &f),
			 IOMMU_LINE_FAULT);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
	assert_string_equal(f.reason, "Write/AMO guest-page fault; iotval2 0x2000400");
}

/* The only real line: a research kernel that appends its own fields. */
static void riscv_real_patched_and_malformed(void **state)
{
	struct fault_file r;
	struct iommu_fault f;

	(void)state;
	fault_file_read("riscv-iommu-patched.log", &r);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.malformed, 1);
	MALFORMED("riscv-iommu",
		  "riscv,iommu 1.iommu: Fault 13 devid: 0x10 iotval: 82d00000",
		  "riscv,iommu 1.iommu: Fault 13 devid: 0x10 iotval: zz iotval2: 0",
		  "riscv,iommu 1.iommu: Fault 99999 devid: 0x10 iotval: 1 iotval2: 0");
	assert_int_equal(fault_line("riscv_iommu_fault: 5 callbacks suppressed", &f),
			 IOMMU_LINE_KNOWN);
}

/* ---- mtk-iommu ----------------------------------------------------------- */

static void mtk_real_5_19(void **state)
{
	struct fault_file r;
	const struct iommu_fault *f = &r.f[0];

	(void)state;
	read_clean("mtk-iommu-5.19-mt8192.log", &r, 2);
	fault_is(f, "mtk-iommu", "5.19+", "1401d000.m4u");
	assert_int_equal(f->iova, 0x1ff7c0000ULL);
	assert_int_equal(f->code, 0x280);
	/* bits 7 and 9: MMU1's translation fault and invalid PA */
	assert_string_equal(f->reason, "MMU1 translation fault, MMU1 invalid physical address; layer 0");
	assert_int_equal(f->cls, IOMMU_CLASS_UNMAPPED);
	assert_string_equal(f->master, "larb 5 port 0");
	assert_true(f->has_sid);
	assert_int_equal(f->sid, 0x5000480);	/* INT_ID */
	assert_int_equal(f->access, IOMMU_ACCESS_READ);
	assert_string_equal(r.f[1].master, "larb 5 port 4");
	assert_int_equal(r.f[1].access, IOMMU_ACCESS_WRITE);
}

static void mtk_real_5_14_and_vendor(void **state)
{
	struct fault_file r;

	(void)state;
	read_clean("mtk-iommu-5.14-mt8173.log", &r, 10);
	assert_string_equal(r.f[0].format, "4.6-5.18");
	assert_int_equal(r.f[0].iova, 0xfcff0001);
	assert_string_equal(r.f[0].master, "larb 0 port 0");
	assert_string_equal(r.f[0].reason, "MMU0 translation fault, MMU0 invalid physical address; layer 1");
	assert_false(r.f[0].has_sid);
	read_clean("mtk-iommu-vendor-mt6895.log", &r, 1);
	assert_string_equal(r.f[0].iommu_dev, "1e802000.iommu");
	assert_string_equal(r.f[0].master, "larb 0 port 2");
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_WRITE);
}

/* mtk_iommu_v1 (mt2701): no real line; no layer, no access. */
static void mtk_built_v1_and_malformed(void **state)
{
	struct fault_file r;
	struct iommu_fault f;

	(void)state;
	assert_int_equal(fault_line("mtk-iommu-v1 10205000.iommu: fault type=0x1 iova=0x40000 pa=0x0 larb=2 port=5", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.format, "v1 (mt2701), 4.8+");
	assert_string_equal(f.master, "larb 2 port 5");
	assert_int_equal(f.access, IOMMU_ACCESS_UNKNOWN);
	assert_string_equal(f.reason, "MMU0 translation fault");
	/* a mailer's wrap after "fault type=0x280": the halves joined */
	read_clean("mtk-iommu-5.19-wrapped.log", &r, 1);
	assert_int_equal(r.f[0].iova, 0x1fcdc0000ULL);
	assert_string_equal(r.f[0].master, "larb 4 port 7");
	MALFORMED("mtk-iommu",
		  "mtk-iommu 1.m4u: fault type=0x280 iova=0x1 pa=0x0 master=0x1(larb=5 port=0 layer=0 read",
		  "mtk-iommu 1.m4u: fault type=0x280 iova=0x1 pa=0x0 larb=5 port=0 layer=0 exec",
		  "mtk-iommu 1.m4u: fault type=0x280 iova=0x1 pa=0x0 larb=5 port=0 layer=0 read tail");
}

/* ---- rockchip-iommu ---------------------------------------------------- */

static void rockchip_real(void **state)
{
	struct fault_file r;

	(void)state;
	read_clean("rockchip-bsp4.4-rk3399.log", &r, 1);
	fault_is(&r.f[0], "rockchip-iommu", "3.19+", "ff650800.iommu");
	assert_int_equal(r.f[0].iova, 0x4382010);
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_WRITE);
	/* the third line: the directory entry is not valid */
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_UNMAPPED);
	assert_string_equal(r.f[0].reason, "page fault; directory entry not valid");
	fault_file_read("rockchip-6.5-rk3568.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_READ);
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_PERMISSION);	/* both valid */
	assert_int_equal(r.f[0].flags, 0x106);
	fault_file_read("rockchip-6.11-rk3288-32bit.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.f[0].iova, 0x7f4bda00);
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_UNMAPPED);
}

/* Lines cut by a pager ("less -S"'s ">"): the faults read, the cut lines said. */
static void rockchip_real_cut_and_built(void **state)
{
	struct fault_file r;
	struct iommu_fault f;

	(void)state;
	fault_file_read("rockchip-bsp6.1-rk3576-cut.log", &r);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_PAGE);	/* its third line cut */
	assert_int_equal(r.f[2].iova, 0xf960c830);
	/* 4 cut rk_iommu lines, 2 of rga's own that name an IOMMU fault */
	assert_int_equal(r.malformed, 6);
	assert_int_equal(r.first_malformed, 3);
	assert_int_equal(fault_line("rk_iommu ff650800.iommu: BUS_ERROR occurred at 0x0000000004382010", &f),
			 IOMMU_LINE_FAULT);
	assert_int_equal(f.cls, IOMMU_CLASS_HARDWARE);
	assert_int_equal(f.iova, 0x4382010);
	assert_int_equal(fault_line("rk_iommu ff650800.iommu: unexpected int_status: 0x000004", &f),
			 IOMMU_LINE_FAULT);
	assert_int_equal(f.code, 4);
	assert_int_equal(fault_line("rk_iommu ff650800.iommu: Page fault while iommu not attached to domain?", &f),
			 IOMMU_LINE_KNOWN);
	MALFORMED("rockchip-iommu",
		  "rk_iommu ff650800.iommu: Page fault at 0x0000000004382010 of type exec",
		  "rk_iommu ff650800.iommu: Page fault at 0x0000000004382010",
		  "rk_iommu ff650800.iommu: some fault never printed");
}

/* ---- ipmmu-vmsa ----------------------------------------------------------- */

static void ipmmu_real_and_built(void **state)
{
	struct fault_file r;
	struct iommu_fault f;

	(void)state;
	read_clean("ipmmu-vmsa-rcar-s4.log", &r, 1);
	fault_is(&r.f[0], "ipmmu-vmsa", "3.17+", "eed40000.iommu");
	assert_int_equal(r.f[0].code, 0x1502);
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_PAGE);	/* IMSTR.PF */
	assert_string_equal(r.f[0].reason, "page fault (PF)");
	assert_int_equal(r.f[0].iova, 0xfe000000);
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_UNKNOWN);
	assert_int_equal(fault_line("ipmmu-vmsa e67b0000.iommu: Unhandled fault: status 0x00000001 iova 0x1ffe000000", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.format, "~4.19+ (64-bit IOVA)");
	assert_int_equal(f.cls, IOMMU_CLASS_UNMAPPED);	/* IMSTR.TF */
	assert_int_equal(fault_line("ipmmu-vmsa e67b0000.iommu: Multiple TLB hits @0x12345000", &f),
			 IOMMU_LINE_FAULT);
	assert_int_equal(f.cls, IOMMU_CLASS_HARDWARE);
	assert_string_equal(f.reason, "multiple TLB hits");
	assert_int_equal(fault_line("ipmmu-vmsa e67b0000.iommu: Page Table Walk Abort @0x12345000", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.reason, "page table walk abort");
	MALFORMED("ipmmu-vmsa",
		  "ipmmu-vmsa e67b0000.iommu: Unhandled fault: status 0x00000001",
		  "ipmmu-vmsa e67b0000.iommu: Multiple TLB hits @0x");
}

/* ---- apple-dart ------------------------------------------------------------ */

static void dart_real_and_built(void **state)
{
	struct fault_file r;
	struct iommu_fault f;

	(void)state;
	read_clean("apple-dart-t8110.log", &r, 2);
	fault_is(&r.f[0], "apple-dart", "5.15+", "285820000.iommu");
	assert_int_equal(r.f[0].iova, 0x9f9c0000);
	assert_int_equal(r.f[0].code, 8);
	assert_string_equal(r.f[0].reason, "NO PTE FOR IOVA");
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_UNMAPPED);
	assert_int_equal(r.f[0].flags, 0x900c0008);	/* status */
	assert_true(r.f[0].has_sid);
	assert_int_equal(r.f[0].sid, 0);		/* stream */
	/* a test's data cut after "status:" */
	fault_file_read("apple-dart-cut.log", &r);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.malformed, 2);
	assert_int_equal(fault_line("apple-dart 382f00000.iommu: translation fault: status:0x1 stream:3 code:0x10 (READ FAULT) at 0x10000", &f),
			 IOMMU_LINE_FAULT);
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.cls, IOMMU_CLASS_PERMISSION);
	assert_int_equal(f.sid, 3);
	MALFORMED("apple-dart",
		  "apple-dart 1.iommu: translation fault: status:0x1 stream:3 code:0x10 (SOMETHING ELSE) at 0x10000",
		  "apple-dart 1.iommu: translation fault: status:0x1 stream:3 code:0x10 (READ FAULT) at");
}

/* ---- tegra-smmu (tegra-mc) ------------------------------------------------- */

static void tegra_real_and_built(void **state)
{
	struct fault_file r;
	struct iommu_fault f;

	(void)state;
	read_clean("tegra-mc-5.10-tegra30.log", &r, 2);
	fault_is(&r.f[0], "tegra-smmu", "3.19+", "7000f000.memory-controller");
	assert_string_equal(r.f[0].master, "fdcdwr2");
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_WRITE);
	assert_int_equal(r.f[0].iova, 0x877e8400);
	assert_string_equal(r.f[0].reason, "EMEM address decode error (SMMU translation error [--S])");
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_ADDRESS);
	assert_string_equal(r.f[1].reason, "Page fault (SMMU translation error [--S])");
	assert_int_equal(r.f[1].cls, IOMMU_CLASS_PAGE);
	/* hand-wrapped: each first half said to be cut */
	fault_file_read("tegra-mc-5.10-wrapped.log", &r);
	assert_int_equal(r.n, 0);
	assert_true(r.malformed >= 2);
	assert_int_equal(fault_line("tegra-mc 70019000.memory-controller: nvjpgsrd: secure read @0x00000000ffffbe00: Security violation (TrustZone violation)", &f),
			 IOMMU_LINE_FAULT);
	assert_int_equal(f.iova, 0xffffbe00);
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.cls, IOMMU_CLASS_PERMISSION);
	MALFORMED("tegra-smmu",
		  "tegra-mc 1.memory-controller: fdcdwr2: write @0x877e8400:",
		  "tegra-mc 1.memory-controller: fdcdwr2: fetch @0x877e8400: Page fault (x)");
	/* the driver's other "WORD: text" messages are no faults */
	assert_int_equal(fault_line("tegra-mc 7000f000.memory-controller: dma-ranges: 0x80000000", &f),
			 IOMMU_LINE_OTHER);
}

/* ---- exynos-sysmmu --------------------------------------------------------- */

static void exynos_real_and_built(void **state)
{
	struct fault_file r;
	struct iommu_fault f;

	(void)state;
	read_clean("exynos-sysmmu-5.6-fimd.log", &r, 1);
	fault_is(&r.f[0], "exynos-sysmmu", "4.12-6.0", "14640000.sysmmu");
	assert_string_equal(r.f[0].device, "14400000.fimd");
	assert_string_equal(r.f[0].reason, "PAGE FAULT");
	assert_int_equal(r.f[0].iova, 0x20000000);
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_UNMAPPED);
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_UNKNOWN);
	read_clean("exynos-sysmmu-6.16-exynos7870.log", &r, 1);
	assert_string_equal(r.f[0].format, "6.1+");
	assert_string_equal(r.f[0].device, "14830000.decon");
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_READ);
	assert_int_equal(r.f[0].iova, 0x6715b3e0);
	assert_int_equal(fault_line("exynos-sysmmu 13a10000.sysmmu: 13a00000.gsc: AW ACCESS PROTECTION FAULT occurred at 0x20001000", &f),
			 IOMMU_LINE_FAULT);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
	assert_int_equal(f.cls, IOMMU_CLASS_PERMISSION);
	assert_string_equal(f.reason, "AW ACCESS PROTECTION FAULT");
	/* 3.x-4.9 (pr_err, no prefix) and 4.10-4.11: built from the source */
	assert_int_equal(fault_line("[   33.1] PAGE FAULT occurred at 0x20000000 by 14400000.fimd(Page table base: 0x6e4f4000)", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.format, "3.x-4.9");
	assert_string_equal(f.device, "14400000.fimd");
	assert_string_equal(f.reason, "PAGE FAULT");
	assert_int_equal(f.iova, 0x20000000);
	assert_string_equal(f.iommu_dev, "");
	assert_int_equal(fault_line("exynos-sysmmu 14640000.sysmmu: AR MULTI-HIT FAULT occurred at 0x20001000 (page table base: 0x6e4f4000)", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.format, "4.10-4.11");
	assert_string_equal(f.reason, "AR MULTI-HIT FAULT");
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.cls, IOMMU_CLASS_HARDWARE);
	assert_string_equal(f.device, "");
	/* without the prefix and " by ": the second half of a wrapped line */
	assert_int_equal(fault_line("PAGE FAULT occurred at 0x6715b3e0", &f), IOMMU_LINE_OTHER);
	MALFORMED("exynos-sysmmu",
		  "PAGE FAULT occurred at 0x20000000 by 14400000.fimd(Page table base:",
		  "exynos-sysmmu 1.sysmmu: PAGE FAULT occurred at 0x20001000 (page table",
		  "exynos-sysmmu 14860000.sysmmu: 14830000.decon: [READ] ",
		  "exynos-sysmmu 14860000.sysmmu: 14830000.decon: PAGE FAULT occurred at 0x1ffffffff");
}

/* ---- sun50i-iommu ---------------------------------------------------------- */

static void sun50i_real_and_built(void **state)
{
	struct fault_file r;
	struct iommu_fault f;

	(void)state;
	read_clean("sun50i-iommu-h713.log", &r, 1);
	fault_is(&r.f[0], "sun50i-iommu", "5.8+", "30f0000.iommu");
	assert_string_equal(r.f[0].master, "0");
	assert_int_equal(r.f[0].iova, 0xffcac000);
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_READ);
	fault_file_read("sun50i-iommu-display.log", &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.f[0].master, "2");
	assert_int_equal(fault_line("sun50i-iommu 30f0000.iommu: Page fault for 0x45d2a000 (master 1, dir wr)", &f),
			 IOMMU_LINE_FAULT);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
	assert_int_equal(fault_line("sun50i-iommu 30f0000.iommu: Page fault while iommu not attached to any domain?", &f),
			 IOMMU_LINE_KNOWN);
	MALFORMED("sun50i-iommu",
		  "sun50i-iommu ... Page fault for 0x... (master 0, dir rd)",
		  "sun50i-iommu 30f0000.iommu: Page fault for 0x45d2a000 (master 1, dir xx)",
		  "sun50i-iommu 30f0000.iommu: Page fault for 0x45d2a000");
}

UNIT_MAIN("iommu_fault_soc",
	  UT(riscv_built), UT(riscv_real_patched_and_malformed),
	  UT(mtk_real_5_19), UT(mtk_real_5_14_and_vendor),
	  UT(mtk_built_v1_and_malformed), UT(rockchip_real),
	  UT(rockchip_real_cut_and_built), UT(ipmmu_real_and_built),
	  UT(dart_real_and_built), UT(tegra_real_and_built),
	  UT(exynos_real_and_built), UT(sun50i_real_and_built))
