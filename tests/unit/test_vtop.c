// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "geom.h"
#include <json-c/json.h>
#include "engine/compare.h"
#include "parse/pagemap.h"
#include "engine/vtop.h"
#include "report/diagnose.h"
#include "report/vtop_print.h"
#include "json_get.h"

#define THP_BASE	0x7f18ff000000ULL
#define THP_ADDR	(THP_BASE + 0x12345)
#define LEAF_PFN	0x144e00ULL

/* A 2 MiB THP seen through 5-level paging, as the VM showed it. */
static struct ptwalk_vtop thp_walk(void)
{
	struct ptwalk_vtop w = {
		.addr = THP_ADDR,
		.entry = { 0x14487d067, 0x144897067, 0x144893067,
			   0x8000000144e008e7 },
		.index = { 0, 254, 99, 504 },
		.walked = 0xf,
		.nr_levels = 5,
		.pfn = LEAF_PFN + 0x12,
		.vm_flags = PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_ANON,
		.vma_start = THP_BASE,
		.vma_end = THP_BASE + (2 << 20),
		.flags = PTWALK_F_PRESENT | PTWALK_F_WRITE | PTWALK_F_USER |
			 PTWALK_F_COMPOUND,
		.level = PTWALK_LEVEL_PMD,
		.kind = PTWALK_KIND_PRESENT,
		.stop = PTWALK_VTOP_STOP_LEAF,
	};
	return w;
}

/* An untouched page of an anonymous VMA under 4-level paging. */
static struct ptwalk_vtop empty_walk(uint32_t flags)
{
	struct ptwalk_vtop w = {
		.addr = 0x7f0000001000,
		.entry = { 0x1000067, 0, 0x2000067, 0 },
		.index = { 254, 0, 0, 0 },
		.walked = 1 << PTWALK_VTOP_PGD | 1 << PTWALK_VTOP_PUD |
			  1 << PTWALK_VTOP_PMD,
		.nr_levels = 4,
		.pfn = PTWALK_PFN_NONE,
		.flags = flags,
		.stop = PTWALK_VTOP_STOP_NONE,
	};
	return w;
}

static void classify(void **state)
{
	struct ptwalk_vtop w = thp_walk();

	(void)state;
	/* the 4K sub-page of the huge leaf, not the leaf's first frame */
	assert_int_equal(vtop_classify(&w, PM_PRESENT | (LEAF_PFN + 0x12), UT_GEOM_X86),
			 CLASS_MATCH);
	assert_int_equal(vtop_classify(&w, PM_PRESENT | LEAF_PFN, UT_GEOM_X86),
			 CLASS_MISMATCH);
	assert_int_equal(vtop_classify(&w, PM_PRESENT, UT_GEOM_X86), CLASS_PFN_ZEROED);
	assert_int_equal(vtop_classify(&w, 0, UT_GEOM_X86), CLASS_MISMATCH);
	w.vm_flags |= PTWALK_VM_PFNMAP;
	assert_int_equal(vtop_classify(&w, PM_SOFT_DIRTY, UT_GEOM_X86),
			 CLASS_PFNMAP_HIDDEN);

	w = empty_walk(0);
	assert_int_equal(vtop_classify(&w, 0, UT_GEOM_X86), CLASS_NOT_PRESENT);
	assert_int_equal(vtop_classify(&w, PM_PRESENT | 5, UT_GEOM_X86), CLASS_MISMATCH);

	w.stop = PTWALK_VTOP_STOP_NOT_PRESENT;
	w.kind = PTWALK_KIND_SWAP;
	w.level = PTWALK_LEVEL_PTE;
	w.swap_type = 1;
	w.swap_offset = 0x1a3;
	assert_int_equal(vtop_classify(&w, PM_SWAP | 0x1a3 << 5 | 1, UT_GEOM_X86),
			 CLASS_SWAPPED);
	assert_int_equal(vtop_classify(&w, PM_SWAP | 0x1a4 << 5 | 1, UT_GEOM_X86),
			 CLASS_MISMATCH);
}

/* Both sides as read at successive reads; the last one repeats. */
struct world {
	struct ptwalk_vtop walk[8];
	uint64_t pm[8];
	int n, reads_pm, reads_walk;
	int pm_err, walk_err;
};

static int fake_pagemap(void *ctx, uint64_t addr, uint64_t *raw)
{
	struct world *w = ctx;
	int i = w->reads_pm < w->n ? w->reads_pm : w->n - 1;

	(void)addr;
	w->reads_pm++;
	if (w->pm_err)
		return w->pm_err;
	*raw = w->pm[i];
	return 0;
}

static int fake_walk(void *ctx, uint64_t addr, struct ptwalk_vtop *out)
{
	struct world *w = ctx;
	int i = w->reads_walk < w->n ? w->reads_walk : w->n - 1;

	assert_int_equal(addr, THP_ADDR);
	/* pagemap is read first, then ptwalk, as in the scan */
	assert_int_equal(w->reads_pm, w->reads_walk + 1);
	w->reads_walk++;
	if (w->walk_err)
		return w->walk_err;
	*out = w->walk[i];
	return 0;
}

static int resolve(struct world *w, struct vtop_view *v)
{
	struct vtop_io io = { fake_pagemap, fake_walk, w };

	memset(v, 0, sizeof(*v));
	v->geom = ut_geom_x86();
	return vtop_resolve(&io, THP_ADDR, v);
}

static void resolve_rereads(void **state)
{
	struct world w = { .n = 1 };
	struct vtop_view v;

	(void)state;
	w.walk[0] = thp_walk();
	w.pm[0] = PM_PRESENT | (LEAF_PFN + 0x12);
	assert_int_equal(resolve(&w, &v), 0);
	assert_int_equal(v.cls, CLASS_MATCH);
	assert_int_equal(v.rereads, 0);
	assert_int_equal(w.reads_walk, 1);
	assert_int_equal(vtop_exit_status(&v), EXIT_OK);

	/* differs once (the page moved), then agrees: transient, ok */
	w = (struct world){ .n = 2 };
	w.walk[0] = w.walk[1] = thp_walk();
	w.pm[0] = PM_PRESENT | 0x999;
	w.pm[1] = PM_PRESENT | (LEAF_PFN + 0x12);
	assert_int_equal(resolve(&w, &v), 0);
	assert_int_equal(v.cls, CLASS_TRANSIENT);
	assert_int_equal(v.rereads, 1);
	assert_int_equal(vtop_exit_status(&v), EXIT_OK);

	/*
	 * still differs, but pagemap's frame moved between the reads: the
	 * page is changing, transient after one re-read
	 */
	w = (struct world){ .n = 2 };
	w.walk[0] = w.walk[1] = thp_walk();
	w.pm[0] = PM_PRESENT | 0x999;
	w.pm[1] = PM_PRESENT | 0x998;
	assert_int_equal(resolve(&w, &v), 0);
	assert_int_equal(v.cls, CLASS_TRANSIENT);
	assert_int_equal(v.rereads, 1);
	assert_int_equal(vtop_exit_status(&v), EXIT_OK);

	/* keeps differing the same way: every re-read is spent, then exit 1 */
	w = (struct world){ .n = 1 };
	w.walk[0] = thp_walk();
	w.pm[0] = PM_PRESENT | 0x999;
	assert_int_equal(resolve(&w, &v), 0);
	assert_int_equal(v.cls, CLASS_MISMATCH);
	assert_int_equal(v.rereads, COMPARE_MAX_REREADS);
	assert_int_equal(w.reads_walk, 1 + COMPARE_MAX_REREADS);
	assert_int_equal(vtop_exit_status(&v), EXIT_MISMATCH);

	w.walk_err = -ESRCH;
	assert_int_equal(resolve(&w, &v), -ESRCH);
	w.walk_err = 0;
	w.pm_err = -EIO;
	assert_int_equal(resolve(&w, &v), -EIO);
}

static void vma_lines(void **state)
{
	char inside[] = "7f18ff000000-7f18ff200000 rw-p 00000000 00:00 0 \n";
	char named[] = "7f18fefaa000-7f18fefba000 rw-s 00000000 00:05 9   /dev/my file (deleted)\n";
	char bad[] = "garbage\n";
	struct vtop_vma vma = { 0 };

	(void)state;
	assert_true(vtop_vma_from_line(inside, THP_ADDR, &vma));
	assert_true(vma.found);
	assert_int_equal(vma.start, THP_BASE);
	assert_int_equal(vma.end, THP_BASE + (2 << 20));
	assert_string_equal(vma.perms, "rw-p");
	assert_string_equal(vma.name, "");
	memset(&vma, 0, sizeof(vma));
	/* end is exclusive */
	assert_false(vtop_vma_from_line(named, 0x7f18fefba000, &vma));
	assert_false(vma.found);
	strcpy(named, "7f18fefaa000-7f18fefba000 rw-s 00000000 00:05 9   /dev/my file (deleted)\n");
	assert_true(vtop_vma_from_line(named, 0x7f18fefb9fff, &vma));
	assert_string_equal(vma.name, "/dev/my file (deleted)");
	assert_true(vma.deleted);
	memset(&vma, 0, sizeof(vma));
	assert_false(vtop_vma_from_line(bad, 0, &vma));
	assert_false(vma.found);
}

static char *print(const struct vtop_view *v, bool json)
{
	struct capture c;

	if (json)
		vtop_print_json(capture_open(&c), v);
	else
		vtop_print_text(capture_open(&c), v);
	return capture_close(&c);
}

static struct vtop_view thp_view(void)
{
	struct vtop_view v = {
		.pid = 97, .comm = "demo \"target\"", .kernel = "6.1.0",
		.geom = ut_geom_x86(),
		.addr = THP_ADDR, .walk = thp_walk(),
		.pagemap = PM_PRESENT | PM_MMAP_EXCLUSIVE | (LEAF_PFN + 0x12),
		.cls = CLASS_MATCH,
		.vma = { .found = true, .start = THP_BASE,
			 .end = THP_BASE + (2 << 20), .perms = "rw-p" },
	};
	return v;
}

static void text_huge_leaf(void **state)
{
	struct vtop_view v = thp_view();
	char *out = print(&v, false);

	(void)state;
	assert_contains(out, "address 0x7f18ff012345, 5-level paging",
			"  p4d      254  0x0000000144897067  table\n",
			"  pmd      504  0x8000000144e008e7  leaf (2M page)\n");
	assert_null(strstr(out, "  pte "));
	assert_contains(out, "leaf:    pmd, 2M page at pfn 0x144e00 (phys 0x144e00000)\n",
			"phys:    0x144e12345 = leaf base 0x144e00000 + offset 0x12345 (pfn 0x144e12)\n",
			"flags:   present,write,user,compound\n",
			"vma:     0x7f18ff000000-0x7f18ff200000 rw-p [read,write,anon]\n",
			"pagemap: 0x8100000000144e12: present, pfn 0x144e12, exclusive\n",
			"class:   match: ",
			"verdict: ok\n");
	free(out);
}

/*
 * Memory type, pinned state and node of the frame (text lines, JSON
 * keys); said unknown, null in JSON, where the frame has no struct page
 * or its memory type is none the kernel uses.
 */
static void dma_attrs_of_the_frame(void **state)
{
	struct vtop_view v = thp_view();
	struct json_object *doc;
	char *out;

	(void)state;
	v.walk.memtype = PTWALK_MEMTYPE_WB;
	v.walk.node = 1;
	v.walk.flags |= PTWALK_F_PFN_VALID | PTWALK_F_DMA_PINNED;
	out = print(&v, false);
	assert_contains(out, "memtype: wb\npinned:  yes (page_maybe_dma_pinned(): ",
			"node:    1\n");
	free(out);
	out = print(&v, true);
	doc = json_tokener_parse(out);
	assert_non_null(doc);
	assert_string_equal(json_str(doc, "memtype"), "wb");
	assert_true(json_object_get_boolean(json_get(doc, "dma_pinned")));
	assert_int_equal(json_num(doc, "node"), 1);
	json_object_put(doc);
	free(out);

	/* a BAR: no struct page, so neither pin nor node */
	v.walk.memtype = PTWALK_MEMTYPE_WC;
	v.walk.node = PTWALK_NODE_NONE;
	v.walk.flags &= ~(PTWALK_F_PFN_VALID | PTWALK_F_DMA_PINNED);
	out = print(&v, false);
	assert_contains(out, "memtype: wc\npinned:  unknown (no struct page)\nnode:    none (no struct page)\n");
	free(out);
	v.walk.memtype = PTWALK_MEMTYPE_NONE;
	out = print(&v, true);
	doc = json_tokener_parse(out);
	assert_non_null(doc);
	assert_null(json_get(doc, "memtype"));
	assert_null(json_get(doc, "dma_pinned"));
	assert_null(json_get(doc, "node"));
	json_object_put(doc);
	free(out);
}

/* arm64's 64K hugetlb page: 16 contiguous PTEs, the leaf is the group. */
static void text_contiguous_leaf(void **state)
{
	struct vtop_view v = thp_view();
	char *out;

	(void)state;
	v.walk.level = PTWALK_LEVEL_PTE;
	v.walk.walked |= 1 << PTWALK_VTOP_PTE;
	v.walk.entry[PTWALK_VTOP_PTE] = 0x0070000144e12f43;
	v.walk.index[PTWALK_VTOP_PTE] = 18;
	v.walk.flags |= PTWALK_F_CONT;
	v.walk.vm_flags |= PTWALK_VM_HUGETLB;
	v.absent_flags = PTWALK_F_SOFT_DIRTY | PTWALK_F_UFFD_WP;
	v.geom = ut_geom_arm64_4k();
	out = print(&v, false);
	assert_contains(out, "leaf (64K page)\n",
			"leaf:    pte, 64K page at pfn 0x144e10 (phys 0x144e10000)\n",
			"phys:    0x144e12345 = leaf base 0x144e10000 + offset 0x2345 (pfn 0x144e12)\n",
			"absent:  soft_dirty,uffd_wp (not on this architecture");
	free(out);
	out = print(&v, true);
	assert_contains(out, "\"page_size\":65536",
			"\"absent_flags\":[\"soft_dirty\",\"uffd_wp\"]");
	free(out);
}

static void text_empty_no_vma(void **state)
{
	struct vtop_view v = {
		.pid = 5, .comm = "", .kernel = "6.1.0",
		.geom = ut_geom_x86(),
		.addr = 0x7f0000001000, .walk = empty_walk(PTWALK_F_NO_VMA),
		.cls = CLASS_NOT_PRESENT,
	};
	char *out;

	(void)state;
	out = print(&v, false);
	assert_contains(out, "4-level paging",
			"  p4d        -  folded into the pgd (4-level paging)\n",
			"  pud        0  0x0000000002000067  table\n",
			"  pmd        0  0x0000000000000000  none\n",
			"entry:   nothing mapped",
			"vma:     none: no VMA holds this address\n",
			"pagemap: 0x0000000000000000: not present (a hole)\n",
			"verdict: ok\n");
	free(out);

	v.walk.stop = PTWALK_VTOP_STOP_NOT_PRESENT;
	v.walk.kind = PTWALK_KIND_SWAP;
	v.walk.level = PTWALK_LEVEL_PTE;
	v.walk.swap_type = 1;
	v.walk.swap_offset = 0x1a3;
	v.pagemap = PM_SWAP | 0x1a3 << 5 | 1;
	v.cls = CLASS_MISMATCH;
	v.rereads = 3;
	out = print(&v, false);
	assert_contains(out, "entry:   not present (pte): swap, type 1 offset 0x1a3\n",
			"swapped, type 1 offset 0x1a3",
			"(both sides read 3 more times)\n",
			"verdict: MISMATCH\n");
	free(out);
}

static void json_huge_leaf(void **state)
{
	struct vtop_view v = thp_view();
	char *out = print(&v, true);
	struct json_object *doc = json_tokener_parse(out), *levels, *pm, *vma;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(json_object_get_int(json_get(doc, "pid")), 97);
	assert_string_equal(json_str(doc, "comm"), "demo \"target\"");
	assert_string_equal(json_str(doc, "addr"), "0x7f18ff012345");
	assert_int_equal(json_object_get_int(json_get(doc, "paging_levels")), 5);
	levels = json_get(doc, "levels");
	assert_int_equal(json_object_array_length(levels), 4);
	assert_string_equal(json_str(json_object_array_get_idx(levels, 3), "level"), "pmd");
	assert_string_equal(json_str(json_object_array_get_idx(levels, 3), "state"), "leaf");
	assert_string_equal(json_str(json_object_array_get_idx(levels, 3), "entry"),
			    "0x8000000144e008e7");
	assert_int_equal(json_object_get_int(json_get(json_object_array_get_idx(levels, 1),
						 "index")), 254);
	assert_string_equal(json_str(doc, "stop"), "leaf");
	assert_string_equal(json_str(doc, "level"), "pmd");
	assert_int_equal(json_object_get_int64(json_get(doc, "page_size")), 2 << 20);
	assert_string_equal(json_str(doc, "pfn"), "0x144e12");
	assert_string_equal(json_str(doc, "phys"), "0x144e12345");
	assert_string_equal(json_str(doc, "leaf_pfn"), "0x144e00");
	assert_string_equal(json_str(doc, "leaf_offset"), "0x12345");
	assert_null(json_get(doc, "swap_offset"));
	vma = json_get(doc, "walk_vma");
	assert_string_equal(json_str(vma, "start"), "0x7f18ff000000");
	assert_string_equal(json_str(vma, "end"), "0x7f18ff200000");
	vma = json_get(doc, "vma");
	assert_string_equal(json_str(vma, "start"), "0x7f18ff000000");
	assert_int_equal(json_object_array_length(json_get(vma, "vm_flags")), 3);
	pm = json_get(doc, "pagemap");
	assert_string_equal(json_str(pm, "entry"), "0x8100000000144e12");
	assert_string_equal(json_str(pm, "pfn"), "0x144e12");
	assert_true(json_object_get_boolean(json_get(pm, "exclusive")));
	assert_string_equal(json_str(doc, "class"), "match");
	assert_string_equal(json_str(doc, "verdict"), "ok");
	json_object_put(doc);
	free(out);
}

/*
 * arm64 with 64K pages and 52-bit VAs: 3 levels, the P4D and the PUD
 * both folded into the PGD, the PMD under it.
 */
static void three_levels_fold_pud(void **state)
{
	struct vtop_view v = {
		.pid = 5, .comm = "", .kernel = "6.12.95",
		.geom = ut_geom_arm64_64k(),
		.addr = 0xffff00120000, .walk = empty_walk(0),
		.cls = CLASS_NOT_PRESENT,
	};
	struct json_object *doc, *levels;
	char *out;

	(void)state;
	v.walk.addr = 0xffff00120000;
	v.walk.nr_levels = 3;
	v.walk.walked = 1 << PTWALK_VTOP_PGD | 1 << PTWALK_VTOP_PMD;
	v.walk.entry[PTWALK_VTOP_PUD] = 0;
	out = print(&v, false);
	assert_contains(out, "  p4d        -  folded into the pgd (3-level paging)\n",
			"  pud        -  folded into the pgd (3-level paging)\n",
			"  pmd        0  0x0000000000000000  none\n");
	free(out);
	out = print(&v, true);
	doc = json_tokener_parse(out);
	assert_non_null(doc);
	levels = json_get(doc, "levels");
	/* pgd, the folded p4d and pud, pmd */
	assert_int_equal(json_object_array_length(levels), 4);
	assert_string_equal(json_str(json_object_array_get_idx(levels, 1), "state"),
			    "folded");
	assert_string_equal(json_str(json_object_array_get_idx(levels, 2), "state"),
			    "folded");
	assert_null(json_get(json_object_array_get_idx(levels, 2), "index"));
	assert_string_equal(json_str(json_object_array_get_idx(levels, 3), "state"),
			    "none");
	json_object_put(doc);
	free(out);
}

static void json_empty_no_vma(void **state)
{
	struct vtop_view v = {
		.pid = 5, .comm = "", .kernel = "6.1.0",
		.geom = ut_geom_x86(),
		.addr = 0x7f0000001000, .walk = empty_walk(PTWALK_F_NO_VMA),
		.cls = CLASS_NOT_PRESENT,
	};
	char *out = print(&v, true);
	struct json_object *doc = json_tokener_parse(out), *levels, *p4d;

	(void)state;
	assert_non_null(doc);
	levels = json_get(doc, "levels");
	/* pgd, the folded p4d, pud, pmd */
	assert_int_equal(json_object_array_length(levels), 4);
	p4d = json_object_array_get_idx(levels, 1);
	assert_string_equal(json_str(p4d, "state"), "folded");
	assert_null(json_get(p4d, "entry"));
	assert_string_equal(json_str(json_object_array_get_idx(levels, 3), "state"),
			    "none");
	assert_string_equal(json_str(doc, "stop"), "none");
	assert_null(json_get(doc, "level"));
	assert_null(json_get(doc, "pfn"));
	assert_null(json_get(doc, "phys"));
	assert_null(json_get(doc, "vma"));
	assert_null(json_get(doc, "walk_vma"));
	assert_string_equal(json_str(doc, "class"), "not_present");
	json_object_put(doc);
	free(out);
}

static void diagnose(void **state)
{
	char msg[256];

	(void)state;
	assert_int_equal(vtop_diagnose(EOPNOTSUPP, 7, 0x1000, msg,
				       sizeof(msg)), FAIL_INTERNAL);
	assert_contains(msg, "answers no vtop query");
	assert_int_equal(vtop_diagnose(ERANGE, 7, 0xffff800000000000ULL, msg,
				       sizeof(msg)), FAIL_USAGE);
	assert_contains(msg, "0xffff800000000000 is outside the user address space of process 7");
	assert_int_equal(vtop_diagnose(ESRCH, 7, 0, msg, sizeof(msg)),
			 FAIL_NO_TARGET);
	assert_contains(msg, "no process 7");
}

UNIT_MAIN("vtop", UT(classify), UT(resolve_rereads), UT(vma_lines),
	  UT(text_huge_leaf), UT(text_contiguous_leaf), UT(text_empty_no_vma),
	  UT(json_huge_leaf), UT(dma_attrs_of_the_frame), UT(json_empty_no_vma), UT(three_levels_fold_pud),
	  UT(diagnose))
