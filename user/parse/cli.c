// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/defaults.h"
#include "model/page.h"
#include "parse/iommu_record.h"
#include "parse/cli.h"

/* Bytes of an argument an error message quotes, "..." included. */
#define SHOWN_SIZE 128

/*
 * arg as an error message quotes it: a control character (a newline would
 * split the one-line message) as '?', a long one cut.  Returns buf.
 */
static const char *shown(const char *arg, char buf[SHOWN_SIZE])
{
	size_t i;

	for (i = 0; arg[i] && i < SHOWN_SIZE - 4; i++)
		buf[i] = (unsigned char)arg[i] < 0x20 || arg[i] == 0x7f ?
			 '?' : arg[i];
	if (arg[i]) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

/*
 * The len bytes at s as a hex number, "0x" optional: digits only (strtoull
 * would also take spaces, a sign, a second "0x"), at most 64 bits.
 */
static bool parse_hex_n(const char *s, size_t len, uint64_t *out)
{
	static const char digits[] = "0123456789abcdef";
	uint64_t v = 0;
	size_t i = 0;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (i == len)
		return false;
	for (; i < len; i++) {
		const char *d = memchr(digits, tolower((unsigned char)s[i]), 16);

		if (!d || v >> 60)
			return false;
		v = v << 4 | (uint64_t)(d - digits);
	}
	*out = v;
	return true;
}

static bool parse_hex(const char *s, uint64_t *out)
{
	return parse_hex_n(s, strlen(s), out);
}

bool cli_parse_range(const char *s, uint64_t *start, uint64_t *end,
		     char *err, size_t err_size)
{
	const char *dash = strchr(s, '-');
	char q[SHOWN_SIZE];

	if (!dash) {
		snprintf(err, err_size,
			 "bad range '%s': expected START-END in hex, e.g. 0x400000-0x600000",
			 shown(s, q));
		return false;
	}
	if (!parse_hex_n(s, (size_t)(dash - s), start) ||
	    !parse_hex(dash + 1, end)) {
		snprintf(err, err_size,
			 "bad range '%s': START and END must be hex numbers",
			 shown(s, q));
		return false;
	}
	if (*start >= *end) {
		snprintf(err, err_size,
			 "bad range '%s': START must be below END (END is exclusive)",
			 shown(s, q));
		return false;
	}
	return true;
}

int cli_check_range_pages(uint64_t start, uint64_t end, uint64_t page_size,
			  char *err, size_t err_size)
{
	if (!((start | end) & (page_size - 1)))
		return 0;
	snprintf(err, err_size,
		 "bad range 0x%" PRIx64 "-0x%" PRIx64 ": START and END must be multiples of the kernel's page size, 0x%" PRIx64,
		 start, end, page_size);
	return -1;
}

/* ADDR of `PID ADDR` or `--vtop ADDR`: hex, 0x optional, any alignment. */
static bool parse_vtop_addr(const char *s, struct cli_options *opts,
			    char *err, size_t err_size)
{
	if (opts->vtop) {
		snprintf(err, err_size,
			 "address given twice: use either 'ptcompare PID ADDR' or 'ptcompare --vtop ADDR PID'");
		return false;
	}
	if (!parse_hex(s, &opts->vtop_addr)) {
		char q[SHOWN_SIZE];

		snprintf(err, err_size,
			 "bad address '%s': expected a hex address, e.g. 0x7f0000001234",
			 shown(s, q));
		return false;
	}
	opts->vtop = true;
	return true;
}

static bool parse_pid(const char *s, pid_t *pid);

/* DEVICE of --iommu DEVICE: a PCI address. */
static bool parse_iommu_device(const char *s, struct cli_options *opts,
			       char *err, size_t err_size)
{
	char q[SHOWN_SIZE];

	if (!pci_address_valid(s)) {
		snprintf(err, err_size,
			 "bad device '%s': expected a PCI address as in /sys/bus/pci/devices, e.g. 0000:00:03.0 (lspci -D)",
			 shown(s, q));
		return false;
	}
	opts->iommu = s;
	return true;
}

/* A device address: hex (its alignment is checked once the page size is known). */
static bool parse_iova(const char *s, uint64_t *iova, char *err,
		       size_t err_size)
{
	char q[SHOWN_SIZE];

	if (!parse_hex(s, iova)) {
		snprintf(err, err_size,
			 "bad IOVA '%s': expected a hex device address, e.g. 0x100000",
			 shown(s, q));
		return false;
	}
	return true;
}

/*
 * The command lines of the device's view: `--iommu DEVICE IOVA` (one
 * device address) or `--iommu DEVICE [--iova IOVA] --range START-END PID`.
 * args are the positional arguments.  False with err set.
 */
static bool check_iommu(struct cli_options *opts, const char *const args[2],
			int nr_args, char *err, size_t err_size)
{
	char q[SHOWN_SIZE];

	if (opts->vtop || opts->stats || opts->jobs || opts->kpageflags ||
	    opts->phys || opts->all || opts->watch_s) {
		snprintf(err, err_size,
			 "--iommu takes none of --vtop, --stats, --jobs, --kpageflags, --phys, --all, --watch");
		return false;
	}
	if (!opts->has_range) {
		if (nr_args != 1 || opts->has_iova) {
			snprintf(err, err_size,
				 "usage: ptcompare --iommu DEVICE IOVA, or ptcompare --iommu DEVICE [--iova IOVA] --range START-END PID");
			return false;
		}
		opts->iommu_translate = true;
		return parse_iova(args[0], &opts->iova, err, err_size);
	}
	if (nr_args != 1 || !parse_pid(args[0], &opts->pid)) {
		snprintf(err, err_size,
			 nr_args == 1 ? "bad PID '%s': expected a positive decimal process id" :
				        "--iommu with --range needs one PID%s",
			 nr_args == 1 ? shown(args[0], q) : "");
		return false;
	}
	if (!opts->has_iova)
		opts->iova = opts->start;	/* IOVA-as-VA */
	if (opts->iova + (opts->end - opts->start) < opts->iova) {
		snprintf(err, err_size,
			 "--iova 0x%llx: the range's device addresses wrap past 2^64",
			 (unsigned long long)opts->iova);
		return false;
	}
	return true;
}

/*
 * --phys ADDR (the frame holding it) or START-END (END exclusive, any
 * alignment: the frames holding START to END - 1), hex.  The page size is
 * the running kernel's, so rounding to frames is the command's.
 */
static bool parse_phys(const char *s, struct cli_options *opts, char *err,
		       size_t err_size)
{
	const char *dash = strchr(s, '-');
	char q[SHOWN_SIZE];

	if (opts->phys) {
		snprintf(err, err_size, "--phys given twice");
		return false;
	}
	if (dash ? !parse_hex_n(s, (size_t)(dash - s), &opts->phys_start) ||
		   !parse_hex(dash + 1, &opts->phys_end) :
		   !parse_hex(s, &opts->phys_start)) {
		snprintf(err, err_size,
			 "bad --phys '%s': expected a hex physical address or START-END, e.g. 0xfd000000-0xfd100000",
			 shown(s, q));
		return false;
	}
	if (!dash)
		opts->phys_end = opts->phys_start + 1;
	if (opts->phys_start >= opts->phys_end) {
		snprintf(err, err_size,
			 "bad --phys '%s': START must be below END (END is exclusive)",
			 shown(s, q));
		return false;
	}
	opts->phys = true;
	return true;
}

/* A decimal option value from lo to hi into *out: false with err set. */
static bool parse_decimal(const char *s, const char *opt, const char *what,
			  unsigned int lo, unsigned int hi, unsigned int *out,
			  char *err, size_t err_size)
{
	char q[SHOWN_SIZE], *end;
	long v;

	errno = 0;
	v = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
	if (v < (long)lo || errno || *end || v > (long)hi) {
		snprintf(err, err_size, "bad %s '%s': expected %s, from %u to %u",
			 opt, shown(s, q), what, lo, hi);
		return false;
	}
	*out = (unsigned int)v;
	return true;
}

/* N of --jobs N: 1 to PTCOMPARE_JOBS_MAX, decimal. */
static bool parse_jobs(const char *s, unsigned int *jobs, char *err,
		       size_t err_size)
{
	char q[SHOWN_SIZE], *end;
	long v;

	errno = 0;
	v = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
	if (v < 1 || errno || *end || v > PTCOMPARE_JOBS_MAX) {
		snprintf(err, err_size,
			 "bad --jobs '%s': expected a number of parallel jobs from 1 to %d",
			 shown(s, q), PTCOMPARE_JOBS_MAX);
		return false;
	}
	*jobs = (unsigned int)v;
	return true;
}

static bool parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > INT_MAX)
		return false;
	*pid = (pid_t)v;
	return true;
}

/*
 * The options, each with whether it takes a value.  A value comes either
 * as the next argument or after '=' in the same one (--range=A-B), as
 * getopt_long(3) reads long options; the parser stays ours, not getopt's,
 * for its global state (optind) and its own messages on stderr.
 */
enum opt_id {
	OPT_FLAG,	/* no value: sets the bool at its offset */
	OPT_VTOP, OPT_JOBS, OPT_RANGE, OPT_DEBUGFS, OPT_DEVICE, OPT_IOMMU,
	OPT_IOVA, OPT_PHYS, OPT_WATCH, OPT_INTERVAL,
};

#define FLAG(name, field) { name, OPT_FLAG, offsetof(struct cli_options, field) }

static const struct {
	const char *name;
	enum opt_id id;
	size_t flag;	/* OPT_FLAG: offset of its bool in cli_options */
} options[] = {
	FLAG("-h", help),
	FLAG("--help", help),
	FLAG("--version", version),
	FLAG("--json", json),
	FLAG("--stats", stats),
	FLAG("--no-progress", no_progress),
	FLAG("--kpageflags", kpageflags),
	FLAG("--all", all),
	FLAG("--dma-api", dma_api),
	{ "--vtop", OPT_VTOP, 0 },
	{ "--jobs", OPT_JOBS, 0 },
	{ "--range", OPT_RANGE, 0 },
	{ "--debugfs", OPT_DEBUGFS, 0 },
	{ "--device", OPT_DEVICE, 0 },
	{ "--iommu", OPT_IOMMU, 0 },
	{ "--iova", OPT_IOVA, 0 },
	{ "--phys", OPT_PHYS, 0 },
	{ "--watch", OPT_WATCH, 0 },
	{ "--interval", OPT_INTERVAL, 0 },
};

/*
 * The option argument a names, its name being the len bytes before any
 * '=': its index in options[], or -1.
 */
static int find_option(const char *a, size_t len)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (strlen(options[i].name) == len &&
		    !strncmp(options[i].name, a, len))
			return (int)i;
	return -1;
}

/* Applies options[k] with value (NULL for a flag): false with err set. */
static bool apply_option(int k, const char *value, struct cli_options *opts,
			 char *err, size_t err_size)
{
	switch (options[k].id) {
	case OPT_FLAG:
		*(bool *)((char *)opts + options[k].flag) = true;
		break;
	case OPT_VTOP:
		return parse_vtop_addr(value, opts, err, err_size);
	case OPT_JOBS:
		return parse_jobs(value, &opts->jobs, err, err_size);
	case OPT_RANGE:
		if (opts->has_range) {
			snprintf(err, err_size, "--range given twice");
			return false;
		}
		if (!cli_parse_range(value, &opts->start, &opts->end, err,
				     err_size))
			return false;
		opts->has_range = true;
		break;
	case OPT_DEBUGFS:
		opts->debugfs = value;
		opts->debugfs_given = true;
		break;
	case OPT_DEVICE:
		opts->device = value;
		opts->device_given = true;
		break;
	case OPT_IOMMU:
		return parse_iommu_device(value, opts, err, err_size);
	case OPT_IOVA:
		if (!parse_iova(value, &opts->iova, err, err_size))
			return false;
		opts->has_iova = true;
		break;
	case OPT_PHYS:
		return parse_phys(value, opts, err, err_size);
	case OPT_WATCH:
		return parse_decimal(value, "--watch", "seconds to watch",
				     1, CLI_WATCH_MAX_S, &opts->watch_s, err,
				     err_size);
	case OPT_INTERVAL:
		return parse_decimal(value, "--interval",
				     "milliseconds between readings",
				     CLI_INTERVAL_MIN_MS, CLI_INTERVAL_MAX_MS,
				     &opts->interval_ms, err, err_size);
	}
	return true;
}

/*
 * The option argv[*i], with its value after '=' or in the next argument
 * (then *i moves on to it): false with err set.
 */
static bool take_option(int argc, char *const argv[], int *i,
			struct cli_options *opts, char *err, size_t err_size)
{
	const char *a = argv[*i];
	/* "--name=value": only long options take the '=' form */
	const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
	int k = find_option(a, eq ? (size_t)(eq - a) : strlen(a));
	const char *value = eq ? eq + 1 : NULL;
	char q[SHOWN_SIZE];

	if (k < 0) {
		snprintf(err, err_size, "unknown option '%s' (see --help)",
			 shown(a, q));
		return false;
	}
	if (options[k].id == OPT_FLAG) {
		if (eq) {
			snprintf(err, err_size,
				 "%s takes no value: write '%s' alone",
				 options[k].name, options[k].name);
			return false;
		}
	} else if (!eq || !*value) {
		if (eq || *i + 1 >= argc) {
			snprintf(err, err_size, "%s needs a value",
				 options[k].name);
			return false;
		}
		value = argv[++*i];
	}
	return apply_option(k, value, opts, err, err_size);
}

/* --phys looks at every process: what only a scan of one process takes. */
static bool check_phys(const struct cli_options *opts, bool have_pid,
		       char *err, size_t err_size)
{
	const char *extra = have_pid ? "the PID" :
			    opts->vtop ? "--vtop" :
			    opts->all ? "--all" :
			    opts->watch_s ? "--watch" :
			    opts->has_range ? "--range" :
			    opts->kpageflags ? "--kpageflags" :
			    opts->jobs ? "--jobs" :
			    opts->stats ? "--stats" : NULL;

	if (extra) {
		snprintf(err, err_size,
			 "--phys looks at every process: drop %s (usage: ptcompare [--json] --phys ADDR[-END])",
			 extra);
		return false;
	}
	return true;
}

/* --watch follows a range of one process: the range and PID it needs. */
static bool check_watch(const struct cli_options *opts, bool have_pid,
			char *err, size_t err_size)
{
	const char *extra = opts->vtop ? "--vtop" :
			    opts->kpageflags ? "--kpageflags" :
			    opts->jobs ? "--jobs" : NULL;

	if (extra) {
		snprintf(err, err_size, "--watch reads a range again and again: drop %s",
			 extra);
		return false;
	}
	if (!have_pid || !opts->has_range) {
		snprintf(err, err_size,
			 "--watch needs --range START-END and a PID (usage: ptcompare --watch SECONDS --range START-END PID)");
		return false;
	}
	return true;
}

/* --all scans every process: what names one process or one address. */
static bool check_all(const struct cli_options *opts, bool have_pid,
		      char *err, size_t err_size)
{
	const char *extra = have_pid ? "the PID" :
			    opts->vtop ? "--vtop" :
			    opts->watch_s ? "--watch" :
			    opts->has_range ? "--range" : NULL;

	if (extra) {
		snprintf(err, err_size,
			 "--all scans every process: drop %s (usage: ptcompare [--json] [--stats] --all)",
			 extra);
		return false;
	}
	return true;
}

bool cli_parse(int argc, char *const argv[], struct cli_options *opts,
	       char *err, size_t err_size)
{
	bool have_pid = false, positional_addr = false;
	const char *args[2];
	int nr_args = 0;
	char q[SHOWN_SIZE];
	int i;

	memset(opts, 0, sizeof(*opts));
	opts->debugfs = PTWALK_DEFAULT_DEBUGFS;
	opts->device = PTWALK_DEFAULT_DEVICE;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '-' && a[1]) {
			if (!take_option(argc, argv, &i, opts, err, err_size))
				return false;
			/* help and version ignore whatever follows */
			if (opts->help || opts->version)
				return true;
		} else if (nr_args < 2) {
			args[nr_args++] = a;
		} else {
			snprintf(err, err_size, "unexpected argument '%s' (see --help)",
				 shown(a, q));
			return false;
		}
	}
	if (opts->iommu)
		return check_iommu(opts, args, nr_args, err, err_size);
	if (opts->has_iova || opts->dma_api) {
		snprintf(err, err_size, "%s applies to --iommu only",
			 opts->has_iova ? "--iova" : "--dma-api");
		return false;
	}
	for (i = 0; i < nr_args; i++) {
		const char *a = args[i];

		if (!have_pid) {
			if (!parse_pid(a, &opts->pid)) {
				snprintf(err, err_size,
					 "bad PID '%s': expected a positive decimal process id",
					 shown(a, q));
				return false;
			}
			have_pid = true;
		} else if (!positional_addr) {
			if (!parse_vtop_addr(a, opts, err, err_size))
				return false;
			positional_addr = true;
		} else {
			snprintf(err, err_size, "unexpected argument '%s' (see --help)",
				 shown(a, q));
			return false;
		}
	}
	if (opts->phys)
		return check_phys(opts, have_pid, err, err_size);
	if (opts->all)
		return check_all(opts, have_pid, err, err_size);
	if (opts->interval_ms && !opts->watch_s) {
		snprintf(err, err_size, "--interval applies to --watch: add --watch SECONDS");
		return false;
	}
	if (opts->watch_s && !check_watch(opts, have_pid, err, err_size))
		return false;
	if (!have_pid) {
		snprintf(err, err_size, "missing PID (usage: ptcompare [--json] [--range START-END] PID [ADDR])");
		return false;
	}
	if (opts->vtop && opts->has_range) {
		snprintf(err, err_size,
			 "--range does not apply to one address (vtop): give either --range or ADDR");
		return false;
	}
	if (opts->vtop && opts->stats) {
		snprintf(err, err_size,
			 "--stats counts a scan, not one address (vtop): drop --stats");
		return false;
	}
	if (opts->vtop && opts->jobs) {
		snprintf(err, err_size,
			 "--jobs splits a scan, not one address (vtop): drop --jobs");
		return false;
	}
	if (opts->vtop && opts->kpageflags) {
		snprintf(err, err_size,
			 "--kpageflags checks a scan, not one address (vtop): drop --kpageflags");
		return false;
	}
	return true;
}
