// SPDX-License-Identifier: GPL-2.0
/*
 * Arm SMMUv3: drivers/iommu/arm/arm-smmu-v3/arm-smmu-v3.c
 * (drivers/iommu/arm-smmu-v3.c before 5.9).
 *   4.2 on, arm_smmu_evtq_thread(): "event 0x%02x received:" and the
 *     event's four 64-bit words, each "\t0x%016llx", at dev_info();
 *   6.15 on, after the words, arm_smmu_dump_event()'s decoded lines:
 *     "event: %s client: %s sid: %#x ssid: %#x" then " iova: %#llx ipa:
 *     %#llx" (translation faults), " fetch_addr: %#llx" (fetch faults)
 *     or nothing, and "%s %s %s %s \"%s%s%s\" stag: %#x" (priv/unpriv,
 *     inst/data, read/write, s1/s2, ...).
 * Every line starts "arm-smmu-v3 NAME: " (dev_printk()).  An event's
 * lines are kept per SMMU, so lines of other SMMUs between them leave it
 * whole.
 */
#include <string.h>
#include "parse/fault/fault_driver.h"

#define SMMU "smmu-v3"

/* SMMUs followed at once; more evict the least recent. */
#define SMMU_V3_MAX	8

struct smmu_one {
	struct fault_slot slot;		/* first: fault_slot_find() */
	uint64_t words[4];
	unsigned int nwords;	/* 0-3 words of the open event */
	bool open;		/* an "event 0x.. received:" line seen */
	struct iommu_fault head;	/* the header line's time, seq, prio */
	struct iommu_fault last;	/* the fault returned last */
	bool has_last;
};

struct smmu_v3_state {
	struct smmu_one smmu[SMMU_V3_MAX];
	uint64_t tick;
	uint64_t cut_short;	/* events whose words never all came */
};

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
	f->code = id, f->has_code = true;
	f->cls = IOMMU_CLASS_OTHER;
	fault_set_reason(f, "UNKNOWN");
	for (size_t i = 0; i < SMMU_NEVENTS; i++)
		if (smmu_events[i].id == id) {
			f->cls = smmu_events[i].cls;
			fault_set_reason(f, smmu_events[i].name);
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
	p = fault_lit(p, "\\x09") ? p + 4 : p;
	p = fault_hex0x(p, v);
	return p && !*p ? p : NULL;
}

/* "ssid: 0" is IOMMU_NO_PASID: 6.15+ prints 0 when SSV is clear. */
static const char *smmu_ids(const char *p, struct iommu_fault *f)
{
	uint64_t sid, ssid;

	p = fault_hash_x(fault_lit(p, " sid: ") ? p + 6 : "", &sid);
	if (!p || sid > UINT32_MAX || !(p = fault_lit(p, " ssid: ")))
		return NULL;
	if (!(p = fault_hash_x(p, &ssid)) || ssid > UINT32_MAX)
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

	if (!(p = fault_lit(p, " client: ")))
		return NULL;
	if ((q = fault_lit(p, "(unassigned sid)")))
		return q;
	if (!(q = fault_word(p, " ", name, sizeof(name))))
		return NULL;
	p = fault_bdf(name, f->device);
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

	if (!(p = fault_word(p, " ", f->reason, sizeof(f->reason))))
		return false;
	smmu_name_event(f, smmu_event_id(f->reason, &id) ? id : 0xff);
	if (!(p = smmu_ids(smmu_client(p, f), f)))
		return false;
	if (fault_lit(p, " iova: ")) {
		p = fault_hash_x(fault_lit(fault_hash_x(p + 7, &f->iova), " ipa: "), &ipa);
		f->has_iova = p != NULL;
	} else if (fault_lit(p, " fetch_addr: ")) {
		p = fault_hash_x(p + 13, &ipa);
	}
	return p && !*p;
}

/* "%s %s %s %s ...": priv/unpriv, inst/data, read/write, s1/s2. */
static bool smmu_access_line(const char *p, struct iommu_fault *f)
{
	bool inst;

	p = fault_lit(p, "priv ") ? p + 5 : fault_lit(p, "unpriv ");
	inst = fault_lit(p, "inst ") != NULL;
	p = p && (inst || fault_lit(p, "data ")) ? p + 5 : NULL;
	if (fault_lit(p, "read "))
		f->access = inst ? IOMMU_ACCESS_EXEC : IOMMU_ACCESS_READ;
	else if (fault_lit(p, "write "))
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

	if ((q = fault_lit(p, "event 0x"))) {
		l->kind = SMMU_HEADER;
		q = fault_hex(q, &l->value);
		return q && l->value <= 0xff && !strcmp(q, " received:") ?
		       IOMMU_LINE_PART :
		       fault_malformed(f, SMMU, "4.2+, raw words",
				       "not \"event 0xNN received:\"");
	}
	if ((q = fault_lit(p, "event: "))) {
		l->kind = SMMU_EVENT;
		f->format = "6.15+, decoded";
		return smmu_event_line(q, f) ? IOMMU_LINE_FAULT :
		       fault_malformed(f, SMMU, "6.15+, decoded",
				       "not \"event: NAME client: DEV sid: N ssid: N ...\"");
	}
	if (fault_lit(p, "priv ") || fault_lit(p, "unpriv ")) {
		l->kind = SMMU_ACCESS;
		return smmu_access_line(p, f) ? IOMMU_LINE_DETAIL :
		       fault_malformed(f, SMMU, "6.15+, decoded",
				       "an access line not \"priv|unpriv inst|data read|write ...\"");
	}
	l->kind = SMMU_WORD;
	return smmu_word(p, &l->value) ? IOMMU_LINE_PART : IOMMU_LINE_OTHER;
}

/* A line of "arm-smmu-v3 NAME: ...", read alone. */
static enum iommu_line smmu_line(const char *msg, struct smmu_line *l,
				 struct iommu_fault *f)
{
	const char *p = strstr(msg, "arm-smmu-v3 ");

	if (p)
		p += strlen("arm-smmu-v3 ");
	/* Xen's port of the driver: "(XEN) SMMUv3: /smmuv3@9050000: " */
	else if ((p = strstr(msg, "SMMUv3: ")))
		p += strlen("SMMUv3: ");
	if (!(p = fault_word(p, ": ", l->name, sizeof(l->name))) ||
	    !(p = fault_lit(p, ": ")))
		return IOMMU_LINE_OTHER;
	f->iommu = SMMU;
	strcpy(f->iommu_dev, l->name);
	return smmu_body(p, l, f);
}


/* name's state; a new one (the least recently used, evicted) if make. */
static struct smmu_one *smmu_state(struct smmu_v3_state *d,
					   const char *name, bool make)
{
	bool found;
	struct smmu_one *s = fault_slot_find(d->smmu, SMMU_V3_MAX,
					     sizeof(d->smmu[0]), name,
					     &d->tick, &found);

	if (found)
		return s;
	if (!make)
		return NULL;
	d->cut_short += s->open;
	memset(s, 0, sizeof(*s));
	strcpy(s->slot.name, name);
	s->slot.used = ++d->tick;
	return s;
}

/* "event 0x10 received:": an event opens; one still open was cut short. */
static enum iommu_line smmu_header(struct smmu_v3_state *d,
				   const struct smmu_line *l,
				   const struct iommu_fault *f)
{
	struct smmu_one *s = smmu_state(d, l->name, true);

	d->cut_short += s->open;
	s->open = true;
	s->nwords = 0;
	s->head = *f;
	s->head.code = (uint32_t)l->value;
	return IOMMU_LINE_PART;
}

/* A whole fault of s: kept as the one its later lines complete. */
static enum iommu_line smmu_fault(struct smmu_one *s,
				  const struct iommu_fault *f)
{
	s->last = *f;
	s->has_last = true;
	return IOMMU_LINE_FAULT;
}

/* One of the four words; the fourth makes the fault. */
static enum iommu_line smmu_add_word(struct smmu_v3_state *d,
				     const struct smmu_line *l,
				     struct iommu_fault *out)
{
	struct smmu_one *s = smmu_state(d, l->name, false);

	if (!s || !s->open)	/* its header was never seen */
		return fault_malformed(out, SMMU, "4.2+, raw words",
				       "a raw word without its \"event 0xNN received:\" line");
	s->words[s->nwords++] = l->value;
	if (s->nwords < 4)
		return IOMMU_LINE_PART;
	s->open = false;
	if ((s->words[0] & EVTQ_0_ID_MASK) != s->head.code)
		return fault_malformed(out, SMMU, "4.2+, raw words",
				       "word 0's event ID is not the header's");
	*out = s->head;
	smmu_decode_words(s->words, out);
	out->format = "4.2+, raw words";
	return smmu_fault(s, out);
}

/*
 * 6.15+'s "event:" line after the raw words of the same event names the
 * client: the fault returned already, completed (DETAIL).  Alone (the
 * raw lines lost, or pasted without them) it is a fault of its own.
 */
static enum iommu_line smmu_event(struct smmu_v3_state *d,
				  const struct smmu_line *l,
				  struct iommu_fault *out)
{
	struct smmu_one *s = smmu_state(d, l->name, true);
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
static enum iommu_line smmu_access(struct smmu_v3_state *d,
				   const struct smmu_line *l,
				   struct iommu_fault *out)
{
	struct smmu_one *s = smmu_state(d, l->name, false);

	if (!s || !s->has_last || s->last.access != IOMMU_ACCESS_UNKNOWN)
		return IOMMU_LINE_KNOWN;	/* nothing it adds */
	s->last.access = out->access;
	*out = s->last;
	return IOMMU_LINE_DETAIL;
}

static enum iommu_line smmu_decode(void *state, const char *msg,
				   struct iommu_fault *out)
{
	struct smmu_v3_state *d = state;
	struct smmu_line sl = { .kind = SMMU_NONE };
	enum iommu_line r = smmu_line(msg, &sl, out);

	if (r == IOMMU_LINE_OTHER || r == IOMMU_LINE_MALFORMED)
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

static unsigned int smmu_pending(const void *state)
{
	const struct smmu_v3_state *d = state;
	unsigned int n = (unsigned int)d->cut_short;

	for (size_t i = 0; i < SMMU_V3_MAX; i++)
		n += d->smmu[i].open;
	return n;
}

const struct fault_driver fault_driver_smmu_v3 = {
	.name = SMMU,
	.source = "drivers/iommu/arm/arm-smmu-v3/arm-smmu-v3.c",
	.decode = smmu_decode,
	.state_size = sizeof(struct smmu_v3_state),
	.pending = smmu_pending,
};

_Static_assert(sizeof(struct smmu_v3_state) <= IOMMU_DRIVER_STATE_MAX, "smmu_v3: state too big");
