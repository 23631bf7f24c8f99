// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID: cross-checks /proc/PID/pagemap against ptwalk.ko, page by
 * page, and explains every difference.  This file is the I/O shell: the
 * parsing, comparison and reporting it wires together live in the library
 * and are unit tested on their own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cli.h"
#include "compare.h"
#include "diagnose.h"
#include "maps.h"
#include "ptwalk_client.h"
#include "report.h"
#include "source.h"
#include "witness.h"
#include "witness_source.h"

#define PTCOMPARE_VERSION "0.2"
/* Pages per pagemap pread: 128 KiB of entries, 64 MiB of address space. */
#define BATCH_PAGES 16384

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptcompare [--json] [--stats] [--range START-END] [--debugfs DIR] PID\n"
		"Compares, page by page, the frames /proc/PID/pagemap reports with those\n"
		"ptwalk.ko finds in the process's page tables, and explains every difference.\n"
		"  --json             one JSON document instead of the report\n"
		"  --range START-END  only this range (hex, END exclusive, page aligned)\n"
		"  --debugfs DIR      debugfs mount point (default %s)\n"
		"  --stats            print what was read and the peak memory on stderr\n"
		"  --help, --version\n"
		"Exit status: 0 every page explained, 1 a mismatch remains,\n"
		"2 usage or environment error (the message says which).\n",
		PTWALK_DEFAULT_DEBUGFS);
}

static enum module_state ptwalk_module_state(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	struct kmod_module *mod = NULL;
	enum module_state state = MODULE_STATE_UNKNOWN;

	if (!ctx)
		return state;
	if (!kmod_module_new_from_name(ctx, "ptwalk", &mod)) {
		int s = kmod_module_get_initstate(mod);

		if (s == KMOD_MODULE_LIVE || s == KMOD_MODULE_COMING)
			state = MODULE_LOADED;
		else if (s == -ENOENT)
			state = MODULE_NOT_LOADED;
		kmod_module_unref(mod);
	}
	kmod_unref(ctx);
	return state;
}

/* Everything one run holds; released by scan_close() whatever happened. */
struct scan {
	const struct cli_options *opts;
	struct proc_source src;
	struct compare_io io;
	struct compare_engine *engine;
	FILE *maps;
	struct report report;
	FILE *spool[2];
	/* the witnesses beside pagemap: /proc/iomem, /proc/kpageflags */
	struct witness_source wsrc;
	struct witness_io wio;
	struct witness_report wrep;
	struct witness *witness;
	FILE *wspool;
	char msg[512];		/* the one-line error, when one occurred */
};

static int fail(struct scan *s, enum failure f)
{
	(void)f;	/* every failure kind exits 2; the message names it */
	fprintf(stderr, "ptcompare: %s\n", s->msg);
	return EXIT_ERROR;
}

static int open_walk(struct scan *s)
{
	for (int i = 0; i < NR_COMPARE_STREAMS; i++) {
		int fd = ptwalk_open(s->opts->debugfs, PTWALK_QUERY_FILE,
				     O_RDWR);

		if (fd < 0)
			return fail(s, diagnose_open(-fd, ptwalk_module_state(),
						     s->opts->debugfs, s->msg,
						     sizeof(s->msg)));
		s->src.walk_fd[i] = fd;
	}
	/*
	 * Only ptwalk tells a kernel thread or a zombie (no mm: ENXIO) from
	 * a process with nothing mapped; ask before reading /proc.
	 */
	int err = ptwalk_query(s->src.walk_fd[COMPARE_SCAN], s->src.pid, 0,
			       4096);

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

static int open_output(struct scan *s)
{
	/* the text report spools the witnesses' section too */
	for (int i = 0; i < (s->opts->json ? 2 : 3); i++) {
		FILE **f = i < 2 ? &s->spool[i] : &s->wspool;

		*f = tmpfile();
		if (!*f) {
			snprintf(s->msg, sizeof(s->msg),
				 "cannot create a temporary file for the report: %s (set TMPDIR to a writable directory)",
				 strerror(errno));
			return fail(s, FAIL_INTERNAL);
		}
	}
	report_init(&s->report, s->opts->json ? REPORT_JSON : REPORT_TEXT,
		    stdout, s->spool[0], s->spool[1]);
	s->engine = compare_new(&s->io, BATCH_PAGES);
	s->wrep.spool = s->wspool;
	s->report.witness = &s->wrep;
	s->witness = witness_new(&s->wio, &s->wrep, report_range, &s->report);
	if (!s->engine || !s->witness) {
		snprintf(s->msg, sizeof(s->msg), "out of memory");
		return fail(s, FAIL_INTERNAL);
	}
	return EXIT_OK;
}

static int open_witness(struct scan *s)
{
	int err = witness_source_open(&s->wsrc, s->opts->debugfs, s->src.pid,
				      &s->wrep);

	if (err)
		return fail(s, diagnose_open(-err, ptwalk_module_state(),
					     s->opts->debugfs, s->msg,
					     sizeof(s->msg)));
	witness_source_io(&s->wsrc, &s->wio);
	return EXIT_OK;
}

static int scan_failed(struct scan *s, int err)
{
	return fail(s, diagnose_scan(err, s->src.pid, proc_alive(s->src.pid),
				     s->msg, sizeof(s->msg)));
}

/* Compares the part of one VMA inside the requested range. */
static int scan_vma(struct scan *s, const struct maps_entry *vma)
{
	const struct cli_options *o = s->opts;
	uint64_t start = vma->start, end = vma->end;
	struct compare_summary sum = { 0 };
	int err;

	if (o->has_range) {
		start = start > o->start ? start : o->start;
		end = end < o->end ? end : o->end;
		if (start >= end)
			return EXIT_OK;
	}
	/* [vsyscall] lives in kernel space: no page table of the task. */
	if (!strcmp(vma->name, "[vsyscall]")) {
		report_vma(&s->report, vma, start, end, &sum, false);
		return EXIT_OK;
	}
	err = compare_range(s->engine, start, end, &sum, witness_range,
			    s->witness);
	if (err)
		witness_discard(s->witness);
	else
		err = witness_flush(s->witness);
	if (err)
		return scan_failed(s, -err);
	report_vma(&s->report, vma, start, end, &sum, true);
	return EXIT_OK;
}

static int scan_all(struct scan *s)
{
	struct maps_entry vma;
	char *line = NULL;
	size_t size = 0;
	int status = EXIT_OK;

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

	proc_comm(s->src.pid, comm, sizeof(comm));
	t.comm = comm;
	t.kernel = uname(&u) ? "?" : u.release;
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
			" peak_rss_kib=%" PRIu64 "\n",
			s->report.pages, s->report.nr_vmas, s->report.rereads,
			s->src.pagemap_bytes, s->src.walk_queries,
			s->src.walk_records, s->wsrc.kpf_reads,
			s->wsrc.kpf_bytes, self_peak_rss_kib());
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
	struct scan s = { .opts = &o };
	int status;

	if (!cli_parse(argc, argv, &o, s.msg, sizeof(s.msg)))
		return fail(&s, FAIL_USAGE);
	if (o.help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (o.version) {
		printf("ptcompare %s (ptwalk ABI %d)\n", PTCOMPARE_VERSION,
		       PTWALK_ABI_VERSION);
		return EXIT_OK;
	}
	s.src.pid = o.pid;
	s.src.pagemap_fd = -1;
	for (int i = 0; i < NR_COMPARE_STREAMS; i++)
		s.src.walk_fd[i] = -1;
	proc_source_io(&s.src, &s.io);

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
