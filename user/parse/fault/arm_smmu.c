// SPDX-License-Identifier: GPL-2.0
/*
 * Arm SMMUv1/v2: arm_smmu_context_fault() and arm_smmu_global_fault() of
 * drivers/iommu/arm/arm-smmu/arm-smmu.c (drivers/iommu/arm-smmu.c before
 * 5.9), with Qualcomm's downstream register dumps; and qcom_iommu_fault()
 * of drivers/iommu/arm/arm-smmu/qcom_iommu.c (drivers/iommu/qcom_iommu.c
 * before 5.9), the same context bank registers behind another driver.
 *
 * Context faults, "Unhandled context fault: " and a list of registers
 * (dev_err_ratelimited):
 *   3.x-4.13   "iova=0x%08lx, fsynr=0x%x, cb=%d"
 *   4.14-5.1   "fsr=0x%x, iova=0x%08lx, fsynr=0x%x, cb=%d" (Xen's port too)
 *   5.2+       "fsr=0x%x, iova=0x%08lx, fsynr=0x%x, cbfrsynra=0x%x, cb=%d"
 *   Qualcomm msm-4.9   "iova=0x%08lx, fsr=0x%x, fsynr=0x%x, cb=%d"
 *   Qualcomm msm-4.19  "iova=0x%08lx, cb=%d, fsr=0x%x, fsynr0=0x%x, fsynr1=0x%x"
 *   NVIDIA L4T         "iova=0x%08lx, fsynr=0x%x, cb=%d, sid=%d(0x%x - %s)"
 *   qcom_iommu 4.14+   "fsr=0x%x, iova=0x%016llx, fsynr=0x%x, cb=%d"
 * 6.11 on, arm_smmu_print_context_fault_info() follows the 5.2 line
 * (dev_dbg in 6.11's first releases, so often absent) with
 *   "FSR    = %08x [%s%sFormat=%u%s%s%s%s%s%s%s%s], SID=0x%x"
 *   "FSYNR0 = %08x [S1CBNDX=%u%s%s%s%s%s%s PLVL=%u]"
 * Qualcomm's TBU path (6.9-6.10) prints "FSR    = %08x [TF AFF ...], SID=0x%x"
 * after the 5.2 line; its downstream kernels dump "FAR    = ...",
 * "FSR    = ... [TF R SS ]", "SID=0x%x" around the line, or (GKI) after
 * "Unhandled arm-smmu context fault from %s!" without it.
 * Global faults (all releases): "Unexpected global fault, this could be
 * serious" or (5.5 on) "Blocked unknown Stream ID 0x%hx; boot with ..." (GFSR.USF
 * with disable_bypass), then "\tGFSR 0x%08x, GFSYNR0 0x%08x, GFSYNR1
 * 0x%08x, GFSYNR2 0x%08x".
 * Lines start "arm-smmu NAME: " ("qcom-iommu-ctx NAME: "), Xen's port
 * "(XEN) smmu: DT-PATH: ".  Register bits: arm-smmu.h (FSR, FSYNR0) and
 * the SMMUv2 architecture (GFSR, GFSYNR0, GFSYNR1, CBFRSYNRA).
 */
#include <stdio.h>
#include <string.h>
#include "parse/fault/fault_driver.h"

#define ARM_SMMU "arm-smmu"
#define QCOM_IOMMU "qcom-iommu"

/* ---- registers -------------------------------------------------------- */

/* FSR: arm-smmu.h's ARM_SMMU_CB_FSR_*, in the order a reason names them. */
static const struct smmu_bit {
	uint32_t bit;
	const char *tag;	/* the kernel's word for it */
	const char *words;
	enum iommu_fault_class cls;
} fsr_bits[] = {
	{ 1u << 1, "TF", "translation fault", IOMMU_CLASS_UNMAPPED },
	{ 1u << 3, "PF", "permission fault", IOMMU_CLASS_PERMISSION },
	{ 1u << 2, "AFF", "access flag fault", IOMMU_CLASS_PERMISSION },
	{ 1u << 7, "ASF", "address size fault", IOMMU_CLASS_ADDRESS },
	{ 1u << 4, "EF", "external fault", IOMMU_CLASS_HARDWARE },
	{ 1u << 5, "TLBMCF", "TLB match conflict", IOMMU_CLASS_HARDWARE },
	{ 1u << 6, "TLBLKF", "TLB lock fault", IOMMU_CLASS_HARDWARE },
	{ 1u << 8, "UUT", "unsupported upstream transaction", IOMMU_CLASS_OTHER },
	{ 1u << 30, "SS", "stalled", IOMMU_CLASS_OTHER },
	{ 1u << 31, "MULTI", "multiple faults", IOMMU_CLASS_OTHER },
};

/* GFSR of the SMMUv2 architecture. */
static const struct smmu_bit gfsr_bits[] = {
	{ 1u << 1, "USF", "unidentified stream fault", IOMMU_CLASS_CONTEXT },
	{ 1u << 0, "ICF", "invalid context fault", IOMMU_CLASS_CONTEXT },
	{ 1u << 2, "SMCF", "stream match conflict", IOMMU_CLASS_CONTEXT },
	{ 1u << 3, "UCBF", "unimplemented context bank", IOMMU_CLASS_CONTEXT },
	{ 1u << 4, "UCIF", "unimplemented context interrupt", IOMMU_CLASS_CONTEXT },
	{ 1u << 5, "CAF", "configuration access fault", IOMMU_CLASS_HARDWARE },
	{ 1u << 6, "EF", "external fault", IOMMU_CLASS_HARDWARE },
	{ 1u << 7, "PF", "permission fault", IOMMU_CLASS_PERMISSION },
	{ 1u << 8, "UUT", "unsupported upstream transaction", IOMMU_CLASS_OTHER },
	{ 1u << 31, "MULTI", "multiple faults", IOMMU_CLASS_OTHER },
};

#define NBITS(a) (sizeof(a) / sizeof((a)[0]))

#define FSYNR0_WNR	(1u << 4)
#define FSYNR0_IND	(1u << 6)
#define GFSYNR0_WNR	(1u << 1)
#define GFSYNR0_IND	(1u << 3)
#define SID_MASK	0xffffu	/* CBFRSYNRA, GFSYNR1: StreamID in 15:0 */

/* The words of the bits of reg set, then extra; the first's class. */
static void smmu_reason(struct iommu_fault *f, const struct smmu_bit *bits,
			size_t n, uint32_t reg, const char *extra)
{
	char buf[IOMMU_FAULT_REASON_MAX * 2] = "";
	size_t len = 0;

	f->cls = IOMMU_CLASS_OTHER;
	for (size_t i = 0; i < n; i++) {
		if (!(reg & bits[i].bit))
			continue;
		if (!len)
			f->cls = bits[i].cls;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					len ? ", " : "", bits[i].words);
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
	}
	if (!len)
		len = (size_t)snprintf(buf, sizeof(buf), "no fault bit set");
	if (extra)
		snprintf(buf + len, sizeof(buf) - len, "; %s", extra);
	fault_set_reason(f, buf);
}

/* FSYNR0 (or GFSYNR0) into flags and the access. */
static void smmu_syndrome(struct iommu_fault *f, uint32_t syn, uint32_t wnr,
			  uint32_t ind)
{
	f->flags = syn, f->has_flags = true;
	f->access = syn & wnr ? IOMMU_ACCESS_WRITE :
		    syn & ind ? IOMMU_ACCESS_EXEC : IOMMU_ACCESS_READ;
}

/* ---- "Unhandled context fault: k=v, ..." --------------------------------- */

enum cf_key { K_FSR, K_IOVA, K_FSYNR, K_FSYNR0, K_FSYNR1, K_CBFRSYNRA, K_CB,
	      K_SID, K_N };

static const char *const cf_keys[K_N] = {
	"fsr", "iova", "fsynr", "fsynr0", "fsynr1", "cbfrsynra", "cb", "sid",
};

/* A format: its keys in order (as letters of cf_order()), its releases. */
struct cf_format {
	const char *order;
	const char *releases;
};

static const struct cf_format arm_smmu_formats[] = {
	{ "BCG", "3.x-4.13" },
	{ "ABCG", "4.14-5.1" },
	{ "ABCFG", "5.2+" },
	{ "BACG", "Qualcomm downstream msm-4.9" },
	{ "BGADE", "Qualcomm downstream msm-4.19" },
	{ "BCGH", "NVIDIA downstream (L4T)" },
};

static const struct cf_format qcom_iommu_formats[] = {
	{ "ABCG", "4.14+" },
};

struct cf_line {
	char client[IOMMU_FAULT_NAME_MAX];	/* NVIDIA's "sid=%d(0x%x - %s)" */
	uint64_t v[K_N];
	bool has[K_N];
	char order[K_N + 1];	/* 'A' + key, in the line's order */
};

/* NVIDIA's "sid=%d(0x%x - %s)": the StreamID twice, the client's name. */
static const char *cf_sid(const char *p, struct cf_line *l)
{
	uint64_t again;

	p = fault_lit(fault_dec(p, &l->v[K_SID]), "(0x");
	p = fault_lit(fault_hex(p, &again), " - ");
	p = fault_lit(fault_word(p, ")", l->client, sizeof(l->client)), ")");
	return p && again == l->v[K_SID] ? p : NULL;
}

/* "k=v, k=v, ...": false for an unknown or repeated key, a bad value. */
static bool cf_read(const char *p, struct cf_line *l, const char **why)
{
	size_t n = 0;

	memset(l, 0, sizeof(*l));
	for (;;) {
		size_t klen = strcspn(p, "=, ");
		int k = -1;

		for (int i = 0; i < K_N; i++)
			if (strlen(cf_keys[i]) == klen && !strncmp(p, cf_keys[i], klen))
				k = i;
		if (k < 0 || l->has[k] || p[klen] != '=') {
			*why = k < 0 ? "a register the driver does not print" :
			       l->has[k] ? "a register twice" : "a register without \"=value\"";
			return false;
		}
		p += klen + 1;
		p = k == K_CB ? fault_dec(p, &l->v[k]) :
		    k == K_SID ? cf_sid(p, l) : fault_hex0x(p, &l->v[k]);
		if (!p || (k != K_IOVA && l->v[k] > UINT32_MAX)) {
			*why = "a register's value unreadable";
			return false;
		}
		l->has[k] = true;
		l->order[n++] = (char)('A' + k);
		if (!*p)
			return true;
		if (!(p = fault_lit(p, ", "))) {
			*why = "registers not separated by \", \"";
			return false;
		}
	}
}

/* The line's fault: every register it holds decoded. */
static void cf_fault(const struct cf_line *l, struct iommu_fault *f)
{
	char cb[32];

	snprintf(cb, sizeof(cb), "context bank %u", (unsigned int)l->v[K_CB]);
	f->iova = l->v[K_IOVA], f->has_iova = true;
	if (l->has[K_FSR]) {
		f->code = (uint32_t)l->v[K_FSR], f->has_code = true;
		smmu_reason(f, fsr_bits, NBITS(fsr_bits), f->code, cb);
	} else {
		fault_set_reason(f, cb);	/* 3.x: no FSR */
	}
	if (l->has[K_FSYNR] || l->has[K_FSYNR0])
		smmu_syndrome(f, (uint32_t)l->v[l->has[K_FSYNR] ? K_FSYNR : K_FSYNR0],
			      FSYNR0_WNR, FSYNR0_IND);
	if (l->has[K_CBFRSYNRA])
		f->sid = (uint32_t)l->v[K_CBFRSYNRA] & SID_MASK, f->has_sid = true;
	if (l->has[K_SID]) {
		f->sid = (uint32_t)l->v[K_SID], f->has_sid = true;
		strcpy(f->master, l->client);	/* the memory client */
	}
}

/* The text after "Unhandled context fault: " against a driver's formats. */
static enum iommu_line cf_decode(const char *p, const char *driver,
				 const struct cf_format *formats, size_t n,
				 struct iommu_fault *f)
{
	struct cf_line l;
	const char *why;

	f->iommu = driver;
	if (!cf_read(p, &l, &why))
		return fault_malformed(f, driver, NULL, why);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(formats[i].order, l.order)) {
			f->format = formats[i].releases;
			cf_fault(&l, f);
			return IOMMU_LINE_FAULT;
		}
	return fault_malformed(f, driver, NULL,
			       "\"Unhandled context fault\" with registers in an order no release prints (cut short?)");
}

/* ---- one SMMU's events -------------------------------------------------- */

/* SMMUs followed at once; more evict the least recent. */
#define ARM_SMMU_MAX	8

enum smmu_open {
	OPEN_NONE,
	OPEN_FSR,	/* 6.11's "FSR" line without the dev_dbg line before it */
	OPEN_DUMP,	/* Qualcomm's "FAR" or "Unhandled ... from DEV!" */
	OPEN_GLOBAL,	/* "Unexpected global fault" */
};

struct smmu_one {
	struct fault_slot slot;		/* first: fault_slot_find() */
	enum smmu_open open;
	struct iommu_fault head;	/* what the open event gathered */
	struct iommu_fault last;	/* the fault returned last */
	bool has_last;
	bool want_fsr, want_fsynr;	/* 6.11+'s lines may complete last */
	bool want_gfsr;			/* "Blocked unknown Stream ID" */
	bool last_from_dump;		/* last came from Qualcomm's dump */
};

struct arm_smmu_state {
	struct smmu_one smmu[ARM_SMMU_MAX];
	uint64_t tick;
	uint64_t cut_short;
};

/* name's state, a new one (the least recently used evicted) if none. */
static struct smmu_one *smmu_get(struct arm_smmu_state *d, const char *name)
{
	bool found;
	struct smmu_one *s = fault_slot_find(d->smmu, ARM_SMMU_MAX,
					     sizeof(d->smmu[0]), name,
					     &d->tick, &found);

	if (found)
		return s;
	d->cut_short += s->open != OPEN_NONE;
	memset(s, 0, sizeof(*s));
	strcpy(s->slot.name, name);
	s->slot.used = ++d->tick;
	return s;
}

/* An event begins: one still open was cut short. */
static enum iommu_line smmu_open(struct arm_smmu_state *d, struct smmu_one *s,
				 enum smmu_open kind, const struct iommu_fault *f)
{
	d->cut_short += s->open != OPEN_NONE;
	s->open = kind;
	s->head = *f;
	return IOMMU_LINE_PART;
}

static enum iommu_line smmu_fault(struct smmu_one *s, const struct iommu_fault *f,
				  bool from_dump)
{
	s->open = OPEN_NONE;
	s->last = *f;
	s->has_last = true;
	s->last_from_dump = from_dump;
	s->want_fsr = s->want_fsynr = s->want_gfsr = false;
	return IOMMU_LINE_FAULT;
}

static enum iommu_line smmu_detail(struct smmu_one *s, struct iommu_fault *f)
{
	*f = s->last;
	return IOMMU_LINE_DETAIL;
}

/* ---- the lines ---------------------------------------------------------- */

/* "Unhandled context fault: ...": a fault, or the end of Qualcomm's dump. */
static enum iommu_line line_context(struct arm_smmu_state *d, struct smmu_one *s,
				    const char *p, struct iommu_fault *f)
{
	enum iommu_line r = cf_decode(p, ARM_SMMU, arm_smmu_formats,
				      NBITS(arm_smmu_formats), f);
	struct iommu_fault *last = &s->last;

	if (r != IOMMU_LINE_FAULT)
		return r;
	/* msm-4.19 prints it after its FAR/FSR dump of the same fault */
	if (s->has_last && s->last_from_dump && last->iova == f->iova &&
	    last->code == f->code && !last->has_flags) {
		last->flags = f->flags, last->has_flags = f->has_flags;
		last->access = f->access;
		strcpy(last->reason, f->reason);
		s->last_from_dump = false;
		return smmu_detail(s, f);
	}
	d->cut_short += s->open != OPEN_NONE;
	smmu_fault(s, f, false);
	s->want_fsr = s->want_fsynr = true;
	return IOMMU_LINE_FAULT;
}

/*
 * The words in "[...]" of an FSR line: 6.11's ("SS Format=2 TF") or
 * Qualcomm's ("TF R SS "); R or W is the access.  False for others.
 */
static bool fsr_words(const char *p, const char *end, bool *format,
		      enum iommu_access *access)
{
	static const char *const words[] = {
		"MULTI", "SS", "UUT", "ASF", "TLBLKF", "TLBMCF", "EF", "PF",
		"AFF", "TF", "MHF", "R", "W",
	};

	*format = false;
	*access = IOMMU_ACCESS_UNKNOWN;
	while (p < end) {
		size_t n = strcspn(p, " ]");
		bool known = false;

		if (n > (size_t)(end - p))
			n = (size_t)(end - p);
		if (n > 7 && !strncmp(p, "Format=", 7) && p[7] >= '0' && p[7] <= '3' && n == 8)
			known = *format = true;
		for (size_t i = 0; i < NBITS(words); i++)
			if (strlen(words[i]) == n && !strncmp(p, words[i], n))
				known = true;
		if (n && !known)
			return false;
		if (n == 1)
			*access = *p == 'R' ? IOMMU_ACCESS_READ : IOMMU_ACCESS_WRITE;
		p += n;
		p += *p == ' ';
	}
	return true;
}

/* "FSR    = [0x]%08x [...][, SID=0x%x]" */
static enum iommu_line line_fsr(struct arm_smmu_state *d, struct smmu_one *s,
				const char *p, struct iommu_fault *f)
{
	const char *end;
	uint64_t fsr, sid = 0;
	bool format, has_sid = false;
	enum iommu_access access;

	p = fault_lit(fault_hex_maybe0x(p, &fsr), " [");
	end = p ? strchr(p, ']') : NULL;
	if (!end || fsr > UINT32_MAX || !fsr_words(p, end, &format, &access))
		return fault_malformed(f, ARM_SMMU, NULL,
				       "an \"FSR = \" line not \"FSR = HEX [WORDS]\"");
	p = end + 1;
	if (fault_lit(p, ", SID=0x")) {
		p = fault_hex(p + 8, &sid);
		has_sid = p && sid <= UINT32_MAX;
	}
	if (!p || *p)
		return fault_malformed(f, ARM_SMMU, NULL,
				       "more after an FSR line's words than \", SID=0x%x\"");
	if (s->has_last && s->want_fsr && s->last.code == fsr &&
	    (!has_sid || !s->last.has_sid || s->last.sid == ((uint32_t)sid & SID_MASK))) {
		s->want_fsr = false;
		s->want_fsynr = format;
		if (has_sid)
			s->last.sid = (uint32_t)sid & SID_MASK, s->last.has_sid = true;
		if (access != IOMMU_ACCESS_UNKNOWN && !s->last.has_flags)
			s->last.access = access;
		if (format)
			s->last.format = "6.11+, three lines";
		else if (has_sid)
			s->last.format = "5.2+ and Qualcomm's TBU lines (6.9-6.10)";
		return smmu_detail(s, f);
	}
	f->iommu = ARM_SMMU;
	f->code = (uint32_t)fsr, f->has_code = true;
	smmu_reason(f, fsr_bits, NBITS(fsr_bits), f->code, NULL);
	if (has_sid)
		f->sid = (uint32_t)sid & SID_MASK, f->has_sid = true;
	if (s->open == OPEN_DUMP) {
		/* Qualcomm's dump: FAR (or the client) before, the fault now */
		struct iommu_fault h = s->head;

		h.code = f->code, h.has_code = true;
		h.cls = f->cls;
		strcpy(h.reason, f->reason);
		h.access = access;
		h.format = "Qualcomm downstream register dump";
		*f = h;
		return smmu_fault(s, f, true);
	}
	if (!format)
		return fault_malformed(f, ARM_SMMU, NULL,
				       "an FSR line without its \"Unhandled context fault\" line");
	f->format = "6.11, first line at dev_dbg";
	return smmu_open(d, s, OPEN_FSR, f);
}

/* "FSYNR0 = %08x [S1CBNDX=%u ... PLVL=%u]", or Qualcomm's "FSYNR0    = 0x%x". */
static enum iommu_line line_fsynr0(struct smmu_one *s, const char *p,
				   struct iommu_fault *f)
{
	uint64_t syn;
	const char *q = fault_hex_maybe0x(p, &syn);
	bool upstream = fault_lit(q, " [S1CBNDX=") && strstr(q, " PLVL=") &&
			q[strlen(q) - 1] == ']';

	if (!q || syn > UINT32_MAX || (*q && !upstream))
		return fault_malformed(f, ARM_SMMU, NULL,
				       "an FSYNR0 line not \"FSYNR0 = HEX [S1CBNDX=N ... PLVL=N]\"");
	if (s->open == OPEN_FSR && upstream) {
		*f = s->head;
		smmu_syndrome(f, (uint32_t)syn, FSYNR0_WNR, FSYNR0_IND);
		return smmu_fault(s, f, false);
	}
	if (s->has_last && s->want_fsynr && s->last.flags == syn) {
		s->want_fsynr = false;
		return IOMMU_LINE_KNOWN;	/* the first line had it */
	}
	if (!upstream && s->has_last && !s->last.has_flags) {
		smmu_syndrome(&s->last, (uint32_t)syn, FSYNR0_WNR, FSYNR0_IND);
		return smmu_detail(s, f);
	}
	if (!upstream)
		return IOMMU_LINE_KNOWN;
	return fault_malformed(f, ARM_SMMU, "6.11+, three lines",
			       "an FSYNR0 line without the FSR line of its fault before it");
}

/* Qualcomm's "FAR    = [0x]%016lx": the fault address of a dump. */
static enum iommu_line line_far(struct arm_smmu_state *d, struct smmu_one *s,
				const char *p, struct iommu_fault *f)
{
	uint64_t far;

	p = fault_hex_maybe0x(p, &far);
	if (!p || *p)
		return fault_malformed(f, ARM_SMMU, NULL, "an unreadable FAR line");
	if (s->has_last && !s->last_from_dump && s->last.iova == far &&
	    s->open == OPEN_NONE)
		return IOMMU_LINE_KNOWN;	/* msm-4.9: after the line */
	if (s->open == OPEN_DUMP && !s->head.has_iova) {
		s->head.iova = far, s->head.has_iova = true;
		return IOMMU_LINE_PART;		/* GKI: after "from DEV!" */
	}
	f->iova = far, f->has_iova = true;
	return smmu_open(d, s, OPEN_DUMP, f);
}

/* "SID=0x%x", "SID = 0x%x": Qualcomm's StreamID after a fault. */
static enum iommu_line line_sid(struct smmu_one *s, const char *p,
				struct iommu_fault *f)
{
	uint64_t sid;

	p = fault_hex0x(p, &sid);
	if (!p || *p || sid > UINT32_MAX)
		return fault_malformed(f, ARM_SMMU, NULL, "an unreadable SID line");
	if (!s->has_last || s->last.has_sid)
		return IOMMU_LINE_KNOWN;
	s->last.sid = (uint32_t)sid, s->last.has_sid = true;
	return smmu_detail(s, f);
}

/* "GFSR 0x%08x, GFSYNR0 0x%08x, GFSYNR1 0x%08x, GFSYNR2 0x%08x" */
static enum iommu_line line_gfsr(struct smmu_one *s, const char *p,
				 struct iommu_fault *f)
{
	uint32_t gfsr, syn0, syn1, syn2;

	p = fault_hex32(fault_lit(p, "0x"), &gfsr);
	p = fault_hex32(fault_lit(p, ", GFSYNR0 0x"), &syn0);
	p = fault_hex32(fault_lit(p, ", GFSYNR1 0x"), &syn1);
	p = fault_hex32(fault_lit(p, ", GFSYNR2 0x"), &syn2);
	if (!p || *p)
		return fault_malformed(f, ARM_SMMU, "all releases, global fault",
				       "not \"GFSR 0x%08x, GFSYNR0 0x%08x, GFSYNR1 0x%08x, GFSYNR2 0x%08x\"");
	if (s->has_last && s->want_gfsr && s->last.sid == (syn1 & SID_MASK)) {
		s->want_gfsr = false;
		s->last.code = gfsr, s->last.has_code = true;
		smmu_syndrome(&s->last, syn0, GFSYNR0_WNR, GFSYNR0_IND);
		return smmu_detail(s, f);
	}
	f->iommu = ARM_SMMU;
	f->format = "all releases, global fault";
	f->code = gfsr, f->has_code = true;
	smmu_reason(f, gfsr_bits, NBITS(gfsr_bits), gfsr, "global fault");
	smmu_syndrome(f, syn0, GFSYNR0_WNR, GFSYNR0_IND);
	f->sid = syn1 & SID_MASK, f->has_sid = true;
	return smmu_fault(s, f, false);
}

/* "Blocked unknown Stream ID 0x%hx; boot with ...": GFSR.USF. */
static enum iommu_line line_usf(struct arm_smmu_state *d, struct smmu_one *s,
				const char *p, struct iommu_fault *f)
{
	uint64_t sid;

	p = fault_lit(fault_hex(p, &sid), "; boot with ");
	if (!p || sid > 0xffff)
		return fault_malformed(f, ARM_SMMU, "5.5+ with disable_bypass, global fault",
				       "not \"Blocked unknown Stream ID 0x%hx; boot with ...\"");
	f->iommu = ARM_SMMU;
	f->format = "5.5+ with disable_bypass, global fault";
	f->sid = (uint32_t)sid, f->has_sid = true;
	f->cls = IOMMU_CLASS_CONTEXT;
	fault_set_reason(f, "unidentified stream fault: no context for the StreamID, blocked");
	d->cut_short += s->open != OPEN_NONE;
	smmu_fault(s, f, false);
	s->want_gfsr = true;
	return IOMMU_LINE_FAULT;
}

/* What Qualcomm's dumps and the kernel print around a fault, no fault. */
static const char *const arm_smmu_known[] = {
	"PAR ", "TTBR0 ", "TTBR1 ", "SCTLR ", "CBAR ", "MAIR0 ", "FSYNR1 ",
	"context bank#", "Client info:", "soft iova-to-phys=",
	"hard iova-to-phys", "SOFTWARE TABLE WALK FAILED", "SSD=",
	"Unhandled WLAN context fault!",
};

/* "NAME = ...", any blanks before the "=": the value's start or NULL. */
static const char *reg_line(const char *p, const char *name)
{
	p = fault_lit(p, name);
	if (!p || (*p != ' ' && *p != '='))
		return NULL;
	p += strspn(p, " ");
	p = fault_lit(p, "=");
	return p ? p + strspn(p, " ") : NULL;
}

/*
 * The text after "arm-smmu NAME: ".  The SMMU's state is looked up only
 * for a line of an event, so other lines (probe messages) evict nothing.
 */
static enum iommu_line arm_smmu_body(struct arm_smmu_state *d, const char *p,
				     struct iommu_fault *f)
{
	const char *name = f->iommu_dev;
	const char *q;

	if ((q = fault_lit(p, "Unhandled context fault: ")))
		return line_context(d, smmu_get(d, name), q, f);
	if ((q = reg_line(p, "FSR")))
		return line_fsr(d, smmu_get(d, name), q, f);
	if ((q = reg_line(p, "FSYNR0")))
		return line_fsynr0(smmu_get(d, name), q, f);
	if ((q = reg_line(p, "FAR")))
		return line_far(d, smmu_get(d, name), q, f);
	if ((q = reg_line(p, "SID")))
		return line_sid(smmu_get(d, name), q, f);
	if ((q = fault_lit(p, "Unhandled arm-smmu context fault from "))) {
		size_t n = strlen(q);

		if (n < 2 || q[n - 1] != '!' || n > sizeof(f->device))
			return fault_malformed(f, ARM_SMMU, "Qualcomm downstream register dump",
					       "not \"Unhandled arm-smmu context fault from DEV!\"");
		memcpy(f->device, q, n - 1);
		f->device[n - 1] = '\0';
		return smmu_open(d, smmu_get(d, name), OPEN_DUMP, f);
	}
	if ((q = fault_lit(p, "Blocked unknown Stream ID 0x")))
		return line_usf(d, smmu_get(d, name), q, f);
	if (fault_lit(p, "Unexpected global fault, this could be serious"))
		return smmu_open(d, smmu_get(d, name), OPEN_GLOBAL, f);
	q = p + strspn(p, " \t");
	if ((q = fault_lit(q, "GFSR ")))
		return line_gfsr(smmu_get(d, name), q, f);
	for (size_t i = 0; i < NBITS(arm_smmu_known); i++)
		if (fault_lit(p, arm_smmu_known[i]))
			return IOMMU_LINE_KNOWN;
	if (strstr(p, "fault"))
		return fault_malformed(f, ARM_SMMU, NULL,
				       "an arm-smmu fault line of no format known");
	return IOMMU_LINE_OTHER;	/* probe messages and the like */
}

/*
 * Lines without the tag that name the driver and a fault: the ratelimit's
 * "arm_smmu_context_fault: N callbacks suppressed" and a call trace's
 * " arm_smmu_context_fault+0x110/0x138".
 */
static enum iommu_line arm_smmu_untagged(const char *msg)
{
	const char *p = msg + strspn(msg, " \t");
	size_t n;

	if (!fault_lit(p, "arm_smmu_") && !fault_lit(p, "qcom_smmu_") &&
	    !fault_lit(p, "qcom_iommu_"))
		return IOMMU_LINE_OTHER;
	n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if ((fault_lit(p + n, ": ") && strstr(p + n, " callbacks suppressed")) ||
	    fault_lit(p + n, "+0x"))
		return IOMMU_LINE_KNOWN;
	return IOMMU_LINE_OTHER;
}

static enum iommu_line arm_smmu_decode(void *state, const char *msg,
				       struct iommu_fault *f)
{
	struct arm_smmu_state *d = state;
	const char *p = fault_dev_tag(msg, ARM_SMMU, f->iommu_dev);
	const char *xen = p ? NULL : strstr(msg, "(XEN) smmu: ");
	enum iommu_line r;

	if (xen)	/* Xen's port of the 4.x driver */
		p = fault_lit(fault_word(xen + 12, ": ", f->iommu_dev,
					 sizeof(f->iommu_dev)), ": ");
	if (!p)
		return arm_smmu_untagged(msg);
	r = arm_smmu_body(d, p, f);
	if (r == IOMMU_LINE_OTHER)
		f->iommu_dev[0] = '\0';
	else if (r != IOMMU_LINE_MALFORMED)
		f->iommu = ARM_SMMU;
	if (xen && r == IOMMU_LINE_FAULT && f->format == arm_smmu_formats[1].releases)
		f->format = "Xen's port of 4.14-5.1";
	return r;
}

static unsigned int arm_smmu_pending(const void *state)
{
	const struct arm_smmu_state *d = state;
	unsigned int n = (unsigned int)d->cut_short;

	for (size_t i = 0; i < ARM_SMMU_MAX; i++)
		n += d->smmu[i].open != OPEN_NONE;
	return n;
}

const struct fault_driver fault_driver_arm_smmu = {
	.name = ARM_SMMU,
	.source = "drivers/iommu/arm/arm-smmu/arm-smmu.c",
	.decode = arm_smmu_decode,
	.state_size = sizeof(struct arm_smmu_state),
	.pending = arm_smmu_pending,
};

_Static_assert(sizeof(struct arm_smmu_state) <= IOMMU_DRIVER_STATE_MAX, "arm_smmu: state too big");

/* ---- qcom_iommu ---------------------------------------------------------- */

/* One line, one format: "cb" is the context's ASID. */
static enum iommu_line qcom_iommu_decode(void *state, const char *msg,
					 struct iommu_fault *f)
{
	const char *p = fault_dev_tag(msg, "qcom-iommu-ctx", f->iommu_dev);

	(void)state;
	if (!p)
		return IOMMU_LINE_OTHER;	/* its ratelimit: arm_smmu_untagged() */
	if ((p = fault_lit(p, "Unhandled context fault: ")))
		return cf_decode(p, QCOM_IOMMU, qcom_iommu_formats,
				 NBITS(qcom_iommu_formats), f);
	f->iommu_dev[0] = '\0';
	return IOMMU_LINE_OTHER;
}

const struct fault_driver fault_driver_qcom_iommu = {
	.name = QCOM_IOMMU,
	.source = "drivers/iommu/arm/arm-smmu/qcom_iommu.c",
	.decode = qcom_iommu_decode,
};
