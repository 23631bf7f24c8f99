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
/* Stops all tracking: probes detached, memory freed; no session is left. */
void ptwalk_dma_track_exit(void);

/* The devices one session holds tracked (PTWALK_IOC_DMA_TRACK). */
struct device;
struct ptwalk_dma_holds {
	struct device *dev[PTWALK_DMA_MAX_DEVICES];
};

/*
 * PTWALK_IOC_DMA_TRACK and PTWALK_IOC_DMA_MAPS for the session holding
 * h; the caller checked who asks and holds the session's lock.
 */
long ptwalk_dma_ioctl(struct ptwalk_dma_holds *h, unsigned int cmd,
		      void __user *arg);
/* Drops the session's holds (its file is closed). */
void ptwalk_dma_release(struct ptwalk_dma_holds *h);

#endif /* PTWALK_DMA_TRACK_H */
