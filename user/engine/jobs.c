// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "engine/jobs.h"

void job_cursor_init(struct job_cursor *c, const struct compare_piece *pieces,
		     size_t n, size_t batch, unsigned int jobs,
		     unsigned int page_shift)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < n; i++)
		pages += (pieces[i].end - pieces[i].start) >> page_shift;
	memset(c, 0, sizeof(*c));
	c->shift = page_shift;
	c->pieces = pieces;
	c->n = n;
	c->batch = batch;
	c->target = jobs ? (pages + jobs - 1) / jobs : pages;
	if (c->target > batch)
		c->target = batch;
	if (!c->target)
		c->target = 1;
	c->addr = n ? pieces[0].start : 0;
}

/*
 * The furthest cut of piece p after addr and at most limit: a multiple of
 * the batch from the piece's start, or its end; addr if none.
 */
static uint64_t cut_at(const struct job_cursor *c, const struct compare_piece *p,
		       uint64_t addr, uint64_t limit)
{
	uint64_t step = (uint64_t)c->batch * (1ULL << c->shift), cut;

	if (limit >= p->end)
		return p->end;
	cut = p->start + (limit - p->start) / step * step;
	return cut > addr ? cut : addr;
}

bool job_next(struct job_cursor *c, struct job_item *it)
{
	uint64_t pages = 0;

	if (c->piece < c->n && c->addr >= c->pieces[c->piece].end) {
		c->piece++;
		if (c->piece < c->n)
			c->addr = c->pieces[c->piece].start;
	}
	if (c->piece >= c->n)
		return false;
	it->first = it->last = c->piece;
	it->start = c->addr;
	for (;;) {
		const struct compare_piece *p = &c->pieces[c->piece];
		uint64_t left = (c->target - pages) * (1ULL << c->shift);
		uint64_t end = cut_at(c, p, c->addr, c->addr + left);

		if (end == c->addr && !pages)	/* take one batch at least */
			end = cut_at(c, p, c->addr, c->addr +
				     (uint64_t)c->batch * (1ULL << c->shift));
		if (end == c->addr)
			break;			/* the item ends before p */
		it->last = c->piece;
		it->end = end;
		pages += (end - c->addr) / (1ULL << c->shift);
		c->addr = end;
		if (end < p->end || pages >= c->target ||
		    c->piece + 1 == c->n)
			break;
		c->piece++;
		c->addr = c->pieces[c->piece].start;
	}
	return true;
}

size_t job_parts(const struct job_item *it)
{
	return it->last - it->first + 1;
}

struct compare_piece job_part(const struct job_item *it,
			      const struct compare_piece *pieces, size_t i)
{
	struct compare_piece p = pieces[it->first + i];

	if (i == 0)
		p.start = it->start;
	if (it->first + i == it->last)
		p.end = it->end;
	return p;
}

/* Adds the summary of a part of a piece to that of the parts before it. */
static void compare_summary_add(struct compare_summary *sum,
				const struct compare_summary *part)
{
	for (int i = 0; i < NR_CLASSES; i++)
		sum->pages[i] += part->pages[i];
	huge_add(sum, part);
	sum->rereads += part->rereads;
	if (!sum->have_vm_flags && part->have_vm_flags) {
		sum->vm_flags = part->vm_flags;
		sum->have_vm_flags = 1;
	}
}

void job_joiner_init(struct job_joiner *j, range_emit_fn emit, void *arg,
		     unsigned int page_shift)
{
	memset(&j->sum, 0, sizeof(j->sum));
	range_merger_init(&j->m, emit, arg, page_shift);
}

void job_joiner_range(struct job_joiner *j, const struct verdict_range *r)
{
	struct page_verdict v = {
		.addr = r->start, .cls = r->cls, .level = r->level,
		.walk_pfn = r->walk_pfn, .pagemap_pfn = r->pagemap_pfn,
		.detail = r->detail,
	};

	/*
	 * Ranges of one part never continue each other (the engine's merger
	 * joined those); the first of a part continues the last of the part
	 * before exactly when one job would have merged them.
	 */
	range_merger_push_run(&j->m, &v, r->pages);
}

void job_joiner_part(struct job_joiner *j, const struct compare_summary *part)
{
	compare_summary_add(&j->sum, part);
}

void job_joiner_end(struct job_joiner *j, struct compare_summary *sum)
{
	range_merger_flush(&j->m);
	*sum = j->sum;
}
