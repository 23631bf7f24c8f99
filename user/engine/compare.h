/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comparison engine: walks a piece of the address space page by page,
 * pagemap entries on one side and ptwalk records on the other, classifies
 * every page, re-reads what differs, and hands out merged ranges
 * (verdict_range) in address order.
 *
 * It does no I/O itself: both sources come through struct compare_io, so
 * unit tests drive it with synthetic data.  Memory is fixed when the engine
 * is created (one batch of pages and one buffer of records per stream),
 * whatever the size of the piece.
 */
#ifndef PTCOMPARE_COMPARE_H
#define PTCOMPARE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "engine/classify.h"
#include "engine/ranges.h"
#include "engine/window.h"

/* How often differing pages are read again before they are a mismatch. */
#define COMPARE_MAX_REREADS	3

enum compare_stream {
	COMPARE_SCAN,		/* the pass over the whole piece */
	COMPARE_REREAD,		/* re-reads of differing pages */
	NR_COMPARE_STREAMS,
};

struct compare_io {
	/*
	 * Fills out[0..n) with the raw pagemap entries of the n pages from
	 * addr.  0, or -errno (-ESRCH when the process is gone).
	 */
	int (*read_pagemap)(void *ctx, uint64_t addr, size_t n, uint64_t *out);
	/* Starts a ptwalk query for [start, end) on stream s: 0 or -errno. */
	int (*walk_query)(void *ctx, enum compare_stream s, uint64_t start,
			  uint64_t end);
	/*
	 * The next records of stream s, with their memory type, pinned
	 * state and node: count, 0 at the end, or -errno.
	 */
	ssize_t (*walk_read)(void *ctx, enum compare_stream s,
			     struct ptwalk_record_ext *recs, size_t max);
	void *ctx;
};

/* Huge-page kinds seen in a range (bits of compare_summary.huge). */
#define HUGE_THP		(1U << 0) /* THP mapped by a PMD */
#define HUGE_THP_PTE		(1U << 1) /* compound page mapped by PTEs */
#define HUGE_ZERO		(1U << 2) /* the huge zero page */
#define HUGE_HUGETLB_2M		(1U << 3)
#define HUGE_HUGETLB_1G		(1U << 4)
#define HUGE_PFNMAP		(1U << 5) /* PMD/PUD leaf in a VM_PFNMAP VMA */
#define HUGE_HUGETLB_64K	(1U << 6) /* 16 contiguous PTEs (arm64) */
#define HUGE_HUGETLB_32M	(1U << 7) /* 16 contiguous PMDs (arm64) */
#define HUGE_CONT		(1U << 8) /* arm64 contiguous PTEs outside
					   * hugetlb (contpte, 6.9+)
					   */
#define NR_HUGE_KINDS		9

/* Name of huge kind bit number i ("thp", "hugetlb-2M", ...), or NULL. */
const char *huge_kind_name(unsigned int i);

struct compare_summary;

/* What the kernel said about one record: which huge kind it shows. */
unsigned int huge_kind_of(const struct ptwalk_record *r);

/*
 * Adds the huge kind of a record to sum: with a folio size, hugetlb pages
 * and mTHP by their size; contiguous groups outside hugetlb as "cont".
 * page_shift: the kernel's.
 */
void huge_observe(struct compare_summary *sum,
		  const struct ptwalk_record_ext *x, unsigned int page_shift);

/* Longest name huge_kind_names() writes, with its NUL. */
#define HUGE_NAME_MAX	24

/*
 * The names of the kinds in sum, in a fixed order ("thp", "hugetlb-2M",
 * "mthp-64K", "cont", ...): how many were written to names (at most max).
 */
size_t huge_kind_names(const struct compare_summary *sum,
		       char (*names)[HUGE_NAME_MAX], size_t max);

/* Ors the huge kinds of part into sum. */
void huge_add(struct compare_summary *sum, const struct compare_summary *part);

struct compare_summary {
	uint64_t pages[NR_CLASSES];
	unsigned int huge;	/* HUGE_* seen */
	/*
	 * From folio sizes (ptwalk_record_ext.folio_shift): bit s, folios of 2^s bytes.
	 * hugetlb pages (named by size instead of the HUGE_HUGETLB_* bits,
	 * which are set only for a record without a folio size), and large
	 * folios smaller than a PMD
	 * mapped by PTEs: multi-size THP (6.8+), named mthp-SIZE.
	 */
	uint64_t hugetlb_shifts;
	uint64_t mthp_shifts;
	uint64_t vm_flags;	/* PTWALK_VM_* of the VMA, as ptwalk saw it */
	int have_vm_flags;	/* a record inside a VMA was seen */
	uint64_t rereads;	/* spans of differing pages read again */
};

/*
 * The verdict on one page on its own: x is the record covering addr, raw
 * its pagemap entry; the page's memory type, pinned state and node come
 * from x (page_detail.walk).  compare_piece() gives every page this
 * verdict (a re-read's, after a first mismatch), whether it judges the
 * page alone or as part of a segment.
 */
void compare_page_verdict(struct page_verdict *v,
			  const struct ptwalk_record_ext *x, uint64_t addr,
			  uint64_t raw, unsigned int page_shift);

/*
 * Whether either side's answer for a page (frame, kind, swap entry)
 * differs between two verdicts on it: classify_reread()'s changed.
 */
bool compare_sides_changed(const struct page_verdict *a,
			   const struct page_verdict *b);

struct compare_engine;

/*
 * batch: pages per pagemap read; page_shift: the kernel's page shift
 * (pagemap's entries and ptwalk's records count its pages).  The engine
 * classifies, re-reads and keeps verdicts a block at a time,
 * compare_block_pages(batch) pages (so that its memory stays small where
 * every page differs): the largest divisor of batch up to 4,096, so that
 * a cut at a multiple of batch is one at a multiple of the block too
 * (engine/jobs.h).
 */
size_t compare_block_pages(size_t batch);
struct compare_engine *compare_new(const struct compare_io *io,
				   size_t batch, unsigned int page_shift);
void compare_free(struct compare_engine *e);

/*
 * Compares the piece [start, end) (page aligned: a VMA, its part inside
 * --range, or an item's part of it).  Adds the per-class counts to *sum
 * and emits every page's range through emit, in address order; the last
 * range is flushed before returning.  0, or -errno: -ESRCH (process
 * gone), -EPROTO (records that do not partition the piece), or an error
 * of io.
 */
int compare_piece(struct compare_engine *e, uint64_t start, uint64_t end,
		  struct compare_summary *sum, range_emit_fn emit, void *arg);

/*
 * Plans the next compare_piece() calls: pieces[0..n) in address order,
 * not overlapping (the caller's, kept until the next plan).  Pieces then
 * compared inside the plan, in address order, share one pagemap window
 * across their boundaries (engine/window.h) and one ptwalk query over the
 * plan's span, [the first piece compared, the end of the last): the
 * module ends its records at every VMA boundary and covers a gap between
 * VMAs with one record, and compare_piece() takes the records of its own
 * piece out of the stream.  What compare_piece() reports is the same with
 * or without a plan.  A piece outside the plan, or behind the last one
 * compared, ends it; n = 0 ends it too.
 */
void compare_plan(struct compare_engine *e,
		  const struct compare_piece *pieces, size_t n);

#endif /* PTCOMPARE_COMPARE_H */
