// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "io/endpoint.h"
#include "io/ptwalk_client.h"

int endpoint_open_path(void *ctx, const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	(void)ctx;
	return fd < 0 ? -errno : fd;
}

struct endpoint_choice endpoint_choose(const char *debugfs,
				       bool debugfs_given,
				       const char *device, bool device_given)
{
	struct endpoint_choice c = { debugfs, device };

	if (debugfs_given && !device_given)
		c.device = NULL;
	else if (device_given && !debugfs_given)
		c.debugfs = NULL;
	return c;
}

/* Tries path as kind: the fd, or -errno (also stored in *err). */
static int try(struct endpoint *ep, enum endpoint_kind kind, const char *path,
	       endpoint_open_fn open_fn, void *ctx, int *err)
{
	int fd;

	if (strlen(path) >= sizeof(ep->path)) {
		*err = ENAMETOOLONG;
		return -ENAMETOOLONG;
	}
	fd = open_fn(ctx, path);
	if (fd < 0) {
		*err = -fd;
		return fd;
	}
	ep->kind = kind;
	snprintf(ep->path, sizeof(ep->path), "%s", path);
	return fd;
}

int endpoint_open(const struct endpoint_choice *c, endpoint_open_fn open_fn,
		  void *ctx, struct endpoint *ep)
{
	char query[ENDPOINT_PATH_MAX + 64];
	int fd = -ENOENT;

	memset(ep, 0, sizeof(*ep));
	ep->kind = ENDPOINT_NONE;
	ep->tried.debugfs = c->debugfs;
	ep->tried.device = c->device;
	if (c->debugfs) {
		snprintf(query, sizeof(query), "%s/%s/%s", c->debugfs,
			 PTWALK_DEBUGFS_DIR, PTWALK_QUERY_FILE);
		fd = try(ep, ENDPOINT_DEBUGFS, query, open_fn, ctx,
			 &ep->tried.debugfs_err);
		if (fd >= 0)
			return fd;
	}
	if (c->device)
		fd = try(ep, ENDPOINT_DEVICE, c->device, open_fn, ctx,
			 &ep->tried.device_err);
	return fd;
}

/* The file @file beside the debugfs query file, or the device's @attr. */
static int attr_path(const struct endpoint *ep, const char *file,
		     const char *attr, char *buf, size_t size)
{
	const char *slash = strrchr(ep->path, '/');
	struct stat st;
	int n;

	switch (ep->kind) {
	case ENDPOINT_DEBUGFS:
		if (!slash)
			return -EINVAL;
		n = snprintf(buf, size, "%.*s/%s", (int)(slash - ep->path),
			     ep->path, file);
		break;
	case ENDPOINT_DEVICE:
		if (stat(ep->path, &st))
			return -errno;
		if (!S_ISCHR(st.st_mode))
			return -ENOTTY;
		n = snprintf(buf, size, "/sys/dev/char/%u:%u/%s",
			     major(st.st_rdev), minor(st.st_rdev),
			     attr);
		break;
	default:
		return -ENOENT;
	}
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int endpoint_absent_path(const struct endpoint *ep, char *buf, size_t size)
{
	return attr_path(ep, PTWALK_ABSENT_FILE, PTWALK_DEVICE_ABSENT_ATTR, buf,
			 size);
}

int endpoint_geometry_path(const struct endpoint *ep, char *buf, size_t size)
{
	return attr_path(ep, PTWALK_GEOMETRY_FILE, PTWALK_DEVICE_GEOMETRY_ATTR,
			 buf, size);
}

const char *endpoint_kind_name(enum endpoint_kind kind)
{
	switch (kind) {
	case ENDPOINT_DEBUGFS:
		return "debugfs";
	case ENDPOINT_DEVICE:
		return "device";
	default:
		return "none";
	}
}
