// SPDX-License-Identifier: GPL-2.0
/*
 * dma_need_unmap() (6.16, with the two-step DMA API): whether a driver
 * must unmap what it mapped.  dma_track.c marks the mappings made while
 * it says no, which drivers that ask it never unmap.
 */
#include <linux/dma-mapping.h>

bool ptwalk_conftest(struct device *dev)
{
	return dma_need_unmap(dev);
}
