// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID: cross-checks /proc/PID/pagemap against ptwalk.ko, page by
 * page, and explains every difference.  This file is the I/O shell: the
 * parsing, comparison and reporting it wires together live in the library
 * and are unit tested on their own.
 *
 * A scan is one pipeline, VMA by VMA (scan_vma()):
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
 *   vma_done()             the VMA's counts: report_vma(), dma_add_vma(),
 *                          the progress line
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
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/vtop_run.h"
#include "engine/compare.h"
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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptcompare [--json] [--stats] [--no-progress] [--kpageflags]\n"
		"                 [--range START-END] [--debugfs DIR] [--device DEV] PID\n"
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
		"  --no-progress      no progress line on stderr (shown on a terminal\n"
		"                     when a scan takes more than a second)\n"
		"  -h, --help, --version\n"
		"Exit status: 0 every page explained, 1 a mismatch remains,\n"
		"2 usage or environment error (the message says which).\n",
		PTWALK_DEFAULT_DEBUGFS, PTWALK_DEFAULT_DEVICE);
}

/* Everything one run holds; released by scan_close() whatever happened. */
struct scan {
	const struct cli_options *opts;
	struct endpoint ep;		/* ptwalk's way in: debugfs or device */
	struct proc_source src;
	struct compare_io io;
	struct compare_io proc_io;	/* the real sources io wraps */
	struct compare_engine *engine;
	FILE *maps;
	struct report report;
	FILE *spool[2];
	struct dma_view dma;		/* the DMA view, with --range */
	struct report_dma dma_report;	/* ... and its section of the report */
	FILE *dma_spool[2];
	struct progress progress;
	uint64_t pages_done;		/* pages of the VMAs done */
	uint64_t vma_start;		/* examined part of the VMA in progress */
	uint64_t vma_pos;		/* ... scanned up to here */
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

static int fail(struct scan *s, enum failure f)
{
	(void)f;	/* every failure kind exits 2; the message names it */
	progress_end(s);
	fprintf(stderr, "ptcompare: %s\n", s->msg);
	return EXIT_ERROR;
}

static int open_walk(struct scan *s)
{
	for (int i = 0; i < NR_COMPARE_STREAMS; i++) {
		int fd = i ? connect_again(&s->ep, s->msg, sizeof(s->msg)) :
			     connect_ptwalk(s->opts, &s->ep, s->msg,
					    sizeof(s->msg));

		if (fd < 0)
			return fail(s, FAIL_NO_MODULE);
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

static void range_done(const struct verdict_range *vr,
		       const struct witness_note *note, void *arg);

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
	if (open_spools(s, s->spool, 2) ||
	    (!s->opts->json && open_spools(s, &s->wspool, 1)))
		return EXIT_ERROR;
	report_init(&s->report, s->opts->json ? REPORT_JSON : REPORT_TEXT,
		    stdout, s->spool[0], s->spool[1]);
	if (s->opts->has_range) {
		if (open_spools(s, s->dma_spool, 2))
			return EXIT_ERROR;
		report_dma_init(&s->dma_report, &s->report, &s->dma,
				s->dma_spool[0], s->dma_spool[1]);
		struct dma_sink sink = report_dma_sink(&s->dma_report);

		dma_init(&s->dma, s->opts->start, s->opts->end, &sink);
	}
	report_add_witnesses(&s->report, &s->wtotals, s->wspool);
	s->engine = compare_new(&s->io, BATCH_PAGES);
	s->witness = witness_new(&s->wio, &s->wtotals, range_done, s);
	if (!s->engine || !s->witness) {
		snprintf(s->msg, sizeof(s->msg), "out of memory");
		return fail(s, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

static int open_witness(struct scan *s)
{
	int fd = connect_again(&s->ep, s->msg, sizeof(s->msg));

	if (fd < 0)
		return fail(s, FAIL_NO_MODULE);
	witness_source_open(&s->wsrc, fd, s->src.pid, s->opts->kpageflags,
			    &s->wtotals);
	witness_source_io(&s->wsrc, &s->wio);
	return EXIT_OK;
}

static int scan_failed(struct scan *s, int err)
{
	return fail(s, diagnose_scan(err, s->src.pid, proc_alive(s->src.pid),
				     s->msg, sizeof(s->msg)));
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

/* Compares the part of one VMA inside the requested range. */
static int scan_vma(struct scan *s, const struct maps_entry *vma)
{
	struct compare_summary sum = { 0 };
	uint64_t start, end;
	int err;

	if (!clip(s->opts, vma, &start, &end))
		return EXIT_OK;
	/* [vsyscall] lives in kernel space: no page table of the task. */
	if (!strcmp(vma->name, "[vsyscall]")) {
		vma_done(s, vma, start, end, &sum, false);
		return EXIT_OK;
	}
	s->vma_start = s->vma_pos = start;
	err = compare_range(s->engine, start, end, &sum, witness_range,
			    s->witness);
	if (err)
		witness_discard(s->witness);
	else
		err = witness_flush(s->witness);
	if (err)
		return scan_failed(s, -err);
	vma_done(s, vma, start, end, &sum, true);
	return EXIT_OK;
}

static int scan_all(struct scan *s)
{
	struct maps_entry vma;
	char *line = NULL;
	size_t size = 0;
	int status = EXIT_OK;
	bool tty = isatty(STDERR_FILENO);

	progress_init(&s->progress, progress_wanted(tty, s->opts->no_progress),
		      now_ns());
	if (s->progress.enabled)
		progress_total(s);

	errno = 0;
	while (status == EXIT_OK && getline(&line, &size, s->maps) > 0) {
		if (!maps_parse_line(line, &vma)) {
			snprintf(s->msg, sizeof(s->msg),
				 "unreadable line in /proc/%d/maps: %.80s",
				 (int)s->src.pid, line);
			status = fail(s, FAIL_INTERNAL);
			break;
		}
		status = scan_vma(s, &vma);
		errno = 0;
	}
	free(line);
	if (status != EXIT_OK)
		return status;
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
	if (s->opts->has_range) {
		dma_finish(&s->dma);
		/* frames without struct page: which device's BAR, if any */
		for (unsigned int i = 0; i < s->dma.t.nr_devmem; i++)
			pci_find_owner(PCI_SYSFS_DEVICES,
				       s->dma.t.devmem[i].pfn << PAGE_SHIFT_4K,
				       &s->dma_report.owners[i]);
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
			" run_us=%" PRIu64 " interface=%s\n",
			s->report.pages, s->report.nr_vmas, s->report.rereads,
			s->src.pagemap_bytes, s->src.walk_queries,
			s->src.walk_records, s->wsrc.kpf_reads,
			s->wsrc.kpf_bytes, self_peak_rss_kib(),
			s->src.pagemap_ns / 1000, s->src.walk_ns / 1000,
			s->wsrc.kpf_ns / 1000,
			(monotonic_ns() - s->started_ns) / 1000,
			endpoint_kind_name(s->ep.kind));
	return report_has_mismatch(&s->report) ? EXIT_MISMATCH : EXIT_OK;
}

static void scan_close(struct scan *s)
{
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
		if (status == EXIT_ERROR)
			fprintf(stderr, "ptcompare: %s\n", s.msg);
		return status;
	}
	s.src.pid = o.pid;
	s.src.pagemap_fd = -1;
	for (int i = 0; i < NR_COMPARE_STREAMS; i++)
		s.src.walk_fd[i] = -1;
	proc_source_io(&s.src, &s.io);
	watch_io(&s);

	s.wsrc.kpf_fd = s.wsrc.walk_fd = -1;
	status = open_walk(&s);
	if (status == EXIT_OK)
		status = open_proc(&s);
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
