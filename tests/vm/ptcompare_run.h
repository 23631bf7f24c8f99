/* SPDX-License-Identifier: GPL-2.0 */
/* Running /bin/ptcompare from the VM tests and reading its JSON. */
#ifndef PTWALK_PTCOMPARE_RUN_H
#define PTWALK_PTCOMPARE_RUN_H

#include <json-c/json.h>
#include "vmtest.h"

#define NO_PFN UINT64_MAX	/* JSON null */

struct pc_result {
	int status;		/* exit status, 128+signal if killed */
	char *out;		/* whole stdout, NUL-terminated */
	size_t len;
	char err[512];		/* first line of stderr */
	uint64_t peak_rss_kib;	/* ptcompare --stats: its own VmHWM */
	struct json_object *doc;	/* parsed stdout (pc_json) */
};

struct pc_range {
	uint64_t start, pages, walk_pfn, pagemap_pfn;
	char cls[32];
	char level[8];		/* "pte", "pmd", "pud" or "null" */
	uint64_t leaf_size;	/* bytes; 0 for null */
	uint64_t folio_size;	/* bytes; 0 for null */
	int cont;		/* 1 true, 0 false, -1 null */
};

/*
 * Starts /bin/ptcompare with argv (argv[0] included, NULL-terminated) in
 * the background, its stdout a pipe whose read end is *out, its stderr
 * into err_path (NULL: this process's): its pid, or -1 (t failed).
 */
pid_t pc_spawn(struct vmtest *t, const char *const argv[],
	       const char *err_path, int *out);

/* Runs ptcompare with argv (argv[0] included, NULL-terminated). */
bool pc_run(struct vmtest *t, struct pc_result *r, const char *const argv[]);
void pc_free(struct pc_result *r);

/*
 * ptcompare --json --stats --range START-END PID: exit 0, a stats line
 * naming the interface t->interface, valid JSON with the documented keys,
 * ranges covering [start, end) once in address order, summary counts
 * equal to the ranges' pages.
 */
bool pc_json(struct vmtest *t, struct pc_result *r, pid_t pid, uint64_t start,
	     uint64_t end);

/*
 * Same, asking the ptwalk under debugfs (--debugfs; NULL: ptcompare's own
 * choice), expecting exit want_status.
 */
bool pc_json_from(struct vmtest *t, struct pc_result *r, pid_t pid,
		  uint64_t start, uint64_t end, const char *debugfs,
		  int want_status);

/* o's member key, NULL if absent or JSON null. */
struct json_object *pc_get(struct json_object *o, const char *key);

/*
 * o's member key, a "0x..." hex string as ptcompare writes addresses and
 * frames, into *out (NO_PFN for JSON null); false when the member is
 * absent or not such a string.
 */
bool pc_hex(struct json_object *o, const char *key, uint64_t *out);

/* The same as a value: NO_PFN also when absent or not a hex string. */
uint64_t pc_hex_or_none(struct json_object *o, const char *key);

/* The range covering addr. */
bool pc_find(struct vmtest *t, const struct pc_result *r, uint64_t addr,
	     struct pc_range *out);

/*
 * The page at addr has class cls, level (NULL: any) and a walk PFN equal
 * to the oracle's; match pages have pagemap_pfn == walk_pfn, holes none.
 */
bool pc_check_page(struct vmtest *t, const struct pc_result *r, uint64_t addr,
		   const struct ptwalk_fixture_translate *o, const char *cls,
		   const char *level);

/* The VMA holding addr lists huge kind huge ("thp", "hugetlb-2M", ...). */
bool pc_vma_has_huge(struct vmtest *t, const struct pc_result *r,
		     uint64_t addr, const char *huge);

#endif /* PTWALK_PTCOMPARE_RUN_H */
