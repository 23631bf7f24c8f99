/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading pagemap across VMA boundaries.  pagemap pays a fixed cost per
 * pread (find the task, pin its mm, take its lock, set up the walk), so
 * many small VMAs read one by one cost far more than one pass of large
 * preads over their span.  A plan names the pieces (VMAs, or their parts
 * inside --range) the engine will compare next, in address order; the
 * window reads pagemap over them in preads of up to its capacity, across
 * piece boundaries and across the gaps between pieces when these are
 * small (WINDOW_GAP_PAGES), and the engine takes each piece's entries out
 * of it.  Pure: the reads go through a callback.
 */
#ifndef PTCOMPARE_WINDOW_H
#define PTCOMPARE_WINDOW_H

#include <stddef.h>
#include <stdint.h>

/*
 * Gap between two pieces, in pages, up to which one pread covers both
 * (the gap's entries are read and dropped).  A gap's entries cost pagemap
 * little (a hole is filled without a page table walk); 2,048 of them are
 * 16 KiB, far below what a pread costs by itself.
 */
#define WINDOW_GAP_PAGES	2048

/* One part of the address space to compare: [start, end), page aligned. */
struct compare_piece {
	uint64_t start;
	uint64_t end;
};

/* Fills out[0..n) with the pagemap entries of n pages from addr. */
typedef int (*pagemap_read_fn)(void *ctx, uint64_t addr, size_t n,
			    uint64_t *out);

struct pagemap_window {
	uint64_t *buf;		/* cap entries */
	size_t cap;
	unsigned int shift;	/* the kernel's page shift: entries per page */
	uint64_t start;		/* buf holds the entries of [start, +n pages) */
	size_t n;
	const struct compare_piece *pieces;	/* the plan, in address order */
	size_t nr_pieces;
	size_t cur;		/* first piece that may still be read */
};

/* buf: cap entries, owned by the caller; one per kernel page. */
void window_init(struct pagemap_window *w, uint64_t *buf, size_t cap,
		 unsigned int page_shift);

/* A new plan (the pieces stay the caller's); drops what the window held. */
void window_plan(struct pagemap_window *w, const struct compare_piece *pieces,
		 size_t n);

/*
 * How many pages one pread from addr (inside a piece from w->cur on)
 * should read: to the end of the last piece reachable through gaps of at
 * most WINDOW_GAP_PAGES, at most w->cap; 0 when addr is in no piece.
 * Advances w->cur past the pieces that end at or before addr.
 */
size_t window_reach(struct pagemap_window *w, uint64_t addr);

/*
 * The entries of n pages from addr into out: from what the window holds,
 * reading it again (through read) where it does not cover them.  Pages
 * outside the plan are read directly.  0, or what read returned.
 */
int window_read(struct pagemap_window *w, pagemap_read_fn read, void *ctx,
		uint64_t addr, size_t n, uint64_t *out);

/*
 * The entries of n pages from addr in place: a pointer into the window
 * when it holds all n, or comes to hold them in one read from addr (the
 * pointer is good until the window's next read); NULL with *err 0 where it
 * cannot (pages outside the plan, n beyond the window's reach from addr,
 * or held only in part), for window_read() to copy them; NULL with *err
 * what read returned.  Saves window_read()'s copy of every batch, a
 * visible part of a scan of 4K pages.
 */
const uint64_t *window_peek(struct pagemap_window *w, pagemap_read_fn read,
			    void *ctx, uint64_t addr, size_t n, int *err);

#endif /* PTCOMPARE_WINDOW_H */
