// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs files: the session file operations (session_fops.c) under
 * <debugfs>/ptwalk/, the ABI version, the entry bits this kernel lacks
 * (absent_flags) and its page geometry (geometry.c).  Under kernel lockdown debugfs refuses to open the two
 * writable files (debugfs_locked_down(), EPERM); /dev/ptwalk (chardev.c)
 * serves the same sessions there.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include "debugfs.h"
#include "decode.h"
#include "geometry.h"
#include "ptwalk_abi.h"
#include "session_fops.h"

static struct dentry *ptwalk_dir;

static ssize_t abi_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	char buf[16];
	int len = scnprintf(buf, sizeof(buf), "%d\n", PTWALK_ABI_VERSION);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t absent_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[16];
	int len = scnprintf(buf, sizeof(buf), "0x%x\n", ptwalk_absent_flags());

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t geometry_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[160];
	int len = ptwalk_format_geometry(buf, sizeof(buf));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations abi_fops = {
	.owner = THIS_MODULE,
	.read = abi_read,
	.llseek = default_llseek,
};

static const struct file_operations absent_fops = {
	.owner = THIS_MODULE,
	.read = absent_read,
	.llseek = default_llseek,
};

static const struct file_operations geometry_fops = {
	.owner = THIS_MODULE,
	.read = geometry_read,
	.llseek = default_llseek,
};

int ptwalk_debugfs_init(void)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ PTWALK_QUERY_FILE, 0600, &ptwalk_query_fops },
		{ PTWALK_TEXT_FILE, 0600, &ptwalk_text_fops },
		{ PTWALK_ABI_FILE, 0400, &abi_fops },
		{ PTWALK_ABSENT_FILE, 0400, &absent_fops },
		{ PTWALK_GEOMETRY_FILE, 0400, &geometry_fops },
	};
	struct dentry *d;
	size_t i;

	ptwalk_dir = debugfs_create_dir(PTWALK_DEBUGFS_DIR, NULL);
	if (IS_ERR(ptwalk_dir))
		return PTR_ERR(ptwalk_dir);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		d = debugfs_create_file(files[i].name, files[i].mode,
					ptwalk_dir, NULL, files[i].fops);
		if (IS_ERR(d)) {
			debugfs_remove(ptwalk_dir);
			ptwalk_dir = NULL;
			return PTR_ERR(d);
		}
	}
	return 0;
}

void ptwalk_debugfs_exit(void)
{
	debugfs_remove(ptwalk_dir);
}
