// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "engine/window.h"

void window_init(struct pagemap_window *w, uint64_t *buf, size_t cap,
		 unsigned int page_shift)
{
	memset(w, 0, sizeof(*w));
	w->buf = buf;
	w->cap = cap;
	w->shift = page_shift;
}

void window_plan(struct pagemap_window *w, const struct compare_piece *pieces,
		 size_t n)
{
	w->pieces = pieces;
	w->nr_pieces = n;
	w->cur = 0;
	w->n = 0;
}

size_t window_reach(struct pagemap_window *w, uint64_t addr)
{
	const struct compare_piece *p = w->pieces;
	uint64_t limit = addr + (uint64_t)w->cap * (1ULL << w->shift), end;
	size_t i;

	while (w->cur < w->nr_pieces && p[w->cur].end <= addr)
		w->cur++;
	i = w->cur;
	if (i == w->nr_pieces || addr < p[i].start)
		return 0;
	end = p[i].end;
	while (end < limit && i + 1 < w->nr_pieces &&
	       p[i + 1].start >= end &&
	       (p[i + 1].start - end) / (1ULL << w->shift) <= WINDOW_GAP_PAGES &&
	       p[i + 1].start < limit)
		end = p[++i].end;
	if (end > limit)
		end = limit;
	return (size_t)((end - addr) / (1ULL << w->shift));
}

int window_read(struct pagemap_window *w, pagemap_read_fn read, void *ctx,
		uint64_t addr, size_t n, uint64_t *out)
{
	while (n) {
		uint64_t held_end = w->start + (uint64_t)w->n * (1ULL << w->shift);
		size_t k, off;
		int err;

		if (addr < w->start || addr >= held_end) {
			size_t reach = window_reach(w, addr);

			if (!reach)	/* outside the plan: straight through */
				return read(ctx, addr, n, out);
			w->n = 0;
			err = read(ctx, addr, reach, w->buf);
			if (err)
				return err;
			w->start = addr;
			w->n = reach;
			continue;
		}
		off = (size_t)((addr - w->start) / (1ULL << w->shift));
		k = w->n - off < n ? w->n - off : n;
		memcpy(out, w->buf + off, k * sizeof(*out));
		out += k;
		n -= k;
		addr += k * (1ULL << w->shift);
	}
	return 0;
}

const uint64_t *window_peek(struct pagemap_window *w, pagemap_read_fn read,
			    void *ctx, uint64_t addr, size_t n, int *err)
{
	uint64_t held_end = w->start + (uint64_t)w->n * (1ULL << w->shift);
	size_t reach;

	*err = 0;
	if (addr >= w->start && addr < held_end) {
		size_t off = (size_t)((addr - w->start) / (1ULL << w->shift));

		return w->n - off >= n ? w->buf + off : NULL;
	}
	reach = window_reach(w, addr);
	if (!reach || reach < n)
		return NULL;
	w->n = 0;
	*err = read(ctx, addr, reach, w->buf);
	if (*err)
		return NULL;
	w->start = addr;
	w->n = reach;
	return w->buf;
}
