/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --stats: one line on stderr of what the scan read and what it cost
 * (docs/performance.md reads it; the VM jobs cases parse it by field).
 */
#ifndef PTCOMPARE_CMD_STATS_H
#define PTCOMPARE_CMD_STATS_H

#include <stdio.h>
#include "cmd/scan.h"

/* Adds the jobs' reads to s->src's, so that the line counts them all. */
void stats_add_jobs(struct scan *sc);

/* Writes the line to f. */
void stats_print(const struct scan *sc, FILE *f);

#endif /* PTCOMPARE_CMD_STATS_H */
