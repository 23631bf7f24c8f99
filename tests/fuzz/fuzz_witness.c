// SPDX-License-Identifier: GPL-2.0
/*
 * The witness stage (witness.c) reading what the kernel hands over:
 * /proc/kpageflags words for runs of frames (fewer beyond the last frame
 * the kernel describes, or a read error), the records of a re-check query
 * (raw, as a broken module might send them) and /proc/iomem's text.  The
 * input is a header, range descriptors, 64 kpageflags words (frame f reads
 * word f % 64), re-check records, then the iomem text.
 * Oracles: every range comes out once, in order, unchanged; its note is
 * within bounds (pages read no more than it has, a name index inside the
 * tree, rules that are rules, nothing counted for a range not checked);
 * kpageflags is never asked for more than its window; the report's totals
 * are the notes' sums; a re-check's error comes back unchanged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include "fuzz.h"
#include "engine/kpageflags.h"
#include "engine/witness.h"

#define START		0x7f0000000000ULL
#define MAX_RANGES	48
#define MAX_RECS	8

struct fake {
	uint64_t kpf[64];
	uint64_t last_frame;	/* frames from here on are not described */
	int kpf_err, walk_err;
	struct ptwalk_record recs[MAX_RECS];
	size_t nrecs, pos;
};

struct seen {
	const struct fake *fake;
	const struct verdict_range *in;
	size_t n, next;
	const struct iomem *iomem;
	uint64_t kpf_pages, bad_pages, bad_ranges;
};

static ssize_t read_kpf(void *ctx, uint64_t pfn, size_t n, uint64_t *out)
{
	struct fake *f = ctx;
	size_t got;

	FUZZ_CHECK(n && n <= WITNESS_KPF_PREAD, "kpageflags read of %zu", n);
	if (f->kpf_err)
		return f->kpf_err;
	got = pfn >= f->last_frame ? 0 :
	      f->last_frame - pfn < n ? (size_t)(f->last_frame - pfn) : n;
	for (size_t j = 0; j < got; j++)
		out[j] = f->kpf[(pfn + j) % 64];
	return (ssize_t)got;
}

static int walk_query(void *ctx, uint64_t start, uint64_t end)
{
	struct fake *f = ctx;

	FUZZ_CHECK(start < end && !(start & 0xfff) && !(end & 0xfff),
		   "re-check of [0x%" PRIx64 ", 0x%" PRIx64 ")", start, end);
	f->pos = 0;
	return f->walk_err;
}

static ssize_t walk_read(void *ctx, struct ptwalk_record *recs, size_t max)
{
	struct fake *f = ctx;
	size_t n = f->nrecs - f->pos < max ? f->nrecs - f->pos : max;

	memcpy(recs, &f->recs[f->pos], n * sizeof(*recs));
	f->pos += n;
	return (ssize_t)n;
}

static void emit(const struct verdict_range *vr,
		 const struct witness_note *note, void *arg)
{
	struct seen *s = arg;

	FUZZ_CHECK(s->next < s->n && !memcmp(vr, &s->in[s->next], sizeof(*vr)),
		   "range %zu out of order or changed", s->next);
	FUZZ_CHECK(note, "no note for range %zu", s->next);
	FUZZ_CHECK(note->kpf_pages <= vr->pages, "%" PRIu64 " pages read of %"
		   PRIu64, note->kpf_pages, vr->pages);
	FUZZ_CHECK(note->checked || (!note->kpf_pages && !note->bad_pages),
		   "counts for a range not checked");
	/* a checked range: every frame kpageflags describes was read */
	if (note->checked && !s->fake->kpf_err) {
		uint64_t last = s->fake->last_frame;
		uint64_t described = vr->walk_pfn >= last ? 0 :
				     last - vr->walk_pfn < vr->pages ?
				     last - vr->walk_pfn : vr->pages;

		FUZZ_CHECK(note->kpf_pages == described, "%" PRIu64 " pages read,"
			   " %" PRIu64 " described", note->kpf_pages, described);
	}
	FUZZ_CHECK(!note->bad_pages == !note->bad_rules &&
		   note->bad_rules < 1U << NR_KPF_RULES,
		   "bad pages %" PRIu64 ", rules 0x%x", note->bad_pages,
		   note->bad_rules);
	FUZZ_CHECK(note->iomem == IOMEM_NONE ||
		   (s->iomem && note->iomem < s->iomem->n), "iomem index %zu",
		   note->iomem);
	s->kpf_pages += note->kpf_pages;
	s->bad_pages += note->bad_pages;
	s->bad_ranges += !!note->bad_pages;
	s->next++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	static struct fake f;
	static struct verdict_range ranges[MAX_RANGES];
	struct witness_io io = {
		.read_kpf = read_kpf, .walk_query = walk_query,
		.walk_read = walk_read, .ctx = &f,
	};
	struct witness_totals rep;
	struct iomem m;
	struct seen s;
	struct witness *w;
	uint8_t mode = fuzz_u8(&in);
	size_t n = fuzz_u8(&in) % MAX_RANGES + 1;
	uint64_t addr = START;
	const uint8_t *p;
	char *text, why[128];
	int err;

	memset(&f, 0, sizeof(f));
	memset(&rep, 0, sizeof(rep));
	f.last_frame = fuzz_uint(&in, 3);
	f.kpf_err = mode & 1 ? -EIO : 0;
	f.walk_err = mode & 2 ? -ESRCH : 0;
	if (!(mode & 4))
		io.read_kpf = NULL;	/* the third witness off */
	for (size_t i = 0; i < n; i++) {
		struct verdict_range *r = &ranges[i];
		uint8_t pages = fuzz_u8(&in), cls = fuzz_u8(&in);
		uint16_t flags = (uint16_t)fuzz_uint(&in, 2);
		uint8_t vm = fuzz_u8(&in);
		uint64_t pfn = fuzz_uint(&in, 3);

		memset(r, 0, sizeof(*r));
		r->start = addr;
		r->pages = pages % 64 + 1;
		r->cls = cls % NR_CLASSES;
		r->level = (cls >> 3) % 4;
		r->detail.walk_kind = cls & 0x80 ? PTWALK_KIND_SWAP :
						    PTWALK_KIND_PRESENT;
		r->walk_pfn = cls & 0x40 ? NO_PFN : pfn;
		r->pagemap_pfn = r->walk_pfn;
		r->detail.walk.flags = flags;
		r->detail.walk.vm_flags = (uint64_t)vm << 3 |
					  (vm & 1 ? PTWALK_VM_PFNMAP : 0) |
					  (vm & 2 ? PTWALK_VM_HUGETLB : 0) |
					  (vm & 4 ? PTWALK_VM_ANON : 0);
		addr += r->pages * 4096;
	}
	for (size_t i = 0; i < 64; i++)
		f.kpf[i] = fuzz_u64(&in);
	for (size_t k = fuzz_u8(&in) % (MAX_RECS + 1);
	     k-- && (p = fuzz_take(&in, sizeof(f.recs[0])));)
		memcpy(&f.recs[f.nrecs++], p, sizeof(f.recs[0]));
	text = fuzz_string(in.p, in.n);
	if ((mode & 8) && !iomem_parse_string(&m, text, why, sizeof(why)))
		rep.iomem = &m;
	s = (struct seen){ .fake = &f, .in = ranges, .n = n,
			   .iomem = rep.iomem };
	w = witness_new(&io, FUZZ_GEOM, &rep, emit, &s);
	FUZZ_CHECK(w, "witness_new");
	for (size_t i = 0; i < n; i++)
		witness_range(&ranges[i], w);
	err = witness_flush(w);
	witness_free(w);
	FUZZ_CHECK(!err || err == f.walk_err, "flush: %d", err);
	if (!err)
		FUZZ_CHECK(s.next == n && rep.kpf_pages == s.kpf_pages &&
			   rep.bad_pages == s.bad_pages &&
			   rep.bad_ranges == s.bad_ranges,
			   "%zu of %zu ranges out; totals %" PRIu64 "/%" PRIu64
			   " pages, %" PRIu64 "/%" PRIu64 " bad", s.next, n,
			   rep.kpf_pages, s.kpf_pages, rep.bad_pages, s.bad_pages);
	FUZZ_CHECK(!(f.kpf_err && (mode & 4)) || !s.kpf_pages,
		   "pages counted although kpageflags failed");
	if (rep.iomem)
		iomem_free(&m);
	free(text);
	return 0;
}
