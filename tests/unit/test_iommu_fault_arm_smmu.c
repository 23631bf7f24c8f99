// SPDX-License-Identifier: GPL-2.0
/*
 * parse/fault/arm_smmu.c: Arm SMMUv1/v2 and qcom_iommu.  Real lines of
 * tests/unit/data/iommu_faults (their sources in its README.md), field by
 * field; lines built from the format strings where no real one was found
 * (3.x's iova=/fsynr=/cb= from a source comment only, 4.14-5.1 in Linux);
 * multi-line events; lines that must not decode.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "fault_file.h"

/* ---- one line per format ---------------------------------------------- */

/* 5.2-6.10 (and the first line of 6.11+): ZynqMP MMU-500, macb. */
static void real_5_2_zynqmp(void **state)
{
	struct fault_file r;
	const struct iommu_fault *f = &r.f[0];

	(void)state;
	fault_file_read("arm-smmu-5.2-zynqmp-macb.log", &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.pending, 0);
	assert_string_equal(f->iommu, "arm-smmu");
	assert_string_equal(f->format, "5.2+");
	assert_string_equal(f->iommu_dev, "fd800000.smmu");
	assert_true(f->has_iova);
	assert_int_equal(f->iova, 0x3165687460ULL);	/* %08lx: 40 bits unpadded */
	assert_true(f->has_code);
	assert_int_equal(f->code, 0x402);
	assert_int_equal(f->cls, IOMMU_CLASS_UNMAPPED);	/* FSR.TF */
	assert_string_equal(f->reason, "translation fault; context bank 1");
	assert_true(f->has_flags);
	assert_int_equal(f->flags, 0x20001);		/* FSYNR0 */
	assert_int_equal(f->access, IOMMU_ACCESS_READ);	/* WNR clear */
	assert_true(f->has_sid);
	assert_int_equal(f->sid, 0x877);		/* CBFRSYNRA */
	assert_string_equal(f->device, "");
	assert_true(f->has_time);
	assert_int_equal(f->time_us, 74959989);
}

/* 4.14-5.1 "fsr=, iova=, fsynr=, cb=": in Linux no real line was found. */
static void built_4_14(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_int_equal(fault_line("[   12.000001] arm-smmu 5000000.iommu: Unhandled context fault: fsr=0x408, iova=0x86000a60, fsynr=0x11, cb=2", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.format, "4.14-5.1");
	assert_int_equal(f.iova, 0x86000a60);
	assert_int_equal(f.code, 0x408);
	assert_int_equal(f.cls, IOMMU_CLASS_PERMISSION);	/* FSR.PF */
	assert_string_equal(f.reason, "permission fault; context bank 2");
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);	/* FSYNR0.WNR */
	assert_false(f.has_sid);
}

/* Xen's port prints the 4.14-5.1 form: a real line. */
static void real_xen_port(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-xen-zynqmp.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.malformed, 0);
	assert_string_equal(r.f[0].format, "Xen's port of 4.14-5.1");
	assert_string_equal(r.f[0].iommu_dev, "/smmu@fd800000");
	assert_int_equal(r.f[0].iova, 0x8424cb148ULL);
	assert_int_equal(r.f[0].flags, 0xb0001);
}

/* 3.x-4.13 "iova=, fsynr=, cb=": real only inside a C comment. */
static void real_3_x_comment(void **state)
{
	struct fault_file r;
	const struct iommu_fault *f = &r.f[0];

	(void)state;
	fault_file_read("arm-smmu-4.x-dpaa2-comment.log", &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(f->format, "3.x-4.13");
	assert_int_equal(f->iova, 0x06030040);
	assert_false(f->has_code);		/* no FSR before 4.14 */
	assert_string_equal(f->reason, "context bank 0");
	assert_int_equal(f->flags, 0x12);
	assert_int_equal(f->access, IOMMU_ACCESS_WRITE);
}

/* Qualcomm's downstream orders. */
static void built_qcom_downstream_orders(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_int_equal(fault_line("arm-smmu 15000000.apps-smmu: Unhandled context fault: iova=0xa58c00d8, fsr=0x40000402, fsynr=0x360003, cb=5", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.format, "Qualcomm downstream msm-4.9");
	assert_string_equal(f.reason, "translation fault, stalled; context bank 5");
	assert_int_equal(fault_line("arm-smmu 15000000.apps-smmu: Unhandled context fault: iova=0x00001000, cb=0, fsr=0x40000402, fsynr0=0x200011, fsynr1=0x0", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.format, "Qualcomm downstream msm-4.19");
	assert_int_equal(f.flags, 0x200011);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
}

/*
 * NVIDIA's L4T arm-smmu (Jetson): "sid=%d(0x%x - %s)" after cb=, the
 * memory client's name; built from the source, no real line was found.
 */
static void built_nvidia_l4t(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_int_equal(fault_line("arm-smmu 12000000.iommu: Unhandled context fault: iova=0x8b3c0000, fsynr=0x80011, cb=22, sid=17(0x11 - nvdisplay), pgd=0, pud=0, pmd=0, pte=0", &f),
			 IOMMU_LINE_MALFORMED);	/* more than the kernel prints */
	assert_int_equal(fault_line("arm-smmu 12000000.iommu: Unhandled context fault: iova=0x8b3c0000, fsynr=0x80011, cb=22, sid=17(0x11 - nvdisplay)", &f),
			 IOMMU_LINE_FAULT);
	assert_string_equal(f.format, "NVIDIA downstream (L4T)");
	assert_int_equal(f.iova, 0x8b3c0000);
	assert_int_equal(f.sid, 17);
	assert_string_equal(f.master, "nvdisplay");
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
	assert_string_equal(f.reason, "context bank 22");
	/* the two SIDs differ: not the kernel's */
	assert_int_equal(fault_line("arm-smmu 12000000.iommu: Unhandled context fault: iova=0x8b3c0000, fsynr=0x80011, cb=22, sid=17(0x12 - nvdisplay)", &f),
			 IOMMU_LINE_MALFORMED);
}

/* ---- 6.11+ ------------------------------------------------------------- */

/* 6.11.y/6.12 on: three lines; the FSR line names the SID. */
static void real_6_19_three_lines(void **state)
{
	struct fault_file r;
	const struct iommu_fault *f = &r.f[0];

	(void)state;
	fault_file_read("arm-smmu-6.19-x1e-three-lines.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.details, 1);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.pending, 0);
	assert_string_equal(f->format, "6.11+, three lines");
	assert_int_equal(f->iova, 0);
	assert_true(f->has_iova);
	assert_int_equal(f->sid, 0x1c00);
	assert_int_equal(f->flags, 0x3d0023);
	assert_int_equal(f->access, IOMMU_ACCESS_READ);	/* PNU, no WNR */
	assert_string_equal(f->reason, "translation fault; context bank 13");
}

/* 6.11's first releases: the first line at dev_dbg, only FSR and FSYNR0. */
static void real_6_11_dbg_only(void **state)
{
	struct fault_file r;
	const struct iommu_fault *f = &r.f[0];

	(void)state;
	fault_file_read("arm-smmu-6.11-dbg-sc8280xp.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.pending, 0);
	assert_string_equal(f->format, "6.11, first line at dev_dbg");
	assert_false(f->has_iova);
	assert_int_equal(f->code, 0x402);
	assert_int_equal(f->sid, 0x563);
	assert_int_equal(f->flags, 0x210013);
	assert_int_equal(f->access, IOMMU_ACCESS_WRITE);	/* WNR */
	assert_int_equal(f->cls, IOMMU_CLASS_UNMAPPED);
}

/* The first line cut at "cb": not read; its FSR/FSYNR0 lines still are. */
static void real_6_11_first_line_cut(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-6.11-x1e-cut.log", &r);
	assert_int_equal(r.malformed, 1);
	assert_int_equal(r.first_malformed, 1);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.f[0].sid, 0x14e0);
	assert_int_equal(r.f[0].flags, 0x110001);
	assert_false(r.f[0].has_iova);
}

/* An e-mail's reply text between the lines of one event. */
static void real_6_11_interleaved(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-6.11-iris-interleaved.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.malformed, 0);
	assert_string_equal(r.f[0].format, "6.11+, three lines");
	assert_int_equal(r.f[0].iova, 0xd51e3e00);
	assert_int_equal(r.f[0].sid, 0x2a00);
}

/* A storm pasted from its middle: the orphan FSYNR0 line is said to be so. */
static void real_6_11_storm(void **state)
{
	struct fault_file r;
	static const uint64_t iova[] = { 0x9c4b9000, 0x9c4b9d00, 0x9c4ba700, 0x9c4bb000 };
	static const uint32_t sid[] = { 0x800, 0xc40, 0xc40, 0x800 };

	(void)state;
	fault_file_read("arm-smmu-6.11-storm-sm7150.log", &r);
	assert_int_equal(r.malformed, 1);
	assert_int_equal(r.first_malformed, 1);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.pending, 0);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(r.f[i].iova, iova[i]);
		assert_int_equal(r.f[i].sid, sid[i]);
		assert_string_equal(r.f[i].format, "6.11+, three lines");
	}
}

/* printk's caller ID column, 7.1-rc2. */
static void real_7_1_caller_id(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-7.1-caller-id.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.f[0].iova, 0xffeff000);
	assert_int_equal(r.f[0].sid, 0x1004);
	assert_string_equal(r.f[0].reason, "translation fault; context bank 33");
	assert_int_equal(r.f[0].time_us, 116882012);
}

/* 6.12 with the ratelimit's banner and a call trace around the line. */
static void real_6_12_ratelimit_trace(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-6.12-ratelimit-ls1028a.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.f[0].sid, 0x409);
}

/* ---- Qualcomm ----------------------------------------------------------- */

/* Upstream's TBU path, 6.9-6.10: "FSR = ... [TF ], SID=" after the line. */
static void real_qcom_tbu(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-qcom-tbu-fastrpc.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.details, 1);
	assert_int_equal(r.malformed, 0);
	assert_string_equal(r.f[0].format, "5.2+ and Qualcomm's TBU lines (6.9-6.10)");
	assert_int_equal(r.f[0].iova, 0xfd7ff000);
	assert_int_equal(r.f[0].sid, 0x19c3);
}

/* GKI: "Unhandled arm-smmu context fault from DEV!" and a register dump. */
static void real_qcom_gki(void **state)
{
	struct fault_file r;
	const struct iommu_fault *f = &r.f[0];

	(void)state;
	fault_file_read("arm-smmu-qcom-gki-dwc3.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.pending, 0);
	assert_string_equal(f->format, "Qualcomm downstream register dump");
	assert_string_equal(f->device, "a600000.dwc3");
	assert_string_equal(f->iommu_dev, "15000000.apps-smmu");
	assert_int_equal(f->iova, 0xefe60800);
	assert_int_equal(f->code, 0x40000402);
	assert_int_equal(f->flags, 0x5f0003);
	assert_int_equal(f->sid, 0x40);
	assert_int_equal(f->access, IOMMU_ACCESS_READ);
	assert_int_equal(f->prio, 3);
}

/* msm-4.9: the line, then FAR/FSR/SID lines of the same fault. */
static void real_qcom_msm49(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-qcom-msm4.9-wlan.log", &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.malformed, 0);
	assert_string_equal(r.f[0].format, "Qualcomm downstream msm-4.9");
	assert_int_equal(r.f[0].iova, 0xa09d70c8);
	assert_int_equal(r.f[0].sid, 0x40);	/* the "SID=0x40" line */
	assert_int_equal(r.f[1].iova, 0xa09d7100);
	assert_false(r.f[1].has_sid);		/* cut before its SID line */
}

/* msm-4.19: the dump first, the line after it: one fault. */
static void real_qcom_msm419(void **state)
{
	struct fault_file r;
	const struct iommu_fault *f = &r.f[0];

	(void)state;
	fault_file_read("arm-smmu-qcom-msm4.19-oneplus6.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.pending, 0);
	assert_int_equal(f->iova, 0x1000);
	assert_int_equal(f->flags, 0x200001);
	assert_string_equal(f->reason, "translation fault, stalled; context bank 0");
	assert_int_equal(f->sid, 0x880);
}

/* ---- global faults ------------------------------------------------------ */

static void real_global_sc7180(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-global-sc7180.log", &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.pending, 0);
	assert_string_equal(r.f[0].format, "all releases, global fault");
	assert_int_equal(r.f[0].code, 2);	/* GFSR.USF */
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_CONTEXT);
	assert_int_equal(r.f[0].sid, 0x43);	/* GFSYNR1 */
	assert_int_equal(r.f[0].access, IOMMU_ACCESS_WRITE);	/* GFSYNR0.WNR */
	assert_int_equal(r.f[1].sid, 0x4c3);
	assert_false(r.f[0].has_iova);
}

static void real_blocked_stream_id(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-usf-ls1028a.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.details, 1);
	assert_int_equal(r.malformed, 0);
	assert_string_equal(r.f[0].format, "5.5+ with disable_bypass, global fault");
	assert_int_equal(r.f[0].sid, 0x429);
	assert_int_equal(r.f[0].code, 0x80000002);
	assert_int_equal(r.f[0].cls, IOMMU_CLASS_CONTEXT);
	/* a global fault's header without its GFSR line is cut short */
	{
		struct iommu_fault_decoder *d = test_malloc(sizeof(*d));
		struct iommu_fault f;
		const char *l = "arm-smmu 15000000.iommu: Unexpected global fault, this could be serious";

		iommu_fault_decoder_init(d);
		assert_int_equal(iommu_fault_decode(d, l, strlen(l), &f), IOMMU_LINE_PART);
		assert_int_equal(iommu_fault_decoder_pending(d, NULL), 1);
		test_free(d);
	}
}

/* ---- not read ------------------------------------------------------------ */

/* A mailer's wrap after "iova=...,": the two halves joined and read. */
static void real_wrapped_line_joined(void **state)
{
	struct fault_file r;

	(void)state;
	fault_file_read("arm-smmu-5.2-wrapped-honeycomb.log", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.malformed, 0);
	assert_string_equal(r.f[0].iommu_dev, "arm-smmu.0.auto");
	assert_int_equal(r.f[0].iova, 0x2080000140ULL);
	assert_int_equal(r.f[0].flags, 0x1d0040);
	assert_int_equal(r.f[0].sid, 0x4000);
	assert_string_equal(r.f[0].reason, "translation fault; context bank 0");
}

static void malformed_and_other(void **state)
{
	static const char *const bad[] = {
		"arm-smmu 1.iommu: Unhandled context fault: fsr=0x402",
		"arm-smmu 1.iommu: Unhandled context fault: fsr=0x402, iova=0x1000, fsynr=0x1, cbfrsynra=0x1, cb=x",
		"arm-smmu 1.iommu: Unhandled context fault: fsr=0x402, iova=0x1000, fsynr=0x1, cbfrsynra=0x1, cb=1, extra=1",
		"arm-smmu 1.iommu: Unhandled context fault: fsr=0x402, fsr=0x402, iova=0x1, fsynr=0x1, cb=1",
		"arm-smmu 1.iommu: Unhandled context fault: fsr=0x1ffffffff, iova=0x1000, fsynr=0x1, cbfrsynra=0x1, cb=1",
		"arm-smmu 1.iommu: FSR    = 00000402 [Format=2 XX], SID=0x1",
		"arm-smmu 1.iommu: FSYNR0 = 00000001 [S1CBNDX=0 PLVL=1]",
		"arm-smmu 1.iommu: GFSR 0x00000002, GFSYNR0 0x00000002",
		"arm-smmu 1.iommu: Blocked unknown Stream ID 0x12345; boot with x",
		"arm-smmu 1.iommu: Some other fault we never print",
		"qcom-iommu-ctx 1c48000.iommu-ctx: Unhandled context fault: fsr=0x40000202, iova=0x0000000001047dc0, fsynr=0x3, cbfrsynra=0x1, cb=0",
	};
	static const char *const other[] = {
		"arm-smmu 15000000.iommu: probing hardware configuration...",
		"arm-smmu 15000000.iommu: \tstage 1: 48-bit IPA -> 48-bit PA",
		"arm-smmu-v3 9050000.smmuv3: ias 44-bit, oas 44-bit (features 0x00008305)",
		"qarm-smmu 1.iommu: Unhandled context fault: fsr=0x402, iova=0x1, fsynr=0x1, cbfrsynra=0x1, cb=1",
	};
	struct iommu_fault f;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(fault_line(bad[i], &f), IOMMU_LINE_MALFORMED);
		assert_true(f.reason[0]);
	}
	assert_string_equal(f.iommu, "qcom-iommu");
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		assert_int_not_equal(fault_line(other[i], &f), IOMMU_LINE_FAULT);
	assert_int_equal(fault_line(other[0], &f), IOMMU_LINE_OTHER);
	assert_int_equal(fault_line("arm_smmu_context_fault: 83 callbacks suppressed", &f),
			 IOMMU_LINE_KNOWN);
	assert_int_equal(fault_line(" arm_smmu_context_fault+0x110/0x138", &f),
			 IOMMU_LINE_KNOWN);
}

/*
 * An event stays open across other SMMUs' lines: probe messages evict
 * nothing; a ninth SMMU's event evicts the least recent one, counted as
 * cut short.
 */
static void smmus_followed_at_once(void **state)
{
	struct iommu_fault_decoder *d = test_malloc(sizeof(*d));
	struct iommu_fault f;
	char line[160];

	(void)state;
	iommu_fault_decoder_init(d);
	snprintf(line, sizeof(line), "arm-smmu 15000000.iommu: FSR    = 00000402 [Format=2 TF], SID=0x563");
	assert_int_equal(iommu_fault_decode(d, line, strlen(line), &f), IOMMU_LINE_PART);
	for (int i = 0; i < 12; i++) {
		snprintf(line, sizeof(line), "arm-smmu %d.iommu: probing hardware configuration...", i);
		assert_int_equal(iommu_fault_decode(d, line, strlen(line), &f), IOMMU_LINE_OTHER);
	}
	snprintf(line, sizeof(line), "arm-smmu 15000000.iommu: FSYNR0 = 00210013 [S1CBNDX=33 WNR PLVL=3]");
	assert_int_equal(iommu_fault_decode(d, line, strlen(line), &f), IOMMU_LINE_FAULT);
	assert_int_equal(f.sid, 0x563);
	assert_int_equal(iommu_fault_decoder_pending(d, NULL), 0);
	for (int i = 0; i < 9; i++) {
		snprintf(line, sizeof(line), "arm-smmu %d.iommu: FSR    = 00000402 [Format=2 TF], SID=0x%x", i, i);
		assert_int_equal(iommu_fault_decode(d, line, strlen(line), &f), IOMMU_LINE_PART);
	}
	/* eight open, one evicted */
	assert_int_equal(iommu_fault_decoder_pending(d, NULL), 9);
	snprintf(line, sizeof(line), "arm-smmu 0.iommu: FSYNR0 = 00000001 [S1CBNDX=0 PLVL=1]");
	assert_int_equal(iommu_fault_decode(d, line, strlen(line), &f), IOMMU_LINE_MALFORMED);
	snprintf(line, sizeof(line), "arm-smmu 8.iommu: FSYNR0 = 00000001 [S1CBNDX=0 PLVL=1]");
	assert_int_equal(iommu_fault_decode(d, line, strlen(line), &f), IOMMU_LINE_FAULT);
	assert_int_equal(f.sid, 8);
	test_free(d);
}

/* ---- qcom_iommu ----------------------------------------------------------- */

/* msm8953, 6.5.2: console lines glued together, "%016llx" IOVA. */
static void real_qcom_iommu(void **state)
{
	struct fault_file r;
	const struct iommu_fault *f = &r.f[0];

	(void)state;
	fault_file_read("qcom-iommu-6.5-msm8953.log", &r);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.malformed, 0);
	assert_string_equal(f->iommu, "qcom-iommu");
	assert_string_equal(f->format, "4.14+");
	assert_string_equal(f->iommu_dev, "1c48000.iommu-ctx");
	assert_int_equal(f->iova, 0x1047dc0);
	assert_int_equal(f->code, 0x40000202);
	assert_string_equal(f->reason, "translation fault, stalled; context bank 0");
	assert_int_equal(f->flags, 3);
	assert_false(f->has_sid);
	assert_int_equal(r.f[3].iova, 0x1047e20);
	assert_int_equal(r.f[3].time_us, 16363500);
}

UNIT_MAIN("iommu_fault_arm_smmu",
	  UT(real_5_2_zynqmp), UT(built_4_14), UT(real_xen_port),
	  UT(real_3_x_comment), UT(built_qcom_downstream_orders), UT(built_nvidia_l4t),
	  UT(real_6_19_three_lines), UT(real_6_11_dbg_only),
	  UT(real_6_11_first_line_cut), UT(real_6_11_interleaved),
	  UT(real_6_11_storm), UT(real_7_1_caller_id),
	  UT(real_6_12_ratelimit_trace), UT(real_qcom_tbu), UT(real_qcom_gki),
	  UT(real_qcom_msm49), UT(real_qcom_msm419), UT(real_global_sc7180),
	  UT(real_blocked_stream_id), UT(real_wrapped_line_joined),
	  UT(malformed_and_other), UT(smmus_followed_at_once),
	  UT(real_qcom_iommu))
