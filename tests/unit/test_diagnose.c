// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "io/host_state.h"
#include "module/ptwalk_abi.h"
#include "report/diagnose.h"

/* debugfs alone (--debugfs), as before the device existed. */
static enum failure debugfs_only(int err, enum module_state state,
				 enum lockdown_mode lockdown, char *msg,
				 size_t size)
{
	struct open_failure f = {
		.debugfs = "/d", .debugfs_err = err, .module = state,
		.lockdown = lockdown,
	};

	return diagnose_endpoint(&f, msg, size);
}

static void open_errors(void **state)
{
	char msg[256];

	(void)state;
	assert_int_equal(debugfs_only(ENOENT, MODULE_NOT_LOADED, LOCKDOWN_NONE,
				      msg, sizeof(msg)), FAIL_NO_MODULE);
	assert_contains(msg, "insmod ptwalk.ko");
	assert_int_equal(debugfs_only(ENOENT, MODULE_LOADED, LOCKDOWN_NONE, msg,
				      sizeof(msg)), FAIL_NO_MODULE);
	assert_contains(msg, "mount -t debugfs none /d");
	assert_int_equal(debugfs_only(ENOENT, MODULE_STATE_UNKNOWN,
				      LOCKDOWN_NONE, msg, sizeof(msg)),
			 FAIL_NO_MODULE);
	assert_int_equal(debugfs_only(EACCES, MODULE_LOADED, LOCKDOWN_NONE, msg,
				      sizeof(msg)), FAIL_PRIVILEGE);
	assert_contains(msg, "root");
	assert_int_equal(debugfs_only(EPERM, MODULE_LOADED, LOCKDOWN_UNKNOWN,
				      msg, sizeof(msg)), FAIL_PRIVILEGE);
	assert_contains(msg, "CAP_SYS_ADMIN",
			"lockdown");
	assert_int_equal(debugfs_only(EIO, MODULE_LOADED, LOCKDOWN_NONE, msg,
				      sizeof(msg)), FAIL_INTERNAL);
}

/*
 * Every way a run can fail to reach ptwalk, debugfs and the device both
 * tried unless NULL: its kind and words that name the case.  Each message
 * must also differ from every other one (checked below).
 */
static const struct {
	const char *debugfs, *device;
	int debugfs_err, device_err;
	enum module_state module;
	enum lockdown_mode lockdown;
	enum failure want;
	const char *needle[3];
} endpoint_cases[] = {
	/* 0: lockdown refuses debugfs, an older ptwalk.ko without device */
	{ "/d", "/dev/pw", EPERM, ENOENT, MODULE_LOADED, LOCKDOWN_INTEGRITY,
	  FAIL_LOCKDOWN, { "lockdown (integrity", "/sys/kernel/security/lockdown",
			   "/dev/pw is missing" } },
	/* 1: the same with a stale node and no driver behind it */
	{ "/d", "/dev/pw", EPERM, ENODEV, MODULE_LOADED,
	  LOCKDOWN_CONFIDENTIALITY, FAIL_LOCKDOWN,
	  { "lockdown (confidentiality", "/dev/pw is missing", NULL } },
	/* 2: --debugfs under lockdown: the device is the way out */
	{ "/d", NULL, EPERM, 0, MODULE_LOADED, LOCKDOWN_INTEGRITY,
	  FAIL_LOCKDOWN, { "refuses ptwalk's debugfs files", "/dev/ptwalk",
			   "drop --debugfs" } },
	/* 3: EPERM without lockdown: capabilities */
	{ "/d", "/dev/pw", EPERM, ENOENT, MODULE_LOADED, LOCKDOWN_NONE,
	  FAIL_PRIVILEGE, { "CAP_SYS_ADMIN and CAP_SYS_PTRACE in the initial namespace",
			    "/d/ptwalk", NULL } },
	/* 4: the device refuses: not root (whatever debugfs said) */
	{ "/d", "/dev/pw", EACCES, EACCES, MODULE_LOADED, LOCKDOWN_NONE,
	  FAIL_PRIVILEGE, { "permission denied on /dev/pw", "run as root",
			    NULL } },
	/* 5: the device refuses: root without CAP_SYS_ADMIN */
	{ "/d", "/dev/pw", EPERM, EPERM, MODULE_LOADED, LOCKDOWN_INTEGRITY,
	  FAIL_PRIVILEGE, { "not permitted on /dev/pw",
			    "CAP_SYS_ADMIN and CAP_SYS_PTRACE in the initial namespace", NULL } },
	/* 6: nothing loaded */
	{ "/d", "/dev/pw", ENOENT, ENOENT, MODULE_NOT_LOADED, LOCKDOWN_NONE,
	  FAIL_NO_MODULE, { "ptwalk is not loaded", "insmod ptwalk.ko", NULL } },
	/* 7: nothing loaded under lockdown: signing matters */
	{ "/d", "/dev/pw", ENOENT, ENOENT, MODULE_NOT_LOADED,
	  LOCKDOWN_INTEGRITY, FAIL_NO_MODULE,
	  { "ptwalk is not loaded", "lockdown (integrity)", "signed" } },
	/* 8: loaded, debugfs unmounted and no device node */
	{ "/d", "/dev/pw", ENOENT, ENOENT, MODULE_LOADED, LOCKDOWN_NONE,
	  FAIL_NO_MODULE, { "neither /d/ptwalk nor /dev/pw",
			    "mount -t debugfs none /d", NULL } },
	/* 9: --device, loaded, no node */
	{ NULL, "/dev/pw", 0, ENOENT, MODULE_LOADED, LOCKDOWN_NONE,
	  FAIL_NO_MODULE, { "ptwalk is loaded but /dev/pw does not exist",
			    "udev", NULL } },
	/* 10: --device, libkmod cannot tell */
	{ NULL, "/dev/pw", 0, ENOENT, MODULE_STATE_UNKNOWN, LOCKDOWN_NONE,
	  FAIL_NO_MODULE, { "/dev/pw not found", "modprobe ptwalk", NULL } },
	/* 11: both missing, libkmod cannot tell */
	{ "/d", "/dev/pw", ENOENT, ENOENT, MODULE_STATE_UNKNOWN, LOCKDOWN_NONE,
	  FAIL_NO_MODULE, { "neither /d/ptwalk nor /dev/pw found",
			    "mount debugfs at /d", NULL } },
	/* 12: an odd error of the device is said as it is */
	{ "/d", "/dev/pw", ENOENT, EIO, MODULE_LOADED, LOCKDOWN_NONE,
	  FAIL_INTERNAL, { "cannot open /dev/pw", "Input/output error", NULL } },
	/* 13: ... and of debugfs, when the device is missing */
	{ "/d", "/dev/pw", EMFILE, ENOENT, MODULE_LOADED, LOCKDOWN_NONE,
	  FAIL_INTERNAL, { "cannot open /d/ptwalk", "Too many open files",
			   NULL } },
};

#define NR_ENDPOINT_CASES (sizeof(endpoint_cases) / sizeof(endpoint_cases[0]))

static void endpoint_errors_name_the_case(void **state)
{
	char msg[NR_ENDPOINT_CASES][512];
	size_t i, j, k;

	(void)state;
	for (i = 0; i < NR_ENDPOINT_CASES; i++) {
		struct open_failure f = {
			.debugfs = endpoint_cases[i].debugfs,
			.debugfs_err = endpoint_cases[i].debugfs_err,
			.device = endpoint_cases[i].device,
			.device_err = endpoint_cases[i].device_err,
			.module = endpoint_cases[i].module,
			.lockdown = endpoint_cases[i].lockdown,
		};

		if (diagnose_endpoint(&f, msg[i], sizeof(msg[i])) !=
		    endpoint_cases[i].want)
			fail_msg("case %zu: wrong kind: %s", i, msg[i]);
		for (k = 0; k < 3 && endpoint_cases[i].needle[k]; k++)
			if (!strstr(msg[i], endpoint_cases[i].needle[k]))
				fail_msg("case %zu: no \"%s\" in: %s", i,
					 endpoint_cases[i].needle[k], msg[i]);
		assert_null(strchr(msg[i], '\n'));
		for (j = 0; j < i; j++)
			if (!strcmp(msg[i], msg[j]))
				fail_msg("cases %zu and %zu say the same: %s",
					 j, i, msg[i]);
	}
}

static void lockdown_modes(void **state)
{
	(void)state;
	assert_int_equal(lockdown_parse("[none] integrity confidentiality\n"),
			 LOCKDOWN_NONE);
	assert_int_equal(lockdown_parse("none [integrity] confidentiality\n"),
			 LOCKDOWN_INTEGRITY);
	assert_int_equal(lockdown_parse("none integrity [confidentiality]\n"),
			 LOCKDOWN_CONFIDENTIALITY);
	assert_int_equal(lockdown_parse("none integrity confidentiality\n"),
			 LOCKDOWN_UNKNOWN);
	assert_int_equal(lockdown_parse("[integ"), LOCKDOWN_UNKNOWN);
	assert_int_equal(lockdown_parse("[integrityx]"), LOCKDOWN_UNKNOWN);
	assert_int_equal(lockdown_parse(""), LOCKDOWN_UNKNOWN);
	assert_false(lockdown_active(LOCKDOWN_NONE));
	assert_false(lockdown_active(LOCKDOWN_UNKNOWN));
	assert_true(lockdown_active(LOCKDOWN_INTEGRITY));
	assert_true(lockdown_active(LOCKDOWN_CONFIDENTIALITY));
	assert_string_equal(lockdown_name(LOCKDOWN_INTEGRITY), "integrity");
	assert_int_equal(lockdown_read("/nonexistent/lockdown"),
			 LOCKDOWN_UNKNOWN);
}

static void proc_and_scan_errors(void **state)
{
	char msg[256];

	(void)state;
	assert_int_equal(diagnose_proc_open(ENOENT, 7, "maps", msg,
					    sizeof(msg)), FAIL_NO_TARGET);
	assert_contains(msg, "no process 7");
	assert_int_equal(diagnose_proc_open(EACCES, 7, "pagemap", msg,
					    sizeof(msg)), FAIL_PRIVILEGE);
	assert_contains(msg, "/proc/7/pagemap",
			"root");
	assert_int_equal(diagnose_proc_open(EIO, 7, "maps", msg, sizeof(msg)),
			 FAIL_INTERNAL);
	/* Gone mid-scan: ESRCH, or any error once the process is gone. */
	assert_int_equal(diagnose_scan(ESRCH, 7, 1, msg, sizeof(msg)),
			 FAIL_EXITED);
	assert_contains(msg, "exited during the scan");
	assert_int_equal(diagnose_scan(EIO, 7, 0, msg, sizeof(msg)),
			 FAIL_EXITED);
	/* capabilities dropped mid-scan: asked on every read */
	assert_int_equal(diagnose_scan(EPERM, 7, 1, msg, sizeof(msg)),
			 FAIL_PRIVILEGE);
	assert_contains(msg, "every query and read");
	assert_int_equal(diagnose_scan(EPROTO, 7, 1, msg, sizeof(msg)),
			 FAIL_INTERNAL);
	assert_contains(msg, "bug");
	assert_int_equal(diagnose_scan(EIO, 7, 1, msg, sizeof(msg)),
			 FAIL_INTERNAL);
	assert_contains(msg, "Input/output error");
	assert_null(strchr(msg, '\n'));
}

static void query_errors_are_distinct(void **state)
{
	static const struct {
		int err;
		enum failure status;
		const char *needle;
	} cases[] = {
		{ ESRCH, FAIL_NO_TARGET, "no process 42" },
		{ ENXIO, FAIL_NO_MM, "kernel thread" },
		{ ERANGE, FAIL_USAGE, "--range" },
		{ EPERM, FAIL_PRIVILEGE, "CAP_SYS_ADMIN" },
		/* asked on every query: capabilities dropped after open */
		{ EPERM, FAIL_PRIVILEGE, "every query and read" },
		{ EACCES, FAIL_PRIVILEGE, "run as root" },
		/* a module of another build refuses the query's fields */
		{ EINVAL, FAIL_INTERNAL, "different builds" },
		{ ENOMEM, FAIL_INTERNAL, "failed" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char msg[256];

		assert_int_equal(diagnose_query(cases[i].err, 42, msg,
						sizeof(msg)), cases[i].status);
		assert_contains(msg, cases[i].needle);
		assert_null(strchr(msg, '\n'));
	}
}

/*
 * The device view's refusals (ABI version 2): each its own status and a
 * message naming what to do.
 */
static void iommu_policy_errors(void **state)
{
	static const struct {
		int err;
		const char *type;
		enum failure status;
		const char *needles[3];
	} cases[] = {
		{ EBUSY, "DMA-FQ", FAIL_DMA_API, { "DMA-FQ", "--dma-api", "0000:00:03.0" } },
		{ EBUSY, "", FAIL_DMA_API, { "DMA or DMA-FQ", "--dma-api", NULL } },
		{ EACCES, "DMA", FAIL_LOCKDOWN, { "confidentiality", "paging", "no live domain" } },
		{ EAGAIN, "DMA", FAIL_LIVE_DOMAIN, { "owner running", "--live-domain", "unmanaged" } },
		{ EDOM, "unmanaged", FAIL_DOMAIN, { "smaller than the kernel's page", NULL, NULL } },
		{ ENODEV, "", FAIL_NO_DEVICE, { "no PCI device", NULL, NULL } },
		{ EPERM, "", FAIL_PRIVILEGE, { "CAP_SYS_PTRACE", "every query", NULL } },
		{ EADDRNOTAVAIL, "", FAIL_DMA_OFFSET, { "0000:00:03.0", "no driver bound", "bind its driver" } },
		{ ENOTTY, "", FAIL_INTERNAL, { "no device view", "CONFIG_IOMMU_API", NULL } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char msg[512];

		assert_int_equal(diagnose_iommu(cases[i].err, "0000:00:03.0",
						cases[i].type, 0, 0x1000, msg,
						sizeof(msg)),
				 cases[i].status);
		for (int k = 0; k < 3 && cases[i].needles[k]; k++)
			assert_contains(msg, cases[i].needles[k]);
		assert_null(strchr(msg, '\n'));
	}
	assert_int_equal(EXIT_DMA_API, 14);
	assert_int_equal(EXIT_LIVE_DOMAIN, 18);
	assert_int_equal(EXIT_DMA_OFFSET, 19);
}

/*
 * Owners that cannot be stopped: exit 18, one line naming the owner (or
 * the kernel driver) and --live-domain.
 */
static void owner_refusals(void **state)
{
	static const struct {
		enum owner_refusal why;
		const char *driver;
		enum failure status;
		const char *needles[3];
	} cases[] = {
		{ OWNER_NONE_FOUND, "vhost_vdpa", FAIL_LIVE_DOMAIN,
		  { "kernel driver vhost_vdpa", "cannot be stopped", "--live-domain" } },
		{ OWNER_NONE_FOUND, "vfio-pci", FAIL_LIVE_DOMAIN,
		  { "no owner process in sight", "vfio-pci", "--live-domain" } },
		{ OWNER_NO_PERMISSION, "vfio-pci", FAIL_LIVE_DOMAIN,
		  { "pid 4242 (qemu-system-x86)", "EPERM", "--live-domain" } },
		{ OWNER_EXITED, "vfio-pci", FAIL_LIVE_DOMAIN,
		  { "pid 4242 (qemu-system-x86)", "exited", "--live-domain" } },
		{ OWNER_TRACED, "vfio-pci", FAIL_LIVE_DOMAIN,
		  { "traced by pid 77", "pid 4242", "--live-domain" } },
		{ OWNER_TIMEOUT, "vfio-pci", FAIL_LIVE_DOMAIN,
		  { "did not stop within 1000 ms", "thread 4243 in state D", "--live-domain" } },
		{ OWNER_TOO_MANY, "vfio-pci", FAIL_LIVE_DOMAIN,
		  { "over 64 processes", "--live-domain", NULL } },
		{ OWNER_SYSTEM, "vfio-pci", FAIL_INTERNAL,
		  { "cannot stop the owners", "Cannot allocate memory", NULL } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct domain_owners ow = {
			.n = 1, .why = cases[i].why, .tracer = 77,
			.thread = 4243, .thread_state = 'D', .err = ENOMEM,
		};
		char msg[512];

		ow.o[0].pid = 4242;
		snprintf(ow.o[0].comm, sizeof(ow.o[0].comm), "qemu-system-x86");
		assert_int_equal(diagnose_owner("0000:00:03.0", cases[i].driver,
						&ow, msg, sizeof(msg)),
				 cases[i].status);
		assert_contains(msg, "0000:00:03.0");
		for (int k = 0; k < 3 && cases[i].needles[k]; k++)
			assert_contains(msg, cases[i].needles[k]);
		assert_null(strchr(msg, '\n'));
	}
}

/*
 * --dma-track's refusals: a kernel before 6.12 its own status (20) naming
 * the release; each other its status and what to do.
 */
static void dma_track_errors(void **state)
{
	static const struct {
		int err;
		bool off;
		enum failure status;
		const char *needles[2];
	} cases[] = {
		{ EOPNOTSUPP, false, FAIL_DMA_TRACK_UNSUPPORTED, { "Linux 6.12", "--dma-api" } },
		{ ENOTTY, false, FAIL_INTERNAL, { "ptwalk.ko", NULL } },
		{ ENODEV, false, FAIL_NO_DEVICE, { "no PCI device", NULL } },
		{ ENOENT, true, FAIL_USAGE, { "not tracked", NULL } },
		{ ENOSPC, false, FAIL_USAGE, { "--off", NULL } },
		{ EACCES, false, FAIL_LOCKDOWN, { "confidentiality", NULL } },
		/* another session's hold, or the module parameter's */
		{ EBUSY, true, FAIL_USAGE, { "another open ptwalk session", "dma_track" } },
		/* capabilities asked on every ioctl, DMA ones too */
		{ EPERM, false, FAIL_PRIVILEGE, { "CAP_SYS_ADMIN", "every query" } },
		{ ENOMEM, false, FAIL_INTERNAL, { "0000:00:03.0", NULL } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char msg[512];

		assert_int_equal(diagnose_dma_track(cases[i].err, "0000:00:03.0",
						    cases[i].off, msg,
						    sizeof(msg)),
				 cases[i].status);
		for (int k = 0; k < 2 && cases[i].needles[k]; k++)
			assert_contains(msg, cases[i].needles[k]);
		assert_null(strchr(msg, '\n'));
	}
	assert_int_equal(EXIT_DMA_TRACK_UNSUPPORTED, 20);
}

/* ENODEV during the reads: the device went away, exit 10, not "no such". */
static void iommu_device_gone_mid_query(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(diagnose_iommu_read(ENODEV, "0000:00:03.0", "", 0,
					     0x1000, msg, sizeof(msg)),
			 FAIL_NO_DEVICE);
	assert_int_equal(FAIL_NO_DEVICE, 10);
	assert_contains(msg, "went away during the query");
	assert_int_equal(diagnose_iommu_read(EBUSY, "0000:00:03.0", "DMA", 0,
					     0x1000, msg, sizeof(msg)),
			 FAIL_DMA_API);
}

/*
 * --iommu --watch's refusals, in the order they are checked: no group,
 * not VFIO's driver, no recorder; each its own status, one line.
 */
static void iommu_watch_errors(void **state)
{
	const uint64_t rec = PTWALK_FEAT_IOMMU_EVENTS;
	char msg[512];

	(void)state;
	assert_int_equal(diagnose_iommu_watch("0000:00:03.0", true, "vfio-pci",
					      rec, msg, sizeof(msg)), EXIT_OK);
	assert_int_equal(diagnose_iommu_watch("0000:00:03.0", false, "vfio-pci",
					      0, msg, sizeof(msg)),
			 FAIL_NO_GROUP);
	assert_non_null(strstr(msg, "no IOMMU group"));
	assert_int_equal(diagnose_iommu_watch("0000:00:03.0", true, "e1000e",
					      rec, msg, sizeof(msg)),
			 FAIL_NOT_VFIO);
	assert_non_null(strstr(msg, "bound to e1000e"));
	assert_non_null(strstr(msg, "vfio-pci"));
	assert_int_equal(diagnose_iommu_watch("0000:00:03.0", true, "", rec,
					      msg, sizeof(msg)), FAIL_NOT_VFIO);
	assert_non_null(strstr(msg, "bound to no driver"));
	assert_int_equal(diagnose_iommu_watch("0000:00:03.0", true, "vfio-pci",
					      rec ^ ~0ULL, msg, sizeof(msg)),
			 FAIL_NO_RECORDER);
	assert_non_null(strstr(msg, "iommu_events=0"));
	assert_null(strchr(msg, '\n'));
	assert_int_equal(EXIT_NO_RECORDER, 15);
	assert_int_equal(EXIT_NOT_VFIO, 16);
}

/*
 * A version 1 or 2 module (no ioctl of this type) or another version:
 * exit 3, one line.
 */
static void abi_mismatch(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(diagnose_abi(ENOTTY, 0, msg, sizeof(msg)),
			 FAIL_NO_MODULE);
	assert_contains(msg, "ABI version 1 or 2, this ptcompare version 3",
			"dkms");
	assert_null(strchr(msg, '\n'));
	assert_int_equal(diagnose_abi(0, 4, msg, sizeof(msg)), FAIL_NO_MODULE);
	assert_contains(msg, "version 4, newer");
	assert_int_equal(diagnose_abi(EIO, 0, msg, sizeof(msg)), FAIL_NO_MODULE);
	assert_contains(msg, "cannot ask");
}

UNIT_MAIN("diagnose", UT(open_errors), UT(endpoint_errors_name_the_case),
	  UT(lockdown_modes), UT(query_errors_are_distinct), UT(proc_and_scan_errors),
	  UT(iommu_policy_errors), UT(owner_refusals), UT(iommu_device_gone_mid_query), UT(abi_mismatch),
	  UT(iommu_watch_errors), UT(dma_track_errors))
