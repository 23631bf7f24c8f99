// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the real ptcompare binary and checks its JSON, page by page, against
 * the fixture's oracle.  The JSON is parsed by json-c, so the document's
 * validity is checked by a parser that is not ours.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptcompare_run.h"

#define ERR_FILE "/tmp/ptcompare.stderr"
/* A sanitized ptcompare's reports, SAN_LOG.PID (guest-suite.sh's log_path). */
#define SAN_LOG "/tmp/ptcompare-sanitizer"

extern char **environ;

/*
 * The sanitized build (make check-debug) writes each report to a file of
 * its own: one from this run fails the case, with the report's first
 * line; the file stays for the guest suite's final check to print.
 */
static bool sanitizer_clean(struct vmtest *t, pid_t pid)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), SAN_LOG ".%d", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	/* past the separator line of '=' */
	while (fgets(line, sizeof(line), f) &&
	       strspn(line, "=") == strcspn(line, "\n"))
		;
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return fail(t, "ptcompare's sanitizer report (%s): %s", path, line);
}

pid_t pc_spawn(struct vmtest *t, const char *const argv[],
	       const char *err_path, int *out)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], err;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return fail(t, "pipe: %s", strerror(errno)), -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	if (err_path)
		posix_spawn_file_actions_addopen(&fa, 2, err_path,
						 O_WRONLY | O_CREAT | O_TRUNC,
						 0600);
	/* posix_spawn uses CLONE_VM|CLONE_VFORK: our page tables stay as they are */
	err = posix_spawn(&pid, "/bin/ptcompare", &fa, NULL,
			  (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (err) {
		close(pipefd[0]);
		return fail(t, "spawn ptcompare: %s", strerror(err)), -1;
	}
	*out = pipefd[0];
	return pid;
}

bool pc_run(struct vmtest *t, struct pc_result *r, const char *const argv[])
{
	size_t cap = 1 << 16;
	int out, status;
	pid_t pid;
	FILE *ef;

	memset(r, 0, sizeof(*r));
	r->out = malloc(cap);
	if (!r->out)
		return fail(t, "pc_run setup: %s", strerror(errno));
	pid = pc_spawn(t, argv, ERR_FILE, &out);
	if (pid < 0)
		return false;
	for (;;) {
		ssize_t n;

		if (r->len + 1 >= cap) {
			char *bigger = realloc(r->out, cap * 2);

			if (!bigger)
				break;
			r->out = bigger;
			cap *= 2;
		}
		n = read(out, r->out + r->len, cap - r->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		r->len += (size_t)n;
	}
	r->out[r->len] = '\0';
	close(out);
	if (waitpid(pid, &status, 0) != pid)
		return fail(t, "waitpid ptcompare: %s", strerror(errno));
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) :
					128 + WTERMSIG(status);
	if (!sanitizer_clean(t, pid))
		return false;
	ef = fopen(ERR_FILE, "r");
	if (ef) {
		if (!fgets(r->err, sizeof(r->err), ef))
			r->err[0] = '\0';
		r->err[strcspn(r->err, "\n")] = '\0';
		fclose(ef);
	}
	return true;
}

void pc_free(struct pc_result *r)
{
	if (r->doc)
		json_object_put(r->doc);
	free(r->out);
	memset(r, 0, sizeof(*r));
}

struct json_object *pc_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

bool pc_hex(struct json_object *o, const char *key, uint64_t *out)
{
	struct json_object *v = NULL;
	const char *s;
	char *end;

	if (!json_object_object_get_ex(o, key, &v))
		return false;
	if (!v) {		/* JSON null */
		*out = NO_PFN;
		return true;
	}
	if (!json_object_is_type(v, json_type_string))
		return false;
	s = json_object_get_string(v);
	if (strncmp(s, "0x", 2) || !isxdigit((unsigned char)s[2]))
		return false;
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	return !errno && !*end;
}

uint64_t pc_hex_or_none(struct json_object *o, const char *key)
{
	uint64_t v;

	return pc_hex(o, key, &v) ? v : NO_PFN;
}

/* A key whose value is a positive integer or null (0); false otherwise. */
static bool size_or_null(struct json_object *o, const char *key, uint64_t *out)
{
	struct json_object *v;

	*out = 0;
	if (!json_object_object_get_ex(o, key, &v))
		return false;
	if (!v)
		return true;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) <= 0)
		return false;
	*out = (uint64_t)json_object_get_int64(v);
	return true;
}

/*
 * What one entry of a level maps, from the page size alone: every table
 * is one page of 8-byte entries, so each level up maps PAGE / 8 times
 * more (x86-64 and arm64 alike: 4K, 2M, 1G; 16K, 32M; 64K, 512M).
 */
static uint64_t level_bytes(const char *level)
{
	unsigned int up = !strcmp(level, "pmd") ? 1 : !strcmp(level, "pud") ? 2 : 0;

	return PAGE << (up * (PAGE_SHIFT_K - 3));
}

/*
 * arm64's contiguous groups (the Arm ARM's contiguous bit: 16 PTEs with
 * 4K pages, 128 with 16K, 32 with 64K; 16, 32, 32 PMDs): bytes of the
 * group at a level.  No such groups elsewhere.
 */
static uint64_t cont_bytes(const char *level)
{
	bool pmd = !strcmp(level, "pmd");

	switch (PAGE_SHIFT_K) {
	case 12:
		return level_bytes(level) * 16;
	case 14:
		return level_bytes(level) * (pmd ? 32 : 128);
	default:
		return level_bytes(level) * 32;
	}
}

/*
 * Whether /proc/kpageflags, a witness of neither ptwalk nor pagemap, calls
 * frame pfn the zero page (KPF_ZERO_PAGE, bit 24).
 */
static bool kpf_zero_page(uint64_t pfn)
{
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	uint64_t f = 0;
	bool zero;

	if (fd < 0)
		return false;
	zero = pread(fd, &f, sizeof(f), (off_t)(pfn * sizeof(f))) ==
	       sizeof(f) && (f & (1ULL << 24));
	close(fd);
	return zero;
}

/*
 * The sizes ptcompare gives a mapped page: leaf_size from its level (or
 * group), folio_size from the fixture's folio order (GUP's page), cont
 * null where the architecture has no contiguous bit.  The zero page's
 * entry is special, so no folio is read for it (vm_normal_page()'s rule):
 * folio_size null, where GUP hands out the page anyway.
 */
static bool check_sizes(struct vmtest *t, const struct pc_range *pr,
			uint64_t addr, const struct ptwalk_fixture_translate *o)
{
	uint64_t leaf = pr->cont == 1 ? cont_bytes(pr->level) :
					level_bytes(pr->level);

#ifdef __x86_64__
	if (pr->cont != -1)
		return fail(t, "ptcompare 0x%" PRIx64 ": cont %d on x86-64, which has no contiguous bit",
			    addr, pr->cont);
#else
	if (pr->cont == -1)
		return fail(t, "ptcompare 0x%" PRIx64 ": cont null on arm64 or riscv64", addr);
#endif
	if (pr->leaf_size != leaf)
		return fail(t, "ptcompare 0x%" PRIx64 ": leaf_size %" PRIu64
			    " at level %s (cont %d), expected %" PRIu64, addr,
			    pr->leaf_size, pr->level, pr->cont, leaf);
	if (o->via != PTWALK_FIXTURE_VIA_GUP)
		return true;
	if (!pr->folio_size && kpf_zero_page(o->pfn))
		return true;
	if (pr->folio_size != PAGE << o->folio_order)
		return fail(t, "ptcompare 0x%" PRIx64 ": folio_size %" PRIu64
			    ", the fixture's folio of order %u is %" PRIu64,
			    addr, pr->folio_size, o->folio_order,
			    PAGE << o->folio_order);
	return true;
}

/* Checks the schema of a range and decodes it. */
static bool decode_range(struct vmtest *t, struct json_object *o,
			 struct pc_range *r)
{
	struct json_object *level, *cont, *pages = pc_get(o, "pages");
	struct json_object *cls = pc_get(o, "class");

	if (!json_object_is_type(o, json_type_object) ||
	    !pc_hex(o, "start", &r->start) || r->start == NO_PFN ||
	    !json_object_is_type(pages, json_type_int) ||
	    !json_object_is_type(cls, json_type_string) ||
	    !json_object_object_get_ex(o, "level", &level) ||
	    !json_object_object_get_ex(o, "walk_pfn", NULL) ||
	    !json_object_object_get_ex(o, "pagemap_pfn", NULL) ||
	    !pc_hex(o, "walk_pfn", &r->walk_pfn) ||
	    !pc_hex(o, "pagemap_pfn", &r->pagemap_pfn))
		return fail(t, "range with a bad schema: %s",
			    json_object_to_json_string(o));
	if (!size_or_null(o, "leaf_size", &r->leaf_size) ||
	    !size_or_null(o, "folio_size", &r->folio_size) ||
	    !json_object_object_get_ex(o, "cont", &cont) ||
	    (cont && !json_object_is_type(cont, json_type_boolean)))
		return fail(t, "range without leaf_size, folio_size or cont: %s",
			    json_object_to_json_string(o));
	r->cont = cont ? json_object_get_boolean(cont) : -1;
	r->pages = (uint64_t)json_object_get_int64(pages);
	snprintf(r->cls, sizeof(r->cls), "%s", json_object_get_string(cls));
	if (!level)
		snprintf(r->level, sizeof(r->level), "null");
	else
		snprintf(r->level, sizeof(r->level), "%s",
			 json_object_get_string(level));
	return r->pages > 0 || fail(t, "empty range at 0x%" PRIx64, r->start);
}

static const char *const classes[] = {
	"match", "not_present", "pfnmap_hidden", "pfn_zeroed", "swapped",
	"guard", "transient", "mismatch",
};

bool pc_json(struct vmtest *t, struct pc_result *r, pid_t pid, uint64_t start,
	     uint64_t end)
{
	return pc_json_from(t, r, pid, start, end, NULL, 0);
}

bool pc_json_from(struct vmtest *t, struct pc_result *r, pid_t pid,
		  uint64_t start, uint64_t end, const char *debugfs,
		  int want_status)
{
	char range[64], pidstr[16], via[32];
	const char *argv[] = { "ptcompare", "--json", "--stats", "--kpageflags",
			       "--range", range, pidstr, NULL, NULL, NULL };
	const char *want_via = debugfs ? "debugfs" : t->interface;
	enum json_tokener_error jerr;
	struct json_object *summary, *ranges;
	uint64_t total = 0, sum = 0, next = start;
	const char *stats;
	size_t i;

	if (debugfs) {
		argv[7] = "--debugfs";
		argv[8] = debugfs;
	}

	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, start, end);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	if (!pc_run(t, r, argv))
		return false;
	if (r->status != want_status)
		return fail(t, "ptcompare --json exited %d, expected %d: %s",
			    r->status, want_status, r->err);
	r->doc = json_tokener_parse_verbose(r->out, &jerr);
	if (!r->doc)
		return fail(t, "ptcompare printed invalid JSON: %s",
			    json_tokener_error_desc(jerr));
	stats = strstr(r->err, " peak_rss_kib=");
	if (strncmp(r->err, "ptcompare: stats: pages=", 24) || !stats ||
	    sscanf(stats, " peak_rss_kib=%" SCNu64, &r->peak_rss_kib) != 1)
		return fail(t, "no --stats line on stderr: %s", r->err);
	stats = strstr(r->err, " interface=");
	if (!stats || sscanf(stats, " interface=%31s", via) != 1 ||
	    strcmp(via, want_via))
		return fail(t, "ptcompare used interface %s, expected %s",
			    stats ? via : "(none said)", want_via);
	summary = pc_get(r->doc, "summary");
	ranges = pc_get(r->doc, "ranges");
	if (!json_object_is_type(pc_get(r->doc, "pid"), json_type_int) ||
	    json_object_get_int(pc_get(r->doc, "pid")) != pid ||
	    !json_object_is_type(summary, json_type_object) ||
	    !json_object_is_type(pc_get(r->doc, "vmas"), json_type_array) ||
	    !json_object_is_type(ranges, json_type_array))
		return fail(t, "JSON without pid/summary/vmas/ranges");
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		struct json_object *n = pc_get(summary, classes[i]);

		if (!json_object_is_type(n, json_type_int))
			return fail(t, "summary lacks %s", classes[i]);
		sum += (uint64_t)json_object_get_int64(n);
	}
	/* The ranges cover the examined pages once, in address order. */
	for (i = 0; i < json_object_array_length(ranges); i++) {
		struct pc_range pr;

		if (!decode_range(t, json_object_array_get_idx(ranges, i), &pr))
			return false;
		if (pr.start != next)
			return fail(t, "range %zu starts at 0x%" PRIx64
				    ", expected 0x%" PRIx64, i, pr.start, next);
		next = pr.start + pr.pages * PAGE;
		total += pr.pages;
	}
	if (next != end)
		return fail(t, "ranges end at 0x%" PRIx64 ", not 0x%" PRIx64,
			    next, end);
	if (sum != total)
		return fail(t, "summary counts %" PRIu64 " pages, ranges %" PRIu64,
			    sum, total);
	return true;
}

bool pc_find(struct vmtest *t, const struct pc_result *r, uint64_t addr,
	     struct pc_range *out)
{
	struct json_object *ranges = pc_get(r->doc, "ranges");
	size_t i;

	for (i = 0; i < json_object_array_length(ranges); i++) {
		if (!decode_range(t, json_object_array_get_idx(ranges, i), out))
			return false;
		if (addr >= out->start && addr < out->start + out->pages * PAGE)
			return true;
	}
	return fail(t, "no ptcompare range covers 0x%" PRIx64, addr);
}

static uint64_t pfn_at(uint64_t first, const struct pc_range *r, uint64_t addr)
{
	return first == NO_PFN ? NO_PFN : first + (addr - r->start) / PAGE;
}

bool pc_check_page(struct vmtest *t, const struct pc_result *r, uint64_t addr,
		   const struct ptwalk_fixture_translate *o, const char *cls,
		   const char *level)
{
	struct pc_range pr;
	uint64_t walk, pm;

	if (!pc_find(t, r, addr, &pr))
		return false;
	walk = pfn_at(pr.walk_pfn, &pr, addr);
	pm = pfn_at(pr.pagemap_pfn, &pr, addr);
	if (strcmp(pr.cls, cls))
		return fail(t, "ptcompare 0x%" PRIx64 ": class %s, expected %s",
			    addr, pr.cls, cls);
	if (level && strcmp(pr.level, level))
		return fail(t, "ptcompare 0x%" PRIx64 ": level %s, expected %s",
			    addr, pr.level, level);
	if (o->status == PTWALK_FIXTURE_MAPPED ? walk != o->pfn : walk != NO_PFN)
		return fail(t, "ptcompare 0x%" PRIx64 ": walk_pfn 0x%" PRIx64
			    ", oracle %s 0x%" PRIx64, addr, walk,
			    o->status ? "mapped" : "not mapped",
			    (uint64_t)o->pfn);
	if (o->status == PTWALK_FIXTURE_MAPPED && strcmp(pr.level, "null") &&
	    !check_sizes(t, &pr, addr, o))
		return false;
	if (!strcmp(cls, "match") && pm != walk)
		return fail(t, "ptcompare 0x%" PRIx64 ": match with pagemap_pfn 0x%"
			    PRIx64 " != walk_pfn 0x%" PRIx64, addr, pm, walk);
	if ((!strcmp(cls, "pfnmap_hidden") || !strcmp(cls, "not_present")) &&
	    pm != NO_PFN)
		return fail(t, "ptcompare 0x%" PRIx64 ": %s with a pagemap pfn",
			    addr, cls);
	return true;
}

bool pc_vma_has_huge(struct vmtest *t, const struct pc_result *r,
		     uint64_t addr, const char *huge)
{
	struct json_object *vmas = pc_get(r->doc, "vmas");
	size_t i, j;

	for (i = 0; i < json_object_array_length(vmas); i++) {
		struct json_object *v = json_object_array_get_idx(vmas, i);
		struct json_object *kinds = pc_get(v, "huge");
		uint64_t s, e;

		if (!pc_hex(v, "start", &s) || !pc_hex(v, "end", &e))
			return fail(t, "VMA with a bad schema: %s",
				    json_object_to_json_string(v));
		if (addr < s || addr >= e)
			continue;
		for (j = 0; j < json_object_array_length(kinds); j++)
			if (!strcmp(json_object_get_string(
				    json_object_array_get_idx(kinds, j)), huge))
				return true;
		return fail(t, "VMA at 0x%" PRIx64 " huge %s, expected %s",
			    s, json_object_to_json_string(kinds), huge);
	}
	return fail(t, "no VMA covers 0x%" PRIx64 " in ptcompare's output", addr);
}
