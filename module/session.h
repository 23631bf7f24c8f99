/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One open file of ptwalk: its query, where the walk of that query
 * stands, and the bounded buffer it is answered through.
 */
#ifndef PTWALK_SESSION_H
#define PTWALK_SESSION_H

#include <linux/mutex.h>
#include <linux/types.h>
#include "ptwalk_abi.h"
#include "dma_track.h"
#include "extent.h"
#include "iommu.h"

/* Records walked per chunk; the only per-query memory besides text. */
#define PTWALK_BATCH		64

/* Which query the session holds. */
enum ptwalk_query_kind {
	PTWALK_QUERY_NONE,
	PTWALK_QUERY_RANGE,
	PTWALK_QUERY_VTOP,
	PTWALK_QUERY_TASK,
	PTWALK_QUERY_IOMMU,
	PTWALK_QUERY_EVENTS,
};

struct ptwalk_session {
	struct mutex lock;		/* serialises users of one open file */
	struct pid_namespace *pid_ns;	/* the opener's: the queries' pids
					 * are numbers in it, whoever asks
					 */
	enum ptwalk_query_kind kind;
	bool confidential;		/* lockdown in confidentiality mode,
					 * asked once at the query's start
					 */
	struct mm_struct *mm;		/* mmgrab()bed target of a range, vtop
					 * or task query
					 */
	pid_t pid;
	struct ptwalk_cursor cur;	/* a range query's walk */
	unsigned long vtop_addr;
	struct ptwalk_task task_info;	/* a task query's answer */
	bool answered;			/* the one answer of a vtop or task
					 * query was read
					 */
	struct ptwalk_iommu_cursor iommu; /* a device-view query's */
	u64 events_next;		/* an events query: the next event, */
	u64 events_end;			/* and the first one it leaves out */
	bool recorder_held;		/* an events query armed the recorder */
	struct ptwalk_dma_holds dma;	/* devices it keeps tracked */
	/*
	 * Records filled and not yet copied out: [ready, nr_ready) of
	 * batch (or iommu_batch).  A copy that fails leaves them here for
	 * the next read, so no record is lost.
	 */
	unsigned int ready;
	unsigned int nr_ready;
	union {
		struct ptwalk_record_ext batch[PTWALK_BATCH];
		struct ptwalk_iommu_record iommu_batch[PTWALK_BATCH];
		struct ptwalk_iommu_event event_batch[PTWALK_BATCH];
	};
	/* Text view only: formatted lines not yet read. */
	char *text;
	size_t text_len;
	size_t text_pos;
};

/* A session of the current task, whose pid namespace it keeps. */
struct ptwalk_session *ptwalk_session_create(bool text);
void ptwalk_session_destroy(struct ptwalk_session *s);

/* Forgets the query: a failed new query must not leave the old one. */
void ptwalk_session_reset(struct ptwalk_session *s);

/*
 * Each forgets the session's query and starts a new one: 0 or the errno
 * the query deserves (ptwalk_abi.h lists them); a failed query leaves
 * none behind.  Called with s->lock held.  @whole: the whole user address
 * space of @pid (the text view's "PID").
 */
int ptwalk_session_range(struct ptwalk_session *s, pid_t pid, u64 start,
			 u64 end, bool whole);
int ptwalk_session_vtop(struct ptwalk_session *s, pid_t pid, u64 addr);
int ptwalk_session_task(struct ptwalk_session *s, pid_t pid);
int ptwalk_session_iommu(struct ptwalk_session *s,
			 const struct ptwalk_iommu_query *q);
int ptwalk_session_events(struct ptwalk_session *s,
			  const struct ptwalk_events_query *q);

/*
 * Walks one chunk of a range query into s->batch, at most @max records
 * (<= PTWALK_BATCH).  Returns how many records are ready, possibly 0
 * before the end of the range, or a negative errno.  Called with s->lock
 * held.
 */
int ptwalk_session_fill(struct ptwalk_session *s, unsigned int max);

/* Size of one record of the session's query, as read() returns it. */
size_t ptwalk_session_record_size(const struct ptwalk_session *s);

#endif /* PTWALK_SESSION_H */
