// SPDX-License-Identifier: GPL-2.0
/*
 * A pasted line back to the kernel's message (iommu_log_clean() of
 * parse/iommu_fault.h): what mail, syslog, the journal, dmesg's options,
 * /dev/kmsg and consoles put around it, taken off in the order they are
 * put on (outermost first).  Pure; every reader stops at the line's end.
 */
#include <stdio.h>
#include <string.h>
#include "parse/fault/fault_driver.h"
#include "parse/hex.h"

/* A line of the kernel's longest record, escaped four times over. */
#define RAW_MAX (4 * IOMMU_LOG_LINE_MAX + 64)

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Exactly n digits at p. */
static bool digits(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_digit(p[i]))
			return false;
	return true;
}

/* "hh:mm:ss" at p. */
static bool clock_at(const char *p)
{
	return digits(p, 2) && p[2] == ':' && digits(p + 3, 2) && p[5] == ':' &&
	       digits(p + 6, 2);
}

static const char *const months[] = {
	"Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ",
	"Jul ", "Aug ", "Sep ", "Oct ", "Nov ", "Dec ",
};

static bool month_at(const char *p)
{
	for (size_t i = 0; i < 12; i++)
		if (!strncmp(p, months[i], 4))
			return true;
	return false;
}

static void keep(char *out, size_t size, const char *s, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/*
 * syslog's "Apr 29 10:00:01 " (day space-padded) or the journal's
 * "2025-04-29T10:00:01[.frac][Z|+hh:mm|+hhmm] ": past it, or p.
 */
static const char *wall_prefix(const char *p, struct iommu_log_line *o)
{
	const char *q = p;

	if (month_at(q)) {
		q += 4;
		q += *q == ' ';
		if (!is_digit(*q))
			return p;
		q += 1 + is_digit(q[1]);
		if (*q != ' ' || !clock_at(q + 1))
			return p;
		q += 9;
	} else if (digits(q, 4) && q[4] == '-' && digits(q + 5, 2) &&
		   q[7] == '-' && digits(q + 8, 2) && (q[10] == 'T' || q[10] == ' ') &&
		   clock_at(q + 11)) {
		q += 19;
		if (*q == '.' || *q == ',')
			for (q++; is_digit(*q); q++)
				;
		if (*q == 'Z')
			q++;
		else if ((*q == '+' || *q == '-') && digits(q + 1, 2))
			q += 3 + (q[3] == ':') + 2 * digits(q + 3 + (q[3] == ':'), 2);
	} else {
		return p;
	}
	if (*q != ' ')
		return p;
	keep(o->wall, sizeof(o->wall), p, (size_t)(q - p));
	return q + 1;
}

/* "host kernel: " (or any "host PROGRAM[PID]: "): past it, or p. */
static const char *host_prefix(const char *p, struct iommu_log_line *o)
{
	size_t h = strcspn(p, " :[");
	const char *q = p + h;

	if (!h || *q != ' ' || strncmp(q + 1, "kernel", 6))
		return p;
	keep(o->host, sizeof(o->host), p, h);
	q += 7;
	if (*q == '[')
		q += strcspn(q, "]") + (q[strcspn(q, "]")] == ']');
	return *q == ':' ? q + 1 + (q[1] == ' ') : p;
}

/* dmesg -x's "kern  :err   : ": past it, or p. */
static const char *facility_prefix(const char *p, struct iommu_log_line *o)
{
	static const char *const levels[] = {
		"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
	};
	const char *q = p + strcspn(p, " :");

	if (q - p > 8 || q == p)
		return p;
	q += strspn(q, " ");
	if (*q++ != ':')
		return p;
	for (int i = 0; i < 8; i++) {
		size_t n = strlen(levels[i]);

		if (!strncmp(q, levels[i], n) && (q[n] == ' ' || q[n] == ':')) {
			q += n + strspn(q + n, " ");
			if (*q != ':')
				return p;
			o->prio = i;
			return q + 1 + (q[1] == ' ');
		}
	}
	return p;
}

/* "[  189.706380]": its end past "]", the time in *us; or NULL. */
static const char *stamp_at(const char *p, uint64_t *us)
{
	uint64_t s, frac;
	const char *q, *f;

	if (*p != '[')
		return NULL;
	for (q = p + 1; *q == ' '; q++)
		;
	if (!(q = fault_dec(q, &s)) || *q != '.' ||
	    !(q = fault_dec(f = q + 1, &frac)) || *q != ']' || q - f > 9 ||
	    s > UINT64_MAX / 1000000)
		return NULL;
	for (ptrdiff_t k = q - f; k < 6; k++)
		frac *= 10;
	for (ptrdiff_t k = q - f; k > 6; k--)
		frac /= 10;
	*us = s * 1000000 + frac;
	return q + 1;
}

/* dmesg -d's "[  +0.000108]": past "]", or NULL. */
static const char *stamp_at_plus(const char *p)
{
	char tmp[32];
	size_t n = strcspn(p, "]");
	uint64_t us;
	const char *plus = strchr(p, '+');

	if (!p[n] || n >= sizeof(tmp) || !plus || plus > p + n)
		return NULL;
	memcpy(tmp, p, (size_t)(plus - p));
	memcpy(tmp + (plus - p), plus + 1, n - (size_t)(plus - p));
	tmp[n - 1] = ']';
	tmp[n] = '\0';
	return stamp_at(tmp, &us) ? p + n + 1 : NULL;
}

/* dmesg -T's "[Tue Apr 29 10:00:01 2025]": past "]", or NULL. */
static const char *human_stamp_at(const char *p, struct iommu_log_line *o)
{
	const char *q = p + 1;

	if (*p != '[' || strlen(q) < 24 || q[3] != ' ' || !month_at(q + 4))
		return NULL;
	q += 8;
	q += *q == ' ';
	q += 1 + is_digit(q[1]);
	if (*q != ' ' || !clock_at(q + 1) || q[9] != ' ' || !digits(q + 10, 4) ||
	    q[14] != ']')
		return NULL;
	keep(o->wall, sizeof(o->wall), p + 1, (size_t)(q + 14 - (p + 1)));
	return q + 15;
}

/* dmesg -r's "<3>", the stamp, a caller ID "[    T1]": past them. */
static const char *dmesg_prefix(const char *p, struct iommu_log_line *o)
{
	uint64_t lvl, us;
	const char *q;

	if (*p == '<' && (q = fault_dec(p + 1, &lvl)) && *q == '>' && lvl < 1024)
		o->prio = (int)(lvl & 7), p = q + 1;
	if ((q = stamp_at(p, &us))) {
		o->time_us = us, o->has_time = true;
		p = q;
	} else if (*p == '[' && p[1 + strspn(p + 1, " ")] == '+' &&
		   (q = stamp_at_plus(p))) {
		p = q;	/* dmesg -d's "[  +0.000108]": no time since boot */
	} else if ((q = human_stamp_at(p, o))) {
		p = q;
	} else {
		return p;
	}
	/* CONFIG_PRINTK_CALLER's "[    T123]" or "[  C1]" */
	q = p + (*p == '[' ? 1 : 0);
	if (q != p) {
		q += strspn(q, " ");
		if ((*q == 'T' || *q == 'C') && is_digit(q[1])) {
			for (q++; is_digit(*q); q++)
				;
			if (*q == ']')
				p = q + 1;
		}
	}
	return p + (*p == ' ');
}

/*
 * /dev/kmsg: "PRIO,SEQ,TIME_US,FLAGS[,caller=...];MESSAGE"
 * (Documentation/ABI/testing/dev-kmsg); PRIO is facility << 3 | level.
 */
static const char *kmsg_prefix(const char *p, struct iommu_log_line *o)
{
	uint64_t prio, seq, t;
	const char *q = fault_dec(p, &prio);

	if (!q || *q != ',' || !(q = fault_dec(q + 1, &seq)) || *q != ',')
		return NULL;
	if (!(q = fault_dec(q + 1, &t)) || *q != ',' || !(q = strchr(q, ';')))
		return NULL;
	o->prio = (int)(prio & 7);
	o->seq = seq, o->has_seq = true;
	o->time_us = t, o->has_time = true;
	return q + 1;
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

/* A kmsg record's " KEY=value" line (SUBSYSTEM=, DEVICE=). */
static bool kmsg_dict_line(const char *p)
{
	size_t n = strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");

	return *p == ' ' && n && p[1 + n] == '=';
}

/* A dmesg stamp after the start: a console line glued on. */
static const char *glued_at(const char *msg)
{
	uint64_t us;

	for (const char *p = strchr(msg + (*msg != '\0'), '['); p;
	     p = strchr(p + 1, '['))
		if (stamp_at(p, &us))
			return p - msg > 3 && p[-1] == '>' && p[-3] == '<' ?
			       p - 3 : p;
	return NULL;
}

/*
 * What mail and Markdown did to the message: quoted-printable's "=3D"
 * for '=', and a "`" around it.
 */
static void unmark(char *msg)
{
	char *w = msg;
	size_t n;

	for (const char *r = msg; *r; r++) {
		*w++ = *r;
		if (r[0] == '=' && r[1] == '3' && r[2] == 'D')
			r += 2;
	}
	*w = '\0';
	n = strlen(msg);
	if (n && msg[n - 1] == '`')
		msg[--n] = '\0';
	if (*msg == '`')
		memmove(msg, msg + 1, n);
}

static void line_init(struct iommu_log_line *o)
{
	o->msg[0] = o->wall[0] = o->host[0] = '\0';
	o->time_us = o->seq = 0;
	o->prio = -1;
	o->has_time = o->has_seq = false;
}

/* The prefixes outside the message, outermost first. */
static const char *prefixes(const char *p, struct iommu_log_line *o)
{
	p += strspn(p, " \t>`|");	/* indents, quotes, Markdown, "  | " */
	p = wall_prefix(p, o);
	p = host_prefix(p, o);
	if (!strncmp(p, "kernel: ", 8))
		p += 8;
	p = facility_prefix(p, o);
	p = dmesg_prefix(p, o);
	return host_prefix(p, o);	/* journalctl -o short-monotonic */
}

bool iommu_log_clean(const char *line, size_t len, struct iommu_log_line *out,
		     const char **rest, size_t *rest_len)
{
	char raw[RAW_MAX];
	const char *msg, *glued;
	size_t n;

	if (rest)
		*rest = NULL, *rest_len = 0;
	line_init(out);
	if (len >= sizeof(raw))
		len = sizeof(raw) - 1;	/* cut: the kernel writes none longer */
	if (memchr(line, '\0', len))
		return false;
	memcpy(raw, line, len);
	while (len && (raw[len - 1] == '\n' || raw[len - 1] == '\r'))
		len--;
	raw[len] = '\0';
	if (kmsg_dict_line(raw))
		return false;
	msg = raw + strspn(raw, " \t>");
	if ((msg = kmsg_prefix(msg, out)))
		return unescape(msg, out->msg, sizeof(out->msg));
	msg = prefixes(raw, out);
	glued = glued_at(msg);
	if (glued && rest) {
		*rest = line + (glued - raw);
		*rest_len = len - (size_t)(glued - raw);
	}
	n = glued ? (size_t)(glued - msg) : strlen(msg);
	while (n && is_blank(msg[n - 1]))
		n--;
	while (n && msg[n - 1] == '\r')
		n--;
	if (n >= sizeof(out->msg))
		return false;
	memcpy(out->msg, msg, n);
	out->msg[n] = '\0';
	unmark(out->msg);
	return true;
}

bool iommu_log_split(const char *line, size_t len, struct iommu_log_line *out)
{
	return iommu_log_clean(line, len, out, NULL, NULL);
}
