// SPDX-License-Identifier: GPL-2.0
/*
 * Beyond one process: ptcompare --phys (who maps a frame) and --all
 * (every process), checked against how each mapping was made.  A RAM page of this process shared with a forked child (the
 * frame from the fixture's oracle, in each process), a frame nobody maps,
 * and a PCI BAR mapped uncached by one process and write-combined by
 * another: a memtype_conflict, the BAR's address from sysfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptcompare_run.h"
#include "vmtest.h"

/*
 * A child that did what it was told and reports an address and a frame
 * through a pipe, then waits until its parent closes the other pipe.
 */
struct mapper {
	pid_t pid;
	int report_fd;		/* child -> parent: two uint64_t */
	int hold_fd;		/* parent's end; closing it ends the child */
	uint64_t addr, pfn;
};

typedef bool (*mapper_fn)(struct vmtest *t, uint64_t *addr, uint64_t *pfn,
			  void *arg);

static bool mapper_start(struct vmtest *t, struct mapper *m, mapper_fn fn,
			 void *arg)
{
	int rep[2], hold[2];
	uint64_t out[2] = { 0, 0 };
	char c;

	if (pipe2(rep, O_CLOEXEC) || pipe2(hold, O_CLOEXEC))
		return fail(t, "pipe: %s", strerror(errno));
	m->pid = fork();
	if (m->pid < 0)
		return fail(t, "fork: %s", strerror(errno));
	if (m->pid == 0) {
		close(rep[0]);
		close(hold[1]);
		if (!fn(t, &out[0], &out[1], arg))
			out[0] = 0;
		if (write(rep[1], out, sizeof(out)) != sizeof(out))
			_exit(1);
		while (read(hold[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(rep[1]);
	close(hold[0]);
	m->report_fd = rep[0];
	m->hold_fd = hold[1];
	if (read(m->report_fd, out, sizeof(out)) != sizeof(out) || !out[0])
		return fail(t, "child %d did not map what it was told",
			    (int)m->pid);
	m->addr = out[0];
	m->pfn = out[1];
	return true;
}

static void mapper_stop(struct mapper *m)
{
	if (m->pid <= 0)
		return;
	close(m->hold_fd);
	close(m->report_fd);
	waitpid(m->pid, NULL, 0);
	m->pid = 0;
}

/* ptcompare --json --phys START-END, parsed, exiting want. */
static bool phys_json(struct vmtest *t, struct pc_result *r, uint64_t start,
		      uint64_t end, int want)
{
	char range[64];
	const char *argv[] = { "ptcompare", "--json", "--phys", range, NULL };
	enum json_tokener_error jerr;

	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, start, end);
	if (!pc_run(t, r, argv))
		return false;
	if (r->status != want) {
		fail(t, "ptcompare --phys %s: exit %d (want %d): %s", range,
		     r->status, want, r->err);
		pc_free(r);
		return false;
	}
	r->doc = json_tokener_parse_verbose(r->out, &jerr);
	if (!r->doc) {
		fail(t, "ptcompare --phys %s: not JSON (%s)", range,
		     json_tokener_error_desc(jerr));
		pc_free(r);
		return false;
	}
	return true;
}

/* The mapping of pid at addr in the document, or NULL. */
static struct json_object *mapping_of(struct json_object *doc, pid_t pid,
				      uint64_t addr)
{
	struct json_object *maps = pc_get(doc, "mappings");
	size_t n = maps ? json_object_array_length(maps) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(maps, i);
		struct json_object *p = pc_get(m, "pid");

		if (p && json_object_get_int(p) == pid &&
		    pc_hex_or_none(m, "start") == addr)
			return m;
	}
	return NULL;
}

/* pid maps frame pfn at addr, one page at least, with memtype mt. */
static bool expect_mapping(struct vmtest *t, struct json_object *doc,
			   pid_t pid, uint64_t addr, uint64_t pfn,
			   const char *mt)
{
	struct json_object *m = mapping_of(doc, pid, addr);
	struct json_object *got;

	if (!m)
		return fail(t, "--phys lists no mapping of pid %d at 0x%" PRIx64,
			    (int)pid, addr);
	if (pc_hex_or_none(m, "pfn") != pfn)
		return fail(t, "pid %d at 0x%" PRIx64 ": pfn 0x%" PRIx64
			    ", the oracle's 0x%" PRIx64, (int)pid, addr,
			    pc_hex_or_none(m, "pfn"), pfn);
	got = pc_get(m, "memtype");
	if (!got || strcmp(json_object_get_string(got), mt))
		return fail(t, "pid %d at 0x%" PRIx64 ": memtype %s, mapped %s",
			    (int)pid, addr,
			    got ? json_object_get_string(got) : "null", mt);
	return true;
}

#ifdef __x86_64__
#define MT_RAM	"wb"
#define MT_UC	"uc-"		/* sysfs resource0: pgprot_noncached, UC- */
#define MT_WC	"wc"
#elif defined(__riscv)
#define MT_RAM	"pma"
#define MT_UC	"io"		/* pgprot_noncached(): PBMT IO */
#define MT_WC	"nc"		/* pgprot_writecombine(): PBMT NC */
#else
#define MT_RAM	"normal"
#define MT_UC	"device-ngnre"
#define MT_WC	"normal-nc"
#endif

/* The child's half of phys_shared_after_fork: the parent's page, its frame. */
static bool child_oracle(struct vmtest *t, uint64_t *addr, uint64_t *pfn,
			 void *arg)
{
	struct ptwalk_fixture_translate o;

	if (!oracle(t, A(arg), &o) || o.status != PTWALK_FIXTURE_MAPPED)
		return false;
	*addr = A(arg);
	*pfn = o.pfn;
	return true;
}

/*
 * A page written, then shared with a child by fork: both processes map
 * the same frame at the same address, until one writes.
 */
VMTEST_CASE(phys, "phys_shared_after_fork", phys_shared_after_fork)
{
	long ps = sysconf(_SC_PAGESIZE);
	struct ptwalk_fixture_translate o;
	struct mapper child = { 0 };
	struct pc_result r;
	char *p = map_anon(t, (size_t)ps, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	bool ok;

	if (!p)
		return false;
	touch_write(p, (size_t)ps);
	ok = oracle(t, A(p), &o) && o.status == PTWALK_FIXTURE_MAPPED;
	if (!ok)
		return fail(t, "oracle: 0x%" PRIx64 " not mapped", A(p));
	ok = mapper_start(t, &child, child_oracle, p);
	if (ok && child.pfn != o.pfn)
		ok = fail(t, "the child maps 0x%" PRIx64 ", the parent 0x%" PRIx64
			  ": not shared", child.pfn, (uint64_t)o.pfn);
	ok = ok && phys_json(t, &r, o.pfn * (uint64_t)ps,
			     (o.pfn + 1) * (uint64_t)ps, 0);
	if (ok) {
		struct json_object *maps = pc_get(r.doc, "mappings");
		struct json_object *unmapped = pc_get(r.doc, "unmapped");
		struct json_object *conflicts = pc_get(r.doc, "conflicts");

		ok = expect_mapping(t, r.doc, getpid(), A(p), o.pfn, MT_RAM) &&
		     expect_mapping(t, r.doc, child.pid, A(p), o.pfn, MT_RAM);
		if (ok && json_object_array_length(maps) != 2)
			ok = fail(t, "%zu mappings of the frame, 2 made",
				  json_object_array_length(maps));
		if (ok && (!unmapped || json_object_array_length(unmapped)))
			ok = fail(t, "a mapped frame listed as unmapped");
		if (ok && (!conflicts || json_object_array_length(conflicts)))
			ok = fail(t, "a conflict where both map %s", MT_RAM);
		pc_free(&r);
	}
	mapper_stop(&child);
	munmap(p, (size_t)ps);
	return ok;
}

/*
 * Physical page 0: reserved by the firmware on x86 and below RAM on
 * arm64's virt machine; no process maps it.
 */
VMTEST_CASE(phys, "phys_unmapped_frame", phys_unmapped_frame)
{
	long ps = sysconf(_SC_PAGESIZE);
	struct json_object *maps, *unmapped, *u;
	struct pc_result r;
	bool ok;

	if (!phys_json(t, &r, 0, (uint64_t)ps, 0))
		return false;
	maps = pc_get(r.doc, "mappings");
	unmapped = pc_get(r.doc, "unmapped");
	ok = maps && !json_object_array_length(maps);
	if (!ok)
		ok = fail(t, "%zu mappings of physical page 0",
			  maps ? json_object_array_length(maps) : 0);
	if (ok && (!unmapped || json_object_array_length(unmapped) != 1))
		ok = fail(t, "physical page 0 not listed as unmapped");
	if (ok) {
		u = json_object_array_get_idx(unmapped, 0);
		if (pc_hex_or_none(u, "pfn") != 0 ||
		    json_object_get_int64(pc_get(u, "pages")) != 1)
			ok = fail(t, "unmapped: %s",
				  json_object_to_json_string(u));
	}
	if (ok && json_object_get_int64(pc_get(pc_get(r.doc, "processes"),
					       "scanned")) < 2)
		ok = fail(t, "fewer than 2 processes scanned");
	pc_free(&r);
	return ok;
}

/* Maps one page of the display's sysfs file arg and reads it. */
static bool map_bar(struct vmtest *t, const char *file, uint64_t *addr)
{
	char dir[256];
	uint64_t bar;
	char *p = vm_map_display(t, file, PAGE, &bar, dir, sizeof(dir));

	if (p)
		*addr = A(p);
	return p != NULL;
}

static bool child_maps_wc(struct vmtest *t, uint64_t *addr, uint64_t *pfn,
			  void *arg)
{
	(void)arg;
	*pfn = 0;
	return map_bar(t, VM_BAR_WC ? "resource0_wc" : "resource0", addr);
}

/*
 * The conflict in doc: exactly one, at frame pfn, listing pid at a and
 * pid_b at b.
 */
static bool expect_conflict(struct vmtest *t, struct json_object *doc,
			    uint64_t pfn, pid_t pid_a, uint64_t a, pid_t pid_b,
			    uint64_t b)
{
	struct json_object *conflicts = pc_get(doc, "conflicts"), *c, *cm;
	bool seen_a = false, seen_b = false;

	if (!conflicts || json_object_array_length(conflicts) != 1)
		return fail(t, "%zu conflicts, 1 made",
			    conflicts ? json_object_array_length(conflicts) : 0);
	c = json_object_array_get_idx(conflicts, 0);
	if (pc_hex_or_none(c, "pfn") != pfn)
		return fail(t, "conflict at frame 0x%" PRIx64 ", made at 0x%" PRIx64,
			    pc_hex_or_none(c, "pfn"), pfn);
	cm = pc_get(c, "mappings");
	for (size_t i = 0; cm && i < json_object_array_length(cm); i++) {
		struct json_object *m = json_object_array_get_idx(cm, i);
		int pid = json_object_get_int(pc_get(m, "pid"));
		uint64_t at = pc_hex_or_none(m, "address");

		seen_a |= pid == pid_a && at == a;
		seen_b |= pid == pid_b && at == b;
	}
	if (!seen_a || !seen_b)
		return fail(t, "the conflict does not list both mappings: %s",
			    json_object_to_json_string(c));
	return true;
}

/*
 * The text report of the same: the finding's line, and each mapping with
 * its type under it; shown as TAP comments (docs/report.md quotes it).
 */
static bool phys_text_conflict(struct vmtest *t, uint64_t pfn, uint64_t wb,
			       uint64_t wc)
{
	long ps = sysconf(_SC_PAGESIZE);
	char range[40], want[3][96];
	const char *argv[] = { "ptcompare", "--phys", range, NULL };
	struct pc_result r;
	bool ok = true;

	snprintf(range, sizeof(range), "0x%" PRIx64, pfn * (uint64_t)ps);
	snprintf(want[0], sizeof(want[0]), "memtype_conflict: frame 0x%" PRIx64
		 " mapped with different memory types", pfn);
	snprintf(want[1], sizeof(want[1]), "pid %d (vmtest) at 0x%" PRIx64
		 ": " MT_RAM "\n", (int)getpid(), wb);
	snprintf(want[2], sizeof(want[2]), "pid %d (vmtest) at 0x%" PRIx64
		 ": " MT_WC "\n", (int)getpid(), wc);
	if (!pc_run(t, &r, argv))
		return false;
	if (r.status != 1)
		ok = fail(t, "ptcompare --phys %s: exit %d, want 1: %s", range,
			  r.status, r.err);
	for (int i = 0; ok && i < 3; i++)
		if (!strstr(r.out, want[i]))
			ok = fail(t, "the text report lacks '%s'", want[i]);
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n"))
		printf("# %s\n", line);
	pc_free(&r);
	return ok;
}

/*
 * The fixture's frames (p) and the write-combined alias (wc) of one of
 * them, pfn, which the address wb maps write-back.
 */
struct wc_alias {
	char *p, *wc;
	uint64_t pfn, wb;
};

/* check(t, a) with the alias mapped, and all unmapped after. */
static bool with_wc_alias(struct vmtest *t,
			  bool (*check)(struct vmtest *t,
					const struct wc_alias *a))
{
	struct ptwalk_fixture_pfns known;
	struct wc_alias a;
	bool ok;

	a.p = vm_map_fixture(t, &known);
	if (!a.p)
		return false;
	a.wc = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		    t->fixture_fd, PTWALK_FIXTURE_WC_OFFSET);
	if (a.wc == MAP_FAILED) {
		munmap(a.p, PTWALK_FIXTURE_PAGES * PAGE);
		return fail(t, "mmap the fixture's wc alias: %s",
			    strerror(errno));
	}
	a.pfn = known.pfn[PTWALK_FIXTURE_CONTIG];
	a.wb = A(a.p) + PTWALK_FIXTURE_CONTIG * PAGE;
	ok = check(t, &a);
	munmap(a.wc, PAGE);
	munmap(a.p, PTWALK_FIXTURE_PAGES * PAGE);
	return ok;
}

/*
 * One RAM frame of the fixture mapped write-back (offset 0,
 * remap_pfn_range) and write-combined (PTWALK_FIXTURE_WC_OFFSET,
 * vm_insert_page) in this process: a memtype_conflict, exit 1.
 */
static bool conflict_by_phys(struct vmtest *t, const struct wc_alias *a)
{
	struct pc_result r;
	bool ok = phys_json(t, &r, a->pfn * PAGE, (a->pfn + 1) * PAGE, 1);

	if (ok) {
		/* as TAP comments, for docs/json.md */
		for (char *l = strtok(r.out, "\n"); l; l = strtok(NULL, "\n"))
			printf("# %s\n", l);
		ok = expect_mapping(t, r.doc, getpid(), a->wb, a->pfn, MT_RAM) &&
		     expect_mapping(t, r.doc, getpid(), A(a->wc), a->pfn,
				    MT_WC) &&
		     expect_conflict(t, r.doc, a->pfn, getpid(), a->wb,
				     getpid(), A(a->wc));
		pc_free(&r);
	}
	return ok && phys_text_conflict(t, a->pfn, a->wb, A(a->wc));
}

VMTEST_CASE(phys, "phys_memtype_conflict", phys_memtype_conflict)
{
	return with_wc_alias(t, conflict_by_phys);
}

#ifdef __x86_64__
/*
 * The kernel's PAT reservation of [start, start + len): the type the
 * kernel's list (/sys/kernel/debug/x86/pat_memtype_list) names for a
 * range starting there, in its words ("uncached-minus"), into type.
 */
static bool pat_type(struct vmtest *t, uint64_t start, char *type, size_t size)
{
	FILE *f = fopen("/sys/kernel/debug/x86/pat_memtype_list", "re");
	char line[256];
	bool found = false;

	if (!f)
		return fail(t, "open pat_memtype_list: %s", strerror(errno));
	while (!found && fgets(line, sizeof(line), f)) {
		uint64_t s, e;
		char word[64];

		if (sscanf(line, "PAT: [mem 0x%" SCNx64 "-0x%" SCNx64 "] %63s",
			   &s, &e, word) == 3 && s == start) {
			snprintf(type, size, "%s", word);
			found = true;
		}
	}
	fclose(f);
	return found || fail(t, "no PAT reservation at 0x%" PRIx64, start);
}
#endif

/*
 * The display's BAR 0 mapped through resource0 here (uncached) and
 * through resource0_wc in a child (write-combined).  On x86 the kernel's
 * PAT tracking gives the second mapping the type the first reserved
 * (track_pfn_remap(): a WC request over a UC- reservation is granted as
 * UC-): both uc-, as the kernel's PAT list says, no conflict, exit 0.
 * arm64 has no such tracking: device-ngnre and normal-nc, a conflict,
 * exit 1.  VM_PFNMAP, so pagemap would show neither.
 */
VMTEST_CASE(phys, "phys_bar_two_ways", phys_bar_two_ways)
{
	long ps = sysconf(_SC_PAGESIZE);
	struct mapper child = { 0 };
	char dir[256];
	struct pc_result r;
	uint64_t bar, mine;
	bool ok;
#ifdef __x86_64__
	const char *child_mt = MT_UC;
	int want = 0;
	char pat[64];
#elif defined(__riscv)
	/* no resource0_wc (VM_BAR_WC): the child maps resource0 too */
	const char *child_mt = MT_UC;
	int want = 0;
#else
	const char *child_mt = MT_WC;
	int want = 1;
#endif

	if (!qemu_display_bar(t, dir, sizeof(dir), &bar) ||
	    !map_bar(t, "resource0", &mine))
		return false;
	ok = mapper_start(t, &child, child_maps_wc, NULL);
#ifdef __x86_64__
	if (ok && pat_type(t, bar, pat, sizeof(pat)) &&
	    strcmp(pat, "uncached-minus"))
		ok = fail(t, "PAT reserved the BAR as %s, not uncached-minus",
			  pat);
#endif
	ok = ok && phys_json(t, &r, bar, bar + (uint64_t)ps, want);
	if (ok) {
		struct json_object *conflicts = pc_get(r.doc, "conflicts");

		ok = expect_mapping(t, r.doc, getpid(), mine,
				    bar / (uint64_t)ps, MT_UC) &&
		     expect_mapping(t, r.doc, child.pid, child.addr,
				    bar / (uint64_t)ps, child_mt);
		if (ok && want)
			ok = expect_conflict(t, r.doc, bar / (uint64_t)ps,
					     getpid(), mine, child.pid,
					     child.addr);
		else if (ok && (!conflicts ||
				json_object_array_length(conflicts)))
			ok = fail(t, "a conflict where PAT made both %s",
				  MT_UC);
		pc_free(&r);
	}
	mapper_stop(&child);
	munmap((void *)(uintptr_t)mine, (size_t)ps);
	return ok;
}

/*
 * The same frames seen by a scan of this process: --range over the
 * write-combined alias alone makes its frame a suspect, the check finds
 * the write-back mapping outside the range too: verdict memtype_conflict,
 * exit 1.  Over the write-back pages alone nothing is suspect: exit 0
 * (--phys is the way to ask about any frame).
 */
static bool conflict_in_scan(struct vmtest *t, const struct wc_alias *a)
{
	struct pc_result r;
	bool ok = pc_json_from(t, &r, getpid(), A(a->wc), A(a->wc) + PAGE,
			       NULL, 1);

	if (ok) {
		struct json_object *v = pc_get(r.doc, "verdict");

		if (!v || strcmp(json_object_get_string(v), "memtype_conflict"))
			ok = fail(t, "verdict %s, want memtype_conflict",
				  v ? json_object_get_string(v) : "null");
		ok = ok && expect_conflict(t, r.doc, a->pfn, getpid(), a->wb,
					   getpid(), A(a->wc));
		pc_free(&r);
	}
	if (ok && pc_json_from(t, &r, getpid(), A(a->p),
			       A(a->p) + PTWALK_FIXTURE_PAGES * PAGE, NULL,
			       0)) {
		struct json_object *c = pc_get(r.doc, "conflicts");

		if (!c || json_object_array_length(c))
			ok = fail(t, "conflicts over write-back pages alone");
		pc_free(&r);
	} else {
		ok = false;
	}
	return ok;
}

VMTEST_CASE(phys, "phys_memtype_conflict_in_scan", memtype_conflict_in_scan)
{
	return with_wc_alias(t, conflict_in_scan);
}

/* The object of process pid in --all's "processes", or NULL. */
static struct json_object *process_doc(struct json_object *doc, pid_t pid)
{
	struct json_object *procs = pc_get(doc, "processes");

	for (size_t i = 0; procs && i < json_object_array_length(procs); i++) {
		struct json_object *p = json_object_array_get_idx(procs, i);

		if (json_object_get_int(pc_get(p, "pid")) == pid)
			return p;
	}
	return NULL;
}

/* In a scan's document, the walk frame of the page at addr. */
static uint64_t walk_pfn_at(struct json_object *proc, uint64_t addr)
{
	struct json_object *ranges = pc_get(proc, "ranges");
	long ps = sysconf(_SC_PAGESIZE);

	for (size_t i = 0; ranges && i < json_object_array_length(ranges); i++) {
		struct json_object *r = json_object_array_get_idx(ranges, i);
		uint64_t start = pc_hex_or_none(r, "start");
		uint64_t pages = (uint64_t)json_object_get_int64(pc_get(r, "pages"));
		uint64_t pfn = pc_hex_or_none(r, "walk_pfn");

		if (addr >= start && addr < start + pages * (uint64_t)ps)
			return pfn == NO_PFN ? NO_PFN :
			       pfn + (addr - start) / (uint64_t)ps;
	}
	return NO_PFN;
}

static bool child_maps_wc_alias(struct vmtest *t, uint64_t *addr,
				uint64_t *pfn, void *arg)
{
	long ps = sysconf(_SC_PAGESIZE);
	void *wc = mmap(NULL, (size_t)ps, PROT_READ | PROT_WRITE, MAP_SHARED,
			t->fixture_fd, PTWALK_FIXTURE_WC_OFFSET);

	(void)arg;
	if (wc == MAP_FAILED)
		return false;
	*addr = A(wc);
	*pfn = 0;
	return true;
}

/*
 * The pids of --all's "processes" into pids (at most max): their number,
 * or -1 when they are not in strictly ascending order.
 */
static int process_pids(struct json_object *doc, pid_t *pids, int max)
{
	struct json_object *procs = pc_get(doc, "processes");
	int n = 0;

	for (size_t i = 0; procs && i < json_object_array_length(procs); i++) {
		pid_t pid = json_object_get_int(
			pc_get(json_object_array_get_idx(procs, i), "pid"));

		if (n && pid <= pids[n - 1])
			return -1;
		if (n < max)
			pids[n++] = pid;
	}
	return n;
}

/*
 * One ptcompare --json --jobs JOBS --all, checked: exit 1, this process
 * and the child scanned, this process's page the oracle's frame, the
 * conflict of the fixture frame across them, the processes in ascending
 * pid order; their pids into pids (*n of them, at most max).
 */
static bool all_json(struct vmtest *t, const char *jobs,
		     const struct ptwalk_fixture_translate *o, uint64_t anon,
		     uint64_t pfn, uint64_t wb, const struct mapper *child,
		     pid_t *pids, int max, int *n)
{
	const char *argv[] = { "ptcompare", "--json", "--jobs", jobs, "--all",
			       NULL };
	struct json_object *me, *kid, *v;
	enum json_tokener_error jerr;
	struct pc_result r;
	bool ok = pc_run(t, &r, argv);

	if (ok && r.status != 1)
		ok = fail(t, "ptcompare --all --jobs %s: exit %d, want 1: %s",
			  jobs, r.status, r.err);
	if (ok) {
		r.doc = json_tokener_parse_verbose(r.out, &jerr);
		if (!r.doc)
			ok = fail(t, "ptcompare --all: not JSON (%s)",
				  json_tokener_error_desc(jerr));
	}
	me = ok ? process_doc(r.doc, getpid()) : NULL;
	kid = ok ? process_doc(r.doc, child->pid) : NULL;
	if (ok && (!me || !kid))
		ok = fail(t, "--all lacks %s", me ? "the child" : "this process");
	if (ok && walk_pfn_at(me, anon) != o->pfn)
		ok = fail(t, "--all: this process's page at 0x%" PRIx64
			  " maps 0x%" PRIx64 ", the oracle's 0x%" PRIx64,
			  anon, walk_pfn_at(me, anon), (uint64_t)o->pfn);
	v = ok ? pc_get(r.doc, "verdict") : NULL;
	if (ok && (!v || strcmp(json_object_get_string(v), "memtype_conflict")))
		ok = fail(t, "--all verdict %s, want memtype_conflict",
			  v ? json_object_get_string(v) : "null");
	if (ok && json_object_get_int64(pc_get(pc_get(r.doc, "summary"),
					       "processes")) < 2)
		ok = fail(t, "--all scanned fewer than 2 processes");
	ok = ok && expect_conflict(t, r.doc, pfn, getpid(), wb, child->pid,
				   child->addr);
	if (ok && (*n = process_pids(r.doc, pids, max)) < 0)
		ok = fail(t, "--all --jobs %s: processes not in pid order", jobs);
	if (r.out)
		pc_free(&r);
	return ok;
}

/*
 * ptcompare --all: this process and a child each scanned (a page the
 * oracle translates found in this process's ranges), every process of
 * the VM but ptcompare itself looked at, and the fixture frame this
 * process maps write-back and the child write-combined: a conflict
 * across processes, exit 1, verdict memtype_conflict.  With one worker
 * and with two (--jobs 2, the processes handed in in pid order): the
 * same processes.  Then the text form: a row per process and the same
 * finding.
 */
VMTEST_CASE(phys, "all_processes", all_processes)
{
	long ps = sysconf(_SC_PAGESIZE);
	const char *targv[] = { "ptcompare", "--all", NULL };
	struct ptwalk_fixture_translate o;
	struct ptwalk_fixture_pfns known;
	struct mapper child = { 0 };
	static pid_t one[4096], two[4096];
	int n1 = 0, n2 = 0;
	struct pc_result r;
	char row[64], *p, *anon;
	uint64_t pfn, wb;
	bool ok;

	anon = map_anon(t, (size_t)ps, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	p = anon ? vm_map_fixture(t, &known) : NULL;
	if (!p)
		return false;
	touch_write(anon, (size_t)ps);
	pfn = known.pfn[PTWALK_FIXTURE_CONTIG];
	wb = A(p) + PTWALK_FIXTURE_CONTIG * (uint64_t)ps;
	ok = oracle(t, A(anon), &o) && o.status == PTWALK_FIXTURE_MAPPED &&
	     mapper_start(t, &child, child_maps_wc_alias, NULL);
	ok = ok && all_json(t, "1", &o, A(anon), pfn, wb, &child, one, 4096,
			    &n1);
	ok = ok && all_json(t, "2", &o, A(anon), pfn, wb, &child, two, 4096,
			    &n2);
	if (ok && (n1 != n2 || memcmp(one, two, (size_t)n1 * sizeof(*one))))
		ok = fail(t, "--all scanned %d processes with one job, %d with two, or others",
			  n1, n2);
	if (ok && pc_run(t, &r, targv)) {
		snprintf(row, sizeof(row), "\n%7d %-16s ", (int)getpid(),
			 "vmtest");
		if (r.status != 1 || !strstr(r.out, row) ||
		    !strstr(r.out, "memtype_conflict: frame") ||
		    !strstr(r.out, "\nverdict: MISMATCH: "))
			ok = fail(t, "ptcompare --all (text): exit %d, row or finding missing",
				  r.status);
		/* as TAP comments, for docs/report.md */
		for (char *l = strtok(r.out, "\n"); l; l = strtok(NULL, "\n"))
			printf("# %s\n", l);
		pc_free(&r);
	} else {
		ok = false;
	}
	mapper_stop(&child);
	munmap(p, PTWALK_FIXTURE_PAGES * (size_t)ps);
	munmap(anon, (size_t)ps);
	return ok;
}
