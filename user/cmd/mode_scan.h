/* SPDX-License-Identifier: GPL-2.0 */
/* ptcompare PID: every VMA of one process, pagemap against ptwalk. */
#ifndef PTCOMPARE_CMD_MODE_SCAN_H
#define PTCOMPARE_CMD_MODE_SCAN_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * Runs it for o->pid: the exit status (model/outcome.h).  The scan says
 * its own failures on stderr: msg stays empty.
 */
int mode_scan(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_SCAN_H */
