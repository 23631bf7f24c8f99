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

int memtype_check(struct scan *sc)
{
	struct memtype_suspects *m = &sc->suspects;
	struct phys_scan *ps;
	int err;

	if (!m->n) {
		report_add_memtypes(&sc->report, NULL, m->dropped_pages);
		return EXIT_OK;
	}
	suspects_finish(m);
	ps = malloc(sizeof(*ps));
	if (!ps) {
		snprintf(sc->ses.msg, sizeof(sc->ses.msg), "out of memory");
		return session_fail(&sc->ses, FAIL_INTERNAL);
	}
	sc->memtype_scan = ps;
	phys_scan_init(ps, sc->ses.src.walk_fd[0], m->run, m->n, sc->ses.geom.shift);
	err = phys_scan_process(ps, sc->ses.src.pid);
	if (!err)
		err = phys_scan_view(ps, &sc->memtype_view);
	if (err == -ENOMEM) {
		snprintf(sc->ses.msg, sizeof(sc->ses.msg), "out of memory");
		return session_fail(&sc->ses, FAIL_INTERNAL);
	}
	if (err)
		return session_scan_failed(&sc->ses, -err);
	if (ps->exited || ps->no_mm) {
		/* gone since the scan: its pages stand, unchecked */
		report_add_memtypes(&sc->report, NULL, suspect_pages(m));
		return EXIT_OK;
	}
	report_add_memtypes(&sc->report, &sc->memtype_view, m->dropped_pages);
	return EXIT_OK;
}
