/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which way in to ptwalk.ko a run uses: the debugfs file
 * <debugfs>/ptwalk/query when it can, else the device /dev/ptwalk (which
 * kernel lockdown allows where it refuses the debugfs file).  --debugfs or
 * --device alone names the only one tried; both, or neither (the
 * defaults), try debugfs first.  Opening goes through a hook, so the
 * choice is unit tested without a kernel.
 */
#ifndef PTCOMPARE_ENDPOINT_H
#define PTCOMPARE_ENDPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include "model/outcome.h"

#define ENDPOINT_PATH_MAX 4096

enum endpoint_kind {
	ENDPOINT_NONE,		/* nothing could be opened */
	ENDPOINT_DEBUGFS,
	ENDPOINT_DEVICE,
};

/* The ways to try, in this order; NULL: not tried. */
struct endpoint_choice {
	const char *debugfs;	/* debugfs mount point */
	const char *device;	/* device node */
};

struct endpoint {
	enum endpoint_kind kind;
	char path[ENDPOINT_PATH_MAX];	/* of the one that opened */
	/*
	 * What each attempt said (errno, 0: not tried or opened); module
	 * and lockdown are left to the caller, who gathers them on failure.
	 */
	struct open_failure tried;
};

/* Opens path for a session: an fd or -errno. */
typedef int (*endpoint_open_fn)(void *ctx, const char *path);

/* The real one: open(path, O_RDWR | O_CLOEXEC). */
int endpoint_open_path(void *ctx, const char *path);

/*
 * From the options: debugfs and device are the values in effect, each
 * given whether the user named it on the command line.
 */
struct endpoint_choice endpoint_choose(const char *debugfs,
				       bool debugfs_given,
				       const char *device, bool device_given);

/*
 * Opens the first way of c that opens: an fd with ep->kind and ep->path
 * set, or -errno of the last attempt with ep->kind ENDPOINT_NONE.  Either
 * way ep->tried holds every attempt's errno.
 */
int endpoint_open(const struct endpoint_choice *c, endpoint_open_fn open_fn,
		  void *ctx, struct endpoint *ep);

/*
 * Where the way in that opened keeps its absent_flags (PTWALK_ABSENT_FILE
 * beside the debugfs query file; the device's PTWALK_DEVICE_ABSENT_ATTR,
 * found through the node's own numbers, /sys/dev/char/MAJ:MIN/, so a
 * node made under another name or path works too) into buf: 0, or -errno.
 */
int endpoint_absent_path(const struct endpoint *ep, char *buf, size_t size);

/* The same for the geometry file (PTWALK_GEOMETRY_FILE, its attribute). */
int endpoint_geometry_path(const struct endpoint *ep, char *buf, size_t size);

/* "debugfs", "device" or "none": for --stats and --version. */
const char *endpoint_kind_name(enum endpoint_kind kind);

#endif /* PTCOMPARE_ENDPOINT_H */
