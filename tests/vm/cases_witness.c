// SPDX-License-Identifier: GPL-2.0
/*
 * The witnesses beside pagemap: physical names from /proc/iomem and the
 * /proc/kpageflags cross-check.  Oracles independent of ptwalk, pagemap
 * and ptcompare's parser: the BAR address sysfs gives, the fixture's own
 * frames, /proc/iomem scanned line by line here, /proc/kpageflags read
 * here, and the fixture's impostor for a contradiction that must be found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/mman.h>
#include "ptcompare_run.h"
#include "vmtest.h"

#define LIAR PTWALK_DEFAULT_DEBUGFS "/ptwalk_fixture_liar"

/* kpageflags bits (include/uapi/linux/kernel-page-flags.h) */
#define KPF_MMAP		11
#define KPF_ANON		12
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_HUGE		17
#define KPF_THP			22

/*
 * "outer > ... > inner" of the /proc/iomem entries holding phys: every
 * line whose range holds it, one per indentation level (siblings never
 * overlap), in file order.
 */
static bool iomem_name(struct vmtest *t, uint64_t phys, char *out, size_t size)
{
	char chain[8][128], line[256];
	int depth = -1;
	FILE *f = fopen("/proc/iomem", "r");

	if (!f)
		return fail(t, "/proc/iomem: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		size_t sp = strspn(line, " ");
		uint64_t s, e;
		int name = 0;

		if (sscanf(line + sp, "%" SCNx64 "-%" SCNx64 " : %n", &s, &e,
			   &name) < 2 || !name || sp / 2 >= 8)
			continue;
		if (s > phys || phys > e)
			continue;
		depth = (int)(sp / 2);
		snprintf(chain[depth], sizeof(chain[depth]), "%s",
			 line + sp + name);
		chain[depth][strcspn(chain[depth], "\n")] = '\0';
	}
	fclose(f);
	out[0] = '\0';
	for (int d = 0; d <= depth; d++) {
		size_t used = strlen(out);
		int n = snprintf(out + used, size - used, "%s%s",
				 d ? " > " : "", chain[d]);

		if (n < 0 || (size_t)n >= size - used)
			break;	/* full: what fitted names the region */
	}
	return depth >= 0 || fail(t, "0x%" PRIx64 " not in /proc/iomem", phys);
}

static bool kpageflags(struct vmtest *t, uint64_t pfn, uint64_t *flags)
{
	int fd = open("/proc/kpageflags", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return fail(t, "/proc/kpageflags: %s", strerror(errno));
	n = pread(fd, flags, sizeof(*flags), (off_t)(pfn * sizeof(*flags)));
	close(fd);
	return n == sizeof(*flags) ||
	       fail(t, "/proc/kpageflags at pfn 0x%" PRIx64 ": short read", pfn);
}

/* The JSON range object covering addr. */
static struct json_object *range_obj(struct vmtest *t,
				     const struct pc_result *r, uint64_t addr)
{
	struct json_object *ranges = pc_get(r->doc, "ranges");

	for (size_t i = 0; i < json_object_array_length(ranges); i++) {
		struct json_object *o = json_object_array_get_idx(ranges, i);
		uint64_t start = pc_hex_or_none(o, "start");
		uint64_t pages = (uint64_t)json_object_get_int64(pc_get(o,
						"pages"));

		if (addr >= start && addr < start + pages * PAGE)
			return o;
	}
	fail(t, "no range object covers 0x%" PRIx64, addr);
	return NULL;
}

static bool has_word(struct json_object *arr, const char *word)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(arr, i)),
			    word))
			return true;
	return false;
}

static uint64_t witness_count(const struct pc_result *r, const char *key)
{
	return (uint64_t)json_object_get_int64(pc_get(pc_get(r->doc,
							    "witnesses"), key));
}

/* The range at addr is named as the test's own reading of /proc/iomem. */
static bool named_as(struct vmtest *t, struct json_object *o, uint64_t pfn,
		     bool struct_page)
{
	char want[512];
	struct json_object *name = o ? pc_get(o, "iomem") : NULL;

	if (!o || !iomem_name(t, pfn << PAGE_SHIFT_K, want, sizeof(want)))
		return false;
	if (!name)
		return fail(t, "range without an iomem name: %s",
			    json_object_to_json_string(o));
	if (strcmp(json_object_get_string(name), want))
		return fail(t, "iomem \"%s\", /proc/iomem says \"%s\"",
			    json_object_get_string(name), want);
	if (json_object_get_boolean(pc_get(o, "struct_page")) != struct_page)
		return fail(t, "struct_page is not %d: %s", struct_page,
			    json_object_to_json_string(o));
	return true;
}

/* No contradiction anywhere; kpageflags read, in few preads. */
static bool consistent(struct vmtest *t, const struct pc_result *r,
		       uint64_t min_pages, uint64_t max_reads)
{
	const char *s = strstr(r->err, " kpageflags_reads=");
	uint64_t reads = UINT64_MAX;

	if (witness_count(r, "contradicting_pages"))
		return fail(t, "contradictions: %s", r->out);
	if (pc_get(pc_get(r->doc, "witnesses"), "kpageflags_skipped"))
		return fail(t, "third witness skipped: %s", r->out);
	if (witness_count(r, "kpageflags_pages") < min_pages)
		return fail(t, "kpageflags checked %" PRIu64 " pages, expected %" PRIu64,
			    witness_count(r, "kpageflags_pages"), min_pages);
	if (!s || sscanf(s, " kpageflags_reads=%" SCNu64, &reads) != 1 ||
	    reads > max_reads)
		return fail(t, "%" PRIu64 " kpageflags preads for %" PRIu64
			    " pages: %s", reads, min_pages, r->err);
	return true;
}

/* The VGA BAR: named by the PCI device sysfs calls it, no struct page. */
VMTEST_CASE(witness, "witness_bar_named", bar_named)
{
	char dir[256], want[64];
	uint64_t bar = 0;
	char *p = vm_map_display(t, "resource0", 64 * 1024, &bar, dir,
				 sizeof(dir));
	bool ok;
	struct pc_result r;
	struct json_object *o;

	if (!p)
		return false;
	snprintf(want, sizeof(want), "> %s", strrchr(dir, '/') + 1);
	ok = pc_json(t, &r, getpid(), A(p), A(p) + 64 * 1024) &&
	     (o = range_obj(t, &r, A(p))) &&
	     (!strcmp(json_object_get_string(pc_get(o, "class")), "pfnmap_hidden") ||
	      fail(t, "BAR range class %s", json_object_get_string(pc_get(o, "class")))) &&
	     (pc_hex_or_none(o, "walk_pfn") == bar >> PAGE_SHIFT_K || fail(t, "BAR frame is not sysfs's 0x%" PRIx64, bar)) &&
	     named_as(t, o, bar >> PAGE_SHIFT_K, false) &&
	     (strstr(json_object_get_string(pc_get(o, "iomem")), want) ||
	      fail(t, "iomem name \"%s\" lacks the device %s",
		   json_object_get_string(pc_get(o, "iomem")), want)) &&
	     (!pc_get(o, "kpageflags") ||
	      fail(t, "a BAR without struct page was checked against kpageflags"));
	if (ok)
		printf("# witness_bar_named: BAR 0x%" PRIx64 " is \"%s\"\n",
		       bar, json_object_get_string(pc_get(o, "iomem")));
	pc_free(&r);
	munmap(p, 64 * 1024);
	return ok;
}

/* The fixture's remap_pfn_range frames: RAM it allocated, named so. */
VMTEST_CASE(witness, "witness_fixture_named", fixture_named)
{
	size_t len = PTWALK_FIXTURE_PAGES * PAGE;
	struct ptwalk_fixture_pfns known;
	struct pc_result r;
	char *p;
	bool ok;

	p = vm_map_fixture(t, &known);
	if (!p)
		return false;
	ok = pc_json(t, &r, getpid(), A(p), A(p) + len) &&
	     consistent(t, &r, PTWALK_FIXTURE_PAGES, PTWALK_FIXTURE_PAGES);
	for (size_t i = 0; ok && i < PTWALK_FIXTURE_PAGES; i++) {
		uint64_t addr = A(p) + i * PAGE;
		struct json_object *o = range_obj(t, &r, addr);
		uint64_t first = o ? pc_hex_or_none(o, "start") : 0;

		ok = o && named_as(t, o, known.pfn[i - (addr - first) / PAGE],
				   true) &&
		     (!strncmp(json_object_get_string(pc_get(o, "iomem")),
			       "System RAM", 10) ||
		      fail(t, "fixture page %zu not in System RAM", i)) &&
		     (pc_get(o, "kpageflags") ||
		      fail(t, "fixture page %zu: no kpageflags", i));
	}
	pc_free(&r);
	munmap(p, len);
	return ok;
}

/*
 * A PMD-mapped THP (2M with 4K pages, 32M with 16K): thp, head then tails,
 * as kpageflags says here.
 */
VMTEST_CASE(witness, "witness_thp_kpageflags", thp_kpageflags)
{
	size_t len = vm_granule().pmd;
	char *p = map_aligned(t, len, len, MADV_HUGEPAGE);
	struct ptwalk_fixture_translate o;
	uint64_t head = 0, tail = 0;
	struct json_object *obj, *kpf;
	struct pc_result r = { 0 };
	bool ok;

	if (!p)
		return false;
	touch_write(p, len);
	ok = oracle(t, A(p), &o) &&
	     (o.compound || fail(t, "no THP: the kernel gave small pages")) &&
	     kpageflags(t, o.pfn, &head) && kpageflags(t, o.pfn + 1, &tail) &&
	     ((head >> KPF_THP & 1 && head >> KPF_COMPOUND_HEAD & 1 &&
	       tail >> KPF_COMPOUND_TAIL & 1) ||
	      fail(t, "kpageflags read here: head 0x%" PRIx64 " tail 0x%" PRIx64,
		   head, tail)) &&
	     pc_json(t, &r, getpid(), A(p), A(p) + len) &&
	     consistent(t, &r, len / PAGE, 2) && (obj = range_obj(t, &r, A(p))) &&
	     named_as(t, obj, o.pfn, true) &&
	     (kpf = pc_get(obj, "kpageflags")) &&
	     ((has_word(kpf, "thp") && has_word(kpf, "compound_head") &&
	       has_word(kpf, "compound_tail") && has_word(kpf, "anon") &&
	       has_word(kpf, "mmap") && !has_word(kpf, "huge")) ||
	      fail(t, "THP kpageflags: %s", json_object_to_json_string(kpf)));
	pc_free(&r);
	munmap(p, len);
	return ok;
}

static bool hugetlb_kpageflags(struct vmtest *t, size_t size, int size_flag,
			       const char *level, uint64_t max_reads)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | size_flag,
		       -1, 0);
	struct ptwalk_fixture_translate o;
	struct json_object *obj, *kpf;
	uint64_t head = 0;
	struct pc_result r = { 0 };
	bool ok;

	if (p == MAP_FAILED)
		return fail(t, "mmap hugetlb %zu: %s", size, strerror(errno));
	touch_write(p, size);
	ok = oracle(t, A(p), &o) && kpageflags(t, o.pfn, &head) &&
	     (head >> KPF_HUGE & 1 || fail(t, "kpageflags here: no huge bit")) &&
	     pc_json(t, &r, getpid(), A(p), A(p) + size) &&
	     consistent(t, &r, size / PAGE, max_reads) &&
	     (obj = range_obj(t, &r, A(p))) &&
	     (!strcmp(json_object_get_string(pc_get(obj, "level")), level) ||
	      fail(t, "level %s", json_object_get_string(pc_get(obj, "level")))) &&
	     named_as(t, obj, o.pfn, true) &&
	     (kpf = pc_get(obj, "kpageflags")) &&
	     ((has_word(kpf, "huge") && has_word(kpf, "compound_head") &&
	       has_word(kpf, "compound_tail") && has_word(kpf, "mmap") &&
	       !has_word(kpf, "thp")) ||
	      fail(t, "hugetlb kpageflags: %s", json_object_to_json_string(kpf)));
	pc_free(&r);
	munmap(p, size);
	return ok;
}

/*
 * The preads of kpageflags a hugetlb page of size needs at most: 64 KiB
 * (8192 entries) each, one more for the ends (1G with 4K pages: 33).
 */
static uint64_t max_kpf_reads(size_t size)
{
	uint64_t n = size / PAGE / 8192 + 1;

	return n < 2 ? 2 : n;
}

/* The PMD leaf's hugetlb page (2M with 4K pages, 32M with 16K). */
VMTEST_CASE(witness, "witness_hugetlb_2m_kpageflags", hugetlb_2m_kpageflags)
{
	size_t size = vm_granule().pmd;

	return hugetlb_kpageflags(t, size, map_huge_flag(size), "pmd",
				  max_kpf_reads(size));
}

/* The PUD leaf's: 262,144 pages in 64 KiB preads, 33 of them; none on 16K. */
VMTEST_CASE(witness, "witness_hugetlb_1g_kpageflags", hugetlb_1g_kpageflags)
{
	if (!vm_granule().pud)
		return vm_no_pud_hugetlb(t, "witness_hugetlb_1g_kpageflags");
	return hugetlb_kpageflags(t, GIB, MAP_HUGE_1GB, "pud", max_kpf_reads(GIB));
}

#if defined(__aarch64__) || defined(__riscv)
/*
 * arm64's contiguous pages: one compound page under 16 entries (4K pages;
 * 128 PTEs or 32 PMDs with 16K); only the group's first page is its head
 * (the PMDs after the first of a PMD group map tails: no contradiction).
 * riscv64's NAPOT 64K pages alike.
 */
VMTEST_CASE(witness, "witness_hugetlb_64k_kpageflags", hugetlb_64k_kpageflags)
{
	size_t size = vm_granule().cont_pte;

	return hugetlb_kpageflags(t, size, map_huge_flag(size), "pte",
				  max_kpf_reads(size));
}
#endif

#if defined(__aarch64__)
VMTEST_CASE(witness, "witness_hugetlb_32m_kpageflags", hugetlb_32m_kpageflags)
{
	size_t size = vm_granule().cont_pmd;

	if (vm_hugetlb_exceeds_ram(size))
		return vm_hugetlb_beyond_ram(t, size, "witness_hugetlb_32m_kpageflags");
	return hugetlb_kpageflags(t, size, map_huge_flag(size), "pmd",
				  max_kpf_reads(size));
}
#endif

static bool claim(struct vmtest *t, const struct ptwalk_fixture_liar_claim *c)
{
	int fd = open(LIAR "/" PTWALK_FIXTURE_LIAR_CLAIM, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return fail(t, "open the impostor's claim file: %s",
			    strerror(errno));
	n = write(fd, c, sizeof(*c));
	close(fd);
	return n == sizeof(*c) || fail(t, "claim: %s", strerror(errno));
}

/*
 * The impostor tells the true frame of a 4K page (pagemap agrees) with a
 * false flag: kpageflags contradicts it on every re-check, exit 1.
 */
static bool lie_found(struct vmtest *t, uint32_t lie, const char *rule)
{
	char *p = map_anon(t, PAGE, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	struct ptwalk_fixture_translate o;
	struct ptwalk_fixture_liar_claim c = { 0 };
	struct json_object *obj, *con;
	struct pc_result r = { 0 };
	char range[64], pid[16];
	const char *argv[] = { "ptcompare", "--kpageflags", "--debugfs", LIAR,
			       "--range", range, pid, NULL };
	bool ok;

	if (!p)
		return false;
	touch_write(p, PAGE);
	if (!oracle(t, A(p), &o))
		return false;
	c = (struct ptwalk_fixture_liar_claim){
		.start = A(p), .end = A(p) + PAGE, .pfn = o.pfn,
		.vm_flags = PTWALK_VM_READ | PTWALK_VM_WRITE | PTWALK_VM_ANON,
		.flags = PTWALK_F_PRESENT | PTWALK_F_USER | PTWALK_F_WRITE |
			 PTWALK_F_PFN_VALID | lie,
		.level = PTWALK_LEVEL_PTE,
	};
	ok = claim(t, &c) &&
	     pc_json_from(t, &r, getpid(), A(p), A(p) + PAGE, LIAR, 1) &&
	     (obj = range_obj(t, &r, A(p))) &&
	     (!strcmp(json_object_get_string(pc_get(obj, "class")), "match") ||
	      fail(t, "the claim's frame is not pagemap's: %s", r.out)) &&
	     (con = pc_get(obj, "contradiction")) &&
	     ((json_object_get_int64(pc_get(con, "pages")) == 1 &&
	       pc_hex_or_none(con, "pfn") == o.pfn && has_word(pc_get(con, "rules"), rule)) ||
	      fail(t, "contradiction: %s", json_object_to_json_string(con))) &&
	     (!strcmp(json_object_get_string(pc_get(r.doc, "verdict")),
		      "mismatch") || fail(t, "verdict is not mismatch")) &&
	     (witness_count(&r, "contradicting_pages") == 1 ||
	      fail(t, "witnesses: %s", r.out));
	pc_free(&r);
	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, A(p),
		 A(p) + PAGE);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ok = ok && pc_run(t, &r, argv) &&
	     (r.status == 1 || fail(t, "text report exit %d", r.status)) &&
	     (strstr(r.out, "    CONTRADICTION on 1 page, first ") ||
	      fail(t, "no CONTRADICTION line: %s", r.out)) &&
	     (strstr(r.out, "\nverdict: MISMATCH: 1 page where /proc/kpageflags contradicts the page tables\n") ||
	      fail(t, "no MISMATCH verdict: %s", r.out));
	if (ok)
		printf("# witness_lie: %.*s\n",
		       (int)strcspn(strstr(r.out, "CONTRADICTION"), "\n"),
		       strstr(r.out, "CONTRADICTION"));
	pc_free(&r);
	c.end = 0;
	ok = claim(t, &c) && ok;
	munmap(p, PAGE);
	return ok;
}

/* The honest ptwalk on the same kind of page: no contradiction. */
VMTEST_CASE(witness, "witness_honest_anon", honest_anon)
{
	size_t len = 64 * PAGE;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	struct pc_result r;
	bool ok;

	if (!p)
		return false;
	touch_write(p, len);
	ok = pc_json(t, &r, getpid(), A(p), A(p) + len) &&
	     consistent(t, &r, 64, 64);
	pc_free(&r);
	munmap(p, len);
	return ok;
}

VMTEST_CASE(witness, "witness_lie_compound", lie_compound)
{
	return lie_found(t, PTWALK_F_COMPOUND, "compound");
}

VMTEST_CASE(witness, "witness_lie_zero_page", lie_zero_page)
{
	return lie_found(t, PTWALK_F_ZERO_PAGE | PTWALK_F_SPECIAL, "zero");
}
