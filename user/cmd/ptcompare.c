// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID: cross-checks /proc/PID/pagemap against ptwalk.ko, page by
 * page, and explains every difference.  This file is the I/O shell: the
 * parsing, comparison and reporting it wires together live in the library
 * and are unit tested on their own.
 *
 * A scan is one pipeline, VMA by VMA (scan_vma()), the VMAs read from
 * maps up to PLAN_VMAS at a time and planned together (compare_plan():
 * pagemap read across their boundaries, one ptwalk query over them):
 *
 *   compare_range()        pagemap against ptwalk, page by page, merged
 *                          into ranges (engine/compare.c)
 *   -> witness_range()     held in a bounded batch; witness_flush() names
 *                          the frames and checks them against kpageflags
 *                          (engine/witness.c)
 *   -> range_done()        each range in address order, with its note:
 *        report_range()      the findings and physical names (report/)
 *        dma_add_range()     the DMA view of --range (engine/dma.c)
 *        progress_at()       the progress line on a terminal
 *   vma_done()             the VMA's counts, once the witnesses passed
 *                          its ranges on (witness_mark()): report_vma(),
 *                          dma_add_vma(), the progress line
 *
 * and at the end (finish()) dma_finish(), then report_finish() writes the
 * document.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/jobs_run.h"
#include "cmd/vtop_run.h"
#include "engine/compare.h"
#include "engine/jobs.h"
#include "engine/witness.h"
#include "io/pci_sysfs.h"
#include "io/ptwalk_client.h"
#include "io/source.h"
#include "io/spool.h"
#include "io/witness_source.h"
#include "model/page.h"
#include "parse/cli.h"
#include "parse/maps.h"
#include "report/diagnose.h"
#include "report/progress.h"
#include "report/report.h"
#include "report/report_dma.h"

#include "module/ptwalk_version.h"
#define PTCOMPARE_VERSION PTWALK_VERSION
/*
 * Pages per pagemap pread: 512 KiB of entries, 256 MiB of address space.
 * make bench: pagemap's own cost per call made 128 KiB preads take 17-60%
 * longer in all than 512 KiB ones for the same bytes.
 */
#define BATCH_PAGES 65536
/*
 * VMAs read ahead from maps and compared under one plan: 10,000 small
 * VMAs cost 20 ptwalk queries, not 10,000; their lines are kept meanwhile
 * (the report names the VMA), so memory stays bounded.
 */
#define PLAN_VMAS JOBS_PLAN_MAX

/* The VMAs of one plan: maps lines, parsed, and their pieces. */
struct vma_queue {
	char *line[PLAN_VMAS];
	size_t size[PLAN_VMAS];
	struct maps_entry vma[PLAN_VMAS];
	struct compare_piece piece[PLAN_VMAS];
	/* what vma_done() gets once the witnesses passed the VMA's ranges on */
	struct vma_result {
		uint64_t start, end;
		struct compare_summary sum;
		bool examined;
	} done[PLAN_VMAS];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptcompare [--json] [--stats] [--no-progress] [--kpageflags]\n"
		"                 [--jobs N] [--range START-END] [--debugfs DIR]\n"
		"                 [--device DEV] PID\n"
		"       ptcompare [--json] [--debugfs DIR] [--device DEV] PID ADDR\n"
		"                 (or --vtop ADDR PID)\n"
		"Compares, page by page, the frames /proc/PID/pagemap reports with those\n"
		"ptwalk.ko finds in the process's page tables, and explains every difference.\n"
		"With ADDR, translates that one address level by level instead (like crash's vtop).\n"
		"  --json             one JSON document instead of the report\n"
		"  --range START-END  only this range (hex, END exclusive, page aligned),\n"
		"                     with its DMA view: contiguous runs, 4 GiB, holes, locking\n"
		"  --vtop ADDR        translate ADDR (hex, any alignment): entries per level,\n"
		"                     frame, physical address, VMA, pagemap's entry, verdict\n"
		"  --debugfs DIR      debugfs mount point (default %s)\n"
		"  --device DEV       ptwalk's device (default %s), used when debugfs\n"
		"                     cannot be (kernel lockdown); --debugfs or --device\n"
		"                     alone: only that one is tried\n"
		"  --stats            print what was read and the peak memory on stderr\n"
		"  --kpageflags       cross-check present frames with /proc/kpageflags too\n"
		"                     (a third witness; it reads 8 bytes per frame)\n"
		"  --jobs N           scan with N threads at once (1 to %d; default: the\n"
		"                     online CPUs, at most %d); the report is the same\n"
		"  --no-progress      no progress line on stderr (shown on a terminal\n"
		"                     when a scan takes more than a second)\n"
		"  -h, --help, --version\n"
		"Exit status: 0 every page explained, 1 a mismatch remains, 2 usage,\n"
		"3 ptwalk not loaded, 4 lockdown, 5 privilege, 6 no such process,\n"
		"7 exited during the scan, 8 no user memory, 9 internal or I/O error.\n",
		PTWALK_DEFAULT_DEBUGFS, PTWALK_DEFAULT_DEVICE, JOBS_MAX, JOBS_MAX);
}

/* Everything one run holds; released by scan_close() whatever happened. */
struct scan {
	const struct cli_options *opts;
	struct endpoint ep;		/* ptwalk's way in: debugfs or device */
	struct proc_source src;
	struct compare_io io;
	struct compare_io proc_io;	/* the real sources io wraps */
	struct compare_engine *engine;
	/* --jobs N > 1: the jobs, each with sources of its own */
	unsigned int nr_jobs;
	struct jobs_run *jobs;
	struct proc_source job_src[JOBS_MAX];
	FILE *maps;
	struct vma_queue *queue;
	struct report report;
	FILE *spool[2];
	struct dma_view dma;		/* the DMA view, with --range */
	struct report_dma dma_report;	/* ... and its section of the report */
	FILE *dma_spool[2];
	struct progress progress;
	uint64_t pages_done;		/* pages of the VMAs done */
	uint64_t vma_start;		/* examined part of the VMA in progress */
	uint64_t vma_pos;		/* ... scanned up to here */
	uint64_t vma_end;		/* ... and its end */
	/* the witnesses beside pagemap: /proc/iomem, /proc/kpageflags */
	struct witness_source wsrc;
	struct witness_io wio;
	struct witness_totals wtotals;
	struct witness *witness;
	FILE *wspool;
	char msg[512];		/* the one-line error, when one occurred */
	uint64_t started_ns;	/* when main() began, for --stats */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Redraws the progress line if one is due (stderr is unbuffered). */
static void progress_tick(struct scan *s)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	uint64_t now;
	size_t n;

	if (!s->progress.enabled)
		return;
	now = now_ns();
	if (!progress_due(&s->progress, now))
		return;
	n = progress_line(&s->progress, now, line, sizeof(line));
	fwrite(line, 1, n, stderr);
}

/* Wipes the progress line: whatever follows starts on a clean line. */
static void progress_end(struct scan *s)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	size_t n = progress_clear(&s->progress, line, sizeof(line));

	fwrite(line, 1, n, stderr);
}

/* Says s->msg on one line; the kind of failure is the exit status. */
static int fail(struct scan *s, enum failure f)
{
	progress_end(s);
	fprintf(stderr, "ptcompare: %s\n", s->msg);
	return (int)f;
}

static int open_walk(struct scan *s)
{
	for (int i = 0; i < NR_COMPARE_STREAMS; i++) {
		enum failure why;
		int fd = i ? connect_again(&s->ep, &why, s->msg,
					   sizeof(s->msg)) :
			     connect_ptwalk(s->opts, &s->ep, &why, s->msg,
					    sizeof(s->msg));

		if (fd < 0)
			return fail(s, why);
		s->src.walk_fd[i] = fd;
	}
	/*
	 * Only ptwalk tells a kernel thread or a zombie (no mm: ENXIO) from
	 * a process with nothing mapped; ask before reading /proc.
	 */
	int err = ptwalk_query(s->src.walk_fd[COMPARE_SCAN], s->src.pid, 0,
			       PAGE_SIZE_4K);

	if (err)
		return fail(s, diagnose_query(-err, s->src.pid, s->msg,
					      sizeof(s->msg)));
	return EXIT_OK;
}

static int open_proc(struct scan *s)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)s->src.pid);
	s->maps = fopen(path, "re");
	if (!s->maps)
		return fail(s, diagnose_proc_open(errno, s->src.pid, "maps",
						  s->msg, sizeof(s->msg)));
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)s->src.pid);
	s->src.pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->src.pagemap_fd < 0)
		return fail(s, diagnose_proc_open(errno, s->src.pid, "pagemap",
						  s->msg, sizeof(s->msg)));
	return EXIT_OK;
}

static int scan_failed(struct scan *s, int err)
{
	return fail(s, diagnose_scan(err, s->src.pid, proc_alive(s->src.pid),
				     s->msg, sizeof(s->msg)));
}

/* --jobs: how many (the online CPUs unless given, at most JOBS_MAX). */
static void count_jobs(struct scan *s)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	s->nr_jobs = s->opts->jobs ? s->opts->jobs :
		     cpus < 1 ? 1 : cpus > JOBS_MAX ? JOBS_MAX : (unsigned int)cpus;
}

/*
 * The jobs, each with its pagemap fd and ptwalk sessions, started by the
 * first plan that needs them (scan_queue()): a process that never has a
 * batch to split does without their threads, engines and sessions (in
 * the bench VM, a bare process: 35-45 ms of run -> 26-28, as --jobs 1).
 */
static int start_jobs(struct scan *s)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)s->src.pid);
	for (unsigned int i = 0; i < s->nr_jobs; i++) {
		struct proc_source *src = &s->job_src[i];

		src->pid = s->src.pid;
		src->pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
		/* pagemap was opened before: only an exit makes this fail */
		if (src->pagemap_fd < 0)
			return scan_failed(s, errno);
		for (int k = 0; k < NR_COMPARE_STREAMS; k++) {
			enum failure why;

			src->walk_fd[k] = connect_again(&s->ep, &why, s->msg,
							sizeof(s->msg));
			if (src->walk_fd[k] < 0)
				return fail(s, why);
		}
	}
	s->jobs = jobs_start(s->nr_jobs, BATCH_PAGES, s->job_src);
	if (!s->jobs) {
		snprintf(s->msg, sizeof(s->msg),
			 "cannot start %u jobs (out of memory or threads): try --jobs 1",
			 s->nr_jobs);
		return fail(s, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

static void range_done(const struct verdict_range *vr,
		       const struct witness_note *note, void *arg);
static void vma_marked(void *arg, uint64_t token);

/* Temporary files for n parts of the report: EXIT_OK, or the failure. */
static int open_spools(struct scan *s, FILE **f, int n)
{
	for (int i = 0; i < n; i++) {
		f[i] = spool_open();
		if (!f[i]) {
			snprintf(s->msg, sizeof(s->msg),
				 "cannot create a temporary file in %s for the report: %s (set TMPDIR to a writable directory)",
				 spool_dir(), strerror(errno));
			return fail(s, FAIL_INTERNAL);
		}
	}
	return EXIT_OK;
}

static int open_output(struct scan *s)
{
	/* the text report spools the witnesses' section too */
	int status = open_spools(s, s->spool, 2);

	if (status == EXIT_OK && !s->opts->json)
		status = open_spools(s, &s->wspool, 1);
	if (status != EXIT_OK)
		return status;
	report_init(&s->report, s->opts->json ? REPORT_JSON : REPORT_TEXT,
		    stdout, s->spool[0], s->spool[1]);
	if (s->opts->has_range) {
		status = open_spools(s, s->dma_spool, 2);
		if (status != EXIT_OK)
			return status;
		report_dma_init(&s->dma_report, &s->report, &s->dma,
				s->dma_spool[0], s->dma_spool[1]);
		struct dma_sink sink = report_dma_sink(&s->dma_report);

		dma_init(&s->dma, s->opts->start, s->opts->end, &sink);
	}
	report_add_witnesses(&s->report, &s->wtotals, s->wspool);
	s->engine = compare_new(&s->io, BATCH_PAGES);
	s->witness = witness_new(&s->wio, &s->wtotals, range_done, s);
	if (s->witness)
		witness_set_mark(s->witness, vma_marked);
	s->queue = calloc(1, sizeof(*s->queue));
	if (!s->engine || !s->witness || !s->queue) {
		snprintf(s->msg, sizeof(s->msg), "out of memory");
		return fail(s, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

static int open_witness(struct scan *s)
{
	enum failure why;
	int fd = connect_again(&s->ep, &why, s->msg, sizeof(s->msg));

	if (fd < 0)
		return fail(s, why);
	witness_source_open(&s->wsrc, fd, s->src.pid, s->opts->kpageflags,
			    &s->wtotals);
	witness_source_io(&s->wsrc, &s->wio);
	return EXIT_OK;
}

/* The part of vma inside the requested range: false if none. */
static bool clip(const struct cli_options *o, const struct maps_entry *vma,
		 uint64_t *start, uint64_t *end)
{
	*start = vma->start;
	*end = vma->end;
	if (o->has_range) {
		*start = *start > o->start ? *start : o->start;
		*end = *end < o->end ? *end : o->end;
	}
	return *start < *end;
}

/* The scan of the VMA in progress has reached addr. */
static void progress_at(struct scan *s, uint64_t addr)
{
	/* pagemap's window may read ahead into the next VMAs */
	if (addr > s->vma_end)
		addr = s->vma_end;
	if (addr > s->vma_pos)
		s->vma_pos = addr;
	s->progress.pages = s->pages_done +
			    ((s->vma_pos - s->vma_start) >> PAGE_SHIFT_4K);
	progress_tick(s);
}

/* The end of the pipeline: one range of the VMA in progress. */
static void range_done(const struct verdict_range *vr,
		       const struct witness_note *note, void *arg)
{
	struct scan *s = arg;

	report_range(&s->report, vr, note);
	if (s->opts->has_range)
		dma_add_range(&s->dma, vr);
	progress_at(s, vr->start + vr->pages * PAGE_SIZE_4K);
}

/*
 * The pagemap reader, seen by the progress line: reads go forward a batch
 * (64 MiB of address space) at a time, even where no range ends for long.
 */
static int read_pagemap_progress(void *ctx, uint64_t addr, size_t n,
				 uint64_t *out)
{
	struct scan *s = ctx;

	progress_at(s, addr);
	return s->proc_io.read_pagemap(s->proc_io.ctx, addr, n, out);
}

static int walk_query_progress(void *ctx, enum compare_stream st,
			       uint64_t start, uint64_t end)
{
	struct scan *s = ctx;

	return s->proc_io.walk_query(s->proc_io.ctx, st, start, end);
}

static ssize_t walk_read_progress(void *ctx, enum compare_stream st,
				  struct ptwalk_record *recs, size_t max)
{
	struct scan *s = ctx;

	return s->proc_io.walk_read(s->proc_io.ctx, st, recs, max);
}

static ssize_t walk_read_ext_progress(void *ctx, enum compare_stream st,
				      struct ptwalk_record_ext *recs,
				      size_t max, bool *info)
{
	struct scan *s = ctx;

	return s->proc_io.walk_read_ext(s->proc_io.ctx, st, recs, max, info);
}

/* A VMA is done: examined, or not (see scan_vma()). */
static void vma_done(struct scan *s, const struct maps_entry *vma,
		     uint64_t start, uint64_t end,
		     const struct compare_summary *sum, bool examined)
{
	report_vma(&s->report, vma, start, end, sum, examined);
	if (s->opts->has_range && examined)
		dma_add_vma(&s->dma, (end - start) >> PAGE_SHIFT_4K,
			    sum->vm_flags, sum->have_vm_flags);
	s->pages_done += (end - start) >> PAGE_SHIFT_4K;
	s->progress.pages = s->pages_done;
	s->progress.vmas++;
	progress_tick(s);
}

/* The witnesses passed on every range of queued VMA token: it is done. */
static void vma_marked(void *arg, uint64_t token)
{
	struct scan *s = arg;
	const struct vma_result *d = &s->queue->done[token];

	vma_done(s, &s->queue->vma[token], d->start, d->end, &d->sum,
		 d->examined);
}

/*
 * Queued VMA i is compared: it is done once the witnesses have passed its
 * ranges on, which they do a batch at a time across VMAs (one batch of
 * kpageflags preads for many small VMAs, not one per VMA).
 */
static void vma_compared(struct scan *s, int i, uint64_t start, uint64_t end,
			 const struct compare_summary *sum, bool examined)
{
	s->queue->done[i] = (struct vma_result){
		.start = start, .end = end, .sum = *sum, .examined = examined,
	};
	witness_mark(s->witness, (uint64_t)i);
}

/*
 * What the progress line counts up to: the pages and VMAs maps lists now
 * (inside the range).  Read apart from the scan; if the process changes
 * meanwhile, the line shows counts without a total once they pass it.
 */
static void progress_total(struct scan *s)
{
	struct maps_entry vma;
	uint64_t start, end;
	char path[64], *line = NULL;
	size_t size = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)s->src.pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &size, f) > 0) {
		if (!maps_parse_line(line, &vma) ||
		    !clip(s->opts, &vma, &start, &end))
			continue;
		s->progress.total_pages += (end - start) >> PAGE_SHIFT_4K;
		s->progress.total_vmas++;
	}
	free(line);
	fclose(f);
}

/* Puts the progress hooks between the engine and the real sources. */
static void watch_io(struct scan *s)
{
	s->proc_io = s->io;
	s->io = (struct compare_io){
		.read_pagemap = read_pagemap_progress,
		.walk_query = walk_query_progress,
		.walk_read = walk_read_progress,
		.walk_read_ext = s->proc_io.walk_read_ext ?
				 walk_read_ext_progress : NULL,
		.ctx = s,
	};
}

/*
 * Starts queued VMA i: false if nothing of it is compared (outside the
 * range, or [vsyscall], which lives in kernel space with no page table of
 * the task, and is reported as not examined), else its part inside the
 * range in start and end.
 */
static bool vma_begin(struct scan *s, int i, uint64_t *start, uint64_t *end)
{
	const struct maps_entry *vma = &s->queue->vma[i];
	struct compare_summary none = { 0 };

	if (!clip(s->opts, vma, start, end))
		return false;
	if (!strcmp(vma->name, "[vsyscall]")) {
		vma_compared(s, i, *start, *end, &none, false);
		return false;
	}
	s->vma_start = s->vma_pos = *start;
	s->vma_end = *end;
	return true;
}

/* Compares the part of queued VMA i inside the requested range. */
static int scan_vma(struct scan *s, int i)
{
	struct compare_summary sum = { 0 };
	uint64_t start, end;
	int err;

	if (!vma_begin(s, i, &start, &end))
		return EXIT_OK;
	err = compare_range(s->engine, start, end, &sum, witness_range,
			    s->witness);
	if (err) {
		witness_discard(s->witness);
		return scan_failed(s, -err);
	}
	vma_compared(s, i, start, end, &sum, true);
	return EXIT_OK;
}

/*
 * The next VMAs of maps into the queue, at most PLAN_VMAS: how many, or
 * -1 after a malformed line (s->msg says which).
 */
static int read_vmas(struct scan *s)
{
	struct vma_queue *q = s->queue;
	int n = 0;

	errno = 0;
	while (n < PLAN_VMAS && getline(&q->line[n], &q->size[n], s->maps) > 0) {
		if (!maps_parse_line(q->line[n], &q->vma[n])) {
			snprintf(s->msg, sizeof(s->msg),
				 "unreadable line in /proc/%d/maps: %.80s",
				 (int)s->src.pid, q->line[n]);
			return -1;
		}
		n++;
		errno = 0;
	}
	return n;
}

/* The queued VMAs' parts to compare, as one plan: how many. */
static size_t plan_vmas(struct scan *s, int n)
{
	struct vma_queue *q = s->queue;
	size_t k = 0;

	for (int i = 0; i < n; i++) {
		uint64_t start, end;

		if (!clip(s->opts, &q->vma[i], &start, &end) ||
		    !strcmp(q->vma[i].name, "[vsyscall]"))
			continue;
		q->piece[k++] = (struct compare_piece){ start, end };
	}
	return k;
}

/* Where the main thread is in the jobs' items and their parts. */
struct part_iter {
	struct job_cursor c;
	struct job_item it;
	size_t k;		/* item number in the plan */
	size_t i;		/* next part of it */
	bool have;
};

/*
 * scan_vma() with --jobs: the VMA's parts come from the jobs, item by item
 * in address order, and are joined as one job would have compared them.
 */
static int scan_vma_jobs(struct scan *s, int i, struct part_iter *pi)
{
	struct compare_summary sum = { 0 };
	struct job_joiner j;
	uint64_t start, end;
	int err = 0;

	if (!vma_begin(s, i, &start, &end))
		return EXIT_OK;
	job_joiner_init(&j, witness_range, s->witness);
	for (;;) {
		struct compare_piece part;
		struct job_event ev;

		if (!pi->have || pi->i == job_parts(&pi->it)) {
			/* the plan has a part for every piece: there is one */
			pi->have = job_next(&pi->c, &pi->it);
			pi->k = pi->have && pi->i ? pi->k + 1 : 0;
			pi->i = 0;
		}
		part = job_part(&pi->it, s->queue->piece, pi->i++);
		do {
			jobs_next(s->jobs, pi->k, &ev);
			if (!ev.part_end)
				job_joiner_range(&j, &ev.range);
		} while (!ev.part_end);
		err = ev.err;
		if (err)
			break;
		job_joiner_part(&j, &ev.sum);
		if (part.end >= end)
			break;
	}
	if (err) {
		witness_discard(s->witness);
		jobs_cancel(s->jobs);
		return scan_failed(s, -err);
	}
	job_joiner_end(&j, &sum);
	vma_compared(s, i, start, end, &sum, true);
	return EXIT_OK;
}

/* Pages of the plan's pieces[0..n). */
static uint64_t plan_pages(const struct compare_piece *pieces, size_t n)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < n; i++)
		pages += (pieces[i].end - pieces[i].start) >> PAGE_SHIFT_4K;
	return pages;
}

/*
 * The queued VMAs, compared by the jobs or by the one engine.  A plan of
 * less than a batch goes to the one engine: there the jobs' hand-over of
 * every range costs more than the scan (make bench, --range over 10,000
 * small VMAs: Cin 30% more with two jobs than with one).
 */
static int scan_queue(struct scan *s, int n)
{
	size_t pieces = plan_vmas(s, n);
	struct part_iter pi = { .have = false };
	bool split = s->nr_jobs > 1 &&
		     plan_pages(s->queue->piece, pieces) >= BATCH_PAGES;
	int status = EXIT_OK;

	if (split && !s->jobs)
		status = start_jobs(s);
	if (status != EXIT_OK)
		return status;
	if (!split) {
		compare_plan(s->engine, s->queue->piece, pieces);
		for (int i = 0; status == EXIT_OK && i < n; i++)
			status = scan_vma(s, i);
	} else {
		jobs_plan(s->jobs, s->queue->piece, pieces);
		job_cursor_init(&pi.c, s->queue->piece, pieces, BATCH_PAGES,
				s->nr_jobs);
		for (int i = 0; status == EXIT_OK && i < n; i++)
			status = scan_vma_jobs(s, i, &pi);
		/* the queue is read again only once no job reads its pieces */
		jobs_wait(s->jobs);
	}
	/* every queued VMA is done before the queue is read again */
	if (status == EXIT_OK) {
		int err = witness_flush(s->witness);

		if (err)
			return scan_failed(s, -err);
	}
	return status;
}

static int scan_all(struct scan *s)
{
	int status = EXIT_OK, n = 0;
	bool tty = isatty(STDERR_FILENO);

	progress_init(&s->progress, progress_wanted(tty, s->opts->no_progress),
		      now_ns());
	if (s->progress.enabled)
		progress_total(s);

	while (status == EXIT_OK && (n = read_vmas(s)) > 0)
		status = scan_queue(s, n);
	if (status != EXIT_OK)
		return status;
	if (n < 0)
		return fail(s, FAIL_INTERNAL);
	if (ferror(s->maps))
		return scan_failed(s, errno ? errno : EIO);
	/* A process that exits mid-scan ends its maps early: no half report. */
	if (!proc_alive(s->src.pid))
		return scan_failed(s, ESRCH);
	return EXIT_OK;
}

static int finish(struct scan *s)
{
	struct report_target t = { .pid = s->src.pid };
	struct utsname u;
	char comm[64];
	int err;

	progress_end(s);
	proc_comm(s->src.pid, comm, sizeof(comm));
	t.comm = comm;
	t.kernel = uname(&u) ? "?" : u.release;
	/* unreadable: report every flag as this architecture's */
	if (ptwalk_absent_flags(s->opts->debugfs, &t.absent_flags))
		t.absent_flags = 0;
	if (s->opts->has_range) {
		dma_finish(&s->dma);
		/* frames without struct page: which device's BAR, if any */
		for (unsigned int i = 0; i < s->dma.t.nr_devmem; i++)
			pci_find_owner(PCI_SYSFS_DEVICES,
				       s->dma.t.devmem[i].pfn << PAGE_SHIFT_4K,
				       &s->dma_report.owners[i]);
	}
	for (unsigned int i = 0; s->jobs && i < s->nr_jobs; i++) {
		const struct proc_source *j = &s->job_src[i];

		s->src.pagemap_bytes += j->pagemap_bytes;
		s->src.walk_queries += j->walk_queries;
		s->src.walk_records += j->walk_records;
		s->src.pagemap_ns += j->pagemap_ns;
		s->src.walk_ns += j->walk_ns;
	}
	err = report_finish(&s->report, &t);
	if (err) {
		snprintf(s->msg, sizeof(s->msg), "cannot write the report: %s",
			 strerror(-err));
		return fail(s, FAIL_INTERNAL);
	}
	if (s->opts->stats)
		fprintf(stderr,
			"ptcompare: stats: pages=%" PRIu64 " vmas=%" PRIu64
			" rereads=%" PRIu64 " pagemap_bytes=%" PRIu64
			" ptwalk_queries=%" PRIu64 " ptwalk_records=%" PRIu64
			" kpageflags_reads=%" PRIu64 " kpageflags_bytes=%" PRIu64
			" peak_rss_kib=%" PRIu64 " pagemap_us=%" PRIu64
			" ptwalk_us=%" PRIu64 " kpageflags_us=%" PRIu64
			" run_us=%" PRIu64 " jobs=%u interface=%s\n",
			s->report.pages, s->report.nr_vmas, s->report.rereads,
			s->src.pagemap_bytes, s->src.walk_queries,
			s->src.walk_records, s->wsrc.kpf_reads,
			s->wsrc.kpf_bytes, self_peak_rss_kib(),
			s->src.pagemap_ns / 1000, s->src.walk_ns / 1000,
			s->wsrc.kpf_ns / 1000,
			(monotonic_ns() - s->started_ns) / 1000,
			s->jobs ? s->nr_jobs : 0,
			endpoint_kind_name(s->ep.kind));
	return report_has_mismatch(&s->report) ? EXIT_MISMATCH : EXIT_OK;
}

static void scan_close(struct scan *s)
{
	jobs_stop(s->jobs);
	for (unsigned int i = 0; i < JOBS_MAX; i++) {
		struct proc_source *j = &s->job_src[i];

		if (j->pagemap_fd >= 0)
			close(j->pagemap_fd);
		for (int k = 0; k < NR_COMPARE_STREAMS; k++)
			if (j->walk_fd[k] >= 0)
				close(j->walk_fd[k]);
	}
	compare_free(s->engine);
	witness_free(s->witness);
	witness_source_close(&s->wsrc);
	if (s->wspool)
		fclose(s->wspool);
	for (int i = 0; i < 2; i++)
		if (s->spool[i])
			fclose(s->spool[i]);
	for (int i = 0; i < 2; i++)
		if (s->dma_spool[i])
			fclose(s->dma_spool[i]);
	if (s->maps)
		fclose(s->maps);
	if (s->queue)
		for (int i = 0; i < PLAN_VMAS; i++)
			free(s->queue->line[i]);
	free(s->queue);
	if (s->src.pagemap_fd >= 0)
		close(s->src.pagemap_fd);
	for (int i = 0; i < NR_COMPARE_STREAMS; i++)
		if (s->src.walk_fd[i] >= 0)
			close(s->src.walk_fd[i]);
}

int main(int argc, char **argv)
{
	struct cli_options o;
	struct scan s = { .opts = &o, .started_ns = monotonic_ns() };
	int status;

	if (!cli_parse(argc, argv, &o, s.msg, sizeof(s.msg)))
		return fail(&s, FAIL_USAGE);
	if (o.help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (o.version) {
		char line[600];

		connect_describe(&o, line, sizeof(line));
		printf("ptcompare %s (ptwalk ABI %d)\n%s\n", PTCOMPARE_VERSION,
		       PTWALK_ABI_VERSION, line);
		return EXIT_OK;
	}
	if (o.vtop) {
		status = vtop_run(&o, s.msg, sizeof(s.msg));
		if (status > EXIT_MISMATCH)
			fprintf(stderr, "ptcompare: %s\n", s.msg);
		return status;
	}
	/*
	 * No transparent huge pages for ptcompare's own memory: each engine's
	 * arrays are large and touched sparsely, and with THP "always" one
	 * touched byte made 2 MiB resident, at the whim of the alignment and
	 * of khugepaged (the VM suite saw --jobs 8 peak at 7.9 MiB in one run
	 * and 16.6 MiB in the next).  Best effort: a kernel without it
	 * (before 3.15) only keeps the old behaviour.
	 */
	(void)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	s.src.pid = o.pid;
	s.src.pagemap_fd = -1;
	for (int i = 0; i < NR_COMPARE_STREAMS; i++)
		s.src.walk_fd[i] = -1;
	for (int i = 0; i < JOBS_MAX; i++) {
		s.job_src[i].pagemap_fd = -1;
		for (int k = 0; k < NR_COMPARE_STREAMS; k++)
			s.job_src[i].walk_fd[k] = -1;
	}
	proc_source_io(&s.src, &s.io);
	watch_io(&s);

	s.wsrc.kpf_fd = s.wsrc.walk_fd = -1;
	status = open_walk(&s);
	if (status == EXIT_OK)
		status = open_proc(&s);
	count_jobs(&s);
	if (status == EXIT_OK)
		status = open_witness(&s);
	if (status == EXIT_OK)
		status = open_output(&s);
	if (status == EXIT_OK)
		status = scan_all(&s);
	if (status == EXIT_OK)
		status = finish(&s);
	scan_close(&s);
	return status;
}
