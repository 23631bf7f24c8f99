// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --all.  Processes are scanned one after the other, each by a
 * session of its own (cmd/session.h) whose report goes to a temporary
 * file: the JSON document is copied into the "processes" array, the text
 * report gives its row and its findings.  Memory stays that of one scan
 * plus the suspects, however many processes there are.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cmd/all_run.h"
#include "cmd/connect.h"
#include "cmd/phys_run.h"
#include "cmd/progress_hooks.h"
#include "cmd/scan.h"
#include "cmd/session.h"
#include "cmd/stats.h"
#include "io/spool.h"
#include "model/page.h"
#include "report/json.h"
#include "report/phys_print.h"
#include "report/report_formats.h"

struct all_state {
	const struct cli_options *o;
	struct json_writer json;	/* the document, with --json */
	FILE *findings;			/* text: every process's findings */
	FILE *doc;			/* one process's report */
	struct memtype_suspects suspects;
	pid_t *gone;			/* exited during the scan */
	size_t nr_gone, cap_gone;
	unsigned int scanned, no_mm, bad;
	uint64_t pages, totals[NR_CLASSES];
	uint64_t pagemap_bytes, pagemap_ns, walk_ns, walk_records;
	uint64_t started_ns;
	char kernel[65];		/* uname's release */
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

/* A scanned process's part of the whole: row, findings or document. */
static int add_process(struct all_state *a, struct session *s)
{
	struct report *r = &s->report;
	struct report_target t = { .pid = s->src.pid };
	char comm[64];
	int err;

	proc_comm(s->src.pid, comm, sizeof(comm));
	t.comm = comm;
	t.kernel = a->kernel;
	t.absent_flags = s->absent_flags;
	/* the memory-type check runs once, over every process, at the end */
	for (size_t i = 0; i < s->suspects.n; i++)
		if (suspects_add(&a->suspects, s->suspects.run[i].pfn,
				 s->suspects.run[i].pages, PTWALK_MEMTYPE_WC))
			a->suspects.dropped_pages += s->suspects.run[i].pages;
	a->suspects.dropped_pages += s->suspects.dropped_pages;
	report_add_memtypes(r, NULL, 0);
	a->scanned++;
	a->pages += r->pages;
	for (int c = 0; c < NR_CLASSES; c++)
		a->totals[c] += r->totals[c];
	if (report_has_mismatch(r))
		a->bad++;
	stats_add_jobs(s);
	a->pagemap_bytes += s->src.pagemap_bytes;
	a->pagemap_ns += s->src.pagemap_ns;
	a->walk_ns += s->src.walk_ns;
	a->walk_records += s->src.walk_records;
	if (a->o->json) {
		err = report_finish(r, &t);
		if (err)
			return err;
		if (!jw_raw_value(&a->json))
			return jw_error(&a->json);
		return report_copy_spool(a->doc, stdout);
	}
	report_all_row(stdout, r, s->src.pid, comm);
	if (!r->nr_ranges)
		return 0;
	fprintf(a->findings, "pid %d (%s):\n", (int)s->src.pid, comm);
	return report_copy_findings(r, a->findings);
}

/*
 * One process, as `ptcompare PID` would scan it: EXIT_OK (also when it
 * was gone or had no user memory: counted), or the failure that stops
 * --all (said on stderr).  Kernel threads and zombies are told apart by
 * ptwalk's first query (no mm: EXIT_NO_MM), cheaper than reading
 * /proc/PID/stat first (do_task_stat was 8% of --all's time in the bench
 * VM).
 */
static int scan_one(struct all_state *a, struct session *s, pid_t pid)
{
	int status;

	/* rewound, not emptied: report_copy_spool() stops where this ends */
	if (fflush(a->doc) || fseek(a->doc, 0, SEEK_SET)) {
		snprintf(s->msg, sizeof(s->msg),
			 "cannot reuse the temporary file: %s", strerror(errno));
		return session_fail(s, FAIL_INTERNAL);
	}
	status = session_open_target(s, pid);
	if (status == EXIT_OK)
		status = scan_all(s);
	if (status == EXIT_OK) {
		int err;

		progress_end(s);
		err = add_process(a, s);
		if (err) {
			snprintf(s->msg, sizeof(s->msg),
				 "cannot write the report: %s", strerror(-err));
			status = session_fail(s, FAIL_INTERNAL);
		}
	}
	session_close_target(s);
	if (status == EXIT_EXITED || status == EXIT_NO_PROCESS)
		return note_gone(a, pid) ? FAIL_INTERNAL : EXIT_OK;
	if (status == EXIT_NO_MM) {
		a->no_mm++;
		return EXIT_OK;
	}
	return status;
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

static void print_stats(const struct all_state *a)
{
	fprintf(stderr,
		"ptcompare: stats: processes=%u pages=%" PRIu64
		" pagemap_bytes=%" PRIu64 " ptwalk_records=%" PRIu64
		" peak_rss_kib=%" PRIu64 " pagemap_us=%" PRIu64
		" ptwalk_us=%" PRIu64 " run_us=%" PRIu64 "\n",
		a->scanned, a->pages, a->pagemap_bytes, a->walk_records,
		self_peak_rss_kib(), a->pagemap_ns / 1000, a->walk_ns / 1000,
		(monotonic_ns() - a->started_ns) / 1000);
}

int all_run(const struct cli_options *o, char *msg, size_t size)
{
	struct all_state a = { .o = o, .started_ns = monotonic_ns() };
	struct phys_scan *ps = calloc(1, sizeof(*ps));
	struct phys_view v;
	struct utsname u;
	pid_t *pids = NULL;
	long n = proc_list_pids(&pids);
	int status = EXIT_OK, err;
	struct cli_options so = *o;
	struct session s = { .started_ns = a.started_ns };

	suspects_init(&a.suspects, ALL_SUSPECTS_MAX);
	snprintf(a.kernel, sizeof(a.kernel), "%s", uname(&u) ? "?" : u.release);
	so.pid = 0;
	so.all = false;
	session_init(&s, &so);
	s.quiet_gone = true;
	s.summary_only = !o->json;
	a.doc = spool_open();
	a.findings = o->json ? NULL : spool_open();
	if (n < 0 || !ps || !a.doc || (!o->json && !a.findings)) {
		snprintf(msg, size, n < 0 ? "cannot list /proc: %s" :
			 "cannot set up: %s (set TMPDIR to a writable directory)",
			 strerror(n < 0 ? (int)-n : errno));
		status = FAIL_INTERNAL;
		goto out;
	}
	/*
	 * ptwalk reachable, before anything is printed: one session for
	 * every process, and for the memory-type check
	 */
	s.out = a.doc;
	status = session_open_host(&s);
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
	for (long i = 0; i < n && status == EXIT_OK; i++)
		status = scan_one(&a, &s, pids[i]);
	if (status != EXIT_OK) {
		/* said on stderr; the partial output ends here */
		msg[0] = '\0';
		goto out;
	}
	status = check_memtypes(&a, s.src.walk_fd[COMPARE_SCAN], s.geom.shift,
				ps, &v, msg, size);
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
		print_stats(&a);
	status = a.bad || v.nr_conflicts ? EXIT_MISMATCH : EXIT_OK;
out:
	session_close(&s);
	phys_scan_free(ps);
	free(ps);
	suspects_free(&a.suspects);
	free(a.gone);
	free(pids);
	if (a.doc)
		fclose(a.doc);
	if (a.findings)
		fclose(a.findings);
	return status;
}
