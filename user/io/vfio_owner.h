/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which processes drive a PCI device through VFIO: those holding its
 * VFIO group file (/dev/vfio/N) or its VFIO device cdev
 * (/dev/vfio/devices/vfioX) open, as /proc/PID/fd shows them.  This is
 * how ptcompare ties the IOMMU recorder's events, which name no device,
 * to one (VFIO maps and unmaps in the calling process).
 */
#ifndef PTCOMPARE_IO_VFIO_OWNER_H
#define PTCOMPARE_IO_VFIO_OWNER_H

#include <stdbool.h>
#include <sys/types.h>

/* The device's VFIO files: "" where it has none. */
struct vfio_files {
	char group[32];		/* "/dev/vfio/N" */
	char cdev[80];		/* "/dev/vfio/devices/vfioX" */
};

/* bdf's VFIO files into f: false when it has neither. */
bool vfio_files_of(const char *bdf, struct vfio_files *f);

/* Whether pid holds one of f's files open now. */
bool vfio_pid_holds(pid_t pid, const struct vfio_files *f);

/* A process (not this one) holding bdf's VFIO group file or cdev, or 0. */
pid_t vfio_owner(const char *bdf);

#endif /* PTCOMPARE_IO_VFIO_OWNER_H */
