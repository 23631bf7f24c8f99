/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An event of ptwalk.ko's recorder (PTWALK_IOC_EVENTS) as the unit tests
 * of its readers (--faults, --iommu --watch) build them: an unmap is
 * taken as having unmapped all it asked.
 */
#ifndef PTCOMPARE_TEST_RECORDER_EVENT_H
#define PTCOMPARE_TEST_RECORDER_EVENT_H

#include <stdint.h>
#include "module/ptwalk_abi.h"

#define MS 1000000ULL

struct ptwalk_iommu_event rec_event(uint64_t seq, uint64_t ms, uint8_t kind,
				    uint64_t iova, uint64_t size,
				    uint64_t pfn, int32_t pid);

#endif /* PTCOMPARE_TEST_RECORDER_EVENT_H */
