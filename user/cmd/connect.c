// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "io/host_state.h"
#include "io/ptwalk_client.h"
#include "report/diagnose.h"

/* Fills in the facts only the system knows and explains the failure. */
static enum failure explain(struct open_failure f, char *msg, size_t size)
{
	f.module = module_state_of("ptwalk");
	f.lockdown = lockdown_read(LOCKDOWN_FILE);
	return diagnose_endpoint(&f, msg, size);
}

uint32_t connect_absent_flags(const struct endpoint *ep)
{
	char path[ENDPOINT_PATH_MAX + 64];
	uint32_t absent;

	if (endpoint_absent_path(ep, path, sizeof(path)) ||
	    ptwalk_absent_flags(path, &absent))
		return 0;
	return absent;
}

int connect_geometry(const struct endpoint *ep, struct page_geom *g,
		     char *msg, size_t size)
{
	char path[ENDPOINT_PATH_MAX + 64], why[256] = "";
	int err = endpoint_geometry_path(ep, path, sizeof(path));

	if (!err)
		err = ptwalk_geometry(path, g, why, sizeof(why));
	if (err == -EPROTO) {
		snprintf(msg, size, "%s: %s: update ptcompare and ptwalk.ko together",
			 path, why);
		return -1;
	}
	if (err) {
		snprintf(msg, size, "cannot read %s: %s", path, strerror(-err));
		return -1;
	}
	/* pagemap has one entry per kernel page: its size must be ptwalk's */
	return geom_check_page_size(g, sysconf(_SC_PAGESIZE), msg, size);
}

int connect_ptwalk(const struct cli_options *o, struct endpoint *ep,
		   enum failure *why, char *msg, size_t size)
{
	struct endpoint_choice c = endpoint_choose(o->debugfs, o->debugfs_given,
						   o->device, o->device_given);
	int fd = endpoint_open(&c, endpoint_open_path, NULL, ep);
	struct ptwalk_info info;
	int err;

	if (fd < 0) {
		*why = explain(ep->tried, msg, size);
		return -1;
	}
	/* this ABI version or nothing: a version 1 or 2 module knows no ioctl */
	err = ptwalk_info(fd, &info);
	if (!err && info.abi_version == PTWALK_ABI_VERSION)
		return fd;
	close(fd);
	*why = diagnose_abi(-err, info.abi_version, msg, size);
	return -1;
}

int connect_again(const struct endpoint *ep, enum failure *why, char *msg,
		  size_t size)
{
	int fd = endpoint_open_path(NULL, ep->path);
	struct open_failure f = ep->tried;

	if (fd >= 0)
		return fd;
	/* Only this way in was tried: its errno is what to explain. */
	if (ep->kind == ENDPOINT_DEVICE) {
		f.debugfs = NULL;
		f.device_err = -fd;
	} else {
		f.device = NULL;
		f.debugfs_err = -fd;
	}
	*why = explain(f, msg, size);
	return -1;
}

void connect_describe(const struct cli_options *o, char *line, size_t size)
{
	char why[512];
	enum failure kind;
	struct endpoint ep;
	int fd = connect_ptwalk(o, &ep, &kind, why, sizeof(why));

	if (fd < 0) {
		snprintf(line, size, "interface: none: %s", why);
		return;
	}
	close(fd);
	if (ep.kind == ENDPOINT_DEVICE && ep.tried.debugfs)
		snprintf(line, size, "interface: device %s (debugfs: %s; lockdown: %s)",
			 ep.path, strerror(ep.tried.debugfs_err),
			 lockdown_name(lockdown_read(LOCKDOWN_FILE)));
	else
		snprintf(line, size, "interface: %s %s",
			 endpoint_kind_name(ep.kind), ep.path);
}
