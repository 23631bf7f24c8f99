// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "cmd/progress_hooks.h"
#include "io/proc_read.h"
#include "model/page.h"
#include "parse/maps.h"

/* Redraws the progress line if one is due (stderr is unbuffered). */
static void progress_tick(struct progress *p)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	uint64_t now;
	size_t n;

	if (!p->enabled)
		return;
	now = monotonic_ns();
	if (!progress_due(p, now))
		return;
	n = progress_line(p, now, line, sizeof(line));
	fwrite(line, 1, n, stderr);
}

void progress_end(struct progress *p)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	size_t n = progress_clear(p, line, sizeof(line));

	fwrite(line, 1, n, stderr);
}

void progress_vma_begin(struct scan_progress *p, uint64_t start,
			uint64_t end)
{
	p->vma_start = p->vma_pos = start;
	p->vma_end = end;
}

void progress_at(struct scan_progress *p, uint64_t addr)
{
	/* pagemap's window may read ahead into the next VMAs */
	if (addr > p->vma_end)
		addr = p->vma_end;
	if (addr > p->vma_pos)
		p->vma_pos = addr;
	p->line.pages = p->pages_done +
			((p->vma_pos - p->vma_start) >> p->page_shift);
	progress_tick(&p->line);
}

void progress_vma_done(struct scan_progress *p, uint64_t pages)
{
	p->pages_done += pages;
	p->line.pages = p->pages_done;
	p->line.vmas++;
	progress_tick(&p->line);
}

void progress_restart(struct scan_progress *p)
{
	p->pages_done = p->vma_start = p->vma_pos = p->vma_end = 0;
}

/*
 * The pagemap reader, seen by the progress line: reads go forward a batch
 * (64 MiB of address space) at a time, even where no range ends for long.
 */
static int read_pagemap_progress(void *ctx, uint64_t addr, size_t n,
				 uint64_t *out)
{
	struct scan_progress *p = ctx;

	progress_at(p, addr);
	return p->proc_io.read_pagemap(p->proc_io.ctx, addr, n, out);
}

static int walk_query_progress(void *ctx, enum compare_stream st,
			       uint64_t start, uint64_t end)
{
	struct scan_progress *p = ctx;

	return p->proc_io.walk_query(p->proc_io.ctx, st, start, end);
}

static ssize_t walk_read_progress(void *ctx, enum compare_stream st,
				  struct ptwalk_record_ext *recs, size_t max)
{
	struct scan_progress *p = ctx;

	return p->proc_io.walk_read(p->proc_io.ctx, st, recs, max);
}

void progress_watch_io(struct scan_progress *p,
		       const struct compare_io *real)
{
	p->proc_io = *real;
	p->io = (struct compare_io){
		.read_pagemap = read_pagemap_progress,
		.walk_query = walk_query_progress,
		.walk_read = walk_read_progress,
		.ctx = p,
	};
}

struct total {
	struct scan_progress *p;
	const struct cli_options *o;
};

/* A VMA of maps into the total (inside the range); reads on. */
static bool count_vma(char *line, void *arg)
{
	struct total *t = arg;
	struct maps_entry vma;
	uint64_t start, end;

	if (maps_parse_line(line, &vma) &&
	    cli_clip(t->o, vma.start, vma.end, &start, &end)) {
		t->p->line.total_pages += (end - start) >> t->p->page_shift;
		t->p->line.total_vmas++;
	}
	return false;
}

/*
 * What the progress line counts up to: the pages and VMAs maps lists now
 * (inside the range).  Read apart from the scan; if the process changes
 * meanwhile, the line shows counts without a total once they pass it.
 */
static void progress_total(struct scan_progress *p,
			   const struct cli_options *o, pid_t pid)
{
	struct total t = { p, o };

	proc_maps_each(pid, count_vma, &t);
}

void progress_start(struct scan_progress *p, const struct cli_options *o,
		    pid_t pid)
{
	/*
	 * --no-progress (every --all worker) asks no terminal and reads no
	 * clock: under --all that was an ioctl and a clock read a process.
	 */
	bool on = !o->no_progress &&
		  progress_wanted(isatty(STDERR_FILENO), false);

	progress_init(&p->line, on, on ? monotonic_ns() : 0);
	if (p->line.enabled)
		progress_total(p, o, pid);
}
