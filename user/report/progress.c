// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "report/progress.h"

bool progress_wanted(bool stderr_is_tty, bool no_progress)
{
	return stderr_is_tty && !no_progress;
}

void progress_init(struct progress *p, bool enabled, uint64_t now_ns)
{
	memset(p, 0, sizeof(*p));
	p->enabled = enabled;
	p->start_ns = now_ns;
}

bool progress_due(const struct progress *p, uint64_t now_ns)
{
	if (!p->enabled || now_ns - p->start_ns < PROGRESS_DELAY_NS)
		return false;
	return !p->width || now_ns - p->last_ns >= PROGRESS_INTERVAL_NS;
}

/* "of N" parts only when the total is known and not yet overtaken. */
static int format_text(const struct progress *p, uint64_t now_ns, char *buf,
		       size_t size)
{
	uint64_t ds = (now_ns - p->start_ns) / 100000000ULL;	/* 0.1 s */
	int n;

	if (p->total_procs) {
		n = snprintf(buf, size,
			     "ptcompare: %" PRIu64 " of %" PRIu64 " processes (%" PRIu64 "%%), %" PRIu64 " pages",
			     p->procs, p->total_procs,
			     p->procs * 100 / p->total_procs, p->pages);
		goto time;
	}
	if (p->total_pages && p->pages <= p->total_pages)
		n = snprintf(buf, size,
			     "ptcompare: %" PRIu64 " of %" PRIu64 " pages (%" PRIu64 "%%)",
			     p->pages, p->total_pages,
			     p->pages * 100 / p->total_pages);
	else
		n = snprintf(buf, size, "ptcompare: %" PRIu64 " pages",
			     p->pages);
	if (n < 0 || (size_t)n >= size)
		return n;
	if (p->total_vmas && p->vmas <= p->total_vmas)
		n += snprintf(buf + n, size - n, ", %" PRIu64 " of %" PRIu64 " VMAs",
			      p->vmas, p->total_vmas);
	else
		n += snprintf(buf + n, size - n, ", %" PRIu64 " VMAs", p->vmas);
time:
	if (n < 0 || (size_t)n >= size)
		return n;
	n += snprintf(buf + n, size - n, ", %" PRIu64 ".%" PRIu64 " s",
		      ds / 10, ds % 10);
	return n;
}

size_t progress_line(struct progress *p, uint64_t now_ns, char *buf,
		     size_t size)
{
	char text[PROGRESS_MAX_WIDTH + 1];
	int n = format_text(p, now_ns, text, sizeof(text));
	size_t len, pad;

	if (n < 0 || !size) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	len = (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1;
	pad = p->width > len ? p->width - len : 0;
	n = snprintf(buf, size, "\r%s%*s", text, (int)pad, "");
	if (n < 0 || (size_t)n >= size) {
		buf[0] = '\0';
		return 0;
	}
	p->width = len;
	p->last_ns = now_ns;
	return (size_t)n;
}

size_t progress_clear(struct progress *p, char *buf, size_t size)
{
	int n = 0;

	if (size)
		buf[0] = '\0';
	if (!p->width)
		return 0;
	n = snprintf(buf, size, "\r%*s\r", (int)p->width, "");
	p->width = 0;
	if (n < 0 || (size_t)n >= size) {
		buf[0] = '\0';
		return 0;
	}
	return (size_t)n;
}
