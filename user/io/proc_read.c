// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>
#include "io/proc_read.h"

ssize_t proc_pread(int fd, void *buf, size_t size, off_t off,
		   struct read_count *count)
{
	size_t got = 0;

	while (got < size) {
		ssize_t r = pread(fd, (char *)buf + got, size - got,
				  off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (count) {
			count->calls++;
			count->bytes += (uint64_t)r;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}
