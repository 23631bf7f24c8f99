// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "cmd/progress_hooks.h"
#include "cmd/scan.h"
#include "model/page.h"

/* Redraws the progress line if one is due (stderr is unbuffered). */
static void progress_tick(struct session *s)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	uint64_t now;
	size_t n;

	if (!s->progress.enabled)
		return;
	now = monotonic_ns();
	if (!progress_due(&s->progress, now))
		return;
	n = progress_line(&s->progress, now, line, sizeof(line));
	fwrite(line, 1, n, stderr);
}

void progress_end(struct session *s)
{
	char line[PROGRESS_MAX_WIDTH + 8];
	size_t n = progress_clear(&s->progress, line, sizeof(line));

	fwrite(line, 1, n, stderr);
}

void progress_at(struct session *s, uint64_t addr)
{
	/* pagemap's window may read ahead into the next VMAs */
	if (addr > s->vma_end)
		addr = s->vma_end;
	if (addr > s->vma_pos)
		s->vma_pos = addr;
	s->progress.pages = s->pages_done +
			    ((s->vma_pos - s->vma_start) >> s->geom.shift);
	progress_tick(s);
}

void progress_vma_done(struct session *s, uint64_t pages)
{
	s->pages_done += pages;
	s->progress.pages = s->pages_done;
	s->progress.vmas++;
	progress_tick(s);
}

/*
 * The pagemap reader, seen by the progress line: reads go forward a batch
 * (64 MiB of address space) at a time, even where no range ends for long.
 */
static int read_pagemap_progress(void *ctx, uint64_t addr, size_t n,
				 uint64_t *out)
{
	struct session *s = ctx;

	progress_at(s, addr);
	return s->proc_io.read_pagemap(s->proc_io.ctx, addr, n, out);
}

static int walk_query_progress(void *ctx, enum compare_stream st,
			       uint64_t start, uint64_t end)
{
	struct session *s = ctx;

	return s->proc_io.walk_query(s->proc_io.ctx, st, start, end);
}

static ssize_t walk_read_ext_progress(void *ctx, enum compare_stream st,
				      struct ptwalk_record_ext *recs,
				      size_t max, bool *info)
{
	struct session *s = ctx;

	return s->proc_io.walk_read_ext(s->proc_io.ctx, st, recs, max, info);
}

void progress_watch_io(struct session *s)
{
	s->proc_io = s->io;
	s->io = (struct compare_io){
		.read_pagemap = read_pagemap_progress,
		.walk_query = walk_query_progress,
		.walk_read_ext = walk_read_ext_progress,
		.ctx = s,
	};
}

/*
 * What the progress line counts up to: the pages and VMAs maps lists now
 * (inside the range).  Read apart from the scan; if the process changes
 * meanwhile, the line shows counts without a total once they pass it.
 */
static void progress_total(struct session *s)
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
		    !scan_clip(s->opts, &vma, &start, &end))
			continue;
		s->progress.total_pages += (end - start) >> s->geom.shift;
		s->progress.total_vmas++;
	}
	free(line);
	fclose(f);
}

void progress_start(struct session *s)
{
	/*
	 * --no-progress (every --all worker) asks no terminal and reads no
	 * clock: under --all that was an ioctl and a clock read a process.
	 */
	bool on = !s->opts->no_progress &&
		  progress_wanted(isatty(STDERR_FILENO), false);

	progress_init(&s->progress, on, on ? monotonic_ns() : 0);
	if (s->progress.enabled)
		progress_total(s);
}
