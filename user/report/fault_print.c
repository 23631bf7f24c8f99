// SPDX-License-Identifier: GPL-2.0
/* ptcompare --faults: what both printers share. */
#include <inttypes.h>
#include "report/fault_print.h"

const char *fault_time_str(uint64_t time_us, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, time_us / 1000000,
		 time_us % 1000000);
	return buf;
}
