/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --phys's output: who maps a range of frames (engine/phys_map.h),
 * with the processes and VMAs the mappings belong to, the frames nobody
 * maps, and the memory-type conflicts; text or JSON (docs/json.md).
 */
#ifndef PTCOMPARE_PHYS_PRINT_H
#define PTCOMPARE_PHYS_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include "engine/phys_map.h"
#include "model/verdict.h"
#include "parse/iomem.h"
#include "report/json.h"

/* A process that maps some of the frames (phys_mapping.proc). */
struct phys_proc {
	pid_t pid;
	char comm[64];
};

/* A VMA holding some of the mappings (phys_mapping.vma). */
struct phys_vma {
	uint64_t start, end;
	char perms[5];
	char *name;		/* "" for an anonymous one */
};

struct phys_view {
	uint64_t start, end;		/* physical, whole frames */
	const struct phys_set *set;
	const struct phys_proc *procs;
	const struct phys_vma *vmas;
	const struct memtype_conflict *conflicts;
	size_t nr_conflicts;
	const struct iomem *iomem;	/* NULL: names unknown */
	const char *kernel;
	unsigned int scanned;		/* processes looked at */
	unsigned int no_mm;		/* ... of them without user memory */
	unsigned int exited;		/* ... that exited during the scan */
};

void phys_print_text(FILE *f, const struct phys_view *v);
/* 0, or the JSON writer's error (json.h). */
int phys_print_json(FILE *f, const struct phys_view *v);

/*
 * The memtype_conflict findings alone, for a scan's report: text lines,
 * or the members of a JSON array being written.
 */
void phys_print_conflicts_text(FILE *f, const struct phys_view *v);
void phys_print_conflicts_json(struct json_writer *j,
			       const struct phys_view *v);

/* What the reports know of mapping m's pages (page_attrs.h). */
struct page_detail phys_page_detail(const struct phys_mapping *m);

/* /proc/iomem's name of the frame pfn into buf ("" if unknown). */
const char *phys_iomem_name(const struct phys_view *v, uint64_t pfn,
			    char *buf, size_t size);

#endif /* PTCOMPARE_PHYS_PRINT_H */
