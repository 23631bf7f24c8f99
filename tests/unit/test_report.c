// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "geom.h"
#include <json-c/json.h>
#include "report/report.h"
#include "json_get.h"
#include "report/page_attrs.h"
#include "report/phys_print.h"
#include "tests/lib/test_lib.h"

#define BASE 0x7f0000000000ULL

struct doc {
	char *buf;
	size_t len;
	FILE *out;
	struct report r;
};

static void doc_open(struct doc *d, enum report_format fmt)
{
	memset(d, 0, sizeof(*d));
	d->out = open_memstream(&d->buf, &d->len);
	assert_non_null(d->out);
	report_init(&d->r, fmt, d->out, tmpfile(), tmpfile(), UT_GEOM_X86, 0);
	assert_non_null(d->r.vmas);
	assert_non_null(d->r.ranges);
}

static void doc_finish(struct doc *d, const char *comm)
{
	struct report_target t = { .pid = 42, .comm = comm, .kernel = "6.1.0" };

	assert_int_equal(report_finish(&d->r, &t), 0);
	fclose(d->r.vmas);
	fclose(d->r.ranges);
	fclose(d->out);
}

/* The finished JSON document, parsed: the test fails if it does not parse. */
static struct json_object *doc_json(struct doc *d, const char *comm)
{
	struct json_object *o;

	doc_finish(d, comm);
	o = json_tokener_parse(d->buf);
	assert_non_null(o);
	return o;
}

/* doc_json()'s object and the document, freed. */
static void doc_json_free(struct doc *d, struct json_object *o)
{
	json_object_put(o);
	free(d->buf);
}

static struct verdict_range range(uint64_t page, uint64_t pages,
				  enum page_class cls, int level, uint64_t walk,
				  uint64_t pm)
{
	struct verdict_range r = {
		.start = BASE + page * 4096, .pages = pages, .cls = cls,
		.level = level, .walk_pfn = walk, .pagemap_pfn = pm,
	};

	r.detail.walk_kind = walk == NO_PFN ? PTWALK_KIND_NONE :
					      PTWALK_KIND_PRESENT;
	r.detail.pm_state = pm == NO_PFN ? PM_STATE_NONE : PM_STATE_PRESENT;
	return r;
}

/*
 * One VMA with a THP, a pfn map finding and a mismatch, one [vsyscall]
 * that is not examined; the name holds characters JSON must escape.
 */
static void feed(struct doc *d, bool with_mismatch)
{
	struct maps_entry vma = {
		.start = BASE, .end = BASE + 0x10000, .perms = "rw-p",
		.name = "/tmp/we\"ird\\name\n",
	};
	struct maps_entry vsys = {
		.start = 0xffffffffff600000ULL, .end = 0xffffffffff601000ULL,
		.perms = "--xp", .name = "[vsyscall]",
	};
	struct compare_summary sum = {
		.huge = HUGE_THP | HUGE_THP_PTE,
		.vm_flags = PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_ANON,
		.have_vm_flags = 1,
	};
	struct verdict_range rs[] = {
		range(0, 8, CLASS_MATCH, PTWALK_LEVEL_PMD, 0x1000, 0x1000),
		range(8, 4, CLASS_NOT_PRESENT, PTWALK_LEVEL_NONE, NO_PFN, NO_PFN),
		range(12, 3, CLASS_PFNMAP_HIDDEN, PTWALK_LEVEL_PTE, 0xfd000, NO_PFN),
		range(15, 1, with_mismatch ? CLASS_MISMATCH : CLASS_PFN_ZEROED,
		      PTWALK_LEVEL_PTE, 0x2000, with_mismatch ? 0x2001 : NO_PFN),
	};
	size_t i;

	/* extended records: a pinned THP on node 1, an uncached BAR */
	rs[0].detail.walk = (struct walk_bits){
		.flags = PTWALK_F_PFN_VALID | PTWALK_F_DMA_PINNED, .info = 1,
		.memtype = PTWALK_MEMTYPE_WB, .node = 1,
	};
	rs[2].detail.walk = (struct walk_bits){
		.info = 1, .memtype = PTWALK_MEMTYPE_UC_MINUS,
		.node = PTWALK_NODE_NONE,
	};
	for (i = 0; i < 4; i++) {
		report_range(&d->r, &rs[i], NULL);
		sum.pages[rs[i].cls] += rs[i].pages;
	}
	report_vma(&d->r, &vma, vma.start, vma.end, &sum, true);
	memset(&sum, 0, sizeof(sum));
	report_vma(&d->r, &vsys, vsys.start, vsys.end, &sum, false);
}

static void json_schema(void **state)
{
	struct json_object *o, *vmas, *ranges, *v, *r;
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_JSON);
	feed(&d, true);
	o = doc_json(&d, "we\"ird");
	assert_int_equal(json_object_get_int(json_get(o, "pid")), 42);
	assert_string_equal(json_object_get_string(json_get(o, "comm")), "we\"ird");
	assert_int_equal(json_object_get_int64(json_get(o, "pages")), 16);
	assert_string_equal(json_object_get_string(json_get(o, "verdict")),
			    "mismatch");
	assert_int_equal(json_object_get_int64(json_get(json_get(o, "summary"), "match")), 8);
	assert_int_equal(json_object_get_int64(json_get(json_get(o, "summary"),
						   "pfnmap_hidden")), 3);
	assert_int_equal(json_object_get_int64(json_get(json_get(o, "summary"),
						   "mismatch")), 1);
	assert_int_equal(json_object_object_length(json_get(o, "summary")),
			 NR_CLASSES);

	vmas = json_get(o, "vmas");
	assert_int_equal(json_object_array_length(vmas), 2);
	v = json_object_array_get_idx(vmas, 0);
	assert_string_equal(json_object_get_string(json_get(v, "start")),
			    "0x7f0000000000");
	assert_string_equal(json_object_get_string(json_get(v, "end")),
			    "0x7f0000010000");
	assert_string_equal(json_object_get_string(json_get(v, "perms")), "rw-p");
	assert_string_equal(json_object_get_string(json_get(v, "name")),
			    "/tmp/we\"ird\\name\n");
	assert_int_equal(json_object_array_length(json_get(v, "vm_flags")), 3);
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(json_get(v, "vm_flags"), 2)), "anon");
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(json_get(v, "huge"), 1)), "thp-pte");
	assert_true(json_object_get_boolean(json_get(v, "examined")));
	v = json_object_array_get_idx(vmas, 1);
	assert_false(json_object_get_boolean(json_get(v, "examined")));
	assert_int_equal(json_object_array_length(json_get(v, "vm_flags")), 0);

	ranges = json_get(o, "ranges");
	assert_int_equal(json_object_array_length(ranges), 4);
	r = json_object_array_get_idx(ranges, 1);
	assert_string_equal(json_object_get_string(json_get(r, "start")),
			    "0x7f0000008000");
	assert_int_equal(json_object_get_int64(json_get(r, "pages")), 4);
	assert_string_equal(json_object_get_string(json_get(r, "class")),
			    "not_present");
	assert_null(json_get(r, "level"));
	assert_null(json_get(r, "walk_pfn"));
	assert_null(json_get(r, "pagemap_pfn"));
	/* not present: nothing known of memory type, pin or node */
	assert_null(json_get(r, "memtype"));
	assert_null(json_get(r, "dma_pinned"));
	assert_null(json_get(r, "node"));
	r = json_object_array_get_idx(ranges, 0);
	assert_string_equal(json_object_get_string(json_get(r, "level")), "pmd");
	assert_string_equal(json_object_get_string(json_get(r, "walk_pfn")),
			    "0x1000");
	assert_string_equal(json_str(r, "memtype"), "wb");
	assert_true(json_object_get_boolean(json_get(r, "dma_pinned")));
	assert_int_equal(json_num(r, "node"), 1);
	r = json_object_array_get_idx(ranges, 2);
	assert_string_equal(json_object_get_string(json_get(r, "class")),
			    "pfnmap_hidden");
	assert_null(json_get(r, "pagemap_pfn"));
	/* no struct page: pinned state and node unknown */
	assert_string_equal(json_str(r, "memtype"), "uc-");
	assert_null(json_get(r, "dma_pinned"));
	assert_null(json_get(r, "node"));
	/* a module without extended records: all three null */
	r = json_object_array_get_idx(ranges, 3);
	assert_null(json_get(r, "memtype"));
	assert_null(json_get(r, "dma_pinned"));
	assert_null(json_get(r, "node"));
	doc_json_free(&d, o);
}

/* The phrase of the text report: what is known, in order, nothing else. */
static void attrs_phrase(void **state)
{
	struct page_detail d = { .walk_kind = PTWALK_KIND_PRESENT };
	char buf[64];

	(void)state;
	assert_string_equal(page_attrs_text(buf, sizeof(buf), &d), "");
	d.walk = (struct walk_bits){ .info = 1, .memtype = PTWALK_MEMTYPE_WC,
				     .node = PTWALK_NODE_NONE };
	assert_string_equal(page_attrs_text(buf, sizeof(buf), &d), "wc");
	d.walk.flags = PTWALK_F_PFN_VALID;
	d.walk.node = 0;
	assert_string_equal(page_attrs_text(buf, sizeof(buf), &d),
			    "wc, not pinned, node 0");
	d.walk.flags |= PTWALK_F_DMA_PINNED;
	d.walk.memtype = PTWALK_MEMTYPE_NONE;
	assert_string_equal(page_attrs_text(buf, sizeof(buf), &d),
			    "dma-pinned, node 0");
	d.walk_kind = PTWALK_KIND_SWAP;
	assert_string_equal(page_attrs_text(buf, sizeof(buf), &d), "");
}

static void json_empty(void **state)
{
	struct json_object *o;
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_JSON);
	o = doc_json(&d, "");
	assert_int_equal(json_object_array_length(json_get(o, "vmas")), 0);
	assert_int_equal(json_object_array_length(json_get(o, "ranges")), 0);
	assert_string_equal(json_object_get_string(json_get(o, "verdict")), "ok");
	doc_json_free(&d, o);
}

static void text_mismatch(void **state)
{
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_TEXT);
	feed(&d, true);
	assert_true(report_has_mismatch(&d.r));
	doc_finish(&d, "target");
	assert_non_null(strstr(d.buf,
		"ptcompare: pid 42 (target), kernel 6.1.0: 16 pages examined in 2 VMAs\n"));
	/* the table row: counts per class, huge kinds, name, VM flags */
	assert_non_null(strstr(d.buf,
		"0x7f0000000000-0x7f0000010000 rw-p       16       8       4       3       0       0       0       0       1  thp,thp-pte"));
	assert_contains(d.buf, "[read,write,anon]\n",
			"(not examined: outside the process's page tables) [vsyscall]");
	/* a name cannot break the table: control characters are escaped */
	assert_contains(d.buf, " /tmp/we\"ird\\name\\012 [read,write,anon]\n");
	/* findings: neither match nor not_present, both sides shown */
	assert_null(strstr(strstr(d.buf, "\nfindings:"), " match "));
	assert_null(strstr(strstr(d.buf, "\nfindings:"), "not_present"));
	assert_non_null(strstr(d.buf,
		"  0x7f000000c000      3 pages  pfnmap_hidden pte  ptwalk: pfn 0xfd000 (phys 0xfd000000) [uc-]; pagemap: hole\n"));
	assert_non_null(strstr(d.buf,
		"  0x7f000000f000      1 page   mismatch      pte  ptwalk: pfn 0x2000 (phys 0x2000000); pagemap: pfn 0x2001\n"));
	assert_contains(d.buf, "\n  mismatch: the page tables and pagemap disagree");
	assert_non_null(strstr(d.buf,
		"\nverdict: MISMATCH: 1 of 16 pages differ between the page tables and pagemap\n"));
	free(d.buf);
}

static void text_zeroed_said_once(void **state)
{
	struct doc d;
	char *note;

	(void)state;
	doc_open(&d, REPORT_TEXT);
	feed(&d, false);
	feed(&d, false);
	assert_false(report_has_mismatch(&d.r));
	doc_finish(&d, "target");
	/* no finding per zeroed range: one note with the count */
	assert_null(strstr(d.buf, "pfn_zeroed    pte"));
	note = strstr(d.buf, "note: pagemap hid the frame numbers of 2 present pages");
	assert_non_null(note);
	assert_null(strstr(note + 1, "note: pagemap hid"));
	assert_non_null(strstr(d.buf,
		"\nverdict: ok: all 32 pages explained (16 match, 8 not_present, 6 pfnmap_hidden, 2 pfn_zeroed)\n"));
	free(d.buf);
}

static void text_nothing(void **state)
{
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_TEXT);
	doc_finish(&d, "idle");
	assert_contains(d.buf, "\nfindings: none\n",
			"\nverdict: ok: all 0 pages explained (no pages)\n");
	free(d.buf);
}

/* A report whose output cannot be written says so. */
static void write_error(void **state)
{
	struct report_target t = { .pid = 1, .comm = "", .kernel = "" };
	struct report r;
	FILE *full = fopen("/dev/full", "w");

	(void)state;
	if (!full)
		skip();
	report_init(&r, REPORT_TEXT, full, tmpfile(), tmpfile(), UT_GEOM_X86, 0);
	assert_true(report_finish(&r, &t) < 0);
	fclose(r.vmas);
	fclose(r.ranges);
	fclose(full);
}

/*
 * The memory-type check's findings: a frame mapped wb and wc.  No page
 * mismatch, so the verdict is memtype_conflict; each mapping listed with
 * its type, in text and JSON.
 */
static void memtype_conflict_finding(void **state)
{
	struct phys_proc procs[] = { { .pid = 42, .comm = "t" } };
	struct phys_vma vmas[] = { { BASE, BASE + 0x10000, "rw-s", "" } };
	struct memtype_conflict c = {
		.pfn = 0x1234, .pages = 1,
		.memtypes = 1U << PTWALK_MEMTYPE_WB | 1U << PTWALK_MEMTYPE_WC,
	};
	struct phys_set set;
	struct phys_view v = {
		.set = &set, .procs = procs, .vmas = vmas, .conflicts = &c,
		.nr_conflicts = 1,
	};
	struct json_object *o, *conf, *m;
	struct doc d;

	(void)state;
	phys_set_init(&set, 0x1234000, 0x1235000, 12, 4);
	set.m = calloc(2, sizeof(*set.m));
	assert_non_null(set.m);
	set.n = set.cap = 2;
	set.m[0] = (struct phys_mapping){ .pid = 42, .addr = BASE,
		.pfn = 0x1234, .pages = 1, .memtype = PTWALK_MEMTYPE_WB };
	set.m[1] = (struct phys_mapping){ .pid = 42, .addr = BASE + 0x8000,
		.pfn = 0x1234, .pages = 1, .memtype = PTWALK_MEMTYPE_WC };

	doc_open(&d, REPORT_JSON);
	feed(&d, false);
	report_add_memtypes(&d.r, &v, 0);
	assert_true(report_has_mismatch(&d.r));
	o = doc_json(&d, "t");
	assert_string_equal(json_object_get_string(json_get(o, "verdict")),
			    "memtype_conflict");
	conf = json_get(o, "conflicts");
	assert_int_equal(json_object_array_length(conf), 1);
	assert_string_equal(json_object_get_string(
		json_get(json_object_array_get_idx(conf, 0), "pfn")), "0x1234");
	m = json_get(json_object_array_get_idx(conf, 0), "mappings");
	assert_int_equal(json_object_array_length(m), 2);
	assert_string_equal(json_object_get_string(json_get(
		json_object_array_get_idx(m, 1), "memtype")), "wc");
	doc_json_free(&d, o);

	doc_open(&d, REPORT_TEXT);
	feed(&d, false);
	report_add_memtypes(&d.r, &v, 7);
	doc_finish(&d, "t");
	assert_non_null(strstr(d.buf, "memtype_conflict: frame 0x1234 mapped with different memory types (wb,wc):\n"
				      "  pid 42 (t) at 0x7f0000000000: wb\n"
				      "  pid 42 (t) at 0x7f0000008000: wc\n"));
	assert_contains(d.buf, "note: 7 pages mapped with another memory type",
			"verdict: MISMATCH: 1 run of frames mapped with different memory types (memtype_conflict)");
	free(d.buf);
	phys_set_free(&set);
}

/* Without the check's findings: an empty array, verdict unchanged. */
static void no_conflicts_key(void **state)
{
	struct json_object *o;
	struct doc d;

	(void)state;
	doc_open(&d, REPORT_JSON);
	feed(&d, false);
	o = doc_json(&d, "t");
	assert_int_equal(json_object_array_length(json_get(o, "conflicts")), 0);
	assert_int_equal(json_object_get_int64(json_get(o, "memtype_unchecked_pages")), 0);
	assert_string_equal(json_object_get_string(json_get(o, "verdict")), "ok");
	doc_json_free(&d, o);
}

/*
 * A 16K arm64 kernel's ranges: leaf_size from the geometry (a contiguous
 * group whole), cont true/false (not null: arm64 has the bit),
 * folio_size from the folio shift, null without one; pages of 16 KiB in
 * page_size; a VMA's kinds by size.
 */
static void json_sizes_16k(void **state)
{
	struct page_geom g = ut_geom_arm64_16k();
	struct maps_entry vma = {
		.start = BASE, .end = BASE + 0x400000, .perms = "rw-p", .name = "",
	};
	struct compare_summary sum = {
		.mthp_shifts = 1ULL << 16, .hugetlb_shifts = 1ULL << 21,
		.huge = HUGE_CONT,
	};
	struct verdict_range rs[3] = {
		{ .start = BASE, .pages = 128, .cls = CLASS_MATCH,
		  .level = PTWALK_LEVEL_PTE, .walk_pfn = 0x1000,
		  .pagemap_pfn = 0x1000 },
		{ .start = BASE + 0x200000, .pages = 4, .cls = CLASS_MATCH,
		  .level = PTWALK_LEVEL_PTE, .walk_pfn = 0x2000,
		  .pagemap_pfn = 0x2000 },
		{ .start = BASE + 0x210000, .pages = 124, .cls = CLASS_NOT_PRESENT },
	};
	struct json_object *o, *r;
	struct doc d;

	(void)state;
	rs[0].detail.walk_kind = rs[1].detail.walk_kind = PTWALK_KIND_PRESENT;
	rs[0].detail.walk = (struct walk_bits){
		.flags = PTWALK_F_PRESENT | PTWALK_F_CONT | PTWALK_F_COMPOUND,
		.info = 1, .folio_shift = 21 };
	rs[1].detail.walk = (struct walk_bits){
		.flags = PTWALK_F_PRESENT | PTWALK_F_COMPOUND, .info = 1,
		.folio_shift = 16 };
	memset(&d, 0, sizeof(d));
	d.out = open_memstream(&d.buf, &d.len);
	assert_non_null(d.out);
	report_init(&d.r, REPORT_JSON, d.out, tmpfile(), tmpfile(), &g,
		    PTWALK_F_SOFT_DIRTY);
	for (int i = 0; i < 3; i++)
		report_range(&d.r, &rs[i], NULL);
	report_vma(&d.r, &vma, vma.start, vma.end, &sum, true);
	o = doc_json(&d, "t");
	assert_int_equal(json_num(o, "page_size"), 16384);
	r = json_object_array_get_idx(json_get(o, "ranges"), 0);
	assert_int_equal(json_num(r, "leaf_size"), 2 << 20);
	assert_true(json_object_get_boolean(json_get(r, "cont")));
	assert_int_equal(json_num(r, "folio_size"), 2 << 20);
	r = json_object_array_get_idx(json_get(o, "ranges"), 1);
	assert_int_equal(json_num(r, "leaf_size"), 16384);
	assert_false(json_object_get_boolean(json_get(r, "cont")));
	assert_true(json_object_is_type(json_get(r, "cont"), json_type_boolean));
	assert_int_equal(json_num(r, "folio_size"), 65536);
	r = json_object_array_get_idx(json_get(o, "ranges"), 2);
	assert_null(json_get(r, "leaf_size"));
	assert_null(json_get(r, "folio_size"));
	assert_string_equal(json_object_to_json_string(
		json_get(json_object_array_get_idx(json_get(o, "vmas"), 0), "huge")),
		"[ \"cont\", \"hugetlb-2M\", \"mthp-64K\" ]");
	doc_json_free(&d, o);
}

/*
 * --all reuses the spools from one process to the next, rewound but not
 * emptied: a second, shorter report over them carries nothing of the
 * first (its mismatch finding and its VMA rows lay beyond).
 */
static void reused_spools_second_report(void **state)
{
	struct report_target t = { .pid = 43, .comm = "next", .kernel = "6.1.0" };
	FILE *vmas = tmpfile(), *ranges = tmpfile();
	struct doc first, second;

	(void)state;
	assert_non_null(vmas);
	assert_non_null(ranges);
	memset(&first, 0, sizeof(first));
	first.out = open_memstream(&first.buf, &first.len);
	report_init(&first.r, REPORT_TEXT, first.out, vmas, ranges,
		    UT_GEOM_X86, 0);
	feed(&first, true);
	assert_int_equal(report_finish(&first.r, &t), 0);
	fclose(first.out);
	assert_contains(first.buf, "mismatch      pte");

	memset(&second, 0, sizeof(second));
	second.out = open_memstream(&second.buf, &second.len);
	assert_int_equal(fseek(vmas, 0, SEEK_SET), 0);
	assert_int_equal(fseek(ranges, 0, SEEK_SET), 0);
	report_init(&second.r, REPORT_TEXT, second.out, vmas, ranges,
		    UT_GEOM_X86, 0);
	struct compare_summary sum = { .pages[CLASS_MATCH] = 1 };
	struct maps_entry m = { .start = BASE, .end = BASE + 4096, .name = "" };

	memcpy(m.perms, "r--p", 4);
	report_vma(&second.r, &m, m.start, m.end, &sum, true);
	assert_int_equal(report_finish(&second.r, &t), 0);
	fclose(second.out);
	assert_null(strstr(second.buf, "mismatch      pte"));
	assert_null(strstr(second.buf, "[vsyscall]"));
	assert_contains(second.buf, "0x7f0000000000-0x7f0000001000 r--p");
	fclose(vmas);
	fclose(ranges);
	free(first.buf);
	free(second.buf);
}

/*
 * --all's text prints each process's totals and findings only: without a
 * VMA spool the report counts the VMAs and pages and keeps the findings.
 */
static void summary_only_counts(void **state)
{
	struct doc d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	memset(&d, 0, sizeof(d));
	report_init(&d.r, REPORT_TEXT, stdout, NULL, tmpfile(), UT_GEOM_X86,
		    0);
	feed(&d, true);
	assert_int_equal(d.r.nr_vmas, 2);
	assert_int_equal(d.r.pages, 16);
	assert_int_equal(d.r.totals[CLASS_MISMATCH], 1);
	assert_int_equal(report_copy_findings(&d.r, f), 0);
	fclose(f);
	assert_contains(buf, "mismatch      pte");
	fclose(d.r.ranges);
	free(buf);
}

UNIT_MAIN("report", UT(json_sizes_16k), UT(json_schema), UT(json_empty), UT(attrs_phrase),
	  UT(text_mismatch), UT(text_zeroed_said_once), UT(text_nothing),
	  UT(write_error), UT(memtype_conflict_finding),
	  UT(no_conflicts_key), UT(reused_spools_second_report),
	  UT(summary_only_counts))
