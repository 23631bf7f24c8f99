/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --watch SECONDS [--interval MS] --range START-END PID: the
 * range read again and again (ptwalk's records and pagemap both), each
 * change printed as it is seen (engine/watch.h, report/watch_print.h),
 * until the time is up, SIGINT or SIGTERM, or the process exits.
 */
#ifndef PTCOMPARE_CMD_MODE_WATCH_H
#define PTCOMPARE_CMD_MODE_WATCH_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * The exit status: 1 when a DMA-pinned page got another frame, 7 when
 * the process exited (the end line printed first); msg a failure's cause.
 */
int mode_watch(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_WATCH_H */
