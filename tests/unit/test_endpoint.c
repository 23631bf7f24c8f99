// SPDX-License-Identifier: GPL-2.0
/*
 * The choice between ptwalk's debugfs file and /dev/ptwalk, with a fake
 * open() that answers from a table: which paths are tried, in which
 * order, which one is used, and what is kept for the diagnosis.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "io/endpoint.h"

#define QUERY "/dbg/ptwalk/query"
#define DEV "/dev/ptwalk"

struct fake_fs {
	int debugfs_result;	/* fd or -errno for QUERY */
	int device_result;	/* fd or -errno for DEV */
	char tried[4][64];	/* paths, in the order opened (copies: the
				 * caller's may be on its stack) */
	int nr_tried;
};

static int fake_open(void *ctx, const char *path)
{
	struct fake_fs *fs = ctx;

	assert_true(fs->nr_tried < 4);
	assert_true(strlen(path) < sizeof(fs->tried[0]));
	strcpy(fs->tried[fs->nr_tried++], path);
	if (!strcmp(path, QUERY))
		return fs->debugfs_result;
	if (!strcmp(path, DEV))
		return fs->device_result;
	return -ENOENT;
}

static const struct endpoint_choice both = { "/dbg", DEV };

static void debugfs_first(void **state)
{
	struct fake_fs fs = { .debugfs_result = 5, .device_result = 6 };
	struct endpoint ep;

	(void)state;
	assert_int_equal(endpoint_open(&both, fake_open, &fs, &ep), 5);
	assert_int_equal(ep.kind, ENDPOINT_DEBUGFS);
	assert_string_equal(ep.path, QUERY);
	assert_int_equal(fs.nr_tried, 1);	/* the device is left alone */
	assert_string_equal(endpoint_kind_name(ep.kind), "debugfs");
}

/*
 * Lockdown (debugfs says EPERM), or debugfs not mounted or an older
 * module (ENOENT): the device answers, and what debugfs said is kept.
 */
static void device_when_debugfs_fails(void **state)
{
	static const int errs[] = { EPERM, ENOENT };

	(void)state;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct fake_fs fs = { .debugfs_result = -errs[i],
				      .device_result = 6 };
		struct endpoint ep;

		assert_int_equal(endpoint_open(&both, fake_open, &fs, &ep), 6);
		assert_int_equal(ep.kind, ENDPOINT_DEVICE);
		assert_string_equal(ep.path, DEV);
		assert_int_equal(fs.nr_tried, 2);
		assert_string_equal(fs.tried[0], QUERY);
		assert_string_equal(fs.tried[1], DEV);
		assert_int_equal(ep.tried.debugfs_err, errs[i]);
		assert_int_equal(ep.tried.device_err, 0);
		assert_string_equal(endpoint_kind_name(ep.kind), "device");
	}
}

static void both_fail(void **state)
{
	struct fake_fs fs = { .debugfs_result = -EPERM,
			      .device_result = -ENOENT };
	struct endpoint ep;

	(void)state;
	assert_int_equal(endpoint_open(&both, fake_open, &fs, &ep), -ENOENT);
	assert_int_equal(ep.kind, ENDPOINT_NONE);
	assert_int_equal(ep.tried.debugfs_err, EPERM);
	assert_int_equal(ep.tried.device_err, ENOENT);
	assert_string_equal(ep.tried.debugfs, "/dbg");
	assert_string_equal(ep.tried.device, DEV);
	assert_string_equal(endpoint_kind_name(ep.kind), "none");
}

/* --debugfs alone: a liar under another debugfs is never bypassed. */
static void debugfs_given_alone(void **state)
{
	struct endpoint_choice c = endpoint_choose("/dbg", true, DEV, false);
	struct fake_fs fs = { .debugfs_result = -ENOENT, .device_result = 6 };
	struct endpoint ep;

	(void)state;
	assert_string_equal(c.debugfs, "/dbg");
	assert_null(c.device);
	assert_int_equal(endpoint_open(&c, fake_open, &fs, &ep), -ENOENT);
	assert_int_equal(fs.nr_tried, 1);
	assert_null(ep.tried.device);
}

static void device_given_alone(void **state)
{
	struct endpoint_choice c = endpoint_choose("/dbg", false, DEV, true);
	struct fake_fs fs = { .debugfs_result = 5, .device_result = 6 };
	struct endpoint ep;

	(void)state;
	assert_null(c.debugfs);
	assert_int_equal(endpoint_open(&c, fake_open, &fs, &ep), 6);
	assert_int_equal(fs.nr_tried, 1);
	assert_string_equal(fs.tried[0], DEV);
	assert_null(ep.tried.debugfs);
}

static void defaults_and_both_given(void **state)
{
	struct endpoint_choice c = endpoint_choose("/dbg", false, DEV, false);

	(void)state;
	assert_string_equal(c.debugfs, "/dbg");
	assert_string_equal(c.device, DEV);
	c = endpoint_choose("/dbg", true, DEV, true);
	assert_string_equal(c.debugfs, "/dbg");
	assert_string_equal(c.device, DEV);
}

static void path_too_long(void **state)
{
	static char mount[ENDPOINT_PATH_MAX];
	struct endpoint_choice c = { mount, NULL };
	struct fake_fs fs = { 0 };
	struct endpoint ep;

	(void)state;
	memset(mount, 'a', sizeof(mount) - 1);
	assert_int_equal(endpoint_open(&c, fake_open, &fs, &ep), -ENAMETOOLONG);
	assert_int_equal(fs.nr_tried, 0);
	assert_int_equal(ep.tried.debugfs_err, ENAMETOOLONG);
}

/*
 * absent_flags beside the debugfs file that opened, or the device's own
 * sysfs attribute, found through its numbers (/dev/null is 1:3 on Linux).
 */
static void absent_path(void **state)
{
	struct endpoint ep = { .kind = ENDPOINT_DEBUGFS, .path = QUERY };
	char buf[128];

	(void)state;
	assert_int_equal(endpoint_absent_path(&ep, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dbg/ptwalk/absent_flags");
	ep.kind = ENDPOINT_DEVICE;
	snprintf(ep.path, sizeof(ep.path), "/dev/null");
	assert_int_equal(endpoint_absent_path(&ep, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/dev/char/1:3/absent_flags");
	/* not a character device: not ptwalk's */
	snprintf(ep.path, sizeof(ep.path), "/");
	assert_int_equal(endpoint_absent_path(&ep, buf, sizeof(buf)), -ENOTTY);
	snprintf(ep.path, sizeof(ep.path), "/nonexistent/ptwalk");
	assert_int_equal(endpoint_absent_path(&ep, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(endpoint_absent_path(&ep, buf, 8), -ENOENT);
	ep.kind = ENDPOINT_NONE;
	assert_int_equal(endpoint_absent_path(&ep, buf, sizeof(buf)), -ENOENT);
	ep.kind = ENDPOINT_DEBUGFS;
	snprintf(ep.path, sizeof(ep.path), QUERY);
	assert_int_equal(endpoint_absent_path(&ep, buf, 8), -ENAMETOOLONG);
}

UNIT_MAIN("endpoint", UT(debugfs_first), UT(device_when_debugfs_fails),
	  UT(both_fail), UT(debugfs_given_alone),
	  UT(device_given_alone), UT(defaults_and_both_given), UT(path_too_long),
	  UT(absent_path))
