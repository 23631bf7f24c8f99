// SPDX-License-Identifier: GPL-2.0
/* tests/unit/fault_file.h: fixtures of the IOMMU fault decoder. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "fault_file.h"

struct gather {
	struct fault_file *out;
};

static int gather(void *arg, enum iommu_line r, const struct iommu_fault *f,
		  const char *msg, uint64_t line)
{
	struct gather *g = arg;
	struct fault_file *o = g->out;

	(void)msg;
	if (r == IOMMU_LINE_FAULT && o->n < FAULT_FILE_MAX) {
		o->f[o->n++] = *f;
	} else if (r == IOMMU_LINE_DETAIL) {
		/* the caller replaces the fault of the same IOMMU it completes */
		for (size_t i = o->n; i-- > 0;)
			if (!strcmp(o->f[i].iommu, f->iommu) &&
			    !strcmp(o->f[i].iommu_dev, f->iommu_dev)) {
				o->f[i] = *f;
				break;
			}
		o->details++;
	} else if (r == IOMMU_LINE_MALFORMED) {
		if (!o->malformed)
			o->first_malformed = (size_t)line;
		o->malformed++;
	}
	return 0;
}

void fault_file_read(const char *name, struct fault_file *out)
{
	char path[512], *line = NULL;
	const char *slash = strrchr(__FILE__, '/');
	struct iommu_fault_decoder *d = malloc(sizeof(*d));
	struct gather g = { out };
	size_t size = 0;
	ssize_t len;
	FILE *f;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%.*sdata/iommu_faults/%s",
		 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(d);
	iommu_fault_decoder_init(d);
	while ((len = getline(&line, &size, f)) >= 0)
		iommu_fault_feed(d, line, (size_t)len, gather, &g);
	iommu_fault_finish(d, gather, &g);
	out->pending = iommu_fault_decoder_pending(d, NULL);
	free(line);
	free(d);
	fclose(f);
}

enum iommu_line fault_line(const char *line, struct iommu_fault *f)
{
	return iommu_fault_parse_line(line, strlen(line), f);
}
