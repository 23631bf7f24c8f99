// SPDX-License-Identifier: GPL-2.0
/*
 * Which file a page-cache frame belongs to (PTWALK_IOC_FRAME_FILE), for
 * the frames of a driver's DMA mappings that no process maps.
 *
 * The frame's folio is referenced only while it still holds a reference
 * (never reviving a freed page), and locked with a trylock: under the
 * folio lock truncation cannot take the folio from its mapping, so the
 * mapping's inode is alive for igrab().  A folio locked by someone else
 * (I/O, truncation) is not waited for: the caller asks again.  The path
 * is read after the lock is dropped, from any dentry of the inode, into
 * a bounded buffer.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "compat.h"
#include "frame_file.h"
#include "lockdown.h"
#include "query_copy.h"

/* The inode whose page cache holds pfn, referenced, into q; or -errno. */
static struct inode *file_of(unsigned long pfn, struct ptwalk_frame_file *q)
{
	struct page *page = pfn_to_online_page(pfn);
	struct address_space *mapping;
	struct inode *inode = NULL;
	ptwalk_frame_t *f;

	if (!page)
		return ERR_PTR(-ENOENT);
	f = ptwalk_frame_get(page);
	if (!f)
		return ERR_PTR(-ENOENT);
	if (!ptwalk_frame_trylock(f)) {
		ptwalk_frame_put(f);
		return ERR_PTR(-EAGAIN);
	}
	mapping = ptwalk_frame_file_mapping(f);
	if (mapping && mapping->host) {
		inode = igrab(mapping->host);
		q->index = ptwalk_frame_index(f) + (pfn - ptwalk_frame_pfn(f));
	}
	ptwalk_frame_unlock(f);
	ptwalk_frame_put(f);
	return inode ?: ERR_PTR(-ENOENT);
}

/* q->path: the inode's path below its filesystem's root, bounded. */
static void path_of(struct inode *inode, struct ptwalk_frame_file *q)
{
	struct dentry *dentry = d_find_any_alias(inode);
	char *buf, *p;

	if (!dentry)
		return;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (buf) {
		p = dentry_path_raw(dentry, buf, PATH_MAX);
		q->path_cut = IS_ERR(p) ||
			      strscpy(q->path, p, sizeof(q->path)) < 0;
		kfree(buf);
	}
	dput(dentry);
}

int ptwalk_frame_file_ioctl(void __user *arg)
{
	struct ptwalk_frame_file q;
	struct inode *inode;
	int ret;

	ret = ptwalk_query_copy(&q, sizeof(q), sizeof(q), arg);
	if (ret)
		return ret;
	if (q.flags || q.pfn > ULONG_MAX)
		return -EINVAL;
	if (ptwalk_confidentiality_locked())
		return -EACCES;
	memset(q.fstype, 0, sizeof(q.fstype));
	memset(q.path, 0, sizeof(q.path));
	q.path_cut = 0;
	inode = file_of((unsigned long)q.pfn, &q);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	q.ino = inode->i_ino;
	q.dev = new_encode_dev(inode->i_sb->s_dev);
	strscpy(q.fstype, inode->i_sb->s_type->name, sizeof(q.fstype));
	path_of(inode, &q);
	iput(inode);
	return copy_to_user(arg, &q, sizeof(q)) ? -EFAULT : 0;
}
