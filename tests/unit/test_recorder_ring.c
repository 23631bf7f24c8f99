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
	unsigned int heap[NR_CPUS];
	struct ptwalk_rec_event log_ev[16];
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
	struct ptwalk_rec_event e = {
		.ev = {
			.kind = PTWALK_EVENT_MAP, .iova = iova, .size = 4096,
			.pfn = iova >> 12, .time_ns = ns,
		},
	};

	ptwalk_rec_put(&b->cpu[cpu], &e);
}

/* A collection whose clock read @now (before the heads, as recorder.c). */
static void collect(struct bench *b, uint64_t now)
{
	for (unsigned int i = 0; i < NR_CPUS; i++)
		ptwalk_rec_end(&b->cpu[i], &b->readers[i]);
	ptwalk_rec_collect(b->rings, b->readers, NR_CPUS, now, &b->log,
			   b->heap, NULL);
}

/* Everything from @since up to the log's next number, in reads of @max. */
static size_t fill_all(struct bench *b, uint64_t since, uint64_t end,
		       struct ptwalk_iommu_event *out, unsigned int max)
{
	u64 next = since;
	size_t n = 0;
	unsigned int got;

	while ((got = ptwalk_rec_log_fill(&b->log, &next, end, out + n, max,
					  NULL, NULL)))
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
 * Events timed after the collector's clock wait for the next collection,
 * and hold back none of their ring's earlier ones; one put after a
 * collection that had passed its time is numbered after what that
 * collection numbered, its time raised (the late-commit rule).
 */
static void cutoff_waits(void **state)
{
	struct bench *b = bench_new(8, 16);
	struct ptwalk_iommu_event out[16];
	size_t n;

	(void)state;
	put(b, 0, 10, 0x1000);
	put(b, 1, 30, 0x2000);
	put(b, 1, 200, 0x4000);
	collect(b, 100);
	assert_int_equal(b->log.next_seq, 3);	/* 0x1000, 0x2000 */
	put(b, 0, 20, 0x3000);			/* put late, timed 20 */
	collect(b, 150);
	assert_int_equal(b->log.next_seq, 4);	/* 0x4000 still waits */
	collect(b, 250);
	n = fill_all(b, 1, b->log.next_seq, out, 16);
	assert_int_equal(n, 4);
	assert_accounted(out, n, 1, 5);
	assert_int_equal(out[1].iova, 0x2000);
	assert_int_equal(out[2].iova, 0x3000);
	assert_int_equal(out[2].time_ns, 30);	/* raised from 20 */
	assert_int_equal(out[3].iova, 0x4000);
	free(b);
}

/* A torn slot (being overwritten) is not handed out as an event. */
static void torn_slot_detected(void **state)
{
	struct bench *b = bench_new(4, 16);
	struct ptwalk_rec_event e;

	(void)state;
	put(b, 0, 10, 0x1000);
	assert_true(ptwalk_rec_get(&b->cpu[0], 0, &e));
	assert_int_equal(e.ev.iova, 0x1000);
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
	n = ptwalk_rec_log_fill(&b->log, &next, end, out, 16, NULL, NULL);
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

/*
 * Sizing: iommu_events held to 64..2^20 (never a wrapped power of two),
 * the rings' share of it rounded down, at least 64 slots, at most the
 * log: 256 possible CPUs take 64 slots each for the default 16384, not
 * the 1024 each (24 MiB) a fixed floor gave.
 */
static void sizes_bounded(void **state)
{
	static const struct {
		unsigned int events, cpus, log, per_cpu;
	} rows[] = {
		{ 16384, 256, 16384, 64 },
		{ 16384, 2, 16384, 8192 },
		{ 16384, 3, 16384, 4096 },	/* 5461 rounded down */
		{ 16384, 1, 16384, 16384 },
		{ 100, 1, 128, 64 },
		{ 1, 4, 64, 64 },		/* held to the minimum */
		{ 0x80000001u, 1, 1u << 20, 1u << 20 },	/* held to 2^20 */
		{ 0xffffffffu, 8192, 1u << 20, 128 },
		{ 16384, 0, 16384, 16384 },
	};

	(void)state;
	assert_int_equal(ptwalk_rec_events_clamp(0), 0);
	assert_int_equal(ptwalk_rec_events_clamp(0xffffffffu), 1u << 20);
	assert_int_equal(ptwalk_rec_events_clamp(5000), 5000);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ptwalk_rec_size sz = ptwalk_rec_sizes(rows[i].events,
							     rows[i].cpus);

		assert_int_equal(sz.log, rows[i].log);
		assert_int_equal(sz.per_cpu, rows[i].per_cpu);
	}
}

#define MANY_RINGS	37
#define MANY_EACH	1000

static unsigned int yields;

static void count_yield(void)
{
	yields++;
}

/*
 * The heap merge over many rings, most of them empty: every event out in
 * time order, ties to the lower ring, each ring's order kept, and the
 * resched called every PTWALK_REC_PAUSE_EVERY events.
 */
static void many_rings_merge(void **state)
{
	static struct ptwalk_rec_slot slots[MANY_RINGS][1024];
	static struct ptwalk_rec_event log_ev[8192];
	struct ptwalk_rec_cpu cpu[MANY_RINGS] = { 0 };
	const struct ptwalk_rec_cpu *rings[MANY_RINGS];
	struct ptwalk_rec_reader readers[MANY_RINGS] = { 0 };
	unsigned int heap[MANY_RINGS], busy = 0;
	struct ptwalk_rec_log log = { .ev = log_ev, .mask = 8191, .next_seq = 1 };
	u64 logged;

	(void)state;
	srand(7);
	for (unsigned int i = 0; i < MANY_RINGS; i++) {
		cpu[i].slots = slots[i];
		cpu[i].mask = 1023;
		rings[i] = (i % 3 == 1) ? NULL : &cpu[i];	/* some absent */
	}
	/* every fourth ring there used: MANY_EACH events, times rising slowly */
	for (unsigned int i = 0; i < MANY_RINGS; i += 4) {
		u64 t = 0;

		if (!rings[i])
			continue;
		busy++;
		for (unsigned int k = 0; k < MANY_EACH; k++) {
			struct ptwalk_rec_event e = {
				.ev = { .kind = PTWALK_EVENT_MAP,
					.iova = ((u64)i << 32) | k, .size = 1 },
			};

			t += (u64)(rand() % 3);	/* ties across rings */
			e.ev.time_ns = t;
			ptwalk_rec_put(&cpu[i], &e);
		}
	}
	for (unsigned int i = 0; i < MANY_RINGS; i++)
		ptwalk_rec_end(&cpu[i], &readers[i]);
	yields = 0;
	logged = ptwalk_rec_collect(rings, readers, MANY_RINGS, ~0ULL, &log,
				    heap, count_yield);
	assert_int_equal(logged, busy * MANY_EACH);
	assert_int_equal(log.head, busy * MANY_EACH);
	assert_int_equal(yields, busy * MANY_EACH / PTWALK_REC_PAUSE_EVERY);
	for (u64 k = 1; k < log.head; k++) {
		const struct ptwalk_iommu_event *a = &log.ev[k - 1].ev;
		const struct ptwalk_iommu_event *b = &log.ev[k].ev;

		assert_true(a->time_ns <= b->time_ns);
		if (a->time_ns == b->time_ns)
			assert_true(a->iova < b->iova);	/* lower ring, or order */
		if (a->iova >> 32 == b->iova >> 32)
			assert_true((a->iova & 0xffffffff) < (b->iova & 0xffffffff));
	}
}

/* A pid table of the test: number 41 now names a process started at 9. */
static s32 pid_now(s32 pid, u64 start, void *ctx)
{
	unsigned int *calls = ctx;

	(*calls)++;
	return pid == 41 && start == 9 ? 1041 : 0;
}

/*
 * Each event's pid goes to the reader's lookup with the start time the
 * probe recorded: an event of a process gone whose number was reused
 * (start 5, the number's process now started at 9) reads pid 0; one of
 * the living process its pid as the reader numbers it; pid 0 (no task)
 * is not looked up.
 */
static void pid_checked_by_start(void **state)
{
	struct bench *b = bench_new(8, 16);
	struct ptwalk_iommu_event out[16];
	struct ptwalk_rec_event e = {
		.ev = { .kind = PTWALK_EVENT_MAP, .size = 1, .time_ns = 1,
			.pid = 41 },
		.pid_start = 5,
	};
	unsigned int calls = 0;
	u64 next = 1;

	(void)state;
	ptwalk_rec_put(&b->cpu[0], &e);
	e.ev.time_ns = 2;
	e.pid_start = 9;
	ptwalk_rec_put(&b->cpu[0], &e);
	e.ev.time_ns = 3;
	e.ev.pid = 0;
	e.pid_start = 0;
	ptwalk_rec_put(&b->cpu[0], &e);
	collect(b, 100);
	assert_int_equal(ptwalk_rec_log_fill(&b->log, &next, 4, out, 16,
					     pid_now, &calls), 3);
	assert_int_equal(out[0].pid, 0);	/* number reused */
	assert_int_equal(out[1].pid, 1041);
	assert_int_equal(out[2].pid, 0);
	assert_int_equal(calls, 2);
	free(b);
}

/*
 * INFO's next_seq without a merge: the log's plus what the rings hold
 * (overwritten ones too), the number the next event recorded gets.
 */
static void pending_counts_ahead(void **state)
{
	struct bench *b = bench_new(4, 16);
	u64 next;

	(void)state;
	put(b, 0, 10, 0x1000);
	collect(b, 100);
	for (uint64_t i = 0; i < 6; i++)	/* ring of 4: 2 overwritten */
		put(b, 0, 20 + i, 0x2000);
	put(b, 1, 30, 0x3000);
	next = b->log.next_seq;
	for (unsigned int i = 0; i < NR_CPUS; i++)
		next += ptwalk_rec_pending(&b->cpu[i], &b->readers[i]);
	assert_int_equal(next, 9);
	collect(b, 100);
	assert_int_equal(b->log.next_seq, next);
	for (unsigned int i = 0; i < NR_CPUS; i++)
		assert_int_equal(ptwalk_rec_pending(&b->cpu[i], &b->readers[i]), 0);
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
		struct ptwalk_rec_event e = {
			.ev = {
				.kind = PTWALK_EVENT_MAP,
				.iova = (i << 12) | w->id,
				.size = i ^ 0x5a5a5a5a, .pfn = i,
				.done = w->id,
			},
		};

		e.ev.time_ns = mono_ns();
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
	unsigned int heap[2];
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

		for (unsigned int i = 0; i < 2; i++)
			ptwalk_rec_end(&r->cpu[i], &readers[i]);
		ptwalk_rec_collect(rings, readers, 2, cutoff, &log, heap, NULL);
		if (finished && readers[0].taken == RACE_EVENTS &&
		    readers[1].taken == RACE_EVENTS)
			break;
	}
	for (unsigned int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	assert_true(log.head <= RACE_LOG);
	for (uint64_t k = 0; k < log.head; k++) {
		const struct ptwalk_iommu_event *e = &log.ev[k].ev;

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

UNIT_MAIN("recorder_ring", UT(concurrent_writers), UT(merge_in_time_order), UT(cutoff_waits),
	  UT(torn_slot_detected), UT(ring_overflow_counted),
	  UT(dropped_stops_at_query_end), UT(dropped_entry_split),
	  UT(lagging_clock_raised), UT(sizes_bounded), UT(many_rings_merge),
	  UT(pid_checked_by_start), UT(pending_counts_ahead))
