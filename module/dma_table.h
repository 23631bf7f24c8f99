/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of tracked devices the DMA API's probes look a device up in
 * (dma_track.c): open addressing with linear probing over
 * PTWALK_DMA_SLOTS slots, keyed by the device pointer.  A slot is only
 * ever filled, with release semantics, while probes read the table; a
 * removal builds another table without the key (rebuild()) that the
 * caller switches to, so there are no tombstones and a run of filled
 * slots is at most as long as the number of keys.  Kernel code with no
 * kernel dependency beyond hash_ptr() and the barriers: unit-tested in
 * userspace (tests/unit/test_dma_table.c).
 */
#ifndef PTWALK_DMA_TABLE_H
#define PTWALK_DMA_TABLE_H

#include <linux/hash.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/barrier.h>

#define PTWALK_DMA_SLOT_BITS	6
#define PTWALK_DMA_SLOTS	(1U << PTWALK_DMA_SLOT_BITS)

/* What a slot points to: embedded in the tracked device's state. */
struct ptwalk_dma_key {
	const void *dev;
};

struct ptwalk_dma_table {
	struct ptwalk_dma_key *slot[PTWALK_DMA_SLOTS];
};

/*
 * The key of dev in tb, or NULL; *cmp (if not NULL) counts the slots
 * read.  Lockless: pairs with the release in ptwalk_dma_table_insert().
 */
static inline struct ptwalk_dma_key *
ptwalk_dma_table_find(struct ptwalk_dma_table *tb, const void *dev,
		      unsigned int *cmp)
{
	unsigned int i = hash_ptr(dev, PTWALK_DMA_SLOT_BITS), n;

	for (n = 0; n < PTWALK_DMA_SLOTS;
	     n++, i = (i + 1) % PTWALK_DMA_SLOTS) {
		/* acquire: k's fields as written before its release */
		struct ptwalk_dma_key *k = smp_load_acquire(&tb->slot[i]);

		if (cmp)
			(*cmp)++;
		if (!k)
			return NULL;
		if (k->dev == dev)
			return k;
	}
	return NULL;
}

/*
 * Puts k in its first free slot of tb, which has fewer keys than slots;
 * a reader that sees k sees what was written to k before.
 */
static inline void ptwalk_dma_table_insert(struct ptwalk_dma_table *tb,
					   struct ptwalk_dma_key *k)
{
	unsigned int i = hash_ptr(k->dev, PTWALK_DMA_SLOT_BITS), n;

	for (n = 0; n < PTWALK_DMA_SLOTS;
	     n++, i = (i + 1) % PTWALK_DMA_SLOTS)
		if (!tb->slot[i])
			break;
	/* release: pairs with the acquire in ptwalk_dma_table_find() */
	smp_store_release(&tb->slot[i], k);
}

/* Fills dst, which no reader sees, with src's keys but gone. */
static inline void ptwalk_dma_table_rebuild(struct ptwalk_dma_table *dst,
					    const struct ptwalk_dma_table *src,
					    const struct ptwalk_dma_key *gone)
{
	unsigned int i;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < PTWALK_DMA_SLOTS; i++)
		if (src->slot[i] && src->slot[i] != gone)
			ptwalk_dma_table_insert(dst, src->slot[i]);
}

#endif /* PTWALK_DMA_TABLE_H */
