// SPDX-License-Identifier: GPL-2.0
/* Runner and shared checks of the in-VM tests. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>
#include <linux/mempolicy.h>
#include <sys/syscall.h>
#include "../../module/ptwalk_names.h"
#include "ptcompare_run.h"
#include "vmtest.h"

char *vm_map_fixture(struct vmtest *t, struct ptwalk_fixture_pfns *known)
{
	char *p;

	if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PFNS, known)) {
		fail(t, "fixture pfns: %s", strerror(errno));
		return NULL;
	}
	p = mmap(NULL, PTWALK_FIXTURE_PAGES * PAGE, PROT_READ | PROT_WRITE,
		 MAP_SHARED, t->fixture_fd, 0);
	if (p == MAP_FAILED) {
		fail(t, "mmap fixture: %s", strerror(errno));
		return NULL;
	}
	return p;
}

bool fail(struct vmtest *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	return false;
}

int vm_open_query(struct vmtest *t)
{
	int fd = open(t->query_path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		fail(t, "open %s: %s", t->query_path, strerror(errno));
	return fd;
}

pid_t vm_open_query_fork(struct vmtest *t, int *fd)
{
	pid_t pid;

	*fd = vm_open_query(t);
	if (*fd < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(*fd);
		fail(t, "fork: %s", strerror(errno));
	}
	return pid;
}

bool walk(struct vmtest *t, pid_t pid, uint64_t start, uint64_t end)
{
	int fd = vm_open_query(t);
	ssize_t n;
	int ret;

	t->nr_recs = 0;
	if (fd < 0)
		return false;
	ret = ptwalk_query(fd, pid, start, end);
	if (ret) {
		close(fd);
		return fail(t, "query: %s", strerror(-ret));
	}
	while ((n = ptwalk_read(fd, t->recs + t->nr_recs,
				MAX_RECS - t->nr_recs)) > 0)
		t->nr_recs += n;
	close(fd);
	if (n < 0)
		return fail(t, "read: %s", strerror((int)-n));
	if (t->nr_recs == MAX_RECS)
		return fail(t, "more than %d records", MAX_RECS);
	if (!ptwalk_check_partition(t->recs, t->nr_recs, start, end, PAGE_SHIFT_K, t->why,
				    sizeof(t->why)))
		return false;
	return true;
}

bool oracle(struct vmtest *t, uint64_t addr,
	    struct ptwalk_fixture_translate *out)
{
	memset(out, 0, sizeof(*out));
	out->addr = addr;
	if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_TRANSLATE, out))
		return fail(t, "fixture translate 0x%" PRIx64 ": %s", addr,
			    strerror(errno));
	return true;
}

bool check_page(struct vmtest *t, uint64_t addr,
		const struct ptwalk_fixture_translate *o,
		const struct expect *e)
{
	const struct ptwalk_record *r = ptwalk_find(t->recs, t->nr_recs, addr, PAGE_SHIFT_K);
	bool mapped;
	uint64_t pfn;

	if (!r)
		return fail(t, "0x%" PRIx64 ": no record", addr);
	mapped = r->kind == PTWALK_KIND_PRESENT;
	pfn = ptwalk_pfn_at(r, addr, PAGE_SHIFT_K);
	if (mapped != (o->status == PTWALK_FIXTURE_MAPPED))
		return fail(t, "0x%" PRIx64 ": ptwalk %s, oracle %s", addr,
			    mapped ? "present" : "not present",
			    o->status ? "mapped" : "not mapped");
	if (mapped != e->present)
		return fail(t, "0x%" PRIx64 ": expected %s", addr,
			    e->present ? "present" : "not present");
	if (mapped && pfn != o->pfn)
		return fail(t, "0x%" PRIx64 ": ptwalk pfn 0x%" PRIx64
			    ", oracle pfn 0x%" PRIx64, addr, pfn,
			    (uint64_t)o->pfn);
	if (mapped && !!(r->flags & PTWALK_F_ZERO_PAGE) != !!o->zero)
		return fail(t, "0x%" PRIx64 ": zero page: ptwalk %d oracle %u",
			    addr, !!(r->flags & PTWALK_F_ZERO_PAGE), o->zero);
	/*
	 * A special entry holds no page (the huge zero folio's PMD is one
	 * on 7.2), so ptwalk reads nothing of it: vm_normal_page()'s rule.
	 */
	if (mapped && !!(r->flags & PTWALK_F_COMPOUND) !=
		      (!(r->flags & PTWALK_F_SPECIAL) && o->compound))
		return fail(t, "0x%" PRIx64 ": compound: ptwalk %d oracle %u, special %d",
			    addr, !!(r->flags & PTWALK_F_COMPOUND), o->compound,
			    !!(r->flags & PTWALK_F_SPECIAL));
	if (e->level >= 0 && r->level != e->level)
		return fail(t, "0x%" PRIx64 ": level %u, expected %d", addr,
			    r->level, e->level);
	if ((r->flags & e->flags_set) != e->flags_set ||
	    (r->flags & e->flags_clear))
		return fail(t, "0x%" PRIx64 ": flags 0x%x, want set 0x%x clear 0x%x",
			    addr, r->flags, e->flags_set, e->flags_clear);
	if ((r->vm_flags & e->vm_set) != e->vm_set || (r->vm_flags & e->vm_clear))
		return fail(t, "0x%" PRIx64 ": vm flags 0x%" PRIx64
			    ", want set 0x%" PRIx64 " clear 0x%" PRIx64, addr,
			    (uint64_t)r->vm_flags, e->vm_set, e->vm_clear);
	return true;
}

bool check_range(struct vmtest *t, uint64_t start, uint64_t end,
		 size_t stride, const struct expect *e)
{
	struct ptwalk_fixture_translate o;
	uint64_t addr;

	if (!walk(t, getpid(), start, end))
		return false;
	for (addr = start; addr < end; addr += stride * PAGE) {
		if (!oracle(t, addr, &o) || !check_page(t, addr, &o, e))
			return false;
	}
	addr = end - PAGE;
	return oracle(t, addr, &o) && check_page(t, addr, &o, e) &&
	       check_ptcompare(t, start, end, stride, e);
}

/* What ptcompare must call a page that e describes. */
static const char *expected_class(const struct expect *e)
{
	if (!e->present)
		return "not_present";
	return e->vm_set & PTWALK_VM_PFNMAP ? "pfnmap_hidden" : "match";
}

bool check_ptcompare(struct vmtest *t, uint64_t start, uint64_t end,
		     size_t stride, const struct expect *e)
{
	const char *level = NULL;
	struct ptwalk_fixture_translate o;
	struct pc_result r;
	uint64_t addr;
	bool ok;

	if (e->level == PTWALK_LEVEL_NONE)
		level = "null";
	else if (e->level > 0)
		level = ptwalk_level_name((unsigned int)e->level);
	ok = pc_json(t, &r, getpid(), start, end);
	for (addr = start; ok && addr < end; addr += stride * PAGE)
		ok = oracle(t, addr, &o) &&
		     pc_check_page(t, &r, addr, &o, expected_class(e), level);
	ok = ok && oracle(t, end - PAGE, &o) &&
	     pc_check_page(t, &r, end - PAGE, &o, expected_class(e), level) &&
	     (!e->huge || pc_vma_has_huge(t, &r, start, e->huge));
	pc_free(&r);
	return ok;
}

void *map_anon(struct vmtest *t, size_t len, int flags, int advice)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);

	if (p == MAP_FAILED) {
		fail(t, "mmap %zu bytes: %s", len, strerror(errno));
		return NULL;
	}
	if (advice >= 0 && madvise(p, len, advice)) {
		fail(t, "madvise %d: %s", advice, strerror(errno));
		munmap(p, len);
		return NULL;
	}
	return p;
}

void *map_aligned(struct vmtest *t, size_t len, size_t align, int advice)
{
	char *p = map_anon(t, len + align, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	char *aligned;

	if (!p)
		return NULL;
	aligned = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (aligned > p)
		munmap(p, aligned - p);
	munmap(aligned + len, p + len + align - (aligned + len));
	if (advice >= 0 && madvise(aligned, len, advice)) {
		fail(t, "madvise %d: %s", advice, strerror(errno));
		return NULL;
	}
	return aligned;
}

void touch_write(void *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += PAGE)
		((volatile char *)p)[i] = 1;
}

void touch_read(void *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += PAGE)
		(void)((volatile char *)p)[i];
}

long vm_mbind_node(void *p, size_t len, int node)
{
	unsigned long mask = 1UL << node;

	return syscall(__NR_mbind, p, len, MPOL_BIND, &mask,
		       sizeof(mask) * 8, 0);
}

bool find_mapping(const char *name, uint64_t *start, uint64_t *end)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strstr(line, name) &&
		    sscanf(line, "%" SCNx64 "-%" SCNx64, start, end) == 2)
			found = true;
	}
	fclose(f);
	return found;
}

bool vm_write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok;
}

int kmsg_from_now(struct vmtest *t)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 || lseek(fd, 0, SEEK_END) < 0) {
		fail(t, "/dev/kmsg: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

bool kmsg_record_us(const char *rec, uint64_t *us)
{
	unsigned long long v;

	if (sscanf(rec, "%*u,%*u,%llu,", &v) != 1)
		return false;
	*us = v;
	return true;
}

bool vm_read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return true;
}

bool vm_pci_identity_default(const char *bdf)
{
	char path[128], type[32];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group/type",
		 bdf);
	return vm_read_text(path, type, sizeof(type)) &&
	       !strcmp(type, "identity");
}

static void thp_size_path(char *path, size_t size, uint64_t bytes)
{
	snprintf(path, size, THP_SYSFS "/hugepages-%" PRIu64 "kB/enabled",
		 bytes / 1024);
}

double vm_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool vm_thp_size_set(uint64_t bytes, const char *mode, char *saved,
		     size_t size)
{
	char path[128], line[128];
	const char *open_br, *close_br;

	thp_size_path(path, sizeof(path), bytes);
	if (!vm_read_text(path, line, sizeof(line)))
		return false;
	/* "always inherit madvise [never]": the bracketed word is the mode */
	open_br = strchr(line, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (!close_br || (size_t)(close_br - open_br) > size) {
		errno = EINVAL;
		return false;
	}
	snprintf(saved, size, "%.*s", (int)(close_br - open_br - 1),
		 open_br + 1);
	return vm_write_text(path, mode);
}

bool vm_thp_size_restore(uint64_t bytes, const char *saved)
{
	char path[128];

	thp_size_path(path, sizeof(path), bytes);
	return vm_write_text(path, saved);
}

unsigned int vm_stress_seconds_given(void)
{
	char line[4096];
	const char *p;
	FILE *f = fopen("/proc/cmdline", "re");
	unsigned int s = 0;

	if (f && fgets(line, sizeof(line), f) &&
	    (p = strstr(line, "ptwalk_stress_s=")))
		s = (unsigned int)strtoul(p + 16, NULL, 10);
	if (f)
		fclose(f);
	return s;
}

unsigned int vm_stress_seconds(void)
{
	unsigned int s = vm_stress_seconds_given();

	return s ? s : 3;
}

bool qemu_display_bar(struct vmtest *t, char *dir, size_t size, uint64_t *bar)
{
	char path[300], bdf[32];
	bool found;
	FILE *f;

	/* by its device ID too: edu (1234:11e8) shares its vendor */
	if (!find_pci(t, "0x1234", "0x1111", bdf, sizeof(bdf)))
		return fail(t, "no QEMU display (PCI 1234:1111)");
	snprintf(dir, size, "/sys/bus/pci/devices/%s", bdf);
	/* sysfs's first resource line is BAR 0 */
	snprintf(path, sizeof(path), "%s/resource", dir);
	f = fopen(path, "r");
	found = f && fscanf(f, "%" SCNx64, bar) == 1 && *bar;
	if (f)
		fclose(f);
	return found || fail(t, "cannot read BAR 0 from %s", path);
}

char *vm_map_display(struct vmtest *t, const char *file, size_t len,
		     uint64_t *bar, char *dir, size_t size)
{
	char path[300];
	char *p;
	int fd;

	if (!qemu_display_bar(t, dir, size, bar))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		fail(t, "open %s: %s", path, strerror(errno));
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		fail(t, "mmap %s: %s", path, strerror(errno));
		return NULL;
	}
	touch_read(p, len);
	return p;
}

/* Whether the page at @addr is in user space: mapped there, or mappable. */
static bool user_page(uint64_t addr)
{
	void *p = mmap((void *)(uintptr_t)addr, PAGE, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return errno == EEXIST;
	munmap(p, PAGE);
	return (uintptr_t)p == addr;
}

uint64_t user_task_size(void)
{
	/*
	 * x86-64 LA57 2^56; riscv64 Sv57 2^56, Sv48 2^47, Sv39 2^38; arm64
	 * 52, 48, 47, 42 (64K, two levels), 39 and 36 bits (16K, two levels)
	 */
	static const unsigned int bits[] = { 57, 56, 52, 48, 47, 42, 39, 38, 36 };
	size_t i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		uint64_t top = 1ULL << bits[i];

		if (user_page(top - PAGE))
			return top;
		if (user_page(top - 2 * PAGE))
			return top - PAGE;
	}
	return 0;
}

bool vm_peek(struct vmtest *t, uint64_t pfn, uint64_t *value)
{
	struct ptwalk_fixture_peek pk = { .pfn = pfn };

	if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PEEK, &pk))
		return fail(t, "fixture peek of frame 0x%" PRIx64 ": %s", pfn,
			    strerror(errno));
	*value = pk.value;
	return true;
}

struct granule vm_granule(void)
{
	uint64_t page = PAGE, pmd = page << (PAGE_SHIFT_K - 3);
	struct granule g = { .pmd = pmd };

#if defined(__aarch64__)
	/* arch/arm64/include/asm/pgtable-hwdef.h: CONT_PTE/CONT_PMD_SHIFT */
	switch (page) {
	case 4096:
		g.pud = pmd << 9;
		g.cont_pte = 16 * page;
		g.cont_pmd = 16 * pmd;
		break;
	case 16384:
		g.cont_pte = 128 * page;
		g.cont_pmd = 32 * pmd;
		break;
	default:	/* 64K */
		g.cont_pte = 32 * page;
		g.cont_pmd = 32 * pmd;
		break;
	}
#elif defined(__riscv)
	/* 4K pages; Svnapot's 64K group (NAPOT_CONT64KB_ORDER), 1G PUD */
	g.pud = pmd << 9;
	g.cont_pte = 16 * page;
#else
	g.pud = pmd << (PAGE_SHIFT_K - 3);
#endif
	return g;
}

const char *size_label(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "KMGT";
	unsigned int u = 0;

	bytes >>= 10;
	while (bytes >= 1024 && !(bytes & 1023) && u < 3) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", bytes, units[u]);
	return buf;
}

int map_huge_flag(uint64_t bytes)
{
	return __builtin_ctzll(bytes) << MAP_HUGE_SHIFT;
}

bool vm_no_pud_hugetlb(struct vmtest *t, const char *name)
{
	uint64_t pud = vm_granule().pmd << (PAGE_SHIFT_K - 3);
	char dir[96];
	void *p;

	snprintf(dir, sizeof(dir), "/sys/kernel/mm/hugepages/hugepages-%" PRIu64 "kB",
		 pud >> 10);
	if (!access(dir, F_OK))
		return fail(t, "%s exists, yet %lu-byte pages have no PUD leaf", dir, PAGE);
	p = mmap(NULL, pud, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | map_huge_flag(pud), -1, 0);
	if (p != MAP_FAILED) {
		munmap(p, pud);
		return fail(t, "a %" PRIu64 "-byte hugetlb page mapped without a PUD leaf", pud);
	}
	printf("# %s: %lu-byte pages have no PUD leaf: mmap of a %" PRIu64 "-byte hugetlb page refused (%s)\n",
	       name, PAGE, pud, strerror(errno));
	return true;
}

bool vm_hugetlb_exceeds_ram(uint64_t bytes)
{
	struct sysinfo si;

	return !sysinfo(&si) && bytes > (uint64_t)si.totalram * si.mem_unit;
}

bool vm_hugetlb_beyond_ram(struct vmtest *t, uint64_t bytes, const char *name)
{
	char path[128], nr[32], label[24];
	void *p;

	size_label(label, sizeof(label), bytes);
	snprintf(path, sizeof(path),
		 "/sys/kernel/mm/hugepages/hugepages-%" PRIu64 "kB/nr_hugepages",
		 bytes >> 10);
	if (!vm_read_text(path, nr, sizeof(nr)))
		return fail(t, "%s: %s: the kernel does not offer %s hugetlb pages",
			    path, strerror(errno), label);
	if (strcmp(nr, "0"))
		return fail(t, "%s is %s, in a guest of less memory", path, nr);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | map_huge_flag(bytes), -1, 0);
	if (p != MAP_FAILED) {
		munmap(p, bytes);
		return fail(t, "a %s hugetlb page mapped with none in the pool", label);
	}
	if (errno != ENOMEM)
		return fail(t, "mmap of a %s hugetlb page: %s, expected ENOMEM",
			    label, strerror(errno));
	printf("# %s: %s hugetlb pages are registered, none can exist in this guest's memory: mmap refused (%s)\n",
	       name, label, strerror(errno));
	return true;
}

int user_paging_levels(void)
{
	uint64_t size = user_task_size();
	/* bits of the virtual address: 2^47 - PAGE needs 47 */
	unsigned int va_bits = size ? 64 - __builtin_clzll(size - 1) : 0;
	/* a level resolves PAGE / 8 entries: 9 bits with 4K, 11 with 16K */
	unsigned int per_level = PAGE_SHIFT_K - 3;

	if (va_bits <= PAGE_SHIFT_K)
		return 0;
	return (va_bits - PAGE_SHIFT_K + per_level - 1) / per_level;
}

/* Whether name starts with one of the comma-separated prefixes of list. */
static bool prefixed(const char *list, const char *name)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n && !strncmp(name, p, n))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/*
 * Whether this run leaves name out: a case another lane runs, one of
 * PTWALK_SKIP's prefixes (vm-run.sh's VM_SKIP), not run and not counted
 * as passed (the summary line says how many); or, where PTWALK_ONLY is
 * set, a case none of its prefixes names (the guest suite's run of the
 * sanitized ptcompare: VM_SANITIZED_ONLY), not counted at all.
 */
static bool skipped(const char *name)
{
	return prefixed(getenv("PTWALK_SKIP"), name);
}

static bool not_this_run(const char *name)
{
	const char *only = getenv("PTWALK_ONLY");

	return only && !prefixed(only, name);
}

/*
 * A case still running after CASE_WATCHDOG_S has hung (the longest takes
 * about a tenth of that on the debug kernel): it fails by name, the
 * kernel logs its blocked tasks (sysrq w, in the dmesg the guest prints),
 * and vmtest ends so that the lane does not wait out its whole timeout.
 * The case's name for the handler: the one static a signal handler needs.
 */
#ifndef CASE_WATCHDOG_S
#define CASE_WATCHDOG_S 240
#endif
static char watchdog_line[256];

static void case_watchdog(int sig)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);
	ssize_t unused;

	(void)sig;
	unused = write(STDOUT_FILENO, watchdog_line, strlen(watchdog_line));
	if (fd >= 0) {
		unused = write(fd, "w", 1);
		close(fd);
	}
	(void)unused;
	_exit(1);
}

static void watchdog_arm(const char *name)
{
	struct sigaction sa = { .sa_handler = case_watchdog };

	snprintf(watchdog_line, sizeof(watchdog_line),
		 "not ok - %s # hung: still running after %d s (blocked tasks: the kernel log)\n",
		 name, CASE_WATCHDOG_S);
	sigaction(SIGALRM, &sa, NULL);
	alarm(CASE_WATCHDOG_S);
}

static void run_one(struct vmtest *t, const struct vmtest_case *c,
		    const char *prefix, const char *only)
{
	double t0, t1;
	char name[128];
	bool ok;

	snprintf(name, sizeof(name), "%s%s", prefix, c->name);
	if ((only && strncmp(only, name, strlen(only))) || not_this_run(name))
		return;
	if (skipped(name)) {
		t->skipped++;
		return;
	}
	t->why[0] = '\0';
	/* a lane killed as hung names the case it was in (scripts/vm-run.sh) */
	printf("# start %s\n", name);
	fflush(stdout);
	watchdog_arm(name);
	t0 = vm_now_s();
	ok = c->fn(t);
	t1 = vm_now_s();
	alarm(0);
	printf("%s - %s%s%s\n", ok ? "ok" : "not ok", name, ok ? "" : " # ",
	       ok ? "" : t->why);
	/* what each lane spends where: CI's budget is cut by these */
	printf("# time %s: %.1f s\n", name, t1 - t0);
	fflush(stdout);
	if (ok)
		t->passed++;
	else
		t->failed++;
}

/*
 * The VmFlags of the first VMA in /proc/self/smaps whose maps line
 * ("start-end perms ... name") satisfies match: *set is whether flag is
 * among them, and the maps line goes to vma (when given).  False if no
 * VMA matched.
 */
static bool smaps_flag(bool (*match)(const char *line, unsigned long long s,
				     unsigned long long e, const void *arg),
		       const void *arg, const char *flag, bool *set, char *vma,
		       size_t vma_len)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false, found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		char tok[8];
		int n;

		/* an entry starts with its maps line: start-end perms ... */
		if (sscanf(line, "%llx-%llx ", &s, &e) == 2) {
			in = match(line, s, e, arg);
			if (in && vma)
				snprintf(vma, vma_len, "%.*s",
					 (int)strcspn(line, "\n"), line);
		} else if (in && !strncmp(line, "VmFlags:", 8)) {
			*set = false;
			for (const char *p = line + 8;
			     sscanf(p, " %7s%n", tok, &n) == 1; p += n)
				*set |= !strcmp(tok, flag);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool named(const char *line, unsigned long long s,
		  unsigned long long e, const void *name)
{
	(void)s;
	(void)e;
	return strstr(line, name) != NULL;
}

static bool holding(const char *line, unsigned long long s,
		    unsigned long long e, const void *addr)
{
	(void)line;
	return s <= *(const uint64_t *)addr && *(const uint64_t *)addr < e;
}

bool vm_flag_of(const char *name, const char *flag, bool *set)
{
	return smaps_flag(named, name, flag, set, NULL, 0);
}

bool vm_flag_at(uint64_t addr, const char *flag, bool *set, char *vma,
		size_t vma_len)
{
	return smaps_flag(holding, &addr, flag, set, vma, vma_len);
}

/* Every case VMTEST_CASE() made, in link order. */
extern const struct vmtest_case *const __start_vmtest_cases[];
extern const struct vmtest_case *const __stop_vmtest_cases[];

/* The suites of a full run, in its order. */
static const char *const suites[] = {
	"memory", "hugepfn", "pagesize", "error", "device", "iommu_none",
	"ptcompare", "jobs", "vtop", "dma", "dmainfo", "witness", "phys",
	"watch", "stress", "race", "fuzz", NULL,
};

/* A suite's cases in the order they are written: file, then line. */
static int written_order(const void *a, const void *b)
{
	const struct vmtest_case *x = *(const struct vmtest_case *const *)a;
	const struct vmtest_case *y = *(const struct vmtest_case *const *)b;
	int c = strcmp(x->file, y->file);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

#define MAX_CASES 512

/*
 * The cases of the suites names lists (NULL-terminated), suite by suite,
 * into out (MAX_CASES): how many.
 */
static size_t cases_of(const char *const *names,
		       const struct vmtest_case **out)
{
	size_t n = 0;

	for (; *names; names++) {
		size_t first = n;

		for (const struct vmtest_case *const *c = __start_vmtest_cases;
		     c < __stop_vmtest_cases && n < MAX_CASES; c++)
			if (!strcmp((*c)->suite, *names))
				out[n++] = *c;
		qsort(out + first, n - first, sizeof(*out), written_order);
	}
	return n;
}

/* Runs the cases of the suites names lists, or with list only says them. */
static void run(struct vmtest *t, const char *const *names, const char *only,
		bool list)
{
	const struct vmtest_case *cases[MAX_CASES];
	size_t n = cases_of(names, cases);

	for (size_t i = 0; i < n; i++) {
		if (list)
			printf("%s\n", cases[i]->name);
		else
			run_one(t, cases[i], "", only);
	}
}

/*
 * Runs again, under prefix, the cases of the full run that names lists:
 * the same checks through another way in (t->query_path) or under
 * lockdown.  A name that matches no case fails, so a renamed case is not
 * silently dropped.
 */
static void rerun(struct vmtest *t, const char *const *names,
		  const char *prefix, const char *only)
{
	const struct vmtest_case *cases[MAX_CASES];
	size_t n = cases_of(suites, cases);

	for (; *names; names++) {
		const struct vmtest_case *found = NULL;

		for (size_t i = 0; !found && i < n; i++)
			if (!strcmp(cases[i]->name, *names))
				found = cases[i];
		if (found) {
			run_one(t, found, prefix, only);
		} else {
			printf("not ok - %s%s # no such case to run again\n",
			       prefix, *names);
			t->failed++;
		}
	}
}

/* The session cases again, through /dev/ptwalk: the same errors. */
static const char *const device_reruns[] = {
	"bad_requests_errnos", "bad_sizes_and_order", "zombie_has_no_mm",
	"target_exits_during_scan", "sessions_are_private",
	"stream_one_record_per_read", "privileges", "pfnmap_fixture",
	"vtop_interface", NULL,
};

/*
 * Under lockdown, where only the device answers: walks and ptcompare
 * (compare, vtop, the whole process) against the fixture's oracle.
 */
static const char *const lockdown_reruns[] = {
	"pfnmap_fixture", "anon_4k", "thp_pmd", "vtop_pfnmap", "vtop_anon_4k",
	"ptcompare_whole_process_json", "sessions_are_private",
	"bad_requests_errnos", NULL,
};

/*
 * vmtest --kmemleak-ignore (tests/vm/guest-init.sh, before kmemleak's
 * scans on a debug kernel): kmemleak is told not to scan the 1 GiB
 * hugetlb page reserved at boot (PTWALK_FIXTURE_IOC_KMEMLEAK_IGNORE).  One
 * TAP line; none where no such page is reserved (the IOMMU lane alone).
 */
static int kmemleak_ignore_gigantic(int fixture_fd)
{
	const char *name = "kmemleak_ignores_gigantic_page";
	struct ptwalk_fixture_kmemleak k = { 0 };
	char nr[32];
	void *p;
	int ret = 0;

	if (!vm_read_text("/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages",
			  nr, sizeof(nr)) || !strcmp(nr, "0")) {
		printf("# kmemleak: no 1 GiB hugetlb page reserved, none to ignore\n");
		return 0;
	}
	p = mmap(NULL, GIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | map_huge_flag(GIB),
		 -1, 0);
	if (p == MAP_FAILED) {
		printf("not ok - %s # mmap of the 1 GiB hugetlb page: %s\n",
		       name, strerror(errno));
		return 1;
	}
	*(volatile char *)p = 1;
	k.addr = (uintptr_t)p;
	if (ioctl(fixture_fd, PTWALK_FIXTURE_IOC_KMEMLEAK_IGNORE, &k)) {
		printf("not ok - %s # %s: %s\n", name,
		       "PTWALK_FIXTURE_IOC_KMEMLEAK_IGNORE", strerror(errno));
		ret = 1;
	} else if (k.size != GIB || k.phys % GIB) {
		printf("not ok - %s # the fixture ignored %" PRIu64
		       " bytes at %#" PRIx64 ", not the 1 GiB page\n",
		       name, (uint64_t)k.size, (uint64_t)k.phys);
		ret = 1;
	} else {
		printf("ok - %s # the page at %#" PRIx64 "\n", name,
		       (uint64_t)k.phys);
	}
	munmap(p, GIB);
	return ret;
}

/*
 * usage: vmtest [--list] [--lockdown | --confidentiality | --iommu |
 * --iommu-lockdown | --edu] [PREFIX] | --kmemleak-ignore: PREFIX selects
 * cases by name; --iommu runs the IOMMU lane's cases alone (cases_edu.c,
 * cases_iommu.c, cases_owner.c), --iommu-lockdown its cases for
 * confidentiality lockdown, raised before; --edu edu's kernel driver
 * cases alone (cases_edu.c), for a machine whose edu has no IOMMU;
 * --list says the lane's cases in the order they run, and runs none.
 */
int main(int argc, char **argv)
{
	struct vmtest t = {
		.query_path = PTWALK_DEFAULT_DEBUGFS "/" PTWALK_DEBUGFS_DIR "/"
			      PTWALK_QUERY_FILE,
		.interface = "debugfs",
	};
	/*
	 * iommu_last: the cases that leave the device as the lane cannot put
	 * it back (5.10 cannot attach a rescanned device to a VFIO container)
	 */
	static const char *const iommu_lane[] = { "edu", "iommu", "iommu_last",
						   NULL };
	static const char *const edu_lane[] = { "edu", NULL };
	static const char *const confidentiality_lane[] = {
		"confidentiality", NULL,
	};
	static const char *const lockdown_lane[] = { "lockdown", NULL };
	static const char *const iommu_lockdown_lane[] = {
		"iommu_lockdown", NULL,
	};
	bool list = argc > 1 && !strcmp(argv[1], "--list");
	bool lockdown, confidential, iommu, iommu_locked, kmemleak, edu;
	const char *only;
	int first;

	argv += list;
	argc -= list;
	lockdown = argc > 1 && !strcmp(argv[1], "--lockdown");
	confidential = argc > 1 && !strcmp(argv[1], "--confidentiality");
	iommu = argc > 1 && !strcmp(argv[1], "--iommu");
	iommu_locked = argc > 1 && !strcmp(argv[1], "--iommu-lockdown");
	kmemleak = argc > 1 && !strcmp(argv[1], "--kmemleak-ignore");
	edu = argc > 1 && !strcmp(argv[1], "--edu");
	first = 1 + (lockdown || iommu || confidential || iommu_locked || edu);
	only = argc > first ? argv[first] : NULL;
	if (list) {
		run(&t, iommu ? iommu_lane : confidential ? confidentiality_lane :
			lockdown ? lockdown_lane : edu ? edu_lane :
			iommu_locked ? iommu_lockdown_lane : suites, NULL, true);
		return 0;
	}
	t.recs = calloc(MAX_RECS, sizeof(*t.recs));
	if (!t.recs) {
		printf("not ok - vmtest_setup # out of memory\n");
		return 1;
	}
	t.fixture_fd = open(PTWALK_FIXTURE_DEV, O_RDWR | O_CLOEXEC);
	if (t.fixture_fd < 0) {
		printf("not ok - vmtest_setup # open %s: %s\n",
		       PTWALK_FIXTURE_DEV, strerror(errno));
		return 1;
	}
	if (kmemleak) {
		t.failed = kmemleak_ignore_gigantic(t.fixture_fd);
		t.passed = !t.failed;
	} else if (iommu) {
		run(&t, iommu_lane, only, false);
	} else if (edu) {
		run(&t, edu_lane, only, false);
	} else if (iommu_locked) {
		t.query_path = PTWALK_DEFAULT_DEVICE;
		t.interface = "device";
		run(&t, iommu_lockdown_lane, only, false);
	} else if (confidential) {
		t.query_path = PTWALK_DEFAULT_DEVICE;
		t.interface = "device";
		run(&t, confidentiality_lane, only, false);
	} else if (lockdown) {
		t.query_path = PTWALK_DEFAULT_DEVICE;
		t.interface = "device";
		run(&t, lockdown_lane, only, false);
		rerun(&t, lockdown_reruns, "lockdown_", only);
	} else {
		run(&t, suites, only, false);
		t.query_path = PTWALK_DEFAULT_DEVICE;
		rerun(&t, device_reruns, "device_", only);
	}
	if (t.skipped)
		printf("# vmtest: %u cases left to another lane (PTWALK_SKIP=%s)\n",
		       t.skipped, getenv("PTWALK_SKIP"));
	printf("# vmtest: %u passed, %u failed\n", t.passed, t.failed);
	close(t.fixture_fd);
	free(t.recs);
	return t.failed ? 1 : 0;
}
