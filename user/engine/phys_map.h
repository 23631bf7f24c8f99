/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who maps a frame (ptcompare --phys, and the memory-type check of a
 * scan): the mappings of a range of physical frames found in ptwalk's
 * records of any number of processes, and the frames among them mapped
 * with more than one memory type.  Pure: the records come from the caller
 * (cmd/mode_phys.c reads them process by process), memory is bounded by
 * phys_set.max, and a mapping beyond it is counted, never silently lost.
 *
 * A "mapping" here is the pages of one ptwalk record whose frames
 * fall inside the range asked about: one process, one virtual address,
 * consecutive frames, one leaf level and memory type.
 */
#ifndef PTCOMPARE_ENGINE_PHYS_MAP_H
#define PTCOMPARE_ENGINE_PHYS_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "module/ptwalk_abi.h"

struct phys_mapping {
	pid_t pid;
	uint32_t proc;		/* the process's index in the caller's table */
	uint64_t addr;		/* virtual address of the first page */
	uint64_t pfn;		/* its frame; the next pages map pfn + 1, ... */
	uint64_t pages;
	uint64_t vm_flags;	/* PTWALK_VM_* */
	uint32_t flags;		/* PTWALK_F_* */
	int32_t node;
	uint8_t level;		/* enum ptwalk_level */
	uint8_t memtype;	/* enum ptwalk_memtype */
	uint32_t vma;		/* the VMA's index in the caller's table */
};

/* A run of frames. */
struct frame_run {
	uint64_t pfn;
	uint64_t pages;
};

/*
 * The mappings found so far, in the order found, of the frames asked
 * about: runs[], sorted and disjoint (one run for --phys).  Not to be
 * copied: runs may point into the set itself.
 */
struct phys_set {
	uint64_t pfn_start, pfn_end;	/* the runs' hull, end exclusive */
	const struct frame_run *runs;
	size_t nr_runs;
	struct frame_run one;		/* a set of one run can hold it */
	unsigned int page_shift;	/* bytes per page, as a shift */
	struct phys_mapping *m;
	size_t n, cap;
	size_t max;			/* mappings kept at most */
	uint64_t dropped;		/* mappings found beyond max */
	uint64_t dropped_pages;		/* ... and their pages */
};

/*
 * An empty set for the frames of runs[0 .. n) (n >= 1, sorted, disjoint,
 * left to the caller until phys_set_free()), keeping at most max
 * mappings; allocates nothing yet.
 */
void phys_set_init_runs(struct phys_set *s, const struct frame_run *runs,
			 size_t n, unsigned int page_shift, size_t max);
void phys_set_free(struct phys_set *s);

/*
 * Adds what r maps in the runs, one mapping per run it meets: 0, or
 * -ENOMEM.  Beyond max, a mapping is counted in dropped and dropped_pages
 * instead.
 */
int phys_add(struct phys_set *s, const struct ptwalk_record_ext *r, pid_t pid,
	     uint32_t proc, uint32_t vma);

/* Physical address of mapping m's first frame. */
static inline uint64_t phys_addr_of(const struct phys_set *s,
				    const struct phys_mapping *m)
{
	return m->pfn << s->page_shift;
}

/*
 * The frames of the runs no mapping in s covers, in ascending order:
 * calls fn(arg, pfn, pages) for each run, and sets *total to the number
 * of such frames.  0, or -ENOMEM.  With dropped mappings the answer is a
 * bound: frames of a dropped mapping count as unmapped (phys_set.dropped
 * says so).
 */
int phys_unmapped(const struct phys_set *s,
		  void (*fn)(void *arg, uint64_t pfn, uint64_t pages),
		  void *arg, uint64_t *total);

/*
 * A run of frames that mappings of s map with more than one memory type:
 * mappings[] of s overlapping [pfn, pfn + pages) are the ones to list.
 */
struct memtype_conflict {
	uint64_t pfn;
	uint64_t pages;
	uint32_t memtypes;	/* bit t set: some mapping has memtype t */
};

/*
 * The conflicts among s's mappings, in frame order, into *out (an array
 * the caller frees, NULL with none): their number, or -ENOMEM.  A mapping
 * with PTWALK_MEMTYPE_NONE (type not decoded) conflicts with nothing.
 * Each conflict is a maximal run of frames covered by the same mappings.
 */
long memtype_conflicts(const struct phys_set *s,
		       struct memtype_conflict **out);

/*
 * Frames a scan saw mapped with a memory type other than the default
 * (x86 wb, arm64 normal): the only frames that can be in conflict, kept
 * as runs to look for every mapping of (phys_set_init_runs()).  At most
 * max runs, merged when full; what still does not fit is counted.
 */
struct memtype_suspects {
	struct frame_run *run;
	size_t n, cap, max;
	uint64_t dropped_pages;
};

void suspects_init(struct memtype_suspects *s, size_t max);
void suspects_free(struct memtype_suspects *s);

/* Notes pages frames from pfn mapped with memtype: 0, or -ENOMEM. */
int suspects_add(struct memtype_suspects *s, uint64_t pfn, uint64_t pages,
		 unsigned int memtype);

/* Sorts and merges the runs, for phys_set_init_runs(). */
void suspects_finish(struct memtype_suspects *s);

/* Whether mapping m covers any frame of [pfn, pfn + pages). */
bool phys_overlaps(const struct phys_mapping *m, uint64_t pfn,
		   uint64_t pages);

#endif /* PTCOMPARE_ENGINE_PHYS_MAP_H */
