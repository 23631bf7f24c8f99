// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "report/stats_line.h"

void scan_stats_print(FILE *f, const struct scan_stats *s)
{
	fprintf(f,
		"ptcompare: stats: pages=%" PRIu64 " vmas=%" PRIu64
		" rereads=%" PRIu64 " pagemap_bytes=%" PRIu64
		" ptwalk_queries=%" PRIu64 " ptwalk_records=%" PRIu64
		" kpageflags_reads=%" PRIu64 " kpageflags_bytes=%" PRIu64
		" peak_rss_kib=%" PRIu64 " pagemap_us=%" PRIu64
		" ptwalk_us=%" PRIu64 " kpageflags_us=%" PRIu64
		" maps_us=%" PRIu64 " run_us=%" PRIu64 " jobs=%u interface=%s\n",
		s->pages, s->vmas, s->rereads, s->pagemap_bytes,
		s->walk_queries, s->walk_records, s->kpf_reads, s->kpf_bytes,
		s->peak_rss_kib, s->pagemap_ns / 1000, s->walk_ns / 1000,
		s->kpf_ns / 1000, s->maps_ns / 1000, s->run_ns / 1000, s->jobs,
		s->interface);
}

void all_stats_print(FILE *f, const struct all_stats *s)
{
	fprintf(f,
		"ptcompare: stats: processes=%u pages=%" PRIu64
		" pagemap_bytes=%" PRIu64 " ptwalk_records=%" PRIu64
		" peak_rss_kib=%" PRIu64 " pagemap_us=%" PRIu64
		" ptwalk_us=%" PRIu64 " maps_us=%" PRIu64 " open_us=%" PRIu64
		" run_us=%" PRIu64 " jobs=%u\n",
		s->processes, s->pages, s->pagemap_bytes, s->walk_records,
		s->peak_rss_kib, s->pagemap_ns / 1000, s->walk_ns / 1000,
		s->maps_ns / 1000, s->open_ns / 1000, s->run_ns / 1000,
		s->workers);
}
