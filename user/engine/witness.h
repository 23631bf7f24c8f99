/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The witnesses beside pagemap, as a stage between compare_piece() and
 * the report: ranges come in through witness_range() (a range_emit_fn),
 * are held in a bounded batch, annotated (physical names, kpageflags
 * checked in preads of runs of contiguous frames, contradictions
 * re-checked) and passed on in order, each with its witness_note, to the
 * next stage; what the witnesses did over the whole scan adds up in a
 * struct witness_totals.
 *
 * No I/O of its own: kpageflags and the re-check's ptwalk session come
 * through struct witness_io, so unit tests drive it with fakes.
 */
#ifndef PTCOMPARE_WITNESS_H
#define PTCOMPARE_WITNESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "engine/ranges.h"
#include "model/page.h"
#include "module/ptwalk_abi.h"
#include "parse/iomem.h"

/* How often a contradiction is checked again before it is reported. */
#define WITNESS_RECHECKS	3
/* Ranges held before they are checked and passed on. */
#define WITNESS_BATCH		1024
/* kpageflags entries per pread (64 KiB). */
#define WITNESS_KPF_PREAD	8192
/* Frames between two runs read in one pread rather than two. */
#define WITNESS_KPF_GAP		64

/* What the witnesses found about one range. */
struct witness_note {
	bool named;		/* pfnmap_hidden or huge: gets a physical name */
	size_t iomem;		/* innermost /proc/iomem entry, IOMEM_NONE */
	bool struct_page;	/* ptwalk: PTWALK_F_PFN_VALID */
	bool checked;		/* kpageflags was read for its pages */
	uint64_t kpf_pages;	/* pages whose kpageflags were read */
	uint64_t kpf_union;	/* kpageflags bits seen on them (KPF_SHOWN) */
	/* contradictions that survived the re-checks */
	uint64_t bad_pages;
	unsigned int bad_rules;	/* KPF_RULE_* bits */
	uint64_t bad_addr;	/* first contradicting page */
	uint64_t bad_pfn;
	uint64_t bad_kpf;	/* its kpageflags */
};

/* What the witnesses had and did over the whole scan. */
struct witness_totals {
	const struct iomem *iomem;	/* NULL or zeroed: nothing named */
	char iomem_note[160];	/* why nothing is named, "" if named */
	char kpf_note[160];	/* why kpageflags was skipped, "" if read */
	uint64_t kpf_pages;	/* pages checked against kpageflags */
	uint64_t recheck_cleared;	/* contradicting pages gone on re-check */
	uint64_t bad_pages;	/* pages still contradicting */
	uint64_t bad_ranges;
};

/* The next stage: each range, in address order, with its note. */
typedef void (*witnessed_emit_fn)(const struct verdict_range *vr,
				  const struct witness_note *note, void *arg);

struct witness_io {
	/*
	 * kpageflags of frames pfn .. pfn+n into out: entries read (fewer
	 * beyond the last frame the kernel describes), or -errno.  NULL when
	 * the third witness is off.
	 */
	ssize_t (*read_kpf)(void *ctx, uint64_t pfn, size_t n, uint64_t *out);
	/* A ptwalk query of the target on the witness's own session. */
	int (*walk_query)(void *ctx, uint64_t start, uint64_t end);
	ssize_t (*walk_read)(void *ctx, struct ptwalk_record *recs, size_t max);
	/*
	 * Called once, before the first physical name or System RAM test is
	 * needed: sets totals->iomem (or its note).  NULL: totals->iomem is
	 * set already.  Only huge and pfnmap_hidden ranges are named, and
	 * only --kpageflags asks about RAM: a run over 4K pages alone never
	 * reads /proc/iomem, whose parse is a large part of a small run.
	 */
	void (*load_names)(void *ctx, struct witness_totals *totals);
	void *ctx;
};

struct witness;

/*
 * totals: where the totals go, and the names it reads (totals->iomem,
 * NULL for none; totals->kpf_note set: the third witness is off);
 * emit/arg: the next stage.
 */
struct witness *witness_new(const struct witness_io *io,
			    const struct page_geom *geom,
			    struct witness_totals *totals,
			    witnessed_emit_fn emit, void *arg);
void witness_free(struct witness *w);

/*
 * t's counts of a scan zeroed, what the sources said of themselves
 * (t->iomem and the notes) kept: for the next process of --all.
 */
void witness_totals_restart(struct witness_totals *t);

/* range_emit_fn for compare_piece(): arg is the struct witness. */
void witness_range(const struct verdict_range *vr, void *arg);

/*
 * Checks and passes on every range held; call after each compare_piece().
 * 0, or the -errno of a ptwalk re-check (-ESRCH: the process is gone).
 * A kpageflags read error turns the third witness off, with a note.
 */
int witness_flush(struct witness *w);

/*
 * Drops the ranges held and a re-check's error, which flushes return
 * until then: after a failed compare_piece, and before the next process
 * of --all.
 */
void witness_discard(struct witness *w);

/*
 * Marks between ranges, so that one batch (and its kpageflags preads)
 * spans many small VMAs instead of ending at each: witness_mark() holds
 * a mark after the ranges received so far; when they have been passed
 * on, mark(arg, token) is called, in order with them.  At most
 * WITNESS_MARKS are held; one more flushes first.
 */
#define WITNESS_MARKS	1024
typedef void (*witness_mark_fn)(void *arg, uint64_t token);
void witness_set_mark(struct witness *w, witness_mark_fn mark);
void witness_mark(struct witness *w, uint64_t token);

#endif /* PTCOMPARE_WITNESS_H */
