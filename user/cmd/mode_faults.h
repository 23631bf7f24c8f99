/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --faults [--since SECONDS] and --faults --fault-line TEXT:
 * the IOMMU faults of the kernel log (parse/iommu_fault.h), each
 * explained by the device view, the VFIO owner's page tables, the
 * recorder's events (engine/fault_explain.h) and the --phys machinery
 * (cmd/mode_phys.h); report/fault_print.h writes them.
 */
#ifndef PTCOMPARE_CMD_MODE_FAULTS_H
#define PTCOMPARE_CMD_MODE_FAULTS_H

#include <stddef.h>
#include "parse/cli.h"

/* Faults kept from the log at most, before repeats are collapsed. */
#define FAULTS_MAX	65536

/*
 * The exit status: 1 when the log (or the line) holds an IOMMU fault, 0
 * when none; a failure's own status with msg set.
 */
int mode_faults(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_FAULTS_H */
