/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a run of ptcompare ends: its exit status, the kinds of failure a
 * diagnosis (report/diagnose.h) tells apart, and the facts about the
 * system it needs beside errno: whether the module is loaded, the kernel
 * lockdown mode, and what opening each way in to ptwalk said.
 *
 * Each kind of failure has an exit status of its own, so that a script
 * can tell "could not check" causes apart without parsing the message
 * (issue 20); the message still names the cause and what to do.  The
 * table is man/ptcompare.1's EXIT STATUS.  86 and 66 stay out of it: the
 * VM lanes' sanitizers exit with them (tests/vm/guest-suite.sh).
 */
#ifndef PTCOMPARE_MODEL_OUTCOME_H
#define PTCOMPARE_MODEL_OUTCOME_H

enum exit_status {
	EXIT_OK = 0,
	EXIT_MISMATCH = 1,	/* an unexplained difference remains */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_NO_MODULE = 3,	/* ptwalk not loaded, no way in to it */
	EXIT_LOCKDOWN = 4,	/* lockdown refuses debugfs, no device */
	EXIT_PRIVILEGE = 5,	/* not root / no CAP_SYS_ADMIN or
				 * CAP_SYS_PTRACE
				 */
	EXIT_NO_PROCESS = 6,	/* no such pid */
	EXIT_EXITED = 7,	/* the process exited during the scan */
	EXIT_NO_MM = 8,		/* kernel thread or zombie: no user memory */
	EXIT_INTERNAL = 9,	/* ABI mismatch, I/O error, out of memory */
	EXIT_NO_DEVICE = 10,	/* --iommu: no such PCI device */
	EXIT_NO_GROUP = 11,	/* --iommu: no IOMMU group where one is needed */
	EXIT_DOMAIN = 12,	/* --iommu: no domain, or one that cannot be
				 * asked (SVA, nested, ...)
				 */
	EXIT_APERTURE = 13,	/* --iommu: IOVAs outside the aperture */
	EXIT_DMA_API = 14,	/* --iommu: a DMA-API domain, no --dma-api */
	EXIT_NO_RECORDER = 15,	/* --iommu --watch: ptwalk.ko records no
				 * IOMMU events (iommu_events=0)
				 */
	EXIT_NOT_VFIO = 16,	/* --iommu --watch: the device is not
				 * driven through VFIO
				 */
	EXIT_FAULT_UNDECODED = 17,	/* --faults: a line names an IOMMU
					 * fault no format reads
					 */
	EXIT_LIVE_DOMAIN = 18,	/* --iommu: a paging domain whose owner
				 * cannot be stopped (a kernel driver, a
				 * process this user may not stop), no
				 * --live-domain
				 */
	EXIT_DMA_OFFSET = 19,	/* --iommu: no IOMMU, no driver, and a
				 * platform DMA offset only a bound
				 * driver's map holds
				 */
	EXIT_DMA_TRACK_UNSUPPORTED = 20, /* --dma-track: the kernel has no
					  * DMA API tracepoints (before 6.12)
					  */
};

/* The kinds of failure; each one's value is its exit status. */
enum failure {
	FAIL_USAGE = EXIT_USAGE,
	FAIL_NO_MODULE = EXIT_NO_MODULE,
	FAIL_LOCKDOWN = EXIT_LOCKDOWN,
	FAIL_PRIVILEGE = EXIT_PRIVILEGE,
	FAIL_NO_TARGET = EXIT_NO_PROCESS,
	FAIL_EXITED = EXIT_EXITED,
	FAIL_NO_MM = EXIT_NO_MM,
	FAIL_INTERNAL = EXIT_INTERNAL,
	FAIL_NO_DEVICE = EXIT_NO_DEVICE,
	FAIL_NO_GROUP = EXIT_NO_GROUP,
	FAIL_DOMAIN = EXIT_DOMAIN,
	FAIL_APERTURE = EXIT_APERTURE,
	FAIL_DMA_API = EXIT_DMA_API,
	FAIL_NO_RECORDER = EXIT_NO_RECORDER,
	FAIL_NOT_VFIO = EXIT_NOT_VFIO,
	FAIL_LIVE_DOMAIN = EXIT_LIVE_DOMAIN,
	FAIL_DMA_OFFSET = EXIT_DMA_OFFSET,
	FAIL_DMA_TRACK_UNSUPPORTED = EXIT_DMA_TRACK_UNSUPPORTED,
};

enum module_state {
	MODULE_STATE_UNKNOWN,	/* libkmod could not tell */
	MODULE_NOT_LOADED,
	MODULE_LOADED,
};

/*
 * The kernel's lockdown mode (parse/lockdown.h reads it from
 * /sys/kernel/security/lockdown).  Under lockdown debugfs refuses files
 * that can be written, so ptwalk is reached through /dev/ptwalk instead.
 */
enum lockdown_mode {
	LOCKDOWN_UNKNOWN,	/* no lockdown LSM, securityfs not mounted, ... */
	LOCKDOWN_NONE,
	LOCKDOWN_INTEGRITY,
	LOCKDOWN_CONFIDENTIALITY,
};

/*
 * What is known after ptwalk could not be reached: the errno of each way
 * in that was tried (io/endpoint.h), whether the module is loaded, and
 * the lockdown mode.
 */
struct open_failure {
	const char *debugfs;	/* debugfs mount point tried; NULL: not tried */
	int debugfs_err;	/* errno of opening <debugfs>/ptwalk/query */
	const char *device;	/* device node tried; NULL: not tried */
	int device_err;		/* errno of opening it */
	enum module_state module;
	enum lockdown_mode lockdown;
};

#endif /* PTCOMPARE_MODEL_OUTCOME_H */
