// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --watch: the I/O around engine/watch.c.  Signals come through
 * a signalfd polled between readings, so SIGINT ends the watch with its
 * summary and no handler or global flag is needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/mode_watch.h"
#include "io/proc_read.h"
#include "io/ptwalk_client.h"
#include "io/source.h"
#include "io/stop_signals.h"
#include "model/defaults.h"
#include "model/page.h"
#include "report/diagnose.h"
#include "report/watch_print.h"

/* Records read per call: 256 KiB of them. */
#define WATCH_BATCH (256 * 1024 / (int)sizeof(struct ptwalk_record_ext))

struct watcher {
	const struct cli_options *o;
	int fd;			/* ptwalk session */
	int pagemap_fd;
	int sig_fd;
	size_t n;		/* pages of the range */
	unsigned int shift;	/* the kernel's page */
	struct watch_page *old, *new;
	uint64_t *raw;		/* pagemap's entries of one reading */
	struct ptwalk_record_ext recs[WATCH_BATCH];
	struct watch_totals totals;
	uint64_t t0_ns;
};

/* One reading into w->new: 0, or -errno (-ESRCH: the process is gone). */
static int read_range(struct watcher *w)
{
	const struct cli_options *o = w->o;
	ssize_t got;
	int err;

	watch_clear(w->new, w->n);
	err = ptwalk_query(w->fd, o->pid, o->start, o->end);
	if (err)
		return err;
	while ((got = ptwalk_read_ext(w->fd, w->recs, WATCH_BATCH)) > 0)
		watch_fill(w->new, o->start, w->n, w->shift, w->recs,
			   (size_t)got);
	if (got < 0)
		return (int)got;
	got = proc_pread(w->pagemap_fd, w->raw, w->n * sizeof(*w->raw),
			 (off_t)(o->start >> w->shift) *
			 (off_t)sizeof(*w->raw), NULL);
	if (got < 0)
		return (int)got;
	if ((size_t)got != w->n * sizeof(*w->raw))
		return -ESRCH;	/* pagemap reads nothing once the mm is gone */
	watch_set_pagemap(w->new, w->n, w->raw);
	w->totals.readings++;
	return 0;
}

static void on_change(void *arg, const struct watch_change *c)
{
	struct watcher *w = arg;

	w->totals.changes++;
	w->totals.pages_changed += c->pages;
	if (c->pinned_moved)
		w->totals.pinned_moved += c->pages;
	watch_print_change(stdout, w->o->json,
			   (monotonic_ns() - w->t0_ns) / 1000000, c);
}

static int setup(struct watcher *w, char *msg, size_t size)
{
	const struct cli_options *o = w->o;
	char path[64];

	w->old = calloc(w->n, sizeof(*w->old));
	w->new = calloc(w->n, sizeof(*w->new));
	w->raw = calloc(w->n, sizeof(*w->raw));
	if (!w->old || !w->new || !w->raw) {
		snprintf(msg, size, "out of memory");
		return FAIL_INTERNAL;
	}
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)o->pid);
	w->pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (w->pagemap_fd < 0)
		return (int)diagnose_proc_open(errno, o->pid, "pagemap", msg,
					       size);
	w->sig_fd = stop_signals_open();
	if (w->sig_fd < 0) {
		snprintf(msg, size, "cannot watch for signals: %s",
			 strerror(-w->sig_fd));
		return FAIL_INTERNAL;
	}
	return EXIT_OK;
}

/* The readings until the end: EXIT_OK, or a failure (msg). */
static int loop(struct watcher *w, char *msg, size_t size)
{
	uint64_t end_ns = w->t0_ns + (uint64_t)w->o->watch_s * 1000000000ULL;
	uint64_t present = 0;
	int err;

	err = read_range(w);
	if (err)
		return (int)diagnose_query(-err, w->o->pid, msg, size);
	for (size_t k = 0; k < w->n; k++)
		present += w->new[k].kind == PTWALK_KIND_PRESENT;
	watch_print_start(stdout, w->o->json, &w->totals, present);
	for (;;) {
		struct watch_page *t = w->old;
		uint64_t now = monotonic_ns(), wait;

		w->old = w->new;
		w->new = t;
		if (now >= end_ns) {
			w->totals.ended = "time";
			return EXIT_OK;
		}
		wait = (end_ns - now) / 1000000;
		if (wait > w->totals.interval_ms)
			wait = w->totals.interval_ms;
		if (stop_signal_wait(w->sig_fd, wait)) {
			w->totals.ended = "signal";
			return EXIT_OK;
		}
		err = read_range(w);
		if (err == -ESRCH || err == -ENXIO) {
			w->totals.ended = "exited";
			return EXIT_OK;
		}
		if (err)
			return (int)diagnose_scan(-err, w->o->pid,
						  proc_alive(w->o->pid), msg,
						  size);
		watch_diff(w->old, w->new, w->n, w->o->start, w->shift,
			   on_change, w);
	}
}

int mode_watch(const struct cli_options *o, char *msg, size_t size)
{
	struct watcher *w = calloc(1, sizeof(*w));
	struct page_geom geom;
	struct endpoint ep;
	enum failure why;
	int status;

	if (!w) {
		snprintf(msg, size, "out of memory");
		return FAIL_INTERNAL;
	}
	*w = (struct watcher){
		.o = o, .fd = -1, .pagemap_fd = -1, .sig_fd = -1,
		.totals = {
			.pid = o->pid, .start = o->start, .end = o->end,
			.interval_ms = o->interval_ms ? o->interval_ms :
				       WATCH_DEFAULT_INTERVAL_MS,
		},
	};
	w->fd = connect_ptwalk(o, &ep, &why, msg, size);
	if (w->fd < 0) {
		status = (int)why;
		goto out;
	}
	if (connect_geometry(&ep, &geom, msg, size)) {
		status = FAIL_NO_MODULE;
		goto out;
	}
	if (cli_check_range_pages(o->start, o->end, geom_page_size(&geom),
				  msg, size)) {
		status = FAIL_USAGE;
		goto out;
	}
	w->shift = w->totals.page_shift = geom.shift;
	w->n = (size_t)((o->end - o->start) >> geom.shift);
	if (w->n > WATCH_MAX_PAGES) {
		snprintf(msg, size,
			 "--watch follows at most %lu pages: narrow --range",
			 (unsigned long)WATCH_MAX_PAGES);
		status = FAIL_USAGE;
		goto out;
	}
	status = setup(w, msg, size);
	if (status != EXIT_OK)
		goto out;
	w->t0_ns = monotonic_ns();
	status = loop(w, msg, size);
	if (status != EXIT_OK)
		goto out;
	watch_print_end(stdout, o->json, &w->totals);
	status = w->totals.pinned_moved ? EXIT_MISMATCH :
		 !strcmp(w->totals.ended, "exited") ? EXIT_EXITED : EXIT_OK;
	if (status == EXIT_EXITED)
		snprintf(msg, size, "process %d exited during the watch",
			 (int)o->pid);
out:
	fd_close(&w->sig_fd);
	fd_close(&w->pagemap_fd);
	fd_close(&w->fd);
	free(w->old);
	free(w->new);
	free(w->raw);
	free(w);
	return status;
}
