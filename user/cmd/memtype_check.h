/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scan's memory-type check: after the comparison, the frames the scan
 * saw mapped with another memory type than the default (session.suspects)
 * are looked for in every mapping of the process (cmd/mode_phys.h), and the
 * frames mapped with more than one type go into the report as
 * memtype_conflict findings.  Costs a second walk of the process only
 * when such frames exist (device memory, write-combined buffers).
 */
#ifndef PTCOMPARE_CMD_MEMTYPE_CHECK_H
#define PTCOMPARE_CMD_MEMTYPE_CHECK_H

#include "cmd/scan.h"

/* EXIT_OK (the findings in s->report), or a failure (said). */
int memtype_check(struct scan *sc);

#endif /* PTCOMPARE_CMD_MEMTYPE_CHECK_H */
