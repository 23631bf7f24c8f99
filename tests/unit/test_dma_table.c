// SPDX-License-Identifier: GPL-2.0
/*
 * module/dma_table.h in userspace (the kshim of test_extent.c): the
 * table of tracked devices the DMA API's probes search.  Every tracked
 * device is found; a removed one is not; and however many devices were
 * tracked and untracked before, a device not tracked costs at most one
 * comparison per tracked device plus the empty slot that ends the
 * search (no removed device lengthens a run).
 */
#include <stdlib.h>
#include "unit.h"
#include "../../module/dma_table.h"

#define MAX_TRACKED	8	/* PTWALK_DMA_MAX_DEVICES */
#define POOL		4096

/* Device "pointers": addresses in one array, those of one home slot. */
static char devs[POOL];

/* Up to n addresses of devs whose home slot is home, into out. */
static unsigned int same_home(unsigned int home, const void **out,
			      unsigned int n)
{
	unsigned int got = 0;

	for (unsigned int i = 0; i < POOL && got < n; i++)
		if (hash_ptr(&devs[i], PTWALK_DMA_SLOT_BITS) == home)
			out[got++] = &devs[i];
	return got;
}

struct bench {
	struct ptwalk_dma_table tables[2];
	struct ptwalk_dma_table *live;
	struct ptwalk_dma_key keys[MAX_TRACKED];
	unsigned int used;	/* bit i: keys[i] tracked */
};

static void track(struct bench *b, unsigned int i, const void *dev)
{
	b->keys[i].dev = dev;
	ptwalk_dma_table_insert(b->live, &b->keys[i]);
	b->used |= 1U << i;
}

/* As dma_track.c's untrack: the other table, rebuilt, switched to. */
static void untrack(struct bench *b, unsigned int i)
{
	struct ptwalk_dma_table *other = b->live == &b->tables[0] ?
					 &b->tables[1] : &b->tables[0];

	ptwalk_dma_table_rebuild(other, b->live, &b->keys[i]);
	b->live = other;
	b->used &= ~(1U << i);
}

static unsigned int cost(struct bench *b, const void *dev)
{
	unsigned int cmp = 0;

	assert_null(ptwalk_dma_table_find(b->live, dev, &cmp));
	return cmp;
}

static void all_tracked_found(struct bench *b)
{
	for (unsigned int i = 0; i < MAX_TRACKED; i++) {
		struct ptwalk_dma_key *k =
			ptwalk_dma_table_find(b->live, b->keys[i].dev, NULL);

		if (b->used & (1U << i))
			assert_ptr_equal(k, &b->keys[i]);
		else
			assert_true(k != &b->keys[i]);
	}
}

/*
 * Devices of one home slot tracked and untracked in turn, 1,000 times,
 * never more than 8 at once: an untracked device of that home slot
 * costs at most tracked + 1 comparisons each time.  With tombstones the
 * run would grow past that.
 */
static void untracked_cost_stays_bounded(void **state)
{
	const void *home[64];
	struct bench *b = calloc(1, sizeof(*b));
	unsigned int n = same_home(5, home, 64);

	(void)state;
	assert_non_null(b);
	assert_true(n > MAX_TRACKED + 1);
	b->live = &b->tables[0];
	srand(7);
	for (unsigned int round = 0; round < 1000; round++) {
		unsigned int i = (unsigned int)rand() % MAX_TRACKED;
		unsigned int tracked;

		if (b->used & (1U << i)) {
			untrack(b, i);
		} else {
			const void *dev;

			/* a device is tracked once: one not tracked now */
			do
				dev = home[(unsigned int)rand() % (n - 1)];
			while (ptwalk_dma_table_find(b->live, dev, NULL));
			track(b, i, dev);
		}
		all_tracked_found(b);
		tracked = (unsigned int)__builtin_popcount(b->used);
		/* home[n - 1] is never tracked */
		assert_true(cost(b, home[n - 1]) <= tracked + 1);
	}
	free(b);
}

/* Rebuilding drops the one key and keeps the rest findable. */
static void rebuild_drops_only_the_gone(void **state)
{
	const void *home[MAX_TRACKED];
	struct bench *b = calloc(1, sizeof(*b));

	(void)state;
	assert_non_null(b);
	assert_int_equal(same_home(60, home, MAX_TRACKED), MAX_TRACKED);
	b->live = &b->tables[0];
	for (unsigned int i = 0; i < MAX_TRACKED; i++)
		track(b, i, home[i]);	/* wraps past the last slot */
	untrack(b, 3);
	all_tracked_found(b);
	assert_int_equal(cost(b, home[3]), MAX_TRACKED);
	for (unsigned int i = 0; i < MAX_TRACKED; i++)
		if (i != 3)
			untrack(b, i);
	assert_int_equal(cost(b, home[0]), 1);
	free(b);
}

UNIT_MAIN("dma_table", UT(untracked_cost_stays_bounded),
	  UT(rebuild_drops_only_the_gone))
