// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare's DMA view of a --range, and its progress line.
 *
 * The DMA view is checked against runs and holes the test computes itself
 * from the fixture's oracle: the frames the fixture mapped with
 * remap_pfn_range, or get_user_pages' frame of every page.  The progress
 * line is checked on a pseudo-terminal, where ptcompare must show it, and
 * on a pipe and with --no-progress, where it must not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <linux/mman.h>
#include "ptcompare_run.h"
#include "vmtest.h"

#define ALIGN_CAP GIB
#define FOUR_GIB (4ULL * GIB)

extern char **environ;

static uint64_t num(struct json_object *o, const char *key)
{
	return (uint64_t)json_object_get_int64(pc_get(o, key));
}

static bool flag(struct json_object *o, const char *key)
{
	return json_object_get_boolean(pc_get(o, key));
}

/* Largest power of two dividing phys, capped: the test's own sum. */
static uint64_t align_of(uint64_t phys)
{
	uint64_t a = 1;

	if (!phys)
		return ALIGN_CAP;
	while (!(phys & a) && a < ALIGN_CAP)
		a <<= 1;
	return a;
}

/*
 * The "dma" object of r against the oracle's frames of the n pages from
 * start (pfn[i], NO_PFN where the oracle maps nothing): every run and hole
 * in order, each run's alignment and place against 4 GiB, the totals.
 * Pages with unmapped[i] (unmapped may be NULL) lie outside any VMA:
 * "unmapped" holes, the others "not_present".
 */
static bool check_dma(struct vmtest *t, const struct pc_result *r,
		      uint64_t start, size_t n, const bool *unmapped,
		      const uint64_t *pfn, bool locked)
{
	struct json_object *dma = pc_get(r->doc, "dma");
	struct json_object *runs = pc_get(dma, "runs");
	struct json_object *holes = pc_get(dma, "holes");
	struct json_object *tot = pc_get(dma, "totals");
	size_t ri = 0, hi = 0, i = 0, frames = 0, largest = 0;

	if (!json_object_is_type(dma, json_type_object) ||
	    !json_object_is_type(runs, json_type_array) ||
	    !json_object_is_type(holes, json_type_array) ||
	    !json_object_is_type(tot, json_type_object))
		return fail(t, "no dma object with runs, holes, totals");
	if (pc_hex_or_none(dma, "start") != start || pc_hex_or_none(dma, "end") != start + n * PAGE ||
	    num(dma, "pages") != n)
		return fail(t, "dma covers %s-%s",
			    json_object_get_string(pc_get(dma, "start")),
			    json_object_get_string(pc_get(dma, "end")));
	while (i < n) {
		size_t len = 1;
		uint64_t addr = start + i * PAGE;

		if (pfn[i] == NO_PFN) {
			struct json_object *h = json_object_array_get_idx(holes, hi++);

			bool out = unmapped && unmapped[i];
			const char *kind = out ? "unmapped" : "not_present";

			while (i + len < n && pfn[i + len] == NO_PFN &&
			       (unmapped && unmapped[i + len]) == out)
				len++;
			if (!h || pc_hex_or_none(h, "start") != addr || num(h, "pages") != len ||
			    strcmp(json_object_get_string(pc_get(h, "kind")), kind))
				return fail(t, "expected a %s hole of %zu pages at 0x%"
					    PRIx64 ", got %s", kind, len, addr,
					    h ? json_object_to_json_string(h) : "none");
		} else {
			struct json_object *o = json_object_array_get_idx(runs, ri++);
			uint64_t phys = pfn[i] << PAGE_SHIFT_K;

			while (i + len < n && pfn[i + len] == pfn[i] + len)
				len++;
			if (!o || pc_hex_or_none(o, "start") != addr || num(o, "pages") != len ||
			    pc_hex_or_none(o, "pfn") != pfn[i] || pc_hex_or_none(o, "phys") != phys)
				return fail(t, "expected a run of %zu pages at 0x%" PRIx64
					    " from pfn 0x%" PRIx64 ", got %s", len,
					    addr, pfn[i],
					    o ? json_object_to_json_string(o) : "none");
			if (num(o, "align") != align_of(phys) ||
			    flag(o, "crosses_4g") !=
			    (phys < FOUR_GIB && phys + len * PAGE > FOUR_GIB) ||
			    flag(o, "above_4g") != (phys >= FOUR_GIB))
				return fail(t, "run at 0x%" PRIx64 ": align or 4 GiB wrong: %s",
					    addr, json_object_to_json_string(o));
			frames += len;
			largest = len > largest ? len : largest;
		}
		i += len;
	}
	if (ri != json_object_array_length(runs) ||
	    hi != json_object_array_length(holes))
		return fail(t, "%zu runs and %zu holes expected, got %zu and %zu",
			    ri, hi, json_object_array_length(runs),
			    json_object_array_length(holes));
	if (num(tot, "runs") != ri || num(tot, "holes") != hi ||
	    num(tot, "frame_pages") != frames || num(tot, "largest_run") != largest)
		return fail(t, "totals wrong: %s", json_object_to_json_string(tot));
	if (flag(dma, "resident") != (frames == n))
		return fail(t, "resident %d with %zu of %zu pages mapped",
			    flag(dma, "resident"), frames, n);
	if (flag(dma, "locked") != locked)
		return fail(t, "locked %d, expected %d", flag(dma, "locked"),
			    locked);
	return true;
}

/* The oracle's frame of each of the n pages from p. */
static bool oracle_pfns(struct vmtest *t, const void *p, size_t n,
			uint64_t *pfn)
{
	struct ptwalk_fixture_translate o;

	for (size_t i = 0; i < n; i++) {
		if (!oracle(t, A(p) + i * PAGE, &o))
			return false;
		pfn[i] = o.status == PTWALK_FIXTURE_MAPPED ? o.pfn : NO_PFN;
	}
	return true;
}

/*
 * ptcompare --json --range over a range with unmapped parts, which
 * pc_json() refuses (its ranges must cover the whole range).
 */
static bool dma_json(struct vmtest *t, struct pc_result *r, uint64_t start,
		     uint64_t end)
{
	char range[64], pid[16];
	const char *argv[] = { "ptcompare", "--json", "--range", range, pid,
			       NULL };
	enum json_tokener_error jerr;

	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, start, end);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (!pc_run(t, r, argv))
		return false;
	if (r->status)
		return fail(t, "ptcompare --json exited %d: %s", r->status,
			    r->err);
	r->doc = json_tokener_parse_verbose(r->out, &jerr);
	return r->doc || fail(t, "ptcompare printed invalid JSON: %s",
			      json_tokener_error_desc(jerr));
}

/* ptcompare's text report of the range, with its DMA section. */
static bool text_has(struct vmtest *t, uint64_t start, uint64_t end,
		     const char *const needles[])
{
	char range[64], pid[16];
	const char *argv[] = { "ptcompare", "--range", range, pid, NULL };
	struct pc_result r;
	bool ok;

	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, start, end);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ok = pc_run(t, &r, argv) &&
	     (r.status == 0 || fail(t, "text report exit %d: %s", r.status, r.err));
	for (size_t i = 0; ok && needles[i]; i++) {
		char *dma = strstr(r.out, "\nDMA view of ");

		ok = (dma && strstr(dma, needles[i]) &&
		      strstr(dma, "\nverdict: ")) ||
		     fail(t, "no '%s' in the DMA view: %s", needles[i],
			  dma ? dma : r.out);
	}
	pc_free(&r);
	return ok;
}

/*
 * (a) The fixture's remap_pfn_range pages: pagemap shows holes there, the
 * DMA view shows the fixture's frames, the contiguous block as one run
 * although mprotect cut it into two VMAs (so ptcompare sees two ranges).
 */
VMTEST_CASE(dma, "dma_fixture_pfnmap", dma_fixture_pfnmap)
{
	struct ptwalk_fixture_pfns known;
	uint64_t pfn[PTWALK_FIXTURE_PAGES];
	char head[160], run[160];
	struct pc_result r;
	char *p;
	bool ok;

	p = vm_map_fixture(t, &known);
	if (!p)
		return false;
	if (mprotect(p + PTWALK_FIXTURE_CONTIG / 2 * PAGE, PAGE, PROT_READ)) {
		munmap(p, PTWALK_FIXTURE_PAGES * PAGE);
		return fail(t, "mprotect fixture: %s", strerror(errno));
	}
	for (size_t i = 0; i < PTWALK_FIXTURE_PAGES; i++)
		pfn[i] = known.pfn[i];
	ok = pc_json(t, &r, getpid(), A(p), A(p) + PTWALK_FIXTURE_PAGES * PAGE) &&
	     check_dma(t, &r, A(p), PTWALK_FIXTURE_PAGES, NULL, pfn, false);
	if (ok) {
		struct json_object *first = json_object_array_get_idx(
			pc_get(pc_get(r.doc, "dma"), "runs"), 0);

		ok = num(first, "pages") >= PTWALK_FIXTURE_CONTIG ||
		     fail(t, "the fixture's contiguous block is not one run");
	}
	pc_free(&r);
	snprintf(head, sizeof(head), "DMA view of 0x%" PRIx64 "-0x%" PRIx64
		 " (16 pages, %lu %s)", A(p), A(p) + PTWALK_FIXTURE_PAGES * PAGE,
		 PTWALK_FIXTURE_PAGES * PAGE % MIB ? PTWALK_FIXTURE_PAGES * PAGE >> 10 :
		 PTWALK_FIXTURE_PAGES * PAGE >> 20,
		 PTWALK_FIXTURE_PAGES * PAGE % MIB ? "KiB" : "MiB");
	snprintf(run, sizeof(run), "\n  0x%012" PRIx64 " ", A(p));
	ok = ok && text_has(t, A(p), A(p) + PTWALK_FIXTURE_PAGES * PAGE,
			    (const char *const[]){ head, run,
				"  resident: yes, every page has a frame\n",
				"  locked: no (0 of 16 pages",
				/*
				 * the fixture's own pages: struct page, but
				 * special entries, so no pin count is read
				 */
				"  pinned: 0 pages DMA-pinned in 0 spans, 0 not pinned in 0 spans, 16 unknown (no struct page, or a special entry's, which is not read)",
				"  memory types: " RAM_MEMTYPE_NAME " 16 pages\n",
				NULL });
	munmap(p, PTWALK_FIXTURE_PAGES * PAGE);
	return ok;
}

/* (b) One 2 MiB hugetlb page: one run of 512 pages, 2 MiB aligned. */
VMTEST_CASE(dma, "dma_hugetlb_2m", dma_hugetlb_2m)
{
	size_t n = 2 * MIB / PAGE;
	uint64_t *pfn = calloc(n, sizeof(*pfn));
	struct json_object *run;
	struct pc_result r;
	char *p;
	bool ok;

	if (!pfn)
		return fail(t, "out of memory");
	p = mmap(NULL, 2 * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
	if (p == MAP_FAILED) {
		free(pfn);
		return fail(t, "mmap hugetlb 2M: %s", strerror(errno));
	}
	touch_write(p, 2 * MIB);
	ok = oracle_pfns(t, p, n, pfn) &&
	     pc_json(t, &r, getpid(), A(p), A(p) + 2 * MIB) &&
	     check_dma(t, &r, A(p), n, NULL, pfn, false);
	if (ok) {
		run = json_object_array_get_idx(pc_get(pc_get(r.doc, "dma"),
						       "runs"), 0);
		ok = (json_object_array_length(pc_get(pc_get(r.doc, "dma"),
						      "runs")) == 1 &&
		      num(run, "pages") == n) ||
		     fail(t, "a hugetlb page is not one run of %zu pages", n);
		ok = ok && (num(run, "align") >= 2 * MIB ||
			    fail(t, "hugetlb run aligned to %" PRIu64,
				 num(run, "align")));
	}
	pc_free(&r);
	munmap(p, 2 * MIB);
	free(pfn);
	return ok;
}

/*
 * (c) mlocked 4K anonymous pages, locked on fault so some stay holes: runs
 * and holes as get_user_pages sees them, locked; unlocked after munlock.
 */
VMTEST_CASE(dma, "dma_mlocked", dma_mlocked)
{
	size_t n = 64, len = n * PAGE;
	uint64_t pfn[64];
	struct pc_result r;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	bool ok;

	if (!p)
		return false;
	if (mlock2(p, len, MLOCK_ONFAULT)) {
		munmap(p, len);
		return fail(t, "mlock2: %s", strerror(errno));
	}
	for (size_t i = 0; i < n; i++)
		if (i % 16 < 12)	/* pages 12-15 of every 16 untouched */
			p[i * PAGE] = 1;
	ok = oracle_pfns(t, p, n, pfn) &&
	     pc_json(t, &r, getpid(), A(p), A(p) + len) &&
	     check_dma(t, &r, A(p), n, NULL, pfn, true) &&
	     (num(pc_get(pc_get(r.doc, "dma"), "totals"), "locked_pages") == n ||
	      fail(t, "locked_pages is not %zu", n));
	pc_free(&r);
	ok = ok && text_has(t, A(p), A(p) + len, (const char *const[]){
		"  locked: mlocked (VM_LOCKED on every VMA of the range)",
		"  resident: NO: 16 pages without a frame in 4 holes (16 not_present)",
		NULL });
	if (ok && munlock(p, len))
		ok = fail(t, "munlock: %s", strerror(errno));
	ok = ok && oracle_pfns(t, p, n, pfn) &&
	     pc_json(t, &r, getpid(), A(p), A(p) + len) &&
	     check_dma(t, &r, A(p), n, NULL, pfn, false);
	pc_free(&r);
	munmap(p, len);
	return ok;
}

/*
 * (d) Unpopulated pages, an unmapped gap and an unmapped tail: holes where
 * the oracle maps nothing, told apart by kind, and the range not resident.
 */
VMTEST_CASE(dma, "dma_holes", dma_holes)
{
	size_t n = 48, mapped = 40, len = n * PAGE;
	bool unmapped[48] = { false };
	uint64_t pfn[48];
	struct json_object *dma, *holes, *last;
	struct pc_result r;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	bool ok;

	if (!p)
		return false;
	munmap(p + mapped * PAGE, (n - mapped) * PAGE);
	munmap(p + 24 * PAGE, 2 * PAGE);
	for (size_t i = 0; i < n; i++)
		unmapped[i] = i >= mapped || i == 24 || i == 25;
	touch_write(p, 8 * PAGE);
	touch_write(p + 16 * PAGE, 4 * PAGE);
	p[30 * PAGE] = 1;
	ok = oracle_pfns(t, p, n, pfn) &&
	     ((pfn[8] == NO_PFN && pfn[0] != NO_PFN && pfn[n - 1] == NO_PFN) ||
	      fail(t, "oracle: untouched page mapped or touched page not")) &&
	     dma_json(t, &r, A(p), A(p) + len) &&
	     check_dma(t, &r, A(p), n, unmapped, pfn, false);
	if (ok) {
		dma = pc_get(r.doc, "dma");
		holes = pc_get(dma, "holes");
		last = json_object_array_get_idx(holes,
			json_object_array_length(holes) - 1);
		ok = (!strcmp(json_object_get_string(pc_get(last, "kind")),
			      "unmapped") &&
		      pc_hex_or_none(last, "start") == A(p) + mapped * PAGE) ||
		     fail(t, "the unmapped tail is not an unmapped hole: %s",
			  json_object_to_json_string(last));
		ok = ok && (num(pc_get(pc_get(dma, "totals"), "hole_pages"),
				"not_present") == mapped - 2 - 13 ||
			    fail(t, "not_present pages: %s",
				 json_object_to_json_string(dma)));
	}
	pc_free(&r);
	ok = ok && text_has(t, A(p), A(p) + len, (const char *const[]){
		"  resident: NO: 35 pages without a frame in 6 holes (25 not_present, 10 unmapped)",
		NULL });
	munmap(p, 24 * PAGE);
	munmap(p + 26 * PAGE, (mapped - 26) * PAGE);
	return ok;
}

/* --- the progress line --- */

/*
 * Runs ptcompare with argv (argv[0] included, NULL-terminated), its stdout
 * and stderr on a new pseudo-terminal (raw: no newline translation);
 * everything it wrote, in order, into out.
 */
static bool run_argv_on_pty(struct vmtest *t, const char *const argv[],
			    char **out, size_t *len, int *status)
{
	posix_spawn_file_actions_t fa;
	size_t cap = 1 << 16;
	int master, slave, err;
	struct termios tio;
	pid_t pc;

	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) || unlockpt(master))
		return fail(t, "pty: %s", strerror(errno));
	slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (slave < 0 || tcgetattr(slave, &tio)) {
		close(master);
		return fail(t, "pty slave: %s", strerror(errno));
	}
	cfmakeraw(&tio);
	tcsetattr(slave, TCSANOW, &tio);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, slave, 1);
	posix_spawn_file_actions_adddup2(&fa, slave, 2);
	err = posix_spawn(&pc, "/bin/ptcompare", &fa, NULL,
			  (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(slave);
	if (err) {
		close(master);
		return fail(t, "spawn ptcompare: %s", strerror(err));
	}
	*out = malloc(cap);
	*len = 0;
	for (;;) {
		ssize_t n;

		if (*out && *len + 1 >= cap) {
			char *bigger = realloc(*out, cap * 2);

			if (!bigger)
				break;
			*out = bigger;
			cap *= 2;
		}
		if (!*out)
			break;
		/* EIO once the last slave descriptor is closed */
		n = read(master, *out + *len, cap - *len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	close(master);
	waitpid(pc, status, 0);
	if (!*out)
		return fail(t, "out of memory");
	(*out)[*len] = '\0';
	return true;
}

/* ptcompare --range START-END PID [extra] on a pseudo-terminal. */
static bool run_on_pty(struct vmtest *t, const char *range, const char *extra,
		       char **out, size_t *len, int *status)
{
	char pid[16];
	const char *argv[] = { "ptcompare", "--range", range, pid, extra, NULL };

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return run_argv_on_pty(t, argv, out, len, status);
}

/*
 * How long a scan lasted at least, from ptcompare's --stats line in out:
 * the time spent in its pagemap and ptwalk reads (run_us would count the
 * report's writing too, after the scan and its progress line).  -1 if
 * there is no stats line.
 */
static double scan_seconds(const char *out)
{
	const char *pm = strstr(out, " pagemap_us="), *pw = strstr(out, " ptwalk_us=");
	double a, b;

	if (!pm || !pw || sscanf(pm, " pagemap_us=%lf", &a) != 1 ||
	    sscanf(pw, " ptwalk_us=%lf", &b) != 1)
		return -1;
	return (a + b) / 1e6;
}

/*
 * A sparse mapping big enough that a scan of it takes more than min_s
 * seconds (doubled until it does, up to 16 TiB): the progress line is due
 * after one.  Its first 4 GiB have a page touched per MiB and are cut into
 * many VMAs by mprotect; the rest stays untouched, costing no memory or
 * page tables, while pagemap still reports (and ptcompare still compares)
 * each of its pages, so the scan time grows with the size on any machine
 * (a quiet one scanned 64 GiB in under 1.5 s).  The time
 * is the scan's own, read from --stats (scan_seconds()), not the wall
 * time around the child: a sanitized build spends more around the scan,
 * starting and at exit (the leak check), than a plain one.
 */
static char *slow_target(struct vmtest *t, double min_s, size_t *len,
			 double *took)
{
	for (*len = 4 * GIB; *len <= 16384 * GIB; *len *= 2) {
		char range[64], pid[16];
		const char *argv[] = { "ptcompare", "--stats", "--range", range,
				       pid, NULL };
		struct pc_result r;
		char *p = mmap(NULL, *len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		bool ok;

		if (p == MAP_FAILED) {
			fail(t, "mmap %zu GiB: %s", *len / GIB, strerror(errno));
			return NULL;
		}
		madvise(p, *len, MADV_NOHUGEPAGE);
		for (size_t i = 0; i < 4 * GIB; i += MIB)
			p[i] = 1;
		for (size_t i = 0; i < 4 * GIB; i += 4 * MIB)
			mprotect(p + i, 2 * MIB, PROT_READ);
		snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, A(p),
			 A(p) + *len);
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		ok = pc_run(t, &r, argv);
		*took = scan_seconds(r.err);
		/* stderr is a file here: not a single byte of progress */
		ok = ok && (r.status == 0 ||
			    fail(t, "exit %d: %s", r.status, r.err)) &&
		     (!strncmp(r.err, "ptcompare: stats: ", 18) ||
		      fail(t, "stderr not a terminal, yet: '%s'", r.err)) &&
		     (*took >= 0 || fail(t, "no timings in '%s'", r.err));
		pc_free(&r);
		if (!ok) {
			munmap(p, *len);
			return NULL;
		}
		if (*took > min_s)
			return p;
		munmap(p, *len);
	}
	fail(t, "no scan took more than %.1f s, even of 16 TiB", min_s);
	return NULL;
}

/*
 * The line is due after 1 s of a scan on a terminal.  How long a scan
 * lasts varies from run to run on a busy machine (by half or double
 * under TCG): a scan on the pty that itself lasted under 2 s (by its
 * --stats; its last check for a line may fall before 1 s where a batch
 * of one VMA takes the rest) proves nothing either way, and is run again
 * on a mapping that took twice as long, up to three times.
 */
VMTEST_CASE(dma, "ptcompare_progress_line", progress_line)
{
	size_t len, outlen, lines;
	char range[64], *out = NULL, *p = NULL;
	const char *head, *s, *last;
	double took, on_pty = 0, min_s = 1.5;
	int status;
	bool ok = true;

	for (int attempt = 0; ok && attempt < 3; attempt++, min_s *= 2) {
		if (p) {
			munmap(p, len);
			free(out);
			out = NULL;
		}
		p = slow_target(t, min_s, &len, &took);
		if (!p)
			return false;
		snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64,
			 A(p), A(p) + len);
		ok = run_on_pty(t, range, "--stats", &out, &outlen, &status) &&
		     ((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
		      fail(t, "on a pty: status 0x%x", status));
		on_pty = ok ? scan_seconds(out) : 0;
		ok = ok && (on_pty >= 0 || fail(t, "no timings on the pty"));
		if (!ok || on_pty >= 2 || strstr(out, "\rptcompare: "))
			break;
	}
	lines = 0;
	last = NULL;
	head = ok ? strstr(out, "ptcompare: pid ") : NULL;
	ok = ok && (head || fail(t, "no report on the pty: %.200s", out));
	/* the progress lines, each "\rptcompare: N of M pages (P%)..." */
	for (s = out; ok && (s = strstr(s, "\rptcompare: ")) && s + 1 < head;
	     s++) {
		unsigned long long done, total;
		unsigned int pct;

		if (sscanf(s, "\rptcompare: %llu of %llu pages (%u%%)", &done,
			   &total, &pct) != 3 || total != len / PAGE ||
		    done > total || pct > 100)
			ok = fail(t, "bad progress line: %.80s", s + 1);
		lines++;
		last = s + 1;
	}
	ok = ok && (lines >= 1 ||
		    fail(t, "no progress line in a %.1f s scan on the pty (%.1f s with stderr on a file): %.200s",
			 on_pty, took, out));
	/* wiped before the report: "\r", blanks, "\r" right before it */
	if (ok) {
		const char *c = head;

		ok = (c > out && c[-1] == '\r') || fail(t, "line not wiped");
		for (c = head - 2; ok && c > out && *c == ' '; c--)
			;
		ok = ok && ((*c == '\r' && head - c > 10) ||
			    fail(t, "line not blanked before the report"));
		ok = ok && (!strstr(head, "\rptcompare: ") ||
			    fail(t, "progress after the report began"));
		ok = ok && (strstr(head, "\nverdict: ok") ||
			    fail(t, "no verdict on the pty"));
	}
	if (ok)
		printf("# progress_line: %zu progress lines in a scan of %zu GiB (%.1f s on the pty, %.1f s with stderr on a file), the last: %.*s\n",
		       lines, len / GIB, on_pty, took, (int)strcspn(last, "\r"),
		       last);
	free(out);
	out = NULL;
	/* --no-progress on the same terminal: the report alone */
	ok = ok && run_on_pty(t, range, "--no-progress", &out, &outlen, &status) &&
	     ((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
	      fail(t, "--no-progress: status 0x%x", status)) &&
	     (!strncmp(out, "ptcompare: pid ", 15) ||
	      fail(t, "--no-progress on a pty: %.120s", out)) &&
	     (!strchr(out, '\r') || fail(t, "--no-progress: a '\\r' in the output"));
	free(out);
	munmap(p, len);
	return ok;
}

/*
 * One progress line of --all on the pty: "ptcompare: N of M processes
 * (P%), K pages, T s" and blanks up to the '\r' that ends it; false if
 * s is not one.
 */
static bool all_progress_ok(const char *s)
{
	unsigned long long done, total, pages;
	unsigned int pct, sec, tenth;
	int n = 0;

	if (sscanf(s, "ptcompare: %llu of %llu processes (%u%%), %llu pages, %u.%u s%n",
		   &done, &total, &pct, &pages, &sec, &tenth, &n) != 6 ||
	    done > total || pct > 100)
		return false;
	for (s += n; *s == ' '; s++)
		;
	return *s == '\r';
}

/*
 * ptcompare --all on a terminal, stdout and stderr both: the progress
 * line counts processes, and is wiped before each process's row, which
 * would otherwise follow its text on the same line ("...1.2 s   1272
 * spawn ..."): every line of progress ends at a '\r', never at a row or
 * a newline.  This process holds a mapping whose scan alone takes over
 * 1.5 s (slow_target()), so the line is due once it is handed in, and a
 * child forked before (a higher pid, without the mapping) has its row
 * after that.  How long that scan lasts inside --all varies as much as
 * progress_line()'s (by half under TCG on a busy machine, --all's whole
 * run then shorter than the target's own scan): a run of --all that
 * lasted under 2 s and showed no line proves nothing either way (this
 * process may have been handed in before the line was due, the rest
 * right after it), and is run again on a mapping that took twice as
 * long, up to three times.  A run of 2 s or more must show the line.
 */
VMTEST_CASE(dma, "ptcompare_progress_line_all", progress_line_all)
{
	const char *argv[] = { "ptcompare", "--all", NULL };
	double took = 0, min_s = 1.5, wall = 0;
	size_t len = 0, outlen, lines = 0;
	char *out = NULL, *p = NULL;
	const char *s;
	int status;
	pid_t child = fork();
	bool ok = true;

	if (child == 0) {
		pause();
		_exit(0);
	}
	if (child < 0)
		return fail(t, "fork: %s", strerror(errno));
	for (int attempt = 0; ok && attempt < 3; attempt++, min_s *= 2) {
		double t0;

		if (p) {
			munmap(p, len);
			free(out);
			out = NULL;
		}
		p = slow_target(t, min_s, &len, &took);
		if (!p) {
			ok = false;
			break;
		}
		t0 = vm_now_s();
		ok = run_argv_on_pty(t, argv, &out, &outlen, &status) &&
		     ((WIFEXITED(status) && WEXITSTATUS(status) <= 1) ||
		      fail(t, "--all on a pty: status 0x%x", status)) &&
		     (strstr(out, "\nverdict: ") ||
		      fail(t, "--all on a pty: no verdict: %.200s", out));
		wall = vm_now_s() - t0;
		if (!ok || wall >= 2 || strstr(out, "\rptcompare: "))
			break;
	}
	for (s = out; ok && (s = strstr(s, "\rptcompare: ")); s++, lines++)
		ok = all_progress_ok(s + 1) ||
		     fail(t, "progress line not ended by '\\r' (a row after it?): %.120s",
			  s + 1);
	ok = ok && (lines >= 1 ||
		    fail(t, "no progress line in --all on the pty (this process's scan %.1f s, --all %.1f s): %.200s",
			 took, wall, out));
	if (ok)
		printf("# ptcompare_progress_line_all: %zu progress lines (this process's scan %.1f s, --all %.1f s)\n",
		       lines, took, wall);
	free(out);
	if (p)
		munmap(p, len);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return ok;
}
