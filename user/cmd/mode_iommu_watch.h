/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --iommu DEVICE --watch SECONDS [--interval MS] [--range
 * START-END]: the maps and unmaps of the device's IOVAs (START-END:
 * device addresses) as ptwalk.ko's recorder saw them, a line each as they
 * are read (engine/iommu_watch.h, report/iommu_watch_print.h), until the
 * time is up, SIGINT or SIGTERM.
 */
#ifndef PTCOMPARE_CMD_MODE_IOMMU_WATCH_H
#define PTCOMPARE_CMD_MODE_IOMMU_WATCH_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * The exit status: 0 when the watch ran to its end; a failure's own
 * (model/outcome.h: 15 no recorder, 16 not driven through VFIO, ...)
 * with msg set.
 */
int mode_iommu_watch(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_IOMMU_WATCH_H */
