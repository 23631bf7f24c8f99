// SPDX-License-Identifier: GPL-2.0
/*
 * Intel VT-d: dmar_fault_do_one() of drivers/iommu/intel/dmar.c
 * (drivers/iommu/dmar.c before 5.7, drivers/pci/dmar.c before 3.1).
 * The formats, oldest first (each read in that release's source):
 *
 *   3.x-4.6, one printk() of two lines (the first after pr_fmt's
 *   "dmar: " in 3.x, "DMAR: " from 4.1; the second without it; a
 *   console may glue them back into one):
 *     "DMAR:[%s] Request device [%02x:%02x.%d] fault addr %llx \n"
 *     "DMAR:[fault reason %02d] %s\n"
 *     "INTR-REMAP: Request device [[%02x:%02x.%d] fault index %llx\n"
 *     "INTR-REMAP:[fault reason %02d] %s\n"
 *   4.7-5.4, pr_fmt "DMAR: ":
 *     "[%s] Request device [%02x:%02x.%d] fault addr %llx [fault reason %02d] %s"
 *     "[INTR-REMAP] Request device [%02x:%02x.%d] fault index %llx [fault reason %02d] %s"
 *   5.5-5.13, the PASID (ffffffff: none):
 *     "[%s] Request device [%02x:%02x.%d] PASID %x fault addr %llx [fault reason %02d] %s"
 *   5.14:
 *     "[%s NO_PASID] Request device [0x%02x:0x%02x.%d] fault addr 0x%llx [fault reason 0x%02x] %s"
 *     "[%s PASID 0x%x] Request device [0x%02x:0x%02x.%d] fault addr 0x%llx [fault reason 0x%02x] %s"
 *     "[INTR-REMAP] Request device [0x%02x:0x%02x.%d] fault index 0x%llx [fault reason 0x%02x] %s"
 *   5.15 on: the same without the device's "0x"; a 7.2 tree seen
 *     prints the PCI segment, "[%04x:%02x:%02x.%d]" (read too).
 * Between the faults: "DRHD: handling fault status reg %x" (a known
 * line, no fault).
 * %s is "DMA Read" or "DMA Write"; reasons 0x30 on are scalable mode's.
 */
#include <string.h>
#include "parse/fault/fault_driver.h"

#define VTD "vt-d"

/* What a line showed of its era's format. */
struct vtd_seen {
	bool two_lines;		/* 3.x-4.6's "DMAR:[" */
	bool intr;		/* an interrupt-remapping fault */
	bool pasid_tag;		/* "[%s NO_PASID]", "[%s PASID 0x%x]" */
	bool pasid_field;	/* "PASID %x fault addr" */
	bool dev_0x;		/* "[0x%02x:0x%02x.%d]" */
	bool segment;		/* "[%04x:%02x:%02x.%d]" */
	bool reason_0x;		/* "[fault reason 0x%02x]" */
};

/* The formats: the releases printing each, and what it shows. */
static const struct vtd_format {
	const char *releases;
	struct vtd_seen seen;
} vtd_formats[] = {
	{ "3.x-4.6, two lines", { .two_lines = true } },
	{ "3.x-4.6, two lines", { .two_lines = true, .intr = true } },
	{ "4.7-5.4", { 0 } },
	{ "4.7-5.13", { .intr = true } },
	{ "5.5-5.13", { .pasid_field = true } },
	{ "5.14", { .pasid_tag = true, .dev_0x = true, .reason_0x = true } },
	{ "5.14", { .intr = true, .dev_0x = true, .reason_0x = true } },
	{ "5.15+", { .pasid_tag = true, .reason_0x = true } },
	{ "5.15+", { .intr = true, .reason_0x = true } },
	{ "newest, with the PCI segment",
	  { .pasid_tag = true, .segment = true, .reason_0x = true } },
	{ "newest, with the PCI segment",
	  { .intr = true, .segment = true, .reason_0x = true } },
};

static const char *vtd_releases(const struct vtd_seen *s)
{
	for (size_t i = 0; i < sizeof(vtd_formats) / sizeof(vtd_formats[0]); i++)
		if (!memcmp(&vtd_formats[i].seen, s, sizeof(*s)))
			return vtd_formats[i].releases;
	return NULL;
}

/* The first of the two lines of 3.x-4.6, waiting for its reason. */
struct vtd_state {
	struct iommu_fault head;
	struct vtd_seen seen;
	bool open;
	unsigned int cut_short;
};

/*
 * The reasons of dmar_get_fault_reason(): 0x00-0x0d legacy DMA remapping,
 * 0x20-0x26 interrupt remapping, 0x30-0x90 scalable mode.
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

/* "0x" and hex (5.14 on), or decimal ("%02d" before); at most 0xff. */
static const char *vtd_reason_code(const char *p, uint32_t *code,
				   struct vtd_seen *seen)
{
	uint64_t v = 0;

	seen->reason_0x = fault_lit(p, "0x") != NULL;
	p = seen->reason_0x ? fault_hex(p + 2, &v) : fault_dec(p, &v);
	*code = (uint32_t)v;
	return p && v <= 0xff ? p : NULL;
}

/* "[fault reason N] TEXT", the end of every format; the fault whole. */
static enum iommu_line vtd_reason(const char *p, struct iommu_fault *f,
				  struct vtd_seen *seen)
{
	p = vtd_reason_code(fault_lit(p, "[fault reason "), &f->code, seen);
	if (!(p = fault_lit(p, "] ")) || !*p)
		return fault_malformed(f, VTD, vtd_releases(seen),
				       "no \"[fault reason N] TEXT\" at its end");
	f->has_code = true;
	fault_set_reason(f, p);
	if (!f->reason[0])
		return fault_malformed(f, VTD, vtd_releases(seen),
				       "an empty reason");
	if (f->cls == IOMMU_CLASS_OTHER)
		f->cls = vtd_class(f->code);
	f->iommu = VTD;
	f->format = vtd_releases(seen);
	if (!f->format)
		return fault_malformed(f, VTD, NULL,
				       "fields of different kernel releases mixed");
	return IOMMU_LINE_FAULT;
}

static size_t colons(const char *p, const char *end)
{
	size_t n = 0;

	for (; p < end; p++)
		n += *p == ':';
	return n;
}

/* "Request device [" and the PCI address in any era's form, "]". */
static const char *vtd_device(const char *p, struct iommu_fault *f,
			      struct vtd_seen *seen)
{
	const char *q = fault_lit(p, "Request device [");
	const char *end;

	if (q && seen->two_lines && seen->intr)
		q = fault_lit(q, "[");	/* 3.x's "[[%02x:%02x.%d]" */
	if (!q)
		return NULL;
	seen->dev_0x = fault_lit(q, "0x") != NULL;
	end = fault_bdf(q, f->device);
	/* three fields: "%04x:%02x:%02x.%d" */
	seen->segment = end && colons(q, end) == 2;
	return fault_lit(end, "]");
}

/* After the address or index: the reason, or the end of line 1. */
static enum iommu_line vtd_tail(const char *p, struct iommu_fault *f,
				struct vtd_seen *seen)
{
	const char *q = p ? p + strspn(p, " ") : NULL;

	if (seen->two_lines && (fault_lit(q, "DMAR:[fault reason ") ||
				fault_lit(q, "INTR-REMAP:[fault reason ")))
		return vtd_reason(strchr(q, '['), f, seen);	/* line 2 glued on */
	if (seen->two_lines)
		return p && !p[strspn(p, " ")] ? IOMMU_LINE_PART :
		       fault_malformed(f, VTD, vtd_releases(seen),
				       "more after the address than a two-line fault's first line has");
	if (!(p = fault_lit(p, " ")))
		return fault_malformed(f, VTD, vtd_releases(seen),
				       "nothing readable after the address");
	return vtd_reason(p, f, seen);
}

/* "Request device [..] fault index N" and what follows. */
static enum iommu_line vtd_intr(const char *p, struct iommu_fault *f,
				struct vtd_seen *seen)
{
	uint64_t index;

	seen->intr = true;
	f->cls = IOMMU_CLASS_INTERRUPT;
	p = fault_hex_maybe0x(fault_lit(vtd_device(p, f, seen),
					" fault index "), &index);
	if (!p)
		return fault_malformed(f, VTD, NULL,
				       "no \"Request device [BDF] fault index N\"");
	return vtd_tail(p, f, seen);
}

/* "DMA Read" or "DMA Write", then the PASID tag of 5.14 on, "] ". */
static const char *vtd_type(const char *p, struct iommu_fault *f,
			    struct vtd_seen *seen)
{
	const char *q;

	if ((q = fault_lit(p, "DMA Read")))
		f->access = IOMMU_ACCESS_READ;
	else if ((q = fault_lit(p, "DMA Write")))
		f->access = IOMMU_ACCESS_WRITE;
	else
		return NULL;
	if ((p = fault_lit(q, " NO_PASID]"))) {
		seen->pasid_tag = true;
	} else if ((p = fault_lit(q, " PASID 0x"))) {
		seen->pasid_tag = true;
		f->has_pasid = true;
		p = fault_lit(fault_hex32(p, &f->pasid), "]");
	} else {
		p = fault_lit(q, "]");
	}
	return fault_lit(p, " ");
}

/* "Request device [...] [PASID %x ]fault addr A" and what follows. */
static enum iommu_line vtd_dma(const char *p, struct iommu_fault *f,
			       struct vtd_seen *seen)
{
	const char *q;

	p = vtd_device(p, f, seen);
	if ((q = fault_lit(p, " PASID "))) {
		seen->pasid_field = true;
		p = fault_hex32(q, &f->pasid);
		f->has_pasid = p && f->pasid != UINT32_MAX;	/* -1: none */
	}
	p = fault_hex_maybe0x(fault_lit(p, " fault addr "), &f->iova);
	if (!p)
		return fault_malformed(f, VTD, NULL,
				       "no \"Request device [BDF] fault addr A\"");
	f->has_iova = true;
	return vtd_tail(p, f, seen);
}

/* Line 2 of 3.x-4.6, "DMAR:[fault reason 06] ...": completes line 1. */
static enum iommu_line vtd_second(struct vtd_state *s, const char *p,
				  struct iommu_fault *f)
{
	const struct iommu_fault line2 = *f;

	if (!s->open)
		return fault_malformed(f, VTD, "3.x-4.6, two lines",
				       "a \"[fault reason]\" line without the \"Request device\" line before it");
	s->open = false;
	*f = s->head;
	if (!f->has_time)	/* line 1 pasted without its stamp */
		f->time_us = line2.time_us, f->has_time = line2.has_time;
	return vtd_reason(p, f, &s->seen);
}

/* Line 1 of 3.x-4.6 kept until its reason comes. */
static enum iommu_line vtd_first(struct vtd_state *s, enum iommu_line r,
				 const struct iommu_fault *f,
				 const struct vtd_seen *seen)
{
	if (r != IOMMU_LINE_PART)
		return r;
	s->cut_short += s->open;
	s->head = *f;
	s->seen = *seen;
	s->open = true;
	return r;
}

/* 3.x-4.6: "DMAR:[...", "INTR-REMAP:[...", "INTR-REMAP: Request ..." */
static enum iommu_line vtd_old(struct vtd_state *s, const char *msg,
			       struct iommu_fault *f)
{
	struct vtd_seen seen = { .two_lines = true };
	const char *p;

	f->iommu = VTD;
	if ((p = strstr(msg, "INTR-REMAP: Request device [[")))
		return vtd_first(s, vtd_intr(p + strlen("INTR-REMAP: "), f,
					     &seen), f, &seen);
	if (!(p = strstr(msg, "INTR-REMAP:[")) && !(p = strstr(msg, "DMAR:[")))
		return IOMMU_LINE_OTHER;
	p = strchr(p, '[');
	if (fault_lit(p, "[fault reason "))
		return vtd_second(s, p, f);
	if (!(p = vtd_type(p + 1, f, &seen)))
		return fault_malformed(f, VTD, "3.x-4.6, two lines",
				       "neither \"DMA Read\" nor \"DMA Write\"");
	return vtd_first(s, vtd_dma(p, f, &seen), f, &seen);
}

static enum iommu_line vtd_decode(void *state, const char *msg,
				  struct iommu_fault *f)
{
	struct vtd_seen seen = { 0 };
	enum iommu_line r = vtd_old(state, msg, f);
	const char *p, *q;

	if (r != IOMMU_LINE_OTHER)
		return r;
	if (fault_lit(fault_lit(msg, "dmar: ") ? msg + 6 :
		      fault_lit(msg, "DMAR: ") ? msg + 6 : msg,
		      "DRHD: handling fault status reg"))
		return IOMMU_LINE_KNOWN;	/* 3.x's "dmar: DRHD: ..." too */
	if (!(p = strstr(msg, "DMAR: ")))
		return IOMMU_LINE_OTHER;
	p += strlen("DMAR: ");
	if (fault_lit(p, "DRHD: handling fault status reg"))
		return IOMMU_LINE_KNOWN;	/* after a shell's "# " too */
	if (!(p = fault_lit(p, "[")))
		return IOMMU_LINE_OTHER;
	f->iommu = VTD;
	if ((q = fault_lit(p, "INTR-REMAP] ")))
		return vtd_intr(q, f, &seen);
	if ((q = vtd_type(p, f, &seen)))
		return vtd_dma(q, f, &seen);
	if (fault_lit(p, "DMA ") || strstr(p, "Request device [") ||
	    strstr(p, "fault"))
		return fault_malformed(f, VTD, NULL,
				       "a request type other than DMA Read, DMA Write, INTR-REMAP");
	return IOMMU_LINE_OTHER;	/* "DMAR: [Firmware Bug]: ..." */
}

static unsigned int vtd_pending(const void *state)
{
	const struct vtd_state *s = state;

	return s->open + s->cut_short;
}

const struct fault_driver fault_driver_vtd = {
	.name = VTD,
	.source = "drivers/iommu/intel/dmar.c",
	.decode = vtd_decode,
	.state_size = sizeof(struct vtd_state),
	.pending = vtd_pending,
};

_Static_assert(sizeof(struct vtd_state) <= IOMMU_DRIVER_STATE_MAX, "vtd: state too big");
