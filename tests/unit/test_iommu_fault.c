// SPDX-License-Identifier: GPL-2.0
/*
 * parse/iommu_fault.c: the kernel's fault formats expanded with realistic
 * values, one test per format and kernel (the format strings are quoted
 * in iommu_fault.c), real lines from tests/unit/data/iommu_faults, lines
 * that must not parse, the SMMUv3 decoder and the collapse of repeats.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "parse/iommu_fault.h"

static enum iommu_line one(const char *line, struct iommu_fault *f)
{
	return iommu_fault_parse_line(line, strlen(line), f);
}

static enum iommu_line feed(struct iommu_fault_decoder *d, const char *line,
			    struct iommu_fault *f)
{
	return iommu_fault_decode(d, line, strlen(line), f);
}

static void assert_fault(const char *line, struct iommu_fault *f)
{
	assert_int_equal(one(line, f), IOMMU_LINE_FAULT);
}

/* ---- VT-d ------------------------------------------------------------ */

/* The real line of KERNEL-NOTES (Debian 6.1, QEMU 7.2), as kmsg gives it. */
static void vtd_6_1_write_no_pasid_kmsg(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("3,1234,84211003,-;DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set", &f);
	assert_string_equal(f.iommu, "vt-d");
	assert_string_equal(f.device, "0000:00:03.0");
	assert_true(f.has_iova);
	assert_int_equal(f.iova, 0x5003000);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
	assert_string_equal(f.reason, "PTE Write access is not set");
	assert_int_equal(f.code, 5);
	assert_int_equal(f.cls, IOMMU_CLASS_PAGE);
	assert_false(f.has_pasid);
	assert_true(f.has_time && f.has_seq);
	assert_int_equal(f.time_us, 84211003);
	assert_int_equal(f.seq, 1234);
	assert_int_equal(f.prio, 3);
}

static void vtd_6_1_read_dmesg(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("[   84.211003] DMAR: [DMA Read NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x06] PTE Read access is not set", &f);
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.code, 6);
	assert_true(f.has_time);
	assert_int_equal(f.time_us, 84211003);
	assert_false(f.has_seq);
	assert_int_equal(f.prio, -1);
}

/* 6.1 and 6.12: "[%s PASID 0x%x]", scalable mode's reasons. */
static void vtd_6_12_pasid_scalable(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("DMAR: [DMA Read PASID 0x2] Request device [3a:00.1] fault addr 0x7f0012345000 [fault reason 0x71] SM: Present bit in first-level paging entry is clear", &f);
	assert_true(f.has_pasid);
	assert_int_equal(f.pasid, 2);
	assert_string_equal(f.device, "0000:3a:00.1");
	assert_int_equal(f.iova, 0x7f0012345000);
	assert_int_equal(f.cls, IOMMU_CLASS_UNMAPPED);
	assert_string_equal(f.reason, "SM: Present bit in first-level paging entry is clear");
}

/* 5.10: "[%s] ... PASID %x fault addr %llx [fault reason %02d] %s". */
static void vtd_5_10_no_pasid(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("DMAR: [DMA Read] Request device [00:03.0] PASID ffffffff fault addr 5003000 [fault reason 06] PTE Read access is not set", &f);
	assert_false(f.has_pasid);
	assert_int_equal(f.iova, 0x5003000);
	assert_int_equal(f.code, 6);
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_string_equal(f.device, "0000:00:03.0");
}

/* 5.10's reason is decimal: 38 is 0x26. */
static void vtd_5_10_pasid_decimal_reason(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("DMAR: [DMA Write] Request device [05:00.0] PASID 1 fault addr fffff000 [fault reason 04] Access beyond MGAW", &f);
	assert_true(f.has_pasid);
	assert_int_equal(f.pasid, 1);
	assert_int_equal(f.cls, IOMMU_CLASS_ADDRESS);
	assert_fault("DMAR: [INTR-REMAP] Request device [f0:1f.0] fault index 1f [fault reason 38] Blocked an interrupt request due to source-id verification failure", &f);
	assert_int_equal(f.code, 38);
	assert_int_equal(f.cls, IOMMU_CLASS_INTERRUPT);
	assert_false(f.has_iova);
	assert_string_equal(f.device, "0000:f0:1f.0");
}

static void vtd_6_12_intr_remap(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("DMAR: [INTR-REMAP] Request device [00:1f.0] fault index 0x1f [fault reason 0x25] Blocked a compatibility format interrupt request", &f);
	assert_int_equal(f.code, 0x25);
	assert_int_equal(f.cls, IOMMU_CLASS_INTERRUPT);
	assert_int_equal(f.access, IOMMU_ACCESS_UNKNOWN);
}

/* The 7.2 tree prints the PCI segment: "[%04x:%02x:%02x.%d]". */
static void vtd_7_2_segment(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("6,88,1000,-;DMAR: [DMA Write NO_PASID] Request device [0001:00:03.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set", &f);
	assert_string_equal(f.device, "0001:00:03.0");
	assert_int_equal(f.prio, 6);	/* pr_info() there */
	assert_fault("DMAR: [INTR-REMAP] Request device [0000:00:1f.0] fault index 0x1f [fault reason 0x25] Blocked a compatibility format interrupt request", &f);
	assert_string_equal(f.device, "0000:00:1f.0");
}

/*
 * A reason longer than the struct keeps is cut, then trimmed: cut at a
 * space it would not read the same printed again (fuzz_iommu_fault).
 */
static void vtd_reason_cut_then_trimmed(void **state)
{
	char line[512], again[512];
	struct iommu_fault f, g;

	(void)state;
	snprintf(line, sizeof(line), "DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] %0*d tail", IOMMU_FAULT_REASON_MAX - 2, 0);
	assert_fault(line, &f);
	assert_int_equal(strlen(f.reason), IOMMU_FAULT_REASON_MAX - 2);
	snprintf(again, sizeof(again), "DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] %s", f.reason);
	assert_fault(again, &g);
	assert_string_equal(g.reason, f.reason);
	/* CRs inside the line, before its end: trimmed too */
	assert_fault("DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x1 [fault reason 0x05] PTE\r\r \r\n", &f);
	assert_string_equal(f.reason, "PTE");
}

static void vtd_other_lines(void **state)
{
	static const char *const lines[] = {
		"DMAR: DRHD: handling fault status reg 2",
		"DMAR: [Firmware Bug]: No firmware reserved region can cover this RMRR [0x00000000bd000000-0x00000000bf7fffff], contact BIOS vendor for fixes",
		"DMAR: Dump dmar0 table entries for IOVA 0x5003000",
		"DMAR: pte level: 1, pte value: 0x0000000000000000",
		"DMAR: Intel(R) Virtualization Technology for Directed I/O",
		"DMAR-IR: Enabled IRQ remapping in x2apic mode",
		"[DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set",
	};
	struct iommu_fault f;

	(void)state;
	assert_int_equal(one(lines[0], &f), IOMMU_LINE_KNOWN);
	for (size_t i = 1; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(one(lines[i], &f), IOMMU_LINE_OTHER);
}

static void vtd_malformed(void **state)
{
	static const char *const lines[] = {
		/* truncated */
		"DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault rea",
		"DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] ",
		"DMAR: [DMA Write NO_PASID] Request device [00:03",
		"DMAR: [DMA Read",
		/* a bracket missing */
		"DMAR: [DMA Write NO_PASID Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set",
		"DMAR: [DMA Write NO_PASID] Request device 00:03.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set",
		"DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05 PTE Write access is not set",
		/* huge numbers */
		"DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x15003000000000000 [fault reason 0x05] PTE Write access is not set",
		"DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x105] PTE Write access is not set",
		"DMAR: [DMA Read PASID 0x100000000] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x06] PTE Read access is not set",
		"DMAR: [DMA Write NO_PASID] Request device [100:03.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set",
		/* no such slot or function */
		"DMAR: [DMA Write NO_PASID] Request device [00:20.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set",
		"DMAR: [DMA Write NO_PASID] Request device [00:03.8] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set",
		"DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr [fault reason 0x05] PTE Write access is not set",
		"DMAR: [DMA Writer NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set",
	};
	struct iommu_fault f;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(one(lines[i], &f), IOMMU_LINE_MALFORMED);
}

/* ---- AMD-Vi ---------------------------------------------------------- */

/* 5.10's pr_err() for a device the driver does not know: no domain. */
static void amd_5_10_io_page_fault(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("AMD-Vi: Event logged [IO_PAGE_FAULT device=00:03.0 domain=0x0001 address=0x5003000 flags=0x0020]", &f);
	assert_string_equal(f.iommu, "amd-vi");
	assert_string_equal(f.device, "0000:00:03.0");
	assert_true(f.has_domain_id);
	assert_int_equal(f.domain_id, 1);
	assert_int_equal(f.iova, 0x5003000);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
	assert_int_equal(f.cls, IOMMU_CLASS_UNMAPPED);
	assert_string_equal(f.reason, "IO_PAGE_FAULT");
	assert_int_equal(f.code, 2);
	assert_true(f.has_flags);
	assert_int_equal(f.flags, 0x20);
}

/* 6.1+: "device=%04x:%02x:%02x.%x" with pr_err_ratelimited(). */
static void amd_6_1_io_page_fault_segment(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("[  311.123456] AMD-Vi: Event logged [IO_PAGE_FAULT device=0001:02:00.0 domain=0x000e address=0xfffff000 flags=0x0000]", &f);
	assert_string_equal(f.device, "0001:02:00.0");
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.time_us, 311123456);
}

/* pci_err() (5.10 to 7.x): the device is dev_printk's prefix. */
static void amd_6_12_pci_err_prefix(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("3,700,5000000,-;vfio-pci 0000:00:03.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0001 address=0x5003000 flags=0x0050]", &f);
	assert_string_equal(f.device, "0000:00:03.0");
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.cls, IOMMU_CLASS_PERMISSION);	/* PR|PE */
	assert_fault("pci 0000:00:04.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0000 address=0x0 flags=0x0020]", &f);
	assert_string_equal(f.device, "0000:00:04.0");
	assert_int_equal(f.iova, 0);
	assert_true(f.has_iova);
}

static void amd_flags_interrupt_and_pasid(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("AMD-Vi: Event logged [IO_PAGE_FAULT device=0000:00:14.0 domain=0x0000 address=0xfee00000 flags=0x0008]", &f);
	assert_int_equal(f.cls, IOMMU_CLASS_INTERRUPT);
	assert_int_equal(f.access, IOMMU_ACCESS_UNKNOWN);
	assert_fault("AMD-Vi: Event logged [IO_PAGE_FAULT device=0000:c1:00.0 domain=0x0003 address=0x7f0000001000 flags=0x0021]", &f);
	assert_true(f.has_pasid);	/* GN: domain= is the PASID */
	assert_int_equal(f.pasid, 3);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
}

/* iommu_print_event()'s other events: 5.10's and 6.1+'s device forms. */
static void amd_other_events(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("iommu ivhd0: AMD-Vi: Event logged [ILLEGAL_DEV_TABLE_ENTRY device=00:03.0 pasid=0x00000 address=0xfffffffdf8000000 flags=0x0a00]", &f);
	assert_int_equal(f.cls, IOMMU_CLASS_CONTEXT);
	assert_string_equal(f.device, "0000:00:03.0");
	assert_true(f.has_pasid);
	assert_fault("pci 0000:00:00.2: AMD-Vi: Event logged [ILLEGAL_COMMAND_ERROR address=0x1000c4000]", &f);
	assert_int_equal(f.cls, IOMMU_CLASS_HARDWARE);
	assert_string_equal(f.device, "");	/* the IOMMU's own, not a device's */
	assert_string_equal(f.iommu_dev, "0000:00:00.2");
	assert_false(f.has_iova);
	assert_fault("iommu ivhd0: AMD-Vi: Event logged [DEV_TAB_HARDWARE_ERROR device=0000:00:03.0 address=0x1000c4000 flags=0x0000]", &f);
	assert_false(f.has_iova);
	assert_fault("iommu ivhd0: AMD-Vi: Event logged [IOTLB_INV_TIMEOUT device=0000:41:00.0 address=0x7ff000000]", &f);
	assert_string_equal(f.device, "0000:41:00.0");
	assert_fault("iommu ivhd0: AMD-Vi: Event logged [INVALID_PPR_REQUEST device=0000:41:00.0 pasid=0x00001 address=0x7f0000000000 flags=0x0000 tag=0x001]", &f);
	assert_int_equal(f.pasid, 1);
	assert_true(f.has_iova);
}

/* 6.12's RMP events: "key=value," and the pci_err() prefix. */
static void amd_6_12_rmp(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("pci 0000:00:03.0: AMD-Vi: Event logged [RMP_PAGE_FAULT vmg_tag=0x0000, gpa=0x5003000, flags_rmp=0x0001, flags=0x0020]", &f);
	assert_string_equal(f.device, "0000:00:03.0");
	assert_int_equal(f.iova, 0x5003000);
	assert_int_equal(f.cls, IOMMU_CLASS_PERMISSION);
	assert_fault("AMD-Vi: Event logged [RMP_HW_ERROR device=0000:00:03.0, vmg_tag=0x0000, spa=0x12345000, flags=0x0000]", &f);
	assert_int_equal(f.cls, IOMMU_CLASS_HARDWARE);
	assert_false(f.has_iova);
}

static void amd_unknown_and_unattached(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("iommu ivhd0: AMD-Vi: Event logged [UNKNOWN event[0]=0x00000000 event[1]=0xf0000000 event[2]=0x00000000 event[3]=0x00000000", &f);
	assert_string_equal(f.reason, "UNKNOWN");
	assert_int_equal(f.cls, IOMMU_CLASS_OTHER);
}

/*
 * 6.x's pair for a device without a domain, built from the format
 * strings: "Event logged [Device not attached to domain properly]" then
 * "  device=%04x:%02x:%02x.%x domain=0x%04x"; a line between them of
 * another driver leaves the pair whole.
 */
static void amd_6_x_not_attached_pair(void **state)
{
	struct iommu_fault_decoder d;
	struct iommu_fault f;

	(void)state;
	iommu_fault_decoder_init(&d);
	assert_int_equal(feed(&d, "[   12.5] AMD-Vi: Event logged [Device not attached to domain properly]", &f), IOMMU_LINE_PART);
	assert_int_equal(feed(&d, "[   12.5] usb 1-1: new high-speed USB device", &f), IOMMU_LINE_OTHER);
	assert_int_equal(feed(&d, "[   12.5] AMD-Vi:   device=0000:03:00.0 domain=0x0007", &f), IOMMU_LINE_FAULT);
	assert_string_equal(f.iommu, "amd-vi");
	assert_string_equal(f.format, "6.x, two records");
	assert_string_equal(f.reason, "Device not attached to domain properly");
	assert_int_equal(f.cls, IOMMU_CLASS_CONTEXT);
	assert_string_equal(f.device, "0000:03:00.0");
	assert_true(f.has_domain_id);
	assert_int_equal(f.domain_id, 7);
	assert_int_equal(f.time_us, 12500000);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 0);
	/* the first alone: an event cut short */
	assert_int_equal(feed(&d, "AMD-Vi: Event logged [Device not attached to domain properly]", &f), IOMMU_LINE_PART);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 1);
}

static void amd_malformed_and_other(void **state)
{
	static const char *const bad[] = {
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=00:03.0 domain=0x0001 address=0x5003000 flags=0x0020",
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=00:03.0 domain=0x0001 address=5003000 flags=0x0020]",
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=00:03 domain=0x0001 address=0x5003000 flags=0x0020]",
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=00:03.0 domain=0x0001 address=0x150030000000000000 flags=0x0020]",
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=00:03.0 domain0x0001]",
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=00:03.0] trailing",
	};
	static const char *const other[] = {
		"AMD-Vi: Interrupt remapping enabled",
		"pci 0000:00:00.2: AMD-Vi: Found IOMMU cap 0x40",
	};
	struct iommu_fault f;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(one(bad[i], &f), IOMMU_LINE_MALFORMED);
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		assert_int_equal(one(other[i], &f), IOMMU_LINE_OTHER);
	/* no driver's, but an IOMMU's event: said so, never "no fault" */
	assert_int_equal(one("AMD-Vi: Event logged but not in brackets", &f), IOMMU_LINE_MALFORMED);
	assert_string_equal(f.iommu, "unknown");
}

/* ---- virtio-iommu (5.10, 6.1, 6.12: one format) ---------------------- */

static void virtio_6_1_page_fault(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("3,42,9000000,-;virtio_iommu virtio0: page fault from EP 8 at 0x5003000 [W]", &f);
	assert_string_equal(f.iommu, "virtio-iommu");
	assert_string_equal(f.iommu_dev, "virtio0");
	assert_string_equal(f.device, "");
	assert_true(f.has_sid);
	assert_int_equal(f.sid, 8);
	assert_int_equal(f.iova, 0x5003000);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
	assert_int_equal(f.cls, IOMMU_CLASS_UNMAPPED);
	assert_string_equal(f.reason, "page fault");
}

static void virtio_5_10_forms(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_fault("virtio_iommu virtio1: page fault from EP 16 at 0 [R]", &f);
	assert_int_equal(f.iova, 0);
	assert_true(f.has_iova);
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_fault("virtio_iommu virtio1: page fault from EP 16 at 0x1000 [RW]", &f);
	assert_int_equal(f.access, IOMMU_ACCESS_READ_WRITE);
	assert_fault("virtio_iommu virtio1: unknown fault from EP 16 at 0x1000 []", &f);
	assert_int_equal(f.access, IOMMU_ACCESS_UNKNOWN);
	assert_int_equal(f.cls, IOMMU_CLASS_OTHER);
	assert_fault("virtio_iommu virtio1: domain fault from EP 4294967295", &f);
	assert_int_equal(f.cls, IOMMU_CLASS_CONTEXT);
	assert_false(f.has_iova);
	assert_int_equal(f.sid, 4294967295u);
	assert_fault("virtio_iommu virtio1: page fault from EP 8 PASID 3 at 0x2000 [W]", &f);
	assert_int_equal(f.pasid, 3);
}

static void virtio_malformed_and_other(void **state)
{
	static const char *const bad[] = {
		"virtio_iommu virtio0: page fault from EP x at 0x5003000 [W]",
		"virtio_iommu virtio0: page fault from EP 8 at 0x5003000 [Q]",
		"virtio_iommu virtio0: page fault from EP 8 at 0x5003000 [W",
		"virtio_iommu virtio0: page fault from EP 4294967296 at 0x5003000 [W]",
		"virtio_iommu virtio0: page fault from EP 8 at",
	};
	struct iommu_fault f;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(one(bad[i], &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(one("virtio_iommu virtio0: input address: 64 bits", &f), IOMMU_LINE_OTHER);
	/* cut short: names an IOMMU and a fault, said to be unreadable */
	assert_int_equal(one("virtio_iommu virtio0: page fault", &f), IOMMU_LINE_MALFORMED);
	assert_string_equal(f.iommu, "unknown");
}

/* ---- SMMUv3 ----------------------------------------------------------- */

static const char *const smmu_raw_6_1[] = {
	"6,10,2000000,-;arm-smmu-v3 9050000.smmuv3: event 0x10 received:",
	" SUBSYSTEM=platform",
	"6,11,2000010,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000001000000010",
	"6,12,2000020,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000000000000",
	"6,13,2000030,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000002003008",
	"6,14,2000040,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000000000000",
};

/* 5.10 to 6.14: dev_info() "event 0x%02x received:", four "\t0x%016llx". */
static void smmu_6_1_raw_kmsg(void **state)
{
	struct iommu_fault_decoder d;
	struct iommu_fault f;

	(void)state;
	iommu_fault_decoder_init(&d);
	for (size_t i = 0; i < 5; i++)
		assert_in_set(feed(&d, smmu_raw_6_1[i], &f),
			      ((uintmax_t[]){ IOMMU_LINE_PART, IOMMU_LINE_OTHER }), 2);
	assert_int_equal(feed(&d, smmu_raw_6_1[5], &f), IOMMU_LINE_FAULT);
	assert_string_equal(f.iommu, "smmu-v3");
	assert_string_equal(f.iommu_dev, "9050000.smmuv3");
	assert_string_equal(f.device, "");
	assert_true(f.has_sid);
	assert_int_equal(f.sid, 0x10);
	assert_int_equal(f.code, 0x10);
	assert_string_equal(f.reason, "F_TRANSLATION");
	assert_int_equal(f.cls, IOMMU_CLASS_UNMAPPED);
	assert_int_equal(f.iova, 0x2003008);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);	/* RnW clear */
	assert_false(f.has_pasid);
	assert_int_equal(f.time_us, 2000000);	/* the header's */
	assert_int_equal(f.seq, 10);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 0);
}

/* dmesg's form, the tab as printed; SSV set; a read. */
static void smmu_5_10_raw_dmesg(void **state)
{
	static const char *const lines[] = {
		"[  100.000001] arm-smmu-v3 arm-smmu-v3.0.auto: event 0x13 received:",
		"[  100.000002] arm-smmu-v3 arm-smmu-v3.0.auto: \t0x0000000800005813",
		"[  100.000003] arm-smmu-v3 arm-smmu-v3.0.auto: \t0x0000000800000000",
		"[  100.000004] arm-smmu-v3 arm-smmu-v3.0.auto: \t0x0000ffff80001000",
		"[  100.000005] arm-smmu-v3 arm-smmu-v3.0.auto: \t0x0000000000000000",
	};
	struct iommu_fault_decoder d;
	struct iommu_fault f;

	(void)state;
	iommu_fault_decoder_init(&d);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(feed(&d, lines[i], &f), IOMMU_LINE_PART);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 1);
	assert_int_equal(feed(&d, lines[4], &f), IOMMU_LINE_FAULT);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 0);
	assert_string_equal(f.iommu_dev, "arm-smmu-v3.0.auto");
	assert_int_equal(f.sid, 8);
	assert_true(f.has_pasid);
	assert_int_equal(f.pasid, 5);
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.cls, IOMMU_CLASS_PERMISSION);
	assert_int_equal(f.iova, 0xffff80001000);
	assert_int_equal(f.time_us, 100000001);
}

/* A configuration event: no address, no access. */
static void smmu_6_12_bad_ste(void **state)
{
	static const char *const lines[] = {
		"arm-smmu-v3 9050000.smmuv3: event 0x04 received:",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000001800000004",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000000000",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000000000",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000000000",
	};
	struct iommu_fault_decoder d;
	struct iommu_fault f;
	enum iommu_line r = IOMMU_LINE_OTHER;

	(void)state;
	iommu_fault_decoder_init(&d);
	for (size_t i = 0; i < 5; i++)
		r = feed(&d, lines[i], &f);
	assert_int_equal(r, IOMMU_LINE_FAULT);
	assert_string_equal(f.reason, "C_BAD_STE");
	assert_int_equal(f.cls, IOMMU_CLASS_CONTEXT);
	assert_int_equal(f.sid, 0x18);
	assert_false(f.has_iova);
	assert_int_equal(f.access, IOMMU_ACCESS_UNKNOWN);
}

/*
 * 6.15 to 7.x: arm_smmu_dump_event() prints the raw words at KERN_ERR,
 * then the decoded event, which names the client device (DETAIL).
 */
static void smmu_7_2_raw_then_decoded(void **state)
{
	static const char *const lines[] = {
		"3,20,3000000,-;arm-smmu-v3 9050000.smmuv3: event 0x10 received:",
		"3,21,3000001,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000001000000010",
		"3,22,3000002,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000800000000",
		"3,23,3000003,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000002003008",
		"3,24,3000004,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000000000000",
		"3,25,3000005,-;arm-smmu-v3 9050000.smmuv3: event: F_TRANSLATION client: 0000:00:02.0 sid: 0x10 ssid: 0 iova: 0x2003008 ipa: 0",
		"3,26,3000006,-;arm-smmu-v3 9050000.smmuv3: unpriv data read s1 \"Input address caused fault\" stag: 0",
	};
	struct iommu_fault_decoder d;
	struct iommu_fault f;

	(void)state;
	iommu_fault_decoder_init(&d);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(feed(&d, lines[i], &f), IOMMU_LINE_PART);
	assert_int_equal(feed(&d, lines[4], &f), IOMMU_LINE_FAULT);
	assert_string_equal(f.device, "");
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(feed(&d, lines[5], &f), IOMMU_LINE_DETAIL);
	assert_string_equal(f.device, "0000:00:02.0");
	assert_int_equal(f.access, IOMMU_ACCESS_READ);
	assert_int_equal(f.iova, 0x2003008);
	assert_int_equal(f.seq, 20);	/* still the event's first line */
	assert_int_equal(feed(&d, lines[6], &f), IOMMU_LINE_KNOWN);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 0);
}

/* The decoded lines alone (pasted, or the raw ones lost). */
static void smmu_7_2_decoded_alone(void **state)
{
	struct iommu_fault_decoder d;
	struct iommu_fault f;

	(void)state;
	iommu_fault_decoder_init(&d);
	assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: event: F_PERMISSION client: 0000:00:02.0 sid: 0x10 ssid: 0x3 iova: 0x2003008 ipa: 0x40000000", &f), IOMMU_LINE_FAULT);
	assert_int_equal(f.cls, IOMMU_CLASS_PERMISSION);
	assert_int_equal(f.access, IOMMU_ACCESS_UNKNOWN);
	assert_int_equal(f.pasid, 3);
	assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: priv inst write s2 \"Input address caused fault\" stall stag: 0x12", &f), IOMMU_LINE_DETAIL);
	assert_int_equal(f.access, IOMMU_ACCESS_WRITE);
	assert_string_equal(f.device, "0000:00:02.0");
	/* the other decoded forms */
	assert_fault("arm-smmu-v3 9050000.smmuv3: event: F_CD_FETCH client: 0000:00:02.0 sid: 0x10 ssid: 0 fetch_addr: 0x4000", &f);
	assert_int_equal(f.cls, IOMMU_CLASS_CONTEXT);
	assert_false(f.has_iova);
	assert_fault("arm-smmu-v3 9050000.smmuv3: event: C_BAD_STE client: (unassigned sid) sid: 0x20 ssid: 0", &f);
	assert_string_equal(f.device, "");
	assert_int_equal(f.sid, 0x20);
	assert_fault("arm-smmu-v3 9050000.smmuv3: event: UNKNOWN client: a000000.dma sid: 0 ssid: 0", &f);
	assert_string_equal(f.device, "a000000.dma");
	assert_int_equal(f.cls, IOMMU_CLASS_OTHER);
}

/* Two SMMUs' events interleaved line by line, and another device's lines. */
static void smmu_two_interleaved(void **state)
{
	static const char *const lines[] = {
		"arm-smmu-v3 9050000.smmuv3: event 0x10 received:",
		"arm-smmu-v3 9060000.smmuv3: event 0x10 received:",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000001000000010",
		"DMAR: DRHD: handling fault status reg 2",
		"arm-smmu-v3 9060000.smmuv3: \t0x0000002000000010",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000000000",
		"arm-smmu-v3 9060000.smmuv3: \t0x0000000800000000",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000001000",
		"nvme nvme0: 8/0/0 default/read/poll queues",
		"arm-smmu-v3 9060000.smmuv3: \t0x0000000000002000",
		"arm-smmu-v3 9060000.smmuv3: \t0x0000000000000000",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000000000",
	};
	struct iommu_fault_decoder d;
	struct iommu_fault f, got[2];
	size_t n = 0;

	(void)state;
	iommu_fault_decoder_init(&d);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (feed(&d, lines[i], &f) == IOMMU_LINE_FAULT)
			got[n++] = f;
	assert_int_equal(n, 2);
	assert_string_equal(got[0].iommu_dev, "9060000.smmuv3");
	assert_int_equal(got[0].sid, 0x20);
	assert_int_equal(got[0].iova, 0x2000);
	assert_int_equal(got[0].access, IOMMU_ACCESS_READ);
	assert_string_equal(got[1].iommu_dev, "9050000.smmuv3");
	assert_int_equal(got[1].sid, 0x10);
	assert_int_equal(got[1].iova, 0x1000);
	assert_int_equal(got[1].access, IOMMU_ACCESS_WRITE);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 0);
}

/* An event cut short by the next: the first is dropped and counted. */
static void smmu_event_cut_short(void **state)
{
	static const char *const lines[] = {
		"arm-smmu-v3 9050000.smmuv3: event 0x10 received:",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000001000000010",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000000000",
		"arm-smmu-v3 9050000.smmuv3: event 0x10 received:",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000001100000010",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000000000",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000005000",
		"arm-smmu-v3 9050000.smmuv3: \t0x0000000000000000",
	};
	struct iommu_fault_decoder d;
	struct iommu_fault f;
	size_t faults = 0;

	(void)state;
	iommu_fault_decoder_init(&d);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (feed(&d, lines[i], &f) == IOMMU_LINE_FAULT)
			faults++;
	assert_int_equal(faults, 1);
	assert_int_equal(f.sid, 0x11);
	assert_int_equal(f.iova, 0x5000);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 1);
	/* a word without its header, then one of another event ID */
	assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: \t0x0000001000000010", &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: event 0x13 received:", &f), IOMMU_LINE_PART);
	for (int i = 0; i < 3; i++)
		assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: \t0x0000001000000010", &f), IOMMU_LINE_PART);
	assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: \t0x0000001000000010", &f), IOMMU_LINE_MALFORMED);
	/* a word too large leaves the event open: the next header cuts it */
	assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: event 0x10 received:", &f), IOMMU_LINE_PART);
	assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: \t0x10000001000000010", &f), IOMMU_LINE_OTHER);
	assert_int_equal(feed(&d, "arm-smmu-v3 9050000.smmuv3: event 0x10 received:", &f), IOMMU_LINE_PART);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 3);	/* two cut, one open */
}

/* More SMMUs than the decoder follows: the least recent one goes. */
static void smmu_evicts_least_recent(void **state)
{
	struct iommu_fault_decoder d;
	struct iommu_fault f;
	char line[128];

	(void)state;
	iommu_fault_decoder_init(&d);
	for (int i = 0; i <= 8; i++) {
		snprintf(line, sizeof(line), "arm-smmu-v3 smmu%d: event 0x10 received:", i);
		assert_int_equal(feed(&d, line, &f), IOMMU_LINE_PART);
	}
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 9);	/* smmu0's event cut, 8 open */
	assert_int_equal(feed(&d, "arm-smmu-v3 smmu0: \t0x10", &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(feed(&d, "arm-smmu-v3 smmu1: \t0x10", &f), IOMMU_LINE_PART);
}

static void smmu_stateless_and_malformed(void **state)
{
	struct iommu_fault f;

	(void)state;
	assert_int_equal(one(smmu_raw_6_1[0], &f), IOMMU_LINE_PART);
	/* a word read alone lost its header */
	assert_int_equal(one(smmu_raw_6_1[2], &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: unpriv data read s1 \"x\" stag: 0", &f), IOMMU_LINE_KNOWN);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: event 0xzz received:", &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: event 0x10 received", &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: event 0x100 received:", &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: event: F_TRANSLATION client: 0000:00:02.0 sid: 0x10", &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: event: F_TRANSLATION client: 0000:00:02.0 sid: 0x10 ssid: 0 iova: 0x10000000000000000 ipa: 0", &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: unpriv data jump s1", &f), IOMMU_LINE_MALFORMED);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: EVTQ overflow detected -- events lost", &f), IOMMU_LINE_OTHER);
	assert_int_equal(one("arm-smmu-v3 9050000.smmuv3: ias 44-bit, oas 44-bit (features 0x00008305)", &f), IOMMU_LINE_OTHER);
	assert_int_equal(one("arm-smmu-v3: event 0x10 received:", &f), IOMMU_LINE_OTHER);
}

/* ---- the line's header ------------------------------------------------ */

static void header_forms(void **state)
{
	struct iommu_log_line l;
	struct iommu_fault f;
	char big[8192];

	(void)state;
	assert_true(iommu_log_split("6,339,5140900,-,caller=T1;hello\n", 32, &l));
	assert_string_equal(l.msg, "hello");
	assert_int_equal(l.prio, 6);
	assert_int_equal(l.time_us, 5140900);
	assert_true(iommu_log_split("<3>[    5.5] x", 14, &l));
	assert_int_equal(l.prio, 3);
	assert_int_equal(l.time_us, 5500000);
	assert_string_equal(l.msg, "x");
	assert_true(iommu_log_split("[1.1234567] y", 13, &l));
	assert_int_equal(l.time_us, 1123456);
	assert_true(iommu_log_split("[Sat Nov 28 04:00:00 2026] z", 28, &l));
	assert_false(l.has_time);
	assert_false(iommu_log_split(" SUBSYSTEM=pci", 14, &l));
	assert_false(iommu_log_split("a\0b", 3, &l));
	assert_false(iommu_log_split("6,1,1,-;a\\x00b", 14, &l));
	memset(big, 'a', sizeof(big));
	assert_false(iommu_log_split(big, sizeof(big), &l));
	assert_false(iommu_log_split(big, IOMMU_LOG_LINE_MAX + 10, &l));
	/* journalctl's prefix: no time, the fault all the same */
	assert_fault("Nov 28 04:00:00 host kernel: DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] PTE Write access is not set", &f);
	assert_false(f.has_time);
	/* kmsg's escapes undone in the reason */
	assert_fault("3,1,1,-;DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x1000 [fault reason 0x05] PTE \\x5c write", &f);
	assert_string_equal(f.reason, "PTE \\ write");
	assert_int_equal(one("", &f), IOMMU_LINE_OTHER);
}

/* ---- fixtures ------------------------------------------------------------- */

/* Every line of tests/unit/data/iommu_faults/NAME through one decoder. */
static size_t decode_file(const char *name, struct iommu_fault *out, size_t cap)
{
	char path[512], *line = NULL;
	const char *slash = strrchr(__FILE__, '/');
	struct iommu_fault_decoder d;
	size_t size = 0, n = 0;
	ssize_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%.*sdata/iommu_faults/%s",
		 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__, name);
	f = fopen(path, "r");
	assert_non_null(f);
	iommu_fault_decoder_init(&d);
	while ((len = getline(&line, &size, f)) >= 0) {
		struct iommu_fault one_fault;
		enum iommu_line r = iommu_fault_decode(&d, line, (size_t)len, &one_fault);

		assert_int_not_equal(r, IOMMU_LINE_MALFORMED);
		if (r == IOMMU_LINE_FAULT && n < cap)
			out[n++] = one_fault;
	}
	free(line);
	fclose(f);
	assert_int_equal(iommu_fault_decoder_pending(&d, NULL), 0);
	return n;
}

static void fixture_vtd_debian_6_1(void **state)
{
	struct iommu_fault f[4];

	(void)state;
	assert_int_equal(decode_file("vtd-debian6.1-qemu7.2.txt", f, 4), 2);
	assert_int_equal(f[0].access, IOMMU_ACCESS_WRITE);
	assert_int_equal(f[1].access, IOMMU_ACCESS_READ);
	for (int i = 0; i < 2; i++) {
		assert_string_equal(f[i].device, "0000:00:03.0");
		assert_int_equal(f[i].iova, 0x5003000);
		assert_int_equal(f[i].cls, IOMMU_CLASS_PAGE);
	}
}

static void fixture_smmuv3_debian_6_1(void **state)
{
	struct iommu_fault f[4];

	(void)state;
	assert_int_equal(decode_file("smmuv3-debian6.1-qemu7.2.kmsg", f, 4), 2);
	assert_int_equal(f[0].access, IOMMU_ACCESS_WRITE);
	assert_int_equal(f[0].iova, 0x2003008);
	assert_int_equal(f[0].time_us, 84211003);
	assert_int_equal(f[1].access, IOMMU_ACCESS_READ);
	assert_int_equal(f[1].iova, 0x2004008);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(f[i].sid, 0x10);
		assert_string_equal(f[i].iommu_dev, "9050000.smmuv3");
		assert_string_equal(f[i].reason, "F_TRANSLATION");
	}
}

/* ---- repeats collapsed ---------------------------------------------------- */

static struct iommu_fault mk(const char *dev, uint64_t iova,
			     enum iommu_access a, uint64_t t)
{
	struct iommu_fault f;

	memset(&f, 0, sizeof(f));
	f.iommu = "vt-d";
	strcpy(f.device, dev);
	f.iova = iova, f.has_iova = true;
	f.access = a;
	f.time_us = t, f.has_time = true;
	return f;
}

static void collapse_by_device_page_access(void **state)
{
	const struct iommu_fault in[] = {
		mk("0000:00:03.0", 0x5003000, IOMMU_ACCESS_WRITE, 100),
		mk("0000:00:03.0", 0x5003ff8, IOMMU_ACCESS_WRITE, 300),
		mk("0000:00:03.0", 0x5003000, IOMMU_ACCESS_READ, 150),
		mk("0000:00:03.0", 0x5004000, IOMMU_ACCESS_WRITE, 160),
		mk("0000:00:04.0", 0x5003000, IOMMU_ACCESS_WRITE, 170),
		mk("0000:00:03.0", 0x5003010, IOMMU_ACCESS_WRITE, 50),
	};
	struct iommu_fault_group g[8];
	size_t dropped;
	size_t n = iommu_fault_collapse(in, 6, 4096, g, 8, &dropped);

	(void)state;
	assert_int_equal(n, 4);
	assert_int_equal(dropped, 0);
	assert_int_equal(g[0].count, 3);
	assert_int_equal(g[0].first.iova, 0x5003000);
	assert_int_equal(g[0].first_us, 50);	/* the earliest, not the first fed */
	assert_int_equal(g[0].last_us, 300);
	assert_int_equal(g[1].count, 1);
	assert_int_equal(g[1].first.access, IOMMU_ACCESS_READ);
	assert_int_equal(g[2].first.iova, 0x5004000);
	assert_string_equal(g[3].first.device, "0000:00:04.0");
	/* page size 0: the exact address */
	assert_int_equal(iommu_fault_collapse(in, 6, 0, g, 8, &dropped), 6);
	/* bounded: what finds no room is counted */
	assert_int_equal(iommu_fault_collapse(in, 6, 4096, g, 2, &dropped), 2);
	assert_int_equal(dropped, 2);
	assert_int_equal(g[0].count, 3);
}

/* Without a device: the SMMU and its StreamID; a time missing is no time. */
static void collapse_by_stream_id(void **state)
{
	struct iommu_fault a = mk("", 0x1000, IOMMU_ACCESS_READ, 0);
	struct iommu_fault b, c;
	struct iommu_fault_group g[4];
	size_t n = 0;

	(void)state;
	a.iommu = "smmu-v3";
	a.has_time = false;
	strcpy(a.iommu_dev, "9050000.smmuv3");
	a.sid = 0x10, a.has_sid = true;
	b = a, b.sid = 0x11;
	c = a, c.has_time = true, c.time_us = 7;
	assert_true(iommu_fault_group_add(g, &n, 4, &a, 4096));
	assert_true(iommu_fault_group_add(g, &n, 4, &b, 4096));
	assert_true(iommu_fault_group_add(g, &n, 4, &c, 4096));
	assert_int_equal(n, 2);
	assert_int_equal(g[0].count, 2);
	assert_true(g[0].first.has_time);
	assert_int_equal(g[0].first_us, 7);
	assert_int_equal(g[0].last_us, 7);
	assert_false(iommu_fault_group_add(g, &n, 2, &(struct iommu_fault){ .iommu = "vt-d" }, 4096));
}

static void names(void **state)
{
	(void)state;
	/* the table's first rows; more drivers come after them */
	assert_true(iommu_fault_drivers() >= 4);
	assert_true(iommu_fault_drivers() <= IOMMU_DRIVERS_MAX);
	assert_string_equal(iommu_fault_driver_name(0), "vt-d");
	assert_string_equal(iommu_fault_driver_name(3), "virtio-iommu");
	assert_null(iommu_fault_driver_name(iommu_fault_drivers()));
	assert_string_equal(iommu_access_name(IOMMU_ACCESS_EXEC), "exec");
	assert_string_equal(iommu_access_name(IOMMU_ACCESS_WRITE), "write");
	assert_string_equal(iommu_class_name(IOMMU_CLASS_UNMAPPED), "unmapped");
	assert_string_equal(iommu_class_name((enum iommu_fault_class)99), "?");
}

UNIT_MAIN("iommu_fault",
	  UT(vtd_6_1_write_no_pasid_kmsg), UT(vtd_6_1_read_dmesg),
	  UT(vtd_6_12_pasid_scalable), UT(vtd_5_10_no_pasid),
	  UT(vtd_5_10_pasid_decimal_reason), UT(vtd_6_12_intr_remap),
	  UT(vtd_7_2_segment), UT(vtd_reason_cut_then_trimmed),
	  UT(vtd_other_lines), UT(vtd_malformed),
	  UT(amd_5_10_io_page_fault), UT(amd_6_1_io_page_fault_segment),
	  UT(amd_6_12_pci_err_prefix), UT(amd_flags_interrupt_and_pasid),
	  UT(amd_other_events), UT(amd_6_12_rmp),
	  UT(amd_unknown_and_unattached), UT(amd_6_x_not_attached_pair), UT(amd_malformed_and_other),
	  UT(virtio_6_1_page_fault), UT(virtio_5_10_forms),
	  UT(virtio_malformed_and_other),
	  UT(smmu_6_1_raw_kmsg), UT(smmu_5_10_raw_dmesg),
	  UT(smmu_6_12_bad_ste), UT(smmu_7_2_raw_then_decoded),
	  UT(smmu_7_2_decoded_alone), UT(smmu_two_interleaved),
	  UT(smmu_event_cut_short), UT(smmu_evicts_least_recent),
	  UT(smmu_stateless_and_malformed), UT(header_forms),
	  UT(fixture_vtd_debian_6_1), UT(fixture_smmuv3_debian_6_1),
	  UT(collapse_by_device_page_access), UT(collapse_by_stream_id),
	  UT(names))
