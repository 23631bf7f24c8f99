// SPDX-License-Identifier: GPL-2.0
/*
 * IOMMU faults (iommu_fault.h): their repeats collapsed, their enums
 * named.  The decoder is parse/fault/fault_decode.c, the drivers'
 * formats parse/fault/.
 */
#include <string.h>
#include "parse/iommu_fault.h"

/* ---- repeats collapsed ---------------------------------------------- */

static bool same_source(const struct iommu_fault *a, const struct iommu_fault *b)
{
	if (strcmp(a->iommu, b->iommu) || strcmp(a->device, b->device))
		return false;
	if (a->device[0])
		return true;
	return !strcmp(a->iommu_dev, b->iommu_dev) && a->has_sid == b->has_sid &&
	       a->sid == b->sid;
}

static bool same_group(const struct iommu_fault *a, const struct iommu_fault *b,
		       uint64_t page_size)
{
	if (!same_source(a, b) || a->access != b->access ||
	    a->has_iova != b->has_iova)
		return false;
	return !a->has_iova || a->iova / page_size == b->iova / page_size;
}

static void group_time(struct iommu_fault_group *g, const struct iommu_fault *f)
{
	if (!f->has_time)
		return;
	if (!g->first.has_time) {
		g->first.has_time = true;
		g->first.time_us = g->first_us = g->last_us = f->time_us;
		return;
	}
	if (f->time_us < g->first_us)
		g->first_us = f->time_us;
	if (f->time_us > g->last_us)
		g->last_us = f->time_us;
}

bool iommu_fault_group_add(struct iommu_fault_group *groups, size_t *n,
			   size_t cap, const struct iommu_fault *f,
			   uint64_t page_size)
{
	page_size = page_size ? page_size : 1;
	for (size_t i = 0; i < *n; i++)
		if (same_group(&groups[i].first, f, page_size)) {
			groups[i].count++;
			group_time(&groups[i], f);
			return true;
		}
	if (*n >= cap)
		return false;
	groups[*n].first = *f;
	groups[*n].count = 1;
	groups[*n].first_us = groups[*n].last_us = f->time_us;
	(*n)++;
	return true;
}

size_t iommu_fault_collapse(const struct iommu_fault *in, size_t n,
			    uint64_t page_size, struct iommu_fault_group *out,
			    size_t cap, size_t *dropped)
{
	size_t groups = 0;

	*dropped = 0;
	for (size_t i = 0; i < n; i++)
		if (!iommu_fault_group_add(out, &groups, cap, &in[i], page_size))
			(*dropped)++;
	return groups;
}

/* ---- names ---------------------------------------------------------- */

const char *iommu_access_name(enum iommu_access a)
{
	static const char *const names[] = {
		[IOMMU_ACCESS_UNKNOWN] = "unknown", [IOMMU_ACCESS_READ] = "read",
		[IOMMU_ACCESS_WRITE] = "write",
		[IOMMU_ACCESS_READ_WRITE] = "read-write",
		[IOMMU_ACCESS_EXEC] = "exec",
	};

	return (unsigned int)a < sizeof(names) / sizeof(names[0]) ? names[a] : "?";
}

const char *iommu_class_name(enum iommu_fault_class c)
{
	static const char *const names[] = {
		[IOMMU_CLASS_OTHER] = "other", [IOMMU_CLASS_UNMAPPED] = "unmapped",
		[IOMMU_CLASS_PERMISSION] = "permission",
		[IOMMU_CLASS_PAGE] = "page", [IOMMU_CLASS_ADDRESS] = "address",
		[IOMMU_CLASS_CONTEXT] = "context",
		[IOMMU_CLASS_INTERRUPT] = "interrupt",
		[IOMMU_CLASS_HARDWARE] = "hardware",
	};

	return (unsigned int)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}
