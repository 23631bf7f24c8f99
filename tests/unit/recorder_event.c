// SPDX-License-Identifier: GPL-2.0
/* Recorder events for the unit tests. */
#include "recorder_event.h"

struct ptwalk_iommu_event rec_event(uint64_t seq, uint64_t ms, uint8_t kind,
				    uint64_t iova, uint64_t size,
				    uint64_t pfn, int32_t pid)
{
	return (struct ptwalk_iommu_event){
		.seq = seq, .time_ns = ms * MS, .kind = kind, .iova = iova,
		.size = size, .pfn = pfn, .pid = pid,
		.done = kind == PTWALK_EVENT_UNMAP ? size : 0,
	};
}
