// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "model/defaults.h"
#include "parse/cli.h"

static bool vparse(struct cli_options *o, char *err, int argc, va_list ap)
{
	char *argv[16];
	int i;

	argv[0] = "ptcompare";
	for (i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	return cli_parse(argc, argv, o, err, 256);
}

static bool parse(struct cli_options *o, char *err, int argc, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, argc);
	ok = vparse(o, err, argc, ap);
	va_end(ap);
	return ok;
}

/* The options of a command line ptcompare must accept. */
static struct cli_options accepted(int argc, ...)
{
	struct cli_options o;
	char err[256] = "";
	va_list ap;
	bool ok;

	va_start(ap, argc);
	ok = vparse(&o, err, argc, ap);
	va_end(ap);
	if (!ok)
		fail_msg("refused: %s", err);
	return o;
}

/*
 * A command line ptcompare refuses: its arguments after "ptcompare"
 * (NULL-terminated), and what its one-line message holds.
 */
struct refusal {
	const char *args[8];
	const char *want;
};

static const struct refusal refusals[] = {
	/* the PID, and what follows it */
	{ { NULL }, "missing PID" },
	{ { "0" }, "bad PID" },
	{ { "-3" }, "unknown option" },
	{ { "12x" }, "bad PID" },
	{ { "99999999999" }, "bad PID" },
	{ { "1", "2", "3" }, "unexpected argument '3'" },
	{ { "--frobnicate" }, "unknown option" },
	{ { "--json" }, "missing PID" },
	/* --range */
	{ { "--range" }, "needs a value" },
	{ { "--range", "400000" }, "START-END" },
	{ { "--range", "0x2000-0x1000" }, "below END" },
	{ { "--range", "0x1000-0x1000" }, "below END" },
	{ { "--range", "zz-0x1000" }, "hex numbers" },
	{ { "--range", "0x1000-" }, "hex numbers" },
	{ { "--range", "0x1000--0x2000" }, "hex numbers" },
	{ { "--range", "0x1000-0x100000000000000000" }, "hex numbers" },
	/* what strtoull takes beyond digits (fuzz_cli) */
	{ { "--range", "0x0x1000-0x2000" }, "hex numbers" },
	{ { "--range", " 0x1000-0x2000" }, "hex numbers" },
	{ { "--range", "0x1000-0x 2000" }, "hex numbers" },
	{ { "1", "0x0x7f00" }, "bad address" },
	{ { "1", "\t7f00" }, "bad address" },
	/* empty START, hex too wide */
	{ { "--range", "-0x2000" }, "hex numbers" },
	{ { "--range", "0x-0x2000" }, "hex numbers" },
	{ { "--range", "0x10000000000000000-0x2000" }, "hex numbers" },
	{ { "--range", "0-1000", "--range", "0-2000", "1" }, "twice" },
	/* the options that take no value, and --device's */
	{ { "--json=1", "5" }, "--json takes no value" },
	{ { "--no-progress=1", "7" }, "--no-progress takes no value" },
	{ { "--kpageflags", "7", "0x1000" }, "drop --kpageflags" },
	{ { "7", "--device" }, "--device needs a value" },
	/* --jobs */
	{ { "--jobs", "0", "7" }, "from 1 to" },
	{ { "--jobs", "2x", "7" }, "" },
	{ { "--jobs", "-1", "7" }, "" },
	{ { "--jobs", "99999999999999999999", "7" }, "" },
	{ { "7", "--jobs" }, "--jobs needs a value" },
	{ { "--jobs", "2", "7", "0x1000" }, "drop --jobs" },
	/* vtop: PID ADDR, or --vtop ADDR */
	{ { "1", "0xzz" }, "bad address '0xzz'" },
	{ { "1", "0x" }, "bad address" },
	{ { "1", "0x100000000000000000" }, "bad address" },
	{ { "--vtop", "g00" }, "bad address 'g00'" },
	{ { "--vtop" }, "needs a value" },
	{ { "--vtop", "1000", "1", "2000" }, "address given twice" },
	{ { "1", "1000", "--vtop", "2000" }, "address given twice" },
	{ { "--vtop", "1000", "--vtop", "2000" }, "address given twice" },
	{ { "1", "1000", "2000" }, "unexpected argument '2000'" },
	{ { "--range", "0-1000", "1", "1000" }, "--range does not apply" },
	{ { "--vtop", "1000", "--range", "0-1000", "1" }, "--range does not apply" },
	{ { "--stats", "1", "1000" }, "--stats" },
	{ { "0x1000" }, "bad PID" },
	/* the '=' forms: one line naming the option */
	{ { "--range=0x2000-0x1000", "7" }, "below END" },
	{ { "--jobs=0", "7" }, "bad --jobs '0'" },
	{ { "--range=0x1000-0x2000", "--range=0x1000-0x2000", "7" },
	  "--range given twice" },
	/* --iommu DEVICE IOVA, or DEVICE --range START-END PID */
	{ { "--iommu", "00:03.0", "0x1000" }, "bad device '00:03.0'" },
	{ { "--iommu", "0000:00:03.0", "zz" }, "bad IOVA 'zz'" },
	{ { "--iommu", "0000:00:03.0" }, "usage: ptcompare --iommu DEVICE IOVA" },
	{ { "--iommu", "0000:00:03.0", "--iova", "0x1000", "0x2000" }, "" },
	{ { "--iommu", "0000:00:03.0", "--range", "0x1000-0x2000", "x" },
	  "bad PID 'x'" },
	{ { "--iommu", "0000:00:03.0", "--range", "0x1000-0x2000" },
	  "needs one PID" },
	{ { "--iommu", "0000:00:03.0", "--range", "0x1000-0x3000", "--iova",
	    "0xfffffffffffff000", "1" }, "wrap" },
	{ { "--iommu", "0000:00:03.0", "--stats", "--range", "0x1000-0x2000",
	    "1" }, "--iommu takes none of" },
	{ { "--iova", "0x1000", "1" }, "--iova applies to --iommu only" },
	/* --dma-api: the opt-in of the device view, nothing else */
	{ { "--dma-api", "1" }, "--dma-api applies to --iommu only" },
	/* --live-domain: the device views' opt-in, nothing else */
	{ { "--live-domain", "1" }, "--live-domain applies to --iommu only" },
	{ { "--live-domain", "--all" }, "--live-domain applies to --iommu only" },
	/* --phys ADDR[-END], no PID */
	{ { "--phys", "0x2000-0x1000" }, "START must be below END" },
	{ { "--phys", "zz" }, "bad --phys 'zz'" },
	{ { "--phys", "0x1000-" }, "bad --phys" },
	{ { "--phys", "0x1000", "42" }, "drop the PID" },
	{ { "--phys", "0x1000", "--range", "0x0-0x1000" }, "drop --range" },
	{ { "--phys", "0x1000", "--kpageflags" }, "drop --kpageflags" },
	{ { "--phys", "1", "--phys", "2" }, "--phys given twice" },
	/* --all: no PID, no range, no other mode */
	{ { "--all", "42" }, "--all scans every process: drop the PID" },
	{ { "--all", "--range", "0-0x1000" }, "drop --range" },
	{ { "--all", "--phys", "0x1000" }, "drop --all" },
	/* --watch SECONDS [--interval MS] needs --range and a PID */
	{ { "--watch", "5", "7" }, "--watch needs --range START-END and a PID" },
	{ { "--watch", "0", "--range", "0x1000-0x3000", "7" }, "bad --watch '0'" },
	{ { "--interval", "5", "--range", "0x1000-0x3000", "7" },
	  "bad --interval '5'" },
	{ { "--interval", "50", "--range", "0x1000-0x3000", "7" },
	  "--interval applies to --watch" },
	{ { "--watch", "1", "--kpageflags", "--range", "0x1000-0x3000", "7" },
	  "drop --kpageflags" },
	/* --iommu DEVICE --watch SECONDS: no PID, none of --iommu's others */
	{ { "--iommu", "0000:00:03.0", "--watch", "5", "42" },
	  "takes no PID or address: drop '42'" },
	{ { "--iommu", "0000:00:03.0", "--watch", "5", "--iova", "0x1000" },
	  "--iommu with --watch follows the device's IOVAs: drop --iova" },
	{ { "--iommu", "0000:00:03.0", "--watch", "5", "--dma-api" },
	  "drop --dma-api" },
	{ { "--iommu", "0000:00:03.0", "--watch", "5", "--stats" },
	  "drop --stats" },
	{ { "--iommu", "3.0", "--watch", "5" }, "bad device" },
	{ { "--faults", "--since", "0" }, "bad --since '0'" },
	{ { "--faults", "1234" }, "--faults takes no PID" },
	{ { "--faults", "--range", "0-1000" }, "drop --range" },
	{ { "--faults", "--since", "5", "--fault-line", "x" }, "" },
	{ { "--faults", "--since", "5", "--fault-file", "x" },
	  "--since reads the log, --fault-file text given: drop one" },
	{ { "--faults", "--fault-line", "x", "--fault-file", "-" },
	  "--fault-line and --fault-file both give the text to read: drop one" },
	{ { "--fault-file", "x" }, "" },
	/* --dma-track DEVICE [--off]: nothing else */
	{ { "--dma-track", "3.0" }, "bad device" },
	{ { "--dma-track", "0000:00:03.0", "42" }, "--dma-track takes no PID" },
	{ { "--dma-track", "0000:00:03.0", "--range", "0-1000" },
	  "--dma-track starts or stops tracking a device: drop --range" },
	{ { "--dma-track", "0000:00:03.0", "--dma-api" },
	  "--dma-api applies to --iommu only" },
	{ { "--off", "42" }, "--off applies to --dma-track only" },
};

/* ... and those whose message starts with want */
static const struct refusal refusals_starting[] = {
	{ { "--range=", "7" }, "--range needs a value" },
	{ { "--jobs=", "7" }, "--jobs needs a value" },
	{ { "--debugfs=", "7" }, "--debugfs needs a value" },
	{ { "--json=x", "7" }, "--json takes no value: write '--json' alone" },
	{ { "--stats=1", "7" }, "--stats takes no value" },
	{ { "--kpageflags=", "7" }, "--kpageflags takes no value" },
	{ { "--help=1", "7" }, "--help takes no value" },
	{ { "--frob=1", "7" }, "unknown option '--frob=1' (see --help)" },
	{ { "--=1", "7" }, "unknown option '--=1'" },
	{ { "--rang=0x1000-0x2000", "7" }, "unknown option '--rang=0x1000-0x2000'" },
	/* short options have no '=' form */
	{ { "-h=1", "7" }, "unknown option '-h=1'" },
};

/* ... and those whose message is want */
static const struct refusal refusals_exact[] = {
	/* a value missing at the end, in the two-argument form */
	{ { "7", "--range" }, "--range needs a value" },
	/* --faults reads the kernel log: no PID, its own options */
	{ { "--since", "60" }, "--since applies to --faults only" },
	/* without --watch, --interval is still --watch's */
	{ { "--iommu", "0000:00:03.0", "--interval", "50", "--range",
	    "0x1000-0x2000", "1" }, "--interval applies to --watch only" },
};

enum { HOLDS, STARTS, IS };

/* Each of r[0 .. n) refused, its message on one line, saying want as how says. */
static void check_refused(const struct refusal *r, size_t n, int how)
{
	for (; n--; r++) {
		char *argv[9] = { "ptcompare" }, err[256] = "";
		struct cli_options o;
		int argc = 1;
		bool ok, said;

		while (r->args[argc - 1])
			argv[argc] = (char *)r->args[argc - 1], argc++;
		ok = cli_parse(argc, argv, &o, err, sizeof(err));
		said = how == IS ? !strcmp(err, r->want) :
		       how == STARTS ? !strncmp(err, r->want, strlen(r->want)) :
		       strstr(err, r->want) != NULL;
		if (ok || !said || strchr(err, '\n'))
			fail_msg("%s ...: ok=%d err='%s', want '%s'",
				 argv[1] ? argv[1] : "(no argument)", ok, err,
				 r->want);
	}
}

static void refused(void **state)
{
	(void)state;
	check_refused(refusals, sizeof(refusals) / sizeof(refusals[0]), HOLDS);
	check_refused(refusals_starting, sizeof(refusals_starting) /
		      sizeof(refusals_starting[0]), STARTS);
	check_refused(refusals_exact, sizeof(refusals_exact) /
		      sizeof(refusals_exact[0]), IS);
}

static void pid_only(void **state)
{
	struct cli_options o = accepted(2, "1234");

	(void)state;
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
	struct cli_options o = accepted(4, "--device", "/dev/pw", "7");

	(void)state;
	assert_string_equal(o.device, "/dev/pw");
	assert_true(o.device_given);
	assert_false(o.debugfs_given);
	o = accepted(5, "7", "0x1000", "--device", "/dev/pw");
	assert_int_equal(o.mode, MODE_VTOP);
	assert_true(o.device_given);
}

/* The options without a value: each sets its own, none is on alone. */
static void flags(void **state)
{
	struct cli_options o = accepted(4, "--json", "55", "--stats");

	(void)state;
	assert_true(o.json);
	assert_true(o.stats);
	assert_int_equal(o.pid, 55);
	o = accepted(3, "--no-progress", "7");
	assert_true(o.no_progress);
	o = accepted(3, "--kpageflags", "7");
	assert_true(o.kpageflags);
}

/* --jobs N: 1 to PTCOMPARE_JOBS_MAX; not given: 0 (the CPUs decide). */
static void jobs_option(void **state)
{
	struct cli_options o;
	char err[256], max[16], over[16];

	(void)state;
	snprintf(max, sizeof(max), "%d", PTCOMPARE_JOBS_MAX);
	snprintf(over, sizeof(over), "%d", PTCOMPARE_JOBS_MAX + 1);
	o = accepted(2, "7");
	assert_int_equal(o.jobs, 0);
	o = accepted(4, "--jobs", "1", "7");
	assert_int_equal(o.jobs, 1);
	o = accepted(4, "--jobs", max, "7");
	assert_int_equal(o.jobs, PTCOMPARE_JOBS_MAX);
	assert_false(parse(&o, err, 4, "--jobs", over, "7"));
	assert_contains(err, "bad --jobs");
	assert_null(strchr(err, '\n'));
}

/* --range 0x400000-0x600000 --debugfs /mnt/dbg 7, whichever the form. */
static void range_and_debugfs_in(const struct cli_options *o)
{
	assert_true(o->has_range);
	assert_int_equal(o->start, 0x400000);
	assert_int_equal(o->end, 0x600000);
	assert_string_equal(o->debugfs, "/mnt/dbg");
	assert_true(o->debugfs_given);
	assert_int_equal(o->pid, 7);
}

static void range_and_debugfs(void **state)
{
	struct cli_options o = accepted(6, "--range", "0x400000-600000",
					"--debugfs", "/mnt/dbg", "7");

	(void)state;
	range_and_debugfs_in(&o);
	assert_false(o.device_given);
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
	assert_contains(err, "zzz...': expected");
}

/* Leading zeros are digits like any other, however many (fuzz_cli). */
static void range_leading_zeros(void **state)
{
	char range[128] = "0x";
	struct cli_options o;

	(void)state;
	memset(range + 2, '0', 70);
	strcpy(range + 72, "1000-0x0000000000000000000000000000000002000");
	o = accepted(4, "--range", range, "42");
	assert_int_equal(o.start, 0x1000);
	assert_int_equal(o.end, 0x2000);
}

static void vtop_forms(void **state)
{
	struct cli_options o = accepted(3, "1234", "0x7f0000001234");

	(void)state;
	assert_int_equal(o.mode, MODE_VTOP);
	assert_int_equal(o.pid, 1234);
	assert_int_equal(o.vtop_addr, 0x7f0000001234ULL);
	o = accepted(5, "--json", "--vtop", "7f0000000fff", "9");
	assert_true(o.mode == MODE_VTOP && o.json);
	assert_int_equal(o.pid, 9);
	assert_int_equal(o.vtop_addr, 0x7f0000000fffULL);
	o = accepted(2, "9");
	assert_int_equal(o.mode, MODE_SCAN);
}

/* --opt=value reads as --opt value, for every option that takes one. */
static void equals_forms(void **state)
{
	struct cli_options o = accepted(6, "--range=0x400000-0x600000",
					"--debugfs=/mnt/dbg",
					"--device=/dev/pw", "--jobs=3", "7");

	(void)state;
	range_and_debugfs_in(&o);
	assert_string_equal(o.device, "/dev/pw");
	assert_true(o.device_given);
	assert_int_equal(o.jobs, 3);
	o = accepted(3, "--vtop=0x7f0000001234", "7");
	assert_int_equal(o.mode, MODE_VTOP);
	assert_int_equal(o.vtop_addr, 0x7f0000001234);
	/* only the first '=' splits: the value may hold more */
	o = accepted(3, "--debugfs=/mnt/a=b", "7");
	assert_string_equal(o.debugfs, "/mnt/a=b");
}

static void help_and_version(void **state)
{
	struct cli_options o = accepted(2, "--help");

	(void)state;
	assert_int_equal(o.mode, MODE_HELP);
	o = accepted(2, "--version");
	assert_int_equal(o.mode, MODE_VERSION);
}

/* The device's view: --iommu DEVICE IOVA, or with --range and a PID. */
static void iommu_forms(void **state)
{
	struct cli_options o = accepted(4, "--iommu", "0000:00:03.0", "0x40000");

	(void)state;
	assert_string_equal(o.iommu, "0000:00:03.0");
	assert_true(o.iommu_translate);
	assert_int_equal(o.iova, 0x40000);
	o = accepted(6, "--iommu", "0000:00:03.0", "--range",
			"0x7f0000000000-0x7f0000200000", "42");
	assert_false(o.iommu_translate);
	assert_false(o.has_iova);
	assert_int_equal(o.pid, 42);
	/* IOVA = VA by default */
	assert_int_equal(o.iova, 0x7f0000000000ULL);
	o = accepted(8, "42", "--iova=0x100000", "--iommu",
			"0000:00:03.0", "--range", "0x1000-0x3000", "--json");
	assert_true(o.has_iova);
	assert_int_equal(o.iova, 0x100000);
	assert_true(o.json);
}

/*
 * An IOVA's alignment is the kernel's page's, checked once ptwalk says
 * it; --dma-api is the device view's opt-in.
 */
static void iommu_alignment_and_dma_api(void **state)
{
	struct cli_options o = accepted(4, "--iommu", "0000:00:03.0", "0x1001");

	(void)state;
	assert_int_equal(o.iova, 0x1001);
	o = accepted(5, "--dma-api", "--iommu", "0000:00:03.0",
			"0x1000");
	assert_true(o.dma_api);
	o = accepted(4, "--iommu", "0000:00:03.0", "0x1000");
	assert_false(o.dma_api);
}

/* --phys: one address (its frame) or a range, and no PID. */
static void phys_forms(void **state)
{
	struct cli_options o = accepted(3, "--phys", "0xfd000123");

	(void)state;
	assert_int_equal(o.mode, MODE_PHYS);
	assert_int_equal(o.phys_start, 0xfd000123);
	assert_int_equal(o.phys_end, 0xfd000124);
	o = accepted(3, "--json", "--phys=100000-102000");
	assert_true(o.json);
	assert_int_equal(o.phys_start, 0x100000);
	assert_int_equal(o.phys_end, 0x102000);
}

/* --all: no PID, no range, no address; the scan's other options stay. */
static void all_forms(void **state)
{
	struct cli_options o = accepted(4, "--all", "--json", "--kpageflags");

	(void)state;
	assert_int_equal(o.mode, MODE_ALL);
	assert_true(o.json);
	assert_true(o.kpageflags);
}

/*
 * --iommu DEVICE --watch SECONDS: a mode of its own, no PID, --range of
 * device addresses and optional, --interval; none of --iommu's others.
 */
static void iommu_watch_forms(void **state)
{
	struct cli_options o = accepted(5, "--iommu", "0000:00:03.0", "--watch",
					"5");

	(void)state;
	assert_int_equal(o.mode, MODE_IOMMU_WATCH);
	assert_false(o.has_range);
	assert_int_equal(o.pid, 0);
	o = accepted(10, "--json", "--watch=2", "--interval", "50", "--range",
		     "0x7e0000000000-0x7e0000004000", "--iommu", "0000:00:03.0",
		     "--no-progress");
	assert_int_equal(o.mode, MODE_IOMMU_WATCH);
	assert_true(o.has_range);
	assert_int_equal(o.end, 0x7e0000004000);
	assert_int_equal(o.interval_ms, 50);
}

/* --watch SECONDS [--interval MS] needs --range and a PID. */
static void watch_forms(void **state)
{
	struct cli_options o = accepted(6, "--watch", "5", "--range",
					"0x1000-0x3000", "7");

	(void)state;
	assert_int_equal(o.watch_s, 5);
	assert_int_equal(o.interval_ms, 0);
	o = accepted(6, "--watch=2", "--interval=100",
			"--range=0x1000-0x3000", "7", "--json");
	assert_int_equal(o.interval_ms, 100);
}

/* --faults reads the kernel log: no PID, its own options. */
static void cli_faults(void **state)
{
	struct cli_options o = accepted(2, "--faults");

	(void)state;
	assert_int_equal(o.mode, MODE_FAULTS);
	assert_int_equal(o.since_s, 0);
	assert_null(o.fault_line);
	o = accepted(5, "--json", "--faults", "--since", "60");
	assert_int_equal(o.since_s, 60);
	assert_true(o.json);
	o = accepted(3, "--faults", "--fault-line=DMAR: x");
	assert_string_equal(o.fault_line, "DMAR: x");
	o = accepted(3, "--faults", "--dma-api");
	assert_true(o.dma_api);
	assert_null(o.fault_file);
	o = accepted(4, "--faults", "--fault-file", "-");
	assert_string_equal(o.fault_file, "-");
	assert_null(o.fault_line);
	o = accepted(3, "--faults", "--live-domain");
	assert_true(o.live_domain);
	assert_false(o.dma_api);
}

/* --live-domain: --iommu's reads, the watch's, and --faults's; off by default. */
static void live_domain(void **state)
{
	struct cli_options o = accepted(4, "--iommu", "0000:00:03.0", "0x1000");

	(void)state;
	assert_false(o.live_domain);
	o = accepted(5, "--live-domain", "--iommu", "0000:00:03.0", "0x1000");
	assert_true(o.live_domain);
	assert_false(o.dma_api);
	o = accepted(6, "--iommu", "0000:00:03.0", "--watch", "5",
		     "--live-domain");
	assert_int_equal(o.mode, MODE_IOMMU_WATCH);
	assert_true(o.live_domain);
}

/* --dma-track DEVICE, --off to stop: no PID. */
static void dma_track_forms(void **state)
{
	struct cli_options o = accepted(3, "--dma-track", "0000:00:03.0");

	(void)state;
	assert_int_equal(o.mode, MODE_DMA_TRACK);
	assert_string_equal(o.dma_track, "0000:00:03.0");
	assert_false(o.dma_off);
	o = accepted(4, "--off", "--dma-track=0000:00:03.0", "--json");
	assert_int_equal(o.mode, MODE_DMA_TRACK);
	assert_true(o.dma_off);
	assert_true(o.json);
	/* --dma: the IOMMU read with --dma-api, a window of device addresses */
	o = accepted(6, "--dma", "0000:00:03.0", "--dma-api", "--range",
		     "0xff000000-0x100000000");
	assert_int_equal(o.mode, MODE_DMA);
	assert_true(o.dma_api);
	assert_true(o.has_range);
	assert_int_equal(o.start, 0xff000000);
	assert_int_equal(o.end, 0x100000000);
	o = accepted(3, "--dma", "0000:00:03.0");
	assert_false(o.dma_api);
	assert_false(o.has_range);
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
	assert_contains(err, "multiples of the kernel's page size, 0x4000");
	assert_null(strchr(err, '\n'));
	assert_int_equal(cli_check_range_pages(0x4000, 0x10000, 1 << 14, err,
					       sizeof(err)), 0);
	assert_int_equal(cli_check_range_pages(0x4000, 0x10000, 1 << 16, err,
					       sizeof(err)), -1);
	assert_contains(err, "0x10000");
	assert_int_equal(cli_check_range_pages(0x10000, 0x30000, 1 << 16, err,
					       sizeof(err)), 0);
	/* a range parsed with any alignment: the check is the session's */
	struct cli_options o;

	o = accepted(3, "--range=0x1000-0x1001", "7");
	assert_int_equal(o.start, 0x1000);
	assert_int_equal(o.end, 0x1001);
}

UNIT_MAIN("cli", UT(refused), UT(live_domain), UT(iommu_forms), UT(iommu_alignment_and_dma_api),
	  UT(pid_only), UT(flags), UT(jobs_option), UT(range_and_debugfs),
	  UT(device_option), UT(messages_quote_safely),
	  UT(range_leading_zeros), UT(vtop_forms), UT(equals_forms),
	  UT(help_and_version), UT(range_in_kernel_pages),
	  UT(phys_forms), UT(all_forms), UT(watch_forms), UT(cli_faults),
	  UT(iommu_watch_forms), UT(dma_track_forms))
