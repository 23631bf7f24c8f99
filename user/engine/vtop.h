/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare PID ADDR: one address translated level by level by ptwalk,
 * beside pagemap's entry for its page, and the verdict on the two.  Pure:
 * both sources come through struct vtop_io; report/vtop_print.h writes
 * the result.
 */
#ifndef PTCOMPARE_VTOP_H
#define PTCOMPARE_VTOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "model/outcome.h"
#include "model/page_class.h"
#include "model/page.h"
#include "module/ptwalk_abi.h"

struct vtop_io {
	/* pagemap's raw entry for the page holding addr: 0 or -errno */
	int (*read_pagemap)(void *ctx, uint64_t addr, uint64_t *raw);
	/* ptwalk's translation of addr: 0 or -errno */
	int (*walk)(void *ctx, uint64_t addr, struct ptwalk_vtop *out);
	void *ctx;
};

/* The VMA of /proc/PID/maps holding the address, if any. */
struct vtop_vma {
	bool found;
	uint64_t start, end;
	char perms[5];
	bool deleted;
	char name[4352];	/* as maps shows it; longer names are cut */
};

struct vtop_view {
	pid_t pid;
	const char *comm;	/* "" if unknown */
	const char *kernel;
	uint32_t absent_flags;	/* PTWALK_F_* not on this architecture */
	struct page_geom geom;	/* the kernel's page and leaf sizes */
	uint64_t addr;
	struct ptwalk_vtop walk;	/* ptwalk's answer */
	uint64_t pagemap;		/* pagemap's raw entry */
	enum page_class cls;
	unsigned int rereads;		/* times both sides were read again */
	struct vtop_vma vma;
};

/*
 * Reads pagemap then ptwalk for addr and classifies the page; while they
 * differ, reads both again, up to COMPARE_MAX_REREADS times (a page that
 * then agrees is transient).  Fills v->addr, walk, pagemap, cls, rereads.
 * 0, or the -errno of io.
 */
int vtop_resolve(const struct vtop_io *io, uint64_t addr, struct vtop_view *v);

/* The class of the page at w->addr, given pagemap's raw entry for it. */
enum page_class vtop_classify(const struct ptwalk_vtop *w, uint64_t raw,
			      const struct page_geom *geom);

/*
 * Parses one /proc/PID/maps line (modified in place); true, with vma
 * filled, when its VMA holds addr.
 */
bool vtop_vma_from_line(char *line, uint64_t addr, struct vtop_vma *vma);

/* Bytes mapped by the leaf of w (a contiguous group whole); 0 for none. */
uint64_t vtop_leaf_size(const struct ptwalk_vtop *w,
			const struct page_geom *geom);

/* EXIT_MISMATCH for a mismatch that survived the re-reads, else EXIT_OK. */
enum exit_status vtop_exit_status(const struct vtop_view *v);

#endif /* PTCOMPARE_VTOP_H */
