// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID ADDR (vtop): one address of this process, translated by
 * ptwalk level by level, checked against what x86 and the fixture's
 * oracle say independently: the index at each level from the address
 * bits, the frame from get_user_pages()/follow_pfn(), the raw PTE from
 * the fixture (the kernel's own PTE lookup: follow_pte() until 6.11,
 * apply_to_page_range() or follow_pfnmap_start() since 6.12, compared bit
 * for bit, software bits such as soft-dirty and special included), the
 * physical address from the oracle's frame and the
 * address's offset, the leaf's raw entry against the oracle's frame.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/mman.h>
#include "../../module/ptwalk_names.h"
#include "ptcompare_run.h"
#include "vmtest.h"

#define FIXTURE_LIAR	"/sys/kernel/debug/ptwalk_fixture_liar"

/* What the translation of one address must show. */
struct want {
	const char *stop;	/* "leaf", "none", "not_present" */
	const char *last;	/* level where the walk stops: "pte", ... */
	const char *cls;	/* ptcompare's class */
	uint64_t page_size;	/* leaf size, 0 when no leaf */
	uint64_t vma_start, vma_end;	/* 0, 0: no VMA */
	bool raw_pte;		/* the PTE must equal the fixture's */
};

/*
 * The lowest address bit a level's index takes: PAGE / 8 entries a table
 * (9 bits with 4K pages, 11 with 16K), the PGD's above the levels in use.
 */
static unsigned int vtop_level_shift(int l, int nr_levels)
{
	unsigned int b = PAGE_SHIFT_K - 3;

	switch (l) {
	case PTWALK_VTOP_PGD:
		return PAGE_SHIFT_K + (nr_levels - 1) * b;
	case PTWALK_VTOP_P4D:
		return PAGE_SHIFT_K + 3 * b;
	case PTWALK_VTOP_PUD:
		return PAGE_SHIFT_K + 2 * b;
	case PTWALK_VTOP_PMD:
		return PAGE_SHIFT_K + b;
	default:
		return PAGE_SHIFT_K;
	}
}

/* A table's index mask: PAGE / 8 entries. */
#define INDEX_MASK	(PAGE / 8 - 1)

static unsigned int level_shift(const char *level, int nr_levels)
{
	int l;

	for (l = 0; l < PTWALK_VTOP_NR_LEVELS; l++)
		if (!strcmp(level, ptwalk_vtop_level_name(l)))
			return vtop_level_shift(l, nr_levels);
	return PAGE_SHIFT_K;
}

static bool hex_of(struct vmtest *t, struct json_object *o, const char *key,
		   uint64_t *out)
{
	return pc_hex(o, key, out) ||
	       fail(t, "vtop JSON %s: absent, or not null nor a hex string: %s",
		    key, json_object_to_json_string(o));
}

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v = pc_get(o, key);

	return v && json_object_is_type(v, json_type_string) ?
		json_object_get_string(v) : "(null)";
}

/* Runs ptcompare --json PID ADDR on this process, expecting exit 0. */
static bool vtop_json(struct vmtest *t, struct pc_result *r, uint64_t addr)
{
	char a[32], pid[16];
	const char *argv[] = { "ptcompare", "--json", pid, a, NULL };
	enum json_tokener_error jerr;

	snprintf(a, sizeof(a), "0x%" PRIx64, addr);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (!pc_run(t, r, argv))
		return false;
	if (r->status != 0)
		return fail(t, "ptcompare vtop 0x%" PRIx64 " exited %d: %s",
			    addr, r->status, r->err);
	r->doc = json_tokener_parse_verbose(r->out, &jerr);
	if (!r->doc)
		return fail(t, "ptcompare vtop printed invalid JSON: %s",
			    json_tokener_error_desc(jerr));
	return true;
}

/*
 * The table whose entry the walk stops at for a leaf of level @last: that
 * level's own, or the top table (the PGD's) where the paging folds it
 * (ptwalk_vtop_slot(): a PMD leaf with two levels, arm64's 64K pages
 * with 42-bit VAs).
 */
static const char *stop_table(const char *last, int nr_levels)
{
	unsigned int l;

	for (l = 0; l < PTWALK_VTOP_NR_LEVELS; l++)
		if (!strcmp(last, ptwalk_vtop_level_name(l)))
			return ptwalk_vtop_level_name(ptwalk_vtop_slot(l, nr_levels));
	return last;
}

/*
 * The levels: indexes from the address bits, every level above the last
 * a present table, folded exactly the levels the paging in use lacks (the
 * P4D with 4 levels, the PUD too with 3: arm64's 64K pages; the PMD too
 * with 2), the list ending at the leaf's level (folded or not), the leaf's
 * state in the table that holds it, and the leaf named by its own level.
 * Returns the raw entry of the last level in *last_entry.
 */
static bool check_levels(struct vmtest *t, struct json_object *doc,
			 uint64_t addr, const struct want *w,
			 uint64_t *last_entry)
{
	struct json_object *levels = pc_get(doc, "levels");
	int nr = json_object_get_int(pc_get(doc, "paging_levels"));
	int want_nr = user_paging_levels();
	size_t i, n = json_object_array_length(levels);
	const char *table = stop_table(w->last, nr);

	if (nr != want_nr)
		return fail(t, "vtop: %d-level paging, mmap says %d", nr, want_nr);
	if (!n || strcmp(str_of(json_object_array_get_idx(levels, n - 1),
				"level"), w->last))
		return fail(t, "vtop 0x%" PRIx64 ": walk stops at %s, expected %s",
			    addr, n ? str_of(json_object_array_get_idx(levels, n - 1),
					     "level") : "nothing", w->last);
	if ((!strcmp(w->stop, "leaf") || !strcmp(w->stop, "not_present")) &&
	    strcmp(str_of(doc, "level"), w->last))
		return fail(t, "vtop 0x%" PRIx64 ": a %s leaf, expected %s",
			    addr, str_of(doc, "level"), w->last);
	for (i = 0; i < n; i++) {
		struct json_object *l = json_object_array_get_idx(levels, i);
		const char *name = str_of(l, "level"), *state = str_of(l, "state");
		uint64_t entry;
		int index;

		if (strcmp(name, ptwalk_vtop_level_name(i)))
			return fail(t, "vtop level %zu is %s", i, name);
		if (i > PTWALK_VTOP_PGD && i < PTWALK_VTOP_PTE &&
		    i + nr <= PTWALK_VTOP_NR_LEVELS) {
			if (strcmp(state, "folded"))
				return fail(t, "%d-level paging, %s %s", nr,
					    name, state);
			continue;
		}
		if (!strcmp(state, "folded"))
			return fail(t, "%s folded under %d-level paging", name, nr);
		index = json_object_get_int(pc_get(l, "index"));
		if ((uint64_t)index != (addr >> level_shift(name, nr) & INDEX_MASK))
			return fail(t, "vtop 0x%" PRIx64 ": %s index %d, expected %" PRIu64,
				    addr, name, index,
				    addr >> level_shift(name, nr) & INDEX_MASK);
		if (!hex_of(t, l, "entry", &entry))
			return false;
		/* the leaf's entry is in @table's, folded levels after it */
		if (strcmp(name, table) &&
		    (strcmp(state, "table") || !(entry & 1)))
			return fail(t, "vtop %s: %s entry 0x%" PRIx64
				    " above the last level", name, state, entry);
		if (!strcmp(name, table) && strcmp(state, w->stop))
			return fail(t, "vtop %s: state %s, expected %s", name,
				    state, w->stop);
		*last_entry = entry;
	}
	return strcmp(str_of(doc, "stop"), w->stop) == 0 ||
	       fail(t, "vtop stop %s, expected %s", str_of(doc, "stop"), w->stop);
}

/* Frame, physical address and leaf entry against the oracle. */
static bool check_frame(struct vmtest *t, struct json_object *doc,
			uint64_t addr, const struct want *w, uint64_t leaf)
{
	struct ptwalk_fixture_translate o;
	uint64_t pfn, phys, leaf_pfn, size = w->page_size;

	if (!oracle(t, addr, &o) || !hex_of(t, doc, "pfn", &pfn) ||
	    !hex_of(t, doc, "phys", &phys) ||
	    !hex_of(t, doc, "leaf_pfn", &leaf_pfn))
		return false;
	if (!size)
		return (o.status == PTWALK_FIXTURE_NOT_MAPPED && pfn == NO_PFN &&
			phys == NO_PFN) ||
		       fail(t, "vtop 0x%" PRIx64 ": pfn 0x%" PRIx64
			    ", oracle %s", addr, pfn,
			    o.status ? "mapped" : "not mapped");
	if (o.status != PTWALK_FIXTURE_MAPPED || pfn != o.pfn)
		return fail(t, "vtop 0x%" PRIx64 ": pfn 0x%" PRIx64
			    ", oracle %s 0x%" PRIx64, addr, pfn,
			    o.status ? "mapped" : "not mapped", (uint64_t)o.pfn);
	if (phys != (o.pfn << PAGE_SHIFT_K | (addr & (PAGE - 1))))
		return fail(t, "vtop 0x%" PRIx64 ": phys 0x%" PRIx64
			    ", oracle frame 0x%" PRIx64 " + offset 0x%" PRIx64,
			    addr, phys, (uint64_t)o.pfn, addr & (PAGE - 1));
	if (json_object_get_int64(pc_get(doc, "page_size")) != (int64_t)size)
		return fail(t, "vtop page_size %" PRId64 ", expected %" PRIu64,
			    json_object_get_int64(pc_get(doc, "page_size")), size);
	if (leaf_pfn != o.pfn - ((addr & (size - 1)) >> PAGE_SHIFT_K))
		return fail(t, "vtop leaf_pfn 0x%" PRIx64 " for oracle frame 0x%"
			    PRIx64, leaf_pfn, (uint64_t)o.pfn);
	/* The leaf's own bits name the leaf's first frame. */
	if ((ENTRY_ADDR(leaf) & ~(size - 1)) != leaf_pfn << PAGE_SHIFT_K)
		return fail(t, "vtop leaf entry 0x%" PRIx64 " does not encode frame 0x%"
			    PRIx64, leaf, leaf_pfn);
	return true;
}

/* The raw PTE, read by the kernel's own lookup in the fixture. */
static bool check_raw_pte(struct vmtest *t, uint64_t addr, uint64_t pte)
{
	struct ptwalk_fixture_pte p = { .addr = addr & ~(PAGE - 1) };

	if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PTE, &p))
		return fail(t, "fixture pte: %s", strerror(errno));
	if (p.err)
		return fail(t, "fixture raw pte 0x%" PRIx64 ": %s", addr,
			    strerror(-p.err));
	return p.pte == pte ||
	       fail(t, "vtop 0x%" PRIx64 ": pte 0x%" PRIx64 ", fixture 0x%"
		    PRIx64, addr, pte, (uint64_t)p.pte);
}

static bool check_vma_and_pagemap(struct vmtest *t, struct json_object *doc,
				  const struct want *w)
{
	struct json_object *pm = pc_get(doc, "pagemap");
	static const char *const keys[] = { "vma", "walk_vma" };
	uint64_t s, e, pm_pfn, pfn;

	/* maps' VMA, and the one ptwalk found itself */
	for (size_t i = 0; i < 2; i++) {
		struct json_object *vma = pc_get(doc, keys[i]);

		if (!w->vma_start && vma)
			return fail(t, "vtop: a %s where there is none: %s",
				    keys[i], json_object_to_json_string(vma));
		if (w->vma_start &&
		    (!vma || !hex_of(t, vma, "start", &s) ||
		     !hex_of(t, vma, "end", &e) || s != w->vma_start ||
		     e != w->vma_end))
			return fail(t, "vtop %s %s, expected 0x%" PRIx64 "-0x%" PRIx64,
				    keys[i],
				    vma ? json_object_to_json_string(vma) : "null",
				    w->vma_start, w->vma_end);
	}
	if (strcmp(str_of(doc, "class"), w->cls))
		return fail(t, "vtop class %s, expected %s", str_of(doc, "class"),
			    w->cls);
	if (!pm || !hex_of(t, pm, "pfn", &pm_pfn) || !hex_of(t, doc, "pfn", &pfn))
		return fail(t, "vtop JSON without pagemap");
	/* match: pagemap shows the frame; every other class here: none */
	if (!strcmp(w->cls, "match") ? pm_pfn != pfn : pm_pfn != NO_PFN)
		return fail(t, "vtop %s, pagemap pfn 0x%" PRIx64 ", ptwalk 0x%" PRIx64,
			    w->cls, pm_pfn, pfn);
	return strcmp(str_of(doc, "verdict"), "ok") == 0 ||
	       fail(t, "vtop verdict %s", str_of(doc, "verdict"));
}

static bool check_vtop(struct vmtest *t, uint64_t addr, const struct want *w)
{
	struct pc_result r;
	uint64_t last = 0;
	bool ok;

	ok = vtop_json(t, &r, addr) && check_levels(t, r.doc, addr, w, &last) &&
	     check_frame(t, r.doc, addr, w, last) &&
	     check_vma_and_pagemap(t, r.doc, w) &&
	     (!w->raw_pte || check_raw_pte(t, addr, last));
	pc_free(&r);
	return ok;
}

/*
 * An anonymous mapping that is a VMA of its own, as the cases' expected
 * VMA bounds say: @len bytes at an @align boundary, between two PROT_NONE
 * guard pages, which no read-write neighbour merges with.  Mapped at
 * NULL, a mapping lands next to whatever the process holds, and the
 * madvise() that follows may merge it with a neighbour of the same flags
 * (7.2 placed one right below an 8 MiB read-write NOHUGEPAGE VMA).
 */
static char *map_alone(struct vmtest *t, size_t len, size_t align, int advice)
{
	size_t span = len + align + 2 * PAGE;
	char *r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	char *p;

	if (r == MAP_FAILED) {
		fail(t, "mmap %zu bytes: %s", span, strerror(errno));
		return NULL;
	}
	p = (char *)(((uintptr_t)r + PAGE + align - 1) & ~(uintptr_t)(align - 1));
	/* one guard page left on each side */
	if (p - PAGE > r)
		munmap(r, p - PAGE - r);
	munmap(p + len + PAGE, r + span - (p + len + PAGE));
	if (mprotect(p, len, PROT_READ | PROT_WRITE) ||
	    (advice >= 0 && madvise(p, len, advice))) {
		fail(t, "mprotect or madvise %d: %s", advice, strerror(errno));
		munmap(p - PAGE, len + 2 * PAGE);
		return NULL;
	}
	return p;
}

/* Unmaps what map_alone() mapped, its guard pages too. */
static void unmap_alone(char *p, size_t len)
{
	munmap(p - PAGE, len + 2 * PAGE);
}

VMTEST_CASE(vtop, "vtop_anon_4k", vtop_anon_4k)
{
	size_t len = 16 * PAGE;
	char *p = map_alone(t, len, PAGE, MADV_NOHUGEPAGE);
	struct want w = {
		.stop = "leaf", .last = "pte", .cls = "match", .page_size = PAGE,
		.vma_start = A(p), .vma_end = A(p) + len, .raw_pte = true,
	};
	bool ok;

	if (!p)
		return false;
	touch_write(p, len);
	ok = check_vtop(t, A(p) + 5 * PAGE + 0x9a7, &w) &&
	     check_vtop(t, A(p) + len - 1, &w);
	unmap_alone(p, len);
	return ok;
}

/* A THP of one PMD leaf: 2M with 4K pages, 32M with 16K. */
VMTEST_CASE(vtop, "vtop_thp_pmd", vtop_thp)
{
	size_t len = vm_granule().pmd;
	char *p = map_alone(t, len, len, MADV_HUGEPAGE);
	struct want w = {
		.stop = "leaf", .last = "pmd", .cls = "match",
		.page_size = len, .vma_start = A(p), .vma_end = A(p) + len,
	};
	bool ok;

	if (!p)
		return false;
	touch_write(p, len);
	ok = check_vtop(t, A(p) + 0x123456 % len, &w);
	unmap_alone(p, len);
	return ok;
}

static bool vtop_hugetlb(struct vmtest *t, size_t size, int size_flag,
			 const char *last)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | size_flag,
		       -1, 0);
	struct want w = {
		.stop = "leaf", .last = last, .cls = "match", .page_size = size,
		.vma_start = A(p), .vma_end = A(p) + size,
	};
	bool ok;

	if (p == MAP_FAILED)
		return fail(t, "mmap hugetlb %zu: %s", size, strerror(errno));
	touch_write(p, size);
#if defined(__riscv)
	/*
	 * A NAPOT group: get_user_pages(), the oracle, is right about its
	 * first page alone (hugetlb_64k_cont checks every page's frame)
	 */
	if (size == vm_granule().cont_pte) {
		ok = check_vtop(t, A(p) + 0x789, &w);
		munmap(p, size);
		return ok;
	}
#endif
	ok = check_vtop(t, A(p) + size / 2 + 3 * PAGE / 4 + 0x789, &w);
	munmap(p, size);
	return ok;
}

/* The PMD leaf's hugetlb page (the 4K name: 32M with 16K pages). */
VMTEST_CASE(vtop, "vtop_hugetlb_2m", vtop_hugetlb_2m)
{
	size_t size = vm_granule().pmd;

	return vtop_hugetlb(t, size, map_huge_flag(size), "pmd");
}

/*
 * The PUD leaf's: 1G with 4K pages; arm64 16K and 64K have none, and the
 * kernel must refuse that size (vm_no_pud_hugetlb()).
 */
VMTEST_CASE(vtop, "vtop_hugetlb_1g", vtop_hugetlb_1g)
{
	if (!vm_granule().pud)
		return vm_no_pud_hugetlb(t, "vtop_hugetlb_1g");
	return vtop_hugetlb(t, GIB, MAP_HUGE_1GB, "pud");
}

#if defined(__aarch64__) || defined(__riscv)
/*
 * arm64's contiguous groups, riscv64's NAPOT ones: the leaf is the whole
 * group, not one entry.
 */
VMTEST_CASE(vtop, "vtop_hugetlb_64k", vtop_hugetlb_64k)
{
	size_t size = vm_granule().cont_pte;

	return vtop_hugetlb(t, size, map_huge_flag(size), "pte");
}
#endif

#if defined(__aarch64__)
VMTEST_CASE(vtop, "vtop_hugetlb_32m", vtop_hugetlb_32m)
{
	size_t size = vm_granule().cont_pmd;

	if (vm_hugetlb_exceeds_ram(size))
		return vm_hugetlb_beyond_ram(t, size, "vtop_hugetlb_32m");
	return vtop_hugetlb(t, size, map_huge_flag(size), "pmd");
}
#endif

/* remap_pfn_range(): pagemap shows holes; ptwalk the fixture's frames. */
VMTEST_CASE(vtop, "vtop_pfnmap", vtop_pfnmap)
{
	size_t len = PTWALK_FIXTURE_PAGES * PAGE;
	struct ptwalk_fixture_pfns known;
	struct want w = {
		.stop = "leaf", .last = "pte", .cls = "pfnmap_hidden",
		.page_size = PAGE, .raw_pte = true,
	};
	struct pc_result r = { 0 };
	uint64_t pfn;
	char *p;
	bool ok;

	p = vm_map_fixture(t, &known);
	if (!p)
		return false;
	w.vma_start = A(p);
	w.vma_end = A(p) + len;
	/* a reversed single page: its frame is known to the fixture only */
	ok = check_vtop(t, A(p) + 12 * PAGE + 0x10, &w) &&
	     vtop_json(t, &r, A(p) + 12 * PAGE + 0x10);
	ok = ok && hex_of(t, r.doc, "pfn", &pfn) &&
	     (pfn == known.pfn[12] ||
	      fail(t, "vtop pfn 0x%" PRIx64 ", fixture mapped 0x%" PRIx64, pfn,
		   (uint64_t)known.pfn[12]));
	if (r.out)
		pc_free(&r);
	munmap(p, len);
	return ok;
}

VMTEST_CASE(vtop, "vtop_unmapped_in_vma", vtop_unmapped_in_vma)
{
	size_t len = 64 * PAGE;
	char *p = map_alone(t, len, PAGE, MADV_NOHUGEPAGE);
	struct want w = {
		.stop = "none", .cls = "not_present",
		.vma_start = A(p), .vma_end = A(p) + len,
	};
	bool ok;

	if (!p)
		return false;
	/* one touched page keeps the PTE table: the walk reaches the PTE */
	touch_write(p, PAGE);
	w.last = "pte";
	ok = check_vtop(t, A(p) + 7 * PAGE + 0x42, &w);
	unmap_alone(p, len);
	return ok;
}

/*
 * An address between two VMAs is answered as a range query answers it:
 * no VMA, nothing walked (no level read, the tables there not stable
 * under the read lock and the write lock not taken for an opener), not
 * present, exit 0; the oracle finds nothing mapped there either.
 */
VMTEST_CASE(vtop, "vtop_no_vma", vtop_no_vma)
{
	char *p = map_anon(t, 3 * PAGE, MAP_PRIVATE | MAP_ANONYMOUS,
			   MADV_NOHUGEPAGE);
	struct ptwalk_fixture_translate o;
	char a[32], pid[16];
	const char *argv[] = { "ptcompare", pid, a, NULL };
	struct pc_result r = { 0 };
	struct json_object *levels;
	size_t walked = 0;
	bool ok;

	if (!p)
		return false;
	touch_write(p, 3 * PAGE);
	munmap(p + PAGE, PAGE);
	ok = vtop_json(t, &r, A(p) + PAGE + 0x800) &&
	     oracle(t, A(p) + PAGE + 0x800, &o);
	levels = ok ? pc_get(r.doc, "levels") : NULL;
	for (size_t i = 0; levels && i < json_object_array_length(levels); i++)
		if (strcmp(str_of(json_object_array_get_idx(levels, i),
				  "state"), "folded"))
			walked++;
	ok = ok && ((!strcmp(str_of(r.doc, "stop"), "none") && !walked &&
		     o.status == PTWALK_FIXTURE_NOT_MAPPED &&
		     pc_hex_or_none(r.doc, "pfn") == NO_PFN) ||
		    fail(t, "vtop outside every VMA: stop %s, %zu levels walked, pfn 0x%" PRIx64 ", oracle %s",
			 str_of(r.doc, "stop"), walked,
			 pc_hex_or_none(r.doc, "pfn"),
			 o.status ? "mapped" : "not mapped"));
	pc_free(&r);
	snprintf(a, sizeof(a), "0x%" PRIx64, A(p) + PAGE + 0x800);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ok = ok && pc_run(t, &r, argv);
	if (ok) {
		ok = (r.status == 0 && strstr(r.out, "vma:     none: no VMA holds this address") &&
		      strstr(r.out, "class:   not_present") &&
		      strstr(r.out, "verdict: ok")) ||
		     fail(t, "vtop text for no VMA (exit %d): %s", r.status, r.out);
		pc_free(&r);
	}
	munmap(p, 3 * PAGE);
	return ok;
}

/* zram swap and MADV_PAGEOUT, as swapped_pages does. */
VMTEST_CASE(vtop, "vtop_swapped", vtop_swapped)
{
	size_t len = 16 * PAGE;
	char *p = map_alone(t, len, PAGE, MADV_NOHUGEPAGE);
	struct ptwalk_fixture_translate o;
	struct pc_result r = { 0 };
	struct json_object *pm;
	uint64_t off, pm_off, entry = 0;
	struct want w = {
		.stop = "not_present", .last = "pte", .cls = "swapped",
		.vma_start = A(p), .vma_end = A(p) + len,
	};
	uint64_t addr = A(p) + 3 * PAGE + 0x77;
	bool ok;

	if (!p)
		return false;
	memset(p, 0x5a, len);
	if (madvise(p, len, MADV_PAGEOUT)) {
		unmap_alone(p, len);
		return fail(t, "MADV_PAGEOUT: %s", strerror(errno));
	}
	ok = oracle(t, addr, &o) &&
	     (o.status == PTWALK_FIXTURE_NOT_MAPPED ||
	      fail(t, "MADV_PAGEOUT left the page mapped (no swap?)")) &&
	     vtop_json(t, &r, addr) && check_levels(t, r.doc, addr, &w, &entry) &&
	     check_vma_and_pagemap(t, r.doc, &w) &&
	     (!strcmp(str_of(r.doc, "kind"), "swap") ||
	      fail(t, "vtop kind %s", str_of(r.doc, "kind")));
	pm = ok ? pc_get(r.doc, "pagemap") : NULL;
	ok = ok && hex_of(t, r.doc, "swap_offset", &off) &&
	     hex_of(t, pm, "swap_offset", &pm_off) &&
	     ((off == pm_off && json_object_get_int(pc_get(r.doc, "swap_type")) ==
				json_object_get_int(pc_get(pm, "swap_type"))) ||
	      fail(t, "swap entry: ptwalk offset 0x%" PRIx64 ", pagemap 0x%" PRIx64,
		   off, pm_off)) &&
	     /* a swap PTE: not present, not empty */
	     (((entry & 1) == 0 && entry != 0) ||
	      fail(t, "swap pte 0x%" PRIx64, entry));
	if (r.out)
		pc_free(&r);
	ok = ok && (p[3 * PAGE] == 0x5a || fail(t, "contents changed by swap"));
	unmap_alone(p, len);
	return ok;
}

/*
 * The top of the user address space, where the PGD index is highest:
 * above 2^48 with 5-level paging (x86-64 LA57), else the last page below
 * the task size (x86-64: 2^47 - 4 KiB, PGD index 255; arm64 with 48-bit
 * VAs: 2^48, PGD index 511).
 */
VMTEST_CASE(vtop, "vtop_high_address", vtop_high_address)
{
	uint64_t top = user_task_size();
	char *p;
	struct want w = {
		.stop = "leaf", .last = "pte", .cls = "match", .page_size = PAGE,
		.raw_pte = true,
	};
	bool ok;

	if (user_paging_levels() == 5)
		p = mmap((void *)(0x5aULL << 48), PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else
		p = mmap((void *)(uintptr_t)(top - PAGE), PAGE,
			 PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return fail(t, "no mapping at the top of user space (0x%" PRIx64 "): %s",
			    top, strerror(errno));
	if (user_paging_levels() == 5 && A(p) < 1ULL << 48) {
		munmap(p, PAGE);
		return fail(t, "no mapping above 2^48: %p", (void *)p);
	}
	printf("# vtop_high_address: %d-level paging, task size 0x%" PRIx64 ", page at %p\n",
	       user_paging_levels(), top, (void *)p);
	touch_write(p, PAGE);
	w.vma_start = A(p);
	w.vma_end = A(p) + PAGE;
	ok = check_vtop(t, A(p) + 0xabc, &w);
	munmap(p, PAGE);
	return ok;
}

/* The human form of a 4K translation, line by line. */
VMTEST_CASE(vtop, "vtop_text", vtop_text)
{
	char *p = map_anon(t, PAGE, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	struct ptwalk_fixture_translate o;
	char a[32], pid[16], line[128], label[16];
	const char *argv[] = { "ptcompare", "--vtop", a, pid, NULL };
	struct ptwalk_fixture_pte pte;
	struct pc_result r;
	uint64_t addr;
	bool ok;

	if (!p)
		return false;
	touch_write(p, PAGE);
	addr = A(p) + 0x321;
	pte.addr = A(p);
	snprintf(a, sizeof(a), "%" PRIx64, addr);	/* without 0x */
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ok = oracle(t, addr, &o) && !ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PTE, &pte) &&
	     !pte.err && pc_run(t, &r, argv);
	if (!ok) {
		munmap(p, PAGE);
		return t->why[0] || fail(t, "oracle or fixture raw pte failed");
	}
	snprintf(line, sizeof(line), "  pte    %5" PRIu64 "  0x%016" PRIx64
		 "  leaf (%s page)\n", addr >> PAGE_SHIFT_K & (PAGE / 8 - 1), (uint64_t)pte.pte,
		 size_label(label, sizeof(label), PAGE));
	ok = (r.status == 0 || fail(t, "exit %d: %s", r.status, r.err)) &&
	     (strstr(r.out, line) || fail(t, "no line '%s' in: %s", line, r.out));
	snprintf(line, sizeof(line), "phys:    0x%" PRIx64 " = leaf base 0x%" PRIx64
		 " + offset 0x321 (pfn 0x%" PRIx64 ")\n", (uint64_t)o.pfn << PAGE_SHIFT_K | 0x321,
		 (uint64_t)o.pfn << PAGE_SHIFT_K, (uint64_t)o.pfn);
	ok = ok && (strstr(r.out, line) || fail(t, "no line '%s' in: %s", line, r.out)) &&
	     ((strstr(r.out, "class:   match") && strstr(r.out, "verdict: ok\n")) ||
	      fail(t, "no match verdict in: %s", r.out));
	pc_free(&r);
	munmap(p, PAGE);
	return ok;
}

/* ptcompare run with argv: exit status want, stderr holding needle. */
static bool expect_exit(struct vmtest *t, const char *const argv[], int want,
			const char *needle)
{
	struct pc_result r;
	bool ok;

	if (!pc_run(t, &r, argv))
		return false;
	ok = (r.status == want && strstr(r.err, needle) && !r.len) ||
	     fail(t, "ptcompare %s %s: exit %d (want %d), said '%s' (want '%s')",
		  argv[1], argv[2], r.status, want, r.err, needle);
	pc_free(&r);
	return ok;
}

VMTEST_CASE(vtop, "vtop_errors", vtop_errors)
{
	char pid[16];
	const char *high[] = { "ptcompare", pid, "0xffff800000000000", NULL };
	const char *task[] = { "ptcompare", pid, "0x100000000000000", NULL };
	const char *bad[] = { "ptcompare", pid, "0x12zz", NULL };
	const char *both[] = { "ptcompare", "--vtop", "1000", pid, "2000", NULL };
	const char *range[] = { "ptcompare", "--range", "0-1000", pid, "1000", NULL };
	const char *nopid[] = { "ptcompare", "4194000", "1000", NULL };
	const char *old[] = { "ptcompare", "--debugfs", FIXTURE_LIAR, pid,
			      "0x400000", NULL };

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return expect_exit(t, high, EXIT_USAGE, "outside the user address space") &&
	       /* 2^56: above the task size even with 5-level paging */
	       expect_exit(t, task, EXIT_USAGE, "outside the user address space") &&
	       expect_exit(t, bad, EXIT_USAGE, "bad address '0x12zz'") &&
	       expect_exit(t, both, EXIT_USAGE, "address given twice") &&
	       expect_exit(t, range, EXIT_USAGE, "--range does not apply") &&
	       (kill(4194000, 0) == 0 || expect_exit(t, nopid, EXIT_NO_PROCESS, "no process 4194000")) &&
	       /* the impostor answers no vtop query (its features say so) */
	       expect_exit(t, old, EXIT_INTERNAL, "answers no vtop query");
}

static ssize_t vtop_raw(int fd, pid_t pid, uint32_t flags, uint64_t addr,
			uint32_t reserved)
{
	struct ptwalk_vtop_query q = {
		.size = sizeof(q), .flags = flags, .pid = pid, .addr = addr,
		.reserved = reserved,
	};

	return ioctl(fd, PTWALK_IOC_VTOP, &q) < 0 ? -errno : 0;
}

/*
 * A walk that reached a PTE read every level but those folded into the
 * PGD (ptwalk_abi.h's walked: the P4D with 4 levels, the PUD too with 3),
 * each at its address bits; a folded level's entry stays 0.
 */
static bool walked_every_level(struct vmtest *t, const struct ptwalk_vtop *v)
{
	unsigned int want = 1U << PTWALK_VTOP_PGD | 1U << PTWALK_VTOP_PTE;
	int l;

	/* the levels below the PGD the paging has, counted from the PTE */
	for (l = PTWALK_VTOP_PMD; l > PTWALK_VTOP_PGD &&
	     PTWALK_VTOP_PTE - l < (int)v->nr_levels - 1; l--)
		want |= 1U << l;
	for (l = PTWALK_VTOP_P4D; l < PTWALK_VTOP_PTE; l++)
		if (!(want >> l & 1) && v->entry[l])
			return fail(t, "vtop with %u levels: %s folded, entry 0x%" PRIx64,
				    v->nr_levels, ptwalk_vtop_level_name(l),
				    (uint64_t)v->entry[l]);
	if (v->walked != want)
		return fail(t, "vtop with %u levels: walked 0x%x, expected 0x%x",
			    v->nr_levels, v->walked, want);
	for (l = 0; l < PTWALK_VTOP_NR_LEVELS; l++) {
		unsigned int s = vtop_level_shift(l, v->nr_levels);

		if ((want >> l & 1) && v->index[l] != (v->addr >> s & INDEX_MASK))
			return fail(t, "vtop 0x%" PRIx64 ": index %u at level %d",
				    (uint64_t)v->addr, v->index[l], l);
	}
	return true;
}

/* The kernel side of vtop: its errnos and its one-answer reads. */
VMTEST_CASE(vtop, "vtop_interface", vtop_interface)
{
	int fd = vm_open_query(t);
	struct ptwalk_vtop v[2];
	pid_t self = getpid();
	bool ok;

	if (fd < 0)
		return false;
	ok = (vtop_raw(fd, self, 0, 0x400000, 1) == -EINVAL ||
	      fail(t, "vtop with reserved != 0 not EINVAL")) &&
	     (vtop_raw(fd, self, 4, 0x400000, 0) == -EINVAL ||
	      fail(t, "unknown flag 4 not EINVAL")) &&
	     (vtop_raw(fd, self, 0, 1ULL << 56, 0) == -ERANGE ||
	      fail(t, "vtop of 2^56 not ERANGE")) &&
	     (vtop_raw(fd, 2, 0, 0x400000, 0) == -ENXIO ||
	      fail(t, "vtop of kthreadd not ENXIO")) &&
	     (vtop_raw(fd, self, 0, A(&v) + 3, 0) == 0 ||
	      fail(t, "vtop of an unaligned stack address refused")) &&
	     ((read(fd, v, sizeof(v[0]) - 1) < 0 && errno == EINVAL) ||
	      fail(t, "read of %zu bytes not EINVAL", sizeof(v[0]) - 1)) &&
	     (read(fd, v, sizeof(v)) == sizeof(v[0]) ||
	      fail(t, "read did not give one struct ptwalk_vtop")) &&
	     ((v[0].addr == A(&v) + 3 && v[0].stop == PTWALK_VTOP_STOP_LEAF &&
	       v[0].level == PTWALK_LEVEL_PTE &&
	       !(v[0].flags & PTWALK_F_NO_VMA)) ||
	      fail(t, "vtop of the stack: addr 0x%" PRIx64 " stop %u level %u",
		   (uint64_t)v[0].addr, v[0].stop, v[0].level)) &&
	     walked_every_level(t, &v[0]) &&
	     (read(fd, v, sizeof(v)) == 0 || fail(t, "second read not 0"));
	close(fd);
	return ok;
}
