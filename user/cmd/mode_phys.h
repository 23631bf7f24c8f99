/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --phys ADDR[-END]: every mapping of those frames in every user
 * process, from ptwalk's records (so VM_PFNMAP mappings pagemap hides are
 * seen too), and the frames mapped with more than one memory type.
 */
#ifndef PTCOMPARE_CMD_MODE_PHYS_H
#define PTCOMPARE_CMD_MODE_PHYS_H

#include <stddef.h>
#include <sys/types.h>
#include "engine/phys_map.h"
#include "parse/cli.h"
#include "report/phys_print.h"

/*
 * Mappings kept at most: 64 bytes each with their VMA and process, 4 MiB
 * in all; beyond it they are counted and the report says so.
 */
#define PHYS_MAX_MAPPINGS 65536

/* Records read per read() of the session. */
#define PHYS_BATCH 256

/*
 * Looking for the mappings of some frames, process by process, through
 * one ptwalk session: --phys over every process, and a scan's memory-type
 * check over its one process.
 */
struct phys_scan {
	int fd;				/* the ptwalk session, the caller's */
	struct phys_set set;
	struct phys_proc *procs;	/* one per process with a mapping */
	size_t nr_procs, cap_procs;
	struct phys_vma *vmas;		/* one per VMA with a mapping */
	size_t nr_vmas, cap_vmas;
	struct memtype_conflict *conflicts;	/* phys_scan_view()'s */
	struct ptwalk_record_ext buf[PHYS_BATCH];
	unsigned int scanned, no_mm, exited;
};

/* Starts a look for the frames of runs[0 .. n) (phys_set_init_runs()). */
void phys_scan_init(struct phys_scan *ps, int fd,
		    const struct frame_run *runs, size_t n, unsigned int shift);

/*
 * Adds process pid's mappings of the frames: 0 (also when it exited or
 * has no user memory: counted), or a failure's -errno.
 */
int phys_scan_process(struct phys_scan *ps, pid_t pid);

/* Every process but ours, in /proc's order: 0 or -errno (*pid: whose). */
int phys_scan_all(struct phys_scan *ps, pid_t *pid);

/*
 * Fills v's mappings, processes, VMAs, counts and conflicts (which ps
 * owns): 0, or -ENOMEM.
 */
int phys_scan_view(struct phys_scan *ps, struct phys_view *v);

void phys_scan_free(struct phys_scan *ps);

/* The exit status (1: a memtype conflict); msg says a failure's cause. */
int mode_phys(const struct cli_options *o, char *msg, size_t size);

#endif /* PTCOMPARE_CMD_MODE_PHYS_H */
