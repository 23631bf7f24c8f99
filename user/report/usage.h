/* SPDX-License-Identifier: GPL-2.0 */
/* ptcompare --help and --version. */
#ifndef PTCOMPARE_REPORT_USAGE_H
#define PTCOMPARE_REPORT_USAGE_H

#include <stdio.h>

/* The usage text of --help, on f. */
void usage_print(FILE *f);

/* --version's lines: the version, the ABI, then interface (one line). */
void version_print(FILE *f, const char *interface);

#endif /* PTCOMPARE_REPORT_USAGE_H */
