// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "io/proc_read.h"

bool proc_kpageflags(uint64_t pfn, uint64_t *kpf)
{
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 &&
		  proc_pread(fd, kpf, sizeof(*kpf),
			     (off_t)(pfn * sizeof(*kpf)), NULL) ==
		  (ssize_t)sizeof(*kpf);

	if (fd >= 0)
		close(fd);
	return ok;
}

int proc_maps_each(pid_t pid, bool (*fn)(char *line, void *arg),
		   void *arg)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0 && !fn(line, arg))
		;
	free(line);
	fclose(f);
	return 0;
}

int proc_fd_each(pid_t pid,
		 bool (*fn)(const char *fd, const char *link, void *arg),
		 void *arg)
{
	char path[64];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		char fdp[PATH_MAX], link[PATH_MAX];
		ssize_t len;

		if (de->d_name[0] == '.')
			continue;
		snprintf(fdp, sizeof(fdp), "%s/%s", path, de->d_name);
		len = readlink(fdp, link, sizeof(link) - 1);
		if (len < 0)
			continue;
		link[len] = '\0';
		if (fn(de->d_name, link, arg))
			break;
	}
	closedir(dir);
	return 0;
}

ssize_t proc_pread(int fd, void *buf, size_t size, off_t off,
		   struct read_count *count)
{
	size_t got = 0;

	while (got < size) {
		ssize_t r = pread(fd, (char *)buf + got, size - got,
				  off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (count) {
			count->calls++;
			count->bytes += (uint64_t)r;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}
