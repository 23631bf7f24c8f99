// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "io/proc_read.h"
#include "io/ptwalk_client.h"
#include "io/source.h"
#include "io/witness_source.h"

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

void witness_source_open(struct witness_source *s, int walk_fd, pid_t pid,
			 bool kpageflags, struct witness_totals *totals)
{
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->kpf_fd = -1;
	s->walk_fd = walk_fd;
	open_iomem(s, totals);
	/*
	 * Off unless asked for: the kernel's per-frame flags cost more to read
	 * than pagemap itself (make bench: 86 ms against 15 ms for 1 GiB).
	 */
	if (kpageflags)
		open_kpageflags(s, totals);
	else
		snprintf(totals->kpf_note, sizeof(totals->kpf_note),
			 "not asked for (--kpageflags adds it)");
}

void witness_source_close(struct witness_source *s)
{
	if (s->kpf_fd >= 0)
		close(s->kpf_fd);
	if (s->walk_fd >= 0)
		close(s->walk_fd);
	s->kpf_fd = s->walk_fd = -1;
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

static int walk_query(void *ctx, uint64_t start, uint64_t end)
{
	struct witness_source *s = ctx;

	return ptwalk_query(s->walk_fd, s->pid, start, end);
}

static ssize_t walk_read(void *ctx, struct ptwalk_record *recs, size_t max)
{
	struct witness_source *s = ctx;

	return ptwalk_read(s->walk_fd, recs, max);
}

void witness_source_io(struct witness_source *s, struct witness_io *io)
{
	io->read_kpf = s->kpf_fd >= 0 ? read_kpf : NULL;
	io->walk_query = walk_query;
	io->walk_read = walk_read;
	io->ctx = s;
}
