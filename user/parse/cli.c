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
#include "parse/hex.h"

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
	size_t i = 0;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	return i < len && hex_scan(s + i, len - i, out) == s + len;
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

/*
 * What a command line gave, one bit each, in the order a refusal names
 * them (the first refused is named): the positional PID and ADDR, the
 * options that pick a mode, then those that shape one.
 */
enum arg {
	ARG_PID, ARG_ADDR, ARG_PHYS, ARG_ALL, ARG_WATCH, ARG_IOMMU,
	ARG_RANGE, ARG_IOVA, ARG_DMA_API, ARG_LIVE_DOMAIN, ARG_INTERVAL, ARG_KPAGEFLAGS,
	ARG_JOBS, ARG_STATS, ARG_HELP, ARG_VERSION, ARG_FAULTS, ARG_SINCE,
	ARG_FAULT_LINE, ARG_FAULT_FILE, ARG_DMA_TRACK, ARG_OFF, ARG_DMA, NR_ARGS
};

#define BIT(a) (1u << (a))

/* How a refusal names each argument. */
static const char *const arg_names[NR_ARGS] = {
	[ARG_PID] = "the PID", [ARG_ADDR] = "--vtop", [ARG_PHYS] = "--phys",
	[ARG_ALL] = "--all", [ARG_WATCH] = "--watch", [ARG_IOMMU] = "--iommu",
	[ARG_RANGE] = "--range", [ARG_IOVA] = "--iova",
	[ARG_DMA_API] = "--dma-api", [ARG_LIVE_DOMAIN] = "--live-domain",
	[ARG_INTERVAL] = "--interval", [ARG_KPAGEFLAGS] = "--kpageflags",
	[ARG_JOBS] = "--jobs", [ARG_STATS] = "--stats", [ARG_HELP] = "--help",
	[ARG_VERSION] = "--version", [ARG_FAULTS] = "--faults",
	[ARG_SINCE] = "--since", [ARG_FAULT_LINE] = "--fault-line",
	[ARG_FAULT_FILE] = "--fault-file",
	[ARG_DMA_TRACK] = "--dma-track", [ARG_OFF] = "--off",
	[ARG_DMA] = "--dma",
};

/* The parse in progress: the options, what was given, the positionals. */
struct parse {
	struct cli_options *o;
	unsigned int given;	/* BIT(ARG_*) */
	const char *args[2];
	int nr_args;
	char *err;
	size_t err_size;
};

bool cli_clip(const struct cli_options *o, uint64_t start, uint64_t end,
	      uint64_t *cstart, uint64_t *cend)
{
	*cstart = start;
	*cend = end;
	if (o->has_range) {
		*cstart = start > o->start ? start : o->start;
		*cend = end < o->end ? end : o->end;
	}
	return *cstart < *cend;
}

/* ADDR of `PID ADDR` or `--vtop ADDR`: hex, 0x optional, any alignment. */
static bool parse_vtop_addr(const char *s, struct parse *p)
{
	if (p->given & BIT(ARG_ADDR)) {
		snprintf(p->err, p->err_size,
			 "address given twice: use either 'ptcompare PID ADDR' or 'ptcompare --vtop ADDR PID'");
		return false;
	}
	if (!parse_hex(s, &p->o->vtop_addr)) {
		char q[SHOWN_SIZE];

		snprintf(p->err, p->err_size,
			 "bad address '%s': expected a hex address, e.g. 0x7f0000001234",
			 shown(s, q));
		return false;
	}
	p->given |= BIT(ARG_ADDR);
	return true;
}

static bool parse_pid(const char *s, pid_t *pid);

/* DEVICE of --iommu DEVICE: a PCI address. */
static bool parse_pci_device(const char *s, const char **device,
			     char *err, size_t err_size)
{
	char q[SHOWN_SIZE];

	if (!pci_address_valid(s)) {
		snprintf(err, err_size,
			 "bad device '%s': expected a PCI address as in /sys/bus/pci/devices, e.g. 0000:00:03.0 (lspci -D)",
			 shown(s, q));
		return false;
	}
	*device = s;
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
 * --phys ADDR (the frame holding it) or START-END (END exclusive, any
 * alignment: the frames holding START to END - 1), hex.  The page size is
 * the running kernel's, so rounding to frames is the mode's.
 */
static bool parse_phys(const char *s, struct parse *p)
{
	struct cli_options *opts = p->o;
	const char *dash = strchr(s, '-');
	char q[SHOWN_SIZE];

	if (p->given & BIT(ARG_PHYS)) {
		snprintf(p->err, p->err_size, "--phys given twice");
		return false;
	}
	if (dash ? !parse_hex_n(s, (size_t)(dash - s), &opts->phys_start) ||
		   !parse_hex(dash + 1, &opts->phys_end) :
		   !parse_hex(s, &opts->phys_start)) {
		snprintf(p->err, p->err_size,
			 "bad --phys '%s': expected a hex physical address or START-END, e.g. 0xfd000000-0xfd100000",
			 shown(s, q));
		return false;
	}
	if (!dash)
		opts->phys_end = opts->phys_start + 1;
	if (opts->phys_start >= opts->phys_end) {
		snprintf(p->err, p->err_size,
			 "bad --phys '%s': START must be below END (END is exclusive)",
			 shown(s, q));
		return false;
	}
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
	OPT_FLAG,	/* no value: sets the bool at its offset, if any */
	OPT_VTOP, OPT_JOBS, OPT_RANGE, OPT_DEBUGFS, OPT_DEVICE, OPT_IOMMU,
	OPT_IOVA, OPT_PHYS, OPT_WATCH, OPT_INTERVAL, OPT_SINCE, OPT_FAULT_LINE,
	OPT_FAULT_FILE,
	OPT_DMA_TRACK, OPT_DMA,
};

/* A flag with a bool of cli_options, or one that only picks a mode. */
#define FLAG(name, field, arg) \
	{ name, OPT_FLAG, offsetof(struct cli_options, field), arg }
#define MODE_FLAG(name, arg) { name, OPT_FLAG, 0, arg }
#define VALUE(name, id, arg) { name, id, 0, arg }

static const struct {
	const char *name;
	enum opt_id id;
	size_t flag;	/* FLAG: offset of its bool in cli_options; else 0 */
	int arg;	/* the enum arg it counts as, or -1 */
} options[] = {
	MODE_FLAG("-h", ARG_HELP),
	MODE_FLAG("--help", ARG_HELP),
	MODE_FLAG("--version", ARG_VERSION),
	FLAG("--json", json, -1),
	FLAG("--stats", stats, ARG_STATS),
	FLAG("--no-progress", no_progress, -1),
	FLAG("--kpageflags", kpageflags, ARG_KPAGEFLAGS),
	MODE_FLAG("--all", ARG_ALL),
	FLAG("--dma-api", dma_api, ARG_DMA_API),
	FLAG("--live-domain", live_domain, ARG_LIVE_DOMAIN),
	VALUE("--vtop", OPT_VTOP, -1),	/* counts as ARG_ADDR once parsed */
	VALUE("--jobs", OPT_JOBS, ARG_JOBS),
	VALUE("--range", OPT_RANGE, -1),	/* ARG_RANGE once parsed */
	VALUE("--debugfs", OPT_DEBUGFS, -1),
	VALUE("--device", OPT_DEVICE, -1),
	VALUE("--iommu", OPT_IOMMU, ARG_IOMMU),
	VALUE("--iova", OPT_IOVA, ARG_IOVA),
	VALUE("--phys", OPT_PHYS, -1),	/* ARG_PHYS once parsed */
	VALUE("--watch", OPT_WATCH, ARG_WATCH),
	VALUE("--interval", OPT_INTERVAL, ARG_INTERVAL),
	MODE_FLAG("--faults", ARG_FAULTS),
	VALUE("--since", OPT_SINCE, ARG_SINCE),
	VALUE("--fault-line", OPT_FAULT_LINE, ARG_FAULT_LINE),
	VALUE("--fault-file", OPT_FAULT_FILE, ARG_FAULT_FILE),
	VALUE("--dma-track", OPT_DMA_TRACK, ARG_DMA_TRACK),
	FLAG("--off", dma_off, ARG_OFF),
	VALUE("--dma", OPT_DMA, ARG_DMA),
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

/* --range START-END, once. */
static bool parse_range_opt(const char *value, struct parse *p)
{
	if (p->given & BIT(ARG_RANGE)) {
		snprintf(p->err, p->err_size, "--range given twice");
		return false;
	}
	if (!cli_parse_range(value, &p->o->start, &p->o->end, p->err,
			     p->err_size))
		return false;
	p->o->has_range = true;
	return true;
}

/* The value of options[k] (not a flag): false with err set. */
static bool apply_value(int k, const char *value, struct parse *p)
{
	struct cli_options *opts = p->o;
	char *err = p->err;
	size_t err_size = p->err_size;

	switch (options[k].id) {
	case OPT_FLAG:
		break;
	case OPT_VTOP:
		return parse_vtop_addr(value, p);
	case OPT_JOBS:
		return parse_jobs(value, &opts->jobs, err, err_size);
	case OPT_RANGE:
		return parse_range_opt(value, p);
	case OPT_DEBUGFS:
		opts->debugfs = value;
		opts->debugfs_given = true;
		break;
	case OPT_DEVICE:
		opts->device = value;
		opts->device_given = true;
		break;
	case OPT_IOMMU:
		return parse_pci_device(value, &opts->iommu, err, err_size);
	case OPT_IOVA:
		if (!parse_iova(value, &opts->iova, err, err_size))
			return false;
		opts->has_iova = true;
		break;
	case OPT_PHYS:
		return parse_phys(value, p);
	case OPT_WATCH:
		return parse_decimal(value, "--watch", "seconds to watch",
				     1, CLI_WATCH_MAX_S, &opts->watch_s, err,
				     err_size);
	case OPT_INTERVAL:
		return parse_decimal(value, "--interval",
				     "milliseconds between readings",
				     CLI_INTERVAL_MIN_MS, CLI_INTERVAL_MAX_MS,
				     &opts->interval_ms, err, err_size);
	case OPT_SINCE:
		return parse_decimal(value, "--since", "seconds back in the log",
				     1, CLI_SINCE_MAX_S, &opts->since_s, err,
				     err_size);
	case OPT_FAULT_LINE:
		opts->fault_line = value;
		break;
	case OPT_FAULT_FILE:
		opts->fault_file = value;
		break;
	case OPT_DMA_TRACK:
		return parse_pci_device(value, &opts->dma_track, err, err_size);
	case OPT_DMA:
		return parse_pci_device(value, &opts->dma, err, err_size);
	}
	return true;
}

/* Applies options[k] with value (NULL for a flag): false with err set. */
static bool apply_option(int k, const char *value, struct parse *p)
{
	if (options[k].id == OPT_FLAG && options[k].flag)
		*(bool *)((char *)p->o + options[k].flag) = true;
	if (!apply_value(k, value, p))
		return false;
	if (options[k].arg >= 0)
		p->given |= BIT(options[k].arg);
	if (options[k].id == OPT_RANGE)
		p->given |= BIT(ARG_RANGE);
	if (options[k].id == OPT_PHYS)
		p->given |= BIT(ARG_PHYS);
	return true;
}

/*
 * The option argv[*i], with its value after '=' or in the next argument
 * (then *i moves on to it): false with err set.
 */
static bool take_option(int argc, char *const argv[], int *i,
			struct parse *p)
{
	const char *a = argv[*i];
	/* "--name=value": only long options take the '=' form */
	const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
	int k = find_option(a, eq ? (size_t)(eq - a) : strlen(a));
	const char *value = eq ? eq + 1 : NULL;
	char q[SHOWN_SIZE];

	if (k < 0) {
		snprintf(p->err, p->err_size, "unknown option '%s' (see --help)",
			 shown(a, q));
		return false;
	}
	if (options[k].id == OPT_FLAG) {
		if (eq) {
			snprintf(p->err, p->err_size,
				 "%s takes no value: write '%s' alone",
				 options[k].name, options[k].name);
			return false;
		}
	} else if (!eq || !*value) {
		if (eq || *i + 1 >= argc) {
			snprintf(p->err, p->err_size, "%s needs a value",
				 options[k].name);
			return false;
		}
		value = argv[++*i];
	}
	return apply_option(k, value, p);
}

/*
 * Each mode: what picks it, what it accepts beside that, what it needs,
 * and how it refuses the rest.  A refusal's %s is the argument refused
 * (arg_names[]), given twice for the formats that name it twice.  The
 * rows are in the modes' precedence; a scan is the mode when no other is
 * picked.  --json, --debugfs, --device and --no-progress go with every
 * mode.
 */
static const struct mode_rule {
	enum mode mode;
	int picked_by;		/* the enum arg that selects it, or -1 */
	unsigned int with;	/* BIT(ARG_*) it needs beside to be picked */
	unsigned int accepts;	/* BIT(ARG_*) */
	unsigned int needs;	/* BIT(ARG_*), said by missing */
	const char *refusal;
	const char *missing;
} mode_rules[] = {
	{ MODE_HELP, ARG_HELP, 0, ~0u, 0, NULL, NULL },
	{ MODE_VERSION, ARG_VERSION, 0, ~0u, 0, NULL, NULL },
	{ MODE_FAULTS, ARG_FAULTS, 0,
	  BIT(ARG_SINCE) | BIT(ARG_FAULT_LINE) | BIT(ARG_FAULT_FILE) |
	  BIT(ARG_DMA_API) | BIT(ARG_LIVE_DOMAIN), 0,
	  "--faults reads the kernel log: drop %s (usage: ptcompare [--json] --faults [--since SECONDS] [--dma-api | --live-domain], or --faults --fault-line TEXT, or --faults --fault-file FILE|-)",
	  NULL },
	{ MODE_DMA_TRACK, ARG_DMA_TRACK, 0, BIT(ARG_OFF), 0,
	  "--dma-track starts or stops tracking a device: drop %s (usage: ptcompare --dma-track DEVICE [--off])",
	  NULL },
	{ MODE_DMA, ARG_DMA, 0, BIT(ARG_DMA_API) | BIT(ARG_RANGE), 0,
	  "--dma lists a device's DMA mappings: drop %s (usage: ptcompare [--json] --dma DEVICE [--dma-api] [--range START-END])",
	  NULL },
	/* no positionals; its --range is of device addresses */
	{ MODE_IOMMU_WATCH, ARG_IOMMU, BIT(ARG_WATCH),
	  BIT(ARG_WATCH) | BIT(ARG_RANGE) | BIT(ARG_INTERVAL) |
	  BIT(ARG_LIVE_DOMAIN), 0,
	  "--iommu with --watch follows the device's IOVAs: drop %s (usage: ptcompare [--json] --iommu DEVICE --watch SECONDS [--interval MS] [--range START-END] [--live-domain])",
	  NULL },
	/* its positionals are its own: iommu_args() */
	{ MODE_IOMMU, ARG_IOMMU, 0,
	  BIT(ARG_PID) | BIT(ARG_ADDR) | BIT(ARG_RANGE) | BIT(ARG_IOVA) |
	  BIT(ARG_DMA_API) | BIT(ARG_LIVE_DOMAIN), 0,
	  "--iommu takes none of --vtop, --stats, --jobs, --kpageflags, --phys, --all, --interval: drop %s",
	  NULL },
	{ MODE_PHYS, ARG_PHYS, 0, 0, 0,
	  "--phys looks at every process: drop %s (usage: ptcompare [--json] --phys ADDR[-END])",
	  NULL },
	{ MODE_ALL, ARG_ALL, 0,
	  BIT(ARG_KPAGEFLAGS) | BIT(ARG_JOBS) | BIT(ARG_STATS), 0,
	  "--all scans every process: drop %s (usage: ptcompare [--json] [--stats] --all)",
	  NULL },
	{ MODE_WATCH, ARG_WATCH, 0,
	  BIT(ARG_PID) | BIT(ARG_RANGE) | BIT(ARG_INTERVAL) | BIT(ARG_STATS),
	  BIT(ARG_PID) | BIT(ARG_RANGE),
	  "--watch reads a range again and again: drop %s",
	  "--watch needs --range START-END and a PID (usage: ptcompare --watch SECONDS --range START-END PID)" },
	{ MODE_VTOP, ARG_ADDR, 0, BIT(ARG_PID), BIT(ARG_PID),
	  "%s does not apply to one address (vtop): drop %s",
	  "missing PID (usage: ptcompare [--json] [--range START-END] PID [ADDR])" },
	{ MODE_SCAN, -1, 0,
	  BIT(ARG_PID) | BIT(ARG_RANGE) | BIT(ARG_KPAGEFLAGS) | BIT(ARG_JOBS) |
	  BIT(ARG_STATS), BIT(ARG_PID), NULL,
	  "missing PID (usage: ptcompare [--json] [--range START-END] PID [ADDR])" },
};

/* Options that belong to one mode: refused elsewhere with their owner. */
static const char *const owner[NR_ARGS] = {
	[ARG_IOVA] = "--iommu", [ARG_DMA_API] = "--iommu",
	[ARG_LIVE_DOMAIN] = "--iommu",
	[ARG_INTERVAL] = "--watch", [ARG_SINCE] = "--faults",
	[ARG_FAULT_LINE] = "--faults", [ARG_FAULT_FILE] = "--faults",
	[ARG_OFF] = "--dma-track",
};

/* The mode's row: the first picked, in precedence. */
static const struct mode_rule *pick_mode(unsigned int given)
{
	size_t n = sizeof(mode_rules) / sizeof(mode_rules[0]);

	for (size_t i = 0; i < n - 1; i++)
		if ((given & BIT(mode_rules[i].picked_by)) &&
		    (given & mode_rules[i].with) == mode_rules[i].with)
			return &mode_rules[i];
	return &mode_rules[n - 1];
}

/* Whether the mode takes every argument given and has what it needs. */
static bool check_mode(const struct mode_rule *m, struct parse *p)
{
	unsigned int extra = p->given & ~m->accepts;

	if (m->picked_by >= 0)
		extra &= ~BIT(m->picked_by);
	for (int a = 0; a < NR_ARGS; a++) {
		if (!(extra & BIT(a)))
			continue;
		/* an option of the picker's other mode: the mode's refusal */
		if (owner[a] && (m->picked_by < 0 ||
				 strcmp(owner[a], arg_names[m->picked_by])))
			snprintf(p->err, p->err_size, "%s applies to %s only",
				 arg_names[a], owner[a]);
		else
			snprintf(p->err, p->err_size, m->refusal,
				 arg_names[a], arg_names[a]);
		return false;
	}
	if ((p->given & m->needs) != m->needs) {
		snprintf(p->err, p->err_size, "%s", m->missing);
		return false;
	}
	return true;
}

/*
 * The positionals of the device's view: `--iommu DEVICE IOVA` (one
 * device address) or `--iommu DEVICE [--iova IOVA] --range START-END
 * PID`.  False with err set.
 */
static bool iommu_args(struct parse *p)
{
	struct cli_options *opts = p->o;
	char q[SHOWN_SIZE];

	if (!opts->has_range) {
		if (p->nr_args != 1 || opts->has_iova) {
			snprintf(p->err, p->err_size,
				 "usage: ptcompare --iommu DEVICE IOVA, or ptcompare --iommu DEVICE [--iova IOVA] --range START-END PID");
			return false;
		}
		opts->iommu_translate = true;
		return parse_iova(p->args[0], &opts->iova, p->err, p->err_size);
	}
	if (p->nr_args != 1 || !parse_pid(p->args[0], &opts->pid)) {
		snprintf(p->err, p->err_size,
			 p->nr_args == 1 ? "bad PID '%s': expected a positive decimal process id" :
					   "--iommu with --range needs one PID%s",
			 p->nr_args == 1 ? shown(p->args[0], q) : "");
		return false;
	}
	if (!opts->has_iova)
		opts->iova = opts->start;	/* IOVA-as-VA */
	if (opts->iova + (opts->end - opts->start) < opts->iova) {
		snprintf(p->err, p->err_size,
			 "--iova 0x%llx: the range's device addresses wrap past 2^64",
			 (unsigned long long)opts->iova);
		return false;
	}
	return true;
}

/* A mode that takes no PID or address: false with err set if given. */
static bool no_positionals(struct parse *p, const char *mode)
{
	char q[SHOWN_SIZE];

	if (!p->nr_args)
		return true;
	snprintf(p->err, p->err_size, "%s takes no PID or address: drop '%s'",
		 mode, shown(p->args[0], q));
	return false;
}

/* PID, then ADDR: the positionals of every mode but --iommu. */
static bool pid_and_addr(struct parse *p)
{
	char q[SHOWN_SIZE];

	if (p->nr_args >= 1) {
		if (!parse_pid(p->args[0], &p->o->pid)) {
			snprintf(p->err, p->err_size,
				 "bad PID '%s': expected a positive decimal process id",
				 shown(p->args[0], q));
			return false;
		}
		p->given |= BIT(ARG_PID);
	}
	return p->nr_args < 2 || parse_vtop_addr(p->args[1], p);
}

/* The options and positionals of argv into p: false with err set. */
static bool take_args(int argc, char *const argv[], struct parse *p)
{
	char q[SHOWN_SIZE];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '-' && a[1]) {
			if (!take_option(argc, argv, &i, p))
				return false;
			/* help and version ignore whatever follows */
			if (p->given & (BIT(ARG_HELP) | BIT(ARG_VERSION)))
				return true;
		} else if (p->nr_args < 2) {
			p->args[p->nr_args++] = a;
		} else {
			snprintf(p->err, p->err_size,
				 "unexpected argument '%s' (see --help)",
				 shown(a, q));
			return false;
		}
	}
	return true;
}

bool cli_parse(int argc, char *const argv[], struct cli_options *opts,
	       char *err, size_t err_size)
{
	struct parse p = { .o = opts, .err = err, .err_size = err_size };
	const struct mode_rule *m;

	memset(opts, 0, sizeof(*opts));
	opts->debugfs = PTWALK_DEFAULT_DEBUGFS;
	opts->device = PTWALK_DEFAULT_DEVICE;
	if (!take_args(argc, argv, &p))
		return false;
	m = pick_mode(p.given);
	if (m->mode == MODE_IOMMU_WATCH) {
		if (!check_mode(m, &p) || !no_positionals(&p, "--iommu with --watch"))
			return false;
	} else if (m->mode == MODE_IOMMU) {
		if (!check_mode(m, &p) || !iommu_args(&p))
			return false;
	} else if (m->mode == MODE_DMA_TRACK || m->mode == MODE_DMA) {
		if (!check_mode(m, &p) ||
		    !no_positionals(&p, arg_names[m->picked_by]))
			return false;
	} else if (m->mode == MODE_FAULTS) {
		if (!check_mode(m, &p) || !no_positionals(&p, "--faults"))
			return false;
		if (opts->since_s && (opts->fault_line || opts->fault_file)) {
			snprintf(err, err_size,
				 "--since reads the log, %s text given: drop one",
				 opts->fault_line ? "--fault-line" : "--fault-file");
			return false;
		}
		if (opts->fault_line && opts->fault_file) {
			snprintf(err, err_size,
				 "--fault-line and --fault-file both give the text to read: drop one");
			return false;
		}
	} else if (m->mode != MODE_HELP && m->mode != MODE_VERSION) {
		if (!pid_and_addr(&p))
			return false;
		m = pick_mode(p.given);
		if (!check_mode(m, &p))
			return false;
	}
	opts->mode = m->mode;
	return true;
}
