/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's data structures, apart from the kernel services around
 * them (recorder.c: per-CPU memory, probes, clocks, locks), so that
 * tests/unit/test_recorder_ring.c checks the order and the counting of
 * what readers get.
 *
 * Writers: one ring per CPU, written only by its CPU with interrupts off,
 * so a probe shares no lock and no cache line with another CPU.  Each
 * slot carries the ring position of the event it holds, written last
 * (0 while it is written), as a seqcount: a reader that finds another
 * stamp after copying the slot knows the writer overwrote it meanwhile.
 *
 * Readers: under one mutex of their own, the collector merges what the
 * rings hold into the log in time order and numbers it (seq), so that
 * every reader sees the same numbers; events a ring overwrote before they
 * were collected become one PTWALK_EVENT_DROPPED entry, where they would
 * have been, spanning their numbers.  A query reads the log by number.
 */
#ifndef PTWALK_RECORDER_RING_H
#define PTWALK_RECORDER_RING_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <asm/barrier.h>
#include "ptwalk_abi.h"

struct ptwalk_rec_slot {
	u64 stamp;			/* position + 1 of ev; 0 while written */
	struct ptwalk_iommu_event ev;	/* seq not set yet */
};

/* One CPU's ring: written by that CPU alone, interrupts off. */
struct ptwalk_rec_cpu {
	u64 head;			/* events recorded on this CPU */
	u64 last_ns;			/* time_ns of the newest */
	unsigned int busy;		/* an event is being recorded */
	unsigned int mask;		/* slots - 1; slots a power of two */
	struct ptwalk_rec_slot *slots;
};

/* What the collector knows of one CPU's ring. */
struct ptwalk_rec_reader {
	u64 taken;			/* positions collected or counted */
	u64 lost;			/* of those, overwritten, not yet logged */
	u64 end;			/* the collection's head of the ring */
	bool peeked;			/* peek holds position taken */
	struct ptwalk_iommu_event peek;
};

/*
 * The log: entries in seq order, a PTWALK_EVENT_DROPPED one spanning
 * size numbers, others one; entry positions [tail, head) are kept.
 */
struct ptwalk_rec_log {
	struct ptwalk_iommu_event *ev;
	unsigned int mask;		/* entries - 1; a power of two */
	u64 head, tail;
	u64 next_seq;			/* the number the next event gets; from 1 */
	u64 last_ns;			/* time_ns of the newest entry */
};

/* The numbers an entry stands for. */
static inline u64 ptwalk_rec_span(const struct ptwalk_iommu_event *e)
{
	return e->kind == PTWALK_EVENT_DROPPED ? e->size : 1;
}

/*
 * Writer, with interrupts off: announce an event before taking its time,
 * so that a collector that does not see @c busy knows every later event
 * of this CPU is timed after the collector's own clock read.
 */
static inline void ptwalk_rec_begin(struct ptwalk_rec_cpu *c)
{
	WRITE_ONCE(c->busy, 1);
	smp_mb();	/* busy before the clock read; pairs with collect() */
}

/* Writer: puts @e (its time_ns taken after ptwalk_rec_begin()) in @c. */
static inline void ptwalk_rec_put(struct ptwalk_rec_cpu *c,
				  const struct ptwalk_iommu_event *e)
{
	u64 h = c->head;
	struct ptwalk_rec_slot *s = &c->slots[h & c->mask];

	WRITE_ONCE(s->stamp, 0);
	smp_wmb();	/* stamp cleared before the copy: ptwalk_rec_get() */
	s->ev = *e;
	smp_wmb();	/* the copy before the stamp that vouches for it */
	WRITE_ONCE(s->stamp, h + 1);
	WRITE_ONCE(c->last_ns, e->time_ns);
	/* the slot before the head that makes it collectable */
	smp_store_release(&c->head, h + 1);
	/* the head before busy clears: ptwalk_rec_cutoff() */
	smp_store_release(&c->busy, 0);
}

/* Reader: the event at position @pos of @c, if the slot still holds it. */
static inline bool ptwalk_rec_get(const struct ptwalk_rec_cpu *c, u64 pos,
				  struct ptwalk_iommu_event *out)
{
	const struct ptwalk_rec_slot *s = &c->slots[pos & c->mask];
	u64 stamp = READ_ONCE(s->stamp);

	smp_rmb();	/* pairs with the second smp_wmb() of the writer */
	memcpy(out, &s->ev, sizeof(*out));
	smp_rmb();	/* pairs with the first: a stamp cleared meanwhile */
	return stamp == pos + 1 && READ_ONCE(s->stamp) == stamp;
}

/*
 * Appends @e to @l, numbering it; the oldest entry makes room.  time_ns
 * is raised to the previous entry's where it is below: a CPU whose clock
 * lags another's by more than the collector's cutoff margin, or a
 * dropped entry, which has no time of its own.
 */
static inline void ptwalk_rec_log_add(struct ptwalk_rec_log *l,
				      struct ptwalk_iommu_event e)
{
	if (e.time_ns < l->last_ns)
		e.time_ns = l->last_ns;
	l->last_ns = e.time_ns;
	e.seq = l->next_seq;
	l->next_seq += ptwalk_rec_span(&e);
	if (l->head - l->tail > l->mask)
		l->tail++;
	l->ev[l->head++ & l->mask] = e;
}

static inline void ptwalk_rec_log_dropped(struct ptwalk_rec_log *l, u64 n)
{
	struct ptwalk_iommu_event e = {
		.kind = PTWALK_EVENT_DROPPED, .size = n,
		.pfn = PTWALK_PFN_NONE,
	};

	if (n)
		ptwalk_rec_log_add(l, e);
}

/*
 * Reader: r->peek holds the next event of @c not yet collected, unless
 * its ring has none before r->end; overwritten ones on the way are
 * counted in r->lost.
 */
static inline bool ptwalk_rec_peek(const struct ptwalk_rec_cpu *c,
				   struct ptwalk_rec_reader *r)
{
	u64 size = (u64)c->mask + 1;

	while (!r->peeked && r->taken < r->end) {
		if (r->end - r->taken > size) {
			/* overwritten before this collection began */
			r->lost += r->end - size - r->taken;
			r->taken = r->end - size;
			continue;
		}
		r->peeked = ptwalk_rec_get(c, r->taken, &r->peek);
		if (!r->peeked) {
			/* overwritten while this collection ran */
			r->lost++;
			r->taken++;
		}
	}
	return r->peeked;
}

/*
 * The collector: merges the events of the @nr rings @c timed no later
 * than @cutoff into @l, oldest first (ties: the lower ring), each ring's
 * own order kept.  @now: the collector's clock, read before this call;
 * @cutoff is @now, or less where a ring was busy (ptwalk_rec_cutoff()).
 * A ring's overwritten events are logged as dropped before its next
 * collected one, or at the end.  Returns the entries logged.
 */
static inline u64 ptwalk_rec_collect(const struct ptwalk_rec_cpu *const *c,
				     struct ptwalk_rec_reader *r,
				     unsigned int nr, u64 cutoff,
				     struct ptwalk_rec_log *l)
{
	u64 logged = 0;
	unsigned int i, best;

	for (;;) {
		best = nr;
		for (i = 0; i < nr; i++) {
			if (!c[i] || !ptwalk_rec_peek(c[i], &r[i]) ||
			    r[i].peek.time_ns > cutoff)
				continue;
			if (best == nr ||
			    r[i].peek.time_ns < r[best].peek.time_ns)
				best = i;
		}
		if (best == nr)
			break;
		ptwalk_rec_log_dropped(l, r[best].lost);
		logged += !!r[best].lost + 1;
		r[best].lost = 0;
		ptwalk_rec_log_add(l, r[best].peek);
		r[best].peeked = false;
		r[best].taken++;
	}
	for (i = 0; i < nr; i++) {
		logged += !!r[i].lost;
		ptwalk_rec_log_dropped(l, r[i].lost);
		r[i].lost = 0;
	}
	return logged;
}

/*
 * Reader: a ring's part in the collection's cutoff, read after the
 * collector's clock: where the ring is busy, its event being written is
 * timed no earlier than the ring's newest.  Sets r->end, the ring's head
 * to collect up to.
 */
static inline u64 ptwalk_rec_cutoff(const struct ptwalk_rec_cpu *c,
				    struct ptwalk_rec_reader *r, u64 cutoff)
{
	/* a writer done (busy clear) has its head seen below */
	if (smp_load_acquire(&c->busy)) {
		u64 last = READ_ONCE(c->last_ns);

		if (last < cutoff)
			cutoff = last;
	}
	/* the slots up to the head, whole or stamped otherwise */
	r->end = smp_load_acquire(&c->head);
	return cutoff;
}

/* The number of the oldest event @l still holds. */
static inline u64 ptwalk_rec_log_oldest(const struct ptwalk_rec_log *l)
{
	return l->head == l->tail ? l->next_seq : l->ev[l->tail & l->mask].seq;
}

/*
 * Copies into @out, at most @max, the entries of @l covering numbers
 * *@next to @end (exclusive), and moves *@next past them: how many.
 * Numbers the log no longer holds are one dropped record, counting
 * none at or past @end; a dropped entry is cut to [*@next, @end) too, so
 * a query from the previous one's end counts nothing twice.
 */
static inline unsigned int ptwalk_rec_log_fill(const struct ptwalk_rec_log *l,
					       u64 *next, u64 end,
					       struct ptwalk_iommu_event *out,
					       unsigned int max)
{
	u64 oldest = ptwalk_rec_log_oldest(l), lo = l->tail, hi = l->head;
	unsigned int n = 0;

	if (!max || *next >= end)
		return 0;
	if (*next < oldest) {
		u64 to = oldest < end ? oldest : end;

		out[n++] = (struct ptwalk_iommu_event){
			.kind = PTWALK_EVENT_DROPPED, .seq = *next,
			.size = to - *next, .pfn = PTWALK_PFN_NONE,
			.time_ns = l->head == l->tail ? l->last_ns :
				   l->ev[l->tail & l->mask].time_ns,
		};
		*next = to;
	}
	/* the first entry that ends past *next */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;
		const struct ptwalk_iommu_event *e = &l->ev[mid & l->mask];

		if (e->seq + ptwalk_rec_span(e) <= *next)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; n < max && lo < l->head && *next < end; lo++) {
		struct ptwalk_iommu_event e = l->ev[lo & l->mask];

		if (e.seq < *next) {
			/* the rest of a dropped entry begun before */
			e.size -= *next - e.seq;
			e.seq = *next;
		}
		if (e.kind == PTWALK_EVENT_DROPPED && e.seq + e.size > end)
			e.size = end - e.seq;
		out[n++] = e;
		*next = e.seq + ptwalk_rec_span(&e);
	}
	return n;
}

#endif /* PTWALK_RECORDER_RING_H */
