// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "model/defaults.h"
#include "parse/cli.h"

static bool parse(struct cli_options *o, char *err, int argc, ...)
{
	char *argv[16];
	va_list ap;
	int i;

	va_start(ap, argc);
	argv[0] = "ptcompare";
	for (i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	return cli_parse(argc, argv, o, err, 256);
}

static void pid_only(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 2, "1234"));
	assert_int_equal(o.pid, 1234);
	assert_false(o.has_range);
	assert_false(o.json);
	assert_false(o.stats);
	assert_false(o.no_progress);
	assert_false(o.kpageflags);	/* the third witness is opt-in */
	assert_string_equal(o.debugfs, "/sys/kernel/debug");
	assert_false(o.debugfs_given);
	assert_string_equal(o.device, "/dev/ptwalk");
	assert_false(o.device_given);
}

static void device_option(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 4, "--device", "/dev/pw", "7"));
	assert_string_equal(o.device, "/dev/pw");
	assert_true(o.device_given);
	assert_false(o.debugfs_given);
	assert_true(parse(&o, err, 5, "7", "0x1000", "--device", "/dev/pw"));
	assert_int_equal(o.mode, MODE_VTOP);
	assert_true(o.device_given);
	assert_false(parse(&o, err, 3, "7", "--device"));
	assert_non_null(strstr(err, "--device needs a value"));
}

static void json_and_stats(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 4, "--json", "55", "--stats"));
	assert_true(o.json);
	assert_true(o.stats);
	assert_int_equal(o.pid, 55);
	assert_false(parse(&o, err, 2, "--json"));
	assert_non_null(strstr(err, "missing PID"));
	assert_false(parse(&o, err, 3, "--json=1", "5"));
	assert_non_null(strstr(err, "--json takes no value"));
}

static void no_progress(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 3, "--no-progress", "7"));
	assert_true(o.no_progress);
	assert_false(parse(&o, err, 3, "--no-progress=1", "7"));
	assert_non_null(strstr(err, "--no-progress takes no value"));
}

static void kpageflags_opt_in(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 3, "--kpageflags", "7"));
	assert_true(o.kpageflags);
	assert_false(parse(&o, err, 4, "--kpageflags", "7", "0x1000"));
	assert_non_null(strstr(err, "drop --kpageflags"));
}

/* --jobs N: 1 to PTCOMPARE_JOBS_MAX; not given: 0 (the CPUs decide). */
static void jobs_option(void **state)
{
	struct cli_options o;
	char err[256], max[16], over[16];

	(void)state;
	snprintf(max, sizeof(max), "%d", PTCOMPARE_JOBS_MAX);
	snprintf(over, sizeof(over), "%d", PTCOMPARE_JOBS_MAX + 1);
	assert_true(parse(&o, err, 2, "7"));
	assert_int_equal(o.jobs, 0);
	assert_true(parse(&o, err, 4, "--jobs", "1", "7"));
	assert_int_equal(o.jobs, 1);
	assert_true(parse(&o, err, 4, "--jobs", max, "7"));
	assert_int_equal(o.jobs, PTCOMPARE_JOBS_MAX);
	assert_false(parse(&o, err, 4, "--jobs", over, "7"));
	assert_non_null(strstr(err, "bad --jobs"));
	assert_null(strchr(err, '\n'));
	assert_false(parse(&o, err, 4, "--jobs", "0", "7"));
	assert_non_null(strstr(err, "from 1 to"));
	assert_false(parse(&o, err, 4, "--jobs", "2x", "7"));
	assert_false(parse(&o, err, 4, "--jobs", "-1", "7"));
	assert_false(parse(&o, err, 4, "--jobs", "99999999999999999999", "7"));
	assert_false(parse(&o, err, 3, "7", "--jobs"));
	assert_non_null(strstr(err, "--jobs needs a value"));
	assert_false(parse(&o, err, 5, "--jobs", "2", "7", "0x1000"));
	assert_non_null(strstr(err, "drop --jobs"));
}

static void range_and_debugfs(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 6, "--range", "0x400000-600000", "--debugfs",
			  "/mnt/dbg", "7"));
	assert_true(o.has_range);
	assert_int_equal(o.start, 0x400000);
	assert_int_equal(o.end, 0x600000);
	assert_string_equal(o.debugfs, "/mnt/dbg");
	assert_true(o.debugfs_given);
	assert_false(o.device_given);
	assert_int_equal(o.pid, 7);
}

static void bad_arguments(void **state)
{
	static const struct {
		int argc;
		const char *a1, *a2, *a3;
		const char *needle;
	} cases[] = {
		{ 1, NULL, NULL, NULL, "missing PID" },
		{ 2, "0", NULL, NULL, "bad PID" },
		{ 2, "-3", NULL, NULL, "unknown option" },
		{ 2, "12x", NULL, NULL, "bad PID" },
		{ 2, "99999999999", NULL, NULL, "bad PID" },
		{ 4, "1", "2", "3", "unexpected argument '3'" },
		{ 2, "--frobnicate", NULL, NULL, "unknown option" },
		{ 2, "--range", NULL, NULL, "needs a value" },
		{ 3, "--range", "400000", NULL, "START-END" },
		{ 3, "--range", "0x2000-0x1000", NULL, "below END" },
		{ 3, "--range", "0x1000-0x1000", NULL, "below END" },
		{ 3, "--range", "zz-0x1000", NULL, "hex numbers" },
		{ 3, "--range", "0x1000-", NULL, "hex numbers" },
		{ 3, "--range", "0x1000--0x2000", NULL, "hex numbers" },
		{ 3, "--range", "0x1000-0x100000000000000000", NULL, "hex numbers" },
		/* what strtoull takes beyond digits (fuzz_cli) */
		{ 3, "--range", "0x0x1000-0x2000", NULL, "hex numbers" },
		{ 3, "--range", " 0x1000-0x2000", NULL, "hex numbers" },
		{ 3, "--range", "0x1000-0x 2000", NULL, "hex numbers" },
		{ 3, "1", "0x0x7f00", NULL, "bad address" },
		{ 3, "1", "\t7f00", NULL, "bad address" },
		/* empty START, hex too wide */
		{ 3, "--range", "-0x2000", NULL, "hex numbers" },
		{ 3, "--range", "0x-0x2000", NULL, "hex numbers" },
		{ 3, "--range", "0x10000000000000000-0x2000", NULL, "hex numbers" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_options o;
		char err[256] = "";
		bool ok = parse(&o, err, cases[i].argc, cases[i].a1, cases[i].a2,
				cases[i].a3);

		if (ok || !strstr(err, cases[i].needle))
			fail_msg("case %zu: ok=%d err='%s', want '%s'", i, ok,
				 err, cases[i].needle);
	}
}

/* An argument a message quotes keeps the message on one line (fuzz_cli). */
static void messages_quote_safely(void **state)
{
	static const char *const args[][2] = {
		{ "12\nx", NULL }, { "--no\nsuch", NULL },
		{ "--range", "0x1000\n-0x2000" }, { "1", "0x12\r\n" },
		{ "1", "2\x1b[2J" },
	};
	char err[256], long_arg[600];

	(void)state;
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		struct cli_options o;

		assert_false(parse(&o, err, args[i][1] ? 3 : 2, args[i][0],
				   args[i][1]));
		if (strpbrk(err, "\n\r\x1b"))
			fail_msg("case %zu: control character in '%s'", i, err);
		assert_non_null(strchr(err, '?'));
	}
	memset(long_arg, 'z', sizeof(long_arg) - 1);
	long_arg[sizeof(long_arg) - 1] = '\0';
	assert_false(parse(&(struct cli_options){ 0 }, err, 2, long_arg));
	assert_non_null(strstr(err, "zzz...': expected"));
}

/* Leading zeros are digits like any other, however many (fuzz_cli). */
static void range_leading_zeros(void **state)
{
	char range[128] = "0x", err[256];
	struct cli_options o;

	(void)state;
	memset(range + 2, '0', 70);
	strcpy(range + 72, "1000-0x0000000000000000000000000000000002000");
	assert_true(parse(&o, err, 4, "--range", range, "42"));
	assert_int_equal(o.start, 0x1000);
	assert_int_equal(o.end, 0x2000);
}

static void range_twice(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_false(parse(&o, err, 6, "--range", "0-1000", "--range",
			   "0-2000", "1"));
	assert_non_null(strstr(err, "twice"));
}

static void vtop_forms(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 3, "1234", "0x7f0000001234"));
	assert_int_equal(o.mode, MODE_VTOP);
	assert_int_equal(o.pid, 1234);
	assert_int_equal(o.vtop_addr, 0x7f0000001234ULL);
	assert_true(parse(&o, err, 5, "--json", "--vtop", "7f0000000fff", "9"));
	assert_true(o.mode == MODE_VTOP && o.json);
	assert_int_equal(o.pid, 9);
	assert_int_equal(o.vtop_addr, 0x7f0000000fffULL);
	assert_true(parse(&o, err, 2, "9"));
	assert_int_equal(o.mode, MODE_SCAN);
}

static void vtop_bad_arguments(void **state)
{
	static const struct {
		int argc;
		const char *a[5];
		const char *needle;
	} cases[] = {
		{ 3, { "1", "0xzz" }, "bad address '0xzz'" },
		{ 3, { "1", "0x" }, "bad address" },
		{ 3, { "1", "0x100000000000000000" }, "bad address" },
		{ 3, { "--vtop", "g00" }, "bad address 'g00'" },
		{ 2, { "--vtop" }, "needs a value" },
		{ 5, { "--vtop", "1000", "1", "2000" }, "address given twice" },
		{ 5, { "1", "1000", "--vtop", "2000" }, "address given twice" },
		{ 5, { "--vtop", "1000", "--vtop", "2000" }, "address given twice" },
		{ 4, { "1", "1000", "2000" }, "unexpected argument '2000'" },
		{ 5, { "--range", "0-1000", "1", "1000" }, "--range does not apply" },
		{ 6, { "--vtop", "1000", "--range", "0-1000", "1" }, "--range does not apply" },
		{ 4, { "--stats", "1", "1000" }, "--stats" },
		{ 2, { "0x1000" }, "bad PID" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_options o;
		char err[256] = "";
		bool ok = parse(&o, err, cases[i].argc, cases[i].a[0],
				cases[i].a[1], cases[i].a[2], cases[i].a[3],
				cases[i].a[4]);

		if (ok || !strstr(err, cases[i].needle))
			fail_msg("case %zu: ok=%d err='%s', want '%s'", i, ok,
				 err, cases[i].needle);
	}
}

/* --opt=value reads as --opt value, for every option that takes one. */
static void equals_forms(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 6, "--range=0x400000-0x600000",
			  "--debugfs=/mnt/dbg", "--device=/dev/pw", "--jobs=3",
			  "7"));
	assert_true(o.has_range);
	assert_int_equal(o.start, 0x400000);
	assert_int_equal(o.end, 0x600000);
	assert_string_equal(o.debugfs, "/mnt/dbg");
	assert_true(o.debugfs_given);
	assert_string_equal(o.device, "/dev/pw");
	assert_true(o.device_given);
	assert_int_equal(o.jobs, 3);
	assert_int_equal(o.pid, 7);
	assert_true(parse(&o, err, 3, "--vtop=0x7f0000001234", "7"));
	assert_int_equal(o.mode, MODE_VTOP);
	assert_int_equal(o.vtop_addr, 0x7f0000001234);
	/* only the first '=' splits: the value may hold more */
	assert_true(parse(&o, err, 3, "--debugfs=/mnt/a=b", "7"));
	assert_string_equal(o.debugfs, "/mnt/a=b");
	/* the value is checked as the two-argument form checks it */
	assert_false(parse(&o, err, 3, "--range=0x2000-0x1000", "7"));
	assert_non_null(strstr(err, "below END"));
	assert_false(parse(&o, err, 3, "--jobs=0", "7"));
	assert_non_null(strstr(err, "bad --jobs '0'"));
	assert_false(parse(&o, err, 4, "--range=0x1000-0x2000",
			   "--range=0x1000-0x2000", "7"));
	assert_non_null(strstr(err, "--range given twice"));
}

/* Every error of the '=' forms: one line naming the option. */
static void equals_errors(void **state)
{
	static const struct {
		const char *arg, *want;
	} cases[] = {
		{ "--range=", "--range needs a value" },
		{ "--jobs=", "--jobs needs a value" },
		{ "--debugfs=", "--debugfs needs a value" },
		{ "--json=x", "--json takes no value: write '--json' alone" },
		{ "--stats=1", "--stats takes no value" },
		{ "--kpageflags=", "--kpageflags takes no value" },
		{ "--help=1", "--help takes no value" },
		{ "--frob=1", "unknown option '--frob=1' (see --help)" },
		{ "--=1", "unknown option '--=1'" },
		{ "--rang=0x1000-0x2000", "unknown option '--rang=0x1000-0x2000'" },
		/* short options have no '=' form */
		{ "-h=1", "unknown option '-h=1'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_options o;
		char err[256] = "";
		bool ok = parse(&o, err, 3, cases[i].arg, "7");

		if (ok || strncmp(err, cases[i].want, strlen(cases[i].want)) ||
		    strchr(err, '\n'))
			fail_msg("'%s': ok=%d err='%s', want '%s'", cases[i].arg,
				 ok, err, cases[i].want);
	}
	/* a value missing at the end, in the two-argument form */
	{
		struct cli_options o;
		char err[256];

		assert_false(parse(&o, err, 3, "7", "--range"));
		assert_string_equal(err, "--range needs a value");
	}
}

static void help_and_version(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 2, "--help"));
	assert_int_equal(o.mode, MODE_HELP);
	assert_true(parse(&o, err, 2, "--version"));
	assert_int_equal(o.mode, MODE_VERSION);
}

/* The device's view: --iommu DEVICE IOVA, or with --range and a PID. */
static void iommu_forms(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 4, "--iommu", "0000:00:03.0", "0x40000"));
	assert_string_equal(o.iommu, "0000:00:03.0");
	assert_true(o.iommu_translate);
	assert_int_equal(o.iova, 0x40000);
	assert_true(parse(&o, err, 6, "--iommu", "0000:00:03.0", "--range",
			  "0x7f0000000000-0x7f0000200000", "42"));
	assert_false(o.iommu_translate);
	assert_false(o.has_iova);
	assert_int_equal(o.pid, 42);
	/* IOVA = VA by default */
	assert_int_equal(o.iova, 0x7f0000000000ULL);
	assert_true(parse(&o, err, 8, "42", "--iova=0x100000", "--iommu",
			  "0000:00:03.0", "--range", "0x1000-0x3000", "--json"));
	assert_true(o.has_iova);
	assert_int_equal(o.iova, 0x100000);
	assert_true(o.json);
}

static void iommu_bad_arguments(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_false(parse(&o, err, 4, "--iommu", "00:03.0", "0x1000"));
	assert_non_null(strstr(err, "bad device '00:03.0'"));
	/* alignment is the kernel's page's: checked once ptwalk says it */
	assert_true(parse(&o, err, 4, "--iommu", "0000:00:03.0", "0x1001"));
	assert_int_equal(o.iova, 0x1001);
	assert_false(parse(&o, err, 4, "--iommu", "0000:00:03.0", "zz"));
	assert_non_null(strstr(err, "bad IOVA 'zz'"));
	assert_false(parse(&o, err, 3, "--iommu", "0000:00:03.0"));
	assert_non_null(strstr(err, "usage: ptcompare --iommu DEVICE IOVA"));
	assert_false(parse(&o, err, 6, "--iommu", "0000:00:03.0", "--iova",
			   "0x1000", "0x2000"));
	assert_false(parse(&o, err, 6, "--iommu", "0000:00:03.0", "--range",
			   "0x1000-0x2000", "x"));
	assert_non_null(strstr(err, "bad PID 'x'"));
	assert_false(parse(&o, err, 5, "--iommu", "0000:00:03.0", "--range",
			   "0x1000-0x2000"));
	assert_non_null(strstr(err, "needs one PID"));
	assert_false(parse(&o, err, 8, "--iommu", "0000:00:03.0", "--range",
			   "0x1000-0x3000", "--iova", "0xfffffffffffff000", "1"));
	assert_non_null(strstr(err, "wrap"));
	assert_false(parse(&o, err, 6, "--iommu", "0000:00:03.0", "--stats",
			   "--range", "0x1000-0x2000", "1"));
	assert_non_null(strstr(err, "--iommu takes none of"));
	assert_false(parse(&o, err, 4, "--iova", "0x1000", "1"));
	assert_non_null(strstr(err, "--iova applies to --iommu only"));
	/* --dma-api: the opt-in of the device view, nothing else */
	assert_false(parse(&o, err, 3, "--dma-api", "1"));
	assert_non_null(strstr(err, "--dma-api applies to --iommu only"));
	assert_true(parse(&o, err, 5, "--dma-api", "--iommu", "0000:00:03.0",
			  "0x1000"));
	assert_true(o.dma_api);
	assert_true(parse(&o, err, 4, "--iommu", "0000:00:03.0", "0x1000"));
	assert_false(o.dma_api);
}

/* --phys: one address (its frame) or a range, and no PID. */
static void phys_forms(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 3, "--phys", "0xfd000123"));
	assert_int_equal(o.mode, MODE_PHYS);
	assert_int_equal(o.phys_start, 0xfd000123);
	assert_int_equal(o.phys_end, 0xfd000124);
	assert_true(parse(&o, err, 3, "--json", "--phys=100000-102000"));
	assert_true(o.json);
	assert_int_equal(o.phys_start, 0x100000);
	assert_int_equal(o.phys_end, 0x102000);
}

static void phys_errors(void **state)
{
	static const struct {
		int argc;
		const char *a[4];
		const char *want;
	} cases[] = {
		{ 3, { "--phys", "0x2000-0x1000" }, "START must be below END" },
		{ 3, { "--phys", "zz" }, "bad --phys 'zz'" },
		{ 3, { "--phys", "0x1000-" }, "bad --phys" },
		{ 4, { "--phys", "0x1000", "42" }, "drop the PID" },
		{ 5, { "--phys", "0x1000", "--range", "0x0-0x1000" }, "drop --range" },
		{ 4, { "--phys", "0x1000", "--kpageflags" }, "drop --kpageflags" },
		{ 5, { "--phys", "1", "--phys", "2" }, "--phys given twice" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_options o;
		char err[256];

		assert_false(parse(&o, err, cases[i].argc, cases[i].a[0],
				   cases[i].a[1], cases[i].a[2], cases[i].a[3]));
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err,
				 cases[i].want);
	}
}

/* --all: no PID, no range, no address; the scan's other options stay. */
static void all_forms(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 4, "--all", "--json", "--kpageflags"));
	assert_int_equal(o.mode, MODE_ALL);
	assert_true(o.json);
	assert_true(o.kpageflags);
	assert_false(parse(&o, err, 3, "--all", "42"));
	assert_non_null(strstr(err, "--all scans every process: drop the PID"));
	assert_false(parse(&o, err, 4, "--all", "--range", "0-0x1000"));
	assert_non_null(strstr(err, "drop --range"));
	assert_false(parse(&o, err, 4, "--all", "--phys", "0x1000"));
	assert_non_null(strstr(err, "drop --all"));
}

/*
 * --iommu DEVICE --watch SECONDS: a mode of its own, no PID, --range of
 * device addresses and optional, --interval; none of --iommu's others.
 */
static void iommu_watch_forms(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 5, "--iommu", "0000:00:03.0", "--watch", "5"));
	assert_int_equal(o.mode, MODE_IOMMU_WATCH);
	assert_false(o.has_range);
	assert_int_equal(o.pid, 0);
	assert_true(parse(&o, err, 10, "--json", "--watch=2", "--interval", "50",
			  "--range", "0x7e0000000000-0x7e0000004000", "--iommu",
			  "0000:00:03.0", "--no-progress"));
	assert_int_equal(o.mode, MODE_IOMMU_WATCH);
	assert_true(o.has_range);
	assert_int_equal(o.end, 0x7e0000004000);
	assert_int_equal(o.interval_ms, 50);
	assert_false(parse(&o, err, 6, "--iommu", "0000:00:03.0", "--watch",
			   "5", "42"));
	assert_non_null(strstr(err, "takes no PID or address: drop '42'"));
	assert_false(parse(&o, err, 7, "--iommu", "0000:00:03.0", "--watch",
			   "5", "--iova", "0x1000"));
	assert_non_null(strstr(err, "--iommu with --watch follows the device's IOVAs: drop --iova"));
	assert_false(parse(&o, err, 6, "--iommu", "0000:00:03.0", "--watch",
			   "5", "--dma-api"));
	assert_non_null(strstr(err, "drop --dma-api"));
	assert_false(parse(&o, err, 6, "--iommu", "0000:00:03.0", "--watch",
			   "5", "--stats"));
	assert_non_null(strstr(err, "drop --stats"));
	assert_false(parse(&o, err, 5, "--iommu", "3.0", "--watch", "5"));
	assert_non_null(strstr(err, "bad device"));
	/* without --watch, --interval is still --watch's */
	assert_false(parse(&o, err, 7, "--iommu", "0000:00:03.0", "--interval",
			   "50", "--range", "0x1000-0x2000", "1"));
	assert_string_equal(err, "--interval applies to --watch only");
}

/* --watch SECONDS [--interval MS] needs --range and a PID. */
static void watch_forms(void **state)
{
	struct cli_options o;
	char err[256];

	(void)state;
	assert_true(parse(&o, err, 6, "--watch", "5", "--range",
			  "0x1000-0x3000", "7"));
	assert_int_equal(o.watch_s, 5);
	assert_int_equal(o.interval_ms, 0);
	assert_true(parse(&o, err, 6, "--watch=2", "--interval=100",
			  "--range=0x1000-0x3000", "7", "--json"));
	assert_int_equal(o.interval_ms, 100);
	assert_false(parse(&o, err, 4, "--watch", "5", "7"));
	assert_non_null(strstr(err, "--watch needs --range START-END and a PID"));
	assert_false(parse(&o, err, 6, "--watch", "0", "--range",
			   "0x1000-0x3000", "7"));
	assert_non_null(strstr(err, "bad --watch '0'"));
	assert_false(parse(&o, err, 6, "--interval", "5", "--range",
			   "0x1000-0x3000", "7"));
	assert_non_null(strstr(err, "bad --interval '5'"));
	assert_false(parse(&o, err, 6, "--interval", "50", "--range",
			   "0x1000-0x3000", "7"));
	assert_non_null(strstr(err, "--interval applies to --watch"));
	assert_false(parse(&o, err, 7, "--watch", "1", "--kpageflags",
			   "--range", "0x1000-0x3000", "7"));
	assert_non_null(strstr(err, "drop --kpageflags"));
}

/*
 * The range must be made of whole kernel pages, known only once ptwalk.ko
 * says the page size: 0x1000-aligned is enough with 4K pages, not with
 * 16K or 64K ones.
 */
static void range_in_kernel_pages(void **state)
{
	char err[256] = "";

	(void)state;
	assert_int_equal(cli_check_range_pages(0x1000, 0x3000, 1 << 12, err,
					       sizeof(err)), 0);
	assert_int_equal(cli_check_range_pages(0x1000, 0x3000, 1 << 14, err,
					       sizeof(err)), -1);
	assert_non_null(strstr(err, "multiples of the kernel's page size, 0x4000"));
	assert_null(strchr(err, '\n'));
	assert_int_equal(cli_check_range_pages(0x4000, 0x10000, 1 << 14, err,
					       sizeof(err)), 0);
	assert_int_equal(cli_check_range_pages(0x4000, 0x10000, 1 << 16, err,
					       sizeof(err)), -1);
	assert_non_null(strstr(err, "0x10000"));
	assert_int_equal(cli_check_range_pages(0x10000, 0x30000, 1 << 16, err,
					       sizeof(err)), 0);
	/* a range parsed with any alignment: the check is the session's */
	struct cli_options o;

	assert_true(parse(&o, err, 3, "--range=0x1000-0x1001", "7"));
	assert_int_equal(o.start, 0x1000);
	assert_int_equal(o.end, 0x1001);
}

UNIT_MAIN("cli", UT(iommu_forms), UT(iommu_bad_arguments), UT(pid_only),
	  UT(json_and_stats), UT(no_progress),
	  UT(kpageflags_opt_in), UT(jobs_option), UT(range_and_debugfs),
	  UT(device_option), UT(bad_arguments), UT(messages_quote_safely),
	  UT(range_leading_zeros), UT(range_twice), UT(vtop_forms),
	  UT(vtop_bad_arguments), UT(equals_forms), UT(equals_errors),
	  UT(help_and_version), UT(range_in_kernel_pages),
	  UT(phys_forms), UT(phys_errors), UT(all_forms), UT(watch_forms),
	  UT(iommu_watch_forms))
