// SPDX-License-Identifier: GPL-2.0
/*
 * Which file a page-cache frame belongs to (PTWALK_IOC_FRAME_FILE), for
 * the frames of a driver's DMA mappings that no process maps.
 *
 * The frame's folio is taken only if it is on the LRU or hugetlb
 * (compat.h: another owner may use the lock bit and the mapping field),
 * referenced only while it still holds a reference (never reviving a
 * freed page), and locked with a trylock: under the
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

/*
 * The inode whose page cache holds pfn, referenced, into q, its
 * superblock kept active in *sb (an umount meanwhile would find the
 * inode busy: the rule of fs/super.c's grab_super()); or -errno.  The
 * superblock is pinned under the folio lock, where eviction cannot get
 * past truncate_inode_pages_final() and the superblock is alive; it is
 * let go only after the lock (its last reference evicts inodes, which
 * waits for that lock).
 */
static struct inode *file_of(unsigned long pfn, struct ptwalk_frame_file *q,
			     struct super_block **sb)
{
	struct page *page = pfn_to_online_page(pfn);
	struct address_space *mapping;
	struct inode *inode = NULL;
	ptwalk_frame_t *f;
	int err;

	*sb = NULL;
	if (!page || is_zone_device_page(page))	/* 5.10: not in the macro */
		return ERR_PTR(-ENOENT);
	err = ptwalk_frame_get(page, &f);
	if (err)
		return ERR_PTR(err);
	if (!ptwalk_frame_trylock(f)) {
		ptwalk_frame_put(f);
		return ERR_PTR(-EAGAIN);
	}
	err = -ENOENT;
	mapping = ptwalk_frame_file_mapping(f);
	if (mapping && mapping->host) {
		err = -EAGAIN;	/* being unmounted, or the inode evicted */
		if (atomic_inc_not_zero(&mapping->host->i_sb->s_active)) {
			*sb = mapping->host->i_sb;
			inode = igrab(mapping->host);
			q->index = ptwalk_frame_base_index(f) +
				   (pfn - ptwalk_frame_pfn(f));
		}
	}
	ptwalk_frame_unlock(f);
	ptwalk_frame_put(f);
	if (inode)
		return inode;
	if (*sb)
		deactivate_super(*sb);
	*sb = NULL;
	return ERR_PTR(err);
}

/*
 * q->path: the inode's path below its filesystem's root, bounded; a name
 * unlinked since, or an alias not connected to the root (a file handle's),
 * flagged.  0 or -ENOMEM.
 */
static int path_of(struct inode *inode, struct ptwalk_frame_file *q)
{
	struct dentry *dentry = d_find_any_alias(inode);
	char *buf, *p;

	if (!dentry)
		return 0;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf) {
		dput(dentry);
		return -ENOMEM;
	}
	if (IS_ROOT(dentry) && !S_ISDIR(inode->i_mode)) {
		q->path_flags |= PTWALK_FRAME_PATH_DISCONNECTED;
	} else {
		p = dentry_path_raw(dentry, buf, PATH_MAX);
		if (IS_ERR(p) || strscpy(q->path, p, sizeof(q->path)) < 0)
			q->path_flags |= PTWALK_FRAME_PATH_CUT;
		if (d_unlinked(dentry))
			q->path_flags |= PTWALK_FRAME_PATH_DELETED;
	}
	kfree(buf);
	dput(dentry);
	return 0;
}

int ptwalk_frame_file_ioctl(void __user *arg)
{
	struct ptwalk_frame_file q;
	struct super_block *sb;
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
	q.path_flags = 0;
	inode = file_of((unsigned long)q.pfn, &q, &sb);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	q.ino = inode->i_ino;
	q.dev = new_encode_dev(sb->s_dev);
	strscpy(q.fstype, sb->s_type->name, sizeof(q.fstype));
	ret = path_of(inode, &q);
	iput(inode);
	deactivate_super(sb);
	if (ret)
		return ret;
	return copy_to_user(arg, &q, sizeof(q)) ? -EFAULT : 0;
}
