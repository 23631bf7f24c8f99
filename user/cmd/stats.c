// SPDX-License-Identifier: GPL-2.0
#include "cmd/stats.h"
#include "report/stats_line.h"

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

void stats_print(const struct scan *sc, FILE *f)
{
	struct scan_stats st = {
		.pages = sc->report.pages, .vmas = sc->report.nr_vmas,
		.rereads = sc->report.rereads,
		.pagemap_bytes = sc->ses.src.pagemap_bytes,
		.walk_queries = sc->ses.src.walk_queries,
		.walk_records = sc->ses.src.walk_records,
		.kpf_reads = sc->wsrc.kpf_reads, .kpf_bytes = sc->wsrc.kpf_bytes,
		.peak_rss_kib = self_peak_rss_kib(),
		.pagemap_ns = sc->ses.src.pagemap_ns,
		.walk_ns = sc->ses.src.walk_ns, .kpf_ns = sc->wsrc.kpf_ns,
		.maps_ns = sc->maps_ns,
		.run_ns = monotonic_ns() - sc->started_ns,
		.jobs = sc->jobs ? sc->nr_jobs : 0,
		.interface = endpoint_kind_name(sc->ses.ep.kind),
	};

	scan_stats_print(f, &st);
}
