/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real sources behind struct witness_io: /proc/iomem parsed once,
 * /proc/kpageflags read in preads of runs, and a ptwalk session of its
 * own for the re-checks.  What cannot be opened is said once in the
 * witness_totals, never an error: the witnesses are extra evidence.
 */
#ifndef PTCOMPARE_WITNESS_SOURCE_H
#define PTCOMPARE_WITNESS_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "engine/witness.h"
#include "parse/iomem.h"

struct witness_source {
	pid_t pid;
	int kpf_fd;		/* -1: third witness off */
	int walk_fd;		/* -1 until opened */
	struct iomem iomem;
	/* what was read, for --stats */
	uint64_t kpf_reads;
	uint64_t kpf_bytes;
	uint64_t kpf_ns;	/* time spent in kpageflags reads */
};

/*
 * Opens everything else; notes in totals what is missing, and points
 * totals->iomem at the parsed names.  walk_fd is a ptwalk session of its
 * own (the caller opened and diagnosed it); s owns it from now on.
 */
void witness_source_open(struct witness_source *s, int walk_fd, pid_t pid,
			 bool kpageflags, struct witness_totals *totals);
void witness_source_close(struct witness_source *s);

/* Connects io to s (which must outlive io). */
void witness_source_io(struct witness_source *s, struct witness_io *io);

#endif /* PTCOMPARE_WITNESS_SOURCE_H */
