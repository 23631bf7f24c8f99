/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IOMMU faults as the kernel logs them, as people paste them: a line of
 * /dev/kmsg, dmesg (-T, -r, -x), syslog or the journal, quoted in an
 * e-mail or indented in a commit message, into struct iommu_fault.
 * Pure: the caller reads the text and owns every buffer.
 *
 * Each IOMMU driver's formats live in a file of their own under
 * parse/fault/ and one row of parse/fault/fault_table.c (how to add a
 * driver: parse/fault/fault_driver.h); parse/fault/fault_clean.c takes a
 * pasted line back to the kernel's message.  This file's decoder feeds
 * every message to every driver in table order.
 */
#ifndef PTCOMPARE_PARSE_IOMMU_FAULT_H
#define PTCOMPARE_PARSE_IOMMU_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum iommu_access {
	IOMMU_ACCESS_UNKNOWN,
	IOMMU_ACCESS_READ,
	IOMMU_ACCESS_WRITE,
	IOMMU_ACCESS_READ_WRITE,	/* virtio-iommu's "[RW]" */
	IOMMU_ACCESS_EXEC,		/* an instruction fetch */
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
#define IOMMU_FAULT_WALL_MAX	40

struct iommu_fault {
	/*
	 * The driver's name ("vt-d", "amd-vi", ...: a table row's name,
	 * static), "" for none; for IOMMU_LINE_MALFORMED the driver
	 * recognised, or "unknown".
	 */
	const char *iommu;
	/*
	 * The format read: the kernel releases that print it ("5.15+",
	 * "3.x-4.6 two lines", ...; static), NULL when none was.
	 */
	const char *format;
	enum iommu_fault_class cls;
	enum iommu_access access;
	/*
	 * The PCI device, "DDDD:BB:DD.F" (domain 0000 when the log gives
	 * none), or a platform device's name; "" when the log names it by
	 * an ID only (SMMUv3's StreamID, virtio-iommu's endpoint: sid
	 * below, resolved by the caller).
	 */
	char device[IOMMU_FAULT_NAME_MAX];
	/* The IOMMU's own device: "9050000.smmuv3", "virtio0", "ivhd0"; or "". */
	char iommu_dev[IOMMU_FAULT_NAME_MAX];
	/* A platform master as the driver names it: "larb 2 port 5", ... */
	char master[IOMMU_FAULT_NAME_MAX];
	/*
	 * The kernel's words for the fault, or the event's name; for
	 * IOMMU_LINE_MALFORMED, what of the line could not be read.
	 */
	char reason[IOMMU_FAULT_REASON_MAX];
	/* The wall clock of dmesg -T, syslog or the journal, as written. */
	char wall[IOMMU_FAULT_WALL_MAX];
	uint64_t iova;
	uint64_t time_us;	/* since boot: kmsg's TIME_US or dmesg's [] */
	uint64_t seq;		/* kmsg's sequence number */
	uint32_t sid;		/* SMMUv3 StreamID, virtio-iommu endpoint */
	uint32_t pasid;		/* PASID (VT-d, AMD) or SSID (SMMUv3) */
	uint32_t domain_id;	/* AMD-Vi's domain= */
	uint32_t code;		/* VT-d fault reason, SMMU event ID, AMD type */
	uint32_t flags;		/* AMD-Vi's flags field */
	int prio;		/* kmsg's level (0-7), or -1 */
	bool has_iova, has_time, has_seq, has_sid, has_pasid, has_domain_id;
	bool has_flags, has_code;
};

enum iommu_line {
	IOMMU_LINE_MALFORMED = -1,	/* an IOMMU fault line, unreadable */
	IOMMU_LINE_OTHER = 0,		/* not a fault line */
	IOMMU_LINE_FAULT = 1,		/* *out is a fault */
	IOMMU_LINE_PART = 2,		/* a line of a multi-line event */
	/*
	 * *out is the fault returned last for the same IOMMU, completed
	 * by this line (6.15+'s decoded SMMUv3 lines name the client
	 * device): the caller replaces that fault with it.
	 */
	IOMMU_LINE_DETAIL = 3,
	/* an IOMMU's line that is no fault ("DMAR: DRHD: handling ...") */
	IOMMU_LINE_KNOWN = 4,
};

/*
 * One line of the kernel log without what was put before it: the
 * message (NUL-terminated, kmsg's \xNN escapes undone; it may hold
 * newlines, a record of several lines) and what the header said.
 */
#define IOMMU_LOG_LINE_MAX	1024
struct iommu_log_line {
	char msg[IOMMU_LOG_LINE_MAX];
	char wall[IOMMU_FAULT_WALL_MAX];	/* dmesg -T's, syslog's; or "" */
	char host[IOMMU_FAULT_NAME_MAX];	/* syslog's, the journal's; or "" */
	uint64_t time_us, seq;
	int prio;
	bool has_time, has_seq;
};

/*
 * Cleans line (len bytes, no NUL needed, any bytes): trailing CR/LF,
 * leading blanks and tabs, e-mail quote markers ("> ", ">> "), a syslog
 * or journal prefix ("Apr 29 10:00:01 host kernel: ",
 * "2025-04-29T10:00:01+0000 host kernel: "), dmesg -x's "kern  :err   : ",
 * dmesg -r's "<3>", dmesg's "[  189.706380] " or dmesg -T's "[Tue Apr 29
 * 10:00:01 2025] ", a caller ID "[    T1] ", or /dev/kmsg's
 * "PRIO,SEQ,TIME_US,FLAGS;".  Messages glued to it by a console (a
 * dmesg stamp in the middle of the line) are left in *rest: call again
 * on rest[0..*rest_len) (NULL rest: dropped).  False for a kmsg
 * "KEY=value" line, a NUL, or a message longer than the kernel writes.
 */
bool iommu_log_clean(const char *line, size_t len, struct iommu_log_line *out,
		     const char **rest, size_t *rest_len);

/* iommu_log_clean() without glued messages (kept for one-line callers). */
bool iommu_log_split(const char *line, size_t len, struct iommu_log_line *out);

/* Bytes of state a decoder keeps for one driver (fault_driver.h). */
#define IOMMU_DRIVER_STATE_MAX	8192
/* Drivers the table may hold. */
#define IOMMU_DRIVERS_MAX	20

/*
 * The caller owns it; init it and feed every line, in log order.  Each
 * driver keeps its multi-line events in its own state, so lines of
 * other drivers or devices between the lines of one event leave it
 * whole.
 */
struct iommu_fault_decoder {
	union {
		unsigned char bytes[IOMMU_DRIVER_STATE_MAX];
		uint64_t align_u64;
		void *align_ptr;
		long double align_ld;
	} state[IOMMU_DRIVERS_MAX];
	uint64_t lines;		/* lines fed */
	uint64_t messages;	/* messages read from them */
	/*
	 * A message no format read, held for the next: a mail client or
	 * a terminal may have wrapped the line, and the next line,
	 * nothing on its own, ends it.
	 */
	struct iommu_log_line held;
	struct iommu_fault held_fault;	/* its IOMMU_LINE_MALFORMED */
	unsigned int held_joins;	/* lines joined to it so far */
	uint64_t held_line;		/* the line it began on */
	bool holding;
};

void iommu_fault_decoder_init(struct iommu_fault_decoder *d);

/*
 * What a line gave: called once per fault, detail, malformed line and
 * (for IOMMU_LINE_KNOWN, PART) per message, with the message read (its
 * lines joined when it was wrapped) and the number of the line it began
 * on (1 for the first fed); nonzero stops the feed and is returned.
 */
typedef int (*iommu_fault_emit)(void *arg, enum iommu_line r,
				const struct iommu_fault *f, const char *msg,
				uint64_t line);

/*
 * One line of text (len bytes, any bytes: a line over the kernel's
 * length is cut, never read past): cleaned, split into its messages,
 * every message through every driver.  0, or what emit returned.
 */
int iommu_fault_feed(struct iommu_fault_decoder *d, const char *line,
		     size_t len, iommu_fault_emit emit, void *arg);

/*
 * The end of the input: a message still held for a continuation is
 * given to emit as IOMMU_LINE_MALFORMED.  0, or what emit returned.
 */
int iommu_fault_finish(struct iommu_fault_decoder *d, iommu_fault_emit emit,
		       void *arg);

/*
 * iommu_fault_feed() and iommu_fault_finish() for a line of one message
 * (no line joins another across calls): the most telling answer
 * (a fault, detail, malformed, part, known, other) and its fault.
 */
enum iommu_line iommu_fault_decode(struct iommu_fault_decoder *d,
				   const char *line, size_t len,
				   struct iommu_fault *out);

/* The same for a line read alone, with a decoder of its own. */
enum iommu_line iommu_fault_parse_line(const char *line, size_t len,
				       struct iommu_fault *out);

/*
 * Multi-line events begun and never finished: cut short, if the input
 * ends there (or, read live, not yet whole); counted by every driver.
 * *driver (unless NULL): the first such driver's name, or NULL.
 */
unsigned int iommu_fault_decoder_pending(const struct iommu_fault_decoder *d,
					 const char **driver);

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

/* The drivers decoded, in table order: count, and each one's name. */
size_t iommu_fault_drivers(void);
const char *iommu_fault_driver_name(size_t i);

/* "read", "write", ...; "unmapped", "page", ... */
const char *iommu_access_name(enum iommu_access a);
const char *iommu_class_name(enum iommu_fault_class c);

#endif /* PTCOMPARE_PARSE_IOMMU_FAULT_H */
