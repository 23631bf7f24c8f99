// SPDX-License-Identifier: GPL-2.0
/* ptcompare --iommu --watch: the device's events, the mappings they make. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "engine/iommu_watch.h"
#include "model/array.h"

uint64_t iova_end(uint64_t iova, uint64_t size)
{
	return size > UINT64_MAX - iova ? UINT64_MAX : iova + size;
}

void iommu_watch_init(struct iommu_watch *w, uint64_t start, uint64_t last,
		      unsigned int page_shift)
{
	memset(w, 0, sizeof(*w));
	w->start = start;
	w->last = last;
	w->page_shift = page_shift;
}

void iommu_watch_free(struct iommu_watch *w)
{
	free(w->live);
	free(w->pids);
	w->live = NULL;
	w->pids = NULL;
	w->nr_live = w->cap_live = w->nr_pids = w->cap_pids = 0;
}

bool iommu_watch_tied(const struct iommu_watch *w, int32_t pid)
{
	for (size_t i = 0; i < w->nr_pids; i++)
		if (w->pids[i] == pid)
			return true;
	return false;
}

int iommu_watch_tie(struct iommu_watch *w, int32_t pid)
{
	int32_t *grown;

	if (iommu_watch_tied(w, pid))
		return 0;
	grown = array_grow(w->pids, &w->cap_pids, w->nr_pids + 1,
			   sizeof(*w->pids), 8, 0);
	if (!grown)
		return -ENOMEM;
	w->pids = grown;
	w->pids[w->nr_pids++] = pid;
	return 0;
}

/* The bytes an event covers: an unmap what it unmapped, else what it asked. */
static uint64_t event_bytes(const struct ptwalk_iommu_event *e)
{
	return e->kind == PTWALK_EVENT_UNMAP && e->done ? e->done : e->size;
}

bool iommu_watch_in_range(const struct iommu_watch *w,
			  const struct ptwalk_iommu_event *e)
{
	uint64_t bytes = event_bytes(e);

	if (e->kind != PTWALK_EVENT_MAP && e->kind != PTWALK_EVENT_UNMAP)
		return false;
	return bytes && e->iova <= w->last &&
	       iova_end(e->iova, bytes) > w->start;
}

bool iommu_watch_keep(const struct iommu_watch *w,
		      const struct ptwalk_iommu_event *e)
{
	return e->kind == PTWALK_EVENT_DROPPED ||
	       (iommu_watch_in_range(w, e) && iommu_watch_tied(w, e->pid));
}

/* The part of m from iova on (iova inside m). */
static struct iova_map map_from(const struct iova_map *m, uint64_t iova,
				uint64_t end, unsigned int shift)
{
	struct iova_map r = { iova, end - iova, m->pfn };

	if (m->pfn != PTWALK_PFN_NONE)
		r.pfn = m->pfn + ((iova - m->iova) >> shift);
	return r;
}

/* The first live mapping ending after iova (nr_live if none). */
static size_t live_after(const struct iommu_watch *w, uint64_t iova)
{
	size_t lo = 0, hi = w->nr_live;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct iova_map *m = &w->live[mid];

		if (iova_end(m->iova, m->size) > iova)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The frame of iova in m (iova inside m). */
static uint64_t frame_in(const struct iova_map *m, uint64_t iova,
			 unsigned int shift)
{
	if (m->pfn == PTWALK_PFN_NONE)
		return PTWALK_PFN_NONE;
	return m->pfn + (((iova - m->iova) & ~((1ULL << shift) - 1)) >> shift);
}

/* The live mapping holding iova, or NULL. */
static const struct iova_map *live_at(const struct iommu_watch *w,
				      uint64_t iova)
{
	size_t i = live_after(w, iova);

	return i < w->nr_live && w->live[i].iova <= iova ? &w->live[i] : NULL;
}

uint64_t iommu_watch_frame(const struct iommu_watch *w, uint64_t iova)
{
	const struct iova_map *m = live_at(w, iova);

	return m ? frame_in(m, iova, w->page_shift) : PTWALK_PFN_NONE;
}

/* The newest IOVA map unmapped that held iova, or NULL. */
static const struct iova_map *gone_at(const struct iommu_watch *w,
				      uint64_t iova)
{
	for (size_t k = 1; k <= w->nr_gone; k++) {
		const struct iova_map *m =
			&w->gone[(w->next_gone + IOMMU_WATCH_GONE_MAX - k) %
				 IOMMU_WATCH_GONE_MAX];

		if (iova >= m->iova && iova < iova_end(m->iova, m->size))
			return m;
	}
	return NULL;
}

static void remember_gone(struct iommu_watch *w, struct iova_map m)
{
	w->gone[w->next_gone] = m;
	w->next_gone = (w->next_gone + 1) % IOMMU_WATCH_GONE_MAX;
	if (w->nr_gone < IOMMU_WATCH_GONE_MAX)
		w->nr_gone++;
}

static int live_insert(struct iommu_watch *w, size_t at, struct iova_map m)
{
	struct iova_map *grown = array_grow(w->live, &w->cap_live,
					    w->nr_live + 1, sizeof(*w->live),
					    64, 0);

	if (!grown)
		return -ENOMEM;
	w->live = grown;
	memmove(&w->live[at + 1], &w->live[at],
		(w->nr_live - at) * sizeof(*w->live));
	w->live[at] = m;
	w->nr_live++;
	return 0;
}

/*
 * Takes [a, b) out of the live mappings, each part taken remembered as
 * gone: 0, or -ENOMEM (a mapping split in two needs room for the second).
 */
static int punch(struct iommu_watch *w, uint64_t a, uint64_t b)
{
	size_t i = live_after(w, a), first_whole = 0, nr_whole = 0;
	unsigned int shift = w->page_shift;

	while (i < w->nr_live && w->live[i].iova < b) {
		struct iova_map m = w->live[i];
		uint64_t end = iova_end(m.iova, m.size);
		uint64_t cut = m.iova > a ? m.iova : a;

		remember_gone(w, map_from(&m, cut, end < b ? end : b, shift));
		if (m.iova < a && end > b) {
			/* the middle: a left part stays, a right part follows */
			w->live[i].size = a - m.iova;
			return live_insert(w, i + 1, map_from(&m, b, end, shift));
		}
		if (m.iova < a) {
			w->live[i].size = a - m.iova;
		} else if (end > b) {
			w->live[i] = map_from(&m, b, end, shift);
			break;
		} else {
			if (!nr_whole)
				first_whole = i;
			nr_whole++;
		}
		i++;
	}
	if (nr_whole) {
		memmove(&w->live[first_whole], &w->live[first_whole + nr_whole],
			(w->nr_live - first_whole - nr_whole) *
			sizeof(*w->live));
		w->nr_live -= nr_whole;
	}
	return 0;
}

int iommu_watch_apply(struct iommu_watch *w,
		      const struct ptwalk_iommu_event *e,
		      struct iommu_watch_seen *out)
{
	uint64_t bytes = event_bytes(e), end = iova_end(e->iova, bytes);
	struct iova_map m = { e->iova, end - e->iova, e->pfn };
	const struct iova_map *before;
	int err;

	out->old_pfn = PTWALK_PFN_NONE;
	out->remap = false;
	if ((e->kind != PTWALK_EVENT_MAP && e->kind != PTWALK_EVENT_UNMAP) ||
	    !m.size)
		return 0;
	before = live_at(w, e->iova);
	if (e->kind == PTWALK_EVENT_UNMAP) {
		if (before)
			out->old_pfn = frame_in(before, e->iova, w->page_shift);
		return e->done ? punch(w, m.iova, end) : 0;
	}
	/* a map over a live mapping replaces it; else it may follow an unmap */
	if (!before)
		before = gone_at(w, e->iova);
	if (before) {
		out->remap = true;
		out->old_pfn = frame_in(before, e->iova, w->page_shift);
	}
	err = punch(w, m.iova, end);
	if (err)
		return err;
	if (w->nr_live >= IOMMU_WATCH_LIVE_MAX) {
		w->not_kept++;
		return 0;
	}
	return live_insert(w, live_after(w, m.iova), m);
}
