// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "io/ptwalk_client.h"

_Static_assert(sizeof(struct ptwalk_request) == PTWALK_REQUEST_SIZE,
	       "request layout");
_Static_assert(sizeof(struct ptwalk_record) == PTWALK_RECORD_SIZE,
	       "record layout");
_Static_assert(sizeof(struct ptwalk_record_ext) == PTWALK_RECORD_EXT_SIZE,
	       "extended record layout");
_Static_assert(sizeof(struct ptwalk_vtop) == PTWALK_VTOP_SIZE,
	       "vtop layout");
_Static_assert(sizeof(struct ptwalk_iommu_request) ==
	       PTWALK_IOMMU_REQUEST_SIZE, "device-view request layout");
_Static_assert(sizeof(struct ptwalk_iommu_record) ==
	       PTWALK_IOMMU_RECORD_SIZE, "device-view record layout");
_Static_assert(sizeof(struct ptwalk_task) == PTWALK_TASK_SIZE,
	       "task layout");

int ptwalk_open(const char *debugfs, const char *file, int flags)
{
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s/%s", debugfs,
		     PTWALK_DEBUGFS_DIR, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* One request in one write(), as the module wants it. */
static int send_request(int fd, const struct ptwalk_request *req)
{
	ssize_t n = write(fd, req, sizeof(*req));

	if (n < 0)
		return -errno;
	return n == sizeof(*req) ? 0 : -EIO;
}

static int query(int fd, uint32_t flags, pid_t pid, uint64_t start,
		 uint64_t end)
{
	struct ptwalk_request req = {
		.abi_version = PTWALK_ABI_VERSION,
		.flags = flags,
		.pid = pid,
		.start = start,
		.end = end,
	};

	return send_request(fd, &req);
}

int ptwalk_query(int fd, pid_t pid, uint64_t start, uint64_t end)
{
	return query(fd, 0, pid, start, end);
}

/*
 * Folio sizes too where the module has them (PTWALK_REQ_FOLIO); a module
 * older than the flag says EINVAL, and is asked again without it.
 */
int ptwalk_query_ext(int fd, pid_t pid, uint64_t start, uint64_t end)
{
	int err = query(fd, PTWALK_REQ_EXTENDED | PTWALK_REQ_FOLIO, pid, start,
			end);

	return err == -EINVAL ? query(fd, PTWALK_REQ_EXTENDED, pid, start, end) :
				err;
}

/*
 * A query whose answer is one struct of size bytes (vtop, task), read
 * into out: 0, -errno, or -EIO for a short answer.
 */
static int query_one(int fd, uint32_t flags, pid_t pid, uint64_t start,
		     void *out, size_t size)
{
	int err = query(fd, flags, pid, start, 0);
	ssize_t n;

	if (err)
		return err;
	n = read(fd, out, size);
	if (n < 0)
		return -errno;
	return (size_t)n == size ? 0 : -EIO;
}

int ptwalk_query_task(int fd, pid_t pid, struct ptwalk_task *out)
{
	int err = query_one(fd, PTWALK_REQ_TASK, pid, 0, out, sizeof(*out));

	if (!err)
		out->comm[sizeof(out->comm) - 1] = '\0';
	return err;
}

static int query_vtop(int fd, uint32_t flags, pid_t pid, uint64_t addr,
		      struct ptwalk_vtop *out)
{
	return query_one(fd, PTWALK_REQ_VTOP | flags, pid, addr, out,
			 sizeof(*out));
}

int ptwalk_query_vtop_ext(int fd, pid_t pid, uint64_t addr,
			  struct ptwalk_vtop *out, bool *info)
{
	int err = query_vtop(fd, PTWALK_REQ_EXTENDED | PTWALK_REQ_FOLIO, pid,
			     addr, out);

	if (err == -EINVAL)
		err = query_vtop(fd, PTWALK_REQ_EXTENDED, pid, addr, out);
	*info = !err;
	if (err == -EINVAL)
		err = query_vtop(fd, 0, pid, addr, out);
	return err;
}

int ptwalk_absent_flags(const char *path, uint32_t *absent)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[32];
	ssize_t n;

	*absent = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return sscanf(buf, "0x%x", absent) == 1 ? 0 : -EPROTO;
}

int ptwalk_geometry(const char *path, struct page_geom *g, char *why,
		    size_t why_size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[256];
	ssize_t n;

	if (fd < 0) {
		if (errno != ENOENT)
			return -errno;
		geom_assume_4k(g);
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return geom_parse(buf, g, why, why_size) ? -EPROTO : 0;
}

/* Reads up to max whole records of size bytes: their number, or -errno. */
static ssize_t read_records(int fd, void *recs, size_t size, size_t max)
{
	ssize_t n = read(fd, recs, max * size);

	if (n < 0)
		return -errno;
	if ((size_t)n % size)
		return -EIO;
	return n / (ssize_t)size;
}

ssize_t ptwalk_read(int fd, struct ptwalk_record *recs, size_t max)
{
	return read_records(fd, recs, sizeof(*recs), max);
}

ssize_t ptwalk_read_ext(int fd, struct ptwalk_record_ext *recs, size_t max)
{
	return read_records(fd, recs, sizeof(*recs), max);
}

int ptwalk_query_iommu(int fd, const char *device, uint64_t start,
		       uint64_t end)
{
	struct ptwalk_iommu_request req = {
		.req = {
			.abi_version = PTWALK_ABI_VERSION,
			.flags = PTWALK_REQ_IOMMU,
			.start = start,
			.end = end,
		},
	};
	size_t len = strlen(device);
	ssize_t n;

	if (len >= sizeof(req.device))
		return -EINVAL;
	memcpy(req.device, device, len);
	n = write(fd, &req, sizeof(req));
	if (n < 0)
		return -errno;
	return n == sizeof(req) ? 0 : -EIO;
}

ssize_t ptwalk_read_iommu(int fd, struct ptwalk_iommu_record *recs,
			  size_t max)
{
	size_t size = sizeof(*recs);
	ssize_t n;

	if (max > SSIZE_MAX / size)
		max = SSIZE_MAX / size;
	do
		n = read(fd, recs, max * size);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n % size)
		return -EIO;
	return n / (ssize_t)size;
}
