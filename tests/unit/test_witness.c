// SPDX-License-Identifier: GPL-2.0
/*
 * The witness stage through fake sources: kpageflags from an array that
 * a test can change between reads, ptwalk re-checks from a record list.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "geom.h"
#include "engine/kpageflags.h"
#include "report/report.h"
#include "engine/witness.h"

#define NR_FRAMES	0x10000
#define VA		0x7f0000000000ULL
#define VALID		(PTWALK_F_PRESENT | PTWALK_F_USER | PTWALK_F_PFN_VALID)
#define ANON_VMA	(PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_ANON)
#define ANON_PAGE	(KPF(MMAP) | KPF(ANON) | KPF(LRU))
#define MAX_OUT		(WITNESS_BATCH + 64)

struct fake {
	uint64_t kpf[NR_FRAMES];
	int kpf_reads;
	uint64_t kpf_entries;
	int kpf_err;		/* returned by every read when set */
	/* applied to kpf after the first read: the world moves on */
	uint64_t change_pfn, change_to;
	bool change;
	struct ptwalk_record recs[8];
	size_t nr_recs;
	bool pending;
	int queries;
	int walk_err;
	/* load_names(): how often it was called, what it gives */
	int loads;
	const struct iomem *names;
	/* what reached the report */
	struct verdict_range out[MAX_OUT];
	struct witness_note notes[MAX_OUT];
	int n;
};

static ssize_t fake_kpf(void *ctx, uint64_t pfn, size_t n, uint64_t *out)
{
	struct fake *f = ctx;
	size_t i;

	if (f->kpf_err)
		return -f->kpf_err;
	assert_true(n > 0);	/* a read of nothing makes no progress */
	f->kpf_reads++;
	for (i = 0; i < n && pfn + i < NR_FRAMES; i++)
		out[i] = f->kpf[pfn + i];
	f->kpf_entries += i;
	if (f->change) {
		f->kpf[f->change_pfn] = f->change_to;
		f->change = false;
	}
	return (ssize_t)i;
}

static int fake_query(void *ctx, uint64_t start, uint64_t end)
{
	struct fake *f = ctx;

	(void)start;
	(void)end;
	f->queries++;
	f->pending = true;
	return f->walk_err ? -f->walk_err : 0;
}

static ssize_t fake_read(void *ctx, struct ptwalk_record *recs, size_t max)
{
	struct fake *f = ctx;

	if (!f->pending)
		return 0;
	f->pending = false;
	assert_true(f->nr_recs <= max);
	memcpy(recs, f->recs, f->nr_recs * sizeof(*recs));
	return (ssize_t)f->nr_recs;
}

static void fake_load_names(void *ctx, struct witness_totals *totals)
{
	struct fake *f = ctx;

	f->loads++;
	totals->iomem = f->names;
}

static void sink(const struct verdict_range *vr,
		 const struct witness_note *note, void *arg)
{
	struct fake *f = arg;

	assert_true(f->n < MAX_OUT);
	assert_non_null(note);
	f->out[f->n] = *vr;
	f->notes[f->n++] = *note;
}

struct setup {
	struct fake *f;
	struct witness_io io;
	struct witness_totals totals;
	struct iomem iomem;
	struct witness *w;
};

static const char iomem_text[] =
	"00000000-00000fff : Reserved\n"
	"00001000-0fffffff : System RAM\n"
	"c0000000-febfffff : PCI Bus 0000:00\n"
	"  fd000000-fdffffff : 0000:00:01.0\n";

static void start(struct setup *s, bool with_kpf)
{
	char why[64];

	memset(s, 0, sizeof(*s));
	s->f = calloc(1, sizeof(*s->f));
	assert_non_null(s->f);
	s->io = (struct witness_io){
		.read_kpf = with_kpf ? fake_kpf : NULL,
		.walk_query = fake_query, .walk_read = fake_read, .ctx = s->f,
	};
	assert_int_equal(iomem_parse_string(&s->iomem, iomem_text, why,
					    sizeof(why)), 0);
	s->totals.iomem = &s->iomem;
	s->w = witness_new(&s->io, UT_GEOM_X86, &s->totals, sink, s->f);
	assert_non_null(s->w);
}

static void stop(struct setup *s)
{
	witness_free(s->w);
	iomem_free(&s->iomem);
	free(s->f);
}

static struct verdict_range range(uint64_t start, uint64_t pages,
				  enum page_class cls, uint8_t level,
				  uint64_t pfn, uint32_t flags, uint64_t vm)
{
	return (struct verdict_range){
		.start = start, .pages = pages, .cls = cls, .level = level,
		.walk_pfn = pfn, .pagemap_pfn = pfn,
		.detail = { .walk_kind = PTWALK_KIND_PRESENT,
			    .walk = { .flags = flags, .vm_flags = vm } },
	};
}

static void push(struct setup *s, struct verdict_range vr)
{
	witness_range(&vr, s->w);
}

/* Marks between ranges come out in order with them (mark_sink). */
static void mark_sink(void *arg, uint64_t token)
{
	struct fake *f = arg;

	assert_true(f->n < MAX_OUT);
	/* a mark shows as a range of 0 pages whose start is its token */
	f->out[f->n].start = token;
	f->out[f->n++].pages = 0;
}

/*
 * 300 small VMAs of one page each, a mark after each: their frames, 8
 * apart, are read in one pread, not one per VMA; every range and mark
 * comes out in order.
 */
static void marks_span_vmas(void **state)
{
	struct setup s;
	int k = 0;

	(void)state;
	start(&s, true);
	witness_set_mark(s.w, mark_sink);
	witness_mark(s.w, 1000);	/* a VMA without ranges first */
	for (uint64_t i = 0; i < 300; i++) {
		s.f->kpf[0x2000 + 8 * i] = ANON_PAGE;
		push(&s, range(VA + 2 * i * 4096, 1, CLASS_MATCH,
			       PTWALK_LEVEL_PTE, 0x2000 + 8 * i, VALID,
			       ANON_VMA));
		witness_mark(s.w, i);
	}
	assert_int_equal(s.f->n, 0);	/* held until the flush */
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->kpf_reads, 1);
	assert_int_equal(s.f->n, 601);
	assert_int_equal(s.f->out[k].pages, 0);
	assert_int_equal(s.f->out[k++].start, 1000);
	for (uint64_t i = 0; i < 300; i++) {
		assert_int_equal(s.f->out[k].pages, 1);
		assert_int_equal(s.f->out[k].walk_pfn, 0x2000 + 8 * i);
		assert_int_equal(s.f->notes[k++].kpf_pages, 1);
		assert_int_equal(s.f->out[k].pages, 0);
		assert_int_equal(s.f->out[k++].start, i);
	}
	assert_int_equal(s.totals.bad_pages, 0);
	/* a flush with nothing held but a mark passes the mark on */
	witness_mark(s.w, 7);
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->n, 602);
	assert_int_equal(s.f->out[601].start, 7);
	stop(&s);
}

/* A THP and scattered 4K pages: a few preads, every page judged. */
static void reads_runs_not_pages(void **state)
{
	struct setup s;
	uint32_t thp = VALID | PTWALK_F_COMPOUND;

	(void)state;
	start(&s, true);
	for (int i = 0; i < 512; i++)
		s.f->kpf[0x1000 + i] = ANON_PAGE | KPF(THP) |
			(i ? KPF(COMPOUND_TAIL) : KPF(COMPOUND_HEAD));
	push(&s, range(VA, 512, CLASS_MATCH, PTWALK_LEVEL_PMD, 0x1000, thp,
		       ANON_VMA));
	/* 4K pages whose frames lie close together, out of address order */
	for (int i = 0; i < 16; i++) {
		uint64_t pfn = 0x3000 + (uint64_t)((i * 7) % 16) * 3;

		s.f->kpf[pfn] = ANON_PAGE;
		push(&s, range(VA + 0x200000 + (uint64_t)i * 4096, 1,
			       CLASS_MATCH, PTWALK_LEVEL_PTE, pfn, VALID,
			       ANON_VMA));
	}
	/* not checked: no page, a mismatch, not present */
	push(&s, range(VA + 0x300000, 4, CLASS_PFNMAP_HIDDEN, PTWALK_LEVEL_PTE,
		       0xfd000, PTWALK_F_PRESENT | PTWALK_F_SPECIAL,
		       PTWALK_VM_PFNMAP | PTWALK_VM_IO));
	push(&s, range(VA + 0x304000, 1, CLASS_MISMATCH, PTWALK_LEVEL_PTE,
		       0x5000, VALID, ANON_VMA));
	assert_int_equal(s.f->n, 0);	/* held until the flush */
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->n, 19);
	assert_int_equal(s.f->kpf_reads, 2);
	assert_int_equal(s.totals.kpf_pages, 512 + 16);
	assert_int_equal(s.totals.bad_pages, 0);
	assert_int_equal(s.f->queries, 0);
	/* order kept, notes attached */
	assert_int_equal(s.f->out[0].start, VA);
	assert_true(s.f->notes[0].named && s.f->notes[0].checked);
	assert_true(s.f->notes[0].struct_page);
	assert_int_equal(s.f->notes[0].kpf_pages, 512);
	assert_int_equal(s.f->notes[0].kpf_union,
			 KPF(MMAP) | KPF(ANON) | KPF(THP) |
			 KPF(COMPOUND_HEAD) | KPF(COMPOUND_TAIL));
	assert_int_equal(s.f->out[1].start, VA + 0x200000);
	assert_false(s.f->notes[1].named);
	assert_true(s.f->notes[1].checked);
	assert_true(s.f->notes[17].named);
	assert_false(s.f->notes[17].struct_page);
	assert_false(s.f->notes[17].checked);
	assert_int_equal(s.f->notes[17].iomem, iomem_find(&s.iomem, 0xfd000000));
	assert_false(s.f->notes[18].checked);
	stop(&s);
}

/* A full batch passes itself on; the flush passes on the rest. */
static void bounded_batch(void **state)
{
	struct setup s;

	(void)state;
	start(&s, false);
	for (int i = 0; i < WITNESS_BATCH; i++)
		push(&s, range(VA + (uint64_t)i * 4096, 1, CLASS_NOT_PRESENT,
			       PTWALK_LEVEL_NONE, NO_PFN, 0, ANON_VMA));
	assert_int_equal(s.f->n, 0);
	push(&s, range(VA + WITNESS_BATCH * 4096ULL, 1, CLASS_NOT_PRESENT,
		       PTWALK_LEVEL_NONE, NO_PFN, 0, ANON_VMA));
	assert_int_equal(s.f->n, WITNESS_BATCH);
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->n, WITNESS_BATCH + 1);
	assert_int_equal(s.f->out[WITNESS_BATCH].start,
			 VA + WITNESS_BATCH * 4096ULL);
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->n, WITNESS_BATCH + 1);
	stop(&s);
	/* frames 100 apart: beyond the gap, one read each */
	start(&s, true);
	for (int i = 0; i < 63; i++) {
		s.f->kpf[0x100 + i * 100] = ANON_PAGE;
		push(&s, range(VA + (uint64_t)i * 4096, 1, CLASS_MATCH,
			       PTWALK_LEVEL_PTE, 0x100 + (uint64_t)i * 100,
			       VALID, ANON_VMA));
	}
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->n, 63);
	assert_int_equal(s.f->kpf_reads, 63);
	assert_int_equal(s.totals.kpf_pages, 63);
	stop(&s);
}

/* ptwalk keeps claiming a compound page kpageflags does not show. */
static void lasting_contradiction(void **state)
{
	struct setup s;
	uint32_t lie = VALID | PTWALK_F_COMPOUND;

	(void)state;
	start(&s, true);
	s.f->kpf[0x2000] = ANON_PAGE;
	s.f->recs[0] = (struct ptwalk_record){
		.start = VA, .nr_pages = 1, .pfn = 0x2000,
		.vm_flags = ANON_VMA, .flags = lie,
		.level = PTWALK_LEVEL_PTE, .kind = PTWALK_KIND_PRESENT,
	};
	s.f->nr_recs = 1;
	push(&s, range(VA, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x2000, lie,
		       ANON_VMA));
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->queries, WITNESS_RECHECKS);
	assert_int_equal(s.f->notes[0].bad_pages, 1);
	assert_int_equal(s.f->notes[0].bad_rules, 1U << KPF_RULE_COMPOUND);
	assert_int_equal(s.f->notes[0].bad_addr, VA);
	assert_int_equal(s.f->notes[0].bad_pfn, 0x2000);
	assert_int_equal(s.f->notes[0].bad_kpf, ANON_PAGE);
	assert_true(s.f->notes[0].named);	/* compound: named */
	assert_int_equal(s.totals.bad_pages, 1);
	assert_int_equal(s.totals.bad_ranges, 1);
	assert_int_equal(s.totals.recheck_cleared, 0);
	stop(&s);
}

/*
 * A free page ptwalk maps: a contradiction, which the re-check's fresh
 * query answered by again clears.
 */
static void cleared_by_recheck(struct ptwalk_record again)
{
	struct setup s;

	start(&s, true);
	s.f->kpf[0x2000] = KPF(BUDDY);
	s.f->recs[0] = again;
	s.f->nr_recs = 1;
	push(&s, range(VA, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x2000, VALID,
		       ANON_VMA));
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->queries, 1);
	assert_int_equal(s.f->notes[0].bad_pages, 0);
	assert_int_equal(s.totals.bad_pages, 0);
	assert_int_equal(s.totals.recheck_cleared, 1);
	stop(&s);
}

/* The page was freed after the walk: the re-check finds it unmapped. */
static void freed_between_reads(void **state)
{
	(void)state;
	cleared_by_recheck((struct ptwalk_record){
		.start = VA, .nr_pages = 1, .pfn = PTWALK_PFN_NONE,
		.vm_flags = ANON_VMA, .kind = PTWALK_KIND_NONE,
	});
}

/*
 * A re-check answered by a record that does not start on a page (a
 * broken module): ignored, instead of a loop reading nothing for ever
 * (fuzz_witness).
 */
static void recheck_record_off_page(void **state)
{
	(void)state;
	cleared_by_recheck((struct ptwalk_record){
		.start = VA + 0x800, .nr_pages = 1, .pfn = 0x2000,
		.vm_flags = ANON_VMA, .flags = VALID,
		.level = PTWALK_LEVEL_PTE, .kind = PTWALK_KIND_PRESENT,
	});
}

/* Still mapped, and kpageflags agrees on the second read. */
static void agrees_on_second_read(void **state)
{
	struct setup s;

	(void)state;
	start(&s, true);
	s.f->kpf[0x2000] = KPF(ANON) | KPF(LRU);	/* rmap not yet set */
	s.f->change = true;
	s.f->change_pfn = 0x2000;
	s.f->change_to = ANON_PAGE;
	s.f->recs[0] = (struct ptwalk_record){
		.start = VA, .nr_pages = 1, .pfn = 0x2000,
		.vm_flags = ANON_VMA, .flags = VALID,
		.level = PTWALK_LEVEL_PTE, .kind = PTWALK_KIND_PRESENT,
	};
	s.f->nr_recs = 1;
	push(&s, range(VA, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x2000, VALID,
		       ANON_VMA));
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->queries, 1);
	assert_int_equal(s.totals.bad_pages, 0);
	assert_int_equal(s.totals.recheck_cleared, 1);
	assert_true(s.f->notes[0].checked);
	stop(&s);
}

static void kpageflags_errors_and_absence(void **state)
{
	struct setup s;

	(void)state;
	start(&s, true);
	s.f->kpf_err = EIO;
	push(&s, range(VA, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x2000, VALID,
		       ANON_VMA));
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->n, 1);
	assert_false(s.f->notes[0].checked);
	assert_contains(s.totals.kpf_note, "Input/output error");
	assert_int_equal(s.totals.kpf_pages, 0);
	stop(&s);
	/* without kpageflags: names only */
	start(&s, false);
	push(&s, range(VA, 512, CLASS_MATCH, PTWALK_LEVEL_PMD, 0x1000,
		       VALID | PTWALK_F_COMPOUND, ANON_VMA));
	assert_int_equal(witness_flush(s.w), 0);
	assert_true(s.f->notes[0].named);
	assert_false(s.f->notes[0].checked);
	assert_int_equal(s.f->notes[0].iomem, iomem_find(&s.iomem, 0x1000000));
	stop(&s);
	/* frames beyond what kpageflags describes are not judged */
	start(&s, true);
	push(&s, range(VA, 4, CLASS_MATCH, PTWALK_LEVEL_PTE, NR_FRAMES - 2,
		       VALID, ANON_VMA));
	s.f->kpf[NR_FRAMES - 2] = s.f->kpf[NR_FRAMES - 1] = ANON_PAGE;
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->notes[0].kpf_pages, 2);
	assert_int_equal(s.totals.bad_pages, 0);
	stop(&s);
}

/* The re-check cannot ask ptwalk: the scan fails with its error. */
static void recheck_walk_error(void **state)
{
	struct setup s;

	(void)state;
	start(&s, true);
	s.f->kpf[0x2000] = KPF(BUDDY);
	s.f->walk_err = ESRCH;
	push(&s, range(VA, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x2000, VALID,
		       ANON_VMA));
	assert_int_equal(witness_flush(s.w), -ESRCH);
	witness_discard(s.w);
	/* the next process of --all: its ranges pass, not the old error */
	s.f->walk_err = 0;
	s.f->kpf[0x3000] = ANON_PAGE;
	push(&s, range(VA, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x3000, VALID,
		       ANON_VMA));
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->n, 1);
	assert_int_equal(s.f->out[0].walk_pfn, 0x3000);
	stop(&s);
}

/*
 * --all's next process: the counts of the last start from zero, what the
 * sources said of themselves (the names, why kpageflags is off) stays.
 */
static void totals_restart_keeps_notes(void **state)
{
	struct witness_totals t = { .kpf_pages = 5, .recheck_cleared = 2,
				    .bad_pages = 3, .bad_ranges = 1 };
	struct iomem names = { 0 };

	(void)state;
	t.iomem = &names;
	snprintf(t.kpf_note, sizeof(t.kpf_note), "not asked for");
	snprintf(t.iomem_note, sizeof(t.iomem_note), "zeroed");
	witness_totals_restart(&t);
	assert_ptr_equal(t.iomem, &names);
	assert_string_equal(t.kpf_note, "not asked for");
	assert_string_equal(t.iomem_note, "zeroed");
	assert_int_equal(t.kpf_pages + t.recheck_cleared + t.bad_pages +
			 t.bad_ranges, 0);
}

/* A 1 GiB leaf is read in bounded windows; head first, tails after. */
static void gigantic_leaf_in_windows(void **state)
{
	struct setup s;
	uint32_t f = VALID | PTWALK_F_COMPOUND;
	uint64_t vm = PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_HUGETLB;
	uint64_t pages = NR_FRAMES / 2;

	(void)state;
	start(&s, true);
	for (uint64_t i = 0; i < pages; i++)
		s.f->kpf[i] = KPF(MMAP) | KPF(HUGE) |
			      (i ? KPF(COMPOUND_TAIL) : KPF(COMPOUND_HEAD));
	push(&s, range(0x40000000, pages, CLASS_MATCH, PTWALK_LEVEL_PUD, 0, f,
		       vm));
	assert_int_equal(witness_flush(s.w), 0);
	assert_int_equal(s.f->kpf_reads, (int)(pages / WITNESS_KPF_PREAD));
	assert_int_equal(s.f->notes[0].kpf_pages, pages);
	assert_int_equal(s.totals.bad_pages, 0);
	stop(&s);
}

static void to_report(const struct verdict_range *vr,
		      const struct witness_note *note, void *arg)
{
	report_range(arg, vr, note);
}

/* Through the report: one document of each format. */
static char *report_of_as(enum report_format fmt, const char *kpf_note,
			  bool zeroed, bool summary, int *mismatch);

static char *report_of(enum report_format fmt, const char *kpf_note,
		       bool zeroed, int *mismatch)
{
	return report_of_as(fmt, kpf_note, zeroed, false, mismatch);
}

/*
 * summary: as --all's text writes it (no VMA rows, no physical lines):
 * the findings alone, as report_copy_findings() gives them.
 */
static char *report_of_as(enum report_format fmt, const char *kpf_note,
			  bool zeroed, bool summary, int *mismatch)
{
	struct setup s;
	struct report r;
	struct report_target t = { .pid = 7, .comm = "t", .kernel = "6.1" };
	struct maps_entry vma = { .start = VA, .end = VA + 0x400000,
				  .perms = "rw-p", .name = "" };
	struct compare_summary sum = { .pages = { [CLASS_MATCH] = 1024 } };
	uint32_t lie = VALID | PTWALK_F_COMPOUND;
	struct capture c;
	FILE *out = capture_open(&c);
	FILE *wspool = tmpfile();

	start(&s, !kpf_note);
	s.iomem.zeroed = zeroed;
	if (zeroed)
		snprintf(s.totals.iomem_note, sizeof(s.totals.iomem_note),
			 "physical names need root");
	if (kpf_note)
		snprintf(s.totals.kpf_note, sizeof(s.totals.kpf_note), "%s", kpf_note);
	report_init(&r, fmt, out, summary ? NULL : tmpfile(), tmpfile(),
		    UT_GEOM_X86, 0);
	report_add_witnesses(&r, &s.totals,
			     fmt == REPORT_TEXT && !summary ? wspool : NULL);
	witness_free(s.w);
	s.w = witness_new(&s.io, UT_GEOM_X86, &s.totals, to_report, &r);
	for (int i = 0; i < 512; i++)
		s.f->kpf[0x1000 + i] = ANON_PAGE | KPF(THP) |
			(i ? KPF(COMPOUND_TAIL) : KPF(COMPOUND_HEAD));
	s.f->kpf[0x3000] = ANON_PAGE;
	s.f->recs[0] = (struct ptwalk_record){
		.start = VA + 0x200000, .nr_pages = 1, .pfn = 0x3000,
		.vm_flags = ANON_VMA, .flags = lie,
		.level = PTWALK_LEVEL_PTE, .kind = PTWALK_KIND_PRESENT,
	};
	s.f->nr_recs = 1;
	push(&s, range(VA, 512, CLASS_MATCH, PTWALK_LEVEL_PMD, 0x1000,
		       VALID | PTWALK_F_COMPOUND, ANON_VMA));
	push(&s, range(VA + 0x200000, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x3000,
		       lie, ANON_VMA));
	push(&s, range(VA + 0x201000, 511, CLASS_PFNMAP_HIDDEN,
		       PTWALK_LEVEL_PTE, 0xfd000, PTWALK_F_PRESENT,
		       PTWALK_VM_PFNMAP));
	assert_int_equal(witness_flush(s.w), 0);
	report_vma(&r, &vma, VA, VA + 0x400000, &sum, true);
	if (summary)
		assert_int_equal(report_copy_findings(&r, out), 0);
	else
		assert_int_equal(report_finish(&r, &t), 0);
	*mismatch = report_has_mismatch(&r);
	if (r.vmas)
		fclose(r.vmas);
	fclose(r.ranges);
	fclose(wspool);
	stop(&s);
	return capture_close(&c);
}

static void json_keys(void **state)
{
	int mismatch;
	char *buf = report_of(REPORT_JSON, NULL, false, &mismatch);
	struct json_object *doc = json_tokener_parse(buf), *ranges, *o, *w, *c;

	(void)state;
	assert_non_null(doc);
	assert_true(mismatch);
	assert_string_equal(json_object_get_string(
		json_object_object_get(doc, "verdict")), "mismatch");
	ranges = json_object_object_get(doc, "ranges");
	assert_int_equal(json_object_array_length(ranges), 3);
	o = json_object_array_get_idx(ranges, 0);
	assert_string_equal(json_object_get_string(
		json_object_object_get(o, "iomem")), "System RAM");
	assert_true(json_object_get_boolean(
		json_object_object_get(o, "struct_page")));
	assert_string_equal(json_object_to_json_string_ext(
		json_object_object_get(o, "kpageflags"), JSON_C_TO_STRING_PLAIN),
		"[\"mmap\",\"anon\",\"compound_head\",\"compound_tail\",\"thp\"]");
	assert_null(json_object_object_get(o, "contradiction"));
	o = json_object_array_get_idx(ranges, 1);
	c = json_object_object_get(o, "contradiction");
	assert_non_null(c);
	assert_int_equal(json_object_get_int64(json_object_object_get(c, "pages")), 1);
	assert_string_equal(json_object_get_string(json_object_object_get(c, "pfn")), "0x3000");
	assert_string_equal(json_object_to_json_string_ext(
		json_object_object_get(c, "rules"), JSON_C_TO_STRING_PLAIN),
		"[\"compound\"]");
	o = json_object_array_get_idx(ranges, 2);
	assert_string_equal(json_object_get_string(
		json_object_object_get(o, "iomem")), "PCI Bus 0000:00 > 0000:00:01.0");
	assert_false(json_object_get_boolean(
		json_object_object_get(o, "struct_page")));
	assert_null(json_object_object_get(o, "kpageflags"));
	w = json_object_object_get(doc, "witnesses");
	assert_non_null(w);
	assert_int_equal(json_object_get_int64(json_object_object_get(w, "contradicting_pages")), 1);
	assert_int_equal(json_object_get_int64(json_object_object_get(w, "kpageflags_pages")), 513);
	assert_null(json_object_object_get(w, "kpageflags_skipped"));
	json_object_put(doc);
	free(buf);
	/* skipped third witness, names hidden from non-root: said, no keys */
	buf = report_of(REPORT_JSON, "/proc/kpageflags: Permission denied", true,
			&mismatch);
	doc = json_tokener_parse(buf);
	assert_non_null(doc);
	assert_false(mismatch);
	o = json_object_array_get_idx(json_object_object_get(doc, "ranges"), 2);
	assert_true(json_object_object_get_ex(o, "iomem", NULL));
	assert_null(json_object_object_get(o, "iomem"));
	w = json_object_object_get(doc, "witnesses");
	assert_string_equal(json_object_get_string(json_object_object_get(w,
		"kpageflags_skipped")), "/proc/kpageflags: Permission denied");
	assert_string_equal(json_object_get_string(json_object_object_get(w,
		"iomem_skipped")), "physical names need root");
	json_object_put(doc);
	free(buf);
}

static void text_section(void **state)
{
	int mismatch;
	char *buf = report_of(REPORT_TEXT, NULL, false, &mismatch);

	(void)state;
	assert_contains(buf, "\nphysical memory (",
			"  0x7f0000000000    512 pages  pmd  pfn 0x1000      System RAM, struct page; kpageflags: mmap,anon,compound_head,compound_tail,thp\n",
			"    CONTRADICTION on 1 page, first 0x7f0000200000 (pfn 0x3000, kpageflags mmap,anon): ptwalk's compound flag",
			"pfn 0xfd000     PCI Bus 0000:00 > 0000:00:01.0, no struct page\n",
			"third witness (/proc/kpageflags): 513 present RAM pages checked, 1 page in 1 range contradicts ptwalk after 3 re-checks",
			"\nverdict: MISMATCH: 1 page where /proc/kpageflags contradicts the page tables\n");
	free(buf);
	buf = report_of(REPORT_TEXT, "/proc/kpageflags: Permission denied", true,
			&mismatch);
	assert_contains(buf, "  note: physical names need root\n",
			"  third witness skipped: /proc/kpageflags: Permission denied\n",
			" pfn 0xfd000     ?, no struct page\n",
			"\nverdict: ok");
	assert_null(strstr(buf, "CONTRADICTION"));
	free(buf);
}

/*
 * --all's text prints each process's findings, not its physical section:
 * a contradiction is among the findings there, not lost.
 */
static void summary_keeps_contradiction(void **state)
{
	int mismatch;
	char *buf = report_of_as(REPORT_TEXT, NULL, false, true, &mismatch);

	(void)state;
	assert_true(mismatch);
	assert_contains(buf, "  0x7f0000200000      1 page   kpageflags contradicts ptwalk\n",
			"    CONTRADICTION on 1 page, first 0x7f0000200000 (pfn 0x3000, kpageflags mmap,anon): ptwalk's compound flag");
	assert_null(strstr(buf, "System RAM, struct page"));
	free(buf);
}

/*
 * /proc/iomem is read only when a name or a System RAM test is first
 * needed: never for 4K pages without --kpageflags, once for the first
 * huge range, and for the first checked range with --kpageflags.
 */
static void names_read_when_first_needed(void **state)
{
	struct setup s;
	char name[64];

	(void)state;
	for (int kpf = 0; kpf < 2; kpf++) {
		start(&s, kpf);
		s.totals.iomem = NULL;
		s.f->names = &s.iomem;
		s.io.load_names = fake_load_names;
		s.f->kpf[0x2000] = ANON_PAGE;
		push(&s, range(VA, 1, CLASS_MATCH, PTWALK_LEVEL_PTE, 0x2000,
			       VALID, ANON_VMA));
		assert_int_equal(witness_flush(s.w), 0);
		assert_int_equal(s.f->loads, kpf);
		assert_int_equal(s.f->n, 1);
		if (!kpf) {
			assert_null(s.totals.iomem);
			assert_true(s.f->notes[0].iomem == IOMEM_NONE);
		} else {
			assert_true(s.f->notes[0].checked);
			assert_string_equal(iomem_path(&s.iomem,
						       s.f->notes[0].iomem,
						       name, sizeof(name)),
					    "System RAM");
		}
		/* a THP: named, from the names read now (or before) */
		for (int i = 0; i < 512; i++)
			s.f->kpf[0x1000 + i] = ANON_PAGE | KPF(THP) |
				(i ? KPF(COMPOUND_TAIL) : KPF(COMPOUND_HEAD));
		push(&s, range(VA + 0x200000, 512, CLASS_MATCH,
			       PTWALK_LEVEL_PMD, 0x1000,
			       VALID | PTWALK_F_COMPOUND, ANON_VMA));
		push(&s, range(VA + 0x400000, 512, CLASS_MATCH,
			       PTWALK_LEVEL_PMD, 0x1000,
			       VALID | PTWALK_F_COMPOUND, ANON_VMA));
		assert_int_equal(witness_flush(s.w), 0);
		assert_int_equal(s.f->loads, 1);
		assert_ptr_equal(s.totals.iomem, &s.iomem);
		assert_int_equal(s.f->n, 3);
		for (int k = 1; k < 3; k++) {
			assert_true(s.f->notes[k].named);
			assert_string_equal(iomem_path(&s.iomem,
						       s.f->notes[k].iomem,
						       name, sizeof(name)),
					    "System RAM");
		}
		stop(&s);
	}
}

UNIT_MAIN("witness", UT(names_read_when_first_needed), UT(reads_runs_not_pages), UT(marks_span_vmas),
	  UT(bounded_batch), UT(lasting_contradiction), UT(freed_between_reads),
	  UT(recheck_record_off_page), UT(agrees_on_second_read),
	  UT(kpageflags_errors_and_absence), UT(recheck_walk_error),
	  UT(totals_restart_keeps_notes),
	  UT(gigantic_leaf_in_windows), UT(json_keys), UT(text_section),
	  UT(summary_keeps_contradiction))
