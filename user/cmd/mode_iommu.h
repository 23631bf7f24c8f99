/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --iommu: the device's view of a process range, or one device
 * address translated (engine/device_view.h, report/device_print.h).
 */
#ifndef PTCOMPARE_CMD_MODE_IOMMU_H
#define PTCOMPARE_CMD_MODE_IOMMU_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * Runs it as o says: the exit status (model/outcome.h), msg set when it
 * is a failure's (above EXIT_MISMATCH).
 */
int mode_iommu(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_IOMMU_H */
