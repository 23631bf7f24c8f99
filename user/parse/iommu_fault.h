/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IOMMU faults as the kernel logs them: one line of /dev/kmsg
 * ("PRIO,SEQ,TIME_US,FLAGS;MESSAGE") or of dmesg (with or without its
 * "[  123.456789] " prefix) into a struct iommu_fault.  Pure: the caller
 * reads the log and owns every buffer.
 *
 * Formats (each read in the kernel's source of 5.10, 6.1 and 6.12, and
 * of newer trees where it changed: VT-d in a 7.2 tree, SMMUv3 in 6.18;
 * docs/design.md, "IOMMU faults in the kernel log"):
 *   VT-d          drivers/iommu/intel/dmar.c, dmar_fault_do_one()
 *   AMD-Vi        drivers/iommu/amd/iommu.c, amd_iommu_report_page_fault(),
 *                 iommu_print_event(), amd_iommu_report_rmp_*()
 *   SMMUv3        drivers/iommu/arm/arm-smmu-v3/arm-smmu-v3.c,
 *                 arm_smmu_evtq_thread() (raw words, several lines) and,
 *                 from 6.15, arm_smmu_dump_event() (decoded lines too)
 *   virtio-iommu  drivers/iommu/virtio-iommu.c, viommu_fault_handler()
 */
#ifndef PTCOMPARE_PARSE_IOMMU_FAULT_H
#define PTCOMPARE_PARSE_IOMMU_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum iommu_kind {
	IOMMU_KIND_NONE,
	IOMMU_KIND_VTD,		/* Intel VT-d, "DMAR: " */
	IOMMU_KIND_AMD_VI,	/* "AMD-Vi: " */
	IOMMU_KIND_SMMU_V3,	/* "arm-smmu-v3 NAME: " */
	IOMMU_KIND_VIRTIO,	/* "virtio_iommu NAME: " */
};

enum iommu_access {
	IOMMU_ACCESS_UNKNOWN,
	IOMMU_ACCESS_READ,
	IOMMU_ACCESS_WRITE,
	IOMMU_ACCESS_READ_WRITE,	/* virtio-iommu's "[RW]" */
};

/*
 * What the fault says went wrong, as far as its log line tells.  VT-d's
 * legacy reasons 5 and 6 ("PTE Write/Read access is not set") are
 * IOMMU_CLASS_PAGE: an unmapped IOVA and a read-only page read the same.
 */
enum iommu_fault_class {
	IOMMU_CLASS_OTHER,
	IOMMU_CLASS_UNMAPPED,	/* no translation: SMMU F_TRANSLATION, AMD !PR */
	IOMMU_CLASS_PERMISSION,	/* a translation that forbids the access */
	IOMMU_CLASS_PAGE,	/* unmapped or forbidden, the log cannot tell */
	IOMMU_CLASS_ADDRESS,	/* beyond the address width */
	IOMMU_CLASS_CONTEXT,	/* the device's context/STE/CD/DTE/domain */
	IOMMU_CLASS_INTERRUPT,	/* interrupt remapping */
	IOMMU_CLASS_HARDWARE,	/* the IOMMU's own tables or commands */
};

#define IOMMU_FAULT_NAME_MAX	64
#define IOMMU_FAULT_REASON_MAX	96

struct iommu_fault {
	enum iommu_kind iommu;
	enum iommu_fault_class cls;
	enum iommu_access access;
	/*
	 * The PCI device, "DDDD:BB:DD.F" (domain 0000 when the log gives
	 * none); "" when the log names it by an ID only (SMMUv3's StreamID,
	 * virtio-iommu's endpoint: sid below, resolved by the caller).
	 */
	char device[IOMMU_FAULT_NAME_MAX];
	/* The IOMMU's own device: "9050000.smmuv3", "virtio0"; or "". */
	char iommu_dev[IOMMU_FAULT_NAME_MAX];
	/* The kernel's words for the fault, or the event's name. */
	char reason[IOMMU_FAULT_REASON_MAX];
	uint64_t iova;
	uint64_t time_us;	/* since boot: kmsg's TIME_US or dmesg's [] */
	uint64_t seq;		/* kmsg's sequence number */
	uint32_t sid;		/* SMMUv3 StreamID, virtio-iommu endpoint */
	uint32_t pasid;		/* PASID (VT-d, AMD) or SSID (SMMUv3) */
	uint32_t domain;	/* AMD-Vi's domain ID */
	uint32_t code;		/* VT-d fault reason, SMMU event ID, AMD type */
	uint32_t flags;		/* AMD-Vi's flags field */
	int prio;		/* kmsg's level (0-7), or -1 */
	bool has_iova, has_time, has_seq, has_sid, has_pasid, has_domain;
	bool has_flags;
};

enum iommu_line {
	IOMMU_LINE_MALFORMED = -1,	/* an IOMMU fault line, unreadable */
	IOMMU_LINE_OTHER = 0,		/* not a fault line */
	IOMMU_LINE_FAULT = 1,		/* *out is a fault */
	IOMMU_LINE_PART = 2,		/* a line of an SMMUv3 raw event */
	/*
	 * *out is the fault returned last for the same SMMU, completed
	 * by this line (6.15+'s decoded lines name the client device):
	 * the caller replaces that fault with it.
	 */
	IOMMU_LINE_DETAIL = 3,
};

/*
 * One line of the kernel log without its kmsg or dmesg header: the
 * message (NUL-terminated, kmsg's \xNN escapes undone) and what the
 * header said.
 */
#define IOMMU_LOG_LINE_MAX	1024
struct iommu_log_line {
	char msg[IOMMU_LOG_LINE_MAX];
	uint64_t time_us, seq;
	int prio;
	bool has_time, has_seq;
};

/*
 * Splits line (len bytes, no NUL needed; a trailing newline is dropped).
 * False for a kmsg continuation line (" KEY=value"), a line longer than
 * the kernel writes one, or a malformed header.
 */
bool iommu_log_split(const char *line, size_t len, struct iommu_log_line *out);

/*
 * The one-line formats (VT-d, AMD-Vi, virtio-iommu, and SMMUv3's decoded
 * "event:" line on its own).  SMMUv3's raw events span five lines: their
 * lines answer IOMMU_LINE_PART here, and only iommu_fault_decode() puts
 * them together.  *out is meaningful for IOMMU_LINE_FAULT alone.
 */
enum iommu_line iommu_fault_parse_line(const char *line, size_t len,
				       struct iommu_fault *out);

/* SMMUs followed at once by one decoder; more evict the least recent. */
#define IOMMU_DECODER_SMMUS	8

struct iommu_smmu_state {
	char name[IOMMU_FAULT_NAME_MAX];	/* "" when free */
	uint64_t words[4];
	unsigned int nwords;	/* 0-3 words of the open event */
	bool open;		/* an "event 0x.. received:" line seen */
	uint64_t used;		/* decoder's tick of the last line */
	struct iommu_fault head;	/* the header line's time, seq, prio */
	struct iommu_fault last;	/* the fault returned last */
	bool has_last;
};

/*
 * The caller owns it; zero it (iommu_fault_decoder_init) and feed every
 * line, in log order.  SMMUv3 state is kept per SMMU device name, so
 * lines of other devices interleaved leave an event whole.
 */
struct iommu_fault_decoder {
	struct iommu_smmu_state smmu[IOMMU_DECODER_SMMUS];
	uint64_t tick;
	uint64_t cut_short;	/* SMMU events whose words never all came */
};

void iommu_fault_decoder_init(struct iommu_fault_decoder *d);

/*
 * Every format, SMMUv3's raw words included.  *out is meaningful for
 * IOMMU_LINE_FAULT and IOMMU_LINE_DETAIL.
 */
enum iommu_line iommu_fault_decode(struct iommu_fault_decoder *d,
				   const char *line, size_t len,
				   struct iommu_fault *out);

/*
 * SMMUv3 events still waiting for words: cut short, if the log ends
 * there (or, read live, not yet whole).
 */
unsigned int iommu_fault_decoder_pending(const struct iommu_fault_decoder *d);

/*
 * Repeats collapsed: one group per device (or IOMMU and ID when the log
 * names no device), IOVA page and access, in order of first appearance.
 */
struct iommu_fault_group {
	struct iommu_fault first;
	uint64_t count;
	uint64_t first_us, last_us;	/* valid when first.has_time */
};

/*
 * Adds f to groups[0..*n): into its group, or as a new one when fewer
 * than cap are used.  page_size: the IOVA granule faults share a group
 * within (0 counts as 1, the exact address).  False when f needed a new
 * group and there was no room.
 */
bool iommu_fault_group_add(struct iommu_fault_group *groups, size_t *n,
			   size_t cap, const struct iommu_fault *f,
			   uint64_t page_size);

/*
 * The faults in[0..n) collapsed into out[0..cap): how many groups; the
 * faults that found no room are counted in *dropped.
 */
size_t iommu_fault_collapse(const struct iommu_fault *in, size_t n,
			    uint64_t page_size, struct iommu_fault_group *out,
			    size_t cap, size_t *dropped);

/* "vt-d", "amd-vi", "smmu-v3", "virtio-iommu"; "read", "write", ...; */
const char *iommu_kind_name(enum iommu_kind k);
const char *iommu_access_name(enum iommu_access a);
const char *iommu_class_name(enum iommu_fault_class c);

#endif /* PTCOMPARE_PARSE_IOMMU_FAULT_H */
