// SPDX-License-Identifier: GPL-2.0
#define _DEFAULT_SOURCE	/* syscall() */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include "io/ptwalk_client.h"
#include "model/array.h"
#include "parse/hex.h"

_Static_assert(sizeof(struct ptwalk_info) == PTWALK_INFO_SIZE, "info layout");
_Static_assert(sizeof(struct ptwalk_range_query) == PTWALK_RANGE_QUERY_SIZE,
	       "range query layout");
_Static_assert(sizeof(struct ptwalk_vtop_query) == PTWALK_VTOP_QUERY_SIZE,
	       "vtop query layout");
_Static_assert(sizeof(struct ptwalk_task_query) == PTWALK_TASK_QUERY_SIZE,
	       "task query layout");
_Static_assert(sizeof(struct ptwalk_iommu_query) == PTWALK_IOMMU_QUERY_SIZE,
	       "device-view query layout");
_Static_assert(sizeof(struct ptwalk_record) == PTWALK_RECORD_SIZE,
	       "record layout");
_Static_assert(sizeof(struct ptwalk_record_ext) == PTWALK_RECORD_EXT_SIZE,
	       "extended record layout");
_Static_assert(sizeof(struct ptwalk_vtop) == PTWALK_VTOP_SIZE,
	       "vtop layout");
_Static_assert(sizeof(struct ptwalk_iommu_record) ==
	       PTWALK_IOMMU_RECORD_SIZE, "device-view record layout");
_Static_assert(sizeof(struct ptwalk_task) == PTWALK_TASK_SIZE,
	       "task layout");
_Static_assert(sizeof(struct ptwalk_events_query) == PTWALK_EVENTS_QUERY_SIZE,
	       "events query layout");
_Static_assert(sizeof(struct ptwalk_dma_track) == PTWALK_DMA_TRACK_SIZE,
	       "DMA tracking layout");
_Static_assert(sizeof(struct ptwalk_dma_query) == PTWALK_DMA_QUERY_SIZE,
	       "DMA mappings query layout");
_Static_assert(sizeof(struct ptwalk_frame_file) == PTWALK_FRAME_FILE_SIZE,
	       "ptwalk_frame_file size");
_Static_assert(sizeof(struct ptwalk_dma_mapping) == PTWALK_DMA_MAPPING_SIZE,
	       "DMA mapping layout");
_Static_assert(sizeof(struct ptwalk_iommu_event) == PTWALK_IOMMU_EVENT_SIZE,
	       "event layout");

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

/* One query: 0 or -errno (ENOTTY: a module without that query). */
static int ask(int fd, unsigned long cmd, void *query)
{
	return ioctl(fd, cmd, query) < 0 ? -errno : 0;
}

int ptwalk_info(int fd, struct ptwalk_info *out)
{
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	return ask(fd, PTWALK_IOC_INFO, out);
}

int ptwalk_query(int fd, pid_t pid, uint64_t start, uint64_t end)
{
	struct ptwalk_range_query q = {
		.size = sizeof(q), .pid = pid, .start = start, .end = end,
	};

	return ask(fd, PTWALK_IOC_RANGE, &q);
}

/* The one struct of size bytes a vtop or task query answers with. */
static int read_one(int fd, void *out, size_t size)
{
	ssize_t n = read(fd, out, size);

	if (n < 0)
		return -errno;
	return (size_t)n == size ? 0 : -EIO;
}

int ptwalk_query_task(int fd, pid_t pid, struct ptwalk_task *out)
{
	struct ptwalk_task_query q = { .size = sizeof(q), .pid = pid };
	int err = ask(fd, PTWALK_IOC_TASK, &q);

	if (err == -ENOTTY)
		return -EOPNOTSUPP;
	if (!err)
		err = read_one(fd, out, sizeof(*out));
	if (!err)
		out->comm[sizeof(out->comm) - 1] = '\0';
	return err;
}

int ptwalk_query_vtop(int fd, pid_t pid, uint64_t addr,
		      struct ptwalk_vtop *out)
{
	struct ptwalk_vtop_query q = {
		.size = sizeof(q), .pid = pid, .addr = addr,
	};
	int err = ask(fd, PTWALK_IOC_VTOP, &q);

	if (err == -ENOTTY)
		return -EOPNOTSUPP;
	return err ? err : read_one(fd, out, sizeof(*out));
}

int ptwalk_absent_flags(const char *path, uint32_t *absent)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[32];
	uint64_t v;
	ssize_t n;

	*absent = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	/* "0x%x\n" */
	if (strncmp(buf, "0x", 2) || !hex_scan(buf + 2, 8, &v))
		return -EPROTO;
	*absent = (uint32_t)v;
	return 0;
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

/* A range query's records without what follows them, for short readers. */
ssize_t ptwalk_read(int fd, struct ptwalk_record *recs, size_t max)
{
	struct ptwalk_record_ext x[64];
	size_t want = max < 64 ? max : 64;
	ssize_t n = read_records(fd, x, sizeof(*x), want);

	for (ssize_t i = 0; i < n; i++)
		recs[i] = x[i].rec;
	return n;
}

ssize_t ptwalk_read_ext(int fd, struct ptwalk_record_ext *recs, size_t max)
{
	return read_records(fd, recs, sizeof(*recs), max);
}

int ptwalk_dma_track(int fd, const char *device, bool off)
{
	struct ptwalk_dma_track q = {
		.size = sizeof(q), .flags = off ? PTWALK_DMA_TRACK_OFF : 0,
	};
	size_t len = strlen(device);

	if (len >= sizeof(q.device))
		return -EINVAL;
	memcpy(q.device, device, len);
	return ask(fd, PTWALK_IOC_DMA_TRACK, &q);
}

int ptwalk_dma_maps(int fd, const char *device,
		    struct ptwalk_dma_mapping *maps, uint32_t max,
		    struct ptwalk_dma_query *q)
{
	size_t len = strlen(device);

	*q = (struct ptwalk_dma_query){
		.size = sizeof(*q), .maps = (uintptr_t)maps, .nr_maps = max,
	};
	if (len >= sizeof(q->device))
		return -EINVAL;
	memcpy(q->device, device, len);
	return ask(fd, PTWALK_IOC_DMA_MAPS, q);
}

int ptwalk_dma_history(int fd, const char *device,
		       struct ptwalk_dma_mapping *maps, uint32_t max,
		       struct ptwalk_dma_mapping *unmaps, uint32_t max_unmaps,
		       struct ptwalk_dma_query *q)
{
	size_t len = strlen(device);

	*q = (struct ptwalk_dma_query){
		.size = sizeof(*q), .maps = (uintptr_t)maps, .nr_maps = max,
		.unmaps = (uintptr_t)unmaps, .nr_unmaps = max_unmaps,
	};
	if (len >= sizeof(q->device))
		return -EINVAL;
	memcpy(q->device, device, len);
	return ask(fd, PTWALK_IOC_DMA_MAPS, q);
}

/*
 * Drains every CPU's lru_add batch, where a file's page waits for the
 * LRU (an idle machine may never fill the batch): migrate_pages(2) of
 * this process from node 0 to node 0 moves nothing, but first calls
 * lru_add_drain_all() (mm/mempolicy.c do_migrate_pages(): 5.12's
 * lru_cache_disable(), migrate_prep() before).  Without NUMA it fails
 * and drains nothing.
 */
static void lru_batches_drain(void)
{
	unsigned long node0 = 1;

	syscall(SYS_migrate_pages, 0, 8 * sizeof(node0), &node0, &node0);
}

int ptwalk_frame_file(int fd, uint64_t pfn, struct ptwalk_frame_file *out)
{
	/* EAGAIN: locked, changing, or still in its lru_add batch */
	const struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	int err, tries = 0;

	do {
		if (tries == 1)
			lru_batches_drain();
		if (tries)
			nanosleep(&pause, NULL);
		*out = (struct ptwalk_frame_file){ .size = sizeof(*out),
						   .pfn = pfn };
		err = ask(fd, PTWALK_IOC_FRAME_FILE, out);
	} while (err == -EAGAIN && ++tries < 20);
	return err == -ENOTTY ? -EOPNOTSUPP : err;
}

int ptwalk_query_iommu(int fd, const char *device, uint64_t start,
		       uint64_t end, uint32_t flags)
{
	struct ptwalk_iommu_query q = {
		.size = sizeof(q), .flags = flags, .start = start, .end = end,
	};
	size_t len = strlen(device);
	int err;

	if (len >= sizeof(q.device))
		return -EINVAL;
	memcpy(q.device, device, len);
	err = ask(fd, PTWALK_IOC_IOMMU, &q);
	return err == -ENOTTY ? -EOPNOTSUPP : err;
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

int ptwalk_query_events(int fd, uint64_t since)
{
	struct ptwalk_events_query q = { .size = sizeof(q), .since_seq = since };
	int err = ask(fd, PTWALK_IOC_EVENTS, &q);

	return err == -ENOTTY ? -EOPNOTSUPP : err;
}

int ptwalk_arm_events(int fd)
{
	return ptwalk_query_events(fd, UINT64_MAX);
}

ssize_t ptwalk_read_events(int fd, struct ptwalk_iommu_event *ev, size_t max)
{
	return read_records(fd, ev, sizeof(*ev), max);
}

ssize_t ptwalk_read_all(int fd, size_t size, size_t batch, ptwalk_read_fn rd,
			void **out)
{
	char *recs = NULL;
	size_t n = 0, cap = 0;
	ssize_t got;

	*out = NULL;
	do {
		char *grown = array_grow(recs, &cap, n + batch, size, batch, 0);

		if (!grown) {
			free(recs);
			return -ENOMEM;
		}
		recs = grown;
		got = rd(fd, recs + n * size, batch);
		if (got > 0)
			n += (size_t)got;
	} while (got > 0);
	if (got < 0) {
		free(recs);
		return got;
	}
	*out = recs;
	return (ssize_t)n;
}
