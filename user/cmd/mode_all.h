/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --all: every user process scanned as `ptcompare PID` scans one
 * (kernel threads and zombies skipped, processes that exit on the way
 * counted, never errors), a row per process and the findings of all, then
 * the memory-type check across all of them: the frames any process maps
 * with another type than the default, looked for in every process.
 */
#ifndef PTCOMPARE_CMD_MODE_ALL_H
#define PTCOMPARE_CMD_MODE_ALL_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * Suspect runs of frames kept across processes: 16 bytes each, 1 MiB in
 * all; beyond it they are counted as not checked.
 */
#define ALL_SUSPECTS_MAX 65536

/* The exit status (1: a mismatch or a memtype conflict); msg a failure's cause. */
int mode_all(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_ALL_H */
