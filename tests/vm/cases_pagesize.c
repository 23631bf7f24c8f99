// SPDX-License-Identifier: GPL-2.0
/*
 * Page sizes and the huge-page kinds of newer kernels: the geometry file
 * against what the kernel says elsewhere (sysconf, /proc/meminfo, the
 * hugetlb and mTHP sysfs directories), folio sizes against the fixture's
 * (the folio order of the page GUP returns), multi-size THP (6.8+) and
 * guard-region markers (MADV_GUARD_INSTALL, 6.13+).  On a kernel without
 * a feature the case says so on a "#" line and checks what that kernel
 * does instead: the 4K behaviour, the EINVAL of madvise().
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
#include <unistd.h>
#include "ptcompare_run.h"
#include "vmtest.h"
#include "parse/geometry.h"

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL	102	/* include/uapi/asm-generic/mman-common.h, 6.13 */
#define MADV_GUARD_REMOVE	103
#endif

/* ptwalk's geometry file, beside the debugfs query file. */
static bool read_geometry(struct vmtest *t, struct page_geom *g)
{
	char line[256], why[256];
	const char *path = PTWALK_DEFAULT_DEBUGFS "/" PTWALK_DEBUGFS_DIR "/"
			   PTWALK_GEOMETRY_FILE;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return fail(t, "open %s: %s", path, strerror(errno));
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0)
		return fail(t, "read %s: %s", path, n ? strerror(errno) : "empty");
	line[n] = '\0';
	if (geom_parse(line, g, why, sizeof(why)))
		return fail(t, "%s: %s", path, why);
	return true;
}

/* /proc/meminfo's Hugepagesize (the default hugetlb page: a PMD leaf). */
static bool meminfo_hugepagesize(uint64_t *bytes)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long kb;
	bool ok = false;

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f))
		ok = sscanf(line, "Hugepagesize: %lu kB", &kb) == 1;
	fclose(f);
	*bytes = (uint64_t)kb << 10;
	return ok;
}

static bool dir_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

#if defined(__riscv)
/*
 * The paging mode the kernel runs in, as /proc/cpuinfo's "mmu : sv57"
 * says (sv39, sv48, sv57: 3, 4, 5 levels), is @levels.
 */
static bool riscv_mmu_levels(struct vmtest *t, unsigned int levels)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[256];
	unsigned int bits = 0;

	if (!f)
		return fail(t, "/proc/cpuinfo: %s", strerror(errno));
	while (!bits && fgets(line, sizeof(line), f))
		if (sscanf(line, "mmu : sv%u", &bits) != 1)
			bits = 0;
	fclose(f);
	if (!bits)
		return fail(t, "no mmu line in /proc/cpuinfo");
	printf("# pagesize_geometry: mmu sv%u\n", bits);
	if ((bits - 12) / 9 != levels)
		return fail(t, "levels %u, the MMU is sv%u", levels, bits);
	return true;
}
#endif

/*
 * The geometry file against the kernel's own words: page_size is
 * sysconf(_SC_PAGESIZE) (pagemap's entry size), pmd the default hugetlb
 * size of /proc/meminfo, pud (where not 0) a hugetlb size sysfs offers,
 * each level PAGE / 8 times the one below; the contiguous groups are
 * hugetlb sizes of arm64 (sysfs), none on x86-64 (and absent_flags says
 * cont).  Also the sysfs twin of the device, when it is there.
 */
VMTEST_CASE(pagesize, "pagesize_geometry", pagesize_geometry)
{
	struct page_geom g;
	uint64_t hps;
	char dir[128];

	if (!read_geometry(t, &g))
		return false;
	if (geom_page_size(&g) != PAGE)
		return fail(t, "page_size %" PRIu64 ", sysconf says %lu",
			    geom_page_size(&g), PAGE);
	if (!meminfo_hugepagesize(&hps))
		return fail(t, "no Hugepagesize in /proc/meminfo");
	if (g.leaf[PTWALK_LEVEL_PMD] != hps)
		return fail(t, "pmd %" PRIu64 ", Hugepagesize %" PRIu64,
			    g.leaf[PTWALK_LEVEL_PMD], hps);
	if (g.leaf[PTWALK_LEVEL_PMD] != PAGE << (PAGE_SHIFT_K - 3))
		return fail(t, "pmd %" PRIu64 " is not PAGE / 8 pages",
			    g.leaf[PTWALK_LEVEL_PMD]);
	if (g.leaf[PTWALK_LEVEL_PUD]) {
		snprintf(dir, sizeof(dir), "/sys/kernel/mm/hugepages/hugepages-%" PRIu64 "kB",
			 g.leaf[PTWALK_LEVEL_PUD] >> 10);
		if (!dir_exists(dir) ||
		    g.leaf[PTWALK_LEVEL_PUD] != hps << (PAGE_SHIFT_K - 3))
			return fail(t, "pud %" PRIu64 ": no %s, or not PAGE / 8 PMDs",
				    g.leaf[PTWALK_LEVEL_PUD], dir);
	}
	if (g.levels < 2 || g.levels > 5)
		return fail(t, "levels %u", g.levels);
	if (g.levels != (unsigned int)user_paging_levels())
		return fail(t, "levels %u, the task size found by mmap says %d",
			    g.levels, user_paging_levels());
#ifdef __x86_64__
	if (g.cont[PTWALK_LEVEL_PTE] || g.cont[PTWALK_LEVEL_PMD])
		return fail(t, "contiguous groups on x86-64: %" PRIu64 ", %" PRIu64,
			    g.cont[PTWALK_LEVEL_PTE], g.cont[PTWALK_LEVEL_PMD]);
	/* LA57 decides 4 or 5, as the VM's CPU and command line say */
	if (g.levels != 4 && g.levels != 5)
		return fail(t, "levels %u on x86-64", g.levels);
#elif defined(__riscv)
	/* Svnapot's 64K group alone; the levels as the MMU mode the kernel chose */
	snprintf(dir, sizeof(dir), "/sys/kernel/mm/hugepages/hugepages-%" PRIu64 "kB",
		 g.cont[PTWALK_LEVEL_PTE] >> 10);
	if (g.cont[PTWALK_LEVEL_PTE] != 16 * PAGE || !dir_exists(dir) ||
	    g.cont[PTWALK_LEVEL_PMD])
		return fail(t, "contiguous groups %" PRIu64 ", %" PRIu64
			    ": not 64K (%s) and none", g.cont[PTWALK_LEVEL_PTE],
			    g.cont[PTWALK_LEVEL_PMD], dir);
	if (!riscv_mmu_levels(t, g.levels))
		return false;
#else
	/*
	 * Level-1 blocks with 4K pages only; with two levels (16K/36-bit,
	 * 64K/42-bit VA) the top table holds PMD blocks and no PUD leaf
	 */
	if (g.leaf[PTWALK_LEVEL_PUD] && (PAGE != 4096 || g.levels < 3))
		return fail(t, "pud %" PRIu64 " with %lu-byte pages and %u levels",
			    g.leaf[PTWALK_LEVEL_PUD], PAGE, g.levels);
	for (int l = PTWALK_LEVEL_PTE; l <= PTWALK_LEVEL_PMD; l++) {
		snprintf(dir, sizeof(dir), "/sys/kernel/mm/hugepages/hugepages-%" PRIu64 "kB",
			 g.cont[l] >> 10);
		if (!g.cont[l] || !dir_exists(dir))
			return fail(t, "contiguous group %" PRIu64 " at level %d: no %s",
				    g.cont[l], l, dir);
	}
#endif
	printf("# pagesize_geometry: page %" PRIu64 ", pmd %" PRIu64 ", pud %" PRIu64
	       ", cont %" PRIu64 "/%" PRIu64 ", %u levels\n", geom_page_size(&g),
	       g.leaf[PTWALK_LEVEL_PMD], g.leaf[PTWALK_LEVEL_PUD],
	       g.cont[PTWALK_LEVEL_PTE], g.cont[PTWALK_LEVEL_PMD], g.levels);
	return true;
}

/* Extended records with folio sizes of [start, end) of this process. */
static ssize_t walk_folio(struct vmtest *t, uint64_t start, uint64_t end,
			  struct ptwalk_record_ext *x, size_t max)
{
	int fd = vm_open_query(t);
	ssize_t n, total = 0;
	int err;

	if (fd < 0)
		return -1;
	err = ptwalk_query(fd, getpid(), start, end);
	while (!err && (n = ptwalk_read_ext(fd, x + total, max - (size_t)total)) > 0)
		total += n;
	close(fd);
	if (err || total == (ssize_t)max)
		return fail(t, "extended query: %s", err ? strerror(-err) : "too many records"), -1;
	return total;
}

/*
 * Each page of [start, end): the folio size ptwalk gives (its record's
 * folio_shift) is the fixture's (the folio order of the page GUP finds),
 * and its level is want_level.  *shift: the folio shift of the last page.
 */
static bool check_folios(struct vmtest *t, uint64_t start, uint64_t end,
			 int want_level, unsigned int *shift)
{
	static struct ptwalk_record_ext x[4096];
	ssize_t n = walk_folio(t, start, end, x, 4096);

	if (n < 0)
		return false;
	for (uint64_t addr = start; addr < end; addr += PAGE) {
		struct ptwalk_fixture_translate o;
		const struct ptwalk_record_ext *r = NULL;

		for (ssize_t i = 0; i < n && !r; i++)
			if (addr >= x[i].rec.start &&
			    addr < ptwalk_record_end(&x[i].rec, PAGE_SHIFT_K))
				r = &x[i];
		if (!r || !oracle(t, addr, &o))
			return r ? false : fail(t, "0x%" PRIx64 ": no record", addr);
		if (o.status != PTWALK_FIXTURE_MAPPED ||
		    r->rec.kind != PTWALK_KIND_PRESENT ||
		    ptwalk_pfn_at(&r->rec, addr, PAGE_SHIFT_K) != o.pfn)
			return fail(t, "0x%" PRIx64 ": not the fixture's frame", addr);
		if (r->folio_shift != PAGE_SHIFT_K + o.folio_order)
			return fail(t, "0x%" PRIx64 ": folio_shift %u, the fixture's folio order %u",
				    addr, r->folio_shift, o.folio_order);
		if (r->rec.level != want_level)
			return fail(t, "0x%" PRIx64 ": level %u, expected %d", addr,
				    r->rec.level, want_level);
		*shift = r->folio_shift;
	}
	return true;
}

/*
 * Multi-size THP (6.8+, 19eaf44954df "mm: thp: support allocation of
 * anonymous multi-size THP"): with hugepages-64kB/enabled "always" and the
 * PMD size off, an anonymous fault allocates a 64K folio mapped by PTEs:
 * ptwalk's folio size is 64K, the fixture's too, level PTE, compound; and
 * ptcompare names the kind "mthp-64K" and gives folio_size 65536.  Without
 * the sysfs directory (before 6.8, or another page size where 64K is not
 * a size) the case says so and checks that the same fault gives single
 * pages (folio size = page size, not compound).
 */
VMTEST_CASE(pagesize, "pagesize_mthp", pagesize_mthp)
{
	const uint64_t size = 64 * 1024, len = 8 * size;
	const uint64_t pmd = vm_granule().pmd;
	char saved[16], saved_pmd[16] = "";
	unsigned int shift = 0;
	bool have = PAGE < size && vm_thp_size_set(size, "always", saved,
						   sizeof(saved));
	char *p;
	bool ok;

	if (!have && errno != ENOENT && PAGE < size)
		return fail(t, "enable hugepages-64kB: %s", strerror(errno));
	/* the PMD size off, so that the 64K size is the one chosen */
	if (have && !vm_thp_size_set(pmd, "never", saved_pmd, sizeof(saved_pmd)) &&
	    errno != ENOENT) {
		vm_thp_size_restore(size, saved);
		return fail(t, "turn the PMD size off: %s", strerror(errno));
	}
	p = map_aligned(t, len, size, MADV_HUGEPAGE);
	ok = p != NULL;
	if (ok) {
		touch_write(p, len);
		ok = check_folios(t, A(p), A(p) + len, PTWALK_LEVEL_PTE, &shift);
	}
	if (ok && have && shift != 16)
		ok = fail(t, "hugepages-64kB enabled, yet folios of 2^%u bytes", shift);
	if (ok && !have) {
		printf("# pagesize_mthp: this kernel has no multi-size THP of 64K (hugepages-64kB absent, 6.8+): single pages checked\n");
		if (shift != PAGE_SHIFT_K)
			ok = fail(t, "no mTHP, yet folios of 2^%u bytes", shift);
	}
	if (ok) {
		struct expect e = {
			.level = PTWALK_LEVEL_PTE, .present = true,
			.flags_set = PTWALK_F_PRESENT | PTWALK_F_PFN_VALID |
				     (have ? PTWALK_F_COMPOUND : 0),
			.flags_clear = have ? 0 : PTWALK_F_COMPOUND,
			.huge = have ? "mthp-64K" : NULL,
		};

		ok = check_range(t, A(p), A(p) + len, 1, &e);
	}
	if (p)
		munmap(p, len);
	/* the modes they had: later cases (churn) choose their own */
	if (have && !vm_thp_size_restore(size, saved))
		ok = fail(t, "restore hugepages-64kB to %s: %s", saved,
			  strerror(errno));
	if (saved_pmd[0] && !vm_thp_size_restore(pmd, saved_pmd))
		ok = fail(t, "restore the PMD size to %s: %s", saved_pmd,
			  strerror(errno));
	return ok;
}

/*
 * Guard regions (6.13+, 662df3e5c376): MADV_GUARD_INSTALL puts a guard
 * marker in each PTE; ptwalk says kind marker with PTWALK_F_GUARD; the
 * fixture sees nothing mapped; ptcompare calls them "guard", not a
 * mismatch (pagemap: bit 58 from 6.15, and no swap bit).  Where madvise()
 * refuses the advice (EINVAL: before 6.13) the case says so and checks
 * that absent_flags lists guard.
 */
VMTEST_CASE(pagesize, "pagesize_guard", pagesize_guard)
{
	const uint64_t len = 8 * PAGE;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	uint32_t absent = 0;
	bool ok = true;

	if (!p)
		return false;
	touch_write(p, len);
	if (ptwalk_absent_flags(PTWALK_DEFAULT_DEBUGFS "/" PTWALK_DEBUGFS_DIR "/"
				PTWALK_ABSENT_FILE, &absent))
		ok = fail(t, "cannot read absent_flags");
	if (ok && madvise(p + 2 * PAGE, 4 * PAGE, MADV_GUARD_INSTALL)) {
		if (errno != EINVAL)
			ok = fail(t, "MADV_GUARD_INSTALL: %s", strerror(errno));
		else if (!(absent & PTWALK_F_GUARD))
			ok = fail(t, "madvise has no guard regions, yet absent_flags 0x%x lacks guard",
				  absent);
		else
			printf("# pagesize_guard: this kernel has no guard regions (MADV_GUARD_INSTALL: EINVAL, 6.13+): the refusal and absent_flags checked\n");
		munmap(p, len);
		return ok;
	}
	if (ok && (absent & PTWALK_F_GUARD))
		ok = fail(t, "guard regions installed, yet absent_flags lists guard");
	ok = ok && walk(t, getpid(), A(p), A(p) + len);
	for (uint64_t i = 0; ok && i < 8; i++) {
		uint64_t addr = A(p) + i * PAGE;
		const struct ptwalk_record *r = ptwalk_find(t->recs, t->nr_recs,
							    addr, PAGE_SHIFT_K);
		struct ptwalk_fixture_translate o;
		bool guard = i >= 2 && i < 6;

		if (!r || !oracle(t, addr, &o))
			ok = r ? false : fail(t, "page %" PRIu64 ": no record", i);
		else if (guard != (r->kind == PTWALK_KIND_MARKER &&
				   (r->flags & PTWALK_F_GUARD)))
			ok = fail(t, "page %" PRIu64 ": kind %u flags 0x%x, guard expected %d",
				  i, r->kind, r->flags, guard);
		else if (guard == (o.status == PTWALK_FIXTURE_MAPPED))
			ok = fail(t, "page %" PRIu64 ": the fixture says %s", i,
				  o.status ? "mapped" : "not mapped");
	}
	if (ok) {
		struct pc_result pr;
		struct pc_range r;

		ok = pc_json(t, &pr, getpid(), A(p), A(p) + len) &&
		     pc_find(t, &pr, A(p) + 2 * PAGE, &r);
		if (ok && (strcmp(r.cls, "guard") || r.pages != 4))
			ok = fail(t, "ptcompare: guard pages are %s, %" PRIu64 " pages",
				  r.cls, r.pages);
		pc_free(&pr);
	}
	munmap(p, len);
	return ok;
}
