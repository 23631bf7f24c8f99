// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "engine/phys_map.h"

void phys_set_init(struct phys_set *s, uint64_t start, uint64_t end,
		   unsigned int page_shift, size_t max)
{
	memset(s, 0, sizeof(*s));
	s->pfn_start = start >> page_shift;
	s->pfn_end = end >> page_shift;
	s->page_shift = page_shift;
	s->max = max;
}

void phys_set_free(struct phys_set *s)
{
	free(s->m);
	s->m = NULL;
	s->n = s->cap = 0;
}

bool phys_clip(const struct phys_set *s, const struct ptwalk_record_ext *r,
	       pid_t pid, uint32_t proc, uint32_t vma,
	       struct phys_mapping *out)
{
	const struct ptwalk_record *rec = &r->rec;
	uint64_t lo, hi;

	if (rec->kind != PTWALK_KIND_PRESENT || rec->pfn == PTWALK_PFN_NONE ||
	    !rec->nr_pages || rec->pfn > UINT64_MAX - rec->nr_pages)
		return false;
	lo = rec->pfn > s->pfn_start ? rec->pfn : s->pfn_start;
	hi = rec->pfn + rec->nr_pages < s->pfn_end ?
	     rec->pfn + rec->nr_pages : s->pfn_end;
	if (lo >= hi)
		return false;
	*out = (struct phys_mapping){
		.pid = pid, .proc = proc, .vma = vma,
		.addr = rec->start + ((lo - rec->pfn) << s->page_shift),
		.pfn = lo, .pages = hi - lo,
		.vm_flags = rec->vm_flags, .flags = rec->flags,
		.node = r->node, .level = rec->level, .memtype = rec->memtype,
	};
	return true;
}

int phys_add(struct phys_set *s, const struct ptwalk_record_ext *r, pid_t pid,
	     uint32_t proc, uint32_t vma)
{
	struct phys_mapping m;

	if (!phys_clip(s, r, pid, proc, vma, &m))
		return 0;
	if (s->n == s->max) {
		s->dropped++;
		s->dropped_pages += m.pages;
		return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct phys_mapping *grown;

		if (cap > s->max)
			cap = s->max;
		grown = realloc(s->m, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		s->m = grown;
		s->cap = cap;
	}
	s->m[s->n++] = m;
	return 0;
}

bool phys_overlaps(const struct phys_mapping *m, uint64_t pfn, uint64_t pages)
{
	return m->pfn < pfn + pages && pfn < m->pfn + m->pages;
}

struct span {
	uint64_t lo, hi;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int phys_unmapped(const struct phys_set *s,
		  void (*fn)(void *arg, uint64_t pfn, uint64_t pages),
		  void *arg, uint64_t *total)
{
	uint64_t at = s->pfn_start;
	struct span *sp = NULL;
	size_t i;

	*total = 0;
	if (s->n) {
		sp = malloc(s->n * sizeof(*sp));
		if (!sp)
			return -ENOMEM;
	}
	for (i = 0; i < s->n; i++)
		sp[i] = (struct span){ s->m[i].pfn, s->m[i].pfn + s->m[i].pages };
	qsort(sp, s->n, sizeof(*sp), span_cmp);
	for (i = 0; i <= s->n && at < s->pfn_end; i++) {
		uint64_t next = i < s->n ? sp[i].lo : s->pfn_end;

		if (next > at) {
			if (fn)
				fn(arg, at, next - at);
			*total += next - at;
		}
		if (i < s->n && sp[i].hi > at)
			at = sp[i].hi;
	}
	free(sp);
	return 0;
}

/* One end of a mapping, for the sweep over frames. */
struct edge {
	uint64_t pfn;
	int delta;		/* +1 where a mapping starts, -1 past its end */
	uint8_t memtype;
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

/* Memory types are small numbers (enum ptwalk_memtype); a mask holds them. */
#define MEMTYPE_SLOTS 32

long memtype_conflicts(const struct phys_set *s, struct memtype_conflict **out)
{
	struct memtype_conflict *c = NULL;
	unsigned int count[MEMTYPE_SLOTS] = { 0 };
	size_t n = 0, nr_c = 0, cap_c = 0, i;
	struct edge *e;

	*out = NULL;
	if (!s->n)
		return 0;
	e = malloc(2 * s->n * sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		const struct phys_mapping *m = &s->m[i];

		if (m->memtype == PTWALK_MEMTYPE_NONE ||
		    m->memtype >= MEMTYPE_SLOTS)
			continue;
		e[n++] = (struct edge){ m->pfn, 1, m->memtype };
		e[n++] = (struct edge){ m->pfn + m->pages, -1, m->memtype };
	}
	qsort(e, n, sizeof(*e), edge_cmp);
	/*
	 * Between two consecutive edge positions the same mappings cover
	 * every frame: one run, in conflict when their types differ.
	 */
	for (i = 0; i < n;) {
		uint64_t at = e[i].pfn;
		uint32_t mask = 0;

		for (; i < n && e[i].pfn == at; i++)
			count[e[i].memtype] += e[i].delta;
		for (unsigned int t = 0; t < MEMTYPE_SLOTS; t++)
			if (count[t])
				mask |= 1U << t;
		if (i == n || (mask & (mask - 1)) == 0)
			continue;
		if (nr_c == cap_c) {
			size_t cap = cap_c ? cap_c * 2 : 16;
			struct memtype_conflict *grown =
				realloc(c, cap * sizeof(*grown));

			if (!grown) {
				free(c);
				free(e);
				return -ENOMEM;
			}
			c = grown;
			cap_c = cap;
		}
		c[nr_c++] = (struct memtype_conflict){
			.pfn = at, .pages = e[i].pfn - at, .memtypes = mask,
		};
	}
	free(e);
	*out = c;
	return (long)nr_c;
}
