// SPDX-License-Identifier: GPL-2.0
/*
 * The DMA API's dma_map_phys event (6.18, in place of dma_map_page and
 * dma_map_resource): dma_track.c checks its probes' types against it.
 */
#include <trace/events/dma.h>

__typeof__(check_trace_callback_type_dma_map_phys) *ptwalk_conftest =
	check_trace_callback_type_dma_map_phys;
