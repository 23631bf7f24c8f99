// SPDX-License-Identifier: GPL-2.0
/*
 * module/recorder_ring.h in userspace (the kshim of test_extent.c): the
 * per-CPU rings' torn-slot detection, the collector's merge into one log
 * in time order with dropped events counted where they were, and the
 * log's answer to a query: every number from since_seq to the query's
 * end returned or counted once, none past the end.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "unit.h"
#include "../../module/recorder_ring.h"

#define NR_CPUS	2

struct bench {
	struct ptwalk_rec_slot slots[NR_CPUS][8];
	struct ptwalk_rec_cpu cpu[NR_CPUS];
	const struct ptwalk_rec_cpu *rings[NR_CPUS];
	struct ptwalk_rec_reader readers[NR_CPUS];
	struct ptwalk_iommu_event log_ev[16];
	struct ptwalk_rec_log log;
};

/* Rings of @ring_size (<= 8) slots and a log of @log_size (<= 16). */
static struct bench *bench_new(unsigned int ring_size, unsigned int log_size)
{
	struct bench *b = calloc(1, sizeof(*b));

	assert_non_null(b);
	for (unsigned int i = 0; i < NR_CPUS; i++) {
		b->cpu[i].slots = b->slots[i];
		b->cpu[i].mask = ring_size - 1;
		b->rings[i] = &b->cpu[i];
	}
	b->log.ev = b->log_ev;
	b->log.mask = log_size - 1;
	b->log.next_seq = 1;
	return b;
}

/* A map of iova on @cpu at time @ns, as a probe records it. */
static void put(struct bench *b, unsigned int cpu, uint64_t ns, uint64_t iova)
{
	struct ptwalk_iommu_event e = {
		.kind = PTWALK_EVENT_MAP, .iova = iova, .size = 4096,
		.pfn = iova >> 12, .time_ns = ns,
	};

	ptwalk_rec_begin(&b->cpu[cpu]);
	ptwalk_rec_put(&b->cpu[cpu], &e);
}

static void collect(struct bench *b, uint64_t now)
{
	uint64_t cutoff = now;

	for (unsigned int i = 0; i < NR_CPUS; i++)
		cutoff = ptwalk_rec_cutoff(&b->cpu[i], &b->readers[i], cutoff);
	ptwalk_rec_collect(b->rings, b->readers, NR_CPUS, cutoff, &b->log);
}

/* Everything from @since up to the log's next number, in reads of @max. */
static size_t fill_all(struct bench *b, uint64_t since, uint64_t end,
		       struct ptwalk_iommu_event *out, unsigned int max)
{
	u64 next = since;
	size_t n = 0;
	unsigned int got;

	while ((got = ptwalk_rec_log_fill(&b->log, &next, end, out + n, max)))
		n += got;
	assert_true(next >= end);
	return n;
}

/* Numbers [since, end) each returned or counted once, times never down. */
static void assert_accounted(const struct ptwalk_iommu_event *ev, size_t n,
			     uint64_t since, uint64_t end)
{
	uint64_t want = since;

	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ev[i].seq, want);
		want += ptwalk_rec_span(&ev[i]);
		if (i)
			assert_true(ev[i].time_ns >= ev[i - 1].time_ns);
	}
	assert_int_equal(want, end);
}

/* Two CPUs' events interleaved in time come out in time order. */
static void merge_in_time_order(void **state)
{
	struct bench *b = bench_new(8, 16);
	struct ptwalk_iommu_event out[16];
	uint64_t want_iova[] = { 0x1000, 0x2000, 0x3000, 0x4000, 0x5000 };
	size_t n;

	(void)state;
	put(b, 0, 10, 0x1000);
	put(b, 1, 15, 0x2000);
	put(b, 1, 20, 0x3000);
	put(b, 0, 25, 0x4000);
	put(b, 0, 30, 0x5000);
	collect(b, 100);
	assert_int_equal(b->log.next_seq, 6);
	n = fill_all(b, 1, b->log.next_seq, out, 2);
	assert_int_equal(n, 5);
	assert_accounted(out, n, 1, 6);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(out[i].iova, want_iova[i]);
	free(b);
}

/*
 * Events timed after the collector's clock, or on another CPU after a
 * busy CPU's newest, wait for the next collection: a late commit never
 * lands before what was already numbered.
 */
static void cutoff_waits_for_busy(void **state)
{
	struct bench *b = bench_new(8, 16);
	struct ptwalk_iommu_event out[16];
	size_t n;

	(void)state;
	put(b, 0, 10, 0x1000);
	put(b, 1, 30, 0x2000);
	/* CPU 0 has begun an event, not put it yet */
	ptwalk_rec_begin(&b->cpu[0]);
	collect(b, 100);
	assert_int_equal(b->log.next_seq, 2);	/* 0x1000 only */
	put(b, 0, 20, 0x3000);			/* now committed, timed 20 */
	collect(b, 100);
	n = fill_all(b, 1, b->log.next_seq, out, 16);
	assert_int_equal(n, 3);
	assert_accounted(out, n, 1, 4);
	assert_int_equal(out[1].iova, 0x3000);
	assert_int_equal(out[2].iova, 0x2000);
	/* after the clock: not yet */
	put(b, 1, 200, 0x4000);
	collect(b, 150);
	assert_int_equal(b->log.next_seq, 4);
	collect(b, 250);
	assert_int_equal(b->log.next_seq, 5);
	free(b);
}

/* A torn slot (being overwritten) is not handed out as an event. */
static void torn_slot_detected(void **state)
{
	struct bench *b = bench_new(4, 16);
	struct ptwalk_iommu_event e;

	(void)state;
	put(b, 0, 10, 0x1000);
	assert_true(ptwalk_rec_get(&b->cpu[0], 0, &e));
	assert_int_equal(e.iova, 0x1000);
	/* the writer of position 4 has cleared the stamp, copying */
	WRITE_ONCE(b->slots[0][0].stamp, 0);
	assert_false(ptwalk_rec_get(&b->cpu[0], 0, &e));
	/* ... and has finished: position 0 is gone, position 4 is there */
	WRITE_ONCE(b->slots[0][0].stamp, 5);
	assert_false(ptwalk_rec_get(&b->cpu[0], 0, &e));
	assert_true(ptwalk_rec_get(&b->cpu[0], 4, &e));
	free(b);
}

/*
 * A ring that wrapped before collection: one dropped entry, numbered
 * where its events were, before that CPU's first surviving one.
 */
static void ring_overflow_counted(void **state)
{
	struct bench *b = bench_new(4, 16);
	struct ptwalk_iommu_event out[16];
	size_t n;

	(void)state;
	for (uint64_t i = 0; i < 7; i++)
		put(b, 0, 10 + i, 0x1000 * (i + 1));
	put(b, 1, 5, 0xa000);
	collect(b, 100);
	n = fill_all(b, 1, b->log.next_seq, out, 16);
	/* 0xa000, dropped 3, then the 4 CPU 0 still held */
	assert_int_equal(n, 6);
	assert_accounted(out, n, 1, 9);
	assert_int_equal(out[0].iova, 0xa000);
	assert_int_equal(out[1].kind, PTWALK_EVENT_DROPPED);
	assert_int_equal(out[1].size, 3);
	assert_int_equal(out[2].iova, 0x4000);
	assert_int_equal(out[5].iova, 0x7000);
	free(b);
}

/*
 * The log wrapped under a query: the dropped record counts only numbers
 * before the query's end, so a client resuming from that end counts
 * nothing twice; and a query from inside a dropped entry gets its rest.
 */
static void dropped_stops_at_query_end(void **state)
{
	struct bench *b = bench_new(8, 4);
	struct ptwalk_iommu_event out[16];
	u64 next = 1, end;
	size_t n;

	(void)state;
	put(b, 0, 10, 0x1000);
	put(b, 0, 11, 0x2000);
	collect(b, 100);
	end = b->log.next_seq;			/* a query of 1 and 2 */
	for (uint64_t i = 0; i < 6; i++)
		put(b, 0, 20 + i, 0x10000 * (i + 1));
	collect(b, 100);			/* the log now keeps 5..8 */
	assert_int_equal(ptwalk_rec_log_oldest(&b->log), 5);
	n = ptwalk_rec_log_fill(&b->log, &next, end, out, 16);
	assert_int_equal(n, 1);
	assert_int_equal(out[0].kind, PTWALK_EVENT_DROPPED);
	assert_int_equal(out[0].seq, 1);
	assert_int_equal(out[0].size, 2);	/* not 4: 3 and 4 are past end */
	assert_int_equal(next, end);
	/* resuming from the old end: 3 and 4 dropped once, then 5..8 */
	n = fill_all(b, end, b->log.next_seq, out, 16);
	assert_accounted(out, n, end, 9);
	assert_int_equal(out[0].kind, PTWALK_EVENT_DROPPED);
	assert_int_equal(out[0].size, 2);
	assert_int_equal(n, 5);
	free(b);
}

/* A dropped entry in the log is cut to the part a query asks for. */
static void dropped_entry_split(void **state)
{
	struct bench *b = bench_new(4, 16);
	struct ptwalk_iommu_event out[16];
	size_t n;

	(void)state;
	for (uint64_t i = 0; i < 10; i++)	/* 6 dropped, 4 kept */
		put(b, 0, 10 + i, 0x1000 * (i + 1));
	collect(b, 100);
	assert_int_equal(b->log.next_seq, 11);
	n = fill_all(b, 3, 5, out, 16);
	assert_int_equal(n, 1);
	assert_int_equal(out[0].kind, PTWALK_EVENT_DROPPED);
	assert_int_equal(out[0].seq, 3);
	assert_int_equal(out[0].size, 2);
	n = fill_all(b, 5, 11, out, 16);
	assert_accounted(out, n, 5, 11);
	assert_int_equal(out[0].size, 2);	/* 5 and 6 */
	assert_int_equal(out[1].iova, 0x7000);
	free(b);
}

/* A CPU clock behind another's: times raised, never decreasing. */
static void lagging_clock_raised(void **state)
{
	struct bench *b = bench_new(8, 16);
	struct ptwalk_iommu_event out[16];
	size_t n;

	(void)state;
	put(b, 0, 50, 0x1000);
	collect(b, 60);
	put(b, 1, 40, 0x2000);	/* committed late, timed before 50 */
	collect(b, 100);
	n = fill_all(b, 1, b->log.next_seq, out, 16);
	assert_int_equal(n, 2);
	assert_accounted(out, n, 1, 3);
	assert_int_equal(out[1].time_ns, 50);
	free(b);
}

/* The concurrent run: two writers, each its ring, one collector. */
#define RACE_EVENTS	200000
#define RACE_SLOTS	64
#define RACE_LOG	(1u << 20)

struct race {
	struct ptwalk_rec_slot slots[2][RACE_SLOTS];
	struct ptwalk_rec_cpu cpu[2];
	volatile int done[2];
};

struct race_writer {
	struct race *r;
	unsigned int id;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Events whose fields agree with each other: a torn copy would not. */
static void *race_write(void *arg)
{
	struct race_writer *w = arg;
	struct ptwalk_rec_cpu *c = &w->r->cpu[w->id];

	for (uint64_t i = 0; i < RACE_EVENTS; i++) {
		struct ptwalk_iommu_event e = {
			.kind = PTWALK_EVENT_MAP, .iova = (i << 12) | w->id,
			.size = i ^ 0x5a5a5a5a, .pfn = i, .done = w->id,
		};

		ptwalk_rec_begin(c);
		e.time_ns = mono_ns();
		ptwalk_rec_put(c, &e);
	}
	w->r->done[w->id] = 1;
	return NULL;
}

/*
 * Two writers racing a collector over small rings: whatever is handed out
 * is whole (no torn slot), each writer's events in its order, times never
 * decreasing, and every event either collected or counted as dropped.
 */
static void concurrent_writers(void **state)
{
	struct race *r = calloc(1, sizeof(*r));
	struct ptwalk_rec_reader readers[2] = { 0 };
	const struct ptwalk_rec_cpu *rings[2];
	struct ptwalk_rec_log log = { .mask = RACE_LOG - 1, .next_seq = 1 };
	struct race_writer w[2];
	pthread_t th[2];
	uint64_t last[2] = { 0 }, got[2] = { 0 }, dropped = 0, prev_ns = 0;
	bool seen[2] = { false, false };

	(void)state;
	log.ev = calloc(RACE_LOG, sizeof(*log.ev));
	assert_non_null(r);
	assert_non_null(log.ev);
	for (unsigned int i = 0; i < 2; i++) {
		r->cpu[i].slots = r->slots[i];
		r->cpu[i].mask = RACE_SLOTS - 1;
		rings[i] = &r->cpu[i];
		w[i] = (struct race_writer){ .r = r, .id = i };
		assert_int_equal(pthread_create(&th[i], NULL, race_write, &w[i]), 0);
	}
	for (;;) {
		bool finished = r->done[0] && r->done[1];
		uint64_t cutoff = mono_ns();

		smp_mb();
		for (unsigned int i = 0; i < 2; i++)
			cutoff = ptwalk_rec_cutoff(&r->cpu[i], &readers[i], cutoff);
		ptwalk_rec_collect(rings, readers, 2, cutoff, &log);
		if (finished && readers[0].taken == RACE_EVENTS &&
		    readers[1].taken == RACE_EVENTS)
			break;
	}
	for (unsigned int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	assert_true(log.head <= RACE_LOG);
	for (uint64_t k = 0; k < log.head; k++) {
		const struct ptwalk_iommu_event *e = &log.ev[k];

		assert_true(e->time_ns >= prev_ns);
		prev_ns = e->time_ns;
		if (e->kind == PTWALK_EVENT_DROPPED) {
			dropped += e->size;
			continue;
		}
		unsigned int id = (unsigned int)e->done;

		assert_true(id < 2);
		assert_int_equal(e->iova, (e->pfn << 12) | id);
		assert_int_equal(e->size, e->pfn ^ 0x5a5a5a5a);
		assert_true(!seen[id] || e->pfn > last[id]);
		seen[id] = true;
		last[id] = e->pfn;
		got[id]++;
	}
	assert_int_equal(got[0] + got[1] + dropped, 2 * RACE_EVENTS);
	assert_int_equal(log.next_seq, 2 * RACE_EVENTS + 1);
	free(log.ev);
	free(r);
}

UNIT_MAIN("recorder_ring", UT(concurrent_writers), UT(merge_in_time_order), UT(cutoff_waits_for_busy),
	  UT(torn_slot_detected), UT(ring_overflow_counted),
	  UT(dropped_stops_at_query_end), UT(dropped_entry_split),
	  UT(lagging_clock_raised))
