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
#include "session.h"
#include "session_fops.h"
#include "text.h"
#include "vtop.h"

static int session_open(struct inode *inode, struct file *file, bool text)
{
	struct ptwalk_session *s;

	/* PFNs are sensitive: the rule pagemap uses to show them at all. */
	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	s = ptwalk_session_create(text);
	if (!s)
		return -ENOMEM;
	if (text)
		s->text_len = ptwalk_format_usage(s->text, PAGE_SIZE);
	file->private_data = s;
	return stream_open(inode, file);
}

static int query_open(struct inode *inode, struct file *file)
{
	return session_open(inode, file, false);
}

static int text_open(struct inode *inode, struct file *file)
{
	return session_open(inode, file, true);
}

static int session_release(struct inode *inode, struct file *file)
{
	ptwalk_session_destroy(file->private_data);
	return 0;
}

/*
 * Starts @req on the session, or, when the write could not even be parsed
 * (@parse_err), forgets the previous query and fails with that error.
 */
static ssize_t session_submit(struct ptwalk_session *s,
			      const struct ptwalk_request *req, bool whole,
			      int parse_err, size_t count)
{
	int ret;

	if (mutex_lock_interruptible(&s->lock))
		return -EINTR;
	if (parse_err) {
		ptwalk_session_reset(s);
		ret = parse_err;
	} else {
		ret = ptwalk_session_query(s, req, whole);
	}
	if (!ret && s->text)
		s->text_len = ptwalk_format_header(s->text, PAGE_SIZE, s->pid,
						   s->cur.addr, s->cur.end);
	mutex_unlock(&s->lock);
	return ret ? ret : count;
}

/* A PTWALK_REQ_IOMMU request: a struct ptwalk_iommu_request. */
static ssize_t iommu_write(struct ptwalk_session *s, const char __user *ubuf,
			   size_t count)
{
	struct ptwalk_iommu_request req;
	int ret;

	if (copy_from_user(&req, ubuf, sizeof(req)))
		return -EFAULT;
	if (mutex_lock_interruptible(&s->lock))
		return -EINTR;
	ret = ptwalk_session_iommu_query(s, &req);
	mutex_unlock(&s->lock);
	return ret ? ret : count;
}

static ssize_t query_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct ptwalk_request req = {};

	if (count == sizeof(struct ptwalk_iommu_request))
		return iommu_write(file->private_data, ubuf, count);
	if (count == sizeof(req) && copy_from_user(&req, ubuf, sizeof(req)))
		return -EFAULT;
	return session_submit(file->private_data, &req, false,
			      count == sizeof(req) ? 0 : -EINVAL, count);
}

/* The answer to a PTWALK_REQ_VTOP query: one struct, then end of file. */
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
	if (!s->folio)
		v.folio_shift = 0;
	if (copy_to_user(ubuf, &v, sizeof(v)))
		return -EFAULT;
	s->answered = true;
	return sizeof(v);
}

/* The answer to a PTWALK_REQ_TASK query, read at the write. */
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
 * The two kinds of answer a read copies out, chunk by chunk: a fill puts
 * at most @max records in the session's buffer and returns how many (or
 * -errno) and where they are.
 */
struct answer_ops {
	bool (*done)(struct ptwalk_session *s);
	int (*fill)(struct ptwalk_session *s, size_t max, const void **recs);
};

static bool walk_done(struct ptwalk_session *s)
{
	return ptwalk_cursor_done(&s->cur);
}

static int walk_fill(struct ptwalk_session *s, size_t max, const void **recs)
{
	int n = ptwalk_session_fill(s, max);

	if (n > 0)
		*recs = ptwalk_session_pack(s, n);
	return n;
}

static const struct answer_ops walk_answer = {
	.done = walk_done, .fill = walk_fill,
};

static bool iommu_done(struct ptwalk_session *s)
{
	return ptwalk_iommu_done(&s->iommu);
}

static int iommu_fill(struct ptwalk_session *s, size_t max, const void **recs)
{
	*recs = s->iommu_batch;
	return ptwalk_iommu_fill(&s->iommu, s->iommu_batch, max);
}

static const struct answer_ops iommu_answer = {
	.done = iommu_done, .fill = iommu_fill,
};

/*
 * Copies up to @max records of @size bytes to @ubuf, a batch at a time,
 * interruptible by a fatal signal between batches.  Records already
 * copied are reported; an error then recurs on the next read.
 */
static ssize_t copy_answer(struct ptwalk_session *s, const struct answer_ops *a,
			   char __user *ubuf, size_t max, size_t size)
{
	size_t done = 0;
	ssize_t ret = 0;

	while (done < max && !a->done(s)) {
		const void *recs = NULL;
		int n = a->fill(s, min_t(size_t, max - done, PTWALK_BATCH),
				&recs);

		if (n < 0) {
			ret = n;
			break;
		}
		if (n && copy_to_user(ubuf + done * size, recs, n * size)) {
			ret = -EFAULT;
			break;
		}
		done += n;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	return done ? done * size : ret;
}

static ssize_t query_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct ptwalk_session *s = file->private_data;
	size_t size, max;
	ssize_t ret = 0;

	if (mutex_lock_interruptible(&s->lock))
		return -EINTR;
	size = ptwalk_session_record_size(s);
	max = count / size;
	if (s->task) {
		ret = task_read(s, ubuf, count);
		goto out;
	}
	if (!max) {
		ret = -EINVAL;
		goto out;
	}
	if (s->iommu.pdev)
		ret = copy_answer(s, &iommu_answer, ubuf, max, size);
	else if (!s->mm)
		ret = -ENODATA;
	else if (s->vtop)
		ret = vtop_read(s, ubuf, count);
	else
		ret = copy_answer(s, &walk_answer, ubuf, max, size);
out:
	mutex_unlock(&s->lock);
	return ret;
}

/* Parses "PID" or "PID START END" (numbers in C notation) into @req. */
static int text_parse(char *line, struct ptwalk_request *req, bool *whole)
{
	char *tok[4];
	int nr = 0;
	char *t;

	memset(req, 0, sizeof(*req));
	req->abi_version = PTWALK_ABI_VERSION;
	while ((t = strsep(&line, " \t\n")) != NULL) {
		if (!*t)
			continue;
		if (nr == ARRAY_SIZE(tok))
			return -EINVAL;
		tok[nr++] = t;
	}
	if ((nr != 1 && nr != 3) || kstrtos32(tok[0], 10, &req->pid))
		return -EINVAL;
	*whole = nr == 1;
	if (nr == 3 && (kstrtou64(tok[1], 0, &req->start) ||
			kstrtou64(tok[2], 0, &req->end)))
		return -EINVAL;
	return 0;
}

static ssize_t text_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct ptwalk_request req = {};
	bool whole = false;
	char line[96];
	int err = -EINVAL;

	if (count < sizeof(line)) {
		if (copy_from_user(line, ubuf, count))
			return -EFAULT;
		line[count] = '\0';
		err = text_parse(line, &req, &whole);
	}
	return session_submit(file->private_data, &req, whole, err, count);
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

	if (mutex_lock_interruptible(&s->lock))
		return -EINTR;
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
	.write = query_write,
};

const struct file_operations ptwalk_text_fops = {
	.owner = THIS_MODULE,
	.open = text_open,
	.release = session_release,
	.read = text_read,
	.write = text_write,
};
