/* SPDX-License-Identifier: GPL-2.0 */
/* Command line of ptcompare: pure parsing, no I/O. */
#ifndef PTCOMPARE_CLI_H
#define PTCOMPARE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What ptcompare does, one per run: the mode.  The command line picks it
 * (cli_parse()), cmd/ptcompare.c's table of modes runs it.  The order is
 * the precedence when a command line names two: --help first, then
 * --version, --faults, --dma-track, --dma, --iommu with --watch, --iommu,
 * --phys, --all,
 * --watch, an address (vtop), and a scan when none is named.
 */
enum mode {
	MODE_SCAN,	/* every VMA of one process: pagemap against ptwalk */
	MODE_VTOP,	/* one address, level by level */
	MODE_IOMMU,	/* the device's view of a range, or of one IOVA */
	MODE_PHYS,	/* who maps a physical range */
	MODE_ALL,	/* every user process */
	MODE_WATCH,	/* a range over time */
	MODE_FAULTS,	/* the IOMMU faults of the kernel log, explained */
	MODE_IOMMU_WATCH, /* a device's IOMMU maps and unmaps as they happen */
	MODE_DMA_TRACK,	/* start or stop tracking a device's DMA mappings */
	MODE_DMA,	/* a tracked device's live DMA mappings, checked */
	MODE_HELP,
	MODE_VERSION,
	NR_MODES
};

struct cli_options {
	enum mode mode;
	pid_t pid;
	uint64_t vtop_addr;	/* MODE_VTOP: the address */
	bool has_range;
	uint64_t start;		/* page aligned; MODE_IOMMU_WATCH: */
	uint64_t end;		/* exclusive, page aligned; device addresses */
	const char *debugfs;	/* debugfs mount point */
	bool debugfs_given;	/* --debugfs: only debugfs is tried */
	const char *device;	/* ptwalk's device node */
	bool device_given;	/* --device: only the device is tried */
	bool json;		/* one JSON document instead of the report */
	bool stats;		/* a line of counters on stderr at the end */
	bool no_progress;	/* no progress line, even on a terminal */
	bool kpageflags;	/* the third witness, /proc/kpageflags */
	unsigned int jobs;	/* --jobs N, 1..PTCOMPARE_JOBS_MAX; 0: not given */
	const char *iommu;	/* --iommu DEVICE: the device's view; NULL: not */
	bool has_iova;		/* --iova IOVA given: device address of start */
	bool dma_api;		/* --dma-api: read a DMA-API domain too */
	bool live_domain;	/* --live-domain: read any paging domain
				 * while its owner runs, stopping nobody
				 */
	uint64_t iova;		/* page aligned */
	bool iommu_translate;	/* --iommu DEVICE IOVA: one device address,
				 * iova, no process
				 */
	unsigned int watch_s;	/* --watch SECONDS; 0: not given */
	unsigned int interval_ms; /* --interval MS; 0: not given */
	/* MODE_PHYS: who maps [phys_start, phys_end) */
	uint64_t phys_start;	/* physical, any alignment (the mode */
	uint64_t phys_end;	/* rounds out to pages); end exclusive */
	/* MODE_FAULTS */
	unsigned int since_s;	/* --since SECONDS; 0: the whole log */
	const char *fault_line;	/* --fault-line TEXT; NULL: read the log */
	const char *fault_file;	/* --fault-file FILE, "-" stdin; NULL: none */
	/* MODE_DMA_TRACK */
	const char *dma_track;	/* --dma-track DEVICE */
	bool dma_off;		/* --off: stop tracking it */
	/* MODE_DMA */
	const char *dma;	/* --dma DEVICE */
};

/*
 * Parses argv.  Returns true with opts filled, or false with a one-line
 * reason in err (what is wrong and how to fix it).
 */
bool cli_parse(int argc, char *const argv[], struct cli_options *opts,
	       char *err, size_t err_size);

/*
 * Whether START and END are multiples of the kernel's page size, known
 * only once ptwalk.ko is open (cli_parse_range() cannot check it): 0, or
 * -1 with the one-line reason in err.
 */
int cli_check_range_pages(uint64_t start, uint64_t end, uint64_t page_size,
			  char *err, size_t err_size);

/* Parses "START-END" (hex, 0x optional, END exclusive, page aligned). */
bool cli_parse_range(const char *s, uint64_t *start, uint64_t *end,
		     char *err, size_t err_size);

/*
 * The part of [start, end) inside o's --range (all of it without one)
 * into [*cstart, *cend): false if none.
 */
bool cli_clip(const struct cli_options *o, uint64_t start, uint64_t end,
	      uint64_t *cstart, uint64_t *cend);

#endif /* PTCOMPARE_CLI_H */
