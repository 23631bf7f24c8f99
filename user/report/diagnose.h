/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a failure means for the user: one line saying what happened and
 * what to do, and the kind of failure (model/outcome.h).  Pure: the facts
 * (errno, module state) are gathered by the caller.
 */
#ifndef PTCOMPARE_DIAGNOSE_H
#define PTCOMPARE_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>
#include "model/domain_owner.h"
#include "model/outcome.h"
#include "parse/lockdown.h"

/* For a failed open of ptwalk's query file or device (model/outcome.h). */
enum failure diagnose_endpoint(const struct open_failure *f, char *msg,
			       size_t size);

/* For a failed query or read about pid before the scan started. */
enum failure diagnose_query(int err, pid_t pid, char *msg, size_t size);

/* For a failed open of /proc/pid/maps or /proc/pid/pagemap. */
enum failure diagnose_proc_open(int err, pid_t pid, const char *file,
				char *msg, size_t size);

/*
 * For an error during the scan; alive tells whether the process still
 * exists (a vanished process turns ESRCH and short reads into FAIL_EXITED).
 */
enum failure diagnose_scan(int err, pid_t pid, int alive, char *msg,
			   size_t size);

/*
 * For a failed vtop query of addr in pid (errno from ptwalk): EINVAL means
 * a ptwalk.ko that predates vtop, ERANGE an address above the task size;
 * the rest as diagnose_query().
 */
enum failure vtop_diagnose(int err, pid_t pid, uint64_t addr, char *msg,
			   size_t size);

/*
 * For a failed device-view query (--iommu) of device over the device
 * addresses [start, end) (errno from ptwalk, module/ptwalk_abi.h):
 * ENODEV no such device, ENOENT no domain, EOPNOTSUPP a domain that
 * cannot be asked, EBUSY a DMA-API domain (domain_type: its sysfs name,
 * "" unknown) without --dma-api, EAGAIN an unmanaged domain whose owner
 * runs, EACCES a paging domain under lockdown, EDOM an IOMMU page smaller
 * than the kernel's, ERANGE outside the aperture, EPERM a caller without
 * the capabilities (asked on every query), EADDRNOTAVAIL a device without
 * IOMMU or driver whose DMA offset only a bound driver's map holds; the
 * rest an internal failure.
 */
enum failure diagnose_iommu(int err, const char *device,
			    const char *domain_type, uint64_t start,
			    uint64_t end, char *msg, size_t size);

/*
 * A device-view read that failed after the query started: ENODEV the
 * device went away (removed, left its group, driver unbound or changed),
 * else as diagnose_iommu().
 */
enum failure diagnose_iommu_read(int err, const char *device,
				 const char *domain_type, uint64_t start,
				 uint64_t end, char *msg, size_t size);

/*
 * Why the owners of device's unmanaged domain could not all be stopped
 * (ow->why, not OWNER_OK), driver the device's ("" none): a line naming
 * the owner (or the kernel driver) and --live-domain, and
 * FAIL_LIVE_DOMAIN; FAIL_INTERNAL when /proc or fork() failed.
 */
enum failure diagnose_owner(const char *device, const char *driver,
			    const struct domain_owners *ow, char *msg,
			    size_t size);

/*
 * Whether --iommu DEVICE --watch can follow device: EXIT_OK, or the
 * failure with its line: no IOMMU group (its DMA is not translated),
 * bound to a driver other than VFIO's (driver "" when none), a ptwalk.ko
 * without the recorder (features: PTWALK_IOC_INFO's).
 */
int diagnose_iommu_watch(const char *device, bool has_group,
			 const char *driver, uint64_t features, char *msg,
			 size_t size);

/*
 * The ABI check after opening ptwalk: ptwalk_info()'s err (ENOTTY: a
 * version 1 module) or, with err 0, the version it reports.
 */
enum failure diagnose_abi(int err, unsigned int version, char *msg,
			  size_t size);

/*
 * The end of an output to f: json_err, the JSON writer's error (0 for
 * none, or for text), and whether f could be flushed.  EXIT_OK, or
 * FAIL_INTERNAL with the reason in msg.
 */
int diagnose_output(int json_err, FILE *f, char *msg, size_t size);

#endif /* PTCOMPARE_DIAGNOSE_H */
