// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "cmd/stats.h"

void stats_add_jobs(struct session *s)
{
	for (unsigned int i = 0; s->jobs && i < s->nr_jobs; i++) {
		const struct proc_source *j = &s->job_src[i];

		s->src.pagemap_bytes += j->pagemap_bytes;
		s->src.walk_queries += j->walk_queries;
		s->src.walk_records += j->walk_records;
		s->src.pagemap_ns += j->pagemap_ns;
		s->src.walk_ns += j->walk_ns;
	}
}

/* jobs=0: the one engine did the whole scan, no job was started. */
void stats_print(const struct session *s, FILE *f)
{
	fprintf(f,
		"ptcompare: stats: pages=%" PRIu64 " vmas=%" PRIu64
		" rereads=%" PRIu64 " pagemap_bytes=%" PRIu64
		" ptwalk_queries=%" PRIu64 " ptwalk_records=%" PRIu64
		" kpageflags_reads=%" PRIu64 " kpageflags_bytes=%" PRIu64
		" peak_rss_kib=%" PRIu64 " pagemap_us=%" PRIu64
		" ptwalk_us=%" PRIu64 " kpageflags_us=%" PRIu64
		" maps_us=%" PRIu64 " run_us=%" PRIu64 " jobs=%u interface=%s\n",
		s->report.pages, s->report.nr_vmas, s->report.rereads,
		s->src.pagemap_bytes, s->src.walk_queries,
		s->src.walk_records, s->wsrc.kpf_reads,
		s->wsrc.kpf_bytes, self_peak_rss_kib(),
		s->src.pagemap_ns / 1000, s->src.walk_ns / 1000,
		s->wsrc.kpf_ns / 1000, s->maps_ns / 1000,
		(monotonic_ns() - s->started_ns) / 1000,
		s->jobs ? s->nr_jobs : 0,
		endpoint_kind_name(s->ep.kind));
}
