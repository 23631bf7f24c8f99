// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --jobs N on real targets: the report and the JSON of one job
 * and of several, byte for byte, on a quiet process whose largest VMA
 * spans several batches (so the jobs cut it) beside hundreds of small
 * VMAs and a THP; --range over the small VMAs (the DMA view too); that
 * the jobs ran where a plan reaches eight batches (JOBS_SPLIT_PAGES), and
 * only there (--stats jobs=); and the peak RSS of the largest job count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptcompare_run.h"
#include "vmtest.h"

#define SMALL_VMAS	400
/*
 * ptcompare's batch is 65,536 kernel pages (256 MiB with 4K pages, 1 GiB
 * with 16K), and --jobs splits plans of eight batches and more: the big
 * VMA spans eight and a half on every page size.
 */
#define BATCH		(65536 * PAGE)
#define SPLIT		(8 * BATCH)
#define BIG		(SPLIT + BATCH / 2)	/* 2.1 GiB with 4K pages */
#define TOUCH_EVERY	64	/* pages; and 4 MiB at each batch's start */

/* The target, in a child that waits: a quiet process to scan again. */
static pid_t start_target(struct vmtest *t, uint64_t *small_start,
			  uint64_t *small_end, uint64_t *big_start)
{
	uint64_t range[3] = { 0, 0, 0 };
	int ready[2];
	pid_t pid;

	if (pipe(ready))
		return fail(t, "pipe: %s", strerror(errno)), -1;
	pid = fork();
	if (pid == 0) {
		/* 34 GiB with 64K pages: more than the VM's memory */
		char *big = mmap(NULL, BIG, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				 -1, 0);
		char *thp = mmap(NULL, 8 * MIB, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *p;

		if (big == MAP_FAILED || thp == MAP_FAILED)
			_exit(1);
		madvise(big, BIG, MADV_NOHUGEPAGE);
		/* every 64th page, and a fully touched run in each batch */
		for (size_t i = 0; i < BIG; i += TOUCH_EVERY * PAGE)
			big[i] = 1;
		for (size_t i = 0; i < BIG; i += BATCH)
			touch_write(big + i, 4 * MIB < BIG - i ? 4 * MIB :
					     BIG - i);
		madvise(thp, 8 * MIB, MADV_HUGEPAGE);
		touch_write(thp, 8 * MIB);
		/* small VMAs next to each other: protections alternate */
		p = mmap(NULL, SMALL_VMAS * 2 * PAGE, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (int i = 0; i < SMALL_VMAS; i++) {
			char *v = p + (size_t)i * 2 * PAGE;

			if (mprotect(v, 2 * PAGE, i % 2 ? PROT_READ :
				     PROT_READ | PROT_WRITE))
				_exit(1);
			if (!(i % 2))
				v[0] = 1;
		}
		range[0] = (uint64_t)(uintptr_t)p;
		range[1] = range[0] + SMALL_VMAS * 2 * PAGE;
		range[2] = (uint64_t)(uintptr_t)big;
		if (write(ready[1], range, sizeof(range)) != sizeof(range))
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], range, sizeof(range)) != sizeof(range)) {
		close(ready[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return fail(t, "the target could not set up"), -1;
	}
	close(ready[0]);
	*small_start = range[0];
	*small_end = range[1];
	*big_start = range[2];
	return pid;
}

/* ptcompare with args and --jobs jobs: status 0, the whole output. */
static bool run_jobs(struct vmtest *t, struct pc_result *r, const char *jobs,
		     const char *const *args)
{
	const char *argv[12] = { "ptcompare", "--stats", "--jobs", jobs };
	int n = 4;

	while (*args && n < 11)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (!pc_run(t, r, argv))
		return false;
	if (r->status != 0)
		return fail(t, "--jobs %s: exit %d: %s", jobs, r->status,
			    r->err);
	return true;
}

/*
 * A field of the --stats line (name ends in '='): UINT64_MAX if absent or
 * without digits.
 */
static uint64_t stat_field(const struct pc_result *r, const char *name)
{
	const char *p = strstr(r->err, name);
	char *end;
	uint64_t v;

	if (!p)
		return UINT64_MAX;
	p += strlen(name);
	v = strtoull(p, &end, 10);
	return end == p ? UINT64_MAX : v;
}

static uint64_t peak_rss(const struct pc_result *r)
{
	return stat_field(r, " peak_rss_kib=");
}

/*
 * The peak RSS of --jobs N: under 16 MiB.  Not in the sanitized lanes
 * (PTWALK_SANITIZED), whose VmHWM follows the sanitizer and the threads
 * more than ptcompare: in vm-asan ASan's allocator (redzones, a quarantine
 * and caches per thread), CI saw --jobs 2 take 7.8 MiB more than --jobs 1
 * there, and --jobs 8 16.5 MiB more; in vm-tsan TSan's shadow and
 * per-thread state, --jobs 1 26 MiB and --jobs 8 up to 63 MiB.  The vm
 * lane runs the same cases on the plain build and bounds it there.
 */
static bool rss_bounded(struct vmtest *t, const struct pc_result *many,
			const char *jobs, const char *what)
{
	if (getenv("PTWALK_SANITIZED"))
		return true;
	return peak_rss(many) < 16 * 1024 ||
	       fail(t, "%s: --jobs %s peak RSS %" PRIu64 " KiB (%s)", what,
		    jobs, peak_rss(many), many->err);
}

/*
 * jobs= of the --stats line: the threads that ran, 0 when the one engine
 * did it all (a scan without a batch to split starts none).
 */
static bool jobs_started(struct vmtest *t, const struct pc_result *r,
			 unsigned int want, const char *what)
{
	uint64_t n = stat_field(r, " jobs=");

	if (n == UINT64_MAX)
		return fail(t, "%s: no jobs= in --stats: %s", what, r->err);
	return n == want ||
	       fail(t, "%s: %" PRIu64 " jobs ran, expected %u", what, n, want);
}

static bool same_bytes(const struct pc_result *a, const struct pc_result *b)
{
	return a->len == b->len && !memcmp(a->out, b->out, a->len);
}

/*
 * The output of --jobs 1 and of --jobs N for args: the same bytes, with
 * started jobs running (0 where no plan reaches SPLIT) and none for
 * --jobs 1.  The target is still, but the kernel may change it between
 * two runs (khugepaged collapsing the pages the child inherited, THP
 * "always" in the VM: seen once on arm64's newest kernel, 685 bytes):
 * where --jobs N differs from the --jobs 1 before it, it must equal a
 * --jobs 1 run after it.
 */
static bool same_output(struct vmtest *t, const char *jobs,
			const char *const *args, unsigned int started,
			const char *what)
{
	struct pc_result one, many, again = { 0 };
	bool ok, alike;

	if (!run_jobs(t, &one, "1", args))
		return false;
	ok = run_jobs(t, &many, jobs, args);
	alike = ok && same_bytes(&one, &many);
	if (ok && !alike && run_jobs(t, &again, "1", args)) {
		alike = same_bytes(&again, &many);
		if (alike)
			printf("# jobs_same_report: %s: the target changed between two runs; --jobs %s is the --jobs 1 after it\n",
			       what, jobs);
	}
	ok = ok &&
	     (alike ||
	      fail(t, "%s: --jobs 1 and --jobs %s differ (%zu and %zu bytes, %zu in a second --jobs 1)",
		   what, jobs, one.len, many.len, again.len)) &&
	     jobs_started(t, &one, 0, what) &&
	     jobs_started(t, &many, started, what) &&
	     rss_bounded(t, &many, jobs, what);
	if (ok && one.len < 1024)
		ok = fail(t, "%s: a report of %zu bytes", what, one.len);
	if (ok)
		printf("# jobs_same_report: %s: %zu bytes alike, --jobs %s peak RSS %"
		       PRIu64 " KiB\n", what, one.len, jobs, peak_rss(&many));
	pc_free(&one);
	pc_free(&many);
	if (again.out)
		pc_free(&again);
	return ok;
}

VMTEST_CASE(jobs, "ptcompare_jobs_same_report", jobs_same_report)
{
	uint64_t s, e, big;
	char pid[16], range[64], below[64];
	pid_t target = start_target(t, &s, &e, &big);
	const char *json[] = { "--json", pid, NULL };
	const char *text[] = { pid, NULL };
	const char *ranged[] = { "--json", "--range", range, pid, NULL };
	const char *part[] = { "--json", "--range", below, pid, NULL };
	bool ok;

	if (target < 0)
		return false;
	snprintf(pid, sizeof(pid), "%d", (int)target);
	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, s, e);
	/* a plan one batch short of the split: the one engine's */
	snprintf(below, sizeof(below), "0x%" PRIx64 "-0x%" PRIx64, big,
		 big + SPLIT - BATCH);
	ok = same_output(t, "2", json, 2, "whole process, JSON") &&
	     same_output(t, "2", text, 2, "whole process, text") &&
	     same_output(t, "2", ranged, 0, "400 small VMAs, JSON") &&
	     same_output(t, "2", part, 0, "seven batches of the big VMA, JSON") &&
	     same_output(t, "8", json, 8, "whole process, JSON, 8 jobs");
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	return ok;
}

/* A bad --jobs: one line, status EXIT_USAGE, before anything is read. */
VMTEST_CASE(jobs, "ptcompare_jobs_bad_value", jobs_bad_value)
{
	const char *argv[] = { "ptcompare", "--jobs", "0", "1", NULL };
	struct pc_result r;
	bool ok;

	if (!pc_run(t, &r, argv))
		return false;
	ok = (r.status == EXIT_USAGE || fail(t, "exit %d", r.status)) &&
	     (strstr(r.err, "bad --jobs '0'") ||
	      fail(t, "message: %s", r.err));
	pc_free(&r);
	return ok;
}

/*
 * The worst case for memory: every page differs, so every engine keeps a
 * verdict per page for re-reading, in every job at once.  The fixture's
 * impostor claims eight batches of untouched memory mapped (2 GiB with 4K
 * pages; pagemap: nothing there): eight jobs, each with a batch of its own, all
 * mismatches, the report of one job, and the peak RSS bound of --jobs N
 * still holds (53 MiB before the engine kept verdicts 8,192 pages at a
 * time).
 */
VMTEST_CASE(jobs, "ptcompare_jobs_rss_every_page_differs", jobs_rss_every_page_differs)
{
	const char *liar = PTWALK_DEFAULT_DEBUGFS "/ptwalk_fixture_liar";
	/* the smallest plan the jobs split: 32 GiB, untouched, with 64K pages */
	size_t len = SPLIT;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		       MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char pid[16], range[64], want[64];
	const char *argv[12] = { "ptcompare", "--stats", "--jobs", NULL,
				 "--debugfs", liar, "--json", "--range", range,
				 pid, NULL };
	struct pc_result one = { 0 }, many = { 0 };
	bool ok;

	if (p == MAP_FAILED)
		return fail(t, "mmap %zu MiB: %s", len / MIB, strerror(errno));
	madvise(p, len, MADV_NOHUGEPAGE);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, A(p),
		 A(p) + len);
	snprintf(want, sizeof(want), "\"mismatch\":%zu", len / PAGE);
	argv[3] = "1";
	ok = pc_run(t, &one, argv);
	argv[3] = "8";
	ok = ok && pc_run(t, &many, argv) &&
	     (many.status == 1 || fail(t, "exit %d: %s", many.status,
				       many.err)) &&
	     (strstr(many.out, want) ||
	      fail(t, "not every page a mismatch (%s): %.300s", want,
		   many.out)) &&
	     ((one.len == many.len && !memcmp(one.out, many.out, one.len)) ||
	      fail(t, "--jobs 1 and --jobs 8 differ (%zu and %zu bytes)",
		   one.len, many.len)) &&
	     jobs_started(t, &many, 8, "every page differs") &&
	     rss_bounded(t, &many, "8", "every page differs");
	if (ok)
		printf("# jobs_rss_every_page_differs: %zu pages, --jobs 8 peak RSS %"
		       PRIu64 " KiB, --jobs 1 %" PRIu64 " KiB\n", len / PAGE,
		       peak_rss(&many), peak_rss(&one));
	pc_free(&one);
	pc_free(&many);
	munmap(p, len);
	return ok;
}
