// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID: cross-checks /proc/PID/pagemap against ptwalk.ko, page by
 * page, and explains every difference.  main() is the pipeline:
 *
 *   parse     the command line (parse/cli.c)
 *   open      ptwalk's sessions, /proc, the witnesses, the report's
 *             spools (cmd/session.c)
 *   scan      VMA by VMA, by one engine or by the --jobs (cmd/scan.c,
 *             cmd/jobs_run.c), the progress line beside it
 *             (cmd/progress_hooks.c)
 *   finish    the DMA view and its PCI owners, the document
 *             (report_finish()), the --stats line (cmd/stats.c)
 *   close     whatever was opened, whatever happened (cmd/session.c)
 *
 * and its exit status is the verdict or the kind of failure
 * (model/outcome.h).  With ADDR, cmd/vtop_run.c translates one address
 * instead.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include "cmd/all_run.h"
#include "cmd/connect.h"
#include "cmd/iommu_run.h"
#include "cmd/memtype_check.h"
#include "cmd/phys_run.h"
#include "cmd/progress_hooks.h"
#include "cmd/scan.h"
#include "cmd/session.h"
#include "cmd/stats.h"
#include "cmd/vtop_run.h"
#include "cmd/watch_run.h"
#include "io/pci_sysfs.h"
#include "io/ptwalk_client.h"
#include "parse/cli.h"

#include "module/ptwalk_version.h"
#define PTCOMPARE_VERSION PTWALK_VERSION

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptcompare [--json] [--stats] [--no-progress] [--kpageflags]\n"
		"                 [--jobs N] [--range START-END] [--debugfs DIR]\n"
		"                 [--device DEV] PID\n"
		"       ptcompare [--json] [--debugfs DIR] [--device DEV] PID ADDR\n"
		"                 (or --vtop ADDR PID)\n"
		"       ptcompare [--json] --iommu DEVICE [--dma-api] [--iova IOVA] --range START-END PID\n"
		"       ptcompare [--json] --iommu DEVICE IOVA\n"
		"       ptcompare [--json] [--debugfs DIR] [--device DEV] --phys ADDR[-END]\n"
		"       ptcompare [--json] [--stats] [--kpageflags] [--jobs N] --all\n"
		"       ptcompare [--json] --watch SECONDS [--interval MS] --range START-END PID\n"
		"Compares, page by page, the frames /proc/PID/pagemap reports with those\n"
		"ptwalk.ko finds in the process's page tables, and explains every difference.\n"
		"With ADDR, translates that one address level by level instead (like crash's vtop).\n"
		"  --json             one JSON document instead of the report\n"
		"  --range START-END  only this range (hex, END exclusive, page aligned),\n"
		"                     with its DMA view: contiguous runs, 4 GiB, holes, locking\n"
		"  --vtop ADDR        translate ADDR (hex, any alignment): entries per level,\n"
		"                     frame, physical address, VMA, pagemap's entry, verdict\n"
		"  --all              every user process: a row each, the findings of all,\n"
		"                     memtype conflicts across processes\n"
		"  --watch SECONDS    read --range again and again for SECONDS and print\n"
		"                     each change of a page's frame or state, with its\n"
		"                     cause; a DMA-pinned page that moves is a finding\n"
		"  --interval MS      between readings of --watch (default 250)\n"
		"  --phys ADDR[-END]  who maps these frames (hex physical, END exclusive):\n"
		"                     every mapping in every process, its memory type,\n"
		"                     and frames mapped with different memory types\n"
		"  --debugfs DIR      debugfs mount point (default %s)\n"
		"  --device DEV       ptwalk's device (default %s), used when debugfs\n"
		"                     cannot be (kernel lockdown); --debugfs or --device\n"
		"                     alone: only that one is tried\n"
		"  --iommu DEVICE     the device's view: what DEVICE's IOMMU domain (a PCI\n"
		"                     address, e.g. 0000:00:03.0) translates each page to,\n"
		"                     beside the page tables' frame; or one device address\n"
		"  --iova IOVA        device address of START (default: START, IOVA = VA)\n"
		"  --dma-api          read a kernel DMA-API domain too (a risk: ptcompare(1))\n"
		"  --stats            print what was read and the peak memory on stderr\n"
		"  --kpageflags       cross-check present frames with /proc/kpageflags too\n"
		"                     (a third witness; it reads 8 bytes per frame)\n"
		"  --jobs N           scan with N threads at once (1 to %d; default: the\n"
		"                     online CPUs, at most %d); the report is the same\n"
		"  --no-progress      no progress line on stderr (shown on a terminal\n"
		"                     when a scan takes more than a second)\n"
		"  -h, --help, --version\n"
		"Exit status: 0 every page explained, 1 a mismatch (or a memtype\n"
		"conflict) remains, 2 usage,\n"
		"3 ptwalk not loaded, 4 lockdown, 5 privilege, 6 no such process,\n"
		"7 exited during the scan, 8 no user memory, 9 internal or I/O error,\n"
		"10 no such device, 11 no IOMMU group, 12 IOMMU domain unreadable or\n"
		"unsupported, 13 IOVA outside the aperture.\n",
		PTWALK_DEFAULT_DEBUGFS, PTWALK_DEFAULT_DEVICE, JOBS_MAX, JOBS_MAX);
}

/* The end of a scan: the DMA view, the document, --stats; the verdict. */
static int finish(struct session *s)
{
	struct report_target t = { .pid = s->src.pid };
	struct utsname u;
	int err;

	progress_end(s);
	err = memtype_check(s);
	if (err != EXIT_OK)
		return err;
	t.comm = s->comm;	/* read by scan_all() */
	t.kernel = uname(&u) ? "?" : u.release;
	t.absent_flags = s->absent_flags;
	if (s->opts->has_range) {
		dma_finish(&s->dma);
		/* frames without struct page: which device's BAR, if any */
		pci_find_devmem_owners(PCI_SYSFS_DEVICES, s->dma.t.devmem,
				       s->dma.t.nr_devmem, s->dma.t.page_shift,
				       s->dma_report.owners);
	}
	err = report_finish(&s->report, &t);
	if (err) {
		return session_report_failed(s, err);
	}
	if (s->opts->stats) {
		stats_add_jobs(s);
		stats_print(s, stderr);
	}
	return report_has_mismatch(&s->report) ? EXIT_MISMATCH : EXIT_OK;
}

/*
 * --help, --version, one address, --phys, --all or --watch: the runs that
 * are not one scan of one process.
 */
static int run_other(const struct cli_options *o)
{
	char msg[512];
	int status;

	if (o->help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (o->version) {
		char line[600];

		connect_describe(o, line, sizeof(line));
		printf("ptcompare %s (ptwalk ABI %d)\n%s\n", PTCOMPARE_VERSION,
		       PTWALK_ABI_VERSION, line);
		return EXIT_OK;
	}
	msg[0] = '\0';
	status = o->iommu ? iommu_run(o, msg, sizeof(msg)) :
		 o->phys ? phys_run(o, msg, sizeof(msg)) :
		 o->all ? all_run(o, msg, sizeof(msg)) :
		 o->watch_s ? watch_run(o, msg, sizeof(msg)) :
		 vtop_run(o, msg, sizeof(msg));
	/* --all's scans say their own failures */
	if (status > EXIT_MISMATCH && msg[0])
		fprintf(stderr, "ptcompare: %s\n", msg);
	return status;
}

int main(int argc, char **argv)
{
	struct cli_options o;
	struct session s = { .started_ns = monotonic_ns() };
	int status;

	if (!cli_parse(argc, argv, &o, s.msg, sizeof(s.msg))) {
		fprintf(stderr, "ptcompare: %s\n", s.msg);
		return FAIL_USAGE;
	}
	if (o.help || o.version || o.vtop || o.iommu || o.phys || o.all ||
	    o.watch_s)
		return run_other(&o);
	/*
	 * No transparent huge pages for ptcompare's own memory: each engine's
	 * arrays are large and touched sparsely, and with THP "always" one
	 * touched byte made 2 MiB resident, at the whim of the alignment and
	 * of khugepaged (the VM suite saw --jobs 8 peak at 7.9 MiB in one run
	 * and 16.6 MiB in the next).  Best effort: a kernel without it
	 * (before 3.15) only keeps the old behaviour.
	 */
	(void)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	session_init(&s, &o);
	status = session_open(&s);
	if (status == EXIT_OK)
		status = scan_all(&s);
	if (status == EXIT_OK)
		status = finish(&s);
	session_close(&s);
	return status;
}
