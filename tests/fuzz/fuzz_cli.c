// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare's command line (cli_parse, cli_parse_range).  The input is
 * argv[1..], NUL-separated.  Oracles: strict second readers of a hex
 * number ("0x" optional, digits only, 64 bits), a PID (decimal, 1 to
 * INT_MAX) and a range (START-END, page aligned, START < END) accept
 * exactly what the parser accepts, with the same values; what cli_parse
 * accepts holds together (no vtop with --range, --stats or --kpageflags)
 * and its values come from arguments the readers accept; options printed
 * back in canonical form parse to the same options; a rejection is one
 * non-empty line, cut safely to any buffer size.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include "fuzz.h"
#include "parse/cli.h"
#include "io/ptwalk_client.h"

#define MAX_ARGS 24

/* "0x" optional, hex digits, at most 16 of them after the leading zeros. */
static bool ref_hex(const char *s, size_t len, uint64_t *out)
{
	size_t i = len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ?
		   2 : 0;
	char digits[17];

	if (i == len)
		return false;
	for (size_t k = i; k < len; k++)
		if (!isxdigit((unsigned char)s[k]))
			return false;
	while (i < len && s[i] == '0')
		i++;
	if (len - i > 16)
		return false;
	memcpy(digits, s + i, len - i);
	digits[len - i] = '\0';
	*out = strtoull(digits, NULL, 16);
	return true;
}

static bool ref_pid(const char *s, pid_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > INT_MAX)
			return false;
	}
	*out = (pid_t)v;
	return v > 0;
}

static bool ref_range(const char *s, uint64_t *start, uint64_t *end)
{
	const char *dash = strchr(s, '-');

	return dash && ref_hex(s, (size_t)(dash - s), start) &&
	       ref_hex(dash + 1, strlen(dash + 1), end) && *start < *end;
}

static void check_message(const char *err, size_t size)
{
	FUZZ_CHECK(memchr(err, '\0', size), "message not terminated");
	FUZZ_CHECK(size < 2 || (*err && !strchr(err, '\n')),
		   "message empty or on two lines: '%s'", err);
}

static void check_range_arg(const char *s)
{
	uint64_t start = 0, end = 0, rs, re;
	char err[256];
	bool ok = cli_parse_range(s, &start, &end, err, sizeof(err));

	FUZZ_CHECK(ok == ref_range(s, &rs, &re), "range '%s': parser %s", s,
		   ok ? "accepts" : "rejects");
	if (ok)
		FUZZ_CHECK(start == rs && end == re, "range '%s' read as 0x%"
			   PRIx64 "-0x%" PRIx64, s, start, end);
	else
		check_message(err, sizeof(err));
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same(const struct cli_options *a, const struct cli_options *b)
{
	return a->pid == b->pid && a->mode == b->mode &&
	       (a->mode != MODE_PHYS || (a->phys_start == b->phys_start &&
			     a->phys_end == b->phys_end)) &&
	       same_str(a->iommu, b->iommu) &&
	       a->iommu_translate == b->iommu_translate &&
	       (!a->iommu || a->iova == b->iova) &&
	       a->watch_s == b->watch_s && a->interval_ms == b->interval_ms &&
	       a->jobs == b->jobs &&
	       (a->mode != MODE_VTOP || a->vtop_addr == b->vtop_addr) &&
	       a->has_range == b->has_range &&
	       (!a->has_range || (a->start == b->start && a->end == b->end)) &&
	       !strcmp(a->debugfs, b->debugfs) && a->json == b->json &&
	       a->stats == b->stats && a->no_progress == b->no_progress &&
	       a->kpageflags == b->kpageflags && a->dma_api == b->dma_api &&
	       a->since_s == b->since_s &&
	       same_str(a->fault_line, b->fault_line) && a->mode != MODE_HELP &&
	       a->mode != MODE_VERSION;
}

/* "--opt N" onto argv when n is not 0, N written into buf (16 bytes). */
static void add_count(char **argv, int *argc, const char *opt,
		      unsigned int n, char buf[16])
{
	if (!n)
		return;
	snprintf(buf, 16, "%u", n);
	argv[(*argc)++] = (char *)opt;
	argv[(*argc)++] = buf;
}

/* The options in canonical form, parsed again. */
static void check_reprint(const struct cli_options *o)
{
	char range[64], pid[16], addr[32], err[256], phys[64], iova[32];
	char watch[16], interval[16], jobs[16], since[16];
	char *argv[32];
	struct cli_options again;
	int argc = 0;

	argv[argc++] = "ptcompare";
	if (o->json)
		argv[argc++] = "--json";
	if (o->stats)
		argv[argc++] = "--stats";
	if (o->no_progress)
		argv[argc++] = "--no-progress";
	if (o->kpageflags)
		argv[argc++] = "--kpageflags";
	argv[argc++] = "--debugfs";
	argv[argc++] = (char *)o->debugfs;
	if (o->has_range) {
		snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64,
			 o->start, o->end);
		argv[argc++] = "--range";
		argv[argc++] = range;
	}
	if (o->mode == MODE_ALL)
		argv[argc++] = "--all";
	if (o->mode == MODE_FAULTS)
		argv[argc++] = "--faults";
	add_count(argv, &argc, "--since", o->since_s, since);
	if (o->fault_line) {
		argv[argc++] = "--fault-line";
		argv[argc++] = (char *)o->fault_line;
	}
	if (o->dma_api)
		argv[argc++] = "--dma-api";
	if (o->mode == MODE_PHYS) {
		snprintf(phys, sizeof(phys), "0x%" PRIx64 "-0x%" PRIx64,
			 o->phys_start, o->phys_end);
		argv[argc++] = "--phys";
		argv[argc++] = phys;
	}
	add_count(argv, &argc, "--jobs", o->jobs, jobs);
	add_count(argv, &argc, "--watch", o->watch_s, watch);
	add_count(argv, &argc, "--interval", o->interval_ms, interval);
	snprintf(iova, sizeof(iova), "0x%" PRIx64, o->iova);
	if (o->iommu) {
		argv[argc++] = "--iommu";
		argv[argc++] = (char *)o->iommu;
	}
	if (o->mode == MODE_IOMMU && !o->iommu_translate) {
		argv[argc++] = "--iova";
		argv[argc++] = iova;
	}
	snprintf(pid, sizeof(pid), "%d", (int)o->pid);
	if (o->pid)
		argv[argc++] = pid;
	if (o->iommu_translate)
		argv[argc++] = iova;
	if (o->mode == MODE_VTOP) {
		snprintf(addr, sizeof(addr), "%" PRIx64, o->vtop_addr);
		argv[argc++] = addr;
	}
	argv[argc] = NULL;
	FUZZ_CHECK(cli_parse(argc, argv, &again, err, sizeof(err)),
		   "canonical form rejected: %s", err);
	FUZZ_CHECK(same(o, &again), "canonical form parses differently");
}

static void check_accepted(int argc, char **argv, const struct cli_options *o)
{
	/* --all, --phys, --faults, --iommu DEVICE IOVA and its --watch name
	 * no process */
	bool no_pid = o->mode == MODE_ALL || o->mode == MODE_PHYS ||
		      o->mode == MODE_FAULTS || o->iommu_translate ||
		      o->mode == MODE_IOMMU_WATCH;
	bool iommu = o->mode == MODE_IOMMU || o->mode == MODE_IOMMU_WATCH;
	bool watch = o->mode == MODE_WATCH || o->mode == MODE_IOMMU_WATCH;
	bool pid_from = no_pid, addr_from = o->mode != MODE_VTOP, range_from = !o->has_range;
	bool debugfs_from = !strcmp(o->debugfs, PTWALK_DEFAULT_DEBUGFS);

	if (o->mode == MODE_HELP || o->mode == MODE_VERSION)
		return;
	FUZZ_CHECK(no_pid ? o->pid == 0 : o->pid > 0, "pid %d", (int)o->pid);
	/* one mode, and no other mode's value beside it */
	FUZZ_CHECK(o->mode < NR_MODES, "mode %d", (int)o->mode);
	FUZZ_CHECK(iommu == !!o->iommu && watch == !!o->watch_s &&
		   (o->mode == MODE_PHYS) == (o->phys_end != 0) &&
		   (o->mode == MODE_VTOP || o->vtop_addr == 0),
		   "two modes at once: mode %d iommu %d watch %d phys_end %d",
		   (int)o->mode, !!o->iommu, !!o->watch_s, o->phys_end != 0);
	FUZZ_CHECK(o->mode != MODE_PHYS || o->phys_start < o->phys_end,
		   "phys 0x%" PRIx64 "-0x%" PRIx64, o->phys_start, o->phys_end);
	FUZZ_CHECK(!o->watch_s || o->has_range || o->mode == MODE_IOMMU_WATCH,
		   "--watch without --range");
	FUZZ_CHECK(!o->interval_ms || o->watch_s, "--interval without --watch");
	FUZZ_CHECK(!o->has_range || o->start < o->end,
		   "range 0x%" PRIx64 "-0x%" PRIx64, o->start, o->end);
	FUZZ_CHECK(o->mode != MODE_VTOP || (!o->has_range && !o->stats && !o->kpageflags),
		   "vtop with a scan option");
	for (int i = 1; i < argc; i++) {
		/* an option's value may follow its '=' (--range=A-B) */
		const char *eq = !strncmp(argv[i], "--", 2) ?
				 strchr(argv[i], '=') : NULL;
		const char *val = eq ? eq + 1 : argv[i];
		uint64_t v, s, e;
		pid_t p;

		pid_from |= ref_pid(argv[i], &p) && p == o->pid;
		addr_from |= ref_hex(val, strlen(val), &v) &&
			     v == o->vtop_addr;
		range_from |= ref_range(val, &s, &e) && s == o->start &&
			      e == o->end;
		debugfs_from |= argv[i] == o->debugfs || val == o->debugfs;
	}
	FUZZ_CHECK(pid_from && addr_from && range_from && debugfs_from,
		   "a value no argument holds: pid %d addr %d range %d debugfs %d",
		   pid_from, addr_from, range_from, debugfs_from);
	check_reprint(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2], err[256], tiny[8];
	struct cli_options o, o2;
	int argc = 0;
	bool ok;

	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "ptcompare";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; ) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	for (int i = 1; i < argc; i++)
		check_range_arg(argv[i]);
	ok = cli_parse(argc, argv, &o, err, sizeof(err));
	FUZZ_CHECK(ok == cli_parse(argc, argv, &o2, tiny, sizeof(tiny)),
		   "the answer depends on the message buffer");
	if (ok)
		check_accepted(argc, argv, &o);
	else {
		check_message(err, sizeof(err));
		check_message(tiny, sizeof(tiny));
	}
	free(buf);
	return 0;
}
