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
 * (model/outcome.h).  With ADDR, cmd/mode_vtop.c translates one address
 * instead.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include "cmd/connect.h"
#include "cmd/jobs_run.h"
#include "cmd/mode_all.h"
#include "cmd/mode_iommu.h"
#include "cmd/mode_phys.h"
#include "cmd/mode_scan.h"
#include "cmd/mode_vtop.h"
#include "cmd/mode_watch.h"
#include "io/ptwalk_client.h"
#include "model/outcome.h"
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
		"       ptcompare [--json] --iommu DEVICE [--iova IOVA] --range START-END PID\n"
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

static int mode_help(const struct cli_options *o, char *msg, size_t size)
{
	(void)o;
	(void)msg;
	(void)size;
	usage(stdout);
	return EXIT_OK;
}

static int mode_version(const struct cli_options *o, char *msg, size_t size)
{
	char line[600];

	(void)msg;
	(void)size;
	connect_describe(o, line, sizeof(line));
	printf("ptcompare %s (ptwalk ABI %d)\n%s\n", PTCOMPARE_VERSION,
	       PTWALK_ABI_VERSION, line);
	return EXIT_OK;
}

/*
 * Each mode's entry: the exit status (model/outcome.h), and msg set when
 * it is a failure the mode did not say itself (above EXIT_MISMATCH).
 */
static int (*const modes[NR_MODES])(const struct cli_options *o, char *msg,
				    size_t size) = {
	[MODE_SCAN] = mode_scan,
	[MODE_VTOP] = mode_vtop,
	[MODE_IOMMU] = mode_iommu,
	[MODE_PHYS] = mode_phys,
	[MODE_ALL] = mode_all,
	[MODE_WATCH] = mode_watch,
	[MODE_HELP] = mode_help,
	[MODE_VERSION] = mode_version,
};

int main(int argc, char **argv)
{
	struct cli_options o;
	char msg[512] = "";
	int status;

	if (!cli_parse(argc, argv, &o, msg, sizeof(msg))) {
		fprintf(stderr, "ptcompare: %s\n", msg);
		return FAIL_USAGE;
	}
	status = modes[o.mode](&o, msg, sizeof(msg));
	if (status > EXIT_MISMATCH && msg[0])
		fprintf(stderr, "ptcompare: %s\n", msg);
	return status;
}
