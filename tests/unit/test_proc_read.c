// SPDX-License-Identifier: GPL-2.0
/*
 * proc_pread() (io/proc_read.c), the one pread loop of ptcompare's /proc
 * readers.  Real files do not interrupt or cut reads on demand, so this
 * test puts its own pread() in front of libc's: it can fail with EINTR a
 * few times, or hand out a few bytes at a time, before the real read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "unit.h"
#include "io/proc_read.h"

static struct fake_pread {
	int eintr;		/* calls left that fail with EINTR */
	size_t chunk;		/* at most this many bytes a call; 0: any */
	int calls;
} fake;

/* Resolves proc_read.o's calls: the test's own, not libc's. */
ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	fake.calls++;
	if (fake.eintr > 0) {
		fake.eintr--;
		errno = EINTR;
		return -1;
	}
	if (fake.chunk && n > fake.chunk)
		n = fake.chunk;
	return syscall(SYS_pread64, fd, buf, n, off);
}

/* A file of n bytes (at most 1,000), byte i holding i & 0xff. */
static int file_of(size_t n)
{
	unsigned char bytes[1000];

	assert_true(n <= sizeof(bytes));
	for (size_t i = 0; i < n; i++)
		bytes[i] = (unsigned char)(i & 0xff);
	return temp_fd(bytes, n);
}

static void check_bytes(const unsigned char *buf, size_t n, size_t from)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(buf[i], (from + i) & 0xff);
}

static void whole_read(void **state)
{
	struct read_count c = { 0 };
	unsigned char buf[256];
	int fd = file_of(1000);

	(void)state;
	fake = (struct fake_pread){ 0 };
	assert_int_equal(proc_pread(fd, buf, sizeof(buf), 100, &c), 256);
	check_bytes(buf, 256, 100);
	assert_int_equal(c.calls, 1);
	assert_int_equal(c.bytes, 256);
	close(fd);
}

/* Interrupted reads are read again, and not counted. */
static void eintr_retried(void **state)
{
	struct read_count c = { 0 };
	unsigned char buf[64];
	int fd = file_of(64);

	(void)state;
	fake = (struct fake_pread){ .eintr = 3 };
	assert_int_equal(proc_pread(fd, buf, sizeof(buf), 0, &c), 64);
	check_bytes(buf, 64, 0);
	assert_int_equal(fake.calls, 4);
	assert_int_equal(c.calls, 1);
	close(fd);
}

/* Short reads continue where they stopped. */
static void short_reads_continue(void **state)
{
	struct read_count c = { 0 };
	unsigned char buf[100];
	int fd = file_of(300);

	(void)state;
	fake = (struct fake_pread){ .chunk = 7, .eintr = 1 };
	assert_int_equal(proc_pread(fd, buf, sizeof(buf), 200, &c), 100);
	check_bytes(buf, 100, 200);
	assert_int_equal(c.calls, 15);	/* 14 of 7 bytes, one of 2 */
	assert_int_equal(c.bytes, 100);
	close(fd);
}

/* The end of the file ends the read: fewer bytes, then 0. */
static void end_of_file(void **state)
{
	struct read_count c = { 0 };
	unsigned char buf[100];
	int fd = file_of(50);

	(void)state;
	fake = (struct fake_pread){ .chunk = 16 };
	assert_int_equal(proc_pread(fd, buf, sizeof(buf), 20, &c), 30);
	check_bytes(buf, 30, 20);
	assert_int_equal(c.calls, 3);	/* 16, 14, then the end (0) */
	assert_int_equal(c.bytes, 30);
	assert_int_equal(proc_pread(fd, buf, sizeof(buf), 50, NULL), 0);
	close(fd);
}

static void errors_are_negative_errno(void **state)
{
	unsigned char buf[8];
	struct read_count c = { 0 };

	(void)state;
	fake = (struct fake_pread){ 0 };
	assert_int_equal(proc_pread(-1, buf, sizeof(buf), 0, &c), -EBADF);
	assert_int_equal(c.calls, 0);
}

UNIT_MAIN("proc_read", UT(whole_read), UT(eintr_retried),
	  UT(short_reads_continue), UT(end_of_file), UT(errors_are_negative_errno))
