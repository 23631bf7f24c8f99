// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID: the scan of one process, as a pipeline:
 *
 *   open      ptwalk's sessions, /proc, the witnesses, the report's
 *             spools (cmd/session.c)
 *   scan      VMA by VMA, by one engine or by the --jobs (cmd/scan.c,
 *             cmd/job_pool.c), the progress line beside it
 *             (cmd/progress_hooks.c)
 *   finish    the DMA view and its PCI owners, the document
 *             (report_finish()), the --stats line (cmd/stats.c)
 *   close     whatever was opened, whatever happened (cmd/session.c)
 *
 * and its exit status is the verdict or the kind of failure
 * (model/outcome.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include "cmd/memtype_check.h"
#include "cmd/mode_scan.h"
#include "cmd/progress_hooks.h"
#include "cmd/scan.h"
#include "cmd/stats.h"
#include "io/pci_sysfs.h"

/* The end of a scan: the DMA view, the document, --stats; the verdict. */
static int finish(struct scan *sc)
{
	struct report_target t = { .pid = sc->ses.src.pid };
	struct utsname u;
	int err;

	progress_end(&sc->progress.line);
	err = memtype_check(sc);
	if (err != EXIT_OK)
		return err;
	t.comm = sc->ses.comm;	/* read by scan_all() */
	t.kernel = uname(&u) ? "?" : u.release;
	t.absent_flags = sc->ses.absent_flags;
	if (sc->ses.opts->has_range) {
		dma_finish(&sc->dma);
		/* frames without struct page: which device's BAR, if any */
		pci_find_devmem_owners(PCI_SYSFS_DEVICES, sc->dma.t.devmem,
				       sc->dma.t.nr_devmem, sc->dma.t.page_shift,
				       sc->dma_report.owners);
	}
	err = report_finish(&sc->report, &t);
	if (err) {
		return session_report_failed(&sc->ses, err);
	}
	if (sc->ses.opts->stats) {
		stats_add_jobs(sc);
		stats_print(sc, stderr);
	}
	return report_has_mismatch(&sc->report) ? EXIT_MISMATCH : EXIT_OK;
}

int mode_scan(const struct cli_options *o, char *msg, size_t size)
{
	struct scan sc = { .started_ns = monotonic_ns() };
	int status;

	(void)msg;
	(void)size;	/* the session says its own failures */
	/*
	 * No transparent huge pages for ptcompare's own memory: each engine's
	 * arrays are large and touched sparsely, and with THP "always" one
	 * touched byte made 2 MiB resident, at the whim of the alignment and
	 * of khugepaged (one --jobs 8 run peaked at twice the RSS of the
	 * next).  Best effort: a kernel without it (before 3.15) only keeps
	 * the old behaviour.
	 */
	(void)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	scan_init(&sc, o);
	status = scan_open(&sc);
	if (status == EXIT_OK)
		status = scan_all(&sc);
	if (status == EXIT_OK)
		status = finish(&sc);
	scan_close(&sc);
	return status;
}
