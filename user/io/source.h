/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real sources behind the engines' I/O hooks.  Behind struct
 * compare_io: /proc/PID/pagemap read in large preads, and two ptwalk
 * sessions (the scan and the re-reads).  Behind struct witness_io:
 * /proc/iomem parsed once, /proc/kpageflags read in preads of runs, and a
 * ptwalk session of its own for the re-checks; what cannot be opened
 * there is said once in the witness_totals, never an error: the
 * witnesses are extra evidence.
 */
#ifndef PTCOMPARE_SOURCE_H
#define PTCOMPARE_SOURCE_H

#include <stdbool.h>
#include <sys/types.h>
#include "engine/compare.h"
#include "engine/witness.h"
#include "parse/iomem.h"

struct proc_source {
	pid_t pid;
	unsigned int page_shift;	/* the kernel's: pagemap has an entry
					 * per kernel page
					 */
	int pagemap_fd;
	int walk_fd[NR_COMPARE_STREAMS];
	/*
	 * ptwalk's session file: a stream not open (-1) is opened there by
	 * its first query.  The re-reads' stream is asked only when pages
	 * differ, so most runs never pay for opening it.
	 */
	const char *walk_path;
	/* what was read, for --stats */
	uint64_t pagemap_bytes;
	uint64_t walk_queries;
	uint64_t walk_records;
	uint64_t pagemap_ns;	/* time spent in pagemap reads */
	uint64_t walk_ns;	/* time spent in ptwalk queries and reads */
};

/* Closes *fd if it is open, and marks it closed (-1). */
void fd_close(int *fd);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t monotonic_ns(void);

/* Connects io to src (which must outlive io). */
void proc_source_io(struct proc_source *src, struct compare_io *io);

/*
 * Every numeric entry of /proc but this process, ascending, into *pids
 * (the caller frees it): their number, or -errno.
 */
long proc_list_pids(pid_t **pids);

/*
 * /proc/iomem parsed into m, for naming physical addresses: false (no
 * names; m still to be freed) when it cannot be read, or shows every
 * address as 0 (a reader without CAP_SYS_ADMIN).
 */
bool proc_iomem_load(struct iomem *m);

/* Whether pid still exists and is not a zombie. */
bool proc_alive(pid_t pid);

/*
 * proc_alive(), and the process's name from the same read of
 * /proc/PID/stat into comm (size bytes; "" when it is gone): one file
 * instead of two where both are wanted, as at the end of each process's
 * scan under --all, where an open per process adds up.
 */
bool proc_alive_comm(pid_t pid, char *comm, size_t size);

/*
 * A /proc/PID/stat line: whether its process lives (its state neither Z
 * nor X); with comm, its name, between the first '(' and the last ')',
 * cut at a newline, "" if the line has no name.
 */
bool proc_stat_alive(const char *line, char *comm, size_t size);

/* Peak resident set of this process's current image (VmHWM), KiB; 0 if unknown. */
uint64_t self_peak_rss_kib(void);

/* /proc/PID/comm without its newline, "" if unreadable. */
void proc_comm(pid_t pid, char *buf, size_t size);

struct witness_source {
	pid_t pid;
	int kpf_fd;		/* -1: third witness off */
	/*
	 * the re-checks' ptwalk session, opened at walk_path by the first
	 * re-check (most runs have none): -1 until then
	 */
	int walk_fd;
	const char *walk_path;
	struct iomem iomem;	/* read by the first name needed */
	bool iomem_read;
	/* what was read, for --stats */
	uint64_t kpf_reads;
	uint64_t kpf_bytes;
	uint64_t kpf_ns;	/* time spent in kpageflags reads */
};

/*
 * Opens everything else and notes in totals what is missing; the io's
 * load_names() points totals->iomem at /proc/iomem's names, read and
 * parsed then (or notes why there are none).  walk_path is ptwalk's session file
 * (which must outlive s), where the re-checks open a session of their
 * own when they first need it.
 */
void witness_source_open(struct witness_source *s, const char *walk_path,
			 pid_t pid, bool kpageflags,
			 struct witness_totals *totals);
void witness_source_close(struct witness_source *s);

/* Connects io to s (which must outlive io). */
void witness_source_io(struct witness_source *s, struct witness_io *io);

#endif /* PTCOMPARE_SOURCE_H */
