// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "ptwalk_client.h"

#define PAGE_SHIFT_4K 12

_Static_assert(sizeof(struct ptwalk_request) == PTWALK_REQUEST_SIZE,
	       "request layout");
_Static_assert(sizeof(struct ptwalk_record) == PTWALK_RECORD_SIZE,
	       "record layout");
_Static_assert(sizeof(struct ptwalk_vtop) == PTWALK_VTOP_SIZE,
	       "vtop layout");

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

int ptwalk_query(int fd, pid_t pid, uint64_t start, uint64_t end)
{
	struct ptwalk_request req = {
		.abi_version = PTWALK_ABI_VERSION,
		.pid = pid,
		.start = start,
		.end = end,
	};

	return send_request(fd, &req);
}

int ptwalk_query_vtop(int fd, pid_t pid, uint64_t addr,
		      struct ptwalk_vtop *out)
{
	struct ptwalk_request req = {
		.abi_version = PTWALK_ABI_VERSION,
		.flags = PTWALK_REQ_VTOP,
		.pid = pid,
		.start = addr,
	};
	int err = send_request(fd, &req);
	ssize_t n;

	if (err)
		return err;
	n = read(fd, out, sizeof(*out));
	if (n < 0)
		return -errno;
	return n == sizeof(*out) ? 0 : -EIO;
}

ssize_t ptwalk_read(int fd, struct ptwalk_record *recs, size_t max)
{
	ssize_t n = read(fd, recs, max * sizeof(*recs));

	if (n < 0)
		return -errno;
	if (n % sizeof(*recs))
		return -EIO;
	return n / (ssize_t)sizeof(*recs);
}

uint64_t ptwalk_record_end(const struct ptwalk_record *r)
{
	return r->start + (r->nr_pages << PAGE_SHIFT_4K);
}

const struct ptwalk_record *ptwalk_find(const struct ptwalk_record *recs,
					size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ptwalk_record_end(&recs[mid]) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && recs[lo].start <= addr)
		return &recs[lo];
	return NULL;
}

uint64_t ptwalk_pfn_at(const struct ptwalk_record *r, uint64_t addr)
{
	if (r->pfn == PTWALK_PFN_NONE)
		return PTWALK_PFN_NONE;
	return r->pfn + ((addr - r->start) >> PAGE_SHIFT_4K);
}

uint64_t ptwalk_swap_offset_at(const struct ptwalk_record *r, uint64_t addr)
{
	if (r->kind == PTWALK_KIND_MARKER || r->kind == PTWALK_KIND_UNKNOWN)
		return r->swap_offset;
	return r->swap_offset + ((addr - r->start) >> PAGE_SHIFT_4K);
}

bool ptwalk_check_partition(const struct ptwalk_record *recs, size_t n,
			    uint64_t start, uint64_t end, char *why,
			    size_t why_size)
{
	uint64_t expect = start;
	size_t i;

	for (i = 0; i < n; i++) {
		if (recs[i].start != expect) {
			snprintf(why, why_size,
				 "record %zu starts at 0x%" PRIx64
				 ", expected 0x%" PRIx64,
				 i, (uint64_t)recs[i].start, expect);
			return false;
		}
		if (!recs[i].nr_pages) {
			snprintf(why, why_size, "record %zu is empty", i);
			return false;
		}
		/* also a length whose end wraps around to a plausible address */
		if (expect > end ||
		    recs[i].nr_pages > (end - expect) >> PAGE_SHIFT_4K) {
			snprintf(why, why_size,
				 "record %zu (%" PRIu64 " pages at 0x%" PRIx64
				 ") runs past 0x%" PRIx64, i,
				 (uint64_t)recs[i].nr_pages, expect, end);
			return false;
		}
		expect = ptwalk_record_end(&recs[i]);
	}
	if (expect != end) {
		snprintf(why, why_size,
			 "records end at 0x%" PRIx64 ", expected 0x%" PRIx64,
			 expect, end);
		return false;
	}
	return true;
}
