/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keeping an unmanaged IOMMU domain still for a read, as a debugger or
 * CRIU keeps a process still: find the processes that can change it,
 * SIGSTOP them, wait until every thread of each is stopped, and SIGCONT
 * exactly those it stopped afterwards.
 *
 * The owners of PCI device bdf's domain are
 *  - the processes holding its VFIO group file (/dev/vfio/N), its VFIO
 *    device cdev (/dev/vfio/devices/vfioX), or a VFIO device file whose
 *    fdinfo names it (vfio-device-syspath, 6.9 on): they hold the device;
 *  - the processes holding, as the same open file, a VFIO container
 *    (/dev/vfio/vfio) or iommufd (/dev/iommu) file that one of those
 *    holds: that file maps and unmaps for the device.  "The same open
 *    file" is kcmp(KCMP_FILE): one open of /dev/vfio/vfio is one
 *    container, and another process's own open is another (the inode is
 *    the same for all, so fdinfo's ino cannot tell them apart).  Where
 *    kcmp cannot answer (a kernel without CONFIG_KCMP, EPERM), every
 *    process holding such a file is taken for an owner: more stopped,
 *    never one missed.
 * Only processes this one sees in /proc are found: an owner in another
 * pid namespace is not, and the read is then refused as ownerless.
 *
 * An interrupted ptcompare never leaves an owner stopped: before the
 * first SIGSTOP a guard process is forked, told each pid before it is
 * stopped, and it sends SIGCONT to them if ptcompare ends without saying
 * it has (SIGINT, SIGTERM, SIGKILL, a crash: its pipe's end of file).
 * The guard ignores the terminal's signals.
 */
#ifndef PTCOMPARE_IO_DOMAIN_OWNER_H
#define PTCOMPARE_IO_DOMAIN_OWNER_H

#include <stdbool.h>
#include "model/domain_owner.h"

/* The guard of one stop: its pid and the pipe to it. */
struct owner_guard {
	pid_t pid;		/* 0: not started */
	int fd;			/* write end; -1: closed */
};

/*
 * The owners of bdf's domain into ow (ow->n of them; why OWNER_TOO_MANY
 * or OWNER_SYSTEM when they cannot all be listed).
 */
void domain_owners_find(const char *bdf, struct domain_owners *ow);

/*
 * Stops every owner of ow and waits, up to OWNER_STOP_TIMEOUT_MS, until
 * each thread of each is still (parse/task_state.h).  An owner already
 * stopped is left as it was; a traced one that runs is refused (its
 * tracer's to stop).  true with all of them still; false with ow->why
 * set and every owner this call stopped continued again.
 */
bool domain_owners_stop(struct domain_owners *ow, struct owner_guard *g);

/* SIGCONT to each owner it stopped, their held time set; ends the guard. */
void domain_owners_continue(struct domain_owners *ow, struct owner_guard *g);

#endif /* PTCOMPARE_IO_DOMAIN_OWNER_H */
