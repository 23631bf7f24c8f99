// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID: cross-checks /proc/PID/pagemap against ptwalk.ko, page by
 * page, and explains every difference.  main() parses the command line
 * into one mode (parse/cli.c) and runs it from the table of modes below:
 * the scan of one process is cmd/mode_scan.c's pipeline, each other mode
 * is cmd/mode_NAME.c.  The exit status is the verdict or the kind of
 * failure (model/outcome.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include "cmd/connect.h"
#include "cmd/mode_all.h"
#include "cmd/mode_dma.h"
#include "cmd/mode_dma_track.h"
#include "cmd/mode_faults.h"
#include "cmd/mode_iommu.h"
#include "cmd/mode_iommu_watch.h"
#include "cmd/mode_phys.h"
#include "cmd/mode_scan.h"
#include "cmd/mode_vtop.h"
#include "cmd/mode_watch.h"
#include "model/outcome.h"
#include "parse/cli.h"
#include "report/usage.h"

static int mode_help(const struct cli_options *o, char *msg, size_t size)
{
	(void)o;
	(void)msg;
	(void)size;
	usage_print(stdout);
	return EXIT_OK;
}

static int mode_version(const struct cli_options *o, char *msg, size_t size)
{
	char line[600];

	(void)msg;
	(void)size;
	connect_describe(o, line, sizeof(line));
	version_print(stdout, line);
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
	[MODE_FAULTS] = mode_faults,
	[MODE_IOMMU_WATCH] = mode_iommu_watch,
	[MODE_DMA_TRACK] = mode_dma_track,
	[MODE_DMA] = mode_dma,
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
