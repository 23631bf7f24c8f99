// SPDX-License-Identifier: GPL-2.0
/* ptcompare --phys ADDR[-END]: the text report, docs/report.md. */
#include <inttypes.h>
#include "model/flag_names.h"
#include "module/ptwalk_names.h"
#include "report/format.h"
#include "report/page_attrs.h"
#include "report/phys_print.h"

static void print_mapping(FILE *f, const struct phys_view *v,
			  const struct phys_mapping *m)
{
	const struct phys_vma *vma = &v->vmas[m->vma];
	struct page_detail d = phys_page_detail(m);
	const char *level = ptwalk_level_name(m->level);
	char attrs[96];

	fprintf(f, "%7d %-16s 0x%-14" PRIx64 " 0x%-10" PRIx64 " %6" PRIu64
		" %-5s %-26s %s %s\n",
		(int)m->pid, v->procs[m->proc].comm, m->addr, m->pfn,
		m->pages, level ? level : "?",
		page_attrs_text(attrs, sizeof(attrs), &d), vma->perms,
		*vma->name ? vma->name : "[anon]");
}

static void note_unmapped(void *arg, uint64_t pfn, uint64_t pages)
{
	FILE *f = arg;

	fprintf(f, "not mapped by any process: frame%s 0x%" PRIx64, plural(pages), pfn);
	if (pages > 1)
		fprintf(f, "-0x%" PRIx64, pfn + pages - 1);
	fprintf(f, " (%" PRIu64 " page%s)\n", pages, plural(pages));
}

static void print_conflict(FILE *f, const struct phys_view *v,
			   const struct memtype_conflict *c)
{
	const struct phys_set *s = v->set;
	char types[128];

	flag_names_join(types, sizeof(types), c->memtypes, ptwalk_memtype_name,
			"?");
	fprintf(f, "memtype_conflict: frame%s 0x%" PRIx64, plural(c->pages),
		c->pfn);
	if (c->pages > 1)
		fprintf(f, "-0x%" PRIx64, c->pfn + c->pages - 1);
	fprintf(f, " mapped with different memory types (%s):\n", types);
	for (size_t i = 0; i < s->n; i++) {
		const struct phys_mapping *m = &s->m[i];
		const char *mt = ptwalk_memtype_name(m->memtype);

		if (!phys_overlaps(m, c->pfn, c->pages) ||
		    m->memtype == PTWALK_MEMTYPE_NONE)
			continue;
		fprintf(f, "  pid %d (%s) at 0x%" PRIx64 ": %s\n", (int)m->pid,
			v->procs[m->proc].comm,
			m->addr + ((c->pfn > m->pfn ? c->pfn - m->pfn : 0)
				   << s->page_shift),
			mt ? mt : "?");
	}
}

void phys_print_conflicts_text(FILE *f, const struct phys_view *v)
{
	for (size_t i = 0; i < v->nr_conflicts; i++)
		print_conflict(f, v, &v->conflicts[i]);
}

void phys_print_text(FILE *f, const struct phys_view *v)
{
	const struct phys_set *s = v->set;
	uint64_t pages = s->pfn_end - s->pfn_start, unmapped;
	unsigned int procs = 0;
	char name[256];
	pid_t last = 0;

	fprintf(f, "physical 0x%" PRIx64 "-0x%" PRIx64 ": frame%s 0x%" PRIx64,
		v->start, v->end, plural(pages), s->pfn_start);
	if (pages > 1)
		fprintf(f, "-0x%" PRIx64, s->pfn_end - 1);
	fprintf(f, " (%" PRIu64 " of %u KiB)%s%s\n", pages,
		(unsigned int)((1U << s->page_shift) >> 10),
		*phys_iomem_name(v, s->pfn_start, name, sizeof(name)) ? ": " : "",
		name);
	if (s->n) {
		fprintf(f, "%7s %-16s %-16s %-12s %6s %-5s %-26s %s\n", "PID",
			"COMM", "ADDRESS", "FRAME", "PAGES", "LEVEL",
			"MEMTYPE, PINNED, NODE", "VMA");
		for (size_t i = 0; i < s->n; i++) {
			print_mapping(f, v, &s->m[i]);
			if (s->m[i].pid != last)
				procs++;
			last = s->m[i].pid;
		}
	}
	if (s->dropped)
		fprintf(f, "%" PRIu64 " more mapping%s (%" PRIu64
			" page%s) not listed: at most %zu are kept; ask for a smaller range\n",
			s->dropped, plural(s->dropped), s->dropped_pages,
			plural(s->dropped_pages), s->max);
	phys_print_conflicts_text(f, v);
	if (phys_unmapped(s, note_unmapped, f, &unmapped))
		fprintf(f, "(out of memory listing the frames nobody maps)\n");
	fprintf(f, "%zu mapping%s in %u process%s; %u process%s scanned, %u without user memory, %u exited during the scan; %zu memtype conflict%s\n",
		s->n, plural(s->n), procs, procs == 1 ? "" : "es", v->scanned,
		v->scanned == 1 ? "" : "es", v->no_mm, v->exited,
		v->nr_conflicts, plural(v->nr_conflicts));
}
