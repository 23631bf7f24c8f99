/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare --faults's output: each IOMMU fault of the kernel log (its
 * repeats collapsed) with what explains it, and the faults that could
 * not be explained and why; text or JSON (docs/json.md).
 */
#ifndef PTCOMPARE_FAULT_PRINT_H
#define PTCOMPARE_FAULT_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "engine/fault_dma.h"
#include "engine/fault_explain.h"
#include "model/dma_class.h"
#include "model/domain_owner.h"
#include "parse/iommu_fault.h"

/* One process's mapping of the frame the IOVA pointed to. */
struct fault_frame_mapping {
	pid_t pid;
	char comm[64];
	uint64_t start;		/* the virtual address of that frame */
	unsigned int memtype;	/* enum ptwalk_memtype */
};

/*
 * A device with no VFIO owner (a kernel driver's) against the DMA-API
 * mappings ptwalk.ko tracks for it (--dma-track).
 */
struct fault_dma_explained {
	bool asked;		/* the question was put: null otherwise */
	/*
	 * Why nothing is known: "not tracked", "no DMA API tracepoints
	 * (Linux 6.12+)", ...; NULL when the mappings were read.
	 */
	const char *note;
	uint64_t tracked_ns;	/* local_clock() when tracking began */
	uint32_t live, unmaps;	/* live mappings and unmaps read */
	struct fault_dma_match match;
	bool has_frame;		/* match.phys read: frame below */
	enum dma_frame frame;	/* what that frame is now */
	struct fault_frame_mapping *frames;	/* who maps it now */
	size_t nr_frames;
};

/* One fault (group) and what explains it; "" and false: unknown. */
struct fault_explained {
	struct iommu_fault_group g;
	char device[IOMMU_FAULT_NAME_MAX];	/* PCI name; "" unresolved */
	char driver[64];			/* "": none bound */
	bool has_domain;
	uint32_t domain;			/* enum ptwalk_iommu_domain */
	uint64_t device_pfn;			/* PTWALK_PFN_NONE: none */
	const char *device_note;		/* why device_pfn is unknown */
	enum domain_read device_read;		/* how the domain was read */
	uint64_t device_stopped_ns;		/* OWNER_STOPPED: the longest
						 * any owner was held
						 */
	pid_t owner_pid;			/* 0: no process holds it */
	char owner_comm[64];
	bool has_mapping_now;
	uint64_t vma_start, vma_end;
	char vma_name[256];
	uint64_t walk_pfn;			/* PTWALK_PFN_NONE: none */
	struct fault_last_mapping last;		/* .found false: null */
	bool has_recorder;
	/*
	 * local_clock() when the recorder was armed, the oldest event it
	 * can hold; 0: it was not armed before this run asked.
	 */
	uint64_t recorder_since_ns;
	struct fault_frame_mapping *frames;
	size_t nr_frames;
	struct fault_dma_explained dma;
	/*
	 * Why the parts read from the machine now (the device now, its
	 * domain, owner, last mapping, frame now) are null: "not this
	 * machine", "ptwalk.ko not loaded", "no such device here", ...;
	 * NULL when they were read.
	 */
	const char *live_note;
};

/* A line that names an IOMMU fault no format of ptcompare reads. */
#define FAULT_UNDECODED_TEXT 160
struct fault_undecoded {
	uint64_t line;				/* 1 for the first */
	const char *driver;			/* "vt-d", ..., "unknown" */
	const char *format;			/* NULL: no format matched */
	char what[IOMMU_FAULT_REASON_MAX];	/* what was not read */
	char text[FAULT_UNDECODED_TEXT];	/* the line, cut to fit */
};

/* A fault that could not be explained, or faults the log lost. */
struct fault_unexplained {
	const char *why;	/* "device gone", "log wrapped", ... */
	char device[IOMMU_FAULT_NAME_MAX];	/* "" when none is known */
	uint64_t iova;
	bool has_iova;
	uint64_t count;
};

struct fault_report {
	const char *kernel;
	unsigned int page_shift;
	const struct fault_explained *faults;
	size_t nr_faults;
	const struct fault_unexplained *unexplained;
	size_t nr_unexplained;
	uint64_t records_read;		/* kmsg records (or lines) read */
	bool from_line;			/* --fault-line/--fault-file: no log */
	/* lines not decoded: the first kept, all counted */
	const struct fault_undecoded *undecoded;
	size_t nr_undecoded;
	uint64_t undecoded_total;
};

void fault_print_text(FILE *f, const struct fault_report *r);
/* 0, or the JSON writer's error (json.h). */
int fault_print_json(FILE *f, const struct fault_report *r);

/*
 * Why the device's frame is unknown, from the errno ptwalk_query_iommu()
 * or its read failed with: the phrase of a fault's device_note.
 */
const char *fault_device_note(int err);

/* "12.345678" seconds since boot of time_us into buf. */
const char *fault_time_str(uint64_t time_us, char *buf, size_t size);

/*
 * The one-line message of a run with undecoded lines: how many, the
 * first one's driver, format and what was not read, and what to do.
 */
void fault_undecoded_msg(const struct fault_report *r, char *msg,
			 size_t size);

#endif /* PTCOMPARE_FAULT_PRINT_H */
