// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/array.h"
#include "io/spool.h"

const char *spool_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/*
 * An unnamed file where possible (O_TMPFILE); on file systems without it, a
 * named one unlinked at once.  glibc's tmpfile() would ignore TMPDIR.
 * The fd, or -1 with errno.
 */
static int spool_file(void)
{
	const char *dir = spool_dir();
	char path[4096];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {
		if (snprintf(path, sizeof(path), "%s/ptcompare.XXXXXX", dir) >=
		    (int)sizeof(path)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	return fd;
}

/*
 * Most spools of a run stay small (a process of a few VMAs: a dozen rows),
 * and creating the files, writing, seeking and reading them back would
 * be a good part of a small run's fixed cost: the bytes stay in memory
 * until they pass the limit.
 */
/* The first memory a spool takes: a few rows of the report. */
#define SPOOL_MEM_FIRST	(8 * 1024)

/*
 * stdio's buffer of a spool: glibc gives a stream of its own functions
 * 8 KiB and reads it back in reads of that size; a large report's copy
 * (--range over 10,000 VMAs, 1 MiB of rows) then took 148 reads more
 * than the 64 KiB freads of a plain file.  The pages are touched only as
 * far as the spool is written.
 */
#define SPOOL_IO_BUF	(64 * 1024)

struct spool {
	char io[SPOOL_IO_BUF];	/* stdio's buffer */
	char *buf;		/* the bytes while in memory */
	size_t len, cap, pos;
	size_t max;		/* the memory limit */
	int fd;			/* the file once moved there, else -1 */
};

static bool write_all(int fd, const char *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		b += w;
		n -= (size_t)w;
	}
	return true;
}

/* The bytes so far into a new file, at the same position: 0 or -1. */
static int spill(struct spool *s)
{
	int fd = spool_file();

	if (fd < 0)
		return -1;
	if (!write_all(fd, s->buf, s->len) ||
	    lseek(fd, (off_t)s->pos, SEEK_SET) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	free(s->buf);
	s->buf = NULL;
	s->len = s->cap = 0;
	s->fd = fd;
	return 0;
}

/* Room for end bytes in memory (end <= s->max): false if out of memory. */
static bool reserve(struct spool *s, size_t end)
{
	char *b = array_grow(s->buf, &s->cap, end, 1, SPOOL_MEM_FIRST,
			     s->max);

	if (!b)
		return false;
	s->buf = b;
	return true;
}

/* cookie_io_functions_t: 0 on error, never negative. */
static ssize_t spool_write(void *cookie, const char *b, size_t n)
{
	struct spool *s = cookie;

	if (s->fd < 0 && (n > s->max || s->pos > s->max - n) && spill(s))
		return 0;
	if (s->fd >= 0) {
		ssize_t w;

		do
			w = write(s->fd, b, n);
		while (w < 0 && errno == EINTR);
		return w < 0 ? 0 : w;
	}
	if (!reserve(s, s->pos + n)) {
		errno = ENOMEM;
		return 0;
	}
	/* a seek past the end leaves a hole, read as zeros as in a file */
	if (s->pos > s->len)
		memset(s->buf + s->len, 0, s->pos - s->len);
	memcpy(s->buf + s->pos, b, n);
	s->pos += n;
	if (s->pos > s->len)
		s->len = s->pos;
	return (ssize_t)n;
}

static ssize_t spool_read(void *cookie, char *b, size_t n)
{
	struct spool *s = cookie;
	size_t left;

	if (s->fd >= 0)
		return read(s->fd, b, n);
	left = s->pos < s->len ? s->len - s->pos : 0;
	if (n > left)
		n = left;
	memcpy(b, s->buf + s->pos, n);
	s->pos += n;
	return (ssize_t)n;
}

static int spool_seek(void *cookie, off64_t *off, int whence)
{
	struct spool *s = cookie;
	int64_t base;

	if (s->fd >= 0) {
		off64_t r = lseek64(s->fd, *off, whence);

		if (r < 0)
			return -1;
		*off = r;
		return 0;
	}
	base = whence == SEEK_SET ? 0 :
	       whence == SEEK_CUR ? (int64_t)s->pos :
	       whence == SEEK_END ? (int64_t)s->len : -1;
	if (base < 0 || (*off < 0 && -*off > base)) {
		errno = EINVAL;
		return -1;
	}
	s->pos = (size_t)(base + *off);
	*off = (off64_t)s->pos;
	return 0;
}

static int spool_close(void *cookie)
{
	struct spool *s = cookie;
	int err = s->fd >= 0 ? close(s->fd) : 0;

	free(s->buf);
	free(s);
	return err;
}

FILE *spool_open_max(size_t mem_max)
{
	static const cookie_io_functions_t io = {
		.read = spool_read,
		.write = spool_write,
		.seek = spool_seek,
		.close = spool_close,
	};
	/* not calloc(): io need not be zeroed, nor its pages touched */
	struct spool *s = malloc(sizeof(*s));
	FILE *f;

	if (!s)
		return NULL;
	s->buf = NULL;
	s->len = s->cap = s->pos = 0;
	s->fd = -1;
	s->max = mem_max;
	f = fopencookie(s, "w+", io);
	if (!f || setvbuf(f, s->io, _IOFBF, sizeof(s->io))) {
		if (f)
			fclose(f);
		else
			free(s);
		return NULL;
	}
	return f;
}

FILE *spool_open(void)
{
	return spool_open_max(SPOOL_MEM_MAX);
}
