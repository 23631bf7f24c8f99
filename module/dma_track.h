/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel drivers' DMA, per tracked device (PTWALK_IOC_DMA_TRACK,
 * PTWALK_IOC_DMA_MAPS): dma_track.c says how, ptwalk_abi.h what.
 */
#ifndef PTWALK_DMA_TRACK_H
#define PTWALK_DMA_TRACK_H

#include <linux/compiler.h>
#include "ptwalk_abi.h"

/* Finds the DMA API's tracepoints; tracks the dma_track= devices. */
void ptwalk_dma_track_init(void);
/* Stops all tracking: probes detached, memory freed. */
void ptwalk_dma_track_exit(void);

/* PTWALK_IOC_DMA_TRACK and PTWALK_IOC_DMA_MAPS. */
long ptwalk_dma_ioctl(unsigned int cmd, void __user *arg);

#endif /* PTWALK_DMA_TRACK_H */
