// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "cmd/stats.h"

void stats_add_jobs(struct scan *sc)
{
	for (unsigned int i = 0; sc->jobs && i < sc->nr_jobs; i++) {
		const struct proc_source *j = &sc->ses.job_src[i];

		sc->ses.src.pagemap_bytes += j->pagemap_bytes;
		sc->ses.src.walk_queries += j->walk_queries;
		sc->ses.src.walk_records += j->walk_records;
		sc->ses.src.pagemap_ns += j->pagemap_ns;
		sc->ses.src.walk_ns += j->walk_ns;
	}
}

/* jobs=0: the one engine did the whole scan, no job was started. */
void stats_print(const struct scan *sc, FILE *f)
{
	fprintf(f,
		"ptcompare: stats: pages=%" PRIu64 " vmas=%" PRIu64
		" rereads=%" PRIu64 " pagemap_bytes=%" PRIu64
		" ptwalk_queries=%" PRIu64 " ptwalk_records=%" PRIu64
		" kpageflags_reads=%" PRIu64 " kpageflags_bytes=%" PRIu64
		" peak_rss_kib=%" PRIu64 " pagemap_us=%" PRIu64
		" ptwalk_us=%" PRIu64 " kpageflags_us=%" PRIu64
		" maps_us=%" PRIu64 " run_us=%" PRIu64 " jobs=%u interface=%s\n",
		sc->report.pages, sc->report.nr_vmas, sc->report.rereads,
		sc->ses.src.pagemap_bytes, sc->ses.src.walk_queries,
		sc->ses.src.walk_records, sc->wsrc.kpf_reads,
		sc->wsrc.kpf_bytes, self_peak_rss_kib(),
		sc->ses.src.pagemap_ns / 1000, sc->ses.src.walk_ns / 1000,
		sc->wsrc.kpf_ns / 1000, sc->maps_ns / 1000,
		(monotonic_ns() - sc->started_ns) / 1000,
		sc->jobs ? sc->nr_jobs : 0,
		endpoint_kind_name(sc->ses.ep.kind));
}
