/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SIGINT and SIGTERM as something to poll for, not a handler: the
 * watches (--watch, --iommu --watch) block them and wait on a signalfd
 * between readings, so that either ends the watch with its last line
 * printed and nothing else needs a global flag.
 */
#ifndef PTCOMPARE_IO_STOP_SIGNALS_H
#define PTCOMPARE_IO_STOP_SIGNALS_H

#include <stdbool.h>
#include <stdint.h>

/* Blocks SIGINT and SIGTERM: a signalfd that reads them, or -errno. */
int stop_signals_open(void);

/* Waits up to ms on fd: true when one of them came. */
bool stop_signal_wait(int fd, uint64_t ms);

#endif /* PTCOMPARE_IO_STOP_SIGNALS_H */
