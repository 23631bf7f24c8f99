// SPDX-License-Identifier: GPL-2.0
/* ptcompare --faults: what both printers share. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include "report/fault_print.h"

const char *fault_device_note(int err)
{
	switch (err) {
	case EBUSY:
		return "a DMA-API domain: give --dma-api to read it";
	case EAGAIN:
		return "not read (owner running): give --live-domain to read it";
	case EACCES:
		return "a paging domain, unreadable under lockdown";
	case ENOENT:
		return "no domain attached";
	case ERANGE:
		return "outside the domain's aperture";
	case EOPNOTSUPP:
		return "a domain ptwalk cannot read";
	case EDOM:
		return "IOMMU pages smaller than the kernel's";
	default:
		return "the device view failed";
	}
}

const char *fault_time_str(uint64_t time_us, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, time_us / 1000000,
		 time_us % 1000000);
	return buf;
}

void fault_undecoded_msg(const struct fault_report *r, char *msg, size_t size)
{
	const struct fault_undecoded *u = r->nr_undecoded ? &r->undecoded[0] :
					  NULL;

	if (!u) {
		snprintf(msg, size, "%" PRIu64 " IOMMU fault line%s not decoded",
			 r->undecoded_total, r->undecoded_total == 1 ? "" : "s");
		return;
	}
	snprintf(msg, size,
		 "%" PRIu64 " IOMMU fault line%s not decoded; the first, line %"
		 PRIu64 ": driver %s, %s%s: %s: please report this line",
		 r->undecoded_total, r->undecoded_total == 1 ? "" : "s",
		 u->line, u->driver, u->format ? "format " : "no known format",
		 u->format ? u->format : "", u->what);
}
