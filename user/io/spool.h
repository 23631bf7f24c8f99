/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read/write streams for the report's parts: held in memory while they
 * are small, moved to a temporary file in $TMPDIR (default /tmp) when
 * they outgrow that.
 */
#ifndef PTCOMPARE_SPOOL_H
#define PTCOMPARE_SPOOL_H

#include <stddef.h>
#include <stdio.h>

/*
 * Bytes a spool keeps in memory before it moves to a file: five spools
 * of one scan hold 320 KiB at most.
 */
#define SPOOL_MEM_MAX	(64 * 1024)

/* The directory spool files go to. */
const char *spool_dir(void);

/*
 * A new read/write stream that disappears when closed; NULL with errno.
 * No file is created until more than SPOOL_MEM_MAX bytes are written;
 * if it cannot be then, that write fails (ferror()) with errno set.
 */
FILE *spool_open(void);

/* spool_open() with another limit than SPOOL_MEM_MAX (for the tests). */
FILE *spool_open_max(size_t mem_max);

#endif /* PTCOMPARE_SPOOL_H */
