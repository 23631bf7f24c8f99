/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The witnesses beside pagemap, as a stage between compare_range() and
 * the report: ranges come in through witness_range() (a range_emit_fn),
 * are held in a bounded batch, annotated (physical names, kpageflags
 * checked in preads of runs of contiguous frames, contradictions
 * re-checked) and passed on in order, each with its witness_note set in
 * the witness_report the report reads.
 *
 * No I/O of its own: kpageflags and the re-check's ptwalk session come
 * through struct witness_io, so unit tests drive it with fakes.
 */
#ifndef PTCOMPARE_WITNESS_H
#define PTCOMPARE_WITNESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "module/ptwalk_abi.h"
#include "parse/iomem.h"
#include "engine/ranges.h"
#include "report/report_witness.h"

/* How often a contradiction is checked again before it is reported. */
#define WITNESS_RECHECKS	3
/* Ranges held before they are checked and passed on. */
#define WITNESS_BATCH		1024
/* kpageflags entries per pread (64 KiB). */
#define WITNESS_KPF_WINDOW	8192
/* Frames between two runs read in one pread rather than two. */
#define WITNESS_KPF_GAP		64

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
	void *ctx;
};

struct witness;

/*
 * rep: where notes and totals go (rep->iomem: names, NULL for none);
 * emit/arg: the next stage (report_range and the report).
 */
struct witness *witness_new(const struct witness_io *io,
			    struct witness_report *rep, range_emit_fn emit,
			    void *arg);
void witness_free(struct witness *w);

/* range_emit_fn for compare_range(): arg is the struct witness. */
void witness_range(const struct verdict_range *vr, void *arg);

/*
 * Checks and passes on every range held; call after each compare_range().
 * 0, or the -errno of a ptwalk re-check (-ESRCH: the process is gone).
 * A kpageflags read error turns the third witness off, with a note.
 */
int witness_flush(struct witness *w);

/* Drops the ranges held (after a failed compare_range). */
void witness_discard(struct witness *w);

#endif /* PTCOMPARE_WITNESS_H */
