// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --watch: each change of a watched range reported once, none
 * invented, against what the test did and what the fixture's oracle
 * (get_user_pages) says of the frames before and after.  The watch runs
 * in the background (--json: JSON Lines); the test acts once its "start"
 * line says the first reading is done, then reads every line to the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-c/json.h>
#include "ptcompare_run.h"
#include "vmtest.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define WATCH_PAGES_MAX 1024

/* A watch running in the background, and the changes it printed. */
struct watch {
	pid_t pid;
	FILE *out;		/* its stdout */
	/*
	 * a change line per run of frames, up to one a page of a PMD leaf:
	 * 8192 with 64K pages (512M), when the frames collapsed from lie
	 * apart (CI's 64K lane once printed more than 4096)
	 */
	struct json_object *change[8192];
	/* each change's pages, [start, end), read once (changes_of()) */
	uint64_t start[8192], end[8192];
	int nr_changes;
	char ended[16];
	int status;
};

static bool watch_start(struct vmtest *t, struct watch *w, uint64_t start,
			uint64_t end, int seconds)
{
	char range[64], pidstr[16], secs[16], line[4096];
	const char *argv[] = { "ptcompare", "--json", "--watch", secs,
			       "--interval", "50", "--range", range, pidstr,
			       NULL };
	int fd;

	memset(w, 0, sizeof(*w));
	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, start, end);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)getpid());
	snprintf(secs, sizeof(secs), "%d", seconds);
	w->pid = pc_spawn(t, argv, NULL, &fd);
	if (w->pid < 0)
		return false;
	w->out = fdopen(fd, "r");
	if (!w->out || !fgets(line, sizeof(line), w->out) ||
	    !strstr(line, "\"event\":\"start\""))
		return fail(t, "ptcompare --watch did not start: '%s'",
			    w->out ? line : "");
	return true;
}

/* Every line to the end, and the exit status. */
static bool watch_finish(struct vmtest *t, struct watch *w)
{
	char line[4096];
	int status;
	bool ok = true;

	while (fgets(line, sizeof(line), w->out)) {
		struct json_object *o = json_tokener_parse(line);
		struct json_object *ev = o ? pc_get(o, "event") : NULL;
		const char *e = ev ? json_object_get_string(ev) : "";

		if (!o) {
			ok = fail(t, "--watch printed a line that is not JSON: %s",
				  line);
		} else if (!strcmp(e, "change") &&
			   w->nr_changes < (int)(sizeof(w->change) / sizeof(w->change[0]))) {
			w->start[w->nr_changes] = pc_hex_or_none(o, "start");
			w->end[w->nr_changes] = w->start[w->nr_changes] +
				(uint64_t)json_object_get_int64(pc_get(o, "pages")) *
				(uint64_t)sysconf(_SC_PAGESIZE);
			w->change[w->nr_changes++] = o;
			continue;
		} else if (!strcmp(e, "change")) {
			ok = fail(t, "more than %zu change lines: this case holds no more",
				  sizeof(w->change) / sizeof(w->change[0]));
		} else if (!strcmp(e, "end")) {
			snprintf(w->ended, sizeof(w->ended), "%s",
				 json_object_get_string(pc_get(o, "ended")));
		}
		json_object_put(o);
	}
	fclose(w->out);
	waitpid(w->pid, &status, 0);
	w->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	if (ok && strcmp(w->ended, "time"))
		ok = fail(t, "--watch ended '%s', not on time", w->ended);
	return ok;
}

static void watch_free(struct watch *w)
{
	for (int i = 0; i < w->nr_changes; i++)
		json_object_put(w->change[i]);
	w->nr_changes = 0;
}

/*
 * The changes that cover the page at addr, in order, into idx: how many.
 */
static int changes_of(const struct watch *w, uint64_t addr, int idx[4])
{
	int n = 0;

	for (int i = 0; i < w->nr_changes && n < 4; i++)
		if (addr >= w->start[i] && addr < w->end[i])
			idx[n++] = i;
	return n;
}

/* A side's frame of the page at addr in change c (its run's first + k). */
static uint64_t frame_in(struct json_object *c, const char *side,
			 uint64_t addr)
{
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t pfn = pc_hex_or_none(pc_get(c, side), "pfn");
	uint64_t s = pc_hex_or_none(c, "start");

	return pfn == NO_PFN ? NO_PFN : pfn + (addr - s) / (uint64_t)ps;
}

static const char *cause_of(struct json_object *c)
{
	return json_object_get_string(pc_get(c, "cause"));
}

/*
 * The page at addr changed exactly once, from frame before to frame after
 * (NO_PFN: nothing), for cause; or, when also is set, first for also then
 * for cause (a transition caught half way).
 */
static bool expect_once(struct vmtest *t, const struct watch *w,
			uint64_t addr, uint64_t before, uint64_t after,
			const char *cause, const char *also)
{
	int idx[4], n = changes_of(w, addr, idx);
	struct json_object *first, *last;

	if (n == 0)
		return fail(t, "0x%" PRIx64 ": no change reported (%s)", addr,
			    cause);
	first = w->change[idx[0]];
	last = w->change[idx[n - 1]];
	if (n > (also ? 2 : 1) ||
	    (n == 2 && strcmp(cause_of(first), also)))
		return fail(t, "0x%" PRIx64 ": %d changes, the first %s", addr,
			    n, cause_of(first));
	if (strcmp(cause_of(last), cause))
		return fail(t, "0x%" PRIx64 ": cause %s, want %s", addr,
			    cause_of(last), cause);
	if (frame_in(first, "old", addr) != before ||
	    frame_in(last, "new", addr) != after)
		return fail(t, "0x%" PRIx64 ": 0x%" PRIx64 " -> 0x%" PRIx64
			    ", the oracle 0x%" PRIx64 " -> 0x%" PRIx64, addr,
			    frame_in(first, "old", addr),
			    frame_in(last, "new", addr), before, after);
	return true;
}

static bool expect_none(struct vmtest *t, const struct watch *w,
			uint64_t addr)
{
	int idx[4];

	return changes_of(w, addr, idx) == 0 ||
	       fail(t, "0x%" PRIx64 ": a change reported where none was made (%s)",
		    addr, cause_of(w->change[idx[0]]));
}

static uint64_t frame_of(struct vmtest *t, uint64_t addr)
{
	struct ptwalk_fixture_translate o;

	if (!oracle(t, addr, &o) || o.status != PTWALK_FIXTURE_MAPPED)
		return NO_PFN;
	return o.pfn;
}

/* pages anonymous 4 KiB pages, on a VM with a node 1 to move them to. */
static char *map_two_nodes(struct vmtest *t, size_t pages)
{
	if (access("/sys/devices/system/node/node1", F_OK)) {
		fail(t, "the VM has no NUMA node 1 (qemu -numa)");
		return NULL;
	}
	return map_anon(t, pages * (size_t)sysconf(_SC_PAGESIZE),
			MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
}

/*
 * 16 pages on node 0, the first 8 moved to node 1 by move_pages(2) while
 * watched: each reported once as migrated (or migrating, then migrated),
 * old and new frames the oracle's; the other 8 not at all.
 */
VMTEST_CASE(watch, "watch_migrate", watch_migrate)
{
	long ps = sysconf(_SC_PAGESIZE);
	enum { PAGES = 16, MOVED = 8 };
	uint64_t before[PAGES], after[PAGES];
	void *addrs[MOVED];
	int nodes[MOVED], status[MOVED];
	struct watch w;
	char *p;
	bool ok = true;

	p = map_two_nodes(t, PAGES);
	if (!p)
		return false;
	if (vm_mbind_node(p, PAGES * (size_t)ps, 0))
		ok = fail(t, "mbind: %s", strerror(errno));
	if (ok)
		touch_write(p, PAGES * (size_t)ps);
	for (int i = 0; ok && i < PAGES; i++)
		before[i] = frame_of(t, A(p) + (uint64_t)i * (uint64_t)ps);
	ok = ok && watch_start(t, &w, A(p), A(p) + PAGES * (uint64_t)ps, 3);
	if (!ok) {
		munmap(p, PAGES * (size_t)ps);
		return false;
	}
	for (int i = 0; i < MOVED; i++) {
		addrs[i] = p + i * ps;
		nodes[i] = 1;
	}
	/* MPOL_MF_MOVE: this process's pages only */
	if (syscall(__NR_move_pages, 0, MOVED, addrs, nodes, status, 2))
		ok = fail(t, "move_pages: %s", strerror(errno));
	for (int i = 0; ok && i < MOVED; i++)
		if (status[i] != 1)
			ok = fail(t, "move_pages left page %d on %d", i,
				  status[i]);
	for (int i = 0; i < PAGES; i++)
		after[i] = frame_of(t, A(p) + (uint64_t)i * (uint64_t)ps);
	ok = watch_finish(t, &w) && ok;
	for (int i = 0; ok && i < PAGES; i++) {
		uint64_t a = A(p) + (uint64_t)i * (uint64_t)ps;

		ok = i < MOVED ? expect_once(t, &w, a, before[i], after[i],
					     "migrated", "migrating") :
				 expect_none(t, &w, a);
	}
	if (ok && w.status != 0)
		ok = fail(t, "--watch exited %d, want 0", w.status);
	watch_free(&w);
	munmap(p, PAGES * (size_t)ps);
	return ok;
}

/*
 * Two pages shared with a child by fork: page 0 written (its own copy:
 * copy_on_write), page 1 dropped (MADV_DONTNEED: unmapped); page 2 left.
 */
VMTEST_CASE(watch, "watch_cow_and_dontneed", watch_cow_and_dontneed)
{
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t before[3], after0;
	int hold[2];
	struct watch w;
	pid_t child;
	char *p, c;
	bool ok = true;

	p = map_anon(t, 3 * (size_t)ps, MAP_PRIVATE | MAP_ANONYMOUS,
		     MADV_NOHUGEPAGE);
	if (!p || pipe(hold))
		return fail(t, "setup: %s", strerror(errno));
	touch_write(p, 3 * (size_t)ps);
	child = fork();
	if (child == 0) {
		close(hold[1]);
		while (read(hold[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(hold[0]);
	for (int i = 0; i < 3; i++)
		before[i] = frame_of(t, A(p) + (uint64_t)i * (uint64_t)ps);
	ok = watch_start(t, &w, A(p), A(p) + 3 * (uint64_t)ps, 3);
	if (ok) {
		p[0] = 1;	/* copy on write */
		if (madvise(p + ps, (size_t)ps, MADV_DONTNEED))
			ok = fail(t, "MADV_DONTNEED: %s", strerror(errno));
		after0 = frame_of(t, A(p));
		ok = watch_finish(t, &w) && ok;
		ok = ok && after0 != before[0] &&
		     expect_once(t, &w, A(p), before[0], after0,
				 "copy_on_write", NULL) &&
		     expect_once(t, &w, A(p) + (uint64_t)ps, before[1], NO_PFN,
				 "unmapped", NULL) &&
		     expect_none(t, &w, A(p) + 2 * (uint64_t)ps);
		watch_free(&w);
	}
	close(hold[1]);
	waitpid(child, NULL, 0);
	munmap(p, 3 * (size_t)ps);
	return ok;
}

#define KHUGEPAGED "/sys/kernel/mm/transparent_hugepage/khugepaged/"

/*
 * Before 6.1 (7d8faaf15545, MADV_COLLAPSE) only khugepaged collapses:
 * made to scan every 10 ms, it is waited for until the oracle sees the
 * first page in a folio of the PMD's size (at most 8 s).  Its settings are
 * put back by khugepaged_restore().
 */
static bool khugepaged_collapse(struct vmtest *t, char *p, size_t len,
				char saved[2][32])
{
	struct ptwalk_fixture_translate o;
	unsigned int order = (unsigned int)__builtin_ctzl(len / PAGE);

	if (!vm_read_text(KHUGEPAGED "scan_sleep_millisecs", saved[0], 32) ||
	    !vm_read_text(KHUGEPAGED "pages_to_scan", saved[1], 32) ||
	    !vm_write_text(KHUGEPAGED "scan_sleep_millisecs", "10") ||
	    !vm_write_text(KHUGEPAGED "pages_to_scan", "4096"))
		return fail(t, "cannot set khugepaged's scan rate: %s",
			    strerror(errno));
	for (int i = 0; i < 160; i++) {
		if (oracle(t, A(p), &o) && o.status == PTWALK_FIXTURE_MAPPED &&
		    o.folio_order == order)
			return true;
		usleep(50000);
	}
	return fail(t, "khugepaged did not collapse the range in 8 s");
}

static void khugepaged_restore(char saved[2][32])
{
	if (saved[0][0])
		vm_write_text(KHUGEPAGED "scan_sleep_millisecs", saved[0]);
	if (saved[1][0])
		vm_write_text(KHUGEPAGED "pages_to_scan", saved[1]);
}

/*
 * MADV_COLLAPSE, tried again while it fails with EAGAIN: the kernel's
 * transient results (madvise_collapse_errno(): a page locked, off the LRU
 * or holding an extra reference for a moment), which it says a retry may
 * clear.  Newest 16K returned it once in a whole suite (2048 pages to a
 * PMD).  At most 5 tries 100 ms apart, well inside the watch's 3 s; any
 * other error, or EAGAIN every time, is the caller's failure.
 */
static int collapse(char *p, size_t len)
{
	int tries = 1;

	while (madvise(p, len, MADV_COLLAPSE)) {
		if (errno != EAGAIN || tries == 5)
			return -1;
		usleep(100000);
		tries++;
	}
	if (tries > 1)
		printf("# watch_collapse: MADV_COLLAPSE succeeded at try %d (EAGAIN before)\n",
		       tries);
	return 0;
}

/*
 * The node with the most free blocks of order pmd_order or more
 * (/proc/buddyinfo), or -1 if it cannot be read.  MADV_COLLAPSE allocates
 * the huge page on the node that holds the range's pages only: with 64K
 * pages a PMD leaf is 512M, and a node without a free block of it fails
 * the collapse with ENOMEM (seen: node 1 none, node 0 eight).
 */
static int node_with_free_pmd(unsigned int pmd_order)
{
	FILE *f = fopen("/proc/buddyinfo", "re");
	char line[512];
	int best = -1;
	unsigned long most = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int node, off;
		unsigned long free = 0, n;
		char *q;

		if (sscanf(line, "Node %d, zone %*s%n", &node, &off) != 1)
			continue;
		q = line + off;
		for (unsigned int order = 0; ; order++) {
			char *end;

			n = strtoul(q, &end, 10);
			if (end == q)
				break;
			if (order >= pmd_order)
				free += n;
			q = end;
		}
		if (best < 0 || free > most) {
			best = node;
			most = free;
		}
	}
	fclose(f);
	return best;
}

/*
 * A 2 MiB range of 4 KiB pages collapsed into a huge page by
 * MADV_COLLAPSE (khugepaged where the kernel lacks it): every page
 * reported once as thp_collapsed, its new frame the oracle's (the huge
 * page's).
 */
VMTEST_CASE(watch, "watch_collapse", watch_collapse)
{
	/* one PMD leaf: 2M with 4K pages, 32M with 16K (2048 pages) */
	const size_t len = vm_granule().pmd;
	long ps = sysconf(_SC_PAGESIZE);
	static uint64_t before[8192], after[8192];
	struct watch w;
	char *p = map_aligned(t, len, len, MADV_NOHUGEPAGE);
	char saved[2][32] = { "", "" };
	bool ok = true, advice;
	int node;

	if (!p)
		return false;
	/* an empty range: 0 where the advice exists, EINVAL before 6.1 */
	advice = !madvise(p, 0, MADV_COLLAPSE);
	if (len / (size_t)ps > sizeof(before) / sizeof(before[0])) {
		munmap(p, len);
		return fail(t, "%zu pages in a PMD leaf: more than this case holds",
			    len / (size_t)ps);
	}
	node = node_with_free_pmd((unsigned int)__builtin_ctzl(len / (size_t)ps));
	if (node >= 0 && vm_mbind_node(p, len, node)) {
		munmap(p, len);
		return fail(t, "mbind to node %d: %s", node, strerror(errno));
	}
	touch_write(p, len);
	for (size_t i = 0; i < len / (size_t)ps; i++)
		before[i] = frame_of(t, A(p) + i * (uint64_t)ps);
	/*
	 * VM_NOHUGEPAGE until the watch runs: khugepaged (THP "always" in
	 * the VM) could collapse the range as soon as it may, before the
	 * first reading (seen on 7.2).
	 */
	if (!watch_start(t, &w, A(p), A(p) + len, advice ? 3 : 10))
		return false;
	if (madvise(p, len, MADV_HUGEPAGE))
		ok = fail(t, "MADV_HUGEPAGE: %s", strerror(errno));
	if (ok && advice && collapse(p, len)) {
		char buddy[2048];
		int fd;
		ssize_t n;

		ok = fail(t, "MADV_COLLAPSE: %s", strerror(errno));
		/* free blocks per order and node, for an ENOMEM */
		fd = open("/proc/buddyinfo", O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, buddy, sizeof(buddy) - 1);
		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buddy[n] = 0;
			printf("# /proc/buddyinfo:\n%s", buddy);
		}
	}
	if (ok && !advice)
		ok = khugepaged_collapse(t, p, len, saved);
	khugepaged_restore(saved);
	for (size_t i = 0; i < len / (size_t)ps; i++)
		after[i] = frame_of(t, A(p) + i * (uint64_t)ps);
	ok = watch_finish(t, &w) && ok;
	for (size_t i = 0; ok && i < len / (size_t)ps; i++)
		ok = expect_once(t, &w, A(p) + i * (uint64_t)ps, before[i],
				 after[i], "thp_collapsed", NULL);
	watch_free(&w);
	return ok;
}

/*
 * Pages pinned by io_uring's IORING_REGISTER_BUFFERS (FOLL_PIN |
 * FOLL_LONGTERM): move_pages(2) cannot move them (their status is an
 * error), and the watch reports no change; exit 0.
 */
VMTEST_CASE(watch, "watch_pinned_stays", watch_pinned_stays)
{
	long ps = sysconf(_SC_PAGESIZE);
	enum { PAGES = 4 };
	struct io_uring_params params = { 0 };
	void *addrs[PAGES];
	int nodes[PAGES], status[PAGES], ring;
	uint64_t before[PAGES];
	struct iovec iov;
	struct watch w;
	char *p;
	bool ok = true;

	p = map_two_nodes(t, PAGES);
	if (!p)
		return false;
	touch_write(p, PAGES * (size_t)ps);
	ring = (int)syscall(__NR_io_uring_setup, 4, &params);
	iov = (struct iovec){ p, PAGES * (size_t)ps };
	if (ring < 0 || syscall(__NR_io_uring_register, ring,
				IORING_REGISTER_BUFFERS, &iov, 1))
		ok = fail(t, "io_uring register: %s", strerror(errno));
	for (int i = 0; ok && i < PAGES; i++) {
		addrs[i] = p + i * ps;
		before[i] = frame_of(t, A(p) + (uint64_t)i * (uint64_t)ps);
		status[i] = -1;
		/* the other node than the page's */
		if (syscall(__NR_move_pages, 0, 1, &addrs[i], NULL, &status[i],
			    0) || status[i] < 0)
			ok = fail(t, "move_pages (query): %s", strerror(errno));
		nodes[i] = !status[i];
	}
	ok = ok && watch_start(t, &w, A(p), A(p) + PAGES * (uint64_t)ps, 2);
	if (ok) {
		/* > 0: that many pages not moved, as a pin must make it */
		if (syscall(__NR_move_pages, 0, PAGES, addrs, nodes, status,
			    2) < 0)
			ok = fail(t, "move_pages: %s", strerror(errno));
		for (int i = 0; ok && i < PAGES; i++)
			if (status[i] >= 0 && status[i] == nodes[i])
				ok = fail(t, "move_pages moved pinned page %d", i);
		for (int i = 0; ok && i < PAGES; i++)
			if (frame_of(t, A(p) + (uint64_t)i * (uint64_t)ps) !=
			    before[i])
				ok = fail(t, "the oracle sees pinned page %d on another frame",
					  i);
		ok = watch_finish(t, &w) && ok;
		for (int i = 0; ok && i < PAGES; i++)
			ok = expect_none(t, &w, A(p) + (uint64_t)i * (uint64_t)ps);
		if (ok && w.status != 0)
			ok = fail(t, "--watch exited %d, want 0", w.status);
		watch_free(&w);
	}
	if (ring >= 0)
		close(ring);
	munmap(p, PAGES * (size_t)ps);
	return ok;
}
