// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/job_pool.h"

/*
 * Events a job may get ahead of the main thread, which takes the items in
 * address order: enough for the ranges of a whole item of a sparse
 * mapping (a 64 GiB one touched every 100th page: 1,311 a batch), so
 * that the next job compares its item meanwhile.  96 bytes an event: 192
 * KiB a job, touched only as far as a plan fills it.
 */
#define CHANNEL_EVENTS	2048
/*
 * Events handed over at once, either way: the lock, and a wake-up when
 * the other side sleeps, per block rather than per event: a futex wake
 * per range would cost a sparse mapping, a range every few pages, more
 * than its reads.  Blocks of an eighth of the channel keep both sides
 * busy while the other drains or fills the rest.
 */
#define BLOCK_EVENTS	256

struct job {
	struct job_pool *pool;
	unsigned int id;
	pthread_t thread;
	bool started;
	struct compare_io io;
	struct compare_engine *engine;
	struct compare_piece parts[JOBS_PLAN_MAX];
	/* the channel: events [head, tail) are waiting, under pool->lock */
	struct job_event ev[CHANNEL_EVENTS];
	size_t head, tail;
	bool getter_waits, putter_waits;
	pthread_cond_t can_put, can_get;
	/* the job's block being filled, handed over when full or item done */
	struct job_event out[BLOCK_EVENTS];
	size_t nr_out;
	/* the main thread's block taken from the channel, and where it is */
	struct job_event in[BLOCK_EVENTS];
	size_t nr_in, pos_in;
};

struct job_pool {
	pthread_mutex_t lock;
	pthread_cond_t plan_ready;	/* jobs wait for a plan */
	pthread_cond_t plan_done;	/* the main thread waits for idle jobs */
	const struct compare_piece *pieces;
	size_t n;
	unsigned long gen;		/* plans handed out so far */
	unsigned int idle;		/* jobs done with the current plan */
	bool cancel;			/* drop the rest of the plan */
	bool quit;			/* no more plans */
	unsigned int jobs;
	size_t batch;
	unsigned int shift;		/* the kernel's page shift */
	struct job *job;
};

/* Hands j's block over to the channel; false once the plan is cancelled. */
static bool flush_out(struct job *j)
{
	struct job_pool *r = j->pool;
	bool ok;

	pthread_mutex_lock(&r->lock);
	if (!j->nr_out) {
		/* cancel is written under the lock (jobs_cancel()) */
		ok = !r->cancel;
		pthread_mutex_unlock(&r->lock);
		return ok;
	}
	while (CHANNEL_EVENTS - (j->tail - j->head) < j->nr_out &&
	       !r->cancel) {
		j->putter_waits = true;
		pthread_cond_wait(&j->can_put, &r->lock);
		j->putter_waits = false;
	}
	ok = !r->cancel;
	for (size_t i = 0; ok && i < j->nr_out; i++)
		j->ev[j->tail++ % CHANNEL_EVENTS] = j->out[i];
	if (ok && j->getter_waits)
		pthread_cond_signal(&j->can_get);
	pthread_mutex_unlock(&r->lock);
	j->nr_out = 0;
	return ok;
}

/* Adds ev to j's block: false once the plan is cancelled. */
static bool put(struct job *j, const struct job_event *ev)
{
	j->out[j->nr_out++] = *ev;
	return j->nr_out < BLOCK_EVENTS || flush_out(j);
}

static void put_range(const struct verdict_range *vr, void *arg)
{
	struct job_event ev = { .range = *vr };

	put(arg, &ev);
}

/* Compares the item's parts, one plan for them all. */
static bool run_item(struct job *j, const struct job_item *it,
		     const struct compare_piece *pieces)
{
	size_t np = job_parts(it);

	for (size_t i = 0; i < np; i++)
		j->parts[i] = job_part(it, pieces, i);
	compare_plan(j->engine, j->parts, np);
	for (size_t i = 0; i < np; i++) {
		struct job_event ev = { .part_end = true };

		ev.err = compare_piece(j->engine, j->parts[i].start,
				       j->parts[i].end, &ev.sum, put_range, j);
		if (!put(j, &ev))
			return false;
		if (ev.err) {
			flush_out(j);	/* the main thread reports it */
			return false;
		}
	}
	return flush_out(j);
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	struct job_pool *r = j->pool;
	unsigned long seen = 0;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		const struct compare_piece *pieces;
		struct job_cursor c;
		struct job_item it;
		size_t n, k = 0;

		while (!r->quit && r->gen == seen)
			pthread_cond_wait(&r->plan_ready, &r->lock);
		if (r->quit)
			break;
		seen = r->gen;
		pieces = r->pieces;
		n = r->n;
		pthread_mutex_unlock(&r->lock);

		job_cursor_init(&c, pieces, n, r->batch, r->jobs, r->shift);
		while (job_next(&c, &it))
			if (k++ % r->jobs == j->id && !run_item(j, &it, pieces))
				break;

		pthread_mutex_lock(&r->lock);
		r->idle++;
		pthread_cond_signal(&r->plan_done);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

struct job_pool *jobs_start(unsigned int jobs, size_t batch,
			    const struct compare_io *io,
			    unsigned int page_shift)
{
	struct job_pool *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->plan_ready, NULL);
	pthread_cond_init(&r->plan_done, NULL);
	r->jobs = jobs;
	r->batch = batch;
	r->shift = page_shift;
	r->idle = jobs;
	r->job = calloc(jobs, sizeof(*r->job));
	if (!r->job)
		goto fail;
	for (unsigned int i = 0; i < jobs; i++) {
		struct job *j = &r->job[i];

		j->pool = r;
		j->id = i;
		pthread_cond_init(&j->can_put, NULL);
		pthread_cond_init(&j->can_get, NULL);
		j->io = io[i];
		j->engine = compare_new(&j->io, batch, page_shift);
		if (!j->engine)
			goto fail;
	}
	for (unsigned int i = 0; i < jobs; i++) {
		if (pthread_create(&r->job[i].thread, NULL, job_main,
				   &r->job[i]))
			goto fail;
		r->job[i].started = true;
	}
	return r;
fail:
	jobs_stop(r);
	return NULL;
}

void jobs_plan(struct job_pool *r, const struct compare_piece *pieces,
	       size_t n)
{
	pthread_mutex_lock(&r->lock);
	r->pieces = pieces;
	r->n = n;
	r->idle = 0;
	r->cancel = false;
	r->gen++;
	pthread_cond_broadcast(&r->plan_ready);
	pthread_mutex_unlock(&r->lock);
}

void jobs_next(struct job_pool *r, size_t k, struct job_event *ev)
{
	struct job *j = &r->job[k % r->jobs];

	if (j->pos_in == j->nr_in) {
		pthread_mutex_lock(&r->lock);
		while (j->head == j->tail) {
			j->getter_waits = true;
			pthread_cond_wait(&j->can_get, &r->lock);
			j->getter_waits = false;
		}
		for (j->nr_in = 0; j->nr_in < BLOCK_EVENTS && j->head != j->tail;)
			j->in[j->nr_in++] = j->ev[j->head++ % CHANNEL_EVENTS];
		if (j->putter_waits)
			pthread_cond_signal(&j->can_put);
		pthread_mutex_unlock(&r->lock);
		j->pos_in = 0;
	}
	*ev = j->in[j->pos_in++];
}

void jobs_wait(struct job_pool *r)
{
	pthread_mutex_lock(&r->lock);
	while (r->idle < r->jobs)
		pthread_cond_wait(&r->plan_done, &r->lock);
	/* what a cancelled plan left on the channels is dropped */
	for (unsigned int i = 0; i < r->jobs; i++) {
		r->job[i].head = r->job[i].tail;
		r->job[i].nr_in = r->job[i].pos_in = 0;
		r->job[i].nr_out = 0;
	}
	pthread_mutex_unlock(&r->lock);
}

void jobs_cancel(struct job_pool *r)
{
	pthread_mutex_lock(&r->lock);
	r->cancel = true;
	for (unsigned int i = 0; i < r->jobs; i++)
		pthread_cond_signal(&r->job[i].can_put);
	pthread_mutex_unlock(&r->lock);
}

void jobs_stop(struct job_pool *r)
{
	if (!r)
		return;
	if (r->job) {
		jobs_cancel(r);
		jobs_wait(r);
		pthread_mutex_lock(&r->lock);
		r->quit = true;
		pthread_cond_broadcast(&r->plan_ready);
		pthread_mutex_unlock(&r->lock);
		for (unsigned int i = 0; i < r->jobs; i++) {
			if (r->job[i].started)
				pthread_join(r->job[i].thread, NULL);
			compare_free(r->job[i].engine);
			pthread_cond_destroy(&r->job[i].can_put);
			pthread_cond_destroy(&r->job[i].can_get);
		}
		free(r->job);
	}
	pthread_cond_destroy(&r->plan_ready);
	pthread_cond_destroy(&r->plan_done);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
