// SPDX-License-Identifier: GPL-2.0
/*
 * Memory cases: each maps memory of one kind, walks it with ptwalk and
 * compares page by page with the fixture's oracle and with what the case
 * must look like (level, bits, VMA flags, extent count).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/mman.h>
#include "ptcompare_run.h"
#include "vmtest.h"

static bool expect_records(struct vmtest *t, size_t n)
{
	if (t->nr_recs != n)
		return fail(t, "%zu records, expected %zu (extents not merged?)",
			    t->nr_recs, n);
	return true;
}

/*
 * The records of [p, p + len), PTE-mapped pages of one folio, are split
 * exactly where arm64's contiguous bit (PTE_CONT, bit 52) of the raw
 * entries changes, as the fixture reads them: since 6.9 arm64 folds each
 * aligned contiguous group (16 pages with 4K, 128 with 16K) of a large
 * folio whose pages are all mapped (contpte), so a THP split with one page
 * zapped is folded groups then the zapped page's own group unfolded; one
 * record on x86-64 and before.
 */
static bool expect_cont_runs(struct vmtest *t, const char *p, size_t len)
{
	size_t runs = 0, i;
	int prev = -1;

	for (i = 0; i < len / PAGE; i++) {
		struct ptwalk_fixture_pte pte = { .addr = A(p) + i * PAGE };
		int cont;

		if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PTE, &pte) || pte.err)
			return fail(t, "fixture raw pte of 0x%" PRIx64 ": %s", (uint64_t)pte.addr,
				    strerror(pte.err ? -pte.err : errno));
#if defined(__aarch64__)
		cont = pte.pte >> 52 & 1;
#elif defined(__riscv)
		cont = pte.pte >> 63 & 1;	/* Svnapot's N */
#else
		cont = 0;
#endif
		runs += cont != prev;
		prev = cont;
	}
	if (runs > 1)
		printf("# %zu runs of PTE_CONT set or clear in the split THP\n", runs);
	return expect_records(t, runs);
}

/*
 * Maps len bytes (flags: MAP_PRIVATE or MAP_SHARED, anonymous, no THP),
 * touches every page, optionally mprotect()s them to prot_after (-1: no),
 * and checks the range against the oracle and e.
 */
static bool anon_case(struct vmtest *t, size_t len, int flags,
		      void (*touch)(void *, size_t), int prot_after,
		      const struct expect *e)
{
	char *p = map_anon(t, len, flags | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	bool ok;

	if (!p)
		return false;
	touch(p, len);
	if (prot_after >= 0 && mprotect(p, len, prot_after))
		ok = fail(t, "mprotect: %s", strerror(errno));
	else
		ok = check_range(t, A(p), A(p) + len, 1, e);
	munmap(p, len);
	return ok;
}

/*
 * Whether a frame is part of a compound page is the kernel's choice and is
 * checked against the oracle for every page (check_page()), not expected:
 * 6.12 once gave this MADV_NOHUGEPAGE mapping a compound frame (the
 * matrix, lockdown rerun; the oracle agreed with ptwalk).
 */
VMTEST_CASE(memory, "anon_4k", anon_4k)
{
	struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_WRITE | PTWALK_F_USER |
			     PTWALK_F_DIRTY | PTWALK_F_PFN_VALID,
		.flags_clear = PTWALK_F_SPECIAL | PTWALK_F_ZERO_PAGE,
		.vm_set = PTWALK_VM_ANON | PTWALK_VM_READ | PTWALK_VM_WRITE |
			  PTWALK_VM_NOHUGEPAGE,
		.vm_clear = PTWALK_VM_PFNMAP | PTWALK_VM_SHARED,
	};

	return anon_case(t, 64 * PAGE, MAP_PRIVATE, touch_write, -1, &e);
}

VMTEST_CASE(memory, "untouched", untouched)
{
	size_t len = 64 * PAGE;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	struct expect e = { .level = PTWALK_LEVEL_NONE, .present = false };
	bool ok;

	if (!p)
		return false;
	ok = check_range(t, A(p), A(p) + len, 1, &e) && expect_records(t, 1) &&
	     (t->recs[0].kind == PTWALK_KIND_NONE ||
	      fail(t, "kind %u, expected none", t->recs[0].kind));
	munmap(p, len);
	return ok;
}

VMTEST_CASE(memory, "zero_page", zero_page)
{
	struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		.flags_set = PTWALK_F_ZERO_PAGE | PTWALK_F_SPECIAL,
		.flags_clear = PTWALK_F_WRITE,
	};

	return anon_case(t, 16 * PAGE, MAP_PRIVATE, touch_read, -1, &e);
}

/*
 * A PMD-aligned THP (a PMD leaf: 2M with 4K pages, 32M with 16K); false if
 * the kernel gave none (see smaps).
 */
static char *make_thp(struct vmtest *t, size_t len)
{
	char *p = map_aligned(t, len, vm_granule().pmd, MADV_HUGEPAGE);

	if (p)
		touch_write(p, len);
	return p;
}

VMTEST_CASE(memory, "thp_pmd", thp_pmd)
{
	size_t len = vm_granule().pmd;
	char *p = make_thp(t, len);
	struct expect e = {
		.level = PTWALK_LEVEL_PMD, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_WRITE | PTWALK_F_DIRTY |
			     PTWALK_F_PFN_VALID | PTWALK_F_COMPOUND,
		.flags_clear = PTWALK_F_HUGE_ZERO,
		.vm_set = PTWALK_VM_HUGEPAGE | PTWALK_VM_ANON,
		.huge = "thp",
	};
	bool ok;

	if (!p)
		return false;
	ok = check_range(t, A(p), A(p) + len, 1, &e) && expect_records(t, 1) &&
	     (t->recs[0].pfn % (len / PAGE) == 0 ||
	      fail(t, "THP pfn 0x%" PRIx64 " not aligned to its %zu bytes",
		   (uint64_t)t->recs[0].pfn, len)) &&
	     /* a query starting inside the leaf gets the sub-page's frame */
	     check_range(t, A(p) + 0x123 * PAGE % len, A(p) + len, 1, &e);
	munmap(p, len);
	return ok;
}

/*
 * A PROT_NONE THP: a PMD leaf without the present bit (PROTNONE|PSE), which
 * ptwalk must still call a present PMD leaf, as pagemap and the oracle do.
 */
VMTEST_CASE(memory, "thp_prot_none", thp_prot_none)
{
	size_t len = vm_granule().pmd;
	char *p = make_thp(t, len);
	struct expect e = {
		.level = PTWALK_LEVEL_PMD, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_PROTNONE |
			     PTWALK_F_PFN_VALID | PTWALK_F_COMPOUND,
		.flags_clear = PTWALK_F_WRITE | PTWALK_F_HUGE_ZERO,
		.vm_set = PTWALK_VM_HUGEPAGE | PTWALK_VM_ANON,
		.vm_clear = PTWALK_VM_READ | PTWALK_VM_WRITE,
		.huge = "thp",
	};
	bool ok;

	if (!p)
		return false;
	if (mprotect(p, len, PROT_NONE))
		ok = fail(t, "mprotect: %s", strerror(errno));
	else
		ok = check_range(t, A(p), A(p) + len, 1, &e) &&
		     expect_records(t, 1);
	munmap(p, len);
	return ok;
}

VMTEST_CASE(memory, "thp_split_to_ptes", thp_split)
{
	size_t len = vm_granule().pmd;
	char *p = make_thp(t, len);
	struct ptwalk_fixture_translate o;
	struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		/* a THP mapped by PTEs until khugepaged or a split */
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_WRITE |
			     PTWALK_F_COMPOUND,
		.huge = "thp-pte",
	};
	uint64_t first;
	bool ok;

	if (!p)
		return false;
	/* ptwalk must see a THP first, or this case tests nothing. */
	if (!walk(t, getpid(), A(p), A(p) + len))
		return false;
	if (t->recs[0].level != PTWALK_LEVEL_PMD) {
		munmap(p, len);
		return fail(t, "no THP to split (level %u)", t->recs[0].level);
	}
	first = t->recs[0].pfn;
	/* Zapping one page splits the PMD into a PTE table. */
	if (madvise(p + len - PAGE, PAGE, MADV_DONTNEED))
		return fail(t, "MADV_DONTNEED: %s", strerror(errno));
	/*
	 * khugepaged may collapse the PTE-mapped range again into a new THP
	 * (with a new frame) while the checks run; a slow, sanitized run of
	 * ptcompare saw it happen.  VM_NOHUGEPAGE keeps it off this range
	 * without touching the PTE-mapped THP the case checks.
	 */
	if (madvise(p, len, MADV_NOHUGEPAGE))
		return fail(t, "MADV_NOHUGEPAGE: %s", strerror(errno));
	ok = check_range(t, A(p), A(p) + len - PAGE, 1, &e) &&
	     expect_cont_runs(t, p, len - PAGE) &&
	     (t->recs[0].pfn == first ||
	      fail(t, "split moved the pages: 0x%" PRIx64 " -> 0x%" PRIx64,
		   first, (uint64_t)t->recs[0].pfn)) &&
	     walk(t, getpid(), A(p) + len - PAGE, A(p) + len) &&
	     oracle(t, A(p) + len - PAGE, &o) &&
	     check_page(t, A(p) + len - PAGE, &o,
			&(struct expect){ .level = PTWALK_LEVEL_NONE });
	munmap(p, len);
	return ok;
}

/*
 * Reading an untouched THP-eligible region maps the huge zero page.  The
 * oracle proves it is one shared frame: two regions map the same PFN.
 */
VMTEST_CASE(memory, "huge_zero_page", huge_zero_page)
{
	size_t len = vm_granule().pmd;
	char *a = map_aligned(t, len, len, MADV_HUGEPAGE);
	char *b = map_aligned(t, len, len, MADV_HUGEPAGE);
	struct ptwalk_fixture_translate oa, ob;
	struct expect e = {
		.level = PTWALK_LEVEL_PMD, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_HUGE_ZERO,
		.flags_clear = PTWALK_F_WRITE | PTWALK_F_ZERO_PAGE,
		.huge = "huge-zero",
	};
	bool ok;

	if (!a || !b)
		return false;
	touch_read(a, len);
	touch_read(b, len);
	ok = oracle(t, A(a), &oa) && oracle(t, A(b), &ob) &&
	     (oa.pfn == ob.pfn ||
	      fail(t, "two read-only THP regions on different frames: no huge zero page?")) &&
	     check_range(t, A(a), A(a) + len, 1, &e) && expect_records(t, 1) &&
	     check_range(t, A(b), A(b) + len, 7, &e);
	munmap(a, len);
	munmap(b, len);
	return ok;
}

/*
 * What a hugetlb page of size at level shows: a page larger than one entry
 * is a contiguous group (arm64's cont_pte and cont_pmd), marked so.
 */
static struct expect hugetlb_expect(size_t size, int level, const char *kind)
{
	struct granule g = vm_granule();
	struct expect e = {
		.level = level, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_WRITE | PTWALK_F_DIRTY |
			     PTWALK_F_PFN_VALID,
		.vm_set = PTWALK_VM_HUGETLB,
		.huge = kind,
	};

	if (size != g.pmd && size != g.pud)
		e.flags_set |= PTWALK_F_CONT | PTWALK_F_COMPOUND;
	else
		e.flags_clear = PTWALK_F_CONT;
	return e;
}

/* len bytes of hugetlb pages of size (size_flag), or NULL having failed. */
static char *map_hugetlb(struct vmtest *t, size_t len, size_t size,
			 int size_flag)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | size_flag,
		       -1, 0);

	if (p != MAP_FAILED)
		return p;
	fail(t, "mmap hugetlb %zu: %s (hugepages reserved on the kernel command line?)",
	     size, strerror(errno));
	return NULL;
}

/* A stride visiting about 256 pages of len, odd to vary the offsets. */
static size_t stride_of(size_t len)
{
	return len / PAGE / 256 | 1;
}

static bool hugetlb(struct vmtest *t, size_t size, int size_flag, int level,
		    size_t stride, const char *kind)
{
	size_t len = 2 * size > GIB ? size : 2 * size;
	struct expect e = hugetlb_expect(size, level, kind);
	char *p = map_hugetlb(t, len, size, size_flag);
	bool ok;

	if (!p)
		return false;
	touch_write(p, len);
	/* One extent per huge page at most: one for the whole 1 GiB. */
	ok = check_range(t, A(p), A(p) + len, stride, &e) &&
	     (t->nr_recs <= len / size ||
	      fail(t, "%zu records for %zu huge pages", t->nr_recs, len / size)) &&
	     /* a query starting inside a leaf gets the sub-page's frame */
	     check_range(t, A(p) + size / 2 + 5 * PAGE, A(p) + len, stride, &e);
	munmap(p, len);
	return ok;
}

/*
 * The hugetlb page of one PMD leaf (the case keeps its 4K name: 32M with
 * 16K pages, 512M with 64K).
 */
VMTEST_CASE(memory, "hugetlb_2m", hugetlb_2m)
{
	size_t size = vm_granule().pmd;
	char kind[32], label[16];

	snprintf(kind, sizeof(kind), "hugetlb-%s", size_label(label, sizeof(label), size));
	return hugetlb(t, size, map_huge_flag(size), PTWALK_LEVEL_PMD,
		       size > 2 * MIB ? stride_of(2 * size) : 1, kind);
}

/*
 * The hugetlb page of one PUD leaf: 1G with 4K pages.  arm64 with 16K or
 * 64K pages has no PUD leaf: there the kernel must refuse a hugetlb page
 * of the PUD's size (vm_no_pud_hugetlb()).
 */
VMTEST_CASE(memory, "hugetlb_1g_pud", hugetlb_1g)
{
	if (!vm_granule().pud)
		return vm_no_pud_hugetlb(t, "hugetlb_1g_pud");
	return hugetlb(t, GIB, MAP_HUGE_1GB, PTWALK_LEVEL_PUD, 4093,
		       "hugetlb-1G");
}

#if defined(__aarch64__) || defined(__riscv)
/*
 * arm64's contiguous hugetlb pages: 16 PTEs (64K) or 16 PMD blocks (32M),
 * each entry holding its own frame, marked PTWALK_F_CONT; riscv64's
 * Svnapot 64K pages: 16 equal NAPOT PTEs naming the group's first frame,
 * each page's frame its own all the same.  One page alone is one extent
 * of the whole page at the group's level.
 */
static bool hugetlb_cont(struct vmtest *t, size_t size, int size_flag,
			 int level, size_t stride, const char *kind)
{
	struct expect e = hugetlb_expect(size, level, kind);
	char *p = map_hugetlb(t, size, size, size_flag);
	bool ok;

	if (!p)
		return false;
	/* only the last page written: the group's dirty bit is in one entry */
	p[size - 1] = 1;
	ok = check_range(t, A(p), A(p) + size, stride, &e) &&
	     expect_records(t, 1) &&
	     (t->recs[0].nr_pages == size / PAGE ||
	      fail(t, "one extent of %" PRIu64 " pages, expected %zu",
		   (uint64_t)t->recs[0].nr_pages, size / PAGE));
	munmap(p, size);
	return ok && hugetlb(t, size, size_flag, level, stride, kind);
}

#if defined(__riscv)
/*
 * riscv64's Svnapot 64K page: 16 equal NAPOT PTEs.  Its frames are checked
 * against what the process wrote through the mapping, read back from each
 * frame (the fixture's PTWALK_FIXTURE_IOC_PEEK), not against
 * get_user_pages(), which names the group's first page for every page of
 * it (the kernel's pte_pfn() of a NAPOT entry): said as a comment.  One
 * record of 16 pages at PTE level, cont, hugetlb.
 */
static bool hugetlb_napot(struct vmtest *t, size_t size)
{
	struct ptwalk_fixture_translate o;
	char *p = map_hugetlb(t, size, size, map_huge_flag(size));
	const struct ptwalk_record *r = &t->recs[0];
	size_t i, gup_first = 0;
	bool ok;

	if (!p)
		return false;
	for (i = 0; i < size / PAGE; i++)
		*(uint64_t *)(p + i * PAGE) = 0x6e61706f74000000ULL | i;
	ok = walk(t, getpid(), A(p), A(p) + size) && expect_records(t, 1);
	if (ok && (r->nr_pages != size / PAGE || r->level != PTWALK_LEVEL_PTE ||
		   (r->flags & (PTWALK_F_PRESENT | PTWALK_F_CONT)) !=
		   (PTWALK_F_PRESENT | PTWALK_F_CONT) ||
		   !(r->vm_flags & PTWALK_VM_HUGETLB)))
		ok = fail(t, "%" PRIu64 " pages at level %u, flags 0x%x: not one cont record of %zu PTEs",
			  (uint64_t)r->nr_pages, r->level, r->flags, size / PAGE);
	for (i = 0; ok && i < size / PAGE; i++) {
		uint64_t v;

		if (!vm_peek(t, r->pfn + i, &v))
			ok = false;
		else if (v != (0x6e61706f74000000ULL | i))
			ok = fail(t, "page %zu: ptwalk's frame 0x%" PRIx64 " holds 0x%" PRIx64
				  ", the page wrote 0x%" PRIx64, i, (uint64_t)r->pfn + i, v,
				  (uint64_t)(0x6e61706f74000000ULL | i));
		else if (oracle(t, A(p) + i * PAGE, &o) && o.pfn == r->pfn)
			gup_first++;
	}
	if (ok && (!oracle(t, A(p), &o) || o.pfn != r->pfn))
		ok = fail(t, "the group's first page: ptwalk 0x%" PRIx64 ", get_user_pages 0x%" PRIx64,
			  (uint64_t)r->pfn, (uint64_t)o.pfn);
	if (ok)
		printf("# hugetlb_64k_cont: every frame holds what its page wrote; get_user_pages named the first frame for %zu of %zu pages\n",
		       gup_first, size / PAGE);
	munmap(p, size);
	return ok;
}
#endif

/* The contiguous group of PTEs: 64K with 4K pages, 2M with 16K or 64K. */
VMTEST_CASE(memory, "hugetlb_64k_cont", hugetlb_64k)
{
	size_t size = vm_granule().cont_pte;
	char kind[32], label[16];

#if defined(__riscv)
	return hugetlb_napot(t, size);
#endif
	snprintf(kind, sizeof(kind), "hugetlb-%s", size_label(label, sizeof(label), size));
	return hugetlb_cont(t, size, map_huge_flag(size), PTWALK_LEVEL_PTE,
			    size > 64 * 1024 ? stride_of(size) : 1, kind);
}

#if defined(__aarch64__)
/* The contiguous group of PMDs: 32M with 4K pages, 1G with 16K. */
VMTEST_CASE(memory, "hugetlb_32m_cont", hugetlb_32m)
{
	size_t size = vm_granule().cont_pmd;
	char kind[32], label[16];

	if (vm_hugetlb_exceeds_ram(size))
		return vm_hugetlb_beyond_ram(t, size, "hugetlb_32m_cont");
	snprintf(kind, sizeof(kind), "hugetlb-%s", size_label(label, sizeof(label), size));
	return hugetlb_cont(t, size, map_huge_flag(size), PTWALK_LEVEL_PMD,
			    size == 32 * MIB ? 509 : stride_of(size), kind);
}
#endif
#endif

/*
 * BAR 0 of QEMU's display through sysfs: resource0 (uncached: x86 UC-,
 * arm64 Device-nGnRE) and resource0_wc (write-combined: x86 WC, arm64
 * Normal-NC).  VM_IO|VM_PFNMAP, so pagemap shows holes; ptwalk must show
 * the BAR's frames, those of sysfs's "resource" and of follow_pfn().
 */
static bool pci_bar(struct vmtest *t, const char *file)
{
	size_t len = 64 * 1024, i;
	struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_SPECIAL,
		.flags_clear = PTWALK_F_PFN_VALID,
		.vm_set = PTWALK_VM_PFNMAP | PTWALK_VM_IO | PTWALK_VM_SHARED,
	};
	char dir[256];
	uint64_t bar;
	char *p = vm_map_display(t, file, len, &bar, dir, sizeof(dir));
	bool ok;

	if (!p)
		return false;
	ok = check_range(t, A(p), A(p) + len, 1, &e);
	for (i = 0; ok && i < len / PAGE; i++) {
		uint64_t addr = A(p) + i * PAGE;
		uint64_t pfn = ptwalk_pfn_at(ptwalk_find(t->recs, t->nr_recs,
							 addr, PAGE_SHIFT_K), addr, PAGE_SHIFT_K);

		if (pfn != (bar >> PAGE_SHIFT_K) + i)
			ok = fail(t, "%s page %zu: pfn 0x%" PRIx64 ", BAR at 0x%" PRIx64,
				  file, i, pfn, bar);
	}
	munmap(p, len);
	return ok;
}

VMTEST_CASE(memory, "pci_bar_resource0", pci_bar_resource0)
{
	return pci_bar(t, "resource0");
}

VMTEST_CASE(memory, "pci_bar_resource0_wc", pci_bar_resource0_wc)
{
	if (!VM_BAR_WC) {
		/* none to map: the display's BAR has resource0 alone */
		if (!access("/sys/bus/pci/devices/0000:00:01.0/resource0_wc", F_OK))
			return fail(t, "resource0_wc where the architecture has none");
		printf("# pci_bar_resource0_wc: no resource0_wc on this architecture\n");
		return true;
	}
	return pci_bar(t, "resource0_wc");
}

VMTEST_CASE(memory, "pfnmap_fixture", pfnmap_fixture)
{
	size_t len = PTWALK_FIXTURE_PAGES * PAGE, i;
	struct ptwalk_fixture_pfns known;
	struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_SPECIAL |
			     PTWALK_F_PFN_VALID,
		.vm_set = PTWALK_VM_PFNMAP | PTWALK_VM_IO | PTWALK_VM_SHARED,
	};
	char *p;
	bool ok;

	p = vm_map_fixture(t, &known);
	if (!p)
		return false;
	ok = check_range(t, A(p), A(p) + len, 1, &e);
	for (i = 0; ok && i < PTWALK_FIXTURE_PAGES; i++) {
		uint64_t addr = A(p) + i * PAGE;
		uint64_t pfn = ptwalk_pfn_at(ptwalk_find(t->recs, t->nr_recs,
							 addr, PAGE_SHIFT_K), addr, PAGE_SHIFT_K);

		if (pfn != known.pfn[i])
			ok = fail(t, "page %zu: pfn 0x%" PRIx64
				  ", fixture mapped 0x%" PRIx64, i, pfn,
				  (uint64_t)known.pfn[i]);
	}
	/* The contiguous block is one extent, the reversed singles are not. */
	ok = ok && (t->recs[0].nr_pages == PTWALK_FIXTURE_CONTIG ||
		    fail(t, "first extent %" PRIu64 " pages, expected %d",
			 (uint64_t)t->recs[0].nr_pages, PTWALK_FIXTURE_CONTIG));
	munmap(p, len);
	return ok;
}

/*
 * [vvar]: how the kernel maps it changed (VM_PFNMAP|VM_IO with pfn entries
 * up to 6.x; VM_IO|VM_MIXEDMAP with normal pages on 7.x), and with it what
 * pagemap shows.  The flags are read from smaps; ptwalk must report them,
 * and pagemap must hide the frames exactly when the VMA is VM_PFNMAP.
 */
VMTEST_CASE(memory, "vvar", vvar)
{
	struct ptwalk_fixture_translate o;
	struct timespec ts;
	uint64_t start, end, addr, vm_set = 0, vm_clear = 0;
	bool pf, io, mm;
	unsigned int present = 0;
	struct pc_result pc;
	bool ok;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (!find_mapping("[vvar]", &start, &end))
		return fail(t, "no [vvar] in /proc/self/maps");
	if (!vm_flag_of("[vvar]", "pf", &pf) || !vm_flag_of("[vvar]", "io", &io) ||
	    !vm_flag_of("[vvar]", "mm", &mm))
		return fail(t, "no VmFlags for [vvar] in /proc/self/smaps");
	printf("# vvar: VmFlags%s%s%s\n", pf ? " pf" : "", io ? " io" : "",
	       mm ? " mm" : "");
	*(pf ? &vm_set : &vm_clear) |= PTWALK_VM_PFNMAP;
	*(io ? &vm_set : &vm_clear) |= PTWALK_VM_IO;
	*(mm ? &vm_set : &vm_clear) |= PTWALK_VM_MIXEDMAP;
	if (!walk(t, getpid(), start, end))
		return false;
	ok = pc_json(t, &pc, getpid(), start, end);
	for (addr = start; ok && addr < end; addr += PAGE) {
		const struct ptwalk_record *r =
			ptwalk_find(t->recs, t->nr_recs, addr, PAGE_SHIFT_K);
		struct expect e = {
			.level = -1,
			.present = r && r->kind == PTWALK_KIND_PRESENT,
			.vm_set = vm_set, .vm_clear = vm_clear,
		};
		/* pagemap walks all but VM_PFNMAP VMAs (task_mmu.c) */
		const char *cls = !e.present ? "not_present" :
				  pf ? "pfnmap_hidden" : "match";

		ok = oracle(t, addr, &o) && check_page(t, addr, &o, &e) &&
		     (o.via == ((pf || io) ? PTWALK_FIXTURE_VIA_FOLLOW_PFN :
					     PTWALK_FIXTURE_VIA_GUP) ||
		      fail(t, "oracle used via %d", o.via)) &&
		     pc_check_page(t, &pc, addr, &o, cls, NULL);
		present += e.present;
	}
	pc_free(&pc);
	return ok && (present ||
		      fail(t, "no [vvar] page mapped after clock_gettime"));
}

VMTEST_CASE(memory, "shared_anon", shared_anon)
{
	struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_WRITE,
		.vm_set = PTWALK_VM_SHARED | PTWALK_VM_MAYSHARE,
		.vm_clear = PTWALK_VM_ANON,
	};

	return anon_case(t, 32 * PAGE, MAP_SHARED, touch_write, -1, &e);
}

VMTEST_CASE(memory, "file_mapping", file_mapping)
{
	size_t len = 32 * PAGE;
	char path[] = "/tmp/ptwalk-file-XXXXXX";
	struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_PFN_VALID,
		.flags_clear = PTWALK_F_WRITE | PTWALK_F_ZERO_PAGE,
		.vm_clear = PTWALK_VM_ANON | PTWALK_VM_WRITE,
	};
	char *buf = malloc(len), *p;
	int fd = mkstemp(path);
	bool ok;

	if (fd < 0 || !buf)
		return fail(t, "mkstemp/malloc: %s", strerror(errno));
	memset(buf, 0x5a, len);
	if (write(fd, buf, len) != (ssize_t)len)
		return fail(t, "write %s: %s", path, strerror(errno));
	free(buf);
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	unlink(path);
	if (p == MAP_FAILED)
		return fail(t, "mmap file: %s", strerror(errno));
	madvise(p, len, MADV_NOHUGEPAGE);
	touch_read(p, len);
	ok = check_range(t, A(p), A(p) + len, 1, &e);
	munmap(p, len);
	return ok;
}

/*
 * The child breaks COW on page 0 and leaves page 1 shared; it sends its
 * oracle answers through a pipe and waits while the parent walks it.
 */
VMTEST_CASE(memory, "fork_cow", fork_cow)
{
	size_t len = 2 * PAGE;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	struct ptwalk_fixture_translate child[2], mine[2];
	struct expect e = { .level = PTWALK_LEVEL_PTE, .present = true };
	int to_parent[2], to_child[2], status, i;
	bool ok = true;
	pid_t pid;
	char c;

	if (!p)
		return false;
	touch_write(p, len);
	if (pipe(to_parent) || pipe(to_child))
		return fail(t, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return fail(t, "fork: %s", strerror(errno));
	if (pid == 0) {
		p[0] = 2;	/* COW break */
		for (i = 0; i < 2; i++)
			oracle(t, A(p) + i * PAGE, &child[i]);
		if (write(to_parent[1], child, sizeof(child)) != sizeof(child) ||
		    read(to_child[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(to_parent[0], child, sizeof(child)) != sizeof(child))
		ok = fail(t, "child sent no oracle answers");
	for (i = 0; ok && i < 2; i++)
		ok = oracle(t, A(p) + i * PAGE, &mine[i]);
	ok = ok && walk(t, pid, A(p), A(p) + len);
	for (i = 0; ok && i < 2; i++)
		ok = check_page(t, A(p) + i * PAGE, &child[i], &e);
	ok = ok && (child[0].pfn != mine[0].pfn ||
		    fail(t, "COW break left the child on the parent's frame"));
	ok = ok && (child[1].pfn == mine[1].pfn ||
		    fail(t, "unwritten page not shared after fork"));
	/* Only the shared page must be write-protected in the child. */
	ok = ok && ((ptwalk_find(t->recs, t->nr_recs, A(p) + PAGE, PAGE_SHIFT_K)->flags &
		     PTWALK_F_WRITE) == 0 ||
		    fail(t, "shared COW page is writable in the child"));
	/* ptcompare on the child agrees with the child's own oracle. */
	if (ok) {
		struct pc_result r;

		ok = pc_json(t, &r, pid, A(p), A(p) + len);
		for (i = 0; ok && i < 2; i++)
			ok = pc_check_page(t, &r, A(p) + i * PAGE, &child[i],
					   "match", "pte");
		pc_free(&r);
	}
	if (write(to_child[1], "x", 1) != 1)
		ok = fail(t, "cannot release child");
	waitpid(pid, &status, 0);
	close(to_parent[0]);
	close(to_parent[1]);
	close(to_child[0]);
	close(to_child[1]);
	munmap(p, len);
	return ok;
}

VMTEST_CASE(memory, "prot_none", prot_none)
{
	struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_PROTNONE |
			     PTWALK_F_PFN_VALID,
		.flags_clear = PTWALK_F_WRITE,
		.vm_clear = PTWALK_VM_READ | PTWALK_VM_WRITE,
	};

	return anon_case(t, 16 * PAGE, MAP_PRIVATE, touch_write, PROT_NONE, &e);
}

/* Every VMA of the process starts a record; records never span two. */
VMTEST_CASE(memory, "whole_address_space", whole_address_space)
{
	FILE *f;
	char line[512];
	uint64_t start, end;
	uint64_t top = user_task_size();
	unsigned int vmas = 0;

	if (!walk(t, getpid(), 0, top))
		return false;
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return fail(t, "maps: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		const struct ptwalk_record *r;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) != 2 ||
		    start >= top)	/* [vsyscall], above user space */
			continue;
		vmas++;
		r = ptwalk_find(t->recs, t->nr_recs, start, PAGE_SHIFT_K);
		if (!r || r->start != start || (r->flags & PTWALK_F_NO_VMA)) {
			fclose(f);
			return fail(t, "VMA at 0x%" PRIx64 " starts no record",
				    start);
		}
	}
	fclose(f);
	return vmas > 5 || fail(t, "only %u VMAs seen", vmas);
}
