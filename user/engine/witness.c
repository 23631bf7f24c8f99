// SPDX-License-Identifier: GPL-2.0
/*
 * The witness stage.  kpageflags is read per batch of ranges, not per
 * page: each checked range is one run of contiguous frames (ranges only
 * merge pages whose frames continue), the runs are sorted by frame, and
 * runs close together are read by one pread of bounded size.  A page
 * that contradicts ptwalk is checked again: a fresh ptwalk query of its
 * pages, then a fresh kpageflags read of the frames that query names; a
 * page freed or reused in between maps elsewhere or nothing by then.
 * Only pages that contradict in every round are reported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/classify.h"
#include "engine/kpageflags.h"
#include "engine/witness.h"
#include "model/page.h"
#include "module/ptwalk_abi.h"
#include "parse/record.h"

#define RECHECK_RECS	64

struct kpf_run {
	uint64_t pfn, n, done;	/* frames pfn .. pfn+n, done judged */
	size_t range;		/* index in the batch */
	bool ram;		/* the first frame is in System RAM */
};

struct witness {
	const struct witness_io *io;
	struct page_geom geom;	/* the kernel's page and leaf sizes */
	struct witness_totals *totals;
	witnessed_emit_fn emit;
	void *arg;
	struct verdict_range *held;
	struct witness_note *notes;
	uint64_t *bad_last;	/* last contradicting page of each range */
	struct kpf_run *runs;
	size_t n, nr_runs;
	uint64_t *kpf;		/* WITNESS_KPF_PREAD entries */
	struct ptwalk_record recs[RECHECK_RECS];
	int err;		/* of a re-check, sticky */
	bool names_loaded;	/* io->load_names() was called */
	/* marks: token of mark i, passed on after ranges [0, mark_at[i]) */
	witness_mark_fn mark;
	uint64_t mark_token[WITNESS_MARKS];
	size_t mark_at[WITNESS_MARKS];
	size_t nr_marks;
};

struct witness *witness_new(const struct witness_io *io,
			    const struct page_geom *geom,
			    struct witness_totals *totals,
			    witnessed_emit_fn emit, void *arg)
{
	struct witness *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->io = io;
	w->geom = *geom;
	w->totals = totals;
	w->emit = emit;
	w->arg = arg;
	w->held = calloc(WITNESS_BATCH, sizeof(*w->held));
	w->notes = calloc(WITNESS_BATCH, sizeof(*w->notes));
	w->bad_last = calloc(WITNESS_BATCH, sizeof(*w->bad_last));
	w->runs = calloc(WITNESS_BATCH, sizeof(*w->runs));
	w->kpf = calloc(WITNESS_KPF_PREAD, sizeof(*w->kpf));
	if (!w->held || !w->notes || !w->bad_last || !w->runs || !w->kpf) {
		witness_free(w);
		return NULL;
	}
	return w;
}

void witness_free(struct witness *w)
{
	if (!w)
		return;
	free(w->held);
	free(w->notes);
	free(w->bad_last);
	free(w->runs);
	free(w->kpf);
	free(w);
}

void witness_totals_restart(struct witness_totals *t)
{
	struct witness_totals kept = *t;

	memset(t, 0, sizeof(*t));
	t->iomem = kept.iomem;
	memcpy(t->iomem_note, kept.iomem_note, sizeof(t->iomem_note));
	memcpy(t->kpf_note, kept.kpf_note, sizeof(t->kpf_note));
}

static bool kpf_on(const struct witness *w)
{
	return w->io->read_kpf && !w->totals->kpf_note[0];
}

static const struct iomem *names(struct witness *w)
{
	const struct iomem *m;

	if (!w->names_loaded) {
		w->names_loaded = true;
		if (w->io->load_names)
			w->io->load_names(w->io->ctx, w->totals);
	}
	m = w->totals->iomem;

	return m && !m->zeroed ? m : NULL;
}

static bool frame_in_ram(struct witness *w, uint64_t pfn)
{
	const struct iomem *m = names(w);

	/* unknown: NOPAGE is then not held against ptwalk */
	return m && iomem_is_ram(m, iomem_find(m, pfn << w->geom.shift));
}

/* Whether @addr is the first page of its huge leaf (a contiguous group whole). */
static bool leaf_head(const struct witness *w, uint8_t level, uint32_t flags,
		      uint64_t addr)
{
	if (level == PTWALK_LEVEL_PTE && !(flags & PTWALK_F_CONT))
		return false;
	return !(addr & (geom_leaf_size(&w->geom, level, flags) - 1));
}

/* One page's kpageflags against what ptwalk said; into note. */
static void judge(struct witness_note *note, uint64_t *bad_last,
		  const struct kpf_expect *e, uint64_t addr, uint64_t pfn,
		  uint64_t kpf)
{
	unsigned int broken = kpf_check(e, kpf);

	note->kpf_pages++;
	note->kpf_union |= kpf & KPF_SHOWN;
	if (!broken)
		return;
	if (!note->bad_pages) {
		note->bad_addr = addr;
		note->bad_pfn = pfn;
		note->bad_kpf = kpf;
	}
	note->bad_pages++;
	note->bad_rules |= broken;
	*bad_last = addr;
}

static void note_init(struct witness *w, const struct verdict_range *vr,
		      struct witness_note *note)
{
	const struct iomem *m;
	uint32_t f = vr->detail.walk.flags;
	bool present = vr->detail.walk_kind == PTWALK_KIND_PRESENT &&
		       vr->walk_pfn != NO_PFN;

	memset(note, 0, sizeof(*note));
	note->iomem = IOMEM_NONE;
	note->named = present && (vr->cls == CLASS_PFNMAP_HIDDEN ||
				  vr->level == PTWALK_LEVEL_PMD ||
				  vr->level == PTWALK_LEVEL_PUD ||
				  (f & PTWALK_F_COMPOUND));
	note->struct_page = f & PTWALK_F_PFN_VALID;
	/* a mismatch is reported as such; its frame is not ptwalk's for sure */
	note->checked = present && kpf_on(w) && kpf_applies(f) &&
			vr->cls != CLASS_MISMATCH;
	/*
	 * Checked ranges too, unnamed: a contradiction (found on checked
	 * ranges only) is reported with the name.  Only these are ever
	 * shown with one.
	 */
	if ((note->named || note->checked) && (m = names(w)))
		note->iomem = iomem_find(m, vr->walk_pfn << w->geom.shift);
}

void witness_range(const struct verdict_range *vr, void *arg)
{
	struct witness *w = arg;

	if (w->n == WITNESS_BATCH)
		witness_flush(w);
	w->held[w->n++] = *vr;
}

static int by_pfn(const void *a, const void *b)
{
	const struct kpf_run *x = a, *y = b;

	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

static void kpf_failed(struct witness *w, int err)
{
	snprintf(w->totals->kpf_note, sizeof(w->totals->kpf_note),
		 "reading /proc/kpageflags failed: %s", strerror(-err));
}

/* Judges frames [from, to) of run r, whose kpageflags start at base. */
static void judge_run(struct witness *w, struct kpf_run *r, uint64_t base,
		      size_t got, uint64_t to)
{
	const struct verdict_range *vr = &w->held[r->range];
	struct kpf_expect e = {
		.walk_flags = vr->detail.walk.flags,
		.vm_flags = vr->detail.walk.vm_flags,
		.level = vr->level,
		.system_ram = r->ram,
	};

	for (; r->done < r->n && r->pfn + r->done < to; r->done++) {
		uint64_t pfn = r->pfn + r->done;
		uint64_t addr = vr->start + r->done * geom_page_size(&w->geom);

		if (pfn - base >= got)
			continue;	/* beyond what kpageflags describes */
		e.leaf_head = leaf_head(w, vr->level, vr->detail.walk.flags, addr);
		judge(&w->notes[r->range], &w->bad_last[r->range], &e, addr,
		      pfn, w->kpf[pfn - base]);
	}
}

/* First pass: every checked range's frames, in few preads. */
static void check_runs(struct witness *w)
{
	size_t i = 0;

	qsort(w->runs, w->nr_runs, sizeof(*w->runs), by_pfn);
	while (i < w->nr_runs && kpf_on(w)) {
		struct kpf_run *r = &w->runs[i];
		uint64_t start = r->pfn + r->done, end, left = r->n - r->done;
		size_t k;
		ssize_t got;

		if (!left) {
			i++;
			continue;
		}
		end = start + (left < WITNESS_KPF_PREAD ? left :
						      WITNESS_KPF_PREAD);
		/* later runs that fit in the same pread join this read */
		for (k = i + 1; k < w->nr_runs; k++) {
			const struct kpf_run *q = &w->runs[k];

			if (q->done)
				continue;	/* read with an earlier pread */
			if (q->pfn > end + WITNESS_KPF_GAP ||
			    q->pfn + q->n > start + WITNESS_KPF_PREAD)
				break;
			if (q->pfn + q->n > end)
				end = q->pfn + q->n;
		}
		got = w->io->read_kpf(w->io->ctx, start, (size_t)(end - start),
				      w->kpf);
		if (got < 0) {
			kpf_failed(w, (int)got);
			return;
		}
		judge_run(w, r, start, (size_t)got, end);
		for (size_t j = i + 1; j < k; j++)
			judge_run(w, &w->runs[j], start, (size_t)got, end);
	}
}

/* One re-check round of [start, end): fresh records, fresh kpageflags. */
static int recheck_span(struct witness *w, uint64_t start, uint64_t end,
			struct witness_note *again, uint64_t *bad_last)
{
	int err = w->io->walk_query(w->io->ctx, start, end);
	ssize_t n;

	if (err)
		return err;
	while ((n = w->io->walk_read(w->io->ctx, w->recs, RECHECK_RECS)) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			const struct ptwalk_record *r = &w->recs[i];
			uint64_t a = r->start > start ? r->start : start;
			uint64_t stop = ptwalk_record_end(r, w->geom.shift);
			struct kpf_expect e = {
				.walk_flags = r->flags,
				.vm_flags = r->vm_flags,
				.level = r->level,
			};

			if (stop > end)
				stop = end;
			/*
			 * The module's records start on a page; from any
			 * other start, the loop below would not advance.
			 */
			if (r->kind != PTWALK_KIND_PRESENT ||
			    !kpf_applies(r->flags) || (r->start & geom_page_mask(&w->geom)))
				continue;
			while (a < stop) {
				uint64_t pfn = ptwalk_pfn_at(r, a, w->geom.shift);
				size_t cnt = (size_t)((stop - a) / geom_page_size(&w->geom));
				ssize_t got;

				if (cnt > WITNESS_KPF_PREAD)
					cnt = WITNESS_KPF_PREAD;
				got = w->io->read_kpf(w->io->ctx, pfn, cnt,
						      w->kpf);
				if (got < 0) {
					kpf_failed(w, (int)got);
					return 0;
				}
				e.system_ram = frame_in_ram(w, pfn);
				for (ssize_t j = 0; j < got; j++) {
					uint64_t pa = a + (uint64_t)j *
							   geom_page_size(&w->geom);

					e.leaf_head = leaf_head(w, r->level, e.walk_flags, pa);
					judge(again, bad_last, &e, pa,
					      pfn + (uint64_t)j, w->kpf[j]);
				}
				a += cnt * geom_page_size(&w->geom);
			}
		}
	}
	return n < 0 ? (int)n : 0;
}

/* Re-checks the contradicting pages of range i until none is left. */
static int recheck(struct witness *w, size_t i)
{
	struct witness_note *note = &w->notes[i];
	uint64_t first = note->bad_pages;

	for (int round = 0; round < WITNESS_RECHECKS && note->bad_pages;
	     round++) {
		struct witness_note again = { 0 };
		uint64_t last = 0;
		int err = recheck_span(w, note->bad_addr,
				       w->bad_last[i] + geom_page_size(&w->geom), &again,
				       &last);

		if (err)
			return err;
		if (!kpf_on(w))
			again.bad_pages = 0;	/* cannot confirm it */
		note->bad_pages = again.bad_pages;
		note->bad_rules = again.bad_rules;
		note->bad_addr = again.bad_addr;
		note->bad_pfn = again.bad_pfn;
		note->bad_kpf = again.bad_kpf;
		w->bad_last[i] = last;
	}
	if (!note->bad_pages) {
		note->bad_rules = 0;
		w->totals->recheck_cleared += first;
	}
	return 0;
}

static void check_batch(struct witness *w)
{
	w->nr_runs = 0;
	for (size_t i = 0; i < w->n; i++) {
		const struct verdict_range *vr = &w->held[i];

		note_init(w, vr, &w->notes[i]);
		w->bad_last[i] = 0;
		if (w->notes[i].checked)
			w->runs[w->nr_runs++] = (struct kpf_run){
				.pfn = vr->walk_pfn, .n = vr->pages,
				.range = i,
				.ram = frame_in_ram(w, vr->walk_pfn),
			};
	}
	check_runs(w);
	for (size_t i = 0; i < w->n && !w->err; i++) {
		if (!kpf_on(w)) {
			w->notes[i].checked = false;
			w->notes[i].kpf_pages = 0;
			w->notes[i].bad_pages = 0;
		}
		if (w->notes[i].bad_pages)
			w->err = recheck(w, i);
	}
}

int witness_flush(struct witness *w)
{
	struct witness_totals *t = w->totals;

	if (!w->err)
		check_batch(w);
	for (size_t i = 0, m = 0; !w->err && (i < w->n || m < w->nr_marks);) {
		const struct witness_note *note = &w->notes[i];

		if (m < w->nr_marks && w->mark_at[m] == i) {
			w->mark(w->arg, w->mark_token[m++]);
			continue;
		}
		t->kpf_pages += note->kpf_pages;
		if (note->bad_pages) {
			t->bad_pages += note->bad_pages;
			t->bad_ranges++;
		}
		w->emit(&w->held[i++], note, w->arg);
	}
	w->n = 0;
	w->nr_marks = 0;
	return w->err;
}

void witness_discard(struct witness *w)
{
	w->n = 0;
	w->nr_marks = 0;
	w->err = 0;
}

void witness_set_mark(struct witness *w, witness_mark_fn mark)
{
	w->mark = mark;
}

void witness_mark(struct witness *w, uint64_t token)
{
	if (w->nr_marks == WITNESS_MARKS)
		witness_flush(w);
	w->mark_token[w->nr_marks] = token;
	w->mark_at[w->nr_marks++] = w->n;
}
