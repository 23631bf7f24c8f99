// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/ptwalk: the binary query protocol of the debugfs file "query" on a
 * misc character device, with the same session file operations
 * (session_fops.c), so the same capability check, errors and per-open
 * sessions.  Kernel lockdown restricts debugfs, not character devices:
 * this is the way in on a locked-down kernel (Secure Boot).  The ABI
 * version and the entry bits this kernel lacks are sysfs attributes of the
 * device, /sys/class/misc/ptwalk/abi_version, absent_flags and geometry,
 * readable
 * without opening it, as their debugfs twins are.
 */
#include <linux/device.h>
#include <linux/miscdevice.h>
#include <linux/sysfs.h>
#include "chardev.h"
#include "decode.h"
#include "geometry.h"
#include "ptwalk_abi.h"
#include "session_fops.h"

static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", PTWALK_ABI_VERSION);
}
static DEVICE_ATTR_RO(abi_version);

static ssize_t absent_flags_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%x\n", ptwalk_absent_flags());
}
static DEVICE_ATTR_RO(absent_flags);

static ssize_t geometry_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return ptwalk_format_geometry(buf, PAGE_SIZE);
}
static DEVICE_ATTR_RO(geometry);

static struct attribute *ptwalk_dev_attrs[] = {
	&dev_attr_abi_version.attr,
	&dev_attr_absent_flags.attr,
	&dev_attr_geometry.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ptwalk_dev);

static struct miscdevice ptwalk_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = PTWALK_DEVICE_NAME,
	.fops = &ptwalk_query_fops,
	.groups = ptwalk_dev_groups,
	.mode = 0600,		/* root only, as the debugfs file */
};

int ptwalk_chardev_init(void)
{
	return misc_register(&ptwalk_misc);
}

void ptwalk_chardev_exit(void)
{
	misc_deregister(&ptwalk_misc);
}
