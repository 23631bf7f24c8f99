// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "unit.h"
#include "geom.h"
#include <dirent.h>
#include "io/source.h"
#include "io/spool.h"

/* A "pagemap" of n entries (at most 64) in a temporary file: entry i holds i + 100. */
static int fake_pagemap(size_t n)
{
	uint64_t v[64];

	assert_true(n <= 64);
	for (size_t i = 0; i < n; i++)
		v[i] = i + 100;
	return temp_fd(v, n * sizeof(v[0]));
}

static void pagemap_reads_and_short_reads(void **state)
{
	struct proc_source src = { .pid = getpid(), .page_shift = UT_SHIFT_4K };
	struct compare_io io;
	uint64_t out[8];

	(void)state;
	src.pagemap_fd = fake_pagemap(6);
	proc_source_io(&src, &io);
	/* entries 2..5 live at offset 2 * 8: address 2 pages in */
	assert_int_equal(io.read_pagemap(io.ctx, 2 * 4096, 4, out), 0);
	assert_int_equal(out[0], 102);
	assert_int_equal(out[3], 105);
	assert_int_equal(src.pagemap_bytes, 32);
	/* a read that runs out (the process lost its mm) is ESRCH */
	assert_int_equal(io.read_pagemap(io.ctx, 4 * 4096, 4, out), -ESRCH);
	close(src.pagemap_fd);
	/* a read error is passed on */
	src.pagemap_fd = -1;
	assert_int_equal(io.read_pagemap(io.ctx, 0, 1, out), -EBADF);
}

/*
 * pagemap has one entry per kernel page: with 16K and 64K pages the entry
 * of an address is at (addr >> page_shift) * 8, not (addr >> 12) * 8.
 */
static void pagemap_entry_per_kernel_page(void **state)
{
	struct compare_io io;
	uint64_t out[2];

	(void)state;
	ut_for_each_big_page(sh) {
		struct proc_source src = { .pid = getpid(), .page_shift = sh };

		src.pagemap_fd = fake_pagemap(6);
		proc_source_io(&src, &io);
		assert_int_equal(io.read_pagemap(io.ctx, 3ULL << sh, 2, out), 0);
		assert_int_equal(out[0], 103);
		assert_int_equal(out[1], 104);
		/* an address inside page 3 is page 3 */
		assert_int_equal(io.read_pagemap(io.ctx, (3ULL << sh) + 0x1000,
						 1, out), 0);
		assert_int_equal(out[0], 103);
		close(src.pagemap_fd);
	}
}

static void process_facts(void **state)
{
	char comm[64];
	pid_t child;
	int status;

	(void)state;
	assert_true(proc_alive(getpid()));
	proc_comm(getpid(), comm, sizeof(comm));
	assert_string_equal(comm, "test_source");
	strcpy(comm, "stale");
	assert_true(proc_alive_comm(getpid(), comm, sizeof(comm)));
	assert_string_equal(comm, "test_source");
	assert_true(self_peak_rss_kib() > 0);
	child = fork();
	if (child == 0)
		_exit(0);
	usleep(100000);
	assert_false(proc_alive(child));	/* a zombie */
	waitpid(child, &status, 0);
	assert_false(proc_alive(child));	/* gone */
	assert_false(proc_alive_comm(child, comm, sizeof(comm)));
	assert_string_equal(comm, "");
	proc_comm(child, comm, sizeof(comm));
	assert_string_equal(comm, "");
}

/*
 * A /proc/PID/stat line: alive unless Z or X; the name between the first
 * '(' and the last ')', which may hold both, cut to the buffer and at a
 * newline.
 */
static void stat_lines(void **state)
{
	char comm[8];

	(void)state;
	assert_true(proc_stat_alive("12 (bash) S 1 12", comm, sizeof(comm)));
	assert_string_equal(comm, "bash");
	assert_true(proc_stat_alive("12 (a) b) (c) R 1", comm, sizeof(comm)));
	assert_string_equal(comm, "a) b) (");
	assert_false(proc_stat_alive("12 (x) Z 1", comm, sizeof(comm)));
	assert_string_equal(comm, "x");
	assert_false(proc_stat_alive("12 (x) X 1", NULL, 0));
	assert_true(proc_stat_alive("12 (a long name) D 1", comm, sizeof(comm)));
	assert_string_equal(comm, "a long ");	/* cut to the buffer */
	assert_true(proc_stat_alive("12 (two\nlines) S 1", comm, sizeof(comm)));
	assert_string_equal(comm, "two");
	assert_false(proc_stat_alive("12 (cut", comm, sizeof(comm)));
	assert_string_equal(comm, "");
	assert_false(proc_stat_alive("12 (cut)", comm, sizeof(comm)));
	assert_false(proc_stat_alive("", comm, sizeof(comm)));
	assert_string_equal(comm, "");
}

static int entries_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Spool files go to $TMPDIR, leave no name behind, and say why they fail. */
static void spool_in_tmpdir(void **state)
{
	char dir[] = "/tmp/ptcompare-test.XXXXXX", line[32];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
	assert_string_equal(spool_dir(), dir);
	f = spool_open_max(16);
	assert_non_null(f);
	assert_true(fputs("spooled, past 16 bytes\n", f) >= 0);
	assert_int_equal(fflush(f), 0);
	assert_int_equal(entries_in(dir), 0);
	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "spooled, past 16 bytes\n");
	fclose(f);
	assert_int_equal(rmdir(dir), 0);

	/* no file needed, no failure; one needed: the write fails */
	setenv("TMPDIR", "/nonexistent/ptcompare", 1);
	f = spool_open_max(16);
	assert_non_null(f);
	assert_true(fputs("small\n", f) >= 0);
	assert_int_equal(fflush(f), 0);
	assert_false(ferror(f));
	errno = 0;
	fputs("and now past 16 bytes\n", f);
	assert_int_equal(fflush(f), EOF);
	assert_true(ferror(f));
	assert_int_equal(errno, ENOENT);
	fclose(f);
	unsetenv("TMPDIR");
	assert_string_equal(spool_dir(), "/tmp");
}

/* The bytes of f from 0 to its position, as report_copy_spool() reads them. */
static size_t spool_text(FILE *f, char *buf, size_t size)
{
	long end;
	size_t n;

	assert_int_equal(fflush(f), 0);
	end = ftell(f);
	assert_true(end >= 0 && (size_t)end < size);
	assert_int_equal(fseek(f, 0, SEEK_SET), 0);
	n = fread(buf, 1, (size_t)end, f);
	buf[n] = '\0';
	return n;
}

/*
 * A spool in memory creates no file until it outgrows its limit, then
 * moves there with what it held; rewound and written again (--all's next
 * process) it reads back what was written since, in memory or in the file.
 */
/* n rows of fmt (one %d) to f, and appended to want */
static void put_rows(FILE *f, char *want, int n, const char *fmt)
{
	for (int i = 0; i < n; i++) {
		char row[64];

		snprintf(row, sizeof(row), fmt, i);
		fputs(row, f);
		strcat(want, row);
	}
}

/* f rewound and given text: only text is read back */
static void rewrite(FILE *f, char *buf, size_t size, const char *text)
{
	assert_int_equal(fseek(f, 0, SEEK_SET), 0);
	fputs(text, f);
	assert_int_equal(spool_text(f, buf, size), strlen(text));
	assert_string_equal(buf, text);
}

static void spool_memory_then_file(void **state)
{
	char dir[] = "/tmp/ptcompare-test.XXXXXX", buf[8192], want[8192];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
	f = spool_open_max(1000);
	assert_non_null(f);
	/* unbuffered: each fprintf reaches the spool at once */
	assert_int_equal(setvbuf(f, NULL, _IONBF, 0), 0);
	want[0] = '\0';
	put_rows(f, want, 20, "row %02d of the first report\n");
	/* 20 rows of 27 bytes: 540, under the limit */
	assert_int_equal(spool_text(f, buf, sizeof(buf)), 540);
	assert_string_equal(buf, want);
	assert_int_equal(entries_in(dir), 0);
	/* rewound, a shorter text: only it is read back */
	rewrite(f, buf, sizeof(buf), "second\n");
	/* past the limit: into an unnamed file, the start kept */
	assert_int_equal(fseek(f, 7, SEEK_SET), 0);
	strcpy(want, "second\n");
	put_rows(f, want, 100, "row %03d of the second one\n");
	assert_false(ferror(f));
	assert_int_equal(spool_text(f, buf, sizeof(buf)), strlen(want));
	assert_string_equal(buf, want);
	assert_int_equal(entries_in(dir), 0);
	/* and rewound again, from the file */
	rewrite(f, buf, sizeof(buf), "third\n");
	fclose(f);
	assert_int_equal(rmdir(dir), 0);
	unsetenv("TMPDIR");
}

/*
 * ptwalk's session file stands as a regular file in these tests: a range
 * query (PTWALK_IOC_RANGE) on one lands in it, appended, and succeeds;
 * every other ioctl goes to the C library's.
 */
int ioctl(int fd, unsigned long req, ...)
{
	int (*real)(int, unsigned long, void *) =
		(int (*)(int, unsigned long, void *))dlsym(RTLD_NEXT, "ioctl");
	struct stat st;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == PTWALK_IOC_RANGE && !fstat(fd, &st) && S_ISREG(st.st_mode))
		return write(fd, arg, sizeof(struct ptwalk_range_query)) ==
		       sizeof(struct ptwalk_range_query) ? 0 : -1;
	return real(fd, req, arg);
}

/* The query a session got first: at the start of the file fd. */
static struct ptwalk_range_query written_request(int fd)
{
	struct ptwalk_range_query req;

	assert_int_equal(pread(fd, &req, sizeof(req), 0), sizeof(req));
	return req;
}

/*
 * A stream's ptwalk session is opened at walk_path by its first query,
 * and kept; a path that cannot be opened fails that query with its errno.
 * A regular file stands for ptwalk's session file: the request lands in it.
 */
static void walk_sessions_opened_on_first_query(void **state)
{
	char path[] = "/tmp/ptcompare-walk.XXXXXX";
	struct proc_source src = { .pid = 4242, .page_shift = UT_SHIFT_4K,
				   .pagemap_fd = -1,
				   .walk_fd = { -1, -1 } };
	struct witness_source ws;
	struct witness_totals totals = { 0 };
	struct witness_io wio;
	struct compare_io io;
	int fd = mkstemp(path), reread;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	src.walk_path = path;
	proc_source_io(&src, &io);
	assert_int_equal(io.walk_query(io.ctx, COMPARE_REREAD, 0x1000, 0x3000),
			 0);
	reread = src.walk_fd[COMPARE_REREAD];
	assert_true(reread >= 0);
	assert_int_equal(src.walk_fd[COMPARE_SCAN], -1);
	assert_int_equal(written_request(reread).pid, 4242);
	assert_int_equal(written_request(reread).end, 0x3000);
	/* the second query goes to the same session */
	assert_int_equal(io.walk_query(io.ctx, COMPARE_REREAD, 0x5000, 0x6000),
			 0);
	assert_int_equal(src.walk_fd[COMPARE_REREAD], reread);
	assert_int_equal(lseek(reread, 0, SEEK_CUR),
			 2 * sizeof(struct ptwalk_range_query));
	close(reread);

	/* the witnesses' re-checks: the same, on a session of their own */
	witness_source_open(&ws, path, 4243, false, &totals);
	assert_int_equal(ws.walk_fd, -1);
	witness_source_io(&ws, &wio);
	assert_int_equal(wio.walk_query(wio.ctx, 0x7000, 0x8000), 0);
	assert_true(ws.walk_fd >= 0);
	assert_int_equal(written_request(ws.walk_fd).pid, 4243);
	witness_source_close(&ws);
	assert_int_equal(unlink(path), 0);

	/* gone: the query says why, nothing is left open */
	src.walk_fd[COMPARE_REREAD] = -1;
	assert_int_equal(io.walk_query(io.ctx, COMPARE_REREAD, 0, 0x1000),
			 -ENOENT);
	assert_int_equal(src.walk_fd[COMPARE_REREAD], -1);
	witness_source_open(&ws, path, 4243, false, &totals);
	witness_source_io(&ws, &wio);
	assert_int_equal(wio.walk_query(wio.ctx, 0, 0x1000), -ENOENT);
	assert_int_equal(ws.walk_fd, -1);
	witness_source_close(&ws);
}

UNIT_MAIN("source", UT(pagemap_reads_and_short_reads),
	  UT(pagemap_entry_per_kernel_page), UT(process_facts), UT(stat_lines),
	  UT(spool_in_tmpdir), UT(spool_memory_then_file),
	  UT(walk_sessions_opened_on_first_query))
