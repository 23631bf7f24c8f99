// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --all.  Workers (--jobs, the online CPUs by default) take the
 * processes in pid order, each worker through one session kept from one
 * process to the next (cmd/session.h: the host part opened once).  A
 * process's report goes to its worker's temporary file; the workers hand
 * their processes in strictly in pid order (a turn under one lock), when
 * the JSON document is copied into the "processes" array, or the text
 * report gives its row and its findings.  So the output is that of one
 * worker, and memory stays that of one scan per worker plus the
 * suspects, however many processes there are.
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
#include "cmd/all_run.h"
#include "cmd/phys_run.h"
#include "cmd/scan.h"
#include "cmd/session.h"
#include "cmd/stats.h"
#include "io/spool.h"
#include "model/page.h"
#include "report/json.h"
#include "report/phys_print.h"
#include "report/progress.h"
#include "report/report_formats.h"

struct all_state {
	const struct cli_options *o;
	/* the workers' turns: the next pid to take, the next to hand in */
	pthread_mutex_t lock;
	pthread_cond_t turn;
	const pid_t *pids;
	size_t nr_pids, next, handed_in;
	bool stop;			/* a process failed: take no more */
	int status;			/* ... its status */
	struct progress progress;	/* processes handed in, on a tty */
	/* the rest changes only in a worker's turn */
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

struct all_worker {
	struct all_state *a;
	struct cli_options o;		/* its session's: one job, no line */
	struct session s;
	FILE *doc;			/* the process's report */
	uint64_t open_ns;		/* opening the process, for --stats */
	pthread_t thread;
};

static int note_gone(struct all_state *a, pid_t pid)
{
	if (a->nr_gone == a->cap_gone) {
		size_t cap = a->cap_gone ? a->cap_gone * 2 : 16;
		pid_t *grown = realloc(a->gone, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		a->gone = grown;
		a->cap_gone = cap;
	}
	a->gone[a->nr_gone++] = pid;
	return 0;
}

/*
 * A scanned process's part of the whole, in its turn: counts, suspects,
 * and its row and findings or its document.  0, or -errno.
 */
static int add_process(struct all_state *a, struct all_worker *w)
{
	struct session *s = &w->s;
	struct report *r = &s->report;

	/* the memory-type check runs once, over every process, at the end */
	for (size_t i = 0; i < s->suspects.n; i++)
		if (suspects_add(&a->suspects, s->suspects.run[i].pfn,
				 s->suspects.run[i].pages, PTWALK_MEMTYPE_WC))
			a->suspects.dropped_pages += s->suspects.run[i].pages;
	a->suspects.dropped_pages += s->suspects.dropped_pages;
	a->scanned++;
	a->pages += r->pages;
	a->progress.pages += r->pages;
	for (int c = 0; c < NR_CLASSES; c++)
		a->totals[c] += r->totals[c];
	if (report_has_mismatch(r))
		a->bad++;
	stats_add_jobs(s);
	a->pagemap_bytes += s->src.pagemap_bytes;
	a->pagemap_ns += s->src.pagemap_ns;
	a->walk_ns += s->src.walk_ns;
	a->walk_records += s->src.walk_records;
	a->maps_ns += s->maps_ns;
	a->open_ns += w->open_ns;
	if (a->o->json) {
		if (!jw_raw_value(&a->json))
			return jw_error(&a->json);
		return report_copy_spool(w->doc, stdout);
	}
	report_all_row(stdout, r, s->src.pid, s->comm);
	if (!r->nr_ranges)
		return 0;
	fprintf(a->findings, "pid %d (%s):\n", (int)s->src.pid, s->comm);
	return report_copy_findings(r, a->findings);
}

/*
 * One process, as `ptcompare PID` would scan it, up to its finished
 * document (JSON), outside the turn: EXIT_OK, the process's end
 * (EXIT_EXITED, EXIT_NO_PROCESS, EXIT_NO_MM), or a failure (said on
 * stderr).  Kernel threads and zombies are told apart by ptwalk's first
 * query (no mm: EXIT_NO_MM), cheaper than reading /proc/PID/stat first
 * (do_task_stat was 8% of --all's time in the bench VM).
 */
static int scan_one(struct all_worker *w, pid_t pid)
{
	struct session *s = &w->s;
	int status, err = 0;
	uint64_t t0;

	/* rewound, not emptied: report_copy_spool() stops where this ends */
	if (fflush(w->doc) || fseek(w->doc, 0, SEEK_SET)) {
		snprintf(s->msg, sizeof(s->msg),
			 "cannot reuse the temporary file: %s", strerror(errno));
		return session_fail(s, FAIL_INTERNAL);
	}
	t0 = monotonic_ns();
	status = session_open_target(s, pid);
	w->open_ns = monotonic_ns() - t0;
	s->maps_ns = 0;
	if (status == EXIT_OK)
		status = scan_all(s);
	if (status != EXIT_OK)
		return status;
	report_add_memtypes(&s->report, NULL, 0);
	if (w->o.json) {
		struct report_target t = {
			.pid = pid, .comm = s->comm, .kernel = w->a->kernel,
			.absent_flags = s->absent_flags,
		};

		err = report_finish(&s->report, &t);
	}
	if (err) {
		return session_report_failed(s, err);
	}
	return EXIT_OK;
}

/* A process scanned with status, in its turn: EXIT_OK or the failure. */
static int hand_in(struct all_state *a, struct all_worker *w, int status)
{
	int err;

	if (status == EXIT_EXITED || status == EXIT_NO_PROCESS)
		return note_gone(a, w->s.src.pid) ? FAIL_INTERNAL : EXIT_OK;
	if (status == EXIT_NO_MM) {
		a->no_mm++;
		return EXIT_OK;
	}
	if (status != EXIT_OK)
		return status;
	err = add_process(a, w);
	if (!err)
		return EXIT_OK;
	fprintf(stderr, "ptcompare: cannot write the output: %s\n",
		strerror(-err));
	return FAIL_INTERNAL;
}

/* In the turn: the progress line, when one is due (a terminal). */
static void progress_handed_in(struct all_state *a)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	uint64_t now;

	a->progress.procs = a->handed_in;
	if (!a->progress.enabled)
		return;
	now = monotonic_ns();
	if (progress_due(&a->progress, now))
		fwrite(line, 1, progress_line(&a->progress, now, line,
					      sizeof(line)), stderr);
}

static void *worker_run(void *arg)
{
	struct all_worker *w = arg;
	struct all_state *a = w->a;

	for (;;) {
		size_t i;
		int status;

		pthread_mutex_lock(&a->lock);
		i = a->stop ? a->nr_pids : a->next++;
		pthread_mutex_unlock(&a->lock);
		if (i >= a->nr_pids)
			break;
		status = scan_one(w, a->pids[i]);
		pthread_mutex_lock(&a->lock);
		while (a->handed_in != i)
			pthread_cond_wait(&a->turn, &a->lock);
		if (!a->stop) {
			status = hand_in(a, w, status);
			if (status != EXIT_OK) {
				a->stop = true;
				a->status = status;
			}
		}
		a->handed_in++;
		progress_handed_in(a);
		pthread_cond_broadcast(&a->turn);
		pthread_mutex_unlock(&a->lock);
		session_close_target(&w->s);
	}
	return NULL;
}

/* As many as a scan's jobs, at most one a process. */
static unsigned int count_workers(const struct cli_options *o, size_t pids)
{
	unsigned int n = session_count_jobs(o);

	if (n > pids)
		n = pids ? (unsigned int)pids : 1;
	return n;
}

/*
 * The workers' sessions, each opened once: EXIT_OK, or the failure (said
 * on stderr).
 */
static int open_workers(struct all_state *a, struct all_worker *w,
			unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		w[i].a = a;
		w[i].o = *a->o;
		w[i].o.pid = 0;
		w[i].o.all = false;
		w[i].o.jobs = 1;
		w[i].o.no_progress = true;
		session_init(&w[i].s, &w[i].o);
		w[i].s.started_ns = a->started_ns;
		w[i].s.quiet_gone = true;
		w[i].s.summary_only = !a->o->json;
	}
	for (unsigned int i = 0; i < n; i++) {
		int status;

		w[i].doc = spool_open();
		if (!w[i].doc) {
			fprintf(stderr, "ptcompare: cannot create a temporary file in %s: %s (set TMPDIR to a writable directory)\n",
				spool_dir(), strerror(errno));
			return FAIL_INTERNAL;
		}
		w[i].s.out = w[i].doc;
		status = session_open_host(&w[i].s);
		if (status != EXIT_OK)
			return status;
	}
	return EXIT_OK;
}

/* Every process, by n workers: EXIT_OK, or the failure (said). */
static int run_workers(struct all_state *a, struct all_worker *w,
		       unsigned int n)
{
	unsigned int started = 0;

	for (; started < n; started++) {
		if (pthread_create(&w[started].thread, NULL, worker_run,
				   &w[started]))
			break;
	}
	if (!started) {
		fprintf(stderr, "ptcompare: cannot start a thread: try --jobs 1\n");
		return FAIL_INTERNAL;
	}
	/* fewer threads than asked for: those that started take it all */
	for (unsigned int i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	return a->stop ? a->status : EXIT_OK;
}

static void close_workers(struct all_worker *w, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		session_close(&w[i].s);
		if (w[i].doc)
			fclose(w[i].doc);
	}
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

static const char *verdict(const struct all_state *a, size_t conflicts)
{
	return a->bad ? "mismatch" : conflicts ? "memtype_conflict" : "ok";
}

static void finish_json(struct all_state *a, const struct phys_view *v)
{
	struct json_writer *j = &a->json;

	jw_end_array(j);
	jw_line_key(j, "exited");
	jw_begin_array(j);
	for (size_t i = 0; i < a->nr_gone; i++)
		jw_i64(j, a->gone[i]);
	jw_end_array(j);
	jw_line_key(j, "conflicts");
	jw_begin_array(j);
	if (v->set)
		phys_print_conflicts_json(j, v);
	jw_end_array(j);
	jw_kv_u64(j, "memtype_unchecked_pages", a->suspects.dropped_pages);
	jw_line_key(j, "summary");
	jw_begin_object(j);
	jw_kv_u64(j, "processes", a->scanned);
	jw_kv_u64(j, "without_memory", a->no_mm);
	jw_kv_u64(j, "exited", a->nr_gone);
	jw_kv_u64(j, "with_mismatch", a->bad);
	jw_kv_u64(j, "pages", a->pages);
	for (int c = 0; c < NR_CLASSES; c++)
		jw_kv_u64(j, page_class_name(c), a->totals[c]);
	jw_end_object(j);
	jw_kv_str(j, "verdict", verdict(a, v->nr_conflicts));
	jw_end_object(j);
}

static int finish_text(struct all_state *a, const struct phys_view *v)
{
	int err;

	fprintf(stdout, "\nfindings%s\n", ftell(a->findings) ? ":" : ": none");
	err = report_copy_spool(a->findings, stdout);
	if (err)
		return err;
	if (v->nr_conflicts) {
		fputc('\n', stdout);
		phys_print_conflicts_text(stdout, v);
	}
	if (a->suspects.dropped_pages)
		fprintf(stdout,
			"\nnote: %" PRIu64 " pages mapped with another memory type than the default were not checked for conflicts; use --phys on their frames\n",
			a->suspects.dropped_pages);
	if (a->nr_gone) {
		fprintf(stdout, "\nexited during the scan (%zu):", a->nr_gone);
		for (size_t i = 0; i < a->nr_gone; i++)
			fprintf(stdout, " %d", (int)a->gone[i]);
		fputc('\n', stdout);
	}
	fprintf(stdout,
		"\nverdict: %s: %u processes scanned (%" PRIu64 " pages), %u with a mismatch, %zu memtype conflict%s; %u without user memory, %zu exited\n",
		a->bad || v->nr_conflicts ? "MISMATCH" : "ok", a->scanned,
		a->pages, a->bad, v->nr_conflicts,
		v->nr_conflicts == 1 ? "" : "s", a->no_mm, a->nr_gone);
	return 0;
}

static void print_stats(const struct all_state *a, unsigned int workers)
{
	fprintf(stderr,
		"ptcompare: stats: processes=%u pages=%" PRIu64
		" pagemap_bytes=%" PRIu64 " ptwalk_records=%" PRIu64
		" peak_rss_kib=%" PRIu64 " pagemap_us=%" PRIu64
		" ptwalk_us=%" PRIu64 " maps_us=%" PRIu64 " open_us=%" PRIu64
		" run_us=%" PRIu64 " jobs=%u\n",
		a->scanned, a->pages, a->pagemap_bytes, a->walk_records,
		self_peak_rss_kib(), a->pagemap_ns / 1000, a->walk_ns / 1000,
		a->maps_ns / 1000, a->open_ns / 1000,
		(monotonic_ns() - a->started_ns) / 1000, workers);
}

int all_run(const struct cli_options *o, char *msg, size_t size)
{
	struct all_state a = { .o = o, .started_ns = monotonic_ns() };
	struct all_worker w[JOBS_MAX];
	struct phys_scan *ps = calloc(1, sizeof(*ps));
	struct phys_view v;
	struct utsname u;
	pid_t *pids = NULL;
	long n = proc_list_pids(&pids);
	unsigned int nr_workers = count_workers(o, n > 0 ? (size_t)n : 0);
	int status = EXIT_OK, err;

	memset(w, 0, sizeof(w));
	pthread_mutex_init(&a.lock, NULL);
	pthread_cond_init(&a.turn, NULL);
	suspects_init(&a.suspects, ALL_SUSPECTS_MAX);
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
	/* ptwalk reachable, before anything is printed */
	status = open_workers(&a, w, nr_workers);
	if (status != EXIT_OK) {
		msg[0] = '\0';		/* said */
		goto out;
	}
	if (o->json) {
		jw_init(&a.json, stdout);
		jw_begin_object(&a.json);
		jw_kv_str(&a.json, "kernel", a.kernel);
		jw_line_key(&a.json, "processes");
		jw_begin_array(&a.json);
	} else {
		report_all_header(stdout);
	}
	progress_init(&a.progress,
		      progress_wanted(isatty(STDERR_FILENO), o->no_progress),
		      monotonic_ns());
	a.progress.total_procs = a.nr_pids ? a.nr_pids : 1;
	status = run_workers(&a, w, nr_workers);
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
	/* the memory-type check, through the first worker's session */
	status = check_memtypes(&a, w[0].s.src.walk_fd[COMPARE_SCAN],
				w[0].s.geom.shift, ps, &v, msg, size);
	if (status != EXIT_OK)
		goto out;
	if (o->json) {
		finish_json(&a, &v);
		err = jw_finish(&a.json);
	} else {
		err = finish_text(&a, &v);
	}
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
	close_workers(w, nr_workers);
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
