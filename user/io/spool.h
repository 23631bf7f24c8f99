/* SPDX-License-Identifier: GPL-2.0 */
/* Temporary files for the report's parts, in $TMPDIR (default /tmp). */
#ifndef PTCOMPARE_SPOOL_H
#define PTCOMPARE_SPOOL_H

#include <stdio.h>

/* The directory spool_open() uses. */
const char *spool_dir(void);

/* A new read/write file that disappears when closed; NULL with errno. */
FILE *spool_open(void);

#endif /* PTCOMPARE_SPOOL_H */
