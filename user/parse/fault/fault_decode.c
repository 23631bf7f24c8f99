// SPDX-License-Identifier: GPL-2.0
/*
 * The decoder of parse/iommu_fault.h: each line cleaned
 * (parse/fault/fault_clean.c), split into its messages, and every
 * message handed to the drivers of parse/fault/fault_table.c in turn.
 * A message no driver reads that still names an IOMMU and a fault is
 * said to be so (IOMMU_LINE_MALFORMED, driver "unknown"): never taken
 * for "no fault".
 */
#include <stdio.h>
#include <string.h>
#include "parse/fault/fault_driver.h"
#include "parse/iommu_fault.h"

static size_t drivers_asked(void)
{
	return fault_drivers_n < IOMMU_DRIVERS_MAX ? fault_drivers_n :
	       IOMMU_DRIVERS_MAX;
}

void iommu_fault_decoder_init(struct iommu_fault_decoder *d)
{
	for (size_t i = 0; i < drivers_asked(); i++)
		memset(d->state[i].bytes, 0, fault_drivers[i]->state_size);
	d->lines = d->messages = 0;
	d->held_joins = 0;
	d->holding = false;
}

/* Where the lower-case needle n first is in h (case-blind), or NULL. */
static const char *find_word(const char *h, const char *n)
{
	size_t nl = strlen(n);

	for (; *h; h++) {
		size_t i = 0;

		while (i < nl && h[i] && (h[i] | 0x20) == n[i])
			i++;
		if (i == nl)
			return h;
	}
	return NULL;
}

/* Whether n is in h[0..len), case-blind. */
static bool word_before(const char *h, size_t len, const char *n)
{
	const char *at = find_word(h, n);

	return at && (size_t)(at - h) + strlen(n) <= len;
}

/*
 * The IOMMU a message comes from when it also speaks of a fault, or
 * NULL.  The IOMMU must be named before the ": " that ends the prefix the
 * fault's words follow (the driver and device of dev_printk(), a pr_fmt
 * tag: "arm-smmu 15000000.iommu: Unhandled context fault ...", "DMAR:
 * ..."), by a word of every IOMMU driver's names, the embedded ones'
 * included; words in the same part as the fault are anyone's (a kernel
 * command line's "intel_iommu=on", a test's "iommu_fault_..." marker, a
 * GPU's own page faults).  Tegra's memory controller reports its SMMU's
 * faults in words of its own.
 */
static const char *names_iommu_fault(const char *msg)
{
	static const char *const iommus[] = {
		"iommu", "smmu", "dmar", "amd-vi", "dart", "ipmmu", "sysmmu",
		"m4u",
	};
	static const char *const faults[] = {
		"fault", "event logged", "translation error",
	};
	const char *first = NULL, *c;
	size_t pre = 0;

	if (find_word(msg, "smmu translation error"))
		return "smmu";
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		const char *at = find_word(msg, faults[i]);

		if (at && (!first || at < first))
			first = at;
	}
	if (!first)
		return NULL;
	/* the prefix: up to the last ": " before the fault's words */
	for (c = strstr(msg, ": "); c && c < first; c = strstr(c + 2, ": "))
		pre = (size_t)(c - msg);
	for (size_t i = 0; pre && i < sizeof(iommus) / sizeof(iommus[0]); i++)
		if (word_before(msg, pre, iommus[i]))
			return iommus[i];
	return NULL;
}

static void fault_from_header(const struct iommu_log_line *l,
			      struct iommu_fault *f)
{
	memset(f, 0, sizeof(*f));
	f->iommu = "";
	f->prio = l->prio;
	f->time_us = l->time_us, f->has_time = l->has_time;
	f->seq = l->seq, f->has_seq = l->has_seq;
	strcpy(f->wall, l->wall);
}

/* One message through the table: the answer, its fault in *f. */
static enum iommu_line decode_message(struct iommu_fault_decoder *d,
				      const struct iommu_log_line *l,
				      const char *msg, struct iommu_fault *f)
{
	const char *named;

	for (size_t i = 0; i < drivers_asked(); i++) {
		enum iommu_line r;

		fault_from_header(l, f);
		r = fault_drivers[i]->decode(d->state[i].bytes, msg, f);
		if (r != IOMMU_LINE_OTHER)
			return r;
	}
	fault_from_header(l, f);
	/* printk's ratelimit: "dmar_fault: 12 callbacks suppressed" */
	if (strstr(msg, " callbacks suppressed") || !(named = names_iommu_fault(msg)))
		return IOMMU_LINE_OTHER;
	fault_malformed(f, "unknown", NULL, "");
	strcpy(f->reason, "names an IOMMU (\"");
	strcat(f->reason, named);
	strcat(f->reason, "\") and a fault: no driver's format reads it");
	return IOMMU_LINE_MALFORMED;
}

/* Lines a wrapped message is joined from at most. */
#define JOINS_MAX	3

int iommu_fault_finish(struct iommu_fault_decoder *d, iommu_fault_emit emit,
		       void *arg)
{
	if (!d->holding)
		return 0;
	d->holding = false;
	return emit(arg, IOMMU_LINE_MALFORMED, &d->held_fault, d->held.msg,
		    d->held_line);
}

/*
 * The held message and msg as one: msg continues it after a blank, or
 * right after a quoted-printable soft break ("fa=" then "ult").  True
 * when that reads as more than a malformed line (r, *f its answer).
 */
static bool join_held(struct iommu_fault_decoder *d, const char *msg,
		      enum iommu_line *r, struct iommu_fault *f)
{
	struct iommu_log_line *h = &d->held;
	size_t n = strlen(h->msg), m = strlen(msg);
	bool soft = n && h->msg[n - 1] == '=';

	if (soft)
		n--;
	if (n + 1 + m >= sizeof(h->msg))
		return false;
	if (!soft)
		h->msg[n++] = ' ';
	memcpy(h->msg + n, msg, m + 1);
	*r = decode_message(d, h, h->msg, f);
	return *r != IOMMU_LINE_MALFORMED;
}

/* One message: its answer into emit, with a held one's before it. */
static int one_message(struct iommu_fault_decoder *d,
		       const struct iommu_log_line *l, const char *msg,
		       iommu_fault_emit emit, void *arg)
{
	struct iommu_fault f;
	enum iommu_line r;
	int err;

	d->messages++;
	r = decode_message(d, l, msg, &f);
	if (d->holding && r == IOMMU_LINE_OTHER && *msg) {
		enum iommu_line joined;
		struct iommu_fault g;

		if (join_held(d, msg, &joined, &g)) {
			d->holding = false;
			return joined == IOMMU_LINE_OTHER ? 0 :
			       emit(arg, joined, &g, d->held.msg, d->held_line);
		}
		if (++d->held_joins < JOINS_MAX)
			return 0;	/* still cut: wait for one more */
		fault_from_header(l, &f);	/* msg alone: OTHER */
	}
	if ((err = iommu_fault_finish(d, emit, arg)))
		return err;
	if (r == IOMMU_LINE_MALFORMED) {
		d->held = *l;
		snprintf(d->held.msg, sizeof(d->held.msg), "%s", msg);
		d->held_fault = f;
		d->held_joins = 0;
		d->held_line = d->lines;
		d->holding = true;
		return 0;
	}
	return r == IOMMU_LINE_OTHER ? 0 : emit(arg, r, &f, msg, d->lines);
}

/* The messages of one record: a kmsg record may hold several lines. */
static int record(struct iommu_fault_decoder *d, struct iommu_log_line *l,
		  iommu_fault_emit emit, void *arg)
{
	char *p = l->msg;
	int err = 0;

	while (!err) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		err = one_message(d, l, p, emit, arg);
		if (!nl)
			break;
		p = nl + 1;
	}
	return err;
}

int iommu_fault_feed(struct iommu_fault_decoder *d, const char *line,
		     size_t len, iommu_fault_emit emit, void *arg)
{
	struct iommu_log_line l;
	const char *rest = line;
	size_t rest_len = len;
	int err = 0;

	d->lines++;
	while (!err && rest) {
		const char *at = rest;
		size_t n = rest_len;

		if (!iommu_log_clean(at, n, &l, &rest, &rest_len))
			break;
		if (rest && (rest <= at || rest_len >= n))
			rest = NULL;	/* no progress: never loop */
		err = record(d, &l, emit, arg);
	}
	return err;
}

/* The most telling answer of a feed and its fault. */
struct told {
	enum iommu_line r;
	struct iommu_fault *out;
	bool decisive;
};

static int rank(enum iommu_line r)
{
	switch (r) {
	case IOMMU_LINE_FAULT:
	case IOMMU_LINE_DETAIL:
	case IOMMU_LINE_MALFORMED:
		return 3;
	case IOMMU_LINE_PART:
		return 2;
	case IOMMU_LINE_KNOWN:
		return 1;
	default:
		return 0;
	}
}

static int tell(void *arg, enum iommu_line r, const struct iommu_fault *f,
		const char *msg, uint64_t line)
{
	struct told *t = arg;

	(void)msg, (void)line;
	if (!t->decisive && rank(r) > rank(t->r)) {
		t->r = r;
		*t->out = *f;
		t->decisive = rank(r) == 3;
	}
	return 0;
}

enum iommu_line iommu_fault_decode(struct iommu_fault_decoder *d,
				   const char *line, size_t len,
				   struct iommu_fault *out)
{
	struct told t = { IOMMU_LINE_OTHER, out, false };

	iommu_fault_feed(d, line, len, tell, &t);
	iommu_fault_finish(d, tell, &t);
	return t.r;
}

enum iommu_line iommu_fault_parse_line(const char *line, size_t len,
				       struct iommu_fault *out)
{
	struct iommu_fault_decoder d;

	iommu_fault_decoder_init(&d);
	return iommu_fault_decode(&d, line, len, out);
}

unsigned int iommu_fault_decoder_pending(const struct iommu_fault_decoder *d,
					 const char **driver)
{
	unsigned int n = 0;

	if (driver)
		*driver = NULL;
	for (size_t i = 0; i < drivers_asked(); i++) {
		unsigned int k = fault_drivers[i]->pending ?
				 fault_drivers[i]->pending(d->state[i].bytes) : 0;

		if (k && driver && !*driver)
			*driver = fault_drivers[i]->name;
		n += k;
	}
	return n;
}

/* ---- names ---------------------------------------------------------- */

size_t iommu_fault_drivers(void)
{
	return drivers_asked();
}

const char *iommu_fault_driver_name(size_t i)
{
	return i < drivers_asked() ? fault_drivers[i]->name : NULL;
}

