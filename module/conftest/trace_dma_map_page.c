// SPDX-License-Identifier: GPL-2.0
/*
 * The DMA API's dma_map_page event (6.12 to 6.17; dma_map_phys after):
 * dma_track.c checks its probes' types against it.
 */
#include <trace/events/dma.h>

__typeof__(check_trace_callback_type_dma_map_page) *ptwalk_conftest =
	check_trace_callback_type_dma_map_page;
