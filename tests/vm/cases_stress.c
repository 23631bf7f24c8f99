// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare against a process that changes while it is scanned: every
 * difference the target's own changes cause must end up transient, never
 * mismatch, scan after scan, with two scanners at once for part of them;
 * and some must end up transient, or no race was caught.
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
#include <time.h>
#include <unistd.h>
#include "model/page_class.h"
#include "ptcompare_run.h"
#include "vmtest.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25	/* 6.1 */
#endif

#define STRESS_SCANS	200
#define PAIRED_EVERY	4	/* one scan in PAIRED_EVERY runs beside a second */
/*
 * Seconds the churn case scans where the lane gives no time, and the scans
 * it runs however long they take (two of them paired).  All 200 scans took
 * 498 s on arm64 6.12 under TCG, 57 s on x86 6.1; in 20 s the slowest lane
 * still meets the churn in eight scans.
 */
#define CHURN_SECONDS	20
#define CHURN_MIN_SCANS	(2 * PAIRED_EVERY)
/*
 * Past its time the case scans on until a scan has met the churn (a
 * transient page), for up to this many times as long: whether a scan
 * meets it is chance, and a slow lane (the ASan build on a loaded
 * machine) gets few scans in its time.
 */
#define CHURN_EXTEND	3

/*
 * Never returns: maps, touches, collapses to THP, zaps, mprotects, remaps
 * and unmaps, over and over, plus a long-lived region zapped and refilled
 * so that existing VMAs change too.
 */
static void churn(void)
{
	size_t len = 4 * MIB;
	char *keep = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int round = 0;

	if (keep == MAP_FAILED)
		_exit(1);
	for (;; round++) {
		char *p = map_aligned(&(struct vmtest){ 0 }, len, 2 * MIB,
				      MADV_HUGEPAGE);
		char *q;

		if (!p)
			_exit(1);
		touch_write(p, len);
		madvise(p, 2 * MIB, MADV_COLLAPSE);
		madvise(p + 64 * 1024, 64 * 1024, MADV_DONTNEED);
		mprotect(p + MIB, 256 * 1024, PROT_READ);
		q = mremap(p, len, 2 * len, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			q = p;
		else
			touch_write(q + len, len);
		munmap(q, q == p ? len : 2 * len);

		madvise(keep + (round % 16) * (len / 16), len / 16,
			MADV_DONTNEED);
		touch_write(keep + ((round + 8) % 16) * (len / 16), len / 16);
	}
}

struct tally {
	uint64_t pages[NR_CLASSES];
	unsigned int scans;
	uint64_t kpf_pages, kpf_cleared;	/* the third witness */
};

/*
 * What made a scan fail: its mismatch ranges and its witness's findings
 * (one JSON line each in ptcompare's output), at most eight lines.
 */
static void print_failed_scan(const char *out)
{
	unsigned int shown = 0;
	const char *line = out;

	while (line && *line && shown < 8) {
		const char *nl = strchr(line, '\n');
		int len = nl ? (int)(nl - line) : (int)strlen(line);

		if (memmem(line, len, "\"class\":\"mismatch\"", 18) ||
		    memmem(line, len, "\"contradiction\"", 15)) {
			printf("# failed scan: %.*s\n", len > 600 ? 600 : len,
			       line);
			shown++;
		}
		line = nl ? nl + 1 : NULL;
	}
}

static bool scan_done(struct vmtest *t, struct pc_result *r,
		      struct tally *tally)
{
	struct json_object *doc, *summary = NULL, *w = NULL;
	size_t i;

	if (r->status != 0) {
		if (r->out)
			print_failed_scan(r->out);
		return fail(t, "scan %u exited %d: %s", tally->scans, r->status,
			    r->err[0] ? r->err : r->out);
	}
	doc = json_tokener_parse(r->out);
	if (!doc || !json_object_object_get_ex(doc, "summary", &summary)) {
		if (doc)
			json_object_put(doc);
		return fail(t, "scan %u: no JSON summary", tally->scans);
	}
	for (i = 0; i < NR_CLASSES; i++)
		tally->pages[i] += (uint64_t)json_object_get_int64(
			json_object_object_get(summary, page_class_name(i)));
	if (json_object_object_get_ex(doc, "witnesses", &w)) {
		tally->kpf_pages += (uint64_t)json_object_get_int64(
			json_object_object_get(w, "kpageflags_pages"));
		tally->kpf_cleared += (uint64_t)json_object_get_int64(
			json_object_object_get(w, "cleared_on_recheck"));
	}
	json_object_put(doc);
	tally->scans++;
	return true;
}

VMTEST_CASE(stress, "ptcompare_churn_no_false_mismatch", churn_scans)
{
	struct tally tally = { 0 };
	char pidstr[16];
	const char *argv[] = { "ptcompare", "--json", "--kpageflags", pidstr,
			       NULL };
	/*
	 * Bounded by time: the lane's (the debug kernel's
	 * DEBUG_STRESS_SECONDS), else CHURN_SECONDS, CHURN_EXTEND times that
	 * while no scan has met the churn; at least CHURN_MIN_SCANS and at
	 * most STRESS_SCANS scans.
	 */
	unsigned int secs = vm_stress_seconds_given();
	/*
	 * Large folios mapped by PTEs, which arm64 (6.9+) folds into
	 * contiguous groups and unfolds as the churn zaps and mprotects
	 * part of them: the mTHP size of the contiguous group (64K, or 2M
	 * with 16K and 64K pages), 64K where there is none (x86).
	 */
	uint64_t mthp = vm_granule().cont_pte ? vm_granule().cont_pte :
						64 * 1024;
	char saved[16], label[16];
	bool mthp_on = vm_thp_size_set(mthp, "always", saved, sizeof(saved));
	double start, elapsed;
	bool ok = true;
	pid_t target;
	int i;

	if (!mthp_on && errno != ENOENT)
		return fail(t, "enable mTHP of %s: %s",
			    size_label(label, sizeof(label), mthp),
			    strerror(errno));
	printf("# churn: mTHP of %s %s\n", size_label(label, sizeof(label), mthp),
	       mthp_on ? "always" : "absent (before 6.8)");
	if (!secs)
		secs = CHURN_SECONDS;
	target = fork();
	if (target < 0) {
		if (mthp_on)
			vm_thp_size_restore(mthp, saved);
		return fail(t, "fork: %s", strerror(errno));
	}
	if (target == 0)
		churn();
	snprintf(pidstr, sizeof(pidstr), "%d", (int)target);
	usleep(200000);
	start = vm_now_s();
	for (i = 0; ok && i < STRESS_SCANS; i++) {
		struct pc_result r, r2;

		elapsed = vm_now_s() - start;
		if (i >= CHURN_MIN_SCANS && elapsed >= secs &&
		    (tally.pages[CLASS_TRANSIENT] ||
		     elapsed >= (double)secs * CHURN_EXTEND))
			break;
		if (i % PAIRED_EVERY == PAIRED_EVERY - 1) {
			/* a second scanner in a child, at the same time */
			pid_t twin = fork();
			int status;

			if (twin == 0) {
				struct vmtest tt = { 0 };
				struct tally t2 = { 0 };

				_exit(pc_run(&tt, &r2, argv) &&
				      scan_done(&tt, &r2, &t2) ? 0 : 1);
			}
			ok = pc_run(t, &r, argv) && scan_done(t, &r, &tally);
			waitpid(twin, &status, 0);
			ok = ok && ((WIFEXITED(status) && !WEXITSTATUS(status)) ||
				    fail(t, "concurrent scan %d failed", i));
			tally.scans += ok;
		} else {
			ok = pc_run(t, &r, argv) && scan_done(t, &r, &tally);
		}
		pc_free(&r);
	}
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	if (mthp_on && !vm_thp_size_restore(mthp, saved))
		ok = fail(t, "restore mTHP of %s to %s: %s", label, saved,
			  strerror(errno));
	printf("# churn: %u scans:", tally.scans);
	for (i = 0; i < NR_CLASSES; i++)
		printf(" %s=%" PRIu64, page_class_name(i), tally.pages[i]);
	printf("; kpageflags: %" PRIu64 " pages checked, %" PRIu64
	       " contradicted once and agreed when checked again\n",
	       tally.kpf_pages, tally.kpf_cleared);
	/* the scans must have met the churn, or they proved nothing */
	return ok && (tally.pages[CLASS_TRANSIENT] ||
		      fail(t, "no transient page in %u scans of a churning process: no race was caught",
			   tally.scans));
}

/*
 * Pages pushed to zram swap with MADV_PAGEOUT: ptwalk sees swap entries,
 * the oracle sees nothing mapped, ptcompare calls them swapped (same type
 * and offset on both sides); touched again they come back intact.
 */
VMTEST_CASE(stress, "swapped_pages", swapped_pages)
{
	size_t len = 256 * PAGE, i, swapped = 0;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	struct ptwalk_fixture_translate o;
	struct pc_result r = { 0 };
	struct pc_range pr;
	bool ok;

	if (!p)
		return false;
	for (i = 0; i < len; i++)
		p[i] = (char)(i * 7 + i / PAGE);
	if (madvise(p, len, MADV_PAGEOUT))
		return fail(t, "MADV_PAGEOUT: %s", strerror(errno));
	ok = walk(t, getpid(), (uint64_t)(uintptr_t)p,
		  (uint64_t)(uintptr_t)p + len) &&
	     pc_json(t, &r, getpid(), (uint64_t)(uintptr_t)p,
		     (uint64_t)(uintptr_t)p + len);
	for (i = 0; ok && i < len / PAGE; i++) {
		uint64_t addr = (uint64_t)(uintptr_t)p + i * PAGE;
		const struct ptwalk_record *rec =
			ptwalk_find(t->recs, t->nr_recs, addr, PAGE_SHIFT_K);
		bool sw = rec && rec->kind == PTWALK_KIND_SWAP;

		swapped += sw;
		ok = oracle(t, addr, &o) && pc_find(t, &r, addr, &pr) &&
		     (!sw || o.status == PTWALK_FIXTURE_NOT_MAPPED ||
		      fail(t, "page %zu: swap entry, but the oracle maps it", i)) &&
		     (!strcmp(pr.cls, sw ? "swapped" : "match") ||
		      fail(t, "page %zu: ptwalk kind %u, ptcompare %s", i,
			   rec ? rec->kind : 0, pr.cls));
	}
	pc_free(&r);
	ok = ok && (swapped >= len / PAGE / 2 ||
		    fail(t, "MADV_PAGEOUT swapped only %zu of %zu pages (no swap?)",
			 swapped, len / PAGE));
	for (i = 0; ok && i < len; i++)
		if (p[i] != (char)(i * 7 + i / PAGE))
			ok = fail(t, "byte %zu changed across swap", i);
	if (ok)
		printf("# swapped_pages: %zu of %zu pages swapped, all agreed\n",
		       swapped, len / PAGE);
	munmap(p, len);
	return ok;
}

#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE 101
#endif

/*
 * Scans of the migrating target: MIGRATION_SCANS at most, and once
 * MIGRATION_MIN_SCANS are done, none started after MIGRATION_SECONDS.  A
 * fast lane makes all its scans within the time; a slow one (arm64 under
 * TCG: 2 to 3 s a scan) stops after the minimum instead of spending a
 * minute on scans that find what the first ones found.
 */
#define MIGRATION_SCANS		20
#define MIGRATION_MIN_SCANS	8
#define MIGRATION_SECONDS	10

/*
 * Migration under the scan: the target soft-offlines its own pages one by
 * one (MADV_SOFT_OFFLINE migrates a page's contents to a new frame, every
 * time, unlike compaction which may find nothing to do) while ptcompare
 * scans it; no scan may call that a mismatch.  The moved frames are
 * counted, so the case shows it exercised migration.  The old frames stay
 * offlined: at most 4096 pages (16 MiB) of the VM's memory.
 */
VMTEST_CASE(stress, "ptcompare_migration_no_false_mismatch", migration_during_scans)
{
	size_t len = 16 * MIB, i, moved = 0, pages = len / PAGE;
	char pidstr[16];
	const char *argv[] = { "ptcompare", "--json", "--kpageflags", pidstr,
			       NULL };
	struct tally tally = { 0 };
	uint64_t *before = calloc(pages, sizeof(*before)), base;
	double start;
	bool ok = true;
	int ready[2], scan;
	pid_t target;

	if (!before || pipe(ready))
		return fail(t, "setup: %s", strerror(errno));
	target = fork();
	if (target == 0) {
		char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS,
				   MADV_NOHUGEPAGE);
		uint64_t a = (uint64_t)(uintptr_t)p;

		if (!p)
			_exit(1);
		touch_write(p, len);
		if (write(ready[1], &a, sizeof(a)) != sizeof(a))
			_exit(1);
		usleep(100000);	/* the parent records the frames first */
		for (i = 0; i < pages; i++) {
			madvise(p + i * PAGE, PAGE, MADV_SOFT_OFFLINE);
			usleep(1000);
		}
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &base, sizeof(base)) != sizeof(base)) {
		waitpid(target, NULL, 0);
		return fail(t, "target could not map its memory");
	}
	close(ready[0]);
	ok = walk(t, target, base, base + len);
	for (i = 0; ok && i < pages; i++)
		before[i] = ptwalk_pfn_at(ptwalk_find(t->recs, t->nr_recs,
					base + i * PAGE, PAGE_SHIFT_K), base + i * PAGE, PAGE_SHIFT_K);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)target);
	start = vm_now_s();
	for (scan = 0; ok && scan < MIGRATION_SCANS; scan++) {
		struct pc_result r;

		if (scan >= MIGRATION_MIN_SCANS &&
		    vm_now_s() - start >= MIGRATION_SECONDS)
			break;
		ok = pc_run(t, &r, argv) && scan_done(t, &r, &tally);
		pc_free(&r);
	}
	ok = ok && walk(t, target, base, base + len);
	for (i = 0; ok && i < pages; i++)
		moved += before[i] != ptwalk_pfn_at(ptwalk_find(t->recs,
				t->nr_recs, base + i * PAGE, PAGE_SHIFT_K), base + i * PAGE, PAGE_SHIFT_K);
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	printf("# migration: %u scans, %zu of %zu pages moved: transient=%" PRIu64
	       " swapped=%" PRIu64 " mismatch=%" PRIu64 "; kpageflags: %" PRIu64
	       " pages checked, %" PRIu64 " contradicted once and agreed when checked again\n",
	       tally.scans, moved, pages, tally.pages[CLASS_TRANSIENT],
	       tally.pages[CLASS_SWAPPED], tally.pages[CLASS_MISMATCH],
	       tally.kpf_pages, tally.kpf_cleared);
	free(before);
	return ok && (moved || fail(t, "no page moved: nothing tested"));
}
