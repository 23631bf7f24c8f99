/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a device view was read, for every report that reads one (--iommu,
 * --faults): which owners ptcompare stopped and for how long, or that
 * the domain was read while its owner ran.
 */
#ifndef PTCOMPARE_REPORT_OWNER_PRINT_H
#define PTCOMPARE_REPORT_OWNER_PRINT_H

#include <stdio.h>
#include "model/domain_owner.h"
#include "report/json.h"

/* "owner-stopped", "live", or NULL (DOMAIN_READ_STILL). */
const char *domain_read_name(enum domain_read how);

/*
 * One line per owner ("owner pid N (comm) stopped for 12.0 ms", or
 * "... already stopped: left so"), or the live read's warning; nothing
 * for DOMAIN_READ_STILL.  ow may be NULL when how is not OWNER_STOPPED.
 */
void owner_print_text(FILE *f, enum domain_read how,
		      const struct domain_owners *ow);

/*
 * The keys "read" (domain_read_name(), or null) and "owners" (an array
 * of {pid, comm, stopped_us, by}: by "ptcompare", or "already" for one
 * found stopped and left so) into the open object.
 */
void owner_print_json(struct json_writer *w, enum domain_read how,
		      const struct domain_owners *ow);

#endif /* PTCOMPARE_REPORT_OWNER_PRINT_H */
