/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace side of the ptwalk binary interface: thin I/O wrappers.  The
 * pure helpers over the records they return are in parse/record.h,
 * included here so that a caller of the client has them at hand.
 */
#ifndef PTWALK_CLIENT_H
#define PTWALK_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "model/defaults.h"
#include "module/ptwalk_abi.h"
#include "model/page.h"
#include "parse/geometry.h"
#include "parse/record.h"

/* Opens <debugfs>/ptwalk/<file>; returns an fd or -errno. */
int ptwalk_open(const char *debugfs, const char *file, int flags);

/*
 * The module's ABI version and features (PTWALK_IOC_INFO): 0, or -errno;
 * -ENOTTY from a module of ABI version 1 or 2, which knows no ioctl of
 * this version's type.
 */
int ptwalk_info(int fd, struct ptwalk_info *out);

/* Starts a range query on fd; 0 or -errno (ESRCH, ENXIO, ERANGE, ...). */
int ptwalk_query(int fd, pid_t pid, uint64_t start, uint64_t end);

/*
 * Translates addr of pid (PTWALK_IOC_VTOP) on fd: 0 with out filled (its
 * memory type, pinned state and node too), or -errno: EOPNOTSUPP from a
 * module without vtop, ERANGE above the task size, ESRCH, ENXIO as for
 * queries; EIO for a short answer.
 */
int ptwalk_query_vtop(int fd, pid_t pid, uint64_t addr,
		      struct ptwalk_vtop *out);

/*
 * The PTWALK_F_* bits the running kernel does not have, from the
 * absent_flags file at path (endpoint_absent_path()) into *absent: 0 with
 * a module older than that file; 0 or -errno.
 */
int ptwalk_absent_flags(const char *path, uint32_t *absent);

/*
 * The kernel's page geometry from the geometry file at path
 * (endpoint_geometry_path()): 0, with a module too old to have the file
 * too (its kernels have 4 KiB pages: geom_assume_4k()); -EPROTO with a
 * line that does not parse (why says how), or -errno.
 */
int ptwalk_geometry(const char *path, struct page_geom *g, char *why,
		    size_t why_size);

/*
 * Asks whether pid has memory (PTWALK_IOC_TASK), and its name: 0 with out
 * filled, or -errno as for queries (ESRCH gone, ENXIO no mm); EOPNOTSUPP
 * from a module without the task query, EIO for a short answer.
 */
int ptwalk_query_task(int fd, pid_t pid, struct ptwalk_task *out);

/*
 * Reads up to max records of a range query, without what follows each
 * (a ptwalk_record_ext's node and folio size); count (0 at the end) or
 * -errno.
 */
ssize_t ptwalk_read(int fd, struct ptwalk_record *recs, size_t max);

/* Reads up to max extended records; count (0 at the end) or -errno. */
ssize_t ptwalk_read_ext(int fd, struct ptwalk_record_ext *recs, size_t max);

/*
 * PTWALK_IOC_DMA_TRACK: starts (off false) or stops tracking the DMA-API
 * mappings of device (a PCI address): 0 or -errno as module/ptwalk_abi.h
 * lists them; ENOTTY from a module without DMA tracking.
 */
int ptwalk_dma_track(int fd, const char *device, bool off);

/*
 * PTWALK_IOC_DMA_MAPS: at most q->nr_maps live mappings of device into
 * maps (no history), q filled as the module answered: 0 or -errno.
 */
int ptwalk_dma_maps(int fd, const char *device,
		    struct ptwalk_dma_mapping *maps, uint32_t max,
		    struct ptwalk_dma_query *q);

/*
 * PTWALK_IOC_DMA_MAPS with the history: at most max live mappings into
 * maps and at most max_unmaps recent unmaps (newest first) into unmaps,
 * q filled as the module answered: 0 or -errno.
 */
int ptwalk_dma_history(int fd, const char *device,
		       struct ptwalk_dma_mapping *maps, uint32_t max,
		       struct ptwalk_dma_mapping *unmaps, uint32_t max_unmaps,
		       struct ptwalk_dma_query *q);

/*
 * Starts a device-view query (PTWALK_IOC_IOMMU) of [start, end) of the
 * device addresses of device (a PCI address), flags PTWALK_IOMMU_*: 0 or
 * -errno, as module/ptwalk_abi.h lists them; EOPNOTSUPP from a module
 * without the device view.
 */
int ptwalk_query_iommu(int fd, const char *device, uint64_t start,
		       uint64_t end, uint32_t flags);

/*
 * The file whose page cache holds frame pfn (PTWALK_IOC_FRAME_FILE) into
 * out: 0 or -errno as module/ptwalk_abi.h lists them; -EOPNOTSUPP from a
 * module without it.
 */
int ptwalk_frame_file(int fd, uint64_t pfn, struct ptwalk_frame_file *out);

/*
 * Starts an events query (PTWALK_IOC_EVENTS): the recorder's events from
 * since on; 0 or -errno (EOPNOTSUPP: no recorder).
 */
int ptwalk_query_events(int fd, uint64_t since);

/*
 * Arms the recorder for the life of fd's session (and the module's idle
 * time after): an events query that asks for nothing.  0 or -errno.
 */
int ptwalk_arm_events(int fd);

/* Reads up to max recorder events; count (0 at the end) or -errno. */
ssize_t ptwalk_read_events(int fd, struct ptwalk_iommu_event *ev,
			   size_t max);

/* Reads up to max device-view records; count (0 at the end) or -errno. */
ssize_t ptwalk_read_iommu(int fd, struct ptwalk_iommu_record *recs,
			  size_t max);

/* One of the reads above as a function of an untyped buffer. */
typedef ssize_t (*ptwalk_read_fn)(int fd, void *buf, size_t max);

/*
 * The whole answer to the query started on fd, records of size bytes read
 * batch at a time with rd, into *out (malloc'ed, the caller frees it):
 * their number, or -errno (*out NULL).
 */
ssize_t ptwalk_read_all(int fd, size_t size, size_t batch, ptwalk_read_fn rd,
			void **out);

#endif /* PTWALK_CLIENT_H */
