/* SPDX-License-Identifier: GPL-2.0 */
/* ptcompare's vtop mode: one address, level by level (engine/vtop.c). */
#ifndef PTCOMPARE_CMD_MODE_VTOP_H
#define PTCOMPARE_CMD_MODE_VTOP_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * Runs it for o->pid, o->vtop_addr: the exit status (model/outcome.h),
 * msg set when it is a failure's (above EXIT_MISMATCH).
 */
int mode_vtop(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_VTOP_H */
