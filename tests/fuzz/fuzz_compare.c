// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison engine (compare_piece) fed ptwalk records and pagemap
 * words from the input through a fake struct compare_io.
 *
 * Input: a header (mode, pages, batch, read size, what a re-read sees, an
 * I/O call to fail), then the records, then pagemap words.  Mode bit 0:
 * the records are built from 8-byte descriptors into a partition of the
 * range, as the module sends them (a re-read query gets them clipped to
 * its span); else they are raw 48-byte records, as a broken module might
 * send them.
 *
 * Oracles: on success the emitted ranges cover the range once, in order,
 * merged as far as ranges.h allows, with summary counts equal to their
 * pages; over a partition every page's class, level and frames are those
 * compare_page_verdict() gives that page alone (the engine classifies
 * runs of pages at once, in batches, re-reading what differs): a first
 * mismatch that a re-read contradicts is transient; raw records either pass as a partition or fail with EPROTO;
 * an I/O error comes back unchanged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include "fuzz.h"
#include "engine/compare.h"
#include "parse/pagemap.h"
#include "io/ptwalk_client.h"
#include "tests/lib/test_lib.h"

#define START		0x7f0000000000ULL
#define MAX_PAGES	1024
#define MAX_RECS	(MAX_PAGES + 16)

struct fake {
	struct ptwalk_record recs[MAX_RECS];
	size_t n;
	bool partition;
	uint64_t pm[MAX_PAGES];		/* first read of each page */
	uint64_t reread_xor;		/* what later reads see differently */
	uint8_t reads[MAX_PAGES];
	bool agree[MAX_PAGES];		/* pagemap agrees with the record */
	size_t chunk;			/* records per walk_read at most */
	unsigned int calls, fail_at;	/* I/O call to fail, 0: none */
	int fail_err;
	/* per stream: the query's records */
	struct ptwalk_record q[NR_COMPARE_STREAMS][MAX_RECS];
	size_t qn[NR_COMPARE_STREAMS], qpos[NR_COMPARE_STREAMS];
};

struct out {
	struct verdict_range r[MAX_PAGES];
	size_t n;
	uint64_t next;
	uint64_t end;
};

static bool failing(struct fake *f)
{
	return f->fail_at && ++f->calls == f->fail_at;
}

static int read_pagemap(void *ctx, uint64_t addr, size_t n, uint64_t *out)
{
	struct fake *f = ctx;
	size_t first = (addr - START) / 4096;

	if (failing(f))
		return f->fail_err;
	FUZZ_CHECK(addr >= START && !(addr & 0xfff) && first + n <= MAX_PAGES,
		   "pagemap read of %zu pages at 0x%" PRIx64, n, addr);
	for (size_t i = 0; i < n; i++) {
		out[i] = f->pm[first + i] ^ (f->reads[first + i] ? f->reread_xor : 0);
		if (f->reads[first + i] < 255)
			f->reads[first + i]++;
	}
	return 0;
}

/* The record clipped to [s, e), as the module starts a query mid-record. */
static bool clip(const struct ptwalk_record *r, uint64_t s, uint64_t e,
		 struct ptwalk_record *out)
{
	uint64_t a = r->start > s ? r->start : s, end = ptwalk_record_end(r, 12);
	uint64_t skip;

	if (end > e)
		end = e;
	if (a >= end)
		return false;
	skip = (a - r->start) / 4096;
	*out = *r;
	out->start = a;
	out->nr_pages = (end - a) / 4096;
	if (r->pfn != PTWALK_PFN_NONE)
		out->pfn += skip;
	if (r->kind != PTWALK_KIND_MARKER && r->kind != PTWALK_KIND_UNKNOWN)
		out->swap_offset += skip;
	return true;
}

static int walk_query(void *ctx, enum compare_stream s, uint64_t start,
		      uint64_t end)
{
	struct fake *f = ctx;

	if (failing(f))
		return f->fail_err;
	FUZZ_CHECK(s < NR_COMPARE_STREAMS && start < end, "query [0x%" PRIx64
		   ", 0x%" PRIx64 ") on stream %d", start, end, s);
	f->qn[s] = f->qpos[s] = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (!f->partition)	/* a broken module: the same answer */
			f->q[s][f->qn[s]++] = f->recs[i];
		else if (clip(&f->recs[i], start, end, &f->q[s][f->qn[s]]))
			f->qn[s]++;
	}
	return 0;
}

static ssize_t walk_read(void *ctx, enum compare_stream s,
			 struct ptwalk_record_ext *recs, size_t max)
{
	struct fake *f = ctx;
	size_t n = f->qn[s] - f->qpos[s];

	if (failing(f))
		return f->fail_err;
	if (n > max)
		n = max;
	if (n > f->chunk)
		n = f->chunk;
	for (size_t i = 0; i < n; i++)
		recs[i] = (struct ptwalk_record_ext){
			.rec = f->q[s][f->qpos[s] + i], .node = PTWALK_NODE_NONE,
		};
	f->qpos[s] += n;
	return (ssize_t)n;
}

static void emit(const struct verdict_range *r, void *arg)
{
	struct out *o = arg;

	FUZZ_CHECK(o->n < MAX_PAGES && r->pages && r->start == o->next &&
		   r->cls < NR_CLASSES && r->pages <= (o->end - r->start) / 4096,
		   "range %zu: 0x%" PRIx64 " %" PRIu64 " pages, expected 0x%"
		   PRIx64, o->n, r->start, r->pages, o->next);
	o->r[o->n++] = *r;
	o->next = r->start + r->pages * 4096;
}

/* What range_merger_push() would find: b continues a. */
static bool continues(const struct verdict_range *a,
		      const struct verdict_range *b)
{
	bool w = a->walk_pfn == NO_PFN ? b->walk_pfn == NO_PFN :
		 b->walk_pfn == a->walk_pfn + a->pages;
	bool p = a->pagemap_pfn == NO_PFN ? b->pagemap_pfn == NO_PFN :
		 b->pagemap_pfn == a->pagemap_pfn + a->pages;

	return a->cls == b->cls && a->level == b->level && w && p &&
	       !((a->detail.walk.flags ^ b->detail.walk.flags) &
		 RANGE_SAME_WALK_FLAGS);
}

/*
 * One page on its own, after the engine's re-reads: a first mismatch is
 * settled by what the re-read saw (pagemap's later word, the same in
 * every re-read): transient if it agrees or moved, else a mismatch.
 */
static void expect_page(const struct fake *f, uint64_t addr,
			struct page_verdict *v)
{
	struct ptwalk_record_ext x = {
		.rec = *ptwalk_find(f->recs, f->n, addr, 12),
		.node = PTWALK_NODE_NONE,
	};
	size_t i = (addr - START) / 4096;
	struct page_verdict first;

	compare_page_verdict(v, &x, addr, f->pm[i], 12);
	if (v->cls == CLASS_MISMATCH) {
		first = *v;
		compare_page_verdict(v, &x, addr, f->pm[i] ^ f->reread_xor, 12);
		v->cls = classify_reread(CLASS_MISMATCH, v->cls,
					 compare_sides_changed(&first, v));
	}
}

static void check_pages(const struct fake *f, const struct out *o)
{
	uint64_t addr = START;

	for (size_t k = 0; k < o->n; k++) {
		const struct verdict_range *r = &o->r[k];

		for (uint64_t j = 0; j < r->pages; j++, addr += 4096) {
			struct page_verdict v;

			expect_page(f, addr, &v);
			FUZZ_CHECK(v.cls == r->cls && v.level == r->level &&
				   v.walk_pfn == (r->walk_pfn == NO_PFN ? NO_PFN :
						  r->walk_pfn + j) &&
				   v.pagemap_pfn == (r->pagemap_pfn == NO_PFN ?
						     NO_PFN : r->pagemap_pfn + j),
				   "page 0x%" PRIx64 ": %s %u 0x%" PRIx64 " 0x%"
				   PRIx64 " on its own, %s %u in range %zu", addr,
				   page_class_name(v.cls), v.level, v.walk_pfn,
				   v.pagemap_pfn, page_class_name(r->cls),
				   r->level, k);
		}
	}
}

/* Descriptors into a partition of [START, START + pages * 4096). */
static void build_partition(struct fake *f, struct fuzz_in *in, size_t pages)
{
	uint64_t addr = START, end = START + pages * 4096;

	while (addr < end) {
		struct ptwalk_record *r = &f->recs[f->n];
		uint8_t len = fuzz_u8(in), kind = fuzz_u8(in);
		uint16_t flags = (uint16_t)fuzz_uint(in, 2);
		uint8_t vm = fuzz_u8(in), type = fuzz_u8(in);
		uint16_t pfn = (uint16_t)fuzz_uint(in, 2);
		uint64_t n = len % 64 + 1;

		if (n > (end - addr) / 4096)
			n = (end - addr) / 4096;
		memset(r, 0, sizeof(*r));
		r->start = addr;
		r->nr_pages = n;
		r->kind = kind % (PTWALK_KIND_UNKNOWN + 1);
		r->level = r->kind == PTWALK_KIND_NONE ? PTWALK_LEVEL_NONE :
			   1 + (kind >> 4) % 3;
		r->flags = flags;
		r->vm_flags = (uint64_t)vm << 3 | (vm & 1 ? PTWALK_VM_PFNMAP : 0) |
			      (vm & 2 ? PTWALK_VM_HUGETLB : 0) | PTWALK_VM_READ;
		if (r->kind == PTWALK_KIND_PRESENT)
			r->pfn = 0x10000 + pfn;
		else
			r->pfn = PTWALK_PFN_NONE;
		if (r->kind > PTWALK_KIND_PRESENT) {
			r->swap_type = type % 32;
			r->swap_offset = pfn;
		}
		/* kind bit 7: pagemap agrees with this record */
		for (uint64_t i = 0; i < n; i++)
			f->agree[(addr - START) / 4096 + i] = kind & 0x80;
		f->n++;
		addr += n * 4096;
	}
}

/* pagemap words that agree with the record, for descriptors that ask. */
static uint64_t agreeing_word(const struct ptwalk_record *r, uint64_t addr)
{
	switch (r->kind) {
	case PTWALK_KIND_NONE:
		return 0;
	case PTWALK_KIND_PRESENT:
		return PM_PRESENT | ptwalk_pfn_at(r, addr, 12);
	default:
		return PM_SWAP | ptwalk_swap_offset_at(r, addr, 12) << 5 |
		       r->swap_type;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fake f;
	static struct out o;
	struct fuzz_in in = { data, size };
	uint8_t mode = fuzz_u8(&in);
	size_t pages = fuzz_uint(&in, 2) % MAX_PAGES + 1;
	size_t batch = fuzz_u8(&in) % 64 + 1;
	struct compare_summary sum = { 0 };
	struct compare_io io = { .read_pagemap = read_pagemap,
				  .walk_query = walk_query,
				  .walk_read = walk_read, .ctx = &f };
	struct compare_engine *e;
	uint64_t total = 0, counted = 0, end = START + pages * 4096;
	int err;

	memset(&f, 0, sizeof(f));
	memset(&o, 0, sizeof(o));
	f.chunk = fuzz_u8(&in) % 16 + 1;
	f.reread_xor = mode & 2 ? fuzz_u64(&in) : 0;
	f.fail_at = mode & 4 ? fuzz_u8(&in) : 0;
	f.fail_err = mode & 8 ? -ESRCH : -EIO;
	if (mode & 1) {
		build_partition(&f, &in, pages);
	} else {
		const uint8_t *p;

		for (size_t n = fuzz_u8(&in) % 32; n-- && (p = fuzz_take(&in, 48));)
			memcpy(&f.recs[f.n++], p, 48);
	}
	f.partition = ptwalk_check_partition(f.recs, f.n, START, end, 12,
					     (char[128]){ 0 }, 128);
	FUZZ_CHECK(!(mode & 1) || f.partition, "descriptors made no partition");
	for (size_t i = 0; i < pages; i++) {
		uint64_t addr = START + i * 4096;

		if (f.agree[i])
			f.pm[i] = agreeing_word(ptwalk_find(f.recs, f.n, addr, 12), addr);
		else
			f.pm[i] = fuzz_u64(&in);
	}
	e = compare_new(&io, batch, 12);
	FUZZ_CHECK(e, "compare_new");
	o.next = START;
	o.end = end;
	err = compare_piece(e, START, end, &sum, emit, &o);
	compare_free(e);
	if (f.fail_at && f.calls >= f.fail_at) {
		FUZZ_CHECK(err == f.fail_err, "I/O error %d came back as %d",
			   f.fail_err, err);
		return 0;
	}
	if (f.partition)
		FUZZ_CHECK(!err, "a partition failed: %d", err);
	FUZZ_CHECK(!err || err == -EPROTO, "raw records: %d", err);
	if (err)
		return 0;
	FUZZ_CHECK(o.next == end, "ranges end at 0x%" PRIx64, o.next);
	for (size_t k = 0; k < o.n; k++) {
		counted += o.r[k].pages;
		FUZZ_CHECK(!k || !continues(&o.r[k - 1], &o.r[k]),
			   "ranges %zu and %zu could be one", k - 1, k);
	}
	for (int c = 0; c < NR_CLASSES; c++)
		total += sum.pages[c];
	FUZZ_CHECK(total == pages && counted == pages,
		   "summary %" PRIu64 ", ranges %" PRIu64 ", pages %zu", total,
		   counted, pages);
	if (f.partition)
		check_pages(&f, &o);
	return 0;
}
