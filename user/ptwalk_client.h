/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace side of the ptwalk binary interface: thin I/O wrappers, and
 * pure helpers over record arrays (no I/O) that unit tests call directly.
 */
#ifndef PTWALK_CLIENT_H
#define PTWALK_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "../module/ptwalk_abi.h"

#define PTWALK_DEFAULT_DEBUGFS	"/sys/kernel/debug"
/* The same protocol on a device, where kernel lockdown refuses debugfs. */
#define PTWALK_DEFAULT_DEVICE	"/dev/" PTWALK_DEVICE_NAME

/* Opens <debugfs>/ptwalk/<file>; returns an fd or -errno. */
int ptwalk_open(const char *debugfs, const char *file, int flags);

/* Starts a query on fd; 0 or -errno (ESRCH, ENXIO, ERANGE, ...). */
int ptwalk_query(int fd, pid_t pid, uint64_t start, uint64_t end);

/*
 * Translates addr of pid (PTWALK_REQ_VTOP) on fd: 0 with out filled, or
 * -errno: EINVAL from a ptwalk.ko without vtop, ERANGE above the task
 * size, ESRCH, ENXIO as for queries; EIO for a short answer.
 */
int ptwalk_query_vtop(int fd, pid_t pid, uint64_t addr,
		      struct ptwalk_vtop *out);

/* Reads up to max records; count (0 at the end) or -errno. */
ssize_t ptwalk_read(int fd, struct ptwalk_record *recs, size_t max);

/* The record covering addr, or NULL; recs sorted as the module sends them. */
const struct ptwalk_record *ptwalk_find(const struct ptwalk_record *recs,
					size_t n, uint64_t addr);

/* End address (exclusive) of a record. */
uint64_t ptwalk_record_end(const struct ptwalk_record *r);

/*
 * Frame (or, for non-present kinds with advancing offsets, swap offset) of
 * the page at addr inside r; PTWALK_PFN_NONE when r maps no frame.
 */
uint64_t ptwalk_pfn_at(const struct ptwalk_record *r, uint64_t addr);

/*
 * Swap offset (as pagemap encodes it) of the page at addr inside a
 * non-present record: offsets advance per page, except for markers and
 * entries ptwalk cannot decode, which carry one value.
 */
uint64_t ptwalk_swap_offset_at(const struct ptwalk_record *r, uint64_t addr);

/*
 * Checks that recs partition [start, end) exactly, in order, without empty
 * records.  On failure writes why (one line) and returns false.
 */
bool ptwalk_check_partition(const struct ptwalk_record *recs, size_t n,
			    uint64_t start, uint64_t end, char *why,
			    size_t why_size);

#endif /* PTWALK_CLIENT_H */
