/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --dma-track DEVICE [--off]: ptwalk.ko starts (or stops)
 * keeping the device's DMA-API mappings (module/dma_track.c).
 */
#ifndef PTCOMPARE_CMD_MODE_DMA_TRACK_H
#define PTCOMPARE_CMD_MODE_DMA_TRACK_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * Runs it as o says: the exit status (model/outcome.h), msg set when it
 * is a failure's (above EXIT_MISMATCH).
 */
int mode_dma_track(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_DMA_TRACK_H */
