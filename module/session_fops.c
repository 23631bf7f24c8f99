// SPDX-License-Identifier: GPL-2.0
/*
 * The file operations of a ptwalk session, shared by both ways in: the
 * debugfs files (debugfs.c) and the misc device /dev/ptwalk (chardev.c),
 * which are only registrations of these.  Every open file is a private
 * session, so two callers never see each other's query.  The files are
 * stream files (no offsets, no pread): an answer is consumed as it is
 * read; stream_open() makes lseek fail with ESPIPE (no .llseek: 6.12
 * removed no_llseek, and NULL has meant the same on every kernel).
 * .owner makes debugfs and the misc core hold a module reference while a
 * file is open, so unloading waits.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "decode.h"
#include "dma_track.h"
#include "frame_file.h"
#include "lockdown.h"
#include "query_copy.h"
#include "recorder.h"
#include "session.h"
#include "session_fops.h"
#include "text.h"
#include "vtop.h"

static int open_session(struct inode *inode, struct file *file, bool text)
{
	struct ptwalk_session *s;

	/*
	 * PFNs are sensitive: CAP_SYS_ADMIN is the rule pagemap uses to show
	 * them at all.  And another task's page tables are what ptrace
	 * would show: ptrace_may_access() is not exported, so the
	 * capability that overrides its checks is asked for instead, at
	 * open as pagemap asks its own (docs/interface.md says what this
	 * cannot honour: Yama and LSM ptrace policy per target).
	 */
	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN) ||
	    !file_ns_capable(file, &init_user_ns, CAP_SYS_PTRACE))
		return -EPERM;
	s = ptwalk_session_create(text);
	if (!s)
		return -ENOMEM;
	if (text)
		s->text_len = ptwalk_format_usage(s->text, PAGE_SIZE);
	file->private_data = s;
	return stream_open(inode, file);
}

/*
 * The caller's own capabilities, asked again at every call that starts a
 * query or hands out its answer: the opener's (open_session()) say
 * nothing of who holds the file now: a daemon that dropped them after
 * opening, or a process the file was handed to (SCM_RIGHTS,
 * inheritance).  The same two, in the same namespace, as at open.
 * Without audit: a holder without them would otherwise make the LSM log
 * a denial (SELinux's avc, AppArmor's) on every call; the check that
 * grants the file, at open, stays audited.  As with capable(), a grant
 * marks the task PF_SUPERPRIV (acct's "used superuser privileges"), as
 * the open already did.
 */
static bool caller_may_ask(void)
{
	return ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN) &&
	       ns_capable_noaudit(&init_user_ns, CAP_SYS_PTRACE);
}

/*
 * What a wait on the session's lock, or a read cut short by a signal
 * before it copied anything, returns: -ERESTARTSYS, so that the system
 * call is restarted for a handler with SA_RESTART (the session lost
 * nothing: the query stands where it stood) and is EINTR for one
 * without; a fatal signal ends the task either way.
 */
#define PTWALK_INTERRUPTED	(-ERESTARTSYS)

static int query_open(struct inode *inode, struct file *file)
{
	return open_session(inode, file, false);
}

static int text_open(struct inode *inode, struct file *file)
{
	return open_session(inode, file, true);
}

static int session_release(struct inode *inode, struct file *file)
{
	ptwalk_session_destroy(file->private_data);
	return 0;
}

/*
 * PTWALK_IOC_INFO: at most the caller's size filled, the rest zeroed.
 * Not checked with caller_may_ask(): it says nothing of any process or
 * frame (the ABI version, the features, the recorder's counters), starts
 * no walk, and is what a client asks first to say which of the two
 * capabilities it lacks.
 */
static long info_ioctl(void __user *arg)
{
	struct ptwalk_info info = {
		.abi_version = PTWALK_ABI_VERSION,
		.features = PTWALK_FEAT_RANGE | PTWALK_FEAT_VTOP |
			    PTWALK_FEAT_TASK | PTWALK_FEAT_FRAME_FILE |
			    PTWALK_FEAT_DMA_EXPIRY |
			    ptwalk_iommu_features() |
			    (ptwalk_recorder_on() ? PTWALK_FEAT_IOMMU_EVENTS : 0),
		.absent_flags = ptwalk_absent_flags(),
	};
	struct ptwalk_recorder_state st;
	u32 usize;

	if (get_user(usize, (u32 __user *)arg))
		return -EFAULT;
	if (usize < offsetofend(struct ptwalk_info, abi_version))
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	if (ptwalk_recorder_on()) {
		ptwalk_recorder_state(&st);
		info.features |= PTWALK_FEAT_EVENTS_ARMING;
		info.events_next = st.next_seq;
		info.events_armed_ns = st.armed_ns;
		info.events_recorded = st.recorded;
	}
	info.size = min_t(u32, usize, sizeof(info));
	if (copy_to_user(arg, &info, info.size) ||
	    clear_user((char __user *)arg + info.size, usize - info.size))
		return -EFAULT;
	return 0;
}

/* A query's struct, its first version's size, and how it is started. */
static long query_ioctl(struct ptwalk_session *s, unsigned int cmd,
			void __user *arg)
{
	union {
		struct ptwalk_range_query range;
		struct ptwalk_vtop_query vtop;
		struct ptwalk_task_query task;
		struct ptwalk_iommu_query iommu;
		struct ptwalk_events_query events;
	} q;
	size_t size;
	long ret;

	switch (cmd) {
	case PTWALK_IOC_RANGE:
		size = sizeof(q.range);
		break;
	case PTWALK_IOC_VTOP:
		size = sizeof(q.vtop);
		break;
	case PTWALK_IOC_TASK:
		size = sizeof(q.task);
		break;
	case PTWALK_IOC_IOMMU:
		size = sizeof(q.iommu);
		break;
	case PTWALK_IOC_EVENTS:
		size = sizeof(q.events);
		break;
	default:
		return -ENOTTY;
	}
	/*
	 * Every query's first version is all the module knows of it yet.  A
	 * refused query, too, leaves none behind: reset below.
	 */
	ret = caller_may_ask() ? ptwalk_query_copy(&q, size, size, arg) : -EPERM;
	if (mutex_lock_interruptible(&s->lock))
		return PTWALK_INTERRUPTED;
	ptwalk_session_reset(s);
	if (ret)
		goto out;
	switch (cmd) {
	case PTWALK_IOC_RANGE:
		ret = q.range.flags || q.range.reserved ? -EINVAL :
		      ptwalk_session_range(s, q.range.pid, q.range.start,
					   q.range.end, false);
		break;
	case PTWALK_IOC_VTOP:
		ret = q.vtop.flags || q.vtop.reserved ? -EINVAL :
		      ptwalk_session_vtop(s, q.vtop.pid, q.vtop.addr);
		break;
	case PTWALK_IOC_TASK:
		ret = q.task.flags || q.task.reserved ? -EINVAL :
		      ptwalk_session_task(s, q.task.pid);
		break;
	case PTWALK_IOC_EVENTS:
		ret = ptwalk_session_events(s, &q.events);
		break;
	default:
		ret = ptwalk_session_iommu(s, &q.iommu);
	}
out:
	mutex_unlock(&s->lock);
	return ret;
}

/*
 * A driver's DMA: asked like every query (the caller's capabilities, the
 * session's lock), answered at once; the session's query stays as it
 * was, and a tracking it asked for is its hold (dma_track.c).
 */
static long dma_ioctl(struct ptwalk_session *s, unsigned int cmd,
		      void __user *arg)
{
	long ret;

	if (!caller_may_ask())
		return -EPERM;
	if (mutex_lock_interruptible(&s->lock))
		return PTWALK_INTERRUPTED;
	ret = ptwalk_dma_ioctl(&s->dma, cmd, arg);
	mutex_unlock(&s->lock);
	return ret;
}

static long session_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	if (cmd == PTWALK_IOC_INFO)
		return info_ioctl((void __user *)arg);
	if (cmd == PTWALK_IOC_DMA_TRACK || cmd == PTWALK_IOC_DMA_MAPS)
		return dma_ioctl(file->private_data, cmd, (void __user *)arg);
	if (cmd == PTWALK_IOC_FRAME_FILE)
		return caller_may_ask() ?
		       ptwalk_frame_file_ioctl((void __user *)arg) : -EPERM;
	return query_ioctl(file->private_data, cmd, (void __user *)arg);
}

/* The answer to a vtop query: one struct, then end of file. */
static ssize_t vtop_read(struct ptwalk_session *s, char __user *ubuf,
			 size_t count)
{
	struct ptwalk_vtop v;
	int ret;

	if (count < sizeof(v))
		return -EINVAL;
	if (s->answered)
		return 0;
	ret = ptwalk_vtop(s->mm, s->vtop_addr, &v);
	if (ret)
		return ret;
	if (s->confidential)
		ptwalk_vtop_redact(&v);
	if (copy_to_user(ubuf, &v, sizeof(v)))
		return -EFAULT;
	s->answered = true;
	return sizeof(v);
}

/* The answer to a task query, read at the ioctl. */
static ssize_t task_read(struct ptwalk_session *s, char __user *ubuf,
			 size_t count)
{
	if (count < sizeof(s->task_info))
		return -EINVAL;
	if (s->answered)
		return 0;
	if (copy_to_user(ubuf, &s->task_info, sizeof(s->task_info)))
		return -EFAULT;
	s->answered = true;
	return sizeof(s->task_info);
}

/*
 * Fills the session's batch with the next records of its range or
 * device-view query: how many (0: none yet, or the end), or -errno.
 */
static int answer_fill(struct ptwalk_session *s)
{
	unsigned int n, i;

	if (s->kind == PTWALK_QUERY_EVENTS) {
		n = ptwalk_recorder_fill(&s->events_next, s->events_end,
					 s->pid_ns, s->event_batch,
					 PTWALK_BATCH);
		/* the kernel's own DMA buffers are among the frames */
		for (i = 0; s->confidential && i < n; i++)
			s->event_batch[i].pfn = PTWALK_PFN_NONE;
		return n;
	}
	if (s->kind == PTWALK_QUERY_IOMMU)
		return ptwalk_iommu_fill(&s->iommu, s->iommu_batch,
					 PTWALK_BATCH);
	return ptwalk_session_fill(s, PTWALK_BATCH);
}

static bool answer_done(struct ptwalk_session *s)
{
	if (s->kind == PTWALK_QUERY_EVENTS)
		return s->events_next >= s->events_end;
	if (s->kind == PTWALK_QUERY_IOMMU)
		return ptwalk_iommu_done(&s->iommu);
	return ptwalk_cursor_done(&s->cur);
}

/*
 * Whether a range or device-view query stops a read early, and with what
 * if the read copied nothing yet (0: stop with what was copied): a range
 * query on a fatal signal (as pagemap's read does), a device-view query
 * on any signal or once the read has translated PTWALK_IOMMU_READ_PAGES
 * pages, since a range of IOVAs may be 2^36 pages of nothing.
 */
static bool answer_yield(struct ptwalk_session *s, ssize_t *err)
{
	*err = 0;
	if (fatal_signal_pending(current)) {
		*err = -EINTR;
		return true;
	}
	if (s->kind != PTWALK_QUERY_IOMMU)
		return false;
	if (signal_pending(current)) {
		*err = PTWALK_INTERRUPTED;
		return true;
	}
	return ptwalk_iommu_budget_spent(&s->iommu);
}

/*
 * Copies up to @max records of @size bytes to @ubuf: those the last read
 * could not copy first, then a batch at a time.  Only records copied
 * leave the session, so a failed copy (EFAULT) loses none: they come with
 * the next read.  Records already copied are reported; an error then
 * recurs on the next read.
 */
static ssize_t copy_answer(struct ptwalk_session *s, char __user *ubuf,
			   size_t max, size_t size)
{
	const char *batch = (const char *)s->batch;
	size_t done = 0;
	ssize_t ret = 0;

	ptwalk_iommu_budget_reset(&s->iommu);
	while (done < max) {
		size_t n;

		if (s->ready == s->nr_ready) {
			int filled;

			if (answer_done(s))
				break;
			filled = answer_fill(s);
			if (filled < 0) {
				ret = filled;
				break;
			}
			s->ready = 0;
			s->nr_ready = filled;
		}
		n = min_t(size_t, s->nr_ready - s->ready, max - done);
		if (n && copy_to_user(ubuf + done * size,
				      batch + s->ready * size, n * size)) {
			ret = -EFAULT;
			break;
		}
		s->ready += n;
		done += n;
		if (answer_yield(s, &ret)) {
			if (done || ret)
				break;
			/* nothing to hand out yet: 0 would be the end */
			ptwalk_iommu_budget_reset(&s->iommu);
		}
		cond_resched();
	}
	return done ? done * size : ret;
}

static ssize_t query_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct ptwalk_session *s = file->private_data;
	size_t size;
	ssize_t ret;

	if (!caller_may_ask())
		return -EPERM;
	if (mutex_lock_interruptible(&s->lock))
		return PTWALK_INTERRUPTED;
	size = ptwalk_session_record_size(s);
	switch (s->kind) {
	case PTWALK_QUERY_NONE:
		ret = -ENODATA;
		break;
	case PTWALK_QUERY_TASK:
		ret = task_read(s, ubuf, count);
		break;
	case PTWALK_QUERY_VTOP:
		ret = vtop_read(s, ubuf, count);
		break;
	default:
		ret = count < size ? -EINVAL :
		      copy_answer(s, ubuf, count / size, size);
	}
	mutex_unlock(&s->lock);
	return ret;
}

/* The text view's query: "PID" or "PID START END" (C notation). */
struct text_query {
	s32 pid;
	u64 start;
	u64 end;
	bool whole;
};

static int text_parse(char *line, struct text_query *q)
{
	char *tok[4];
	int nr = 0;
	char *t;

	while ((t = strsep(&line, " \t\n")) != NULL) {
		if (!*t)
			continue;
		if (nr == ARRAY_SIZE(tok))
			return -EINVAL;
		tok[nr++] = t;
	}
	if ((nr != 1 && nr != 3) || kstrtos32(tok[0], 10, &q->pid))
		return -EINVAL;
	q->whole = nr == 1;
	if (nr == 3 && (kstrtou64(tok[1], 0, &q->start) ||
			kstrtou64(tok[2], 0, &q->end)))
		return -EINVAL;
	return 0;
}

static ssize_t text_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct ptwalk_session *s = file->private_data;
	struct text_query q = {};
	char line[96];
	int ret = -EINVAL;

	if (!caller_may_ask()) {
		ret = -EPERM;
	} else if (count < sizeof(line)) {
		if (copy_from_user(line, ubuf, count))
			return -EFAULT;
		line[count] = '\0';
		ret = text_parse(line, &q);
	}
	if (mutex_lock_interruptible(&s->lock))
		return PTWALK_INTERRUPTED;
	ptwalk_session_reset(s);
	if (!ret)
		ret = ptwalk_session_range(s, q.pid, q.start, q.end, q.whole);
	if (!ret)
		s->text_len = ptwalk_format_header(s->text, PAGE_SIZE, s->pid,
						   s->cur.addr, s->cur.end);
	mutex_unlock(&s->lock);
	return ret ? ret : count;
}

/* Formats the next chunk of records; 0 with nothing left to read. */
static int text_refill(struct ptwalk_session *s)
{
	int n, i;

	n = ptwalk_session_fill(s, PAGE_SIZE / PTWALK_TEXT_LINE_MAX);
	if (n < 0)
		return n;
	s->text_pos = 0;
	s->text_len = 0;
	for (i = 0; i < n; i++) {
		if (s->batch[i].rec.flags & PTWALK_F_NO_VMA)
			continue;
		s->text_len += ptwalk_format_record(s->text + s->text_len,
						    PAGE_SIZE - s->text_len,
						    &s->batch[i].rec);
	}
	return 0;
}

static ssize_t text_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct ptwalk_session *s = file->private_data;
	ssize_t ret;
	size_t n;

	if (!caller_may_ask())
		return -EPERM;
	if (mutex_lock_interruptible(&s->lock))
		return PTWALK_INTERRUPTED;
	while (s->text_pos == s->text_len) {
		if (!s->mm || ptwalk_cursor_done(&s->cur)) {
			ret = 0;
			goto out;
		}
		ret = text_refill(s);
		if (ret)
			goto out;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto out;
		}
		cond_resched();
	}
	n = min(count, s->text_len - s->text_pos);
	if (copy_to_user(ubuf, s->text + s->text_pos, n)) {
		ret = -EFAULT;
		goto out;
	}
	s->text_pos += n;
	ret = n;
out:
	mutex_unlock(&s->lock);
	return ret;
}

const struct file_operations ptwalk_query_fops = {
	.owner = THIS_MODULE,
	.open = query_open,
	.release = session_release,
	.read = query_read,
	.unlocked_ioctl = session_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

const struct file_operations ptwalk_text_fops = {
	.owner = THIS_MODULE,
	.open = text_open,
	.release = session_release,
	.read = text_read,
	.write = text_write,
};
