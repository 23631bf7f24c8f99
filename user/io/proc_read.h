/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way ptcompare reads a file by offset (/proc/PID/pagemap,
 * /proc/kpageflags, /proc/PID/stat and comm): pread() again after a
 * signal (EINTR) and after a short read, until the bytes asked for or the
 * end of the file.
 */
#ifndef PTCOMPARE_PROC_READ_H
#define PTCOMPARE_PROC_READ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What reads cost, for --stats. */
struct read_count {
	uint64_t calls;		/* pread()s that returned data or end of file */
	uint64_t bytes;
};

/*
 * Reads size bytes at off from fd into buf: the bytes read, fewer only at
 * the end of the file, or -errno.  count (if not NULL) adds what was read,
 * also when an error ends the read.
 */
ssize_t proc_pread(int fd, void *buf, size_t size, off_t off,
		   struct read_count *count);

#endif /* PTCOMPARE_PROC_READ_H */
