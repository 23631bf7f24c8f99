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
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "dma_track.h"
#include "lockdown.h"
#include "range.h"
#include "recorder.h"
#include "session.h"

struct ptwalk_session *ptwalk_session_create(bool text)
{
	struct ptwalk_session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	mutex_init(&s->lock);
	/*
	 * The pid namespace the file was opened in, not the one of whoever
	 * asks later: a file handed to a process of another namespace
	 * (SCM_RIGHTS, a child after unshare(CLONE_NEWPID)) still means
	 * the pids its opener saw.
	 */
	s->pid_ns = get_pid_ns(task_active_pid_ns(current));
	if (text) {
		s->text = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (!s->text) {
			put_pid_ns(s->pid_ns);
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
	if (s->recorder_held)
		ptwalk_recorder_release();
	ptwalk_dma_release(&s->dma);
	put_pid_ns(s->pid_ns);
	mutex_destroy(&s->lock);
	kfree(s->text);
	kfree(s);
}

/*
 * A reference on the address space of the task numbered @nr in @ns, or
 * an errno; with @info, what a task query (PTWALK_IOC_TASK) answers, read
 * while the task is held, its tgid a number of @ns too.
 */
static struct mm_struct *target_mm(struct pid_namespace *ns, pid_t nr,
				   struct ptwalk_task *info)
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *pid;

	/* find_get_pid() is find_pid_ns() in the caller's namespace */
	rcu_read_lock();
	pid = get_pid(find_pid_ns(nr, ns));
	rcu_read_unlock();
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
		info->tgid = task_tgid_nr_ns(task, ns);
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
	s->kind = PTWALK_QUERY_NONE;
	s->confidential = false;
	ptwalk_iommu_stop(&s->iommu);
	ptwalk_cursor_init(&s->cur, 0, 0);
	s->answered = false;
	s->vtop_addr = 0;
	s->ready = 0;
	s->nr_ready = 0;
	s->text_len = 0;
	s->text_pos = 0;
}

/*
 * Forgets the session's query and keeps @pid's mm_struct for a new one of
 * @kind; with @info, the task query's answer.  Called with s->lock held.
 */
static int session_target(struct ptwalk_session *s, pid_t pid,
			  enum ptwalk_query_kind kind, struct ptwalk_task *info)
{
	struct mm_struct *mm;

	ptwalk_session_reset(s);
	if (pid <= 0)
		return -EINVAL;
	mm = target_mm(s->pid_ns, pid, info);
	if (IS_ERR(mm))
		return PTR_ERR(mm);
	/* Keep the mm_struct, not the address space: the target may exit. */
	mmgrab(mm);
	mmput(mm);
	s->mm = mm;
	s->pid = pid;
	s->kind = kind;
	return 0;
}

int ptwalk_session_range(struct ptwalk_session *s, pid_t pid, u64 start,
			 u64 end, bool whole)
{
	int ret;

	if (!whole) {
		ret = -EINVAL;
		if (!PAGE_ALIGNED(start) || !PAGE_ALIGNED(end))
			goto fail;
		ret = -ERANGE;
		if (start >= end)
			goto fail;
	}
	ret = session_target(s, pid, PTWALK_QUERY_RANGE, NULL);
	if (ret)
		return ret;
	if (whole) {
		start = 0;
		end = s->mm->task_size;
	} else if (end > s->mm->task_size) {
		ptwalk_session_reset(s);
		return -ERANGE;
	}
	ptwalk_cursor_init(&s->cur, start, end);
	return 0;
fail:
	ptwalk_session_reset(s);
	return ret;
}

int ptwalk_session_vtop(struct ptwalk_session *s, pid_t pid, u64 addr)
{
	int ret = session_target(s, pid, PTWALK_QUERY_VTOP, NULL);

	if (ret)
		return ret;
	if (addr >= s->mm->task_size) {
		ptwalk_session_reset(s);
		return -ERANGE;
	}
	s->vtop_addr = addr;
	/* asked once per query: the kernel logs each refusal it answers */
	s->confidential = ptwalk_confidentiality_locked();
	return 0;
}

int ptwalk_session_task(struct ptwalk_session *s, pid_t pid)
{
	return session_target(s, pid, PTWALK_QUERY_TASK, &s->task_info);
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
		/* only a fatal signal interrupts: the caller never sees it */
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

int ptwalk_session_iommu(struct ptwalk_session *s,
			 const struct ptwalk_iommu_query *q)
{
	int ret;

	ptwalk_session_reset(s);
	ret = ptwalk_iommu_start(&s->iommu, q);
	if (!ret)
		s->kind = PTWALK_QUERY_IOMMU;
	return ret;
}

/*
 * The events recorded from since_seq up to now: later ones wait for the
 * next query, so that reading ends under a storm of events too.  The
 * first events query of a session arms the recorder until the session
 * is closed (and iommu_events_idle seconds more).
 */
int ptwalk_session_events(struct ptwalk_session *s,
			  const struct ptwalk_events_query *q)
{
	int ret;

	ptwalk_session_reset(s);
	if (q->flags)
		return -EINVAL;
	if (!s->recorder_held) {
		ret = ptwalk_recorder_hold();
		if (ret)
			return ret;
		s->recorder_held = true;
	}
	s->events_end = ptwalk_recorder_collect();
	s->events_next = max_t(u64, q->since_seq, 1);
	s->confidential = ptwalk_confidentiality_locked();
	s->kind = PTWALK_QUERY_EVENTS;
	return 0;
}

size_t ptwalk_session_record_size(const struct ptwalk_session *s)
{
	if (s->kind == PTWALK_QUERY_EVENTS)
		return sizeof(struct ptwalk_iommu_event);
	if (s->kind == PTWALK_QUERY_IOMMU)
		return sizeof(struct ptwalk_iommu_record);
	return sizeof(struct ptwalk_record_ext);
}
