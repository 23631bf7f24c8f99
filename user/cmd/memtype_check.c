// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/memtype_check.h"
#include "model/page.h"

/* Pages of the suspects: what goes unchecked when the process is gone. */
static uint64_t suspect_pages(const struct memtype_suspects *m)
{
	uint64_t pages = m->dropped_pages;

	for (size_t i = 0; i < m->n; i++)
		pages += m->run[i].pages;
	return pages;
}

int memtype_check(struct session *s)
{
	struct memtype_suspects *m = &s->suspects;
	struct phys_scan *ps;
	int err;

	if (!m->n) {
		report_add_memtypes(&s->report, NULL, m->dropped_pages);
		return EXIT_OK;
	}
	suspects_finish(m);
	ps = malloc(sizeof(*ps));
	if (!ps) {
		snprintf(s->msg, sizeof(s->msg), "out of memory");
		return session_fail(s, FAIL_INTERNAL);
	}
	s->memtype_scan = ps;
	phys_scan_init(ps, s->src.walk_fd[0], m->run, m->n, s->geom.shift);
	err = phys_scan_process(ps, s->src.pid);
	if (!err)
		err = phys_scan_view(ps, &s->memtype_view);
	if (err == -ENOMEM) {
		snprintf(s->msg, sizeof(s->msg), "out of memory");
		return session_fail(s, FAIL_INTERNAL);
	}
	if (err)
		return session_scan_failed(s, -err);
	if (ps->exited || ps->no_mm) {
		/* gone since the scan: its pages stand, unchecked */
		report_add_memtypes(&s->report, NULL, suspect_pages(m));
		return EXIT_OK;
	}
	report_add_memtypes(&s->report, &s->memtype_view, m->dropped_pages);
	return EXIT_OK;
}
