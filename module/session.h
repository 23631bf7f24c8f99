/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One open file of ptwalk's debugfs interface: its query, where the walk
 * of that query stands, and the bounded buffers it is answered through.
 */
#ifndef PTWALK_SESSION_H
#define PTWALK_SESSION_H

#include <linux/mutex.h>
#include <linux/types.h>
#include "ptwalk_abi.h"
#include "extent.h"
#include "iommu.h"

/* Records walked per chunk; the only per-query memory besides text. */
#define PTWALK_BATCH		64

struct ptwalk_session {
	struct mutex lock;		/* serialises users of one open file */
	struct mm_struct *mm;		/* mmgrab()bed target; NULL: no query */
	pid_t pid;
	struct ptwalk_cursor cur;
	bool vtop;			/* a PTWALK_REQ_VTOP query of vtop_addr */
	unsigned long vtop_addr;
	bool task;			/* a PTWALK_REQ_TASK query: task_info */
	struct ptwalk_task task_info;
	bool answered;			/* the one answer of a vtop or task
					 * query was read
					 */
	bool extended;			/* PTWALK_REQ_EXTENDED: records are
					 * struct ptwalk_record_ext
					 */
	struct ptwalk_iommu_query iommu; /* a PTWALK_REQ_IOMMU query, when
					  * iommu.pdev is set (mm is NULL)
					  */
	bool folio;			/* PTWALK_REQ_FOLIO: folio_shift
					 * handed out, else zeroed
					 */
	union {
		struct ptwalk_record_ext batch[PTWALK_BATCH];
		struct ptwalk_iommu_record iommu_batch[PTWALK_BATCH];
	};
	/* Text view only: formatted lines not yet read. */
	char *text;
	size_t text_len;
	size_t text_pos;
};

struct ptwalk_session *ptwalk_session_create(bool text);
void ptwalk_session_destroy(struct ptwalk_session *s);

/* Forgets the query: a failed new query must not leave the old one. */
void ptwalk_session_reset(struct ptwalk_session *s);

/*
 * Forgets the session's query and starts @req, over the whole user address
 * space of req->pid when @whole.  Returns 0 or the errno the request
 * deserves; a failed request leaves no query behind.  Called with s->lock
 * held.
 */
int ptwalk_session_query(struct ptwalk_session *s,
			 const struct ptwalk_request *req, bool whole);

/*
 * Walks one chunk into s->batch, at most @max records (<= PTWALK_BATCH).
 * Returns how many records are ready, possibly 0 before the end of the
 * range, or a negative errno.  Called with s->lock held.
 */
int ptwalk_session_fill(struct ptwalk_session *s, unsigned int max);

/*
 * Forgets the session's query and starts the IOMMU query @req
 * (PTWALK_REQ_IOMMU).  As ptwalk_session_query().
 */
int ptwalk_session_iommu_query(struct ptwalk_session *s,
			       const struct ptwalk_iommu_request *req);

/* Size of one record of the session's query, as read() returns it. */
size_t ptwalk_session_record_size(const struct ptwalk_session *s);

/*
 * Lays the first @n records of s->batch out as read() returns them (a
 * plain query gets struct ptwalk_record, without the extension) and
 * returns where they start.
 */
const void *ptwalk_session_pack(struct ptwalk_session *s, unsigned int n);

#endif /* PTWALK_SESSION_H */
