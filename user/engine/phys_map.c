// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/array.h"
#include "engine/phys_map.h"

void phys_set_init_runs(struct phys_set *s, const struct frame_run *runs,
			 size_t n, unsigned int page_shift, size_t max)
{
	memset(s, 0, sizeof(*s));
	s->runs = runs;
	s->nr_runs = n;
	s->pfn_start = runs[0].pfn;
	s->pfn_end = runs[n - 1].pfn + runs[n - 1].pages;
	s->page_shift = page_shift;
	s->max = max;
}

void phys_set_free(struct phys_set *s)
{
	free(s->m);
	s->m = NULL;
	s->n = s->cap = 0;
}

/* The part of present record r whose frames lie in [lo, hi), as *out. */
static bool clip(const struct ptwalk_record_ext *r, uint64_t lo, uint64_t hi,
		 unsigned int shift, struct phys_mapping *out)
{
	const struct ptwalk_record *rec = &r->rec;

	if (rec->pfn > lo)
		lo = rec->pfn;
	if (rec->pfn + rec->nr_pages < hi)
		hi = rec->pfn + rec->nr_pages;
	if (lo >= hi)
		return false;
	*out = (struct phys_mapping){
		.addr = rec->start + ((lo - rec->pfn) << shift),
		.pfn = lo, .pages = hi - lo,
		.vm_flags = rec->vm_flags, .flags = rec->flags,
		.node = r->node, .level = rec->level, .memtype = rec->memtype,
	};
	return true;
}

static bool maps_frames(const struct ptwalk_record *rec)
{
	return rec->kind == PTWALK_KIND_PRESENT &&
	       rec->pfn != PTWALK_PFN_NONE && rec->nr_pages &&
	       rec->pfn <= UINT64_MAX - rec->nr_pages;
}

static int keep(struct phys_set *s, const struct phys_mapping *m)
{
	if (s->n == s->max) {
		s->dropped++;
		s->dropped_pages += m->pages;
		return 0;
	}
	struct phys_mapping *grown = array_grow(s->m, &s->cap, s->n + 1, sizeof(*grown), 64, s->max);
	if (!grown)
		return -ENOMEM;
	s->m = grown;
	s->m[s->n++] = *m;
	return 0;
}

int phys_add(struct phys_set *s, const struct ptwalk_record_ext *r, pid_t pid,
	     uint32_t proc, uint32_t vma)
{
	const struct ptwalk_record *rec = &r->rec;
	size_t lo = 0, hi = s->nr_runs;

	if (!maps_frames(rec))
		return 0;
	/* the first run ending after the record's first frame */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->runs[mid].pfn + s->runs[mid].pages <= rec->pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nr_runs && s->runs[lo].pfn < rec->pfn + rec->nr_pages;
	     lo++) {
		const struct frame_run *sp = &s->runs[lo];
		struct phys_mapping m;
		int err;

		if (!clip(r, sp->pfn, sp->pfn + sp->pages, s->page_shift, &m))
			continue;
		m.pid = pid;
		m.proc = proc;
		m.vma = vma;
		err = keep(s, &m);
		if (err)
			return err;
	}
	return 0;
}

bool phys_overlaps(const struct phys_mapping *m, uint64_t pfn, uint64_t pages)
{
	return m->pfn < pfn + pages && pfn < m->pfn + m->pages;
}

struct extent {
	uint64_t lo, hi;
};

static int extent_cmp(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int phys_unmapped(const struct phys_set *s,
		  void (*fn)(void *arg, uint64_t pfn, uint64_t pages),
		  void *arg, uint64_t *total)
{
	struct extent *sp = NULL;
	size_t i, k;

	*total = 0;
	if (s->n) {
		sp = malloc(s->n * sizeof(*sp));
		if (!sp)
			return -ENOMEM;
	}
	for (i = 0; i < s->n; i++)
		sp[i] = (struct extent){ s->m[i].pfn, s->m[i].pfn + s->m[i].pages };
	if (sp)
		qsort(sp, s->n, sizeof(*sp), extent_cmp);
	/* mappings lie inside the runs: one pass over both, in order */
	for (k = 0, i = 0; k < s->nr_runs; k++) {
		uint64_t at = s->runs[k].pfn;
		uint64_t end = at + s->runs[k].pages;

		for (; i < s->n && sp[i].lo < end; i++) {
			if (sp[i].lo > at) {
				if (fn)
					fn(arg, at, sp[i].lo - at);
				*total += sp[i].lo - at;
			}
			if (sp[i].hi > at)
				at = sp[i].hi;
		}
		if (end > at) {
			if (fn)
				fn(arg, at, end - at);
			*total += end - at;
		}
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

/*
 * The memory type t counts as in a conflict: arm64's tagged Normal memory
 * is Normal write-back memory whose MTE tags are checked, the same
 * attributes for the caches.
 */
static uint8_t memtype_same_as(uint8_t t)
{
	return t == PTWALK_MEMTYPE_NORMAL_TAGGED ? PTWALK_MEMTYPE_NORMAL : t;
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

		uint8_t t = memtype_same_as(m->memtype);

		if (t == PTWALK_MEMTYPE_NONE || t >= MEMTYPE_SLOTS)
			continue;
		e[n++] = (struct edge){ m->pfn, 1, t };
		e[n++] = (struct edge){ m->pfn + m->pages, -1, t };
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
		struct memtype_conflict *grown = array_grow(c, &cap_c, nr_c + 1, sizeof(*grown), 16, 0);
		if (!grown) {
			free(c);
			free(e);
			return -ENOMEM;
		}
		c = grown;
		c[nr_c++] = (struct memtype_conflict){
			.pfn = at, .pages = e[i].pfn - at, .memtypes = mask,
		};
	}
	free(e);
	*out = c;
	return (long)nr_c;
}

/* Whether memory type t is one every frame has unless mapped otherwise. */
static bool memtype_is_default(unsigned int t)
{
	return t == PTWALK_MEMTYPE_WB || t == PTWALK_MEMTYPE_NORMAL ||
	       t == PTWALK_MEMTYPE_NORMAL_TAGGED || t == PTWALK_MEMTYPE_PMA;
}

void suspects_init(struct memtype_suspects *s, size_t max)
{
	memset(s, 0, sizeof(*s));
	s->max = max;
}

void suspects_free(struct memtype_suspects *s)
{
	free(s->run);
	s->run = NULL;
	s->n = s->cap = 0;
}

static int frame_run_cmp(const void *a, const void *b)
{
	const struct frame_run *x = a, *y = b;

	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

void suspects_finish(struct memtype_suspects *s)
{
	size_t out = 0;

	if (s->n)
		qsort(s->run, s->n, sizeof(*s->run), frame_run_cmp);
	for (size_t i = 0; i < s->n; i++) {
		struct frame_run *last = out ? &s->run[out - 1] : NULL;

		if (last && s->run[i].pfn <= last->pfn + last->pages) {
			uint64_t end = s->run[i].pfn + s->run[i].pages;

			if (end > last->pfn + last->pages)
				last->pages = end - last->pfn;
		} else {
			s->run[out++] = s->run[i];
		}
	}
	s->n = out;
}

int suspects_add(struct memtype_suspects *s, uint64_t pfn, uint64_t pages,
		 unsigned int memtype)
{
	if (memtype == PTWALK_MEMTYPE_NONE || memtype_is_default(memtype) ||
	    !pages)
		return 0;
	if (s->n == s->max)
		suspects_finish(s);	/* merging may make room */
	if (s->n == s->max) {
		s->dropped_pages += pages;
		return 0;
	}
	struct frame_run *grown = array_grow(s->run, &s->cap, s->n + 1, sizeof(*grown), 16,
			   s->max);
	if (!grown)
		return -ENOMEM;
	s->run = grown;
	s->run[s->n++] = (struct frame_run){ pfn, pages };
	return 0;
}
