// SPDX-License-Identifier: GPL-2.0
/*
 * make bench, guest side: for each target process, the time to read
 *   A  /proc/PID/pagemap for every VMA with large preads (the floor for
 *      any pagemap-based tool),
 *   B  ptwalk's records for the same VMAs,
 *   C  a full `ptcompare PID`,
 *   D  pagemap one 8-byte pread per page (what most tools do),
 * the median of several runs each, the ratios, the bytes read, and
 * ptcompare's peak RSS; then, per target, C with --kpageflags, and C with
 * --jobs 1, 2 and all CPUs (the 4 GiB, sparse and 10,000-VMA targets),
 * each over A+B, beside F2, A and B in two threads at once, each reading
 * half the pages: the floor the VM gives two jobs;
 * and --range over 10,000 VMAs against A over the same span in one pass.
 * `ptbench recorder GROUP`, in make bench's IOMMU boot: what ptwalk.ko's
 * recorder of IOMMU events costs map/unmap-heavy workloads (pairs of
 * VFIO_IOMMU_MAP_DMA and VFIO_IOMMU_UNMAP_DMA of one page; O_DIRECT reads
 * of a virtio-blk disk behind the IOMMU, the DMA API's maps) with the
 * module not loaded, loaded and idle, and loaded while a reader watches.
 * Prints numbers; asserts nothing.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "parse/maps.h"
#include "io/ptwalk_client.h"
#include "tests/lib/test_lib.h"

#define PAGE		4096ULL
#define MIB		(1ULL << 20)
#define GIB		(1ULL << 30)
#define RUNS		5
#define PM_CHUNK	(64 * 1024)	/* entries per pread for A: 512 KiB */
#define NAIVE_CAP	(1ULL << 20)	/* D reads at most this many pages */

struct vma_list {
	uint64_t (*r)[2];
	size_t n;
};

struct result {
	double ms;
	uint64_t bytes;
	double run_ms;		/* C: main() to exit, as ptcompare --stats says */
	double pagemap_ms;	/* C: of which reading pagemap */
	char stats[512];	/* C: ptcompare's --stats line */
};

static double median(double *v);

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The VMAs of pid below the user address space limit. */
static void read_vmas(pid_t pid, struct vma_list *v)
{
	char path[64], *line = NULL;
	size_t size = 0, cap = 0;
	struct maps_entry e;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	v->n = 0;
	while (f && getline(&line, &size, f) > 0) {
		if (!maps_parse_line(line, &e) || !strcmp(e.name, "[vsyscall]"))
			continue;
		if (v->n == cap) {
			cap = cap ? 2 * cap : 256;
			v->r = realloc(v->r, cap * sizeof(*v->r));
		}
		v->r[v->n][0] = e.start;
		v->r[v->n][1] = e.end;
		v->n++;
	}
	free(line);
	if (f)
		fclose(f);
}

/* A (or D, naive) into buf, PM_CHUNK entries */
static struct result read_pagemap(pid_t pid, const struct vma_list *v,
				  bool naive, uint64_t *pages_done,
				  uint64_t *buf)
{
	struct result res = { 0 };
	char path[64];
	uint64_t done = 0;
	double t0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	fd = open(path, O_RDONLY);
	t0 = now_ms();
	for (size_t i = 0; fd >= 0 && i < v->n; i++) {
		for (uint64_t a = v->r[i][0]; a < v->r[i][1];) {
			uint64_t n = (v->r[i][1] - a) / PAGE;
			ssize_t got;

			if (naive && done >= NAIVE_CAP)
				goto out;
			if (naive || n > PM_CHUNK)
				n = naive ? 1 : PM_CHUNK;
			got = pread(fd, buf, n * 8, (off_t)(a / PAGE * 8));
			if (got <= 0)
				goto out;
			res.bytes += (uint64_t)got;
			a += (uint64_t)got / 8 * PAGE;
			done += (uint64_t)got / 8;
		}
	}
out:
	res.ms = now_ms() - t0;
	if (fd >= 0)
		close(fd);
	if (pages_done)
		*pages_done = done;
	return res;
}

static struct result bench_pagemap(pid_t pid, const struct vma_list *v,
				   bool naive, uint64_t *pages_done)
{
	static uint64_t buf[PM_CHUNK];

	return read_pagemap(pid, v, naive, pages_done, buf);
}

/*
 * PAGEMAP_SCAN (6.7+, 52526ca7fdb9; include/uapi/linux/fs.h), declared
 * here because the bench builds against Debian 12's 6.1 headers.
 */
#define PM_PAGEMAP_SCAN		_IOWR('f', 16, struct pm_scan_arg)
#define PM_PAGE_IS_PRESENT	(1 << 3)
#define PM_PAGE_IS_SWAPPED	(1 << 4)

struct pm_page_region {
	uint64_t start, end, categories;
};

struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask;
	uint64_t return_mask;
};

/*
 * P: what a tool that asks PAGEMAP_SCAN for the present and swapped pages
 * first, then reads pagemap only there, would spend on the same VMAs (the
 * sparse target: 99% of its pages are holes).  Printed with P/A, or why
 * it could not be measured.
 */
static void bench_pagemap_scan(pid_t pid, const struct vma_list *v, double a)
{
	static struct pm_page_region vec[1024];
	static uint64_t buf[PM_CHUNK];
	double p[RUNS];
	uint64_t found = 0;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	for (int run = 0; run < RUNS; run++) {
		double t0 = now_ms();

		found = 0;
		for (size_t i = 0; i < v->n; i++) {
			struct pm_scan_arg arg = {
				.size = sizeof(arg), .start = v->r[i][0],
				.end = v->r[i][1], .vec = (uintptr_t)vec,
				.vec_len = 1024,
				.category_anyof_mask = PM_PAGE_IS_PRESENT |
						       PM_PAGE_IS_SWAPPED,
				.return_mask = PM_PAGE_IS_PRESENT |
					       PM_PAGE_IS_SWAPPED,
			};

			while (arg.start < arg.end) {
				long n = ioctl(fd, PM_PAGEMAP_SCAN, &arg);

				if (n < 0) {
					printf("    PAGEMAP_SCAN: %s (6.7+): not measured\n",
					       strerror(errno));
					close(fd);
					return;
				}
				for (long k = 0; k < n; k++)
					for (uint64_t s = vec[k].start;
					     s < vec[k].end;) {
						uint64_t e = vec[k].end;
						ssize_t got;

						if ((e - s) / PAGE > PM_CHUNK)
							e = s + PM_CHUNK * PAGE;
						got = pread(fd, buf, (e - s) / PAGE * 8,
							    (off_t)(s / PAGE * 8));
						if (got <= 0)
							break;
						found += (uint64_t)got / 8;
						s += (uint64_t)got / 8 * PAGE;
					}
				if (arg.walk_end <= arg.start)
					break;	/* no progress: do not spin */
				arg.start = arg.walk_end;
			}
		}
		p[run] = now_ms() - t0;
	}
	close(fd);
	printf("    PAGEMAP_SCAN then pagemap where it found pages (%" PRIu64 " pages): P %.1f ms, P/A %.3f\n",
	       found, median(p), median(p) / a);
}

/*
 * One query over the span of the VMAs: the gaps between them come back as
 * one record each, and the per-query cost is paid once, not per VMA.
 */
#define WALK_RECS	4096

/* B into recs, WALK_RECS records */
static struct result read_walk(pid_t pid, const struct vma_list *v,
			       struct ptwalk_record *recs)
{
	struct result res = { 0 };
	int fd = ptwalk_open(PTWALK_DEFAULT_DEBUGFS, PTWALK_QUERY_FILE, O_RDWR);
	double t0 = now_ms();
	ssize_t n;

	if (fd >= 0 && v->n && !ptwalk_query(fd, pid, v->r[0][0],
					     v->r[v->n - 1][1]))
		while ((n = ptwalk_read(fd, recs, WALK_RECS)) > 0)
			res.bytes += (uint64_t)n * sizeof(recs[0]);
	res.ms = now_ms() - t0;
	if (fd >= 0)
		close(fd);
	return res;
}

static struct result bench_walk(pid_t pid, const struct vma_list *v)
{
	static struct ptwalk_record recs[WALK_RECS];

	return read_walk(pid, v, recs);
}

/* One of F2's two threads: A then B over its half of the pages. */
struct half {
	pid_t pid;
	struct vma_list v;
	uint64_t *buf;
	struct ptwalk_record *recs;
};

static void *read_half(void *arg)
{
	struct half *h = arg;

	read_pagemap(h->pid, &h->v, false, NULL, h->buf);
	read_walk(h->pid, &h->v, h->recs);
	return NULL;
}

/*
 * F2: A and B of v in two threads at once, the pages split in half at a
 * page boundary (each thread its own buffers, touched before the clock
 * starts), wall time until both are done.  What two jobs of ptcompare
 * could take at best on this machine, having both reads to make.  0 if a
 * thread or a buffer could not be had.
 */
static double bench_two_threads(pid_t pid, const struct vma_list *v)
{
	struct half h[2] = { { .pid = pid }, { .pid = pid } };
	uint64_t pages = 0, seen = 0;
	pthread_t th[2];
	double ms = 0, t0;
	size_t i, mid_vma = 0;
	uint64_t mid = 0;
	int started = 0;

	for (i = 0; i < v->n; i++)
		pages += (v->r[i][1] - v->r[i][0]) / PAGE;
	for (i = 0; i < v->n; i++) {
		uint64_t n = (v->r[i][1] - v->r[i][0]) / PAGE;

		if (seen + n > pages / 2) {
			mid_vma = i;
			mid = v->r[i][0] + (pages / 2 - seen) * PAGE;
			break;
		}
		seen += n;
	}
	h[0].v.r = calloc(mid_vma + 1, sizeof(*v->r));
	h[1].v.r = calloc(v->n - mid_vma, sizeof(*v->r));
	for (i = 0; i < 2; i++) {
		h[i].buf = malloc(PM_CHUNK * sizeof(uint64_t));
		h[i].recs = malloc(WALK_RECS * sizeof(struct ptwalk_record));
		if (h[i].buf)
			memset(h[i].buf, 0, PM_CHUNK * sizeof(uint64_t));
		if (h[i].recs)
			memset(h[i].recs, 0, WALK_RECS * sizeof(struct ptwalk_record));
	}
	if (!h[0].v.r || !h[1].v.r || !h[0].buf || !h[1].buf || !h[0].recs ||
	    !h[1].recs || !pages)
		goto out;
	for (i = 0; i < mid_vma; i++)
		memcpy(h[0].v.r[h[0].v.n++], v->r[i], sizeof(v->r[i]));
	if (mid > v->r[mid_vma][0]) {
		h[0].v.r[h[0].v.n][0] = v->r[mid_vma][0];
		h[0].v.r[h[0].v.n++][1] = mid;
	}
	h[1].v.r[h[1].v.n][0] = mid;
	h[1].v.r[h[1].v.n++][1] = v->r[mid_vma][1];
	for (i = mid_vma + 1; i < v->n; i++)
		memcpy(h[1].v.r[h[1].v.n++], v->r[i], sizeof(v->r[i]));
	t0 = now_ms();
	for (; started < 2; started++)
		if (pthread_create(&th[started], NULL, read_half, &h[started]))
			break;
	for (i = 0; i < (size_t)started; i++)
		pthread_join(th[i], NULL);
	if (started == 2)
		ms = now_ms() - t0;
out:
	for (i = 0; i < 2; i++) {
		free(h[i].v.r);
		free(h[i].buf);
		free(h[i].recs);
	}
	return ms;
}

/*
 * A full ptcompare run with the options extra (NULL-terminated, at most
 * 6); its --stats line gives bytes and peak RSS.
 */
static struct result bench_ptcompare(pid_t pid, const char *const *extra,
				     uint64_t *rss_kib)
{
	char pidstr[16], line[512] = "";
	const char *argv[10] = { "ptcompare", "--stats" };
	int na = 2;
	posix_spawn_file_actions_t fa;
	struct result res = { 0 };
	unsigned long long pm = 0, recs = 0, rss = 0, run_us = 0, pm_us = 0;
	const char *s;
	double t0;
	pid_t pc;
	FILE *f;

	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	while (extra && *extra && na < 8)
		argv[na++] = *extra++;
	if (pid > 0)	/* 0: --all, no PID */
		argv[na++] = pidstr;
	argv[na] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/tmp/bench.err",
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	t0 = now_ms();
	if (posix_spawn(&pc, "/bin/ptcompare", &fa, NULL, (char *const *)argv,
			NULL) == 0)
		waitpid(pc, NULL, 0);
	res.ms = now_ms() - t0;
	posix_spawn_file_actions_destroy(&fa);
	f = fopen("/tmp/bench.err", "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	if ((s = strstr(line, "pagemap_bytes=")))
		sscanf(s, "pagemap_bytes=%llu", &pm);
	if ((s = strstr(line, "ptwalk_records=")))
		sscanf(s, "ptwalk_records=%llu", &recs);
	if ((s = strstr(line, "peak_rss_kib=")))
		sscanf(s, "peak_rss_kib=%llu", &rss);
	if ((s = strstr(line, "run_us=")))
		sscanf(s, "run_us=%llu", &run_us);
	if ((s = strstr(line, "pagemap_us=")))
		sscanf(s, "pagemap_us=%llu", &pm_us);
	res.bytes = pm + recs * sizeof(struct ptwalk_record);
	res.run_ms = run_us / 1e3;
	snprintf(res.stats, sizeof(res.stats), "%s", line);
	res.pagemap_ms = pm_us / 1e3;
	*rss_kib = rss;
	return res;
}

/*
 * Fixed cost of a process: spawning path with argv (no scan at all), the
 * median of RUNS; -1 when it cannot be run.
 */
static double bench_spawn(const char *path, const char *const *argv)
{
	posix_spawn_file_actions_t fa;
	double t[RUNS];
	pid_t pc;

	if (access(path, X_OK))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	for (int run = 0; run < RUNS; run++) {
		double t0 = now_ms();

		if (posix_spawn(&pc, path, &fa, NULL, (char *const *)argv,
				NULL) == 0)
			waitpid(pc, NULL, 0);
		t[run] = now_ms() - t0;
	}
	posix_spawn_file_actions_destroy(&fa);
	return median(t);
}

/* Target processes: each maps its memory, says so, and waits. */
static void touch(char *p, uint64_t len, uint64_t stride)
{
	for (uint64_t i = 0; i < len; i += stride)
		p[i] = 1;
}

static char *aligned(uint64_t len, uint64_t align, int flags)
{
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	return (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
}

static bool build_target(int kind)
{
	char *p;

	switch (kind) {
	case 0:	/* 1 GiB of 4K pages */
		p = aligned(GIB, PAGE, 0);
		if (!p || madvise(p, GIB, MADV_NOHUGEPAGE))
			return false;
		touch(p, GIB, PAGE);
		return true;
	case 1:	/* 1 GiB of THP */
		p = aligned(GIB, 2 * MIB, 0);
		if (!p || madvise(p, GIB, MADV_HUGEPAGE))
			return false;
		touch(p, GIB, PAGE);
		return true;
	case 2:	/* 1 GiB of 2 MiB hugetlb pages */
		p = mmap(NULL, GIB, PROT_READ | PROT_WRITE, MAP_PRIVATE |
			 MAP_ANONYMOUS | MAP_HUGETLB | (21 << MAP_HUGE_SHIFT),
			 -1, 0);
		if (p == MAP_FAILED)
			return false;
		touch(p, GIB, 2 * MIB);
		return true;
	case 3:	/* one 1 GiB hugetlb page */
		p = mmap(NULL, GIB, PROT_READ | PROT_WRITE, MAP_PRIVATE |
			 MAP_ANONYMOUS | MAP_HUGETLB | (30 << MAP_HUGE_SHIFT),
			 -1, 0);
		if (p == MAP_FAILED)
			return false;
		touch(p, GIB, GIB);
		return true;
	case 4:	/* 10,000 small VMAs (alternating protections: no merging) */
		for (int i = 0; i < 10000; i++) {
			p = mmap(NULL, 2 * PAGE, i % 2 ? PROT_READ :
				 PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				return false;
			(void)*(volatile char *)p;
		}
		return true;
	case 6: /* nothing beyond the program itself: the fixed costs */
		return true;
	case 7:	/* 10,000 small VMAs, as 4, measured with --range */
		return build_target(4);
	case 8:	/* 4 GiB of 4K pages, one job against several */
		p = aligned(4 * GIB, PAGE, 0);
		if (!p || madvise(p, 4 * GIB, MADV_NOHUGEPAGE))
			return false;
		touch(p, 4 * GIB, PAGE);
		return true;
	default: /* 64 GiB reserved, 1% of its pages touched */
		p = aligned(64 * GIB, PAGE, MAP_NORESERVE);
		if (!p || madvise(p, 64 * GIB, MADV_NOHUGEPAGE))
			return false;
		touch(p, 64 * GIB, 100 * PAGE);
		return true;
	}
}

static const char *const target_names[] = {
	"1G 4K anon", "1G THP", "1G hugetlb 2M", "1G hugetlb 1G",
	"10000 VMAs", "64G sparse 1%", "bare process", "10000 VMAs range",
	"4G 4K anon",
};
#define NR_TARGETS	9

/*
 * A child that runs build(arg), says it is ready and waits to be killed:
 * its pid, or -1 (none left behind) when build failed.
 */
static pid_t start_child(bool (*build)(int arg), int arg)
{
	int ready[2];
	char c = 0;
	pid_t pid;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		c = build(arg) ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1 || c != 'y') {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

static pid_t start_target(int kind)
{
	return start_child(build_target, kind);
}

static double median(double *v)
{
	qsort(v, RUNS, sizeof(*v), cmp_double);
	return v[RUNS / 2];
}

/*
 * The longest run of adjacent VMAs (10,000 small ones) as the only entry
 * of v: the span --range covers and A reads in one pass.
 */
static void span_of_longest_run(struct vma_list *v)
{
	size_t best = 0, best_len = 0, i = 0;

	while (i < v->n) {
		size_t j = i + 1;

		while (j < v->n && v->r[j][0] == v->r[j - 1][1])
			j++;
		if (j - i > best_len) {
			best = i;
			best_len = j - i;
		}
		i = j;
	}
	if (!v->n)
		return;
	v->r[0][0] = v->r[best][0];
	v->r[0][1] = v->r[best + best_len - 1][1];
	v->n = 1;
}

/*
 * Reading /proc/PID/maps once, whole, in 4 KiB reads as stdio does: what
 * every tool pays before it reads pagemap, outside A (median of RUNS).
 */
static double bench_maps(pid_t pid)
{
	char path[64], buf[4096];
	double t[RUNS];

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	for (int run = 0; run < RUNS; run++) {
		double t0 = now_ms();
		int fd = open(path, O_RDONLY);

		while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
			;
		if (fd >= 0)
			close(fd);
		t[run] = now_ms() - t0;
	}
	return median(t);
}

/* The median of RUNS ptcompare runs with opts then extra (<= 2 each). */
/*
 * C of RUNS runs of ptcompare with opts and e0 e1: the median C returned,
 * *cin the median Cin, *last the last run's result.
 */
static double median_ptcompare(pid_t pid, const char *const *opts,
			       const char *e0, const char *e1,
			       struct result *last, uint64_t *rss, double *cin)
{
	const char *argv[6] = { NULL };
	double t[RUNS], in[RUNS];
	int n = 0;

	for (int i = 0; opts[i] && i < 2; i++)
		argv[n++] = opts[i];
	if (e0)
		argv[n++] = e0;
	if (e1)
		argv[n++] = e1;
	for (int run = 0; run < RUNS; run++) {
		*last = bench_ptcompare(pid, argv, rss);
		t[run] = last->ms;
		in[run] = last->run_ms;
	}
	*cin = median(in);
	return median(t);
}

/*
 * K: /proc/kpageflags read for the frames pagemap shows in the VMAs, in
 * runs of consecutive frames (at most PM_CHUNK entries a pread), what
 * --kpageflags cannot read less than.  The frames are gathered first,
 * outside the time.
 */
static double bench_kpageflags(pid_t pid, const struct vma_list *v)
{
	static uint64_t pm[PM_CHUNK], flags[PM_CHUNK];
	uint64_t (*runs)[2] = NULL;
	size_t nr = 0, cap = 0;
	double k[RUNS], ms = 0;
	char path[64];
	int fd, kfd;

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	fd = open(path, O_RDONLY);
	kfd = open("/proc/kpageflags", O_RDONLY);
	for (size_t i = 0; fd >= 0 && i < v->n; i++) {
		for (uint64_t a = v->r[i][0]; a < v->r[i][1];) {
			uint64_t n = (v->r[i][1] - a) / PAGE;
			ssize_t got = pread(fd, pm, (n > PM_CHUNK ? PM_CHUNK : n) * 8,
					    (off_t)(a / PAGE * 8));

			if (got <= 0)
				break;
			for (ssize_t e = 0; e < got / 8; e++) {
				uint64_t pfn = pm[e] & ((1ULL << 55) - 1);

				if (!(pm[e] >> 63) || !pfn)
					continue;
				if (nr && runs[nr - 1][1] == pfn &&
				    runs[nr - 1][1] - runs[nr - 1][0] < PM_CHUNK) {
					runs[nr - 1][1]++;
					continue;
				}
				if (nr == cap) {
					uint64_t (*more)[2];

					cap = cap ? 2 * cap : 1024;
					more = realloc(runs, cap * sizeof(*runs));
					if (!more)
						goto out;
					runs = more;
				}
				runs[nr][0] = pfn;
				runs[nr++][1] = pfn + 1;
			}
			a += (uint64_t)got / 8 * PAGE;
		}
	}
	for (int run = 0; run < RUNS; run++) {
		double t0 = now_ms();

		for (size_t i = 0; kfd >= 0 && i < nr; i++)
			if (pread(kfd, flags, (runs[i][1] - runs[i][0]) * 8,
				  (off_t)(runs[i][0] * 8)) < 0)
				break;
		k[run] = now_ms() - t0;
	}
	ms = median(k);
out:
	free(runs);
	if (fd >= 0)
		close(fd);
	if (kfd >= 0)
		close(kfd);
	return ms;
}

/*
 * Under a target's row: Cin with --kpageflags over A+B+K, and for the
 * 4 GiB, sparse and 10,000-VMA targets the scaling of --jobs 1, 2 and all
 * CPUs (the default): Cin over A+B.
 */
static void bench_options(pid_t pid, int kind, const char *const *opts,
			  const struct vma_list *v, double ma, double mb)
{
	struct result r;
	uint64_t rss;
	double ms, cin, k = bench_kpageflags(pid, v), f2[RUNS], mf2;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	ms = median_ptcompare(pid, opts, "--kpageflags", NULL, &r, &rss, &cin);
	printf("    --kpageflags: K %.1f ms, C %.1f ms, Cin %.1f ms, Cin/(A+B+K) %.2f, RSS %" PRIu64 " KiB\n    %s",
	       k, ms, cin, cin / (ma + mb + k), rss, r.stats);
	if (kind == 4 || kind == 7) {
		ms = bench_maps(pid);
		printf("    reading /proc/PID/maps alone: %.1f ms (%.2f A)\n",
		       ms, ms / ma);
	}
	if (kind != 4 && kind != 5 && kind != 7 && kind != 8)
		return;
	for (int run = 0; run < RUNS; run++)
		f2[run] = bench_two_threads(pid, v);
	mf2 = median(f2);
	printf("    F2 (A and B in two threads, half the pages each): %.1f ms, F2/(A+B) %.2f\n",
	       mf2, mf2 / (ma + mb));
	for (int j = 0; j < 3; j++) {
		const char *n = j == 0 ? "1" : j == 1 ? "2" : NULL;

		ms = median_ptcompare(pid, opts, n ? "--jobs" : NULL, n, &r,
				      &rss, &cin);
		printf("    --jobs %s: C %.1f ms, Cin %.1f ms, Cin/(A+B) %.2f, Cin/F2 %.2f, RSS %"
		       PRIu64 " KiB\n", n ? n : cpus == 2 ? "all (2 CPUs)" :
		       "all", ms, cin, cin / (ma + mb), mf2 ? cin / mf2 : 0, rss);
	}
}

/* With arguments, only the targets of those numbers (0-8) are measured. */
static bool wanted(int kind, int argc, char **argv)
{
	if (argc < 2)
		return true;
	for (int i = 1; i < argc; i++)
		for (const char *c = argv[i]; *c; c++)
			if (*c - '0' == kind)
				return true;
	return false;
}

/*
 * The guest's clocksource: the TSC, as on real machines (scripts/vm-run.sh
 * says why the bench asks for it); with the HPET every clock read leaves
 * the emulated CPU, and a run of many small system calls slows more than
 * one of few large reads.
 */
static void print_clocksource(void)
{
	char cs[64] = "unknown";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			"r");

	if (f) {
		if (fgets(cs, sizeof(cs), f))
			cs[strcspn(cs, "\n")] = '\0';
		fclose(f);
	}
	printf("Clocksource: %s\n", cs);
}

/* ptbench's argument for the --all row alone, without the headers */
#define ALL_ROW_ONLY	"--all-row"

/* --all's row: this many processes, each with this much touched memory. */
#define ALL_PROCS	200
#define ALL_MIB		4

/*
 * What a process costs before A and B can read it: its maps read and
 * parsed, its pagemap opened and closed (A and B start timing after both).
 * Summed over --all's few hundred small processes it is of A+B's order.
 */
static double per_process_ms(pid_t pid, struct vma_list *v)
{
	char path[64];
	double t0 = now_ms();
	int fd;

	read_vmas(pid, v);
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0)
		close(fd);
	return now_ms() - t0;
}

/* An --all process: ALL_MIB MiB of its own, touched. */
static bool build_small(int unused)
{
	char *p = mmap(NULL, ALL_MIB * MIB, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)unused;
	if (p == MAP_FAILED)
		return false;
	touch(p, ALL_MIB * MIB, PAGE);
	return true;
}

/*
 * ptcompare --all over ALL_PROCS small processes besides the VM's own:
 * A and B summed over every process ptcompare looks at (the floor of
 * reading both sides once), M the per-process cost they leave out
 * (per_process_ms()), Cin from --stats, and the peak RSS.
 */
static void bench_all(void)
{
	pid_t kids[ALL_PROCS];
	double a[RUNS], b[RUNS], m[RUNS], c[RUNS], cin[RUNS];
	const char *opts[] = { "--all", NULL };
	const char *opts1[] = { "--all", "--jobs", "1", NULL };
	uint64_t rss = 0, max_rss = 0, rss1 = 0;
	int n = 0;

	for (; n < ALL_PROCS; n++) {
		kids[n] = start_child(build_small, 0);
		if (kids[n] < 0)
			break;
	}
	double c1[RUNS], cin1[RUNS];
	uint64_t max_rss1 = 0;
	char stats[512] = "", stats1[512] = "";

	for (int run = 0; run < RUNS; run++) {
		char path[64];
		FILE *ls = popen("ls /proc", "r");
		double sa = 0, sb = 0, sm = 0;

		/* A and B over every process --all scans (what maps lists) */
		while (ls && fgets(path, sizeof(path), ls)) {
			struct vma_list v = { 0 };
			long pid = strtol(path, NULL, 10);

			if (pid <= 0 || pid == getpid())
				continue;
			sm += per_process_ms((pid_t)pid, &v);
			if (v.n) {
				sa += bench_pagemap((pid_t)pid, &v, false, NULL).ms;
				sb += bench_walk((pid_t)pid, &v).ms;
			}
			free(v.r);
		}
		if (ls)
			pclose(ls);
		struct result rc = bench_ptcompare(0, opts, &rss);
		struct result r1 = bench_ptcompare(0, opts1, &rss1);

		c1[run] = r1.ms;
		cin1[run] = r1.run_ms;
		memcpy(stats, rc.stats, sizeof(stats));
		memcpy(stats1, r1.stats, sizeof(stats1));
		if (rss1 > max_rss1)
			max_rss1 = rss1;
		a[run] = sa;
		b[run] = sb;
		m[run] = sm;
		c[run] = rc.ms;
		cin[run] = rc.run_ms;
		if (rss > max_rss)
			max_rss = rss;
	}
	double ma = median(a), mb = median(b), mm = median(m), mcin = median(cin);

	printf("\n--all (all CPUs) over %d processes of %d MiB (and the VM's own): A %.1f ms, B %.1f ms, A+B %.1f ms, C %.1f ms, Cin %.1f ms, Cin/(A+B) %.2f, peak RSS %" PRIu64 " KiB\n",
	       n, ALL_MIB, ma, mb, ma + mb, median(c), mcin,
	       mcin / (ma + mb), max_rss);
	printf("    --jobs 1: C %.1f ms, Cin %.1f ms, Cin/(A+B) %.2f, peak RSS %" PRIu64 " KiB\n",
	       median(c1), median(cin1), median(cin1) / (ma + mb), max_rss1);
	printf("    M (maps read and parsed, pagemap opened, per process; outside A and B) %.1f ms: Cin/(A+B+M) %.2f, --jobs 1 %.2f\n",
	       mm, mcin / (ma + mb + mm), median(cin1) / (ma + mb + mm));
	printf("    last run: %s    --jobs 1: %s", stats, stats1);
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
}

/*
 * --all scans ptbench too, among the VM's own processes.  After the
 * targets above, ptbench's own mappings had grown to some 800,000 pages
 * of the row's 1.2 million, which made A+B large beside the 200 small
 * processes the row is about: 1.09 after a full bench, 1.68 for the same
 * binary alone.  So after any target, a fresh image of ptbench measures
 * the row, as `make bench VM_ONLY=9` does.
 */
static void bench_all_fresh(bool ran_targets)
{
	if (ran_targets) {
		fflush(stdout);
		execl("/proc/self/exe", "ptbench", ALL_ROW_ONLY, (char *)NULL);
		fprintf(stderr, "ptbench: cannot run itself again: %s; the --all row measured after the targets\n",
			strerror(errno));
	}
	bench_all();
}

/* Map/unmap pairs per run of the recorder's cost; its IOVA. */
#define RECORDER_PAIRS	20000
#define RECORDER_IOVA	0x10000000ULL
/* O_DIRECT reads of one page per run of the DMA-API workload. */
#define BLOCK_READS	5000
#define BLOCK_SPAN	(256 * MIB)
/* How often the watching reader drains the recorder, as --watch does. */
#define WATCH_MS	50

/* The three states the recorder's cost is measured in. */
enum rec_state { REC_UNLOADED, REC_IDLE, REC_WATCHED, REC_STATES };

static const char *const rec_state_name[REC_STATES] = {
	[REC_UNLOADED] = "not loaded",
	[REC_IDLE] = "loaded, idle",
	[REC_WATCHED] = "loaded, a reader watching",
};

/* One workload: what it does, one run's time per operation in us. */
struct rec_load {
	const char *what;
	double (*run)(const struct rec_load *l);
	int container;		/* VFIO: the container */
	const char *page;	/* VFIO: the page mapped */
	int blk;		/* DMA API: the disk, O_DIRECT */
	char *buf;		/* DMA API: the page read into */
	unsigned int ops;
};

/* Microseconds per map/unmap pair of a page through the container. */
static double vfio_run(const struct rec_load *l)
{
	double t0 = now_ms();

	for (unsigned int i = 0; i < l->ops; i++) {
		int err = vfio_dma_map(l->container, l->page, RECORDER_IOVA,
				       PAGE);

		err = err ? err : vfio_dma_unmap(l->container, RECORDER_IOVA,
						 PAGE);
		if (err) {
			printf("recorder: VFIO map/unmap: %s\n", strerror(-err));
			exit(1);
		}
	}
	return (now_ms() - t0) * 1000 / l->ops;
}

/* Microseconds per O_DIRECT read of one page of the disk. */
static double block_run(const struct rec_load *l)
{
	double t0 = now_ms();

	for (unsigned int i = 0; i < l->ops; i++) {
		/* a stride through the disk: no two reads of one page */
		off_t off = (off_t)((i * 257ULL * PAGE) % BLOCK_SPAN);

		if (pread(l->blk, l->buf, PAGE, off) != (ssize_t)PAGE) {
			printf("recorder: O_DIRECT read of the disk: %s\n",
			       strerror(errno));
			exit(1);
		}
	}
	return (now_ms() - t0) * 1000 / l->ops;
}

/* ptwalk.ko unloaded (when loaded), then loaded again from /lib. */
static bool rec_unload(void)
{
	if (syscall(SYS_delete_module, "ptwalk", O_NONBLOCK) && errno != ENOENT) {
		printf("recorder: unloading ptwalk.ko: %s\n", strerror(errno));
		return false;
	}
	return true;
}

static bool rec_load_module(void)
{
	int fd = open("/lib/ptwalk.ko", O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err)
		printf("recorder: loading ptwalk.ko: %s\n", strerror(err));
	return !err;
}

/* The reader of the watched state: drains the recorder every WATCH_MS. */
struct rec_watcher {
	pthread_t th;
	int fd;
	volatile sig_atomic_t stop;
	uint64_t events;	/* read, dropped records' counts included */
};

static void *rec_watch(void *arg)
{
	struct rec_watcher *w = arg;
	struct ptwalk_iommu_event ev[256];
	struct ptwalk_info info;
	uint64_t next = 0;
	ssize_t n;

	if (!ptwalk_info(w->fd, &info))
		next = info.events_next;
	while (!w->stop) {
		if (ptwalk_query_events(w->fd, next))
			break;
		while ((n = ptwalk_read_events(w->fd, ev, 256)) > 0)
			for (ssize_t i = 0; i < n; i++) {
				uint64_t span = ev[i].kind == PTWALK_EVENT_DROPPED ?
						ev[i].size : 1;

				w->events += span;
				next = ev[i].seq + span;
			}
		usleep(WATCH_MS * 1000);
	}
	return NULL;
}

/* Events the probes recorded since load (INFO), or 0. */
static uint64_t rec_recorded(void)
{
	struct ptwalk_info info = { 0 };
	int fd = open("/dev/" PTWALK_DEVICE_NAME, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ptwalk_info(fd, &info);
		close(fd);
	}
	return info.events_recorded;
}

/*
 * One run of l in state st: the time per operation, and the events the
 * recorder saw per operation (*per_op, the watched state only).
 */
static bool rec_run(struct rec_load *l, enum rec_state st, double *us,
		    double *per_op)
{
	struct rec_watcher w = { .fd = -1 };
	uint64_t before = 0;
	bool ok = rec_unload() && (st == REC_UNLOADED || rec_load_module());

	if (ok && st == REC_WATCHED) {
		w.fd = open("/dev/" PTWALK_DEVICE_NAME, O_RDONLY | O_CLOEXEC);
		ok = w.fd >= 0 && !ptwalk_arm_events(w.fd) &&
		     !pthread_create(&w.th, NULL, rec_watch, &w);
		if (!ok) {
			printf("recorder: arming a reader: %s\n", strerror(errno));
			if (w.fd >= 0)
				close(w.fd);
			return false;
		}
		before = rec_recorded();
	}
	if (!ok)
		return false;
	*us = l->run(l);
	if (st == REC_WATCHED) {
		*per_op = (double)(rec_recorded() - before) / l->ops;
		w.stop = 1;
		pthread_join(w.th, NULL);
		close(w.fd);
	}
	return true;
}

/*
 * One workload in the three states, in turn each run (the order rotated,
 * so that a drifting host moves all alike): medians, their ratios to the
 * module not loaded, and the cost per event (the watched state's extra
 * time over the events it recorded per operation).
 */
static bool rec_bench(struct rec_load *l)
{
	double t[REC_STATES][RUNS], m[REC_STATES], per_op = 0, ev[RUNS];

	printf("recorder: %s, %u a run, median of %d runs per state\n",
	       l->what, l->ops, RUNS);
	for (int run = 0; run < RUNS; run++) {
		for (int k = 0; k < REC_STATES; k++) {
			enum rec_state st = (enum rec_state)((run + k) % REC_STATES);

			if (!rec_run(l, st, &t[st][run], &ev[run]))
				return false;
		}
		printf("  run %d: %.2f / %.2f / %.2f us (not loaded / idle / watched), %.1f events an operation\n",
		       run + 1, t[REC_UNLOADED][run], t[REC_IDLE][run],
		       t[REC_WATCHED][run], ev[run]);
	}
	for (int k = 0; k < REC_STATES; k++)
		m[k] = median(t[k]);
	per_op = median(ev);
	for (int k = 0; k < REC_STATES; k++)
		printf("  %-26s %8.2f us an operation, %.3f of not loaded\n",
		       rec_state_name[k], m[k], m[k] / m[REC_UNLOADED]);
	if (per_op > 0)
		printf("  cost per event (watched - not loaded) / %.1f events: %.0f ns\n",
		       per_op, (m[REC_WATCHED] - m[REC_UNLOADED]) * 1000 / per_op);
	else
		printf("  no events recorded while watched: no cost per event\n");
	return true;
}

/* The first virtio disk, /dev/vdX, O_DIRECT: the DMA-API workload. */
static int block_open(void)
{
	char path[32] = "";
	int fd;

	for (char c = 'a'; c <= 'z' && !path[0]; c++) {
		snprintf(path, sizeof(path), "/sys/block/vd%c", c);
		if (access(path, F_OK))
			path[0] = 0;
		else
			snprintf(path, sizeof(path), "/dev/vd%c", c);
	}
	if (!path[0])
		return -ENODEV;
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* The three states the DMA tracking's cost is measured in. */
enum trk_state { TRK_OFF, TRK_OTHER, TRK_THIS, TRK_STATES };

static const char *const trk_state_name[TRK_STATES] = {
	[TRK_OFF] = "tracking off",
	[TRK_OTHER] = "another device tracked",
	[TRK_THIS] = "this device tracked",
};

/* PTWALK_IOC_DMA_TRACK of bdf (off: stop): 0 or the errno. */
static int trk_track(int fd, const char *bdf, bool off)
{
	struct ptwalk_dma_track q = {
		.size = sizeof(q), .flags = off ? PTWALK_DMA_TRACK_OFF : 0,
	};

	snprintf(q.device, sizeof(q.device), "%s", bdf);
	return ioctl(fd, PTWALK_IOC_DMA_TRACK, &q) ? errno : 0;
}

/* The PCI device of the first virtio disk: its sysfs path's last PCI part. */
static bool virtio_disk_bdf(char *bdf, size_t size)
{
	char path[32], real[512], *v;

	for (char c = 'a'; c <= 'z'; c++) {
		snprintf(path, sizeof(path), "/sys/block/vd%c", c);
		if (!realpath(path, real))
			continue;
		/* .../0000:00:03.0/virtio1/block/vda */
		v = strstr(real, "/virtio");
		if (!v)
			return false;
		*v = 0;
		v = strrchr(real, '/');
		return v && snprintf(bdf, size, "%s", v + 1) < (int)size;
	}
	return false;
}

/*
 * The DMA events one O_DIRECT read of l makes on its device: the unmaps
 * the module's history gains over TRK_CALIB reads (bdf tracked on fd),
 * each with its map: two events an unmap.  0 if unknown.
 */
#define TRK_CALIB	16
#define TRK_HISTORY	256	/* dma_track_history's default */

static double trk_events_per_read(int fd, const char *bdf, struct rec_load *l)
{
	static struct ptwalk_dma_mapping before[TRK_HISTORY], after[TRK_HISTORY];
	struct ptwalk_dma_query q = { .size = sizeof(q) };
	unsigned int ops = l->ops, n = 0;
	uint32_t had;

	snprintf(q.device, sizeof(q.device), "%s", bdf);
	q.unmaps = (uint64_t)(uintptr_t)before;
	q.nr_unmaps = TRK_HISTORY;
	if (ioctl(fd, PTWALK_IOC_DMA_MAPS, &q))
		return 0;
	had = q.nr_unmaps;
	l->ops = TRK_CALIB;
	l->run(l);
	l->ops = ops;
	q.unmaps = (uint64_t)(uintptr_t)after;
	q.nr_unmaps = TRK_HISTORY;
	q.maps = 0;
	q.nr_maps = 0;
	if (ioctl(fd, PTWALK_IOC_DMA_MAPS, &q))
		return 0;
	/* newest first: the unmaps before the newest of the first read */
	while (n < q.nr_unmaps &&
	       !(had && after[n].dma == before[0].dma &&
		 after[n].map_ns == before[0].map_ns &&
		 after[n].unmap_ns == before[0].unmap_ns))
		n++;
	if (n == q.nr_unmaps && had)
		return 0;	/* the history wrapped: more than it keeps */
	return 2.0 * n / TRK_CALIB;
}

/* One run of l in state st (fd: a session of ptwalk.ko): its time an op. */
static bool trk_run(struct rec_load *l, int fd, enum trk_state st,
		    const char *this_bdf, const char *other_bdf, double *us)
{
	const char *bdf = st == TRK_THIS ? this_bdf : other_bdf;
	int err = st == TRK_OFF ? 0 : trk_track(fd, bdf, false);

	if (err) {
		printf("DMA tracking: tracking %s: %s\n", bdf, strerror(err));
		return false;
	}
	*us = l->run(l);
	err = st == TRK_OFF ? 0 : trk_track(fd, bdf, true);
	if (err)
		printf("DMA tracking: --off %s: %s\n", bdf, strerror(err));
	return !err;
}

/*
 * What tracking a device's DMA API costs (module/dma_track.c, 6.12+):
 * O_DIRECT reads of the virtio disk (each request's buffers mapped and
 * unmapped through the DMA API) with no device tracked (no probe
 * attached), with another device tracked (edu: every event of the disk
 * costs the probe's lookup of its device), and with the disk itself
 * tracked (every event kept); in turn each run, the order rotated.
 */
static bool trk_bench(struct rec_load *l, const char *other_bdf)
{
	double t[TRK_STATES][RUNS], m[TRK_STATES], per_read = 0;
	char this_bdf[64];
	int fd, err;

	if (!virtio_disk_bdf(this_bdf, sizeof(this_bdf))) {
		printf("DMA tracking: the virtio disk's PCI device not found: no row\n");
		return true;
	}
	fd = open("/dev/" PTWALK_DEVICE_NAME, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("DMA tracking: /dev/%s: %s\n", PTWALK_DEVICE_NAME,
		       strerror(errno));
		return false;
	}
	err = trk_track(fd, this_bdf, false);
	if (err == EOPNOTSUPP) {
		printf("DMA tracking: this kernel has no DMA API tracepoints (6.12 and later have): no row\n");
		close(fd);
		return true;
	}
	if (!err)
		per_read = trk_events_per_read(fd, this_bdf, l);
	if (err || trk_track(fd, this_bdf, true)) {
		printf("DMA tracking: tracking %s: %s\n", this_bdf,
		       strerror(err ? err : errno));
		close(fd);
		return false;
	}
	printf("DMA tracking: %s of %s, another device %s, %u a run, median of %d runs per state\n",
	       l->what, this_bdf, other_bdf, l->ops, RUNS);
	for (int run = 0; run < RUNS; run++) {
		for (int k = 0; k < TRK_STATES; k++) {
			enum trk_state st = (enum trk_state)((run + k) % TRK_STATES);

			if (!trk_run(l, fd, st, this_bdf, other_bdf, &t[st][run])) {
				close(fd);
				return false;
			}
		}
		printf("  run %d: %.2f / %.2f / %.2f us (off / another tracked / this tracked)\n",
		       run + 1, t[TRK_OFF][run], t[TRK_OTHER][run],
		       t[TRK_THIS][run]);
	}
	close(fd);
	for (int k = 0; k < TRK_STATES; k++)
		m[k] = median(t[k]);
	for (int k = 0; k < TRK_STATES; k++)
		printf("  %-26s %8.2f us a read, %7.0f reads/s, %8.0f DMA events/s, %.3f of off\n",
		       trk_state_name[k], m[k], 1e6 / m[k],
		       per_read * 1e6 / m[k], m[k] / m[TRK_OFF]);
	if (per_read > 0)
		printf("  %.1f DMA events a read (the tracked history); cost per event: %.0f ns tracked, %.0f ns another device tracked\n",
		       per_read, (m[TRK_THIS] - m[TRK_OFF]) * 1000 / per_read,
		       (m[TRK_OTHER] - m[TRK_OFF]) * 1000 / per_read);
	else
		printf("  DMA events a read unknown (the history said none): no cost per event\n");
	return true;
}

/* edu's PCI device (the other device tracked), or "" */
static void edu_bdf(char *bdf, size_t size)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *de;

	*bdf = 0;
	while (d && (de = readdir(d))) {
		char path[300], v[16] = "", dv[16] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(v, sizeof(v), f))
			v[0] = 0;
		fclose(f);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(dv, sizeof(dv), f))
			dv[0] = 0;
		fclose(f);
		if (!strncmp(v, "0x1234", 6) && !strncmp(dv, "0x11e8", 6) &&
		    strlen(de->d_name) < size)
			memcpy(bdf, de->d_name, strlen(de->d_name) + 1);
	}
	if (d)
		closedir(d);
}

/*
 * The recorder's cost: a VFIO map/unmap loop (edu's group) and O_DIRECT
 * reads of a virtio-blk disk behind the IOMMU (the DMA API's
 * iommu_map()/iommu_unmap() for every request), each with the module not
 * loaded, loaded and idle, and loaded while a reader watches.
 */
static int bench_recorder(int group)
{
	char *page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	struct rec_load vfio = { .what = "VFIO_IOMMU_MAP_DMA + VFIO_IOMMU_UNMAP_DMA of one page",
				 .run = vfio_run, .page = page,
				 .ops = RECORDER_PAIRS };
	struct rec_load blk = { .what = "O_DIRECT 4 KiB reads of a virtio-blk disk (iommu_platform=on, the DMA API)",
				.run = block_run, .buf = page,
				.ops = BLOCK_READS };
	int fd = -1, err, status = 0;

	printf("Software emulation (QEMU TCG): compare the ratios within this run, not the times across machines.\n");
	err = page == MAP_FAILED ? -ENOMEM :
	      vfio_container_open(group, &vfio.container, &fd);
	if (err)
		printf("recorder: VFIO container of group %d: %s: no VFIO row\n",
		       group, strerror(-err));
	else if (!rec_bench(&vfio))
		status = 1;
	if (!err) {
		close(fd);
		close(vfio.container);
	}
	blk.blk = page == MAP_FAILED ? -ENOMEM : block_open();
	if (blk.blk < 0)
		printf("recorder: no virtio disk to read (%s): no DMA-API row\n",
		       strerror(-blk.blk));
	else if (!rec_bench(&blk))
		status = 1;
	/* the module as the boot left it */
	if (!rec_unload() || !rec_load_module())
		status = 1;
	if (blk.blk >= 0) {
		char other[64];

		edu_bdf(other, sizeof(other));
		if (!other[0])
			printf("DMA tracking: no edu device to track beside the disk: no row\n");
		else if (!trk_bench(&blk, other))
			status = 1;
		close(blk.blk);
	}
	return status;
}

int main(int argc, char **argv)
{
	bool ran_targets = false;

	if (argc == 3 && !strcmp(argv[1], "recorder"))
		return bench_recorder(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], ALL_ROW_ONLY)) {
		bench_all();
		return 0;
	}
	printf("ptwalk bench: median of %d runs per case, times in ms\n", RUNS);
	printf("Software emulation (QEMU TCG): compare the ratios within this run, not the times across machines.\n");
	print_clocksource();
	printf("A = pagemap, 512 KiB preads; B = ptwalk records (one query over the VMAs); C = ptcompare PID (Cin: its own run, start-up excluded, from --stats); D = pagemap, one 8-byte pread per page\n\n");
	{
		const char *version[] = { "ptcompare", "--version", NULL };
		const char *truth[] = { "true", NULL };

		/* S: what C pays before reading anything */
		printf("S = ptcompare start-up alone (--version): %.1f ms; any process (busybox true): %.1f ms\n",
		       bench_spawn("/bin/ptcompare", version),
		       bench_spawn("/bin/true", truth));
		if (!access("/bin/ptcompare-static", X_OK))
			printf("ptcompare linked statically (--version): %.1f ms\n",
			       bench_spawn("/bin/ptcompare-static", version));
		printf("\n");
	}
	printf("%-15s %8s %8s %8s %8s %8s %10s %7s %6s %9s %7s %11s %10s %8s\n",
	       "target", "A ms", "B ms", "A+B ms", "C ms", "Cin ms", "D ms",
	       "B/A", "C/A", "Cin/(A+B)", "D/C", "A bytes", "B bytes",
	       "RSS KiB");
	for (int kind = 0; kind < NR_TARGETS; kind++) {
		if (!wanted(kind, argc, argv))
			continue;
		ran_targets = true;
		double a[RUNS], b[RUNS], c[RUNS], cin[RUNS], dms = 0;
		struct result ra, rb, rc, rd;
		struct vma_list v = { 0 };
		uint64_t rss = 0, naive_pages = 0, pages = 0;
		char range[64];
		const char *opts[3] = { NULL };
		pid_t pid = start_target(kind);

		if (pid < 0) {
			printf("%-15s could not be set up (memory or hugetlb pages?)\n",
			       target_names[kind]);
			continue;
		}
		read_vmas(pid, &v);
		if (kind == 7) {
			/* --range over the small VMAs; A: one pass over it */
			span_of_longest_run(&v);
			snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64,
				 v.r[0][0], v.r[0][1]);
			opts[0] = "--range";
			opts[1] = range;
		}
		for (size_t i = 0; i < v.n; i++)
			pages += (v.r[i][1] - v.r[i][0]) / PAGE;
		for (int run = 0; run < RUNS; run++) {
			ra = bench_pagemap(pid, &v, false, NULL);
			rb = bench_walk(pid, &v);
			rc = bench_ptcompare(pid, opts, &rss);
			a[run] = ra.ms;
			b[run] = rb.ms;
			c[run] = rc.ms;
			cin[run] = rc.run_ms;
		}
		/* D once, on at most NAIVE_CAP pages, scaled to the whole */
		if (kind < 7) {
			rd = bench_pagemap(pid, &v, true, &naive_pages);
			dms = naive_pages ? rd.ms * (double)pages /
					    (double)naive_pages : 0;
		}
		double ma = median(a), mb = median(b), mc = median(c);
		double mcin = median(cin);

		printf("%-15s %8.1f %8.1f %8.1f %8.1f %8.1f %9.0f%s %7.3f %6.2f %9.2f %7.1f %11" PRIu64
		       " %10" PRIu64 " %8" PRIu64 "\n", target_names[kind], ma, mb,
		       ma + mb, mc, mcin, dms, naive_pages < pages ? "*" : " ",
		       mb / ma, mc / ma, mcin / (ma + mb), dms / mc, ra.bytes,
		       rb.bytes, rss);
		if (kind == 5)
			bench_pagemap_scan(pid, &v, ma);
		/* where C's time went, by ptcompare's own account (last run) */
		printf("    %s", rc.stats);
		bench_options(pid, kind, opts, &v, ma, mb);
		fflush(stdout);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		free(v.r);
	}
	printf("\n* D measured on the first %llu pages and scaled to the whole process.\n",
	       (unsigned long long)NAIVE_CAP);
	if (wanted(NR_TARGETS, argc, argv))
		bench_all_fresh(ran_targets);
	return 0;
}
