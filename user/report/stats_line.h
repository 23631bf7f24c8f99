/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --stats' line on stderr: what a scan, or --all, read and how long it
 * took (docs/performance.md reads it).  The mode counts, this writes.
 */
#ifndef PTCOMPARE_REPORT_STATS_LINE_H
#define PTCOMPARE_REPORT_STATS_LINE_H

#include <stdint.h>
#include <stdio.h>

/* One scan's; jobs 0: the one engine did the whole scan. */
struct scan_stats {
	uint64_t pages, vmas, rereads;
	uint64_t pagemap_bytes, walk_queries, walk_records;
	uint64_t kpf_reads, kpf_bytes, peak_rss_kib;
	uint64_t pagemap_ns, walk_ns, kpf_ns, maps_ns, run_ns;
	unsigned int jobs;
	const char *interface;		/* debugfs or device */
};

/* --all's. */
struct all_stats {
	unsigned int processes;
	uint64_t pages, pagemap_bytes, walk_records, peak_rss_kib;
	uint64_t pagemap_ns, walk_ns, maps_ns, open_ns, run_ns;
	unsigned int workers;
};

void scan_stats_print(FILE *f, const struct scan_stats *s);
void all_stats_print(FILE *f, const struct all_stats *s);

#endif /* PTCOMPARE_REPORT_STATS_LINE_H */
