// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "model/array.h"
#include "io/endpoint.h"
#include "io/proc_read.h"
#include "io/ptwalk_client.h"
#include "io/source.h"
#include "model/page.h"

uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int read_pagemap(void *ctx, uint64_t addr, size_t n, uint64_t *out)
{
	struct proc_source *src = ctx;
	size_t want = n * sizeof(*out);
	off_t off = (off_t)(addr >> src->page_shift) * (off_t)sizeof(*out);
	struct read_count count = { 0 };
	uint64_t t0 = monotonic_ns();
	ssize_t got = proc_pread(src->pagemap_fd, out, want, off, &count);

	src->pagemap_bytes += count.bytes;
	src->pagemap_ns += monotonic_ns() - t0;
	if (got < 0)
		return (int)got;
	/* pagemap reads nothing once the process has no mm left */
	return (size_t)got == want ? 0 : -ESRCH;
}

/* *fd, opened at path if it is not yet: 0 or -errno. */
static int walk_open(int *fd, const char *path)
{
	if (*fd >= 0)
		return 0;
	if (!path)
		return -EBADF;
	*fd = endpoint_open_path(NULL, path);
	return *fd < 0 ? *fd : 0;
}

static int walk_query(void *ctx, enum compare_stream s, uint64_t start,
		      uint64_t end)
{
	struct proc_source *src = ctx;
	uint64_t t0 = monotonic_ns();
	int err = walk_open(&src->walk_fd[s], src->walk_path);

	if (!err)
		err = ptwalk_query(src->walk_fd[s], src->pid, start, end);
	else
		src->walk_fd[s] = -1;

	src->walk_queries++;
	src->walk_ns += monotonic_ns() - t0;
	return err;
}

static ssize_t walk_read(void *ctx, enum compare_stream s,
			 struct ptwalk_record_ext *recs, size_t max)
{
	struct proc_source *src = ctx;
	uint64_t t0 = monotonic_ns();
	ssize_t n = ptwalk_read_ext(src->walk_fd[s], recs, max);

	src->walk_ns += monotonic_ns() - t0;
	if (n > 0)
		src->walk_records += (uint64_t)n;
	return n;
}

void proc_source_io(struct proc_source *src, struct compare_io *io)
{
	io->read_pagemap = read_pagemap;
	io->walk_query = walk_query;
	io->walk_read = walk_read;
	io->ctx = src;
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

long proc_list_pids(pid_t **out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t *pids = NULL, self = getpid();
	size_t n = 0, cap = 0;

	*out = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long v;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		v = strtol(de->d_name, &end, 10);
		if (*end || v <= 0 || v == self)
			continue;
		pid_t *grown = array_grow(pids, &cap, n + 1, sizeof(*pids),
					  256, 0);

		if (!grown) {
			free(pids);
			closedir(d);
			return -ENOMEM;
		}
		pids = grown;
		pids[n++] = (pid_t)v;
	}
	closedir(d);
	if (n)
		qsort(pids, n, sizeof(*pids), pid_cmp);
	*out = pids;
	return (long)n;
}

bool proc_iomem_load(struct iomem *m)
{
	FILE *f = fopen("/proc/iomem", "re");
	char why[160];
	int err;

	if (!f)
		return false;
	err = iomem_parse_file(m, f, why, sizeof(why));
	fclose(f);
	return !err && !m->zeroed;
}

bool proc_stat_alive(const char *line, char *comm, size_t size)
{
	/* "pid (comm) S ...": comm may hold spaces and parentheses */
	const char *open = strchr(line, '('), *close = strrchr(line, ')');

	if (comm && size) {
		size_t n = 0;

		if (open && close > open) {
			n = (size_t)(close - open - 1);
			if (n > size - 1)
				n = size - 1;
			memcpy(comm, open + 1, n);
		}
		comm[n] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
	}
	return close && close[1] == ' ' && close[2] != 'Z' && close[2] != 'X' &&
	       close[2] != '\0';
}

bool proc_alive_comm(pid_t pid, char *comm, size_t size)
{
	char path[64], buf[512];
	ssize_t n;
	int fd;

	if (comm && size)
		comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = proc_pread(fd, buf, sizeof(buf) - 1, 0, NULL);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return proc_stat_alive(buf, comm, size);
}

bool proc_alive(pid_t pid)
{
	return proc_alive_comm(pid, NULL, 0);
}

/*
 * Not getrusage(): its ru_maxrss also counts the image before exec, which
 * for a vfork()ed child is its parent's.
 */
uint64_t self_peak_rss_kib(void)
{
	unsigned long long kib = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

void proc_comm(pid_t pid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = proc_pread(fd, buf, size - 1, 0, NULL);
	close(fd);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* The witnesses' sources: /proc/iomem, /proc/kpageflags, a ptwalk session. */
static void open_iomem(struct witness_source *s,
		       struct witness_totals *totals)
{
	FILE *f = fopen("/proc/iomem", "re");
	char why[128] = "";
	int err;

	if (!f) {
		snprintf(totals->iomem_note, sizeof(totals->iomem_note),
			 "cannot read /proc/iomem (%s): physical ranges are not named",
			 strerror(errno));
		return;
	}
	err = iomem_parse_file(&s->iomem, f, why, sizeof(why));
	fclose(f);
	if (err) {
		snprintf(totals->iomem_note, sizeof(totals->iomem_note),
			 "/proc/iomem unreadable (%s): physical ranges are not named",
			 err == -EINVAL ? why : strerror(-err));
		return;
	}
	if (s->iomem.zeroed)
		snprintf(totals->iomem_note, sizeof(totals->iomem_note),
			 "physical names need root: /proc/iomem shows every address as 0 to a reader without CAP_SYS_ADMIN");
	totals->iomem = &s->iomem;
}

static void open_kpageflags(struct witness_source *s,
			    struct witness_totals *totals)
{
	s->kpf_fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (s->kpf_fd >= 0)
		return;
	if (errno == EACCES || errno == EPERM)
		snprintf(totals->kpf_note, sizeof(totals->kpf_note),
			 "/proc/kpageflags: %s (it needs root with CAP_SYS_ADMIN)",
			 strerror(errno));
	else if (errno == ENOENT)
		snprintf(totals->kpf_note, sizeof(totals->kpf_note),
			 "/proc/kpageflags does not exist (a kernel without CONFIG_PROC_PAGE_MONITOR)");
	else
		snprintf(totals->kpf_note, sizeof(totals->kpf_note),
			 "/proc/kpageflags: %s", strerror(errno));
}

void witness_source_open(struct witness_source *s, const char *walk_path,
			 pid_t pid, bool kpageflags,
			 struct witness_totals *totals)
{
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->kpf_fd = -1;
	s->walk_fd = -1;
	s->walk_path = walk_path;
	/*
	 * Off unless asked for: the kernel's per-frame flags cost more to read
	 * than pagemap itself (one 8-byte entry per frame, huge pages too).
	 */
	if (kpageflags)
		open_kpageflags(s, totals);
	else
		snprintf(totals->kpf_note, sizeof(totals->kpf_note),
			 "not asked for (--kpageflags adds it)");
}

void fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void witness_source_close(struct witness_source *s)
{
	fd_close(&s->kpf_fd);
	fd_close(&s->walk_fd);
	iomem_free(&s->iomem);
}

static ssize_t read_kpf(void *ctx, uint64_t pfn, size_t n, uint64_t *out)
{
	struct witness_source *s = ctx;
	off_t off = (off_t)(pfn * sizeof(*out));
	struct read_count count = { 0 };
	uint64_t t0 = monotonic_ns();
	/* short beyond the last frame the kernel describes */
	ssize_t got = proc_pread(s->kpf_fd, out, n * sizeof(*out), off, &count);

	s->kpf_reads += count.calls;
	s->kpf_bytes += count.bytes;
	s->kpf_ns += monotonic_ns() - t0;
	return got < 0 ? got : got / (ssize_t)sizeof(*out);
}

static int recheck_query(void *ctx, uint64_t start, uint64_t end)
{
	struct witness_source *s = ctx;
	int err = walk_open(&s->walk_fd, s->walk_path);

	if (err) {
		s->walk_fd = -1;
		return err;
	}
	return ptwalk_query(s->walk_fd, s->pid, start, end);
}

static ssize_t recheck_read(void *ctx, struct ptwalk_record *recs,
			    size_t max)
{
	struct witness_source *s = ctx;

	return ptwalk_read(s->walk_fd, recs, max);
}

/* Once for the source, whatever processes (--all) its witness sees. */
static void load_names(void *ctx, struct witness_totals *totals)
{
	struct witness_source *s = ctx;

	if (s->iomem_read)
		return;
	s->iomem_read = true;
	open_iomem(s, totals);
}

void witness_source_io(struct witness_source *s, struct witness_io *io)
{
	io->load_names = load_names;
	io->read_kpf = s->kpf_fd >= 0 ? read_kpf : NULL;
	io->walk_query = recheck_query;
	io->walk_read = recheck_read;
	io->ctx = s;
}
