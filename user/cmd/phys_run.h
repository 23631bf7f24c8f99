/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --phys ADDR[-END]: every mapping of those frames in every user
 * process, from ptwalk's records (so VM_PFNMAP mappings pagemap hides are
 * seen too), and the frames mapped with more than one memory type.
 */
#ifndef PTCOMPARE_CMD_PHYS_RUN_H
#define PTCOMPARE_CMD_PHYS_RUN_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * Mappings kept at most: 64 bytes each with their VMA and process, 4 MiB
 * in all; beyond it they are counted and the report says so.
 */
#define PHYS_MAX_MAPPINGS 65536

/* The exit status (1: a memtype conflict); msg says a failure's cause. */
int phys_run(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_PHYS_RUN_H */
