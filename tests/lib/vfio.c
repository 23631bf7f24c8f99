// SPDX-License-Identifier: GPL-2.0
/*
 * A VFIO type1 container, as a user-space driver opens one, and its DMA
 * mappings: the VM suite's device cases and make bench's recorder cost.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "tests/lib/test_lib.h"

int vfio_container_open(int group_nr, int *container, int *group)
{
	struct vfio_group_status gs = { .argsz = sizeof(gs) };
	char path[32];

	snprintf(path, sizeof(path), "/dev/vfio/%d", group_nr);
	*container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
	*group = open(path, O_RDWR | O_CLOEXEC);
	if (*container < 0 || *group < 0 ||
	    ioctl(*group, VFIO_GROUP_GET_STATUS, &gs))
		return -errno;
	if (!(gs.flags & VFIO_GROUP_FLAGS_VIABLE))
		return -EBUSY;
	if (ioctl(*group, VFIO_GROUP_SET_CONTAINER, container) ||
	    ioctl(*container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU))
		return -errno;
	return 0;
}

int vfio_dma_map(int container, const void *va, uint64_t iova, uint64_t len)
{
	struct vfio_iommu_type1_dma_map m = {
		.argsz = sizeof(m),
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = (uint64_t)(uintptr_t)va, .iova = iova, .size = len,
	};

	return ioctl(container, VFIO_IOMMU_MAP_DMA, &m) ? -errno : 0;
}

int vfio_dma_unmap(int container, uint64_t iova, uint64_t len)
{
	struct vfio_iommu_type1_dma_unmap u = {
		.argsz = sizeof(u), .iova = iova, .size = len,
	};

	return ioctl(container, VFIO_IOMMU_UNMAP_DMA, &u) ? -errno : 0;
}
