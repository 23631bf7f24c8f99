/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --dma DEVICE: the device's live DMA-API mappings as ptwalk.ko
 * tracked them (--dma-track), each frame named as it is now, and the
 * findings that hold over two reads (engine/dma_inventory.h).
 */
#ifndef PTCOMPARE_CMD_MODE_DMA_H
#define PTCOMPARE_CMD_MODE_DMA_H

#include <stddef.h>
#include "parse/cli.h"

/*
 * Runs it as o says: the exit status (model/outcome.h), msg set when it
 * is a failure's (above EXIT_MISMATCH).
 */
int mode_dma(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_DMA_H */
