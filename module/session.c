// SPDX-License-Identifier: GPL-2.0
/*
 * Queries: resolving the target, pinning its mm, and walking it in chunks
 * under its mmap read lock.  The lock is dropped between chunks so that
 * records are copied to the caller (who may be the target itself) without
 * holding it, as /proc/PID/pagemap does.
 */
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "range.h"
#include "session.h"

struct ptwalk_session *ptwalk_session_create(bool text)
{
	struct ptwalk_session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	mutex_init(&s->lock);
	if (text) {
		s->text = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (!s->text) {
			kfree(s);
			return NULL;
		}
	}
	return s;
}

void ptwalk_session_destroy(struct ptwalk_session *s)
{
	if (s->mm)
		mmdrop(s->mm);
	ptwalk_iommu_stop(&s->iommu);
	mutex_destroy(&s->lock);
	kfree(s->text);
	kfree(s);
}

static int request_check(const struct ptwalk_request *req, bool whole)
{
	if (req->abi_version != PTWALK_ABI_VERSION)
		return -EPROTO;
	if ((req->flags & ~(PTWALK_REQ_VTOP | PTWALK_REQ_EXTENDED |
			    PTWALK_REQ_FOLIO | PTWALK_REQ_TASK)) ||
	    req->reserved || req->pid <= 0)
		return -EINVAL;
	if (req->flags & PTWALK_REQ_TASK)
		return req->flags != PTWALK_REQ_TASK || whole || req->start ||
		       req->end ? -EINVAL : 0;
	/* folio sizes travel in extended records and vtop answers only */
	if ((req->flags & PTWALK_REQ_FOLIO) &&
	    !(req->flags & (PTWALK_REQ_VTOP | PTWALK_REQ_EXTENDED)))
		return -EINVAL;
	if (whole)
		return 0;
	if (req->flags & PTWALK_REQ_VTOP)
		return req->end ? -EINVAL : 0;
	if (!PAGE_ALIGNED(req->start) || !PAGE_ALIGNED(req->end))
		return -EINVAL;
	if (req->start >= req->end)
		return -ERANGE;
	return 0;
}

/*
 * A reference on the address space of @nr, or an errno; with @info, what
 * a PTWALK_REQ_TASK query answers, read while the task is held.
 */
static struct mm_struct *target_mm(pid_t nr, struct ptwalk_task *info)
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *pid;

	pid = find_get_pid(nr);
	if (!pid)
		return ERR_PTR(-ESRCH);
	task = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!task)
		return ERR_PTR(-ESRCH);
	/* NULL for kernel threads and for tasks that are exiting. */
	mm = get_task_mm(task);
	if (mm && info) {
		info->pid = nr;
		info->tgid = task_tgid_vnr(task);
		/* as 6.1's __get_task_comm(): under the lock a rename takes */
		task_lock(task);
		strscpy_pad(info->comm, task->comm, sizeof(info->comm));
		task_unlock(task);
	}
	put_task_struct(task);
	return mm ? mm : ERR_PTR(-ENXIO);
}

void ptwalk_session_reset(struct ptwalk_session *s)
{
	if (s->mm)
		mmdrop(s->mm);
	s->mm = NULL;
	s->pid = 0;
	ptwalk_iommu_stop(&s->iommu);
	ptwalk_cursor_init(&s->cur, 0, 0);
	s->vtop = false;
	s->task = false;
	s->answered = false;
	s->vtop_addr = 0;
	s->extended = false;
	s->folio = false;
	s->text_len = 0;
	s->text_pos = 0;
}

int ptwalk_session_query(struct ptwalk_session *s,
			 const struct ptwalk_request *req, bool whole)
{
	u64 start = req->start, end = req->end;
	bool vtop = req->flags & PTWALK_REQ_VTOP;
	bool task = req->flags & PTWALK_REQ_TASK;
	struct mm_struct *mm;
	int ret;

	ptwalk_session_reset(s);
	ret = request_check(req, whole);
	if (ret)
		return ret;
	mm = target_mm(req->pid, task ? &s->task_info : NULL);
	if (IS_ERR(mm))
		return PTR_ERR(mm);
	if (whole) {
		start = 0;
		end = mm->task_size;
	} else if (!task &&
		   (vtop ? start >= mm->task_size : end > mm->task_size)) {
		mmput(mm);
		return -ERANGE;
	}
	/* Keep the mm_struct, not the address space: the target may exit. */
	mmgrab(mm);
	mmput(mm);
	s->mm = mm;
	s->pid = req->pid;
	s->extended = req->flags & PTWALK_REQ_EXTENDED;
	s->folio = req->flags & PTWALK_REQ_FOLIO;
	if (vtop) {
		s->vtop = true;
		s->vtop_addr = start;
	} else if (task) {
		s->task = true;
	} else {
		ptwalk_cursor_init(&s->cur, start, end);
	}
	return 0;
}

int ptwalk_session_fill(struct ptwalk_session *s, unsigned int max)
{
	struct ptwalk_extents x = {
		.cur = &s->cur,
		.out = s->batch,
		.max_out = min_t(unsigned int, max, PTWALK_BATCH),
		.budget = PTWALK_CHUNK_BUDGET,
	};

	if (s->cur.addr < s->cur.end) {
		/* Fails once the target has exited and its memory is gone. */
		if (!mmget_not_zero(s->mm))
			return -ESRCH;
		if (mmap_read_lock_killable(s->mm)) {
			mmput(s->mm);
			return -EINTR;
		}
		ptwalk_range_chunk(s->mm, &x);
		mmap_read_unlock(s->mm);
		mmput(s->mm);
	}
	ptwalk_extents_finish(&x);
	return x.nr_out;
}

int ptwalk_session_iommu_query(struct ptwalk_session *s,
			       const struct ptwalk_iommu_request *req)
{
	ptwalk_session_reset(s);
	return ptwalk_iommu_start(&s->iommu, req);
}

size_t ptwalk_session_record_size(const struct ptwalk_session *s)
{
	if (s->iommu.pdev)
		return sizeof(struct ptwalk_iommu_record);
	return s->extended ? sizeof(struct ptwalk_record_ext) :
			     sizeof(struct ptwalk_record);
}

const void *ptwalk_session_pack(struct ptwalk_session *s, unsigned int n)
{
	struct ptwalk_record *plain = (struct ptwalk_record *)s->batch;
	unsigned int i;

	/* records split by folio size always; its value only when asked */
	if (s->extended) {
		for (i = 0; !s->folio && i < n; i++)
			s->batch[i].folio_shift = 0;
		return s->batch;
	}
	/* In place, front to back: record i never lands beyond record i. */
	for (i = 0; i < n; i++)
		memmove(&plain[i], &s->batch[i].rec, sizeof(*plain));
	return plain;
}
