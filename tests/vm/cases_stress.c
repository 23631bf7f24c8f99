// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare against a process that changes while it is scanned: every
 * difference the target's own changes cause must end up transient, never
 * mismatch, scan after scan, with two scanners at once for part of them.
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

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25	/* 6.1 */
#endif

#define STRESS_SCANS	200
#define PAIRED_FROM	100	/* scans [PAIRED_FROM, PAIRED_TO) run two at once */
#define PAIRED_TO	150

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
	uint64_t pages[7];
	unsigned int scans;
};

static const char *const class_names[7] = {
	"match", "not_present", "pfnmap_hidden", "pfn_zeroed", "swapped",
	"transient", "mismatch",
};

static bool scan_done(struct vmtest *t, struct pc_result *r,
		      struct tally *tally)
{
	struct json_object *doc, *summary = NULL;
	size_t i;

	if (r->status != 0)
		return fail(t, "scan %u exited %d: %s", tally->scans, r->status,
			    r->err[0] ? r->err : r->out);
	doc = json_tokener_parse(r->out);
	if (!doc || !json_object_object_get_ex(doc, "summary", &summary)) {
		if (doc)
			json_object_put(doc);
		return fail(t, "scan %u: no JSON summary", tally->scans);
	}
	for (i = 0; i < 7; i++)
		tally->pages[i] += (uint64_t)json_object_get_int64(
			json_object_object_get(summary, class_names[i]));
	json_object_put(doc);
	tally->scans++;
	return true;
}

static bool churn_scans(struct vmtest *t)
{
	struct tally tally = { 0 };
	char pidstr[16];
	const char *argv[] = { "ptcompare", "--json", pidstr, NULL };
	bool ok = true;
	pid_t target;
	int i;

	target = fork();
	if (target < 0)
		return fail(t, "fork: %s", strerror(errno));
	if (target == 0)
		churn();
	snprintf(pidstr, sizeof(pidstr), "%d", (int)target);
	usleep(200000);
	for (i = 0; ok && i < STRESS_SCANS; i++) {
		struct pc_result r, r2;

		if (i >= PAIRED_FROM && i < PAIRED_TO) {
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
	printf("# churn: %u scans:", tally.scans);
	for (i = 0; i < 7; i++)
		printf(" %s=%" PRIu64, class_names[i], tally.pages[i]);
	printf("\n");
	return ok;
}

const struct vmtest_case stress_cases[] = {
	{ "ptcompare_churn_no_false_mismatch", churn_scans },
};
const size_t nr_stress_cases = sizeof(stress_cases) / sizeof(stress_cases[0]);
