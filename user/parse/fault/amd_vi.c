// SPDX-License-Identifier: GPL-2.0
/*
 * AMD-Vi: iommu_print_event(), amd_iommu_report_page_fault() and
 * amd_iommu_report_rmp_*() of drivers/iommu/amd/iommu.c
 * (drivers/iommu/amd_iommu.c 3.1-5.6).  The forms, oldest first:
 *
 *   up to 4.8, one line: printk(KERN_ERR "AMD-Vi: Event logged [") and
 *     the event's own printk() ("IO_PAGE_FAULT device=%02x:%02x.%x
 *     domain=0x%04x address=0x%016llx flags=0x%04x]"), joined; 2.6's
 *     "AMD IOMMU: " before it;
 *   4.9-4.18, the same two printk()s as two records (printk() stopped
 *     joining them): "AMD-Vi: Event logged [" alone, the event next;
 *   4.19-5.4, a page fault of a device the driver knows through
 *     dev_err(): "ahci 0000:02:00.1: AMD-Vi: Event logged [IO_PAGE_FAULT
 *     domain=0x%04x address=0x%016llx flags=0x%04x]", other events as
 *     two dev_err() records ("... Event logged [" and "pci 0000:..:
 *     ILLEGAL_DEV_TABLE_ENTRY device=...]");
 *   5.5 on, one record each, pr_fmt/dev_fmt "AMD-Vi: " (some builds
 *     print "xhci_hcd 0000:01:00.0: Event logged [IO_PAGE_FAULT ...]"
 *     without it), address= as 0x%llx; the IOMMU's own events as
 *     "iommu ivhd0: AMD-Vi: Event logged [...]";
 *   5.19 on, device= with the PCI segment, "%04x:%02x:%02x.%x";
 *   6.x, a domain-less device: "Event logged [Device not attached to
 *     domain properly]" then "  device=%04x:%02x:%02x.%x domain=0x%04x";
 *   the events: ILLEGAL_DEV_TABLE_ENTRY, IO_PAGE_FAULT,
 *     DEV_TAB_HARDWARE_ERROR, PAGE_TAB_HARDWARE_ERROR,
 *     ILLEGAL_COMMAND_ERROR, COMMAND_HARDWARE_ERROR, IOTLB_INV_TIMEOUT,
 *     INVALID_DEVICE_REQUEST, INVALID_PPR_REQUEST, RMP_PAGE_FAULT and
 *     RMP_HW_ERROR ("key=0x%x, " lists), and "UNKNOWN event[0]=..."
 *     (no "]").
 */
#include <string.h>
#include "parse/fault/fault_driver.h"

#define AMD "amd-vi"
#define AMD_TAG "Event logged ["

/*
 * The events (EVENT_TYPE_* of amd_iommu_types.h) and whether their
 * address= (or RMP_PAGE_FAULT's gpa=) is the device's.
 */
static const struct amd_event {
	const char *name;
	uint32_t type;
	enum iommu_fault_class cls;
	bool device_address;
} amd_events[] = {
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

/* Whether p starts with an event's name and a blank. */
static bool amd_names_event(const char *p)
{
	char name[32];

	return fault_word(p, " ", name, sizeof(name)) && amd_event(name);
}

/* An open "Event logged [" of 4.9-4.19, waiting for its event. */
struct amd_state {
	struct iommu_fault head;
	bool open;
	bool not_attached;	/* 6.x: "device=... domain=..." comes next */
	unsigned int cut_short;
};

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
	if ((f->flags & AMD_PF_GN) && f->has_domain_id)
		f->pasid = f->domain_id, f->has_pasid = true;
}

/* One "key=0x..." (or device=BDF) of the event, and its trailing ','. */
static const char *amd_key(const char *p, struct iommu_fault *f,
			   const struct amd_event *e)
{
	char key[16];
	uint64_t v;

	if (!(p = fault_word(p, "=] ", key, sizeof(key))) || *p++ != '=')
		return NULL;
	if (!strcmp(key, "device"))
		p = fault_bdf(p, f->device);
	else if (!(p = fault_hex0x(p, &v)))
		return NULL;
	else if (!strcmp(key, "address") || !strcmp(key, "gpa"))
		f->iova = v, f->has_iova = e && e->device_address;
	else if (!strcmp(key, "domain") && v <= UINT32_MAX)
		f->domain_id = (uint32_t)v, f->has_domain_id = true;
	else if (!strcmp(key, "pasid") && v <= UINT32_MAX)
		f->pasid = (uint32_t)v, f->has_pasid = true;
	else if (!strcmp(key, "flags") && v <= UINT32_MAX)
		f->flags = (uint32_t)v, f->has_flags = true;
	return p && *p == ',' ? p + 1 : p;
}

/*
 * The keys, each after blanks, up to "]" and the end (or the end alone,
 * for !bracket).
 */
static enum iommu_line amd_keys(const char *p, struct iommu_fault *f,
				const struct amd_event *e, bool bracket)
{
	for (;;) {
		p += strspn(p, " ");
		if (!*p || *p == ']')
			break;
		if (!(p = amd_key(p, f, e)) || (*p && *p != ' ' && *p != ']'))
			return fault_malformed(f, AMD, f->format,
					       "a field not \"key=value\"");
	}
	if (bracket ? *p != ']' || p[1 + strspn(p + 1, " \t")] : *p != '\0')
		return fault_malformed(f, AMD, f->format,
				       bracket ? "no \"]\" after the fields" :
				       "a field not \"key=value\"");
	return IOMMU_LINE_FAULT;
}

/* 6.12's two lines for a device without a domain: the first names none. */
#define AMD_NOT_ATTACHED "Device not attached to domain properly]"

/* The event from its name on: "IO_PAGE_FAULT device=... ]". */
static enum iommu_line amd_body(const char *p, struct iommu_fault *f)
{
	const struct amd_event *e;
	enum iommu_line r;

	f->iommu = AMD;
	if (fault_lit(p, "UNKNOWN ")) {
		fault_set_reason(f, "UNKNOWN");
		return IOMMU_LINE_FAULT;	/* raw words, no "]" */
	}
	if (!(p = fault_word(p, " ]", f->reason, sizeof(f->reason))))
		return fault_malformed(f, AMD, f->format, "no event name");
	e = amd_event(f->reason);
	if (!e)
		return fault_malformed(f, AMD, f->format,
				       "an event type this decoder does not know");
	f->code = e->type, f->has_code = true;
	f->cls = e->cls;
	if ((r = amd_keys(p, f, e, true)) != IOMMU_LINE_FAULT)
		return r;
	if (e->type == 0x2)
		amd_page_fault(f);
	return IOMMU_LINE_FAULT;
}

/*
 * dev_printk()'s "DRIVER DEVICE: " before the tag: a PCI device (the
 * faulting one: amd_iommu_report_page_fault()) or the IOMMU's
 * ("iommu ivhd0").
 */
static void amd_prefix(const char *msg, const char *at, struct iommu_fault *f,
		       bool by_device)
{
	char name[IOMMU_FAULT_NAME_MAX], bdf[IOMMU_FAULT_NAME_MAX];
	const char *end;

	if (!fault_dev_prefix(msg, at, name, sizeof(name)))
		return;
	end = fault_bdf(name, bdf);
	if (end && !*end && by_device)
		strcpy(f->device, bdf);
	else if (end && !*end)
		strcpy(f->iommu_dev, bdf);	/* the IOMMU's PCI function */
	else if ((size_t)(at - msg) >= strlen(name) + 8 &&
		 !strncmp(at - 2 - strlen(name) - 6, "iommu ", 6))
		strcpy(f->iommu_dev, name);	/* the IOMMU's "iommu ivhd0" */
}

/* A one-record format and its releases, from what the line shows. */
static const char *amd_format(const char *body, bool pci_prefix)
{
	const char *d = strstr(body, " device=");
	size_t n = d ? strcspn(d + 8, " ,]") : 0, colons = 0;

	if (pci_prefix)
		return "4.19+, named by the device (dev_err)";
	for (size_t i = 0; i < n; i++)
		colons += d[8 + i] == ':';
	return colons == 2 ? "5.19+, with the PCI segment" :
	       "one line, up to 4.8 and 4.19-5.18";
}

/*
 * Where the second record's event begins: at its start (4.9-4.18's
 * printk()), after dev_err()'s "DRIVER DEVICE: " (4.19-5.4), or after
 * pr_fmt's "AMD-Vi: " (the "Device not attached" pair).
 */
static const char *amd_second_start(const char *msg, bool *prefixed)
{
	const char *colon = strstr(msg, ": ");
	const char *blank = strchr(msg, ' ');

	*prefixed = false;
	if (fault_lit(msg, "AMD-Vi: "))
		return msg + strlen("AMD-Vi: ");
	/* "DRIVER DEVICE: ": one blank before the colon */
	if (colon && blank && blank > msg && blank + 1 < colon &&
	    !memchr(blank + 1, ' ', (size_t)(colon - blank - 1))) {
		*prefixed = true;
		return colon + 2;
	}
	return msg;
}

/* The record after an open "Event logged [": the event, or OTHER. */
static enum iommu_line amd_second(struct amd_state *s, const char *msg,
				  struct iommu_fault *f)
{
	const struct iommu_fault line2 = *f;
	enum iommu_line r;
	bool prefixed;
	const char *p = amd_second_start(msg, &prefixed);
	char name[32];

	if (!s->open)
		return IOMMU_LINE_OTHER;
	if (s->not_attached) {
		p += strspn(p, " ");
		if (!fault_lit(p, "device="))
			return IOMMU_LINE_OTHER;
		s->open = s->not_attached = false;
		*f = s->head;
		f->format = "6.x, two records";
		return amd_keys(p, f, NULL, false);
	}
	if (!fault_word(p, " ]", name, sizeof(name)) ||
	    (!amd_event(name) && strcmp(name, "UNKNOWN")))
		return IOMMU_LINE_OTHER;
	s->open = false;
	*f = s->head;
	if (!f->has_time)
		f->time_us = line2.time_us, f->has_time = line2.has_time;
	f->format = prefixed ? "4.19-5.4, two records" :
		    "4.9-4.18, split over two lines";
	r = amd_body(p, f);
	f->format = prefixed ? "4.19-5.4, two records" :
		    "4.9-4.18, split over two lines";
	return r;
}

static enum iommu_line amd_decode(void *state, const char *msg,
				  struct iommu_fault *f)
{
	struct amd_state *s = state;
	const char *tag = strstr(msg, AMD_TAG), *at;
	bool amd_vi, pci_prefix, unattached;
	enum iommu_line r;

	if (!tag)
		return amd_second(s, msg, f);
	amd_vi = tag - msg >= 8 && !strncmp(tag - 8, "AMD-Vi: ", 8);
	at = amd_vi ? tag - 8 : tag;
	if (!amd_vi && tag - msg >= 11 && !strncmp(tag - 11, "AMD IOMMU: ", 11))
		amd_vi = true, at = tag - 11;	/* 2.6's pr_fmt */
	/* only page faults are reported by the faulting device */
	amd_prefix(msg, at, f, fault_lit(tag + strlen(AMD_TAG), "IO_PAGE_FAULT ") ||
			       fault_lit(tag + strlen(AMD_TAG), "RMP_"));
	pci_prefix = f->device[0] != '\0';
	/*
	 * Without "AMD-Vi: " (a device's dev_err(), or the message alone),
	 * only when an AMD-Vi event follows: other drivers log events too.
	 */
	if (!amd_vi && !amd_names_event(tag + strlen(AMD_TAG)))
		return IOMMU_LINE_OTHER;
	f->iommu = AMD;
	unattached = fault_lit(tag + strlen(AMD_TAG), AMD_NOT_ATTACHED) != NULL;
	if (unattached) {
		f->cls = IOMMU_CLASS_CONTEXT;
		fault_set_reason(f, "Device not attached to domain properly");
	}
	if (unattached ||
	    !tag[strlen(AMD_TAG) + strspn(tag + strlen(AMD_TAG), " ")]) {
		s->cut_short += s->open;
		s->head = *f;
		s->open = true;
		s->not_attached = unattached;
		return IOMMU_LINE_PART;
	}
	r = amd_body(tag + strlen(AMD_TAG), f);
	if (r == IOMMU_LINE_FAULT)
		f->format = amd_format(tag, pci_prefix);
	return r;
}

static unsigned int amd_pending(const void *state)
{
	const struct amd_state *s = state;

	return s->open + s->cut_short;
}

const struct fault_driver fault_driver_amd_vi = {
	.name = AMD,
	.source = "drivers/iommu/amd/iommu.c",
	.decode = amd_decode,
	.state_size = sizeof(struct amd_state),
	.pending = amd_pending,
};

_Static_assert(sizeof(struct amd_state) <= IOMMU_DRIVER_STATE_MAX, "amd_vi: state too big");
