// SPDX-License-Identifier: GPL-2.0
/*
 * Fault lines as people paste them (parse/fault/): real lines, each with
 * the source it was copied from, decoded field by field; lines built
 * from the kernel's format strings where no real one was found; the
 * cleaning of pasted text; wrapped lines joined; the corpus of
 * tests/unit/data/fault_lines (every block's faults and undecoded lines
 * counted against its "# expect:" line).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "parse/fault/fault_driver.h"
#include "parse/iommu_fault.h"

/* What a paste gave: its faults (details replace) and undecoded lines. */
#define GOT_MAX 16
struct got {
	struct iommu_fault f[GOT_MAX];
	size_t n, undecoded, known, other_drivers;
	struct iommu_fault bad;		/* the last undecoded */
	const char *driver;		/* count faults of other drivers */
};

static int collect(void *arg, enum iommu_line r, const struct iommu_fault *f,
		   const char *msg, uint64_t line)
{
	struct got *g = arg;

	(void)msg, (void)line;
	if (r == IOMMU_LINE_MALFORMED) {
		g->undecoded++;
		g->bad = *f;
	} else if (r == IOMMU_LINE_KNOWN) {
		g->known++;
	} else if (r == IOMMU_LINE_FAULT) {
		if (g->driver && strcmp(f->iommu, g->driver))
			g->other_drivers++;
		if (g->n < GOT_MAX)
			g->f[g->n] = *f;
		g->n++;
	} else if (r == IOMMU_LINE_DETAIL && g->n && g->n <= GOT_MAX) {
		g->f[g->n - 1] = *f;
	}
	return 0;
}

/* text, its lines fed to one decoder, then its end. */
static void paste(const char *text, struct got *g)
{
	static struct iommu_fault_decoder d;
	const char *p = text;

	memset(g, 0, sizeof(*g));
	iommu_fault_decoder_init(&d);
	while (*p) {
		size_t len = strcspn(p, "\n");

		iommu_fault_feed(&d, p, len, collect, g);
		p += len + (p[len] == '\n');
	}
	iommu_fault_finish(&d, collect, g);
	g->undecoded += iommu_fault_decoder_pending(&d, NULL);
}

/* One fault expected of a paste, field by field; NULL/-1: absent. */
struct want {
	const char *source;	/* where the line was copied from, or "built: ..." */
	const char *text;
	const char *iommu, *format, *device, *iommu_dev;
	long long iova;		/* -1: none */
	enum iommu_access access;
	long long code;		/* -1: none */
	const char *reason;
	long long pasid, domain_id, flags, sid, time_us;	/* -1: none */
	const char *wall;
};

/* An optional field: there exactly when want >= 0 (-1: none), then want. */
static void opt_equal(bool has, uint64_t got, long long want)
{
	assert_int_equal(has, want >= 0);
	if (want >= 0)
		assert_int_equal(got, (uint64_t)want);
}

static void check(const struct want *w)
{
	struct got g;
	const struct iommu_fault *f;

	paste(w->text, &g);
	if (g.n != 1 || g.undecoded)
		fail_msg("%s: %zu faults, %zu undecoded (%s: %s)", w->source,
			 g.n, g.undecoded, g.bad.iommu ? g.bad.iommu : "",
			 g.bad.reason);
	f = &g.f[0];
	assert_string_equal(f->iommu, w->iommu);
	assert_non_null(f->format);
	assert_string_equal(f->format, w->format);
	assert_string_equal(f->device, w->device);
	assert_string_equal(f->iommu_dev, w->iommu_dev);
	opt_equal(f->has_iova, f->iova, w->iova);
	assert_int_equal(f->access, w->access);
	opt_equal(f->has_code, f->code, w->code);
	assert_string_equal(f->reason, w->reason);
	opt_equal(f->has_pasid, f->pasid, w->pasid);
	opt_equal(f->has_domain_id, f->domain_id, w->domain_id);
	opt_equal(f->has_flags, f->flags, w->flags);
	opt_equal(f->has_sid, f->sid, w->sid);
	opt_equal(f->has_time, f->time_us, w->time_us);
	assert_string_equal(f->wall, w->wall ? w->wall : "");
}

/* Every row of a table of wants. */
static void check_rows(const struct want *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		check(&w[i]);
}

#define CHECK_ROWS(t) check_rows(t, sizeof(t) / sizeof(t[0]))

#define R IOMMU_ACCESS_READ
#define W IOMMU_ACCESS_WRITE
#define U IOMMU_ACCESS_UNKNOWN

/* ---- VT-d, each era ------------------------------------------------- */

static const struct want vtd[] = {
	{ "https://lkml.indiana.edu/hypermail/linux/kernel/1302.0/01541.html (3.8-rc5)",
	  "[ 1692.021403] dmar: DMAR:[DMA Read] Request device [00:02.0] fault addr 1a45aa9000 \n"
	  "[ 1692.021403] DMAR:[fault reason 12] non-zero reserved fields in PTE\n"
	  "[ 1692.021416] dmar: DRHD: handling fault status reg 2",
	  "vt-d", "3.x-4.6, two lines", "0000:00:02.0", "", 0x1a45aa9000, R, 12,
	  "non-zero reserved fields in PTE", -1, -1, -1, -1, 1692021403, NULL },
	{ "Ubuntu Forums, Friendly_Hoovy 2016-05-25 (4.2, DMAR: DMAR:[, dmesg's continuation indent)",
	  "DMAR: DRHD: handling fault status reg 2\n"
	  "[   20.210640] DMAR: DMAR:[DMA Read] Request device [04:00.0] fault addr ca6d5000 \n"
	  "               DMAR:[fault reason 01] Present bit in root entry is clear",
	  "vt-d", "3.x-4.6, two lines", "0000:04:00.0", "", 0xca6d5000, R, 1,
	  "Present bit in root entry is clear", -1, -1, -1, -1, 20210640, NULL },
	{ "built: 3.x INTR-REMAP:, two lines (dmar_fault_do_one)",
	  "INTR-REMAP: Request device [[f0:1f.0] fault index 1f\n"
	  "INTR-REMAP:[fault reason 34] Present field in the IRTE entry is clear",
	  "vt-d", "3.x-4.6, two lines", "0000:f0:1f.0", "", -1, U, 34,
	  "Present field in the IRTE entry is clear", -1, -1, -1, -1, -1, NULL },
	{ "https://github.com/opencomputeproject/OpenNetworkLinux/pull/897 (4.7-5.4)",
	  "    [10672.868940] DMAR: [DMA Write] Request device [00:12.0] fault addr 0 [fault reason 05] PTE Write access is not set",
	  "vt-d", "4.7-5.4", "0000:00:12.0", "", 0, W, 5,
	  "PTE Write access is not set", -1, -1, -1, -1, 10672868940, NULL },
	{ "https://github.com/patmagauran/i915ovmfPkg/issues/23 (5.5-5.13)",
	  "[  144.480641] DMAR: [DMA Read] Request device [00:02.0] PASID ffffffff fault addr 9c000000 [fault reason 06] PTE Read access is not set",
	  "vt-d", "5.5-5.13", "0000:00:02.0", "", 0x9c000000, R, 6,
	  "PTE Read access is not set", -1, -1, -1, -1, 144480641, NULL },
	{ "https://github.com/thesofproject/sof-test/issues/744 (5.14, journal's kernel:)",
	  "[    0.938401] kernel: DMAR: [DMA Read NO_PASID] Request device [0x00:0x02.0] fault addr 0x70ad5000 [fault reason 0x07] Next page table ptr is invalid",
	  "vt-d", "5.14", "0000:00:02.0", "", 0x70ad5000, R, 7,
	  "Next page table ptr is invalid", -1, -1, -1, -1, 938401, NULL },
	{ "linux-pci, Nirmal Patel's VMD patch review (5.14 INTR-REMAP, >>> quoted)",
	  ">>>   DMAR: DRHD: handling fault status reg 2\n"
	  ">>>   DMAR: [INTR-REMAP] Request device [0xe2:0x00.0] fault index 0xa00 [fault reason 0x25] Blocked a compatibility format interrupt request",
	  "vt-d", "5.14", "0000:e2:00.0", "", -1, U, 0x25,
	  "Blocked a compatibility format interrupt request", -1, -1, -1, -1, -1, NULL },
	{ "https://github.com/tenstorrent/tt-umd/issues/1814 (5.15+, scalable mode)",
	  "[ 6611.206519] DMAR: DRHD: handling fault status reg 2\n"
	  "[ 6611.206544] DMAR: [DMA Read NO_PASID] Request device [03:00.0] fault addr 0x100000 [fault reason 0x71] SM: Present bit in first-level paging entry is clear",
	  "vt-d", "5.15+", "0000:03:00.0", "", 0x100000, R, 0x71,
	  "SM: Present bit in first-level paging entry is clear", -1, -1, -1, -1, 6611206544, NULL },
	{ "https://github.com/quo/ithc-linux/issues/2 (5.15+ INTR-REMAP, no stamps)",
	  "DMAR: [INTR-REMAP] Request device [01:05.0] fault index 0x2f [fault reason 0x26] Blocked an interrupt request due to source-id verification failure",
	  "vt-d", "5.15+", "0000:01:05.0", "", -1, U, 0x26,
	  "Blocked an interrupt request due to source-id verification failure", -1, -1, -1, -1, -1, NULL },
	{ "https://bugzilla.kernel.org/show_bug.cgi?id=219198 comment 11 (syslog, wrapped by the mailer)",
	  "Aug 26 11:47:22 xps13a.happyassassin.net kernel: DMAR: DRHD: handling fault\n"
	  "status reg 2\n"
	  "Aug 26 11:47:22 xps13a.happyassassin.net kernel: DMAR: [DMA Read NO_PASID]\n"
	  "Request device [55:00.0] fault addr 0xffffb000 [fault reason 0x06] PTE Read access is not set",
	  "vt-d", "5.15+", "0000:55:00.0", "", 0xffffb000, R, 6,
	  "PTE Read access is not set", -1, -1, -1, -1, -1, "Aug 26 11:47:22" },
	{ "built: 5.15+ PASID form (dmar_fault_do_one)",
	  "[Tue Apr 29 10:00:01 2025] DMAR: [DMA Write PASID 0x1f] Request device [6a:01.0] fault addr 0x7fe0c9943000 [fault reason 0x3a] SM: Non-zero reserved field set in Root Entry",
	  "vt-d", "5.15+", "0000:6a:01.0", "", 0x7fe0c9943000, W, 0x3a,
	  "SM: Non-zero reserved field set in Root Entry", 0x1f, -1, -1, -1, -1, "Tue Apr 29 10:00:01 2025" },
	{ "built: the PCI segment form (greearb/linux-ct-7.2's dmar.c)",
	  "DMAR: [DMA Read NO_PASID] Request device [0001:3a:00.1] fault addr 0x5000 [fault reason 0x06] PTE Read access is not set",
	  "vt-d", "newest, with the PCI segment", "0001:3a:00.1", "", 0x5000, R, 6,
	  "PTE Read access is not set", -1, -1, -1, -1, -1, NULL },
};

static void vtd_eras(void **state)
{
	(void)state;
	CHECK_ROWS(vtd);
}

/* ---- AMD-Vi ------------------------------------------------------------ */

static const struct want amd[] = {
	{ "https://github.com/pcengines/coreboot/issues/285 (4.9, split, syslog's kernel:)",
	  "kernel: [   13.134460] AMD-Vi: Event logged [\n"
	  "kernel: [   13.137925] INVALID_DEVICE_REQUEST device=00:00.1 address=0x000000fdf8000020 flags=0x0a00]",
	  "amd-vi", "4.9-4.18, split over two lines", "0000:00:00.1", "", 0xfdf8000020, U, 8,
	  "INVALID_DEVICE_REQUEST", -1, -1, 0xa00, -1, 13134460, NULL },
	{ "https://github.com/DIGImend/digimend-kernel-drivers/issues/136 (one line)",
	  "[    1.116842] AMD-Vi: Event logged [IO_PAGE_FAULT device=20:00.0 domain=0x0003 address=0x000000f4001eef80 flags=0x0010]",
	  "amd-vi", "one line, up to 4.8 and 4.19-5.18", "0000:20:00.0", "", 0xf4001eef80, R, 2,
	  "IO_PAGE_FAULT", -1, 3, 0x10, -1, 1116842, NULL },
	{ "kvm@vger, Tasos Sahanidis 2023-02-25 (dev_err() of the device)",
	  "[   73.231711] ahci 0000:0c:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0017 address=0xc5f3f000 flags=0x0050]",
	  "amd-vi", "4.19+, named by the device (dev_err)", "0000:0c:00.0", "", 0xc5f3f000, R, 2,
	  "IO_PAGE_FAULT", -1, 0x17, 0x50, -1, 73231711, NULL },
	{ "linux-kernel, Hermann Himmelbauer 2020-11-17 (dmesg -T, quoted, wrapped)",
	  "> [Fri Aug 28 16:55:06 2020] iommu ivhd0: AMD-Vi: Event logged\n"
	  "> [ILLEGAL_DEV_TABLE_ENTRY device=2b:00.0 pasid=0x00000 address=0xffff2420\n"
	  "> flags=0x0080]",
	  "amd-vi", "one line, up to 4.8 and 4.19-5.18", "0000:2b:00.0", "ivhd0", 0xffff2420, U, 1,
	  "ILLEGAL_DEV_TABLE_ENTRY", 0, -1, 0x80, -1, -1, "Fri Aug 28 16:55:06 2020" },
	{ "https://bugzilla.kernel.org/show_bug.cgi?id=218900 (segment, quoted-printable)",
	  "May 27 14:24:22 youpi kernel: iommu ivhd0: AMD-Vi: Event logged\n"
	  "[ILLEGAL_DEV_TABLE_ENTRY device=3D0000:00:01.0 pasid=3D0x00000 address=3D0x=\n"
	  "102e89980\n"
	  "flags=3D0x0080]",
	  "amd-vi", "5.19+, with the PCI segment", "0000:00:01.0", "ivhd0", 0x102e89980, U, 1,
	  "ILLEGAL_DEV_TABLE_ENTRY", 0, -1, 0x80, -1, -1, "May 27 14:24:22" },
	{ "iommu list, \"PCI: Mark AMD Raven iGPU ATS as broken\" (commit message, \"  | \")",
	  "  | iommu ivhd0: AMD-Vi: Event logged [IOTLB_INV_TIMEOUT device=0b:00.0 address=0x38edc0970]",
	  "amd-vi", "one line, up to 4.8 and 4.19-5.18", "0000:0b:00.0", "ivhd0", -1, U, 7,
	  "IOTLB_INV_TIMEOUT", -1, -1, -1, -1, -1, NULL },
	{ "built: 4.19-5.4's two dev_err() records (iommu_print_event)",
	  "pci 0000:00:00.2: AMD-Vi: Event logged [\n"
	  "pci 0000:00:00.2: PAGE_TAB_HARDWARE_ERROR device=03:00.0 domain=0x0002 address=0x10000 flags=0x0000]",
	  "amd-vi", "4.19-5.4, two records", "0000:03:00.0", "0000:00:00.2", 0x10000, U, 4,
	  "PAGE_TAB_HARDWARE_ERROR", -1, 2, 0, -1, -1, NULL },
	{ "built: RMP_PAGE_FAULT (amd_iommu_report_rmp_fault)",
	  "AMD-Vi: Event logged [RMP_PAGE_FAULT device=0000:41:00.0, vmg_tag=0x0001, gpa=0x7f001000, flags_rmp=0x0000, flags=0x0020]",
	  "amd-vi", "5.19+, with the PCI segment", "0000:41:00.0", "", 0x7f001000, U, 0xd,
	  "RMP_PAGE_FAULT", -1, -1, 0x20, -1, -1, NULL },
	{ "built: RMP_HW_ERROR (amd_iommu_report_rmp_hw_error)",
	  "AMD-Vi: Event logged [RMP_HW_ERROR device=0000:41:00.0, vmg_tag=0x0001, spa=0x8000000, flags=0x0000]",
	  "amd-vi", "5.19+, with the PCI segment", "0000:41:00.0", "", -1, U, 0xe,
	  "RMP_HW_ERROR", -1, -1, 0, -1, -1, NULL },
	{ "built: COMMAND_HARDWARE_ERROR (iommu_print_event)",
	  "iommu ivhd1: AMD-Vi: Event logged [COMMAND_HARDWARE_ERROR address=0x1000c4000 flags=0x0000]",
	  "amd-vi", "one line, up to 4.8 and 4.19-5.18", "", "ivhd1", -1, U, 6,
	  "COMMAND_HARDWARE_ERROR", -1, -1, 0, -1, -1, NULL },
	{ "built: INVALID_PPR_REQUEST (iommu_print_event)",
	  "iommu ivhd0: AMD-Vi: Event logged [INVALID_PPR_REQUEST device=0000:c1:00.0 pasid=0x00012 address=0x7f0000 flags=0x0000 tag=0x001]",
	  "amd-vi", "5.19+, with the PCI segment", "0000:c1:00.0", "ivhd0", 0x7f0000, U, 9,
	  "INVALID_PPR_REQUEST", 0x12, -1, 0, -1, -1, NULL },
};

static void amd_forms(void **state)
{
	(void)state;
	CHECK_ROWS(amd);
}

/* ---- SMMUv3 and virtio-iommu ------------------------------------------- */

static const struct want smmu[] = {
	{ "upstream commit 30de2b541af9 (Zhou Guanghui), tabs kept; the 4th word built",
	  "arm-smmu-v3 arm-smmu-v3.34.auto: event 0x0a received:\n"
	  "arm-smmu-v3 arm-smmu-v3.34.auto: \t0x00007f220000280a\n"
	  "arm-smmu-v3 arm-smmu-v3.34.auto: \t0x000010000000007e\n"
	  "arm-smmu-v3 arm-smmu-v3.34.auto: \t0x00000000034e8670\n"
	  "arm-smmu-v3 arm-smmu-v3.34.auto: \t0x0000000000000000",
	  "smmu-v3", "4.2+, raw words", "", "arm-smmu-v3.34.auto", -1, U, 0x0a,
	  "C_BAD_CD", 2, -1, -1, 0x7f22, -1, NULL },
	{ "xen-devel smmuv3 series (Xen's port, quoted)",
	  "> (XEN) SMMUv3: /smmuv3@9050000: event 0x10 received:\n"
	  "> (XEN) SMMUv3: /smmuv3@9050000:  0x0000000800000010\n"
	  "> (XEN) SMMUv3: /smmuv3@9050000:  0x0000008000000000\n"
	  "> (XEN) SMMUv3: /smmuv3@9050000:  0x0000000008090040\n"
	  "> (XEN) SMMUv3: /smmuv3@9050000:  0x0000000000000000",
	  "smmu-v3", "4.2+, raw words", "", "/smmuv3@9050000", 0x8090040, W, 0x10,
	  "F_TRANSLATION", -1, -1, -1, 8, -1, NULL },
	{ "built: 6.15+ decoded lines alone (arm_smmu_dump_event)",
	  "arm-smmu-v3 fc900000.iommu: event: F_TRANSLATION client: 0000:01:00.0 sid: 0x100 ssid: 0x0 iova: 0x90000f040 ipa: 0x0\n"
	  "arm-smmu-v3 fc900000.iommu: unpriv data write s1 \"Input address caused fault\" stag: 0x0",
	  "smmu-v3", "6.15+, decoded", "0000:01:00.0", "fc900000.iommu", 0x90000f040, W, 0x10,
	  "F_TRANSLATION", -1, -1, -1, 0x100, -1, NULL },
	{ "built: 6.15+ fetch fault (arm_smmu_dump_event)",
	  "arm-smmu-v3 fc900000.iommu: event: F_CD_FETCH client: fd800000.gpu sid: 0x3 ssid: 0x1 fetch_addr: 0x80001000",
	  "smmu-v3", "6.15+, decoded", "fd800000.gpu", "fc900000.iommu", -1, U, 0x09,
	  "F_CD_FETCH", 1, -1, -1, 3, -1, NULL },
	{ "GitHub martins3's notes (virtio-iommu, mainline guest)",
	  "[   32.951222] viommu_fault_handler: 1330 callbacks suppressed\n"
	  "[   32.951702] virtio_iommu virtio0: page fault from EP 32 at 0x103231000 []",
	  "virtio-iommu", "5.3+", "", "virtio0", 0x103231000, U, 2,
	  "page fault", -1, -1, -1, 32, 32951702, NULL },
	{ "built: virtio-iommu with its flags (viommu_fault_handler)",
	  "virtio_iommu virtio0: domain fault from EP 8 at 0x5003000 [RW]",
	  "virtio-iommu", "5.3+", "", "virtio0", 0x5003000, IOMMU_ACCESS_READ_WRITE, 1,
	  "domain fault", -1, -1, -1, 8, -1, NULL },
};

static void smmu_virtio_forms(void **state)
{
	(void)state;
	CHECK_ROWS(smmu);
}

/* ---- cleaning ----------------------------------------------------------- */

static void clean(const char *line, struct iommu_log_line *l)
{
	assert_true(iommu_log_clean(line, strlen(line), l, NULL, NULL));
}

static void clean_prefixes(void **state)
{
	struct iommu_log_line l;
	const char *rest;
	size_t rest_len;

	(void)state;
	clean("Apr 29 10:00:01 host kernel: [  189.706380] DMAR: x\r\n", &l);
	assert_string_equal(l.msg, "DMAR: x");
	assert_string_equal(l.wall, "Apr 29 10:00:01");
	assert_string_equal(l.host, "host");
	assert_int_equal(l.time_us, 189706380);
	clean("Apr  9 10:00:01 host kernel: DMAR: y", &l);
	assert_string_equal(l.wall, "Apr  9 10:00:01");
	assert_false(l.has_time);
	clean("2025-04-29T10:00:01.123456+02:00 host kernel: DMAR: z", &l);
	assert_string_equal(l.wall, "2025-04-29T10:00:01.123456+02:00");
	assert_string_equal(l.msg, "DMAR: z");
	clean("[  189.706380] host kernel: DMAR: m", &l);	/* short-monotonic */
	assert_string_equal(l.msg, "DMAR: m");
	assert_int_equal(l.time_us, 189706380);
	clean("[Tue Apr 29 10:00:01 2025] DMAR: t", &l);
	assert_string_equal(l.wall, "Tue Apr 29 10:00:01 2025");
	assert_string_equal(l.msg, "DMAR: t");
	clean("<3>[    1.200000][  T803] DMAR: r", &l);
	assert_int_equal(l.prio, 3);
	assert_int_equal(l.time_us, 1200000);
	assert_string_equal(l.msg, "DMAR: r");
	clean("kern  :err   : [    2.5] DMAR: x", &l);
	assert_int_equal(l.prio, 3);
	assert_string_equal(l.msg, "DMAR: x");
	clean("[  +0.000108] iommu ivhd0: d", &l);
	assert_false(l.has_time);
	assert_string_equal(l.msg, "iommu ivhd0: d");
	clean(">> > \t  `DMAR: q`", &l);
	assert_string_equal(l.msg, "DMAR: q");
	clean("3,1234,84211003,-,caller=T1;DMAR: \\x5c k", &l);
	assert_int_equal(l.seq, 1234);
	assert_string_equal(l.msg, "DMAR: \\ k");
	clean("flags=3D0x0080]", &l);
	assert_string_equal(l.msg, "flags=0x0080]");
	/* a console's lines glued: the second left in rest */
	assert_true(iommu_log_clean("[ 1.0] a b[ 1.1] c", 18, &l, &rest, &rest_len));
	assert_string_equal(l.msg, "a b");
	assert_int_equal(rest_len, 8);
	assert_memory_equal(rest, "[ 1.1] c", 8);
	/* refused: kmsg's KEY=value, a NUL, a message over the kernel's */
	assert_false(iommu_log_clean(" DEVICE=+pci:0000:00:03.0", 25, &l, NULL, NULL));
	assert_false(iommu_log_clean("a\0b", 3, &l, NULL, NULL));
}

/* Every prefix at once, on a fault: still that fault. */
static void clean_then_decode(void **state)
{
	struct got g;

	(void)state;
	paste("> > Apr 29 10:00:01 host kernel: [  189.706380] DMAR: [DMA Read NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x06] PTE Read access is not set\r", &g);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.f[0].reason, "PTE Read access is not set");
	assert_int_equal(g.f[0].time_us, 189706380);
	assert_string_equal(g.f[0].wall, "Apr 29 10:00:01");
	/* two faults glued on one console line */
	paste("[ 1.0] DMAR: [DMA Read NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x06] PTE Read access is not set[ 1.1] DMAR: [DMA Write NO_PASID] Request device [00:04.0] fault addr 0x6003000 [fault reason 0x05] PTE Write access is not set", &g);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.f[1].device, "0000:00:04.0");
	assert_int_equal(g.f[1].time_us, 1100000);
	/* a kmsg record of two lines (\x0a) */
	paste("3,7,5000,-;DMAR:[DMA Write] Request device [00:02.0] fault addr 1000 \\x0aDMAR:[fault reason 05] PTE Write access is not set", &g);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.f[0].code, 5);
	assert_int_equal(g.f[0].time_us, 5000);
}

/* ---- never silent ------------------------------------------------------- */

static void undecoded_said(void **state)
{
	struct got g;

	(void)state;
	/* a driver no row reads */
	paste("omap-iommu 4a066000.mmu: iommu fault: da 0x20000000 flags 0x0", &g);
	assert_int_equal(g.n, 0);
	assert_int_equal(g.undecoded, 1);
	assert_string_equal(g.bad.iommu, "unknown");
	assert_null(g.bad.format);
	/* a known driver, its tag, a field it cannot read (redacted) */
	paste("\tDMAR: [DMA Read] Request device [06:00.0] fault addr ffxxxxxx [fault reason 06] PTE Read access is not set", &g);
	assert_int_equal(g.undecoded, 1);
	assert_string_equal(g.bad.iommu, "vt-d");
	/* an SMMUv3 event cut short at the input's end */
	paste("arm-smmu-v3 a.smmu: event 0x10 received:\narm-smmu-v3 a.smmu: \t0x0000001000000010", &g);
	assert_int_equal(g.n, 0);
	assert_int_equal(g.undecoded, 1);
	/* 3.x's first line without its reason */
	paste("DMAR:[DMA Read] Request device [00:02.0] fault addr 1000 ", &g);
	assert_int_equal(g.undecoded, 1);
	/* no fault: "fault" inside a word (every boot log has this line) */
	paste("[    1.820752] iommu: Default domain type: Translated \niommu: DMA domain TLB invalidation policy: lazy mode", &g);
	assert_int_equal(g.n + g.undecoded, 0);
	/* no fault: the IOMMU's words outside a message's prefix */
	paste("Kernel command line: console=ttyS0 intel_iommu=on ptwalk_only=iommu_fault\nptwalk-test: iommu_fault_use_after_unmap: begin", &g);
	assert_int_equal(g.n + g.undecoded, 0);
	/* Tegra's memory controller names its SMMU's fault in its words */
	paste("tegra-mc 70019000.memory-controller: display0a: read @0x00000000f0000000: EMEM address decode error (SMMU translation error [--S])", &g);
	assert_int_equal(g.n, 1);	/* parse/fault/tegra_mc.c's */
	assert_string_equal(g.f[0].iommu, "tegra-smmu");
	/* its second half, wrapped: the words alone */
	paste("EMEM address decode error (SMMU translation error [--S])", &g);
	assert_int_equal(g.undecoded, 1);
	/* no fault: a status line, ratelimit, other drivers' lines */
	paste("DMAR: DRHD: handling fault status reg 2\ndmar_fault: 12 callbacks suppressed\namdgpu 0000:03:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:3 pasid:32772)\nAMD-Vi: IOMMU event log overflow", &g);
	assert_int_equal(g.n + g.undecoded, 0);
	assert_int_equal(g.known, 1);
	/* a wrapped line whose end never comes: undecoded, not lost */
	paste("DMAR: [DMA Read NO_PASID] Request device\nsomething else entirely\nand more\nand more", &g);
	assert_int_equal(g.undecoded, 1);
}

/* ---- the corpus ----------------------------------------------------------- */

/* "# expect: faults=N undecoded=M" against what the block gave. */
static void check_block(const char *file, const char *source, int want_n,
			int want_u, struct iommu_fault_decoder *d, struct got *g)
{
	iommu_fault_finish(d, collect, g);
	g->undecoded += iommu_fault_decoder_pending(d, NULL);
	if ((int)g->n != want_n || (int)g->undecoded != want_u ||
	    g->other_drivers)
		fail_msg("%s: %s: %zu faults (%zu of another driver), %zu undecoded; expected %d, %d",
			 file, source, g->n, g->other_drivers, g->undecoded,
			 want_n, want_u);
}

static void corpus_file(const char *name, const char *driver)
{
	char path[512], *line = NULL, source[160] = "";
	const char *slash = strrchr(__FILE__, '/');
	static struct iommu_fault_decoder d;
	struct got g;
	int want_n = -1, want_u = -1, blocks = 0;
	size_t size = 0;
	ssize_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%.*sdata/fault_lines/%s",
		 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__, name);
	f = fopen(path, "r");
	assert_non_null(f);
	memset(&g, 0, sizeof(g));
	while ((len = getline(&line, &size, f)) >= 0) {
		if (!strncmp(line, "# source:", 9)) {
			if (blocks++)
				check_block(name, source, want_n, want_u, &d, &g);
			snprintf(source, sizeof(source), "%.*s",
				 (int)strcspn(line + 10, "\n"), line + 10);
			iommu_fault_decoder_init(&d);
			memset(&g, 0, sizeof(g));
			g.driver = driver;
			want_n = want_u = -1;
			continue;
		}
		if (sscanf(line, "# expect: faults=%d undecoded=%d", &want_n,
			   &want_u) == 2 || !strncmp(line, "# kernel:", 9) ||
		    !strncmp(line, "# era:", 6))
			continue;
		iommu_fault_feed(&d, line, (size_t)len, collect, &g);
	}
	if (blocks)
		check_block(name, source, want_n, want_u, &d, &g);
	free(line);
	fclose(f);
	assert_true(blocks > 0);
}

/* A whole boot's log: its faults, and no line of the boot undecoded. */
static void whole_boot(void)
{
	char path[512], *line = NULL;
	const char *slash = strrchr(__FILE__, '/');
	static struct iommu_fault_decoder d;
	struct got g;
	size_t size = 0;
	ssize_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%.*sdata/fault_lines/boot-vtd-debian6.1-qemu7.2.dmesg",
		 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__);
	f = fopen(path, "r");
	assert_non_null(f);
	memset(&g, 0, sizeof(g));
	iommu_fault_decoder_init(&d);
	while ((len = getline(&line, &size, f)) >= 0)
		iommu_fault_feed(&d, line, (size_t)len, collect, &g);
	iommu_fault_finish(&d, collect, &g);
	free(line);
	fclose(f);
	if (g.undecoded)
		fail_msg("a boot log: %s: %s", g.bad.iommu, g.bad.reason);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.f[0].access, IOMMU_ACCESS_WRITE);
	assert_int_equal(g.f[1].access, IOMMU_ACCESS_READ);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 0);
}

static void corpus(void **state)
{
	(void)state;
	whole_boot();
	corpus_file("vtd.txt", "vt-d");
	corpus_file("amd_vi.txt", "amd-vi");
	corpus_file("smmu_v3.txt", "smmu-v3");
	corpus_file("virtio_iommu.txt", "virtio-iommu");
	corpus_file("arm_smmu.txt", "arm-smmu");
	corpus_file("qcom_iommu.txt", "qcom-iommu");
	corpus_file("riscv_iommu.txt", "riscv-iommu");
	corpus_file("mtk_iommu.txt", "mtk-iommu");
	corpus_file("rockchip_iommu.txt", "rockchip-iommu");
	corpus_file("ipmmu_vmsa.txt", "ipmmu-vmsa");
	corpus_file("apple_dart.txt", "apple-dart");
	corpus_file("tegra_smmu.txt", "tegra-smmu");
	corpus_file("exynos_iommu.txt", "exynos-sysmmu");
	corpus_file("sun50i_iommu.txt", "sun50i-iommu");
}

/*
 * Every row of the table a driver: a name of its own, the file its
 * printk()s are in, a decoder, state that fits the decoder's, state
 * where pending() counts events; no more rows than the decoder holds.
 */
static void table_rows(void **state)
{
	(void)state;
	assert_true(fault_drivers_n <= IOMMU_DRIVERS_MAX);
	for (size_t i = 0; i < fault_drivers_n; i++) {
		const struct fault_driver *d = fault_drivers[i];

		assert_non_null(d->name);
		assert_true(d->name[0] && strcmp(d->name, "unknown"));
		assert_non_null(d->source);
		assert_non_null(strstr(d->source, "drivers/"));
		assert_non_null(d->decode);
		assert_true(d->state_size <= IOMMU_DRIVER_STATE_MAX);
		/* events kept need state; state may only keep the last
		 * fault for the lines that complete it (rockchip-iommu) */
		assert_true(!d->pending || d->state_size);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(fault_drivers[k]->name, d->name);
	}
}

UNIT_MAIN("fault_lines", UT(table_rows),
	  UT(vtd_eras), UT(amd_forms), UT(smmu_virtio_forms),
	  UT(clean_prefixes), UT(clean_then_decode), UT(undecoded_said),
	  UT(corpus))
