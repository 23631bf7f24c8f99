// SPDX-License-Identifier: GPL-2.0
/* The processes holding a PCI device's VFIO files, from /proc/PID/fd. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/pci_sysfs.h"
#include "io/proc_read.h"
#include "io/source.h"
#include "io/vfio_owner.h"

/* The device's IOMMU group number, or -1. */
static int group_of(const char *bdf)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;
	const char *slash;

	snprintf(path, sizeof(path), PCI_SYSFS_DEVICES "/%s/iommu_group", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	slash = strrchr(link, '/');
	return atoi(slash ? slash + 1 : link);
}

/* The device's VFIO cdev name ("vfio0") into out, or "". */
static void vfio_cdev_of(const char *bdf, char *out, size_t size)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	out[0] = '\0';
	snprintf(path, sizeof(path), PCI_SYSFS_DEVICES "/%s/vfio-dev", bdf);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, "vfio", 4) &&
		    strlen(de->d_name) < size)
			snprintf(out, size, "%s", de->d_name);
	closedir(dir);
}

bool vfio_files_of(const char *bdf, struct vfio_files *f)
{
	char cdev[32];
	int g = group_of(bdf);

	memset(f, 0, sizeof(*f));
	if (g >= 0)
		snprintf(f->group, sizeof(f->group), "/dev/vfio/%d", g);
	vfio_cdev_of(bdf, cdev, sizeof(cdev));
	if (cdev[0])
		snprintf(f->cdev, sizeof(f->cdev), "/dev/vfio/devices/%s",
			 cdev);
	return f->group[0] || f->cdev[0];
}

struct vfio_hold {
	const struct vfio_files *f;
	bool found;
};

static bool is_vfio_file(const char *fd, const char *link, void *arg)
{
	struct vfio_hold *h = arg;

	(void)fd;
	h->found = (h->f->group[0] && !strcmp(link, h->f->group)) ||
		   (h->f->cdev[0] && !strcmp(link, h->f->cdev));
	return h->found;
}

bool vfio_pid_holds(pid_t pid, const struct vfio_files *f)
{
	struct vfio_hold h = { .f = f };

	proc_fd_each(pid, is_vfio_file, &h);
	return h.found;
}

pid_t vfio_owner(const char *bdf)
{
	struct vfio_files f;
	pid_t *pids, found = 0;
	long n;

	if (!vfio_files_of(bdf, &f))
		return 0;
	n = proc_list_pids(&pids);
	for (long i = 0; i < n && !found; i++)
		if (pids[i] != getpid() && vfio_pid_holds(pids[i], &f))
			found = pids[i];
	if (n > 0)
		free(pids);
	return found;
}
