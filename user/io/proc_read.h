/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way ptcompare reads a file by offset (/proc/PID/pagemap,
 * /proc/kpageflags, /proc/PID/stat and comm): pread() again after a
 * signal (EINTR) and after a short read, until the bytes asked for or the
 * end of the file.  And /proc/PID/maps line by line, outside a scan
 * (whose VMA queue reads its own, cmd/session.c), and the targets of
 * /proc/PID/fd's links.
 */
#ifndef PTCOMPARE_PROC_READ_H
#define PTCOMPARE_PROC_READ_H

#include <stdbool.h>
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

/* Frame pfn's /proc/kpageflags word: false if it cannot be read. */
bool proc_kpageflags(uint64_t pfn, uint64_t *kpf);

/*
 * Calls fn(line, arg) for each line of /proc/PID/maps until fn returns
 * true: 0, or -errno when the file does not open.
 */
int proc_maps_each(pid_t pid, bool (*fn)(char *line, void *arg),
		   void *arg);

/*
 * Calls fn(fd, link, arg) for each open file of pid (fd its number as
 * named in /proc/PID/fd, link what the link reads) until fn returns true;
 * links that no longer read (the file closed meanwhile) are passed over.
 * 0, or -errno when /proc/PID/fd does not open.
 */
int proc_fd_each(pid_t pid,
		 bool (*fn)(const char *fd, const char *link, void *arg),
		 void *arg);

#endif /* PTCOMPARE_PROC_READ_H */
