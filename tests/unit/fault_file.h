/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file of tests/unit/data/iommu_faults through one decoder, as
 * ptcompare --faults reads it: each fault kept, a detail replacing the
 * fault it completes, malformed lines counted (a wrapped line joined
 * first, as the decoder does).
 */
#ifndef PTCOMPARE_TEST_FAULT_FILE_H
#define PTCOMPARE_TEST_FAULT_FILE_H

#include <stddef.h>
#include "parse/iommu_fault.h"

#define FAULT_FILE_MAX 32

struct fault_file {
	struct iommu_fault f[FAULT_FILE_MAX];
	size_t n;		/* faults */
	size_t details;		/* lines that completed one */
	size_t malformed;	/* lines an IOMMU's and not read */
	size_t first_malformed;	/* its line number (1-based), or 0 */
	unsigned int pending;	/* events cut short */
};

/* name's lines in order; the test fails if the file cannot be read. */
void fault_file_read(const char *name, struct fault_file *out);

/* One line as a paste of its own (a decoder of its own). */
enum iommu_line fault_line(const char *line, struct iommu_fault *f);

#endif /* PTCOMPARE_TEST_FAULT_FILE_H */
