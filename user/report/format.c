// SPDX-License-Identifier: GPL-2.0
/* What every section of a report shares: its format, its spools. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <sys/types.h>
#include "report/format.h"

int report_copy_spool(FILE *spool, FILE *out)
{
	char buf[65536];
	off_t left;
	size_t n;

	if (!spool)
		return 0;
	if (fflush(spool) == EOF || (left = ftello(spool)) < 0 ||
	    fseek(spool, 0, SEEK_SET))
		return -errno;
	while (left > 0 &&
	       (n = fread(buf, 1, left < (off_t)sizeof(buf) ? (size_t)left :
			  sizeof(buf), spool)) > 0) {
		left -= (off_t)n;
		if (fwrite(buf, 1, n, out) != n)
			return -errno;
	}
	return ferror(spool) ? -EIO : left ? -EIO : 0;
}
