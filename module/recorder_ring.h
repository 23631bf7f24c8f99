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

/*
 * What the recorder keeps of an event: the record readers get, and the
 * start time (start_boottime) of the thread group ev.pid numbered when
 * the event was recorded, so that a reader credits it to that process
 * and not to a later one given the same number.
 */
struct ptwalk_rec_event {
	struct ptwalk_iommu_event ev;	/* seq not set before the log */
	u64 pid_start;			/* with ev.pid; 0 with pid 0 */
};

struct ptwalk_rec_slot {
	u64 stamp;			/* position + 1 of e; 0 while written */
	struct ptwalk_rec_event e;
};

/* One CPU's ring: written by that CPU alone, interrupts off. */
struct ptwalk_rec_cpu {
	u64 head;			/* events recorded on this CPU */
	unsigned int mask;		/* slots - 1; slots a power of two */
	struct ptwalk_rec_slot *slots;
};

/* What the collector knows of one CPU's ring. */
struct ptwalk_rec_reader {
	u64 taken;			/* positions collected or counted */
	u64 lost;			/* of those, overwritten, not yet logged */
	u64 end;			/* the collection's head of the ring */
	bool peeked;			/* peek holds position taken */
	struct ptwalk_rec_event peek;
};

/*
 * The log: entries in seq order, a PTWALK_EVENT_DROPPED one spanning
 * size numbers, others one; entry positions [tail, head) are kept.
 */
struct ptwalk_rec_log {
	struct ptwalk_rec_event *ev;
	unsigned int mask;		/* entries - 1; a power of two */
	u64 head, tail;
	u64 next_seq;			/* the number the next event gets; from 1 */
	u64 last_ns;			/* time_ns of the newest entry */
};

/*
 * Sizing (module parameter iommu_events): 0 is no recorder; anything
 * else is held to [PTWALK_REC_EVENTS_MIN, PTWALK_REC_EVENTS_MAX], so
 * the power of two above it never wraps.  The log holds iommu_events
 * rounded up to a power of two; each possible CPU's ring its share
 * rounded down to one, at least PTWALK_REC_CPU_MIN, at most the log:
 * the rings together are about iommu_events however many CPUs may come.
 */
#define PTWALK_REC_CPU_MIN	64
#define PTWALK_REC_EVENTS_MIN	PTWALK_REC_CPU_MIN
#define PTWALK_REC_EVENTS_MAX	(1u << 20)

struct ptwalk_rec_size {
	unsigned int log;		/* log entries, a power of two */
	unsigned int per_cpu;		/* slots of each CPU's ring, too */
};

static inline unsigned int ptwalk_rec_events_clamp(unsigned int events)
{
	if (!events)
		return 0;
	if (events < PTWALK_REC_EVENTS_MIN)
		return PTWALK_REC_EVENTS_MIN;
	return events > PTWALK_REC_EVENTS_MAX ? PTWALK_REC_EVENTS_MAX : events;
}

/* For @events (clamped) and @cpus possible CPUs. */
static inline struct ptwalk_rec_size ptwalk_rec_sizes(unsigned int events,
						      unsigned int cpus)
{
	struct ptwalk_rec_size sz = { .log = 1, .per_cpu = 1 };
	unsigned int share;

	events = ptwalk_rec_events_clamp(events);
	share = events / (cpus ? cpus : 1);
	while (sz.log < events)
		sz.log <<= 1;
	while (sz.per_cpu <= share / 2)
		sz.per_cpu <<= 1;
	if (sz.per_cpu < PTWALK_REC_CPU_MIN)
		sz.per_cpu = PTWALK_REC_CPU_MIN;
	if (sz.per_cpu > sz.log)
		sz.per_cpu = sz.log;
	return sz;
}

/* The numbers an entry stands for. */
static inline u64 ptwalk_rec_span(const struct ptwalk_iommu_event *e)
{
	return e->kind == PTWALK_EVENT_DROPPED ? e->size : 1;
}

/*
 * Writer, with interrupts off: puts @e in @c.  No barrier orders its
 * time (taken just before) against a collector on another CPU: the
 * collector waits PTWALK_REC_SETTLE_US past its clock read instead
 * (ptwalk_rec_collect()).
 */
static inline void ptwalk_rec_put(struct ptwalk_rec_cpu *c,
				  const struct ptwalk_rec_event *e)
{
	u64 h = c->head;
	struct ptwalk_rec_slot *s = &c->slots[h & c->mask];

	WRITE_ONCE(s->stamp, 0);
	smp_wmb();	/* stamp cleared before the copy: ptwalk_rec_get() */
	s->e = *e;
	smp_wmb();	/* the copy before the stamp that vouches for it */
	WRITE_ONCE(s->stamp, h + 1);
	/* the slot before the head that makes it collectable */
	smp_store_release(&c->head, h + 1);
}

/* Reader: the event at position @pos of @c, if the slot still holds it. */
static inline bool ptwalk_rec_get(const struct ptwalk_rec_cpu *c, u64 pos,
				  struct ptwalk_rec_event *out)
{
	const struct ptwalk_rec_slot *s = &c->slots[pos & c->mask];
	u64 stamp = READ_ONCE(s->stamp);

	smp_rmb();	/* pairs with the second smp_wmb() of the writer */
	memcpy(out, &s->e, sizeof(*out));
	smp_rmb();	/* pairs with the first: a stamp cleared meanwhile */
	return stamp == pos + 1 && READ_ONCE(s->stamp) == stamp;
}

/*
 * Appends @e to @l, numbering it; the oldest entry makes room.  time_ns
 * is raised to the previous entry's where it is below: an event whose
 * recording took longer than the collector's settling time (an NMI, a
 * virtual CPU preempted), a CPU whose clock lags another's, or a dropped
 * entry, which has no time of its own.
 */
static inline void ptwalk_rec_log_add(struct ptwalk_rec_log *l,
				      struct ptwalk_rec_event e)
{
	if (e.ev.time_ns < l->last_ns)
		e.ev.time_ns = l->last_ns;
	l->last_ns = e.ev.time_ns;
	e.ev.seq = l->next_seq;
	l->next_seq += ptwalk_rec_span(&e.ev);
	if (l->head - l->tail > l->mask)
		l->tail++;
	l->ev[l->head++ & l->mask] = e;
}

static inline void ptwalk_rec_log_dropped(struct ptwalk_rec_log *l, u64 n)
{
	struct ptwalk_rec_event e = {
		.ev = {
			.kind = PTWALK_EVENT_DROPPED, .size = n,
			.pfn = PTWALK_PFN_NONE,
		},
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
 * Reader, after the collector's clock read and its settling time: sets
 * r->end, the ring's head to collect up to.
 */
static inline void ptwalk_rec_end(const struct ptwalk_rec_cpu *c,
				  struct ptwalk_rec_reader *r)
{
	/* the slots up to the head, whole or stamped otherwise */
	r->end = smp_load_acquire(&c->head);
}

/* Whether ring @a's next event goes before ring @b's (ties: the lower). */
static inline bool ptwalk_rec_before(const struct ptwalk_rec_reader *r,
				     unsigned int a, unsigned int b)
{
	u64 ta = r[a].peek.ev.time_ns, tb = r[b].peek.ev.time_ns;

	return ta < tb || (ta == tb && a < b);
}

/* Restores the min-heap @heap of @n rings below position @i. */
static inline void ptwalk_rec_sift(const struct ptwalk_rec_reader *r,
				   unsigned int *heap, unsigned int n,
				   unsigned int i)
{
	for (;;) {
		unsigned int kid = 2 * i + 1, min = i, t;

		if (kid < n && ptwalk_rec_before(r, heap[kid], heap[min]))
			min = kid;
		if (kid + 1 < n && ptwalk_rec_before(r, heap[kid + 1], heap[min]))
			min = kid + 1;
		if (min == i)
			return;
		t = heap[i];
		heap[i] = heap[min];
		heap[min] = t;
		i = min;
	}
}

/* Whether ring @i has an event to collect, timed no later than @cutoff. */
static inline bool ptwalk_rec_ready(const struct ptwalk_rec_cpu *const *c,
				    struct ptwalk_rec_reader *r,
				    unsigned int i, u64 cutoff)
{
	return c[i] && ptwalk_rec_peek(c[i], &r[i]) &&
	       r[i].peek.ev.time_ns <= cutoff;
}

/*
 * How long the collector waits after its clock read before it reads the
 * rings' heads: an event timed before that read is put by then unless
 * its CPU was held up (an NMI, a preempted virtual CPU).
 */
#define PTWALK_REC_SETTLE_US	20

/* Events merged between two calls of the collector's resched. */
#define PTWALK_REC_PAUSE_EVERY	4096

/*
 * The collector: merges the events of the @nr rings @c timed no later
 * than @cutoff into @l, oldest first (ties: the lower ring), each ring's
 * own order kept, through a min-heap of the rings that have one (@heap:
 * room for @nr), so a merge costs log(rings) an event and empty rings
 * nothing past their first look.  @cutoff: the collector's clock, read
 * before its settling time and before each r->end (ptwalk_rec_end()).
 * A ring's overwritten events are logged as dropped before its next
 * collected one, or at the end.  @resched, if not NULL, is called every
 * PTWALK_REC_PAUSE_EVERY events.  Returns the entries logged.
 */
static inline u64 ptwalk_rec_collect(const struct ptwalk_rec_cpu *const *c,
				     struct ptwalk_rec_reader *r,
				     unsigned int nr, u64 cutoff,
				     struct ptwalk_rec_log *l,
				     unsigned int *heap, void (*resched)(void))
{
	unsigned int i, n = 0, best, merged = 0;
	u64 logged = 0;

	for (i = 0; i < nr; i++)
		if (ptwalk_rec_ready(c, r, i, cutoff))
			heap[n++] = i;
	for (i = n / 2; i-- > 0; )
		ptwalk_rec_sift(r, heap, n, i);
	while (n) {
		best = heap[0];
		ptwalk_rec_log_dropped(l, r[best].lost);
		logged += !!r[best].lost + 1;
		r[best].lost = 0;
		ptwalk_rec_log_add(l, r[best].peek);
		r[best].peeked = false;
		r[best].taken++;
		if (!ptwalk_rec_ready(c, r, best, cutoff))
			heap[0] = heap[--n];
		ptwalk_rec_sift(r, heap, n, 0);
		if (resched && !(++merged % PTWALK_REC_PAUSE_EVERY))
			resched();
	}
	for (i = 0; i < nr; i++) {
		logged += !!r[i].lost;
		ptwalk_rec_log_dropped(l, r[i].lost);
		r[i].lost = 0;
	}
	return logged;
}

/*
 * Events recorded and not yet in the log: with the log's next_seq, the
 * number the next event recorded will get, without collecting.
 */
static inline u64 ptwalk_rec_pending(const struct ptwalk_rec_cpu *c,
				     const struct ptwalk_rec_reader *r)
{
	/* a count only: no slot is read */
	u64 head = READ_ONCE(c->head);

	return head - r->taken + r->lost;
}

/* The number of the oldest event @l still holds. */
static inline u64 ptwalk_rec_log_oldest(const struct ptwalk_rec_log *l)
{
	return l->head == l->tail ? l->next_seq :
	       l->ev[l->tail & l->mask].ev.seq;
}

/*
 * A reader's pid for an event: @pid (recorded) as the reader numbers
 * the thread group it names now, if that group started at @start, the
 * recorded one's start; 0 for another (a pid number reused) or none.
 */
typedef s32 (*ptwalk_rec_pid_fn)(s32 pid, u64 start, void *ctx);

/*
 * Copies into @out, at most @max, the entries of @l covering numbers
 * *@next to @end (exclusive), and moves *@next past them: how many.
 * Numbers the log no longer holds are one dropped record, counting
 * none at or past @end; a dropped entry is cut to [*@next, @end) too, so
 * a query from the previous one's end counts nothing twice.  Each
 * event's pid goes through @pid_of (if not NULL) with its start time.
 */
static inline unsigned int ptwalk_rec_log_fill(const struct ptwalk_rec_log *l,
					       u64 *next, u64 end,
					       struct ptwalk_iommu_event *out,
					       unsigned int max,
					       ptwalk_rec_pid_fn pid_of,
					       void *ctx)
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
				   l->ev[l->tail & l->mask].ev.time_ns,
		};
		*next = to;
	}
	/* the first entry that ends past *next */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;
		const struct ptwalk_iommu_event *e = &l->ev[mid & l->mask].ev;

		if (e->seq + ptwalk_rec_span(e) <= *next)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; n < max && lo < l->head && *next < end; lo++) {
		const struct ptwalk_rec_event *r = &l->ev[lo & l->mask];
		struct ptwalk_iommu_event e = r->ev;

		if (e.seq < *next) {
			/* the rest of a dropped entry begun before */
			e.size -= *next - e.seq;
			e.seq = *next;
		}
		if (e.kind == PTWALK_EVENT_DROPPED && e.seq + e.size > end)
			e.size = end - e.seq;
		if (e.pid && pid_of)
			e.pid = pid_of(e.pid, r->pid_start, ctx);
		out[n++] = e;
		*next = e.seq + ptwalk_rec_span(&e);
	}
	return n;
}

#endif /* PTWALK_RECORDER_RING_H */
