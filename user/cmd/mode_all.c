// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --all.  Workers (--jobs, the online CPUs by default) take the
 * processes in pid order, each into a slot: a session kept from one
 * process to the next (cmd/session.h: the host part opened once) and a
 * temporary file for the process's report.  Slots are handed in strictly
 * in pid order, under one lock, by whichever worker finds the next one
 * done: the JSON document is copied into the "processes" array, or the
 * text report gives its row and its findings.  A worker whose process is
 * done before the one before it takes another slot for the next process
 * rather than wait (twice as many slots as workers, opened as they are
 * first needed).  So the output is that of one worker, and memory stays
 * that of two scans per worker plus the suspects, however many processes
 * there are.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "model/array.h"
#include "cmd/mode_all.h"
#include "cmd/mode_phys.h"
#include "cmd/scan.h"
#include "cmd/stats.h"
#include "io/spool.h"
#include "model/page.h"
#include "report/all_print.h"
#include "report/json.h"
#include "report/phys_print.h"
#include "report/progress.h"
#include "report/stats_line.h"
#include "report/report.h"

/* A slot's part in the run (struct all_slot). */
enum slot_state {
	SLOT_UNOPENED,		/* its session not opened yet */
	SLOT_FREE,		/* opened, no process */
	SLOT_SCANNING,		/* a worker scans its process */
	SLOT_DONE,		/* scanned, waiting for its turn */
};

/* One process scanned, or to scan, and what it is scanned with. */
struct all_slot {
	struct cli_options o;		/* its session's: one job, no line */
	struct scan s;
	FILE *doc;			/* the process's report */
	uint64_t open_ns;		/* opening the process, for --stats */
	size_t index;			/* the process: pids[index] */
	int status;			/* its scan's (scan_one()) */
	enum slot_state state;		/* under all_state.lock */
	bool target_open;		/* the last process is still open */
	bool unsaid;			/* opening it failed: s.msg not said */
};

/* Slots per worker: one scanning, one done waiting for its turn. */
#define SLOTS_PER_WORKER	2

struct all_state {
	const struct cli_options *o;
	/* the slots' states and the turns: next pid to take, to hand in */
	pthread_mutex_t lock;
	pthread_cond_t turn;
	struct all_slot *slot;
	unsigned int nr_slots;
	const pid_t *pids;
	size_t nr_pids, next, handed_in;
	bool stop;			/* a process failed: take no more */
	int status;			/* ... its status */
	struct progress progress;	/* processes handed in, on a tty */
	bool output_on_tty;		/* ... where stdout goes too */
	/* the rest changes only in a turn */
	struct json_writer json;	/* the document, with --json */
	FILE *findings;			/* text: every process's findings */
	struct memtype_suspects suspects;
	pid_t *gone;			/* exited during the scan */
	size_t nr_gone, cap_gone;
	unsigned int scanned, no_mm, bad;
	uint64_t pages, totals[NR_CLASSES];
	uint64_t pagemap_bytes, pagemap_ns, walk_ns, walk_records;
	uint64_t maps_ns, open_ns;
	uint64_t started_ns;
	char kernel[65];		/* uname's release */
};

static int note_gone(struct all_state *a, pid_t pid)
{
	pid_t *grown = array_grow(a->gone, &a->cap_gone, a->nr_gone + 1,
				  sizeof(*grown), 16, 0);

	if (!grown)
		return -ENOMEM;
	a->gone = grown;
	a->gone[a->nr_gone++] = pid;
	return 0;
}

/*
 * A scanned process's part of the whole, in its turn: counts, suspects,
 * and its row and findings or its document.  0, or -errno.
 */
static int add_process(struct all_state *a, struct all_slot *w)
{
	struct scan *sc = &w->s;
	struct report *r = &sc->report;

	/* the memory-type check runs once, over every process, at the end */
	for (size_t i = 0; i < sc->suspects.n; i++)
		if (suspects_add(&a->suspects, sc->suspects.run[i].pfn,
				 sc->suspects.run[i].pages, PTWALK_MEMTYPE_WC))
			a->suspects.dropped_pages += sc->suspects.run[i].pages;
	a->suspects.dropped_pages += sc->suspects.dropped_pages;
	a->scanned++;
	a->pages += r->pages;
	a->progress.pages += r->pages;
	for (int c = 0; c < NR_CLASSES; c++)
		a->totals[c] += r->totals[c];
	if (report_has_mismatch(r))
		a->bad++;
	stats_add_jobs(sc);
	a->pagemap_bytes += sc->ses.src.pagemap_bytes;
	a->pagemap_ns += sc->ses.src.pagemap_ns;
	a->walk_ns += sc->ses.src.walk_ns;
	a->walk_records += sc->ses.src.walk_records;
	a->maps_ns += sc->maps_ns;
	a->open_ns += w->open_ns;
	return all_print_process(r->fmt, &a->json, stdout, w->doc, r,
				 sc->ses.src.pid, sc->ses.comm, a->findings);
}

/*
 * One process, as `ptcompare PID` would scan it, up to its finished
 * document (JSON), outside the turn: EXIT_OK, the process's end
 * (EXIT_EXITED, EXIT_NO_PROCESS, EXIT_NO_MM), or a failure (said on
 * stderr).  Kernel threads and zombies are told apart by ptwalk's first
 * query (no mm: EXIT_NO_MM), cheaper than reading /proc/PID/stat first
 * (do_task_stat() formats the whole stat line for every process).
 */
static int scan_one(struct all_state *a, struct all_slot *w, pid_t pid)
{
	struct scan *sc = &w->s;
	int status, err = 0;
	uint64_t t0;

	/* rewound, not emptied: report_copy_spool() stops where this ends */
	if (fflush(w->doc) || fseek(w->doc, 0, SEEK_SET)) {
		snprintf(sc->ses.msg, sizeof(sc->ses.msg),
			 "cannot reuse the temporary file: %s", strerror(errno));
		return session_fail(&sc->ses, FAIL_INTERNAL);
	}
	t0 = monotonic_ns();
	status = scan_open_target(sc, pid);
	w->open_ns = monotonic_ns() - t0;
	sc->maps_ns = 0;
	if (status == EXIT_OK)
		status = scan_all(sc);
	if (status != EXIT_OK)
		return status;
	report_add_memtypes(&sc->report, NULL, 0);
	if (w->o.json) {
		struct report_target t = {
			.pid = pid, .comm = sc->ses.comm, .kernel = a->kernel,
			.absent_flags = sc->ses.absent_flags,
		};

		err = report_finish(&sc->report, &t);
	}
	if (err) {
		return session_report_failed(&sc->ses, err);
	}
	return EXIT_OK;
}

/* A process scanned with status, in its turn: EXIT_OK or the failure. */
static int hand_in(struct all_state *a, struct all_slot *w, int status)
{
	int err;

	if (status == EXIT_EXITED || status == EXIT_NO_PROCESS)
		return note_gone(a, w->s.ses.src.pid) ? FAIL_INTERNAL : EXIT_OK;
	if (status == EXIT_NO_MM) {
		a->no_mm++;
		return EXIT_OK;
	}
	if (status != EXIT_OK) {
		if (w->unsaid)
			fprintf(stderr, "ptcompare: %s\n", w->s.ses.msg);
		w->unsaid = false;
		return status;
	}
	err = add_process(a, w);
	if (!err)
		return EXIT_OK;
	fprintf(stderr, "ptcompare: cannot write the output: %s\n",
		strerror(-err));
	return FAIL_INTERNAL;
}

/*
 * In the turn, before a process's output: the progress line wiped when
 * that output goes to the same terminal, where it would follow the line's
 * text; whether a line was there.
 */
static bool progress_wipe(struct all_state *a)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	size_t n;

	if (!a->output_on_tty)
		return false;
	n = progress_clear(&a->progress, line, sizeof(line));
	fwrite(line, 1, n, stderr);
	return n > 0;
}

/*
 * In the turn: the progress line, when one is due (a terminal), or again
 * at once after it was wiped for the output (which is written first).
 */
static void progress_handed_in(struct all_state *a, bool wiped)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	uint64_t now;

	a->progress.procs = a->handed_in;
	if (!a->progress.enabled)
		return;
	now = monotonic_ns();
	if (wiped)
		fflush(stdout);
	if (wiped || progress_due(&a->progress, now))
		fwrite(line, 1, progress_line(&a->progress, now, line,
					      sizeof(line)), stderr);
}

/* In the lock: the slot whose process is the next to hand in, if done. */
static struct all_slot *slot_in_turn(struct all_state *a)
{
	for (unsigned int k = 0; k < a->nr_slots; k++)
		if (a->slot[k].state == SLOT_DONE &&
		    a->slot[k].index == a->handed_in)
			return &a->slot[k];
	return NULL;
}

/*
 * In the lock: every done slot whose turn it is handed in, in pid order,
 * and freed for another process (its target closed by its next user).
 */
static void hand_in_ready(struct all_state *a)
{
	struct all_slot *sl;

	while ((sl = slot_in_turn(a)) != NULL) {
		bool wiped = progress_wipe(a);

		if (!a->stop) {
			int status = hand_in(a, sl, sl->status);

			if (status != EXIT_OK) {
				a->stop = true;
				a->status = status;
			}
		}
		sl->state = SLOT_FREE;
		sl->target_open = true;
		a->handed_in++;
		progress_handed_in(a, wiped);
	}
}

/* In the lock: a free slot, else one to open, else NULL. */
static struct all_slot *take_slot(struct all_state *a)
{
	struct all_slot *unopened = NULL;

	for (unsigned int k = 0; k < a->nr_slots; k++) {
		if (a->slot[k].state == SLOT_FREE)
			return &a->slot[k];
		if (a->slot[k].state == SLOT_UNOPENED && !unopened)
			unopened = &a->slot[k];
	}
	return unopened;
}

static int open_slot(struct all_state *a, struct all_slot *sl);

/* One slot's next process, out of the lock: its scan's status. */
static int scan_slot(struct all_state *a, struct all_slot *sl, bool unopened)
{
	if (unopened) {
		int status = open_slot(a, sl);

		if (status != EXIT_OK)
			return status;
	}
	if (sl->target_open) {
		scan_close_target(&sl->s);
		sl->target_open = false;
	}
	return scan_one(a, sl, a->pids[sl->index]);
}

static void *worker_run(void *arg)
{
	struct all_state *a = arg;

	pthread_mutex_lock(&a->lock);
	while (!a->stop && a->next < a->nr_pids) {
		struct all_slot *sl = take_slot(a);
		bool unopened;

		if (!sl) {
			/* every slot scanning or waiting for its turn */
			pthread_cond_wait(&a->turn, &a->lock);
			continue;
		}
		unopened = sl->state == SLOT_UNOPENED;
		sl->state = SLOT_SCANNING;
		sl->index = a->next++;
		pthread_mutex_unlock(&a->lock);
		sl->status = scan_slot(a, sl, unopened);
		pthread_mutex_lock(&a->lock);
		sl->state = SLOT_DONE;
		hand_in_ready(a);
		pthread_cond_broadcast(&a->turn);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/*
 * A slot's session, opened: EXIT_OK, or the failure, left in s.msg to be
 * said once (unsaid): two workers may fail to open one at the same time.
 */
static int open_slot(struct all_state *a, struct all_slot *sl)
{
	int status;

	sl->o = *a->o;
	sl->o.pid = 0;
	sl->o.mode = MODE_SCAN;
	sl->o.jobs = 1;
	sl->o.no_progress = true;
	scan_init(&sl->s, &sl->o);
	sl->s.started_ns = a->started_ns;
	sl->s.ses.quiet_gone = true;
	sl->s.summary_only = !a->o->json;
	sl->doc = spool_open();
	if (!sl->doc) {
		snprintf(sl->s.ses.msg, sizeof(sl->s.ses.msg),
			 "cannot create a temporary file in %s: %s (set TMPDIR to a writable directory)",
			 spool_dir(), strerror(errno));
		sl->unsaid = true;
		return FAIL_INTERNAL;
	}
	sl->s.out = sl->doc;
	sl->s.ses.quiet_fail = true;
	status = scan_open_host(&sl->s);
	sl->s.ses.quiet_fail = false;
	sl->unsaid = status != EXIT_OK;
	return status;
}

/*
 * The slots, SLOTS_PER_WORKER per worker, the first opened now, before
 * anything is printed (ptwalk reachable), the others by the workers when
 * first needed (opening two at once in two threads took longer than one
 * after the other): EXIT_OK, or the failure (said on stderr).
 */
static int open_slots(struct all_state *a, unsigned int workers)
{
	int status;

	a->nr_slots = workers > 1 ? workers * SLOTS_PER_WORKER : 1;
	a->slot = calloc(a->nr_slots, sizeof(*a->slot));
	if (!a->slot) {
		a->nr_slots = 0;
		fprintf(stderr, "ptcompare: out of memory\n");
		return FAIL_INTERNAL;
	}
	status = open_slot(a, &a->slot[0]);
	if (status != EXIT_OK) {
		fprintf(stderr, "ptcompare: %s\n", a->slot[0].s.ses.msg);
		return status;
	}
	a->slot[0].state = SLOT_FREE;
	return EXIT_OK;
}

/*
 * Every process, by n workers, the main thread the last of them (fewer
 * threads than asked for: those that started take it all): EXIT_OK, or
 * the failure (said).
 */
static int run_workers(struct all_state *a, unsigned int n)
{
	pthread_t thread[JOBS_MAX];
	unsigned int started = 0;

	while (started + 1 < n &&
	       !pthread_create(&thread[started], NULL, worker_run, a))
		started++;
	worker_run(a);
	for (unsigned int i = 0; i < started; i++)
		pthread_join(thread[i], NULL);
	return a->stop ? a->status : EXIT_OK;
}

/* Every slot's session that was opened, closed. */
static void close_slots(struct all_state *a)
{
	for (unsigned int k = 0; k < a->nr_slots; k++) {
		if (a->slot[k].s.ses.opts)
			scan_close(&a->slot[k].s);
		if (a->slot[k].doc)
			fclose(a->slot[k].doc);
	}
	free(a->slot);
}

/*
 * The memory-type check over every process: EXIT_OK with ps filled (v
 * too), or a failure (said).
 */
static int check_memtypes(struct all_state *a, int fd, unsigned int shift,
			  struct phys_scan *ps, struct phys_view *v, char *msg,
			  size_t size)
{
	pid_t pid = 0;
	int err;

	memset(v, 0, sizeof(*v));
	if (!a->suspects.n)
		return EXIT_OK;
	suspects_finish(&a->suspects);
	phys_scan_init(ps, fd, a->suspects.run, a->suspects.n, shift);
	err = phys_scan_all(ps, &pid);
	if (!err)
		err = phys_scan_view(ps, v);
	if (err) {
		snprintf(msg, size, "the memory-type check failed: %s",
			 strerror(-err));
		return FAIL_INTERNAL;
	}
	return EXIT_OK;
}

/* What the document's end says of every process. */
static struct all_totals totals(const struct all_state *a)
{
	struct all_totals t = {
		.scanned = a->scanned, .no_mm = a->no_mm, .bad = a->bad,
		.pages = a->pages, .gone = a->gone, .nr_gone = a->nr_gone,
		.memtype_unchecked = a->suspects.dropped_pages,
	};

	memcpy(t.totals, a->totals, sizeof(t.totals));
	return t;
}

static void print_stats(const struct all_state *a, unsigned int workers)
{
	struct all_stats st = {
		.processes = a->scanned, .pages = a->pages,
		.pagemap_bytes = a->pagemap_bytes,
		.walk_records = a->walk_records,
		.peak_rss_kib = self_peak_rss_kib(),
		.pagemap_ns = a->pagemap_ns, .walk_ns = a->walk_ns,
		.maps_ns = a->maps_ns, .open_ns = a->open_ns,
		.run_ns = monotonic_ns() - a->started_ns, .workers = workers,
	};

	all_stats_print(stderr, &st);
}

int mode_all(const struct cli_options *o, char *msg, size_t size)
{
	struct all_state a = { .o = o, .started_ns = monotonic_ns() };
	unsigned int nr_workers = session_count_jobs(o);
	struct phys_scan *ps = calloc(1, sizeof(*ps));
	struct phys_view v;
	struct all_totals t;
	struct utsname u;
	pid_t *pids = NULL;
	int status = EXIT_OK, err;
	long n;

	pthread_mutex_init(&a.lock, NULL);
	pthread_cond_init(&a.turn, NULL);
	suspects_init(&a.suspects, ALL_SUSPECTS_MAX);
	/* ptwalk reachable, before anything is printed */
	status = open_slots(&a, nr_workers);
	if (status != EXIT_OK) {
		msg[0] = '\0';		/* said */
		goto out;
	}
	n = proc_list_pids(&pids);
	snprintf(a.kernel, sizeof(a.kernel), "%s", uname(&u) ? "?" : u.release);
	a.findings = o->json ? NULL : spool_open();
	if (n < 0 || !ps || (!o->json && !a.findings)) {
		snprintf(msg, size, n < 0 ? "cannot list /proc: %s" :
			 "cannot set up: %s (set TMPDIR to a writable directory)",
			 strerror(n < 0 ? (int)-n : errno));
		status = FAIL_INTERNAL;
		goto out;
	}
	a.pids = pids;
	a.nr_pids = (size_t)n;
	/* at most one worker a process */
	if (nr_workers > a.nr_pids)
		nr_workers = a.nr_pids ? (unsigned int)a.nr_pids : 1;
	all_print_begin(o->json ? REPORT_JSON : REPORT_TEXT, &a.json, stdout,
			a.kernel);
	progress_init(&a.progress,
		      progress_wanted(isatty(STDERR_FILENO), o->no_progress),
		      monotonic_ns());
	a.output_on_tty = a.progress.enabled && isatty(STDOUT_FILENO);
	a.progress.total_procs = a.nr_pids ? a.nr_pids : 1;
	status = run_workers(&a, nr_workers);
	{
		char line[PROGRESS_MAX_WIDTH + 8];

		fwrite(line, 1, progress_clear(&a.progress, line, sizeof(line)),
		       stderr);
	}
	if (status != EXIT_OK) {
		/* said on stderr; the partial output ends here */
		msg[0] = '\0';
		goto out;
	}
	/* the memory-type check, through the first slot's session */
	status = check_memtypes(&a, a.slot[0].s.ses.src.walk_fd[COMPARE_SCAN],
				a.slot[0].s.ses.geom.shift, ps, &v, msg, size);
	if (status != EXIT_OK)
		goto out;
	t = totals(&a);
	err = all_print_end(o->json ? REPORT_JSON : REPORT_TEXT, &a.json,
			    stdout, a.findings, &t, &v);
	if (err || fflush(stdout)) {
		snprintf(msg, size, "cannot write the output: %s",
			 strerror(err ? -err : errno));
		status = FAIL_INTERNAL;
		goto out;
	}
	if (o->stats)
		print_stats(&a, nr_workers);
	status = a.bad || v.nr_conflicts ? EXIT_MISMATCH : EXIT_OK;
out:
	close_slots(&a);
	phys_scan_free(ps);
	free(ps);
	suspects_free(&a.suspects);
	free(a.gone);
	free(pids);
	if (a.findings)
		fclose(a.findings);
	pthread_cond_destroy(&a.turn);
	pthread_mutex_destroy(&a.lock);
	return status;
}
