// SPDX-License-Identifier: GPL-2.0
/*
 * IOMMU fault lines of the kernel log (iommu_fault.h).  Each format is
 * the kernel's printf format, matched literally: once a line carries a
 * format's tag ("DMAR: [DMA Read", "AMD-Vi: Event logged [", ...) any
 * other difference makes it IOMMU_LINE_MALFORMED, never a guess.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include "parse/hex.h"
#include "parse/iommu_fault.h"

/* ---- numbers and names ---------------------------------------------- */

static const char *lit(const char *p, const char *s);

/*
 * Hex digits (no "0x") into *v: the end, or NULL for none or > 64 bits.
 * Every reader here takes NULL for p and gives NULL back, so a chain of
 * them fails once, at its end.
 */
static const char *hex(const char *p, uint64_t *v)
{
	*v = 0;
	return p ? hex_scan(p, 0, v) : NULL;
}

static const char *dec(const char *p, uint64_t *v)
{
	const char *s = p;

	*v = 0;
	if (!p)
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return NULL;
		*v = *v * 10 + d;
	}
	return p == s ? NULL : p;
}

/* "0x" and hex digits. */
static const char *hex0x(const char *p, uint64_t *v)
{
	return lit(p, "0x") ? hex(p + 2, v) : hex(NULL, v);
}

/* printf's "%#x": "0" for zero, "0x..." otherwise. */
static const char *hash_x(const char *p, uint64_t *v)
{
	if (lit(p, "0x"))
		return hex(p + 2, v);
	*v = 0;
	return p && *p == '0' ? p + 1 : NULL;
}

/* p past the literal s, or NULL. */
static const char *lit(const char *p, const char *s)
{
	size_t n = strlen(s);

	return p && !strncmp(p, s, n) ? p + n : NULL;
}

static const char *hex32(const char *p, uint32_t *v)
{
	uint64_t x;

	p = hex(p, &x);
	*v = (uint32_t)x;
	return p && x <= UINT32_MAX ? p : NULL;
}

/*
 * A PCI address, "DDDD:BB:DD.F" or the "BB:DD.F" of logs that leave the
 * domain out (VT-d, AMD-Vi before 6.0): normalised to "%04x:%02x:%02x.%x".
 */
static const char *bdf(const char *p, char out[IOMMU_FAULT_NAME_MAX])
{
	uint32_t a, b, c = 0, fn;
	const char *q = hex32(p, &a);

	if (!q || *q != ':' || !(q = hex32(q + 1, &b)))
		return NULL;
	if (*q == ':') {
		if (!(q = hex32(q + 1, &c)))
			return NULL;
	} else {
		c = b, b = a, a = 0;	/* no domain: 0000 */
	}
	if (*q != '.' || !(q = hex32(q + 1, &fn)))
		return NULL;
	if (b > 0xff || c > 0x1f || fn > 7 || q - p > 16)
		return NULL;
	snprintf(out, IOMMU_FAULT_NAME_MAX, "%04x:%02x:%02x.%x", a, b, c, fn);
	return q;
}

/* The run of p up to one of stops, into out: its end, or NULL. */
static const char *word(const char *p, const char *stops, char *out,
			size_t size)
{
	size_t n = p ? strcspn(p, stops) : 0;

	if (!n || n >= size)
		return NULL;
	memcpy(out, p, n);
	out[n] = '\0';
	return p + n;
}

static void copy_reason(struct iommu_fault *f, const char *s)
{
	size_t n = strnlen(s, sizeof(f->reason) - 1);

	/*
	 * Trimmed of blanks and control bytes (a CR left by a CRLF file)
	 * after the cut, so a reason reads the same printed again.
	 */
	while (n && (unsigned char)s[n - 1] <= ' ')
		n--;
	memcpy(f->reason, s, n);
	f->reason[n] = '\0';
}

static void fault_init(struct iommu_fault *f, enum iommu_kind k)
{
	memset(f, 0, sizeof(*f));
	f->iommu = k;
	f->prio = -1;
}

/* ---- the kernel log's line headers ---------------------------------- */

/*
 * /dev/kmsg: "PRIO,SEQ,TIME_US,FLAGS[,caller=...];MESSAGE"
 * (Documentation/ABI/testing/dev-kmsg); PRIO is facility << 3 | level.
 */
static const char *kmsg_prefix(const char *p, struct iommu_log_line *o)
{
	uint64_t prio, seq, t;
	const char *q = dec(p, &prio);

	if (!q || *q != ',' || !(q = dec(q + 1, &seq)) || *q != ',')
		return NULL;
	if (!(q = dec(q + 1, &t)) || *q != ',' || !(q = strchr(q, ';')))
		return NULL;
	o->prio = (int)(prio & 7);
	o->seq = seq, o->has_seq = true;
	o->time_us = t, o->has_time = true;
	return q + 1;
}

/* dmesg's "[  123.456789] ", after dmesg -r's "<3>" if any. */
static const char *dmesg_prefix(const char *p, struct iommu_log_line *o)
{
	uint64_t lvl, s, frac;
	const char *q = p, *f;

	if (*q == '<' && (q = dec(q + 1, &lvl)) && *q == '>')
		o->prio = (int)(lvl & 7), p = ++q;
	if (*p != '[')
		return p;
	for (q = p + 1; *q == ' '; q++)
		;
	if (!(q = dec(q, &s)) || *q != '.' || !(q = dec(f = q + 1, &frac)) ||
	    *q != ']' || q - f > 9 || s > UINT64_MAX / 1000000)
		return p;
	for (ptrdiff_t k = q - f; k < 6; k++)
		frac *= 10;
	for (ptrdiff_t k = q - f; k > 6; k--)
		frac /= 10;
	o->time_us = s * 1000000 + frac, o->has_time = true;
	return q[1] == ' ' ? q + 2 : q + 1;
}

/* kmsg writes bytes below 0x20 and above 0x7e, and '\\', as \xNN. */
static bool unescape(const char *p, char *out, size_t size)
{
	size_t n = 0;

	for (; *p; n++) {
		uint64_t byte;

		if (n + 1 >= size)
			return false;
		if (p[0] == '\\' && p[1] == 'x' &&
		    hex_scan(p + 2, 2, &byte) == p + 4) {
			out[n] = (char)byte;
			p += 4;
		} else {
			out[n] = *p++;
		}
		if (!out[n])
			return false;
	}
	out[n] = '\0';
	return true;
}

bool iommu_log_split(const char *line, size_t len, struct iommu_log_line *out)
{
	char raw[4 * IOMMU_LOG_LINE_MAX + 64];
	const char *msg;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len >= sizeof(raw) || memchr(line, '\0', len) || (len && *line == ' '))
		return false;	/* too long, binary, or a kmsg "KEY=value" line */
	memcpy(raw, line, len);
	raw[len] = '\0';
	out->msg[0] = '\0';
	out->time_us = out->seq = 0;
	out->prio = -1;
	out->has_time = out->has_seq = false;
	if ((msg = kmsg_prefix(raw, out)))
		return unescape(msg, out->msg, sizeof(out->msg));
	msg = dmesg_prefix(raw, out);
	if (strlen(msg) >= sizeof(out->msg))
		return false;
	strcpy(out->msg, msg);
	return true;
}

/* ---- VT-d: drivers/iommu/intel/dmar.c, dmar_fault_do_one() ----------- */

/*
 * The reasons of dmar_get_fault_reason(): 0x00-0x0d legacy DMA remapping,
 * 0x20-0x26 interrupt remapping, 0x30-0x90 scalable mode (6.1's table;
 * 5.10 stops at 0x8f, 7.2 is 6.1's).
 */
static enum iommu_fault_class vtd_class(uint32_t r)
{
	if (r == 4 || r == 0x80 || r == 0x83 || r == 0x84)
		return IOMMU_CLASS_ADDRESS;
	if (r == 5 || r == 6 || r == 7 || r == 0xc || r == 0x79)
		return IOMMU_CLASS_PAGE;	/* a PTE absent reads as R=W=0 */
	if (r == 0x71)
		return IOMMU_CLASS_UNMAPPED;	/* "Present bit ... is clear" */
	if (r == 0x75 || r == 0x76 || r == 0x77 || (r >= 0x81 && r <= 0x86))
		return IOMMU_CLASS_PERMISSION;
	if ((r >= 0x20 && r <= 0x26) || r == 0x87)
		return IOMMU_CLASS_INTERRUPT;
	if ((r >= 1 && r <= 3) || (r >= 8 && r <= 0xd) ||
	    (r >= 0x30 && r <= 0x6f))
		return IOMMU_CLASS_CONTEXT;
	if ((r >= 0x70 && r <= 0x7c) || r == 0x90)
		return IOMMU_CLASS_PAGE;
	return IOMMU_CLASS_OTHER;
}

/* "0x" and hex (6.1+), or decimal (5.10's "%02d"); at most 0xff. */
static const char *vtd_reason_code(const char *p, uint32_t *code)
{
	uint64_t v = 0;

	p = p && !strncmp(p, "0x", 2) ? hex(p + 2, &v) : (p ? dec(p, &v) : NULL);
	*code = (uint32_t)v;
	return p && v <= 0xff ? p : NULL;
}

/* Hex with the "0x" of 6.1+ or without it (5.10's "%llx"). */
static const char *hex_maybe0x(const char *p, uint64_t *v)
{
	if (!p)
		return NULL;
	return hex(!strncmp(p, "0x", 2) ? p + 2 : p, v);
}

/* " [fault reason N] TEXT", the end of every dmar_fault_do_one() line. */
static enum iommu_line vtd_tail(const char *p, struct iommu_fault *f)
{
	p = vtd_reason_code(lit(p, " [fault reason "), &f->code);
	if (!(p = lit(p, "] ")) || !*p)
		return IOMMU_LINE_MALFORMED;
	copy_reason(f, p);
	if (!f->reason[0])
		return IOMMU_LINE_MALFORMED;
	if (f->cls == IOMMU_CLASS_OTHER)
		f->cls = vtd_class(f->code);
	return IOMMU_LINE_FAULT;
}

/*
 * "Request device [BB:DD.F]" (5.10-6.12) or "[DDDD:BB:DD.F]" (the 7.2
 * tree read, which prints iommu->segment).
 */
static const char *vtd_device(const char *p, struct iommu_fault *f)
{
	p = bdf(lit(p, " Request device ["), f->device);
	return lit(p, "]");
}

/*
 * "[INTR-REMAP] Request device [00:03.0] fault index 0x1f [fault reason
 * 0x25] ..." (5.10: "fault index 1f", "[fault reason 37]").
 */
static enum iommu_line vtd_intr(const char *p, struct iommu_fault *f)
{
	uint64_t index;

	f->cls = IOMMU_CLASS_INTERRUPT;
	p = hex_maybe0x(lit(vtd_device(p, f), " fault index "), &index);
	return p ? vtd_tail(p, f) : IOMMU_LINE_MALFORMED;
}

/* 6.1+: " NO_PASID]" or " PASID 0x%x]"; 5.10: "]" (the PASID comes later). */
static const char *vtd_pasid_tag(const char *p, struct iommu_fault *f,
				 bool *v5_10)
{
	const char *q;

	if ((q = lit(p, " NO_PASID]")))
		return q;
	if ((q = lit(p, " PASID 0x"))) {
		f->has_pasid = true;
		return lit(hex32(q, &f->pasid), "]");
	}
	*v5_10 = true;
	return lit(p, "]");
}

/* 5.10: "PASID %x" before the address, ffffffff (-1) for none. */
static const char *vtd_pasid_5_10(const char *p, struct iommu_fault *f)
{
	p = hex32(lit(p, " PASID "), &f->pasid);
	f->has_pasid = p && f->pasid != UINT32_MAX;
	return p;
}

/*
 * "[DMA Write NO_PASID] Request device [00:03.0] fault addr 0x5003000
 * [fault reason 0x05] PTE Write access is not set" (6.1, 6.12; 7.2 with
 * the domain), "[DMA Read] Request device [00:03.0] PASID ffffffff fault
 * addr 5003000 [fault reason 06] PTE Read access is not set" (5.10).
 */
static enum iommu_line vtd_dma(const char *p, struct iommu_fault *f)
{
	bool v5_10 = false;

	p = vtd_device(vtd_pasid_tag(p, f, &v5_10), f);
	if (p && v5_10)
		p = vtd_pasid_5_10(p, f);
	p = hex_maybe0x(lit(p, " fault addr "), &f->iova);
	if (!p)
		return IOMMU_LINE_MALFORMED;
	f->has_iova = true;
	return vtd_tail(p, f);
}

static enum iommu_line vtd_parse(const char *msg, struct iommu_fault *f)
{
	const char *p = strstr(msg, "DMAR: [");
	const char *q;

	if (!p)
		return IOMMU_LINE_OTHER;
	p += strlen("DMAR: [");
	f->iommu = IOMMU_KIND_VTD;
	if ((q = lit(p, "INTR-REMAP]")))
		return vtd_intr(q, f);
	if ((q = lit(p, "DMA Read")))
		f->access = IOMMU_ACCESS_READ;
	else if ((q = lit(p, "DMA Write")))
		f->access = IOMMU_ACCESS_WRITE;
	else
		return IOMMU_LINE_OTHER;	/* "DMAR: [Firmware Bug]: ..." */
	return vtd_dma(q, f);
}

/* ---- AMD-Vi: drivers/iommu/amd/iommu.c ------------------------------ */

/*
 * iommu_print_event()'s events (EVENT_TYPE_* of amd_iommu_types.h) and
 * whether their address= (or RMP_PAGE_FAULT's gpa=) is the device's.
 */
struct amd_event {
	const char *name;
	uint32_t type;
	enum iommu_fault_class cls;
	bool device_address;
};

static const struct amd_event amd_events[] = {
	{ "ILLEGAL_DEV_TABLE_ENTRY", 0x1, IOMMU_CLASS_CONTEXT, true },
	{ "IO_PAGE_FAULT", 0x2, IOMMU_CLASS_UNMAPPED, true },
	{ "DEV_TAB_HARDWARE_ERROR", 0x3, IOMMU_CLASS_HARDWARE, false },
	{ "PAGE_TAB_HARDWARE_ERROR", 0x4, IOMMU_CLASS_HARDWARE, true },
	{ "ILLEGAL_COMMAND_ERROR", 0x5, IOMMU_CLASS_HARDWARE, false },
	{ "COMMAND_HARDWARE_ERROR", 0x6, IOMMU_CLASS_HARDWARE, false },
	{ "IOTLB_INV_TIMEOUT", 0x7, IOMMU_CLASS_HARDWARE, false },
	{ "INVALID_DEVICE_REQUEST", 0x8, IOMMU_CLASS_OTHER, true },
	{ "INVALID_PPR_REQUEST", 0x9, IOMMU_CLASS_OTHER, true },
	{ "RMP_PAGE_FAULT", 0xd, IOMMU_CLASS_PERMISSION, true },
	{ "RMP_HW_ERROR", 0xe, IOMMU_CLASS_HARDWARE, false },
};

static const struct amd_event *amd_event(const char *name)
{
	for (size_t i = 0; i < sizeof(amd_events) / sizeof(amd_events[0]); i++)
		if (!strcmp(amd_events[i].name, name))
			return &amd_events[i];
	return NULL;
}

/* IO_PAGE_FAULT's flags (the AMD IOMMU spec's event log entry). */
#define AMD_PF_GN	0x001	/* domain= is a PASID */
#define AMD_PF_I	0x008	/* an interrupt request (EVENT_FLAG_I) */
#define AMD_PF_PR	0x010	/* the page was present */
#define AMD_PF_RW	0x020	/* a write (EVENT_FLAG_RW) */
#define AMD_PF_PE	0x040	/* no permission */

static void amd_page_fault(struct iommu_fault *f)
{
	if (!f->has_flags)
		return;
	if (f->flags & AMD_PF_I) {
		f->cls = IOMMU_CLASS_INTERRUPT;
		return;
	}
	f->access = f->flags & AMD_PF_RW ? IOMMU_ACCESS_WRITE : IOMMU_ACCESS_READ;
	if (f->flags & (AMD_PF_PR | AMD_PF_PE))
		f->cls = IOMMU_CLASS_PERMISSION;
	if ((f->flags & AMD_PF_GN) && f->has_domain)
		f->pasid = f->domain, f->has_pasid = true;
}

/* One "key=0x..." (or device=BDF) of the event, and its trailing ','. */
static const char *amd_key(const char *p, struct iommu_fault *f,
			   const struct amd_event *e)
{
	char key[16];
	uint64_t v;

	if (!(p = word(p, "=] ", key, sizeof(key))) || *p++ != '=')
		return NULL;
	if (!strcmp(key, "device"))
		p = bdf(p, f->device);
	else if (!(p = hex0x(p, &v)))
		return NULL;
	else if (!strcmp(key, "address") || !strcmp(key, "gpa"))
		f->iova = v, f->has_iova = e && e->device_address;
	else if (!strcmp(key, "domain") && v <= UINT32_MAX)
		f->domain = (uint32_t)v, f->has_domain = true;
	else if (!strcmp(key, "pasid") && v <= UINT32_MAX)
		f->pasid = (uint32_t)v, f->has_pasid = true;
	else if (!strcmp(key, "flags") && v <= UINT32_MAX)
		f->flags = (uint32_t)v, f->has_flags = true;
	return p && *p == ',' ? p + 1 : p;
}

/*
 * pci_err()'s "vfio-pci 0000:00:03.0: AMD-Vi: Event logged [...]": the
 * device is the word before the tag (dev_printk's "DRIVER DEVICE: ").
 */
static void amd_prefix_device(const char *msg, const char *tag,
			      struct iommu_fault *f)
{
	char name[IOMMU_FAULT_NAME_MAX];
	const char *s = tag - 2, *end;

	if (f->device[0] || tag - msg < 3 || strncmp(s, ": ", 2))
		return;
	while (s > msg && s[-1] != ' ')
		s--;
	if ((size_t)(tag - 2 - s) >= sizeof(name))
		return;
	memcpy(name, s, (size_t)(tag - 2 - s));
	name[tag - 2 - s] = '\0';
	end = bdf(name, f->device);
	if (!end || *end)
		f->device[0] = '\0';
}

/* 6.12's two lines for a device without a domain: the first names none. */
#define AMD_NOT_ATTACHED "Device not attached to domain properly]"

/*
 * Events whose text is no list of keys: "UNKNOWN event[0]=0x... " (raw
 * words, and no ']'), and 6.12's "Device not attached to domain
 * properly]", whose device follows on a line of its own.
 */
static bool amd_unkeyed(const char *p, struct iommu_fault *f)
{
	if (lit(p, "UNKNOWN ")) {
		copy_reason(f, "UNKNOWN");
		return true;
	}
	if (!lit(p, AMD_NOT_ATTACHED))
		return false;
	f->cls = IOMMU_CLASS_CONTEXT;
	copy_reason(f, "Device not attached to domain properly");
	return true;
}

static enum iommu_line amd_keys(const char *p, struct iommu_fault *f,
				const struct amd_event *e)
{
	while (*p == ' ')
		if (!(p = amd_key(p + 1, f, e)))
			return IOMMU_LINE_MALFORMED;
	if (*p != ']' || p[1 + strspn(p + 1, " \t")])
		return IOMMU_LINE_MALFORMED;
	return IOMMU_LINE_FAULT;
}

/*
 * "AMD-Vi: Event logged [IO_PAGE_FAULT device=00:03.0 domain=0x0001
 * address=0x5003000 flags=0x0020]" (5.10; "device=0000:00:03.0" from
 * 6.1), "vfio-pci 0000:00:03.0: AMD-Vi: Event logged [IO_PAGE_FAULT
 * domain=0x0001 address=0x5003000 flags=0x0020]" (pci_err(), a device
 * the IOMMU driver knows), and iommu_print_event()'s other events.
 */
static enum iommu_line amd_parse(const char *msg, struct iommu_fault *f)
{
	const char *tag = strstr(msg, "AMD-Vi: Event logged ["), *p;
	const struct amd_event *e;
	enum iommu_line r;

	if (!tag)
		return IOMMU_LINE_OTHER;
	f->iommu = IOMMU_KIND_AMD_VI;
	p = tag + strlen("AMD-Vi: Event logged [");
	if (amd_unkeyed(p, f))
		return IOMMU_LINE_FAULT;
	if (!(p = word(p, " ]", f->reason, sizeof(f->reason))))
		return IOMMU_LINE_MALFORMED;
	e = amd_event(f->reason);
	f->code = e ? e->type : 0;
	f->cls = e ? e->cls : IOMMU_CLASS_OTHER;
	if ((r = amd_keys(p, f, e)) != IOMMU_LINE_FAULT)
		return r;
	if (e && e->type == 0x2)
		amd_page_fault(f);
	if (e && (e->type == 0x2 || e->type == 0xd || e->type == 0xe))
		amd_prefix_device(msg, tag, f);
	return IOMMU_LINE_FAULT;
}

/* ---- virtio-iommu: drivers/iommu/virtio-iommu.c, viommu_fault_handler() */

/* "[%s%s%s]" of VIRTIO_IOMMU_FAULT_F_READ, _WRITE, _EXEC. */
static const char *virtio_access(const char *p, struct iommu_fault *f)
{
	bool r = false, w = false;

	if (!(p = lit(p, " [")))
		return NULL;
	if (*p == 'R')
		r = true, p++;
	if (*p == 'W')
		w = true, p++;
	if (*p == 'X')
		r = true, p++;	/* an instruction fetch reads */
	f->access = r && w ? IOMMU_ACCESS_READ_WRITE :
		    w ? IOMMU_ACCESS_WRITE :
		    r ? IOMMU_ACCESS_READ : IOMMU_ACCESS_UNKNOWN;
	return lit(p, "]");
}

/* VIRTIO_IOMMU_FAULT_R_DOMAIN, _MAPPING, _UNKNOWN, as the driver names them. */
static const char *virtio_reason(const char *p, struct iommu_fault *f)
{
	static const struct {
		const char *word;
		enum iommu_fault_class cls;
	} reasons[] = {
		{ "domain fault from EP ", IOMMU_CLASS_CONTEXT },
		{ "page fault from EP ", IOMMU_CLASS_UNMAPPED },
		{ "unknown fault from EP ", IOMMU_CLASS_OTHER },
	};

	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (lit(p, reasons[i].word)) {
			f->cls = reasons[i].cls;
			copy_reason(f, reasons[i].word);
			f->reason[strlen(f->reason) - strlen(" from EP")] = '\0';
			return p + strlen(reasons[i].word);
		}
	return NULL;
}

/*
 * "virtio_iommu virtio0: page fault from EP 8 at 0x5003000 [W]", or
 * without " at ..." when VIRTIO_IOMMU_FAULT_F_ADDRESS is clear (5.10 to
 * 7.2 alike); " PASID %u" before " at" as proposed PASID patches print it.
 */
static enum iommu_line virtio_parse(const char *msg, struct iommu_fault *f)
{
	const char *p = strstr(msg, "virtio_iommu ");
	uint64_t ep, v;

	if (!p || !(p = word(p + strlen("virtio_iommu "), ": ", f->iommu_dev,
			      sizeof(f->iommu_dev))) || !(p = lit(p, ": ")))
		return IOMMU_LINE_OTHER;
	if (!(p = virtio_reason(p, f)))
		return IOMMU_LINE_OTHER;	/* probe messages and the like */
	f->iommu = IOMMU_KIND_VIRTIO;
	if (!(p = dec(p, &ep)) || ep > UINT32_MAX)
		return IOMMU_LINE_MALFORMED;
	f->sid = (uint32_t)ep, f->has_sid = true;
	if (lit(p, " PASID ") && (p = dec(p + 7, &v)) && v <= UINT32_MAX)
		f->pasid = (uint32_t)v, f->has_pasid = true;
	if (p && lit(p, " at ")) {
		p = virtio_access(hash_x(p + 4, &f->iova), f);
		f->has_iova = true;
	}
	return p && !*p ? IOMMU_LINE_FAULT : IOMMU_LINE_MALFORMED;
}

/* ---- SMMUv3: drivers/iommu/arm/arm-smmu-v3/arm-smmu-v3.c ------------- */

/*
 * Event IDs: the names of 6.15+'s event_str[] (F_TRANSLATION ...), and
 * the SMMUv3 architecture's (IHI 0070) for the IDs it leaves out.
 * Only the four translation faults carry the input address and RnW.
 */
struct smmu_event {
	uint8_t id;
	const char *name;
	enum iommu_fault_class cls;
};

static const struct smmu_event smmu_events[] = {
	{ 0x01, "F_UUT", IOMMU_CLASS_OTHER },
	{ 0x02, "C_BAD_STREAMID", IOMMU_CLASS_CONTEXT },
	{ 0x03, "F_STE_FETCH", IOMMU_CLASS_CONTEXT },
	{ 0x04, "C_BAD_STE", IOMMU_CLASS_CONTEXT },
	{ 0x05, "F_BAD_ATS_TREQ", IOMMU_CLASS_OTHER },
	{ 0x06, "F_STREAM_DISABLED", IOMMU_CLASS_CONTEXT },
	{ 0x07, "F_TRANSL_FORBIDDEN", IOMMU_CLASS_CONTEXT },
	{ 0x08, "C_BAD_SUBSTREAMID", IOMMU_CLASS_CONTEXT },
	{ 0x09, "F_CD_FETCH", IOMMU_CLASS_CONTEXT },
	{ 0x0a, "C_BAD_CD", IOMMU_CLASS_CONTEXT },
	{ 0x0b, "F_WALK_EABT", IOMMU_CLASS_HARDWARE },
	{ 0x10, "F_TRANSLATION", IOMMU_CLASS_UNMAPPED },
	{ 0x11, "F_ADDR_SIZE", IOMMU_CLASS_ADDRESS },
	{ 0x12, "F_ACCESS", IOMMU_CLASS_PERMISSION },
	{ 0x13, "F_PERMISSION", IOMMU_CLASS_PERMISSION },
	{ 0x20, "F_TLB_CONFLICT", IOMMU_CLASS_HARDWARE },
	{ 0x21, "F_CFG_CONFLICT", IOMMU_CLASS_HARDWARE },
	{ 0x24, "E_PAGE_REQUEST", IOMMU_CLASS_OTHER },
	{ 0x25, "F_VMS_FETCH", IOMMU_CLASS_CONTEXT },
};

#define SMMU_NEVENTS (sizeof(smmu_events) / sizeof(smmu_events[0]))

static void smmu_name_event(struct iommu_fault *f, uint32_t id)
{
	f->code = id;
	f->cls = IOMMU_CLASS_OTHER;
	copy_reason(f, "UNKNOWN");
	for (size_t i = 0; i < SMMU_NEVENTS; i++)
		if (smmu_events[i].id == id) {
			f->cls = smmu_events[i].cls;
			copy_reason(f, smmu_events[i].name);
		}
}

static bool smmu_event_id(const char *name, uint32_t *id)
{
	for (size_t i = 0; i < SMMU_NEVENTS; i++)
		if (!strcmp(smmu_events[i].name, name)) {
			*id = smmu_events[i].id;
			return true;
		}
	return false;
}

/*
 * The EVTQ_* fields of arm-smmu-v3.h (6.12), from the architecture:
 * word 0 ID 7:0, SSV 11, SSID 31:12, SID 63:32; word 1 RnW 35; word 2
 * the input address.
 */
#define EVTQ_0_ID_MASK		0xffULL
#define EVTQ_0_SSV		(1ULL << 11)
#define EVTQ_0_SSID_SHIFT	12
#define EVTQ_0_SSID_MASK	0xfffffULL
#define EVTQ_0_SID_SHIFT	32
#define EVTQ_1_RNW		(1ULL << 35)

/* A raw event, its four words as arm_smmu_evtq_thread() prints them. */
static void smmu_decode_words(const uint64_t w[4], struct iommu_fault *f)
{
	smmu_name_event(f, (uint32_t)(w[0] & EVTQ_0_ID_MASK));
	f->sid = (uint32_t)(w[0] >> EVTQ_0_SID_SHIFT), f->has_sid = true;
	if (w[0] & EVTQ_0_SSV) {
		f->pasid = (uint32_t)(w[0] >> EVTQ_0_SSID_SHIFT & EVTQ_0_SSID_MASK);
		f->has_pasid = true;
	}
	if (f->code < 0x10 || f->code > 0x13)
		return;
	f->iova = w[2], f->has_iova = true;
	f->access = w[1] & EVTQ_1_RNW ? IOMMU_ACCESS_READ : IOMMU_ACCESS_WRITE;
}

enum smmu_line_kind {
	SMMU_NONE,	/* not an SMMUv3 line */
	SMMU_HEADER,	/* "event 0x10 received:" */
	SMMU_WORD,	/* "\t0x0000001000000010" */
	SMMU_EVENT,	/* 6.15+: "event: F_TRANSLATION client: ..." */
	SMMU_ACCESS,	/* 6.15+: "unpriv data read s1 \"...\" stag: 0x0" */
};

struct smmu_line {
	enum smmu_line_kind kind;
	char name[IOMMU_FAULT_NAME_MAX];	/* the SMMU's device */
	uint64_t value;		/* the header's event ID, a word */
};

/* "\t0x%016llx": kmsg's \x09 undone, or a tab pasted as spaces. */
static const char *smmu_word(const char *p, uint64_t *v)
{
	p += strspn(p, " \t");
	p = lit(p, "\\x09") ? p + 4 : p;
	p = hex0x(p, v);
	return p && !*p ? p : NULL;
}

/* "ssid: 0" is IOMMU_NO_PASID: 6.15+ prints 0 when SSV is clear. */
static const char *smmu_ids(const char *p, struct iommu_fault *f)
{
	uint64_t sid, ssid;

	p = hash_x(lit(p, " sid: ") ? p + 6 : "", &sid);
	if (!p || sid > UINT32_MAX || !(p = lit(p, " ssid: ")))
		return NULL;
	if (!(p = hash_x(p, &ssid)) || ssid > UINT32_MAX)
		return NULL;
	f->sid = (uint32_t)sid, f->has_sid = true;
	f->pasid = (uint32_t)ssid, f->has_pasid = ssid != 0;
	return p;
}

/* "client: 0000:00:02.0" or "(unassigned sid)": a name, kept as given. */
static const char *smmu_client(const char *p, struct iommu_fault *f)
{
	char name[IOMMU_FAULT_NAME_MAX];
	const char *q;

	if (!(p = lit(p, " client: ")))
		return NULL;
	if ((q = lit(p, "(unassigned sid)")))
		return q;
	if (!(q = word(p, " ", name, sizeof(name))))
		return NULL;
	p = bdf(name, f->device);
	if (!p || *p)
		strcpy(f->device, name);	/* a platform device's name */
	return q;
}

/*
 * arm_smmu_dump_event() (6.15+): "event: %s client: %s sid: %#x ssid:
 * %#x" then " iova: %#llx ipa: %#llx" (translation faults), " fetch_addr:
 * %#llx" (fetch faults) or nothing.
 */
static bool smmu_event_line(const char *p, struct iommu_fault *f)
{
	uint64_t ipa;
	uint32_t id;

	if (!(p = word(p, " ", f->reason, sizeof(f->reason))))
		return false;
	smmu_name_event(f, smmu_event_id(f->reason, &id) ? id : 0xff);
	if (!(p = smmu_ids(smmu_client(p, f), f)))
		return false;
	if (lit(p, " iova: ")) {
		p = hash_x(lit(hash_x(p + 7, &f->iova), " ipa: "), &ipa);
		f->has_iova = p != NULL;
	} else if (lit(p, " fetch_addr: ")) {
		p = hash_x(p + 13, &ipa);
	}
	return p && !*p;
}

/* "%s %s %s %s ...": priv/unpriv, inst/data, read/write, s1/s2. */
static bool smmu_access_line(const char *p, struct iommu_fault *f)
{
	p = lit(p, "priv ") ? p + 5 : lit(p, "unpriv ");
	p = p && (lit(p, "inst ") || lit(p, "data ")) ? p + 5 : NULL;
	if (lit(p, "read "))
		f->access = IOMMU_ACCESS_READ;
	else if (lit(p, "write "))
		f->access = IOMMU_ACCESS_WRITE;
	else
		return false;
	return true;
}

/* The body of a line from "arm-smmu-v3 NAME: " on. */
static enum iommu_line smmu_body(const char *p, struct smmu_line *l,
				 struct iommu_fault *f)
{
	const char *q;

	if ((q = lit(p, "event 0x"))) {
		l->kind = SMMU_HEADER;
		q = hex(q, &l->value);
		return q && l->value <= 0xff && !strcmp(q, " received:") ?
		       IOMMU_LINE_PART : IOMMU_LINE_MALFORMED;
	}
	if ((q = lit(p, "event: "))) {
		l->kind = SMMU_EVENT;
		return smmu_event_line(q, f) ? IOMMU_LINE_FAULT :
		       IOMMU_LINE_MALFORMED;
	}
	if (lit(p, "priv ") || lit(p, "unpriv ")) {
		l->kind = SMMU_ACCESS;
		return smmu_access_line(p, f) ? IOMMU_LINE_DETAIL :
		       IOMMU_LINE_MALFORMED;
	}
	l->kind = SMMU_WORD;
	return smmu_word(p, &l->value) ? IOMMU_LINE_PART : IOMMU_LINE_OTHER;
}

/* A line of "arm-smmu-v3 NAME: ...", read alone. */
static enum iommu_line smmu_line(const char *msg, struct smmu_line *l,
				 struct iommu_fault *f)
{
	const char *p = strstr(msg, "arm-smmu-v3 ");

	if (!p || !(p = word(p + strlen("arm-smmu-v3 "), ": ", l->name,
			      sizeof(l->name))) || !(p = lit(p, ": ")))
		return IOMMU_LINE_OTHER;
	f->iommu = IOMMU_KIND_SMMU_V3;
	strcpy(f->iommu_dev, l->name);
	return smmu_body(p, l, f);
}

/* ---- one line, stateless ------------------------------------------- */

static void fault_from_header(const struct iommu_log_line *l,
			      struct iommu_fault *f)
{
	fault_init(f, IOMMU_KIND_NONE);
	f->prio = l->prio;
	f->time_us = l->time_us, f->has_time = l->has_time;
	f->seq = l->seq, f->has_seq = l->has_seq;
}

/* A fault of a kind the line did not turn out to be is wiped again. */
static enum iommu_line one_line(const char *msg, struct iommu_fault *f)
{
	const struct iommu_fault head = *f;
	enum iommu_line (*const parsers[])(const char *, struct iommu_fault *) = {
		vtd_parse, amd_parse, virtio_parse,
	};

	for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++) {
		enum iommu_line r = parsers[i](msg, f);

		if (r != IOMMU_LINE_OTHER)
			return r;
		*f = head;
	}
	return IOMMU_LINE_OTHER;
}

/*
 * A kernel log line read alone: a one-line format's fault, or an SMMUv3
 * line (sl->kind, SMMU_NONE for none) for the decoder to put together.
 */
static enum iommu_line line_alone(const char *line, size_t len,
				  struct smmu_line *sl, struct iommu_fault *out)
{
	struct iommu_log_line l;
	enum iommu_line r;

	sl->kind = SMMU_NONE;
	if (!iommu_log_split(line, len, &l))
		return IOMMU_LINE_OTHER;
	fault_from_header(&l, out);
	r = one_line(l.msg, out);
	return r != IOMMU_LINE_OTHER ? r : smmu_line(l.msg, sl, out);
}

enum iommu_line iommu_fault_parse_line(const char *line, size_t len,
				       struct iommu_fault *out)
{
	struct smmu_line sl;
	enum iommu_line r = line_alone(line, len, &sl, out);

	/* an access line completes a fault only the decoder holds */
	return sl.kind != SMMU_NONE && r == IOMMU_LINE_DETAIL ?
	       IOMMU_LINE_OTHER : r;
}

/* ---- the decoder: SMMUv3's raw events, kept per SMMU ----------------- */

void iommu_fault_decoder_init(struct iommu_fault_decoder *d)
{
	memset(d, 0, sizeof(*d));
}

/* name's state; a new one (the least recently used, evicted) if make. */
static struct iommu_smmu_state *smmu_state(struct iommu_fault_decoder *d,
					   const char *name, bool make)
{
	struct iommu_smmu_state *lru = &d->smmu[0];

	for (size_t i = 0; i < IOMMU_DECODER_SMMUS; i++) {
		struct iommu_smmu_state *s = &d->smmu[i];

		if (s->name[0] && !strcmp(s->name, name)) {
			s->used = ++d->tick;
			return s;
		}
		if (s->used < lru->used)
			lru = s;
	}
	if (!make)
		return NULL;
	d->cut_short += lru->open;
	memset(lru, 0, sizeof(*lru));
	strcpy(lru->name, name);
	lru->used = ++d->tick;
	return lru;
}

/* "event 0x10 received:": an event opens; one still open was cut short. */
static enum iommu_line smmu_header(struct iommu_fault_decoder *d,
				   const struct smmu_line *l,
				   const struct iommu_fault *f)
{
	struct iommu_smmu_state *s = smmu_state(d, l->name, true);

	d->cut_short += s->open;
	s->open = true;
	s->nwords = 0;
	s->head = *f;
	s->head.code = (uint32_t)l->value;
	return IOMMU_LINE_PART;
}

/* A whole fault of s: kept as the one its later lines complete. */
static enum iommu_line smmu_fault(struct iommu_smmu_state *s,
				  const struct iommu_fault *f)
{
	s->last = *f;
	s->has_last = true;
	return IOMMU_LINE_FAULT;
}

/* One of the four words; the fourth makes the fault. */
static enum iommu_line smmu_add_word(struct iommu_fault_decoder *d,
				     const struct smmu_line *l,
				     struct iommu_fault *out)
{
	struct iommu_smmu_state *s = smmu_state(d, l->name, false);

	if (!s || !s->open)
		return IOMMU_LINE_OTHER;	/* its header was never seen */
	s->words[s->nwords++] = l->value;
	if (s->nwords < 4)
		return IOMMU_LINE_PART;
	s->open = false;
	if ((s->words[0] & EVTQ_0_ID_MASK) != s->head.code)
		return IOMMU_LINE_MALFORMED;	/* not the header's event */
	*out = s->head;
	smmu_decode_words(s->words, out);
	return smmu_fault(s, out);
}

/*
 * 6.15+'s "event:" line after the raw words of the same event names the
 * client: the fault returned already, completed (DETAIL).  Alone (the
 * raw lines lost, or pasted without them) it is a fault of its own.
 */
static enum iommu_line smmu_event(struct iommu_fault_decoder *d,
				  const struct smmu_line *l,
				  struct iommu_fault *out)
{
	struct iommu_smmu_state *s = smmu_state(d, l->name, true);
	struct iommu_fault *last = &s->last;

	if (s->open) {
		d->cut_short++;
		s->open = false;
	}
	if (s->has_last && last->sid == out->sid && last->code == out->code &&
	    last->has_iova == out->has_iova && last->iova == out->iova &&
	    !last->device[0]) {
		strcpy(last->device, out->device);
		*out = *last;
		return IOMMU_LINE_DETAIL;
	}
	return smmu_fault(s, out);
}

/* The access line completes a fault that came without one. */
static enum iommu_line smmu_access(struct iommu_fault_decoder *d,
				   const struct smmu_line *l,
				   struct iommu_fault *out)
{
	struct iommu_smmu_state *s = smmu_state(d, l->name, false);

	if (!s || !s->has_last || s->last.access != IOMMU_ACCESS_UNKNOWN)
		return IOMMU_LINE_OTHER;
	s->last.access = out->access;
	*out = s->last;
	return IOMMU_LINE_DETAIL;
}

enum iommu_line iommu_fault_decode(struct iommu_fault_decoder *d,
				   const char *line, size_t len,
				   struct iommu_fault *out)
{
	struct smmu_line sl;
	enum iommu_line r = line_alone(line, len, &sl, out);

	if (sl.kind == SMMU_NONE || r == IOMMU_LINE_OTHER ||
	    r == IOMMU_LINE_MALFORMED)
		return r;
	switch (sl.kind) {
	case SMMU_HEADER:
		return smmu_header(d, &sl, out);
	case SMMU_WORD:
		return smmu_add_word(d, &sl, out);
	case SMMU_EVENT:
		return smmu_event(d, &sl, out);
	default:	/* SMMU_ACCESS */
		return smmu_access(d, &sl, out);
	}
}

unsigned int iommu_fault_decoder_pending(const struct iommu_fault_decoder *d)
{
	unsigned int n = 0;

	for (size_t i = 0; i < IOMMU_DECODER_SMMUS; i++)
		n += d->smmu[i].open;
	return n;
}

/* ---- repeats collapsed ---------------------------------------------- */

static bool same_source(const struct iommu_fault *a, const struct iommu_fault *b)
{
	if (a->iommu != b->iommu || strcmp(a->device, b->device))
		return false;
	if (a->device[0])
		return true;
	return !strcmp(a->iommu_dev, b->iommu_dev) && a->has_sid == b->has_sid &&
	       a->sid == b->sid;
}

static bool same_group(const struct iommu_fault *a, const struct iommu_fault *b,
		       uint64_t page_size)
{
	if (!same_source(a, b) || a->access != b->access ||
	    a->has_iova != b->has_iova)
		return false;
	return !a->has_iova || a->iova / page_size == b->iova / page_size;
}

static void group_time(struct iommu_fault_group *g, const struct iommu_fault *f)
{
	if (!f->has_time)
		return;
	if (!g->first.has_time) {
		g->first.has_time = true;
		g->first.time_us = g->first_us = g->last_us = f->time_us;
		return;
	}
	if (f->time_us < g->first_us)
		g->first_us = f->time_us;
	if (f->time_us > g->last_us)
		g->last_us = f->time_us;
}

bool iommu_fault_group_add(struct iommu_fault_group *groups, size_t *n,
			   size_t cap, const struct iommu_fault *f,
			   uint64_t page_size)
{
	page_size = page_size ? page_size : 1;
	for (size_t i = 0; i < *n; i++)
		if (same_group(&groups[i].first, f, page_size)) {
			groups[i].count++;
			group_time(&groups[i], f);
			return true;
		}
	if (*n >= cap)
		return false;
	groups[*n].first = *f;
	groups[*n].count = 1;
	groups[*n].first_us = groups[*n].last_us = f->time_us;
	(*n)++;
	return true;
}

size_t iommu_fault_collapse(const struct iommu_fault *in, size_t n,
			    uint64_t page_size, struct iommu_fault_group *out,
			    size_t cap, size_t *dropped)
{
	size_t groups = 0;

	*dropped = 0;
	for (size_t i = 0; i < n; i++)
		if (!iommu_fault_group_add(out, &groups, cap, &in[i], page_size))
			(*dropped)++;
	return groups;
}

/* ---- names ---------------------------------------------------------- */

const char *iommu_kind_name(enum iommu_kind k)
{
	static const char *const names[] = {
		[IOMMU_KIND_NONE] = "none", [IOMMU_KIND_VTD] = "vt-d",
		[IOMMU_KIND_AMD_VI] = "amd-vi", [IOMMU_KIND_SMMU_V3] = "smmu-v3",
		[IOMMU_KIND_VIRTIO] = "virtio-iommu",
	};

	return (unsigned int)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

const char *iommu_access_name(enum iommu_access a)
{
	static const char *const names[] = {
		[IOMMU_ACCESS_UNKNOWN] = "unknown", [IOMMU_ACCESS_READ] = "read",
		[IOMMU_ACCESS_WRITE] = "write",
		[IOMMU_ACCESS_READ_WRITE] = "read-write",
	};

	return (unsigned int)a < sizeof(names) / sizeof(names[0]) ? names[a] : "?";
}

const char *iommu_class_name(enum iommu_fault_class c)
{
	static const char *const names[] = {
		[IOMMU_CLASS_OTHER] = "other", [IOMMU_CLASS_UNMAPPED] = "unmapped",
		[IOMMU_CLASS_PERMISSION] = "permission",
		[IOMMU_CLASS_PAGE] = "page", [IOMMU_CLASS_ADDRESS] = "address",
		[IOMMU_CLASS_CONTEXT] = "context",
		[IOMMU_CLASS_INTERRUPT] = "interrupt",
		[IOMMU_CLASS_HARDWARE] = "hardware",
	};

	return (unsigned int)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}
