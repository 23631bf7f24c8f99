// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "io/spool.h"

const char *spool_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/*
 * An unnamed file where possible (O_TMPFILE); on file systems without it, a
 * named one unlinked at once.  glibc's tmpfile() would ignore TMPDIR.
 */
FILE *spool_open(void)
{
	const char *dir = spool_dir();
	char path[4096];
	FILE *f;
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {
		if (snprintf(path, sizeof(path), "%s/ptcompare.XXXXXX", dir) >=
		    (int)sizeof(path)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w+");
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}
