// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "module/ptwalk_abi.h"
#include "report/diagnose.h"

/* The node or file is not there (or no driver answers behind it). */
static bool gone(int err)
{
	return err == ENOENT || err == ENODEV || err == ENXIO;
}

/* A way in that exists and refuses the caller: EACCES or EPERM. */
static enum failure refused(const char *what, int err, char *msg, size_t size)
{
	if (err == EACCES)
		snprintf(msg, size,
			 "permission denied on %s: run as root (CAP_SYS_ADMIN and CAP_SYS_PTRACE in the initial namespace are required)",
			 what);
	else
		snprintf(msg, size,
			 "operation not permitted on %s: run as root with CAP_SYS_ADMIN and CAP_SYS_PTRACE in the initial namespace",
			 what);
	return FAIL_PRIVILEGE;
}

/* debugfs refused with EPERM (the device is missing or was not tried). */
static enum failure debugfs_eperm(const struct open_failure *f, char *msg,
				  size_t size)
{
	const char *mode = lockdown_name(f->lockdown);

	if (!lockdown_active(f->lockdown)) {
		/* debugfs under lockdown refuses even root this way */
		snprintf(msg, size,
			 "operation not permitted on %s/ptwalk: run as root with CAP_SYS_ADMIN and CAP_SYS_PTRACE in the initial namespace; if you are, kernel lockdown (%s) forbids debugfs",
			 f->debugfs, LOCKDOWN_FILE);
		return FAIL_PRIVILEGE;
	}
	if (!f->device)
		snprintf(msg, size,
			 "kernel lockdown (%s, see %s) refuses ptwalk's debugfs files: use /dev/ptwalk instead (drop --debugfs)",
			 mode, LOCKDOWN_FILE);
	else
		snprintf(msg, size,
			 "kernel lockdown (%s, see %s) refuses ptwalk's debugfs files and %s is missing: load the ptwalk.ko of this release (older ones have no device), or check udev/devtmpfs",
			 mode, LOCKDOWN_FILE, f->device);
	return FAIL_LOCKDOWN;
}

/* Nothing there: which of module, debugfs mount and device is missing. */
static enum failure nothing_there(const struct open_failure *f, char *msg,
				  size_t size)
{
	const char *dbg = f->debugfs, *dev = f->device;

	if (f->module == MODULE_NOT_LOADED && lockdown_active(f->lockdown)) {
		snprintf(msg, size,
			 "ptwalk is not loaded: run 'modprobe ptwalk' (or 'insmod ptwalk.ko') as root; under kernel lockdown (%s) the module must be signed with a key the kernel trusts (DKMS signs it with its MOK)",
			 lockdown_name(f->lockdown));
	} else if (f->module == MODULE_NOT_LOADED) {
		snprintf(msg, size,
			 "ptwalk is not loaded: run 'insmod ptwalk.ko' (or 'modprobe ptwalk') as root");
	} else if (f->module == MODULE_LOADED && dbg && dev) {
		snprintf(msg, size,
			 "ptwalk is loaded but neither %s/ptwalk nor %s exists: mount debugfs with 'mount -t debugfs none %s', or load the ptwalk.ko of this release, which creates %s",
			 dbg, dev, dbg, dev);
	} else if (f->module == MODULE_LOADED && dbg) {
		snprintf(msg, size,
			 "ptwalk is loaded but %s/ptwalk is missing: mount debugfs with 'mount -t debugfs none %s'",
			 dbg, dbg);
	} else if (f->module == MODULE_LOADED) {
		snprintf(msg, size,
			 "ptwalk is loaded but %s does not exist: load the ptwalk.ko of this release (older ones have no device), or check udev/devtmpfs",
			 dev);
	} else if (dbg && dev) {
		snprintf(msg, size,
			 "neither %s/ptwalk nor %s found: load ptwalk.ko (modprobe ptwalk), and mount debugfs at %s",
			 dbg, dev, dbg);
	} else if (dbg) {
		snprintf(msg, size,
			 "%s/ptwalk not found: load ptwalk.ko and mount debugfs at %s",
			 dbg, dbg);
	} else {
		snprintf(msg, size, "%s not found: load ptwalk.ko (modprobe ptwalk)",
			 dev);
	}
	return FAIL_NO_MODULE;
}

enum failure diagnose_endpoint(const struct open_failure *f, char *msg,
			       size_t size)
{
	bool dev_gone = !f->device || gone(f->device_err);
	bool dbg_gone = !f->debugfs || gone(f->debugfs_err);
	char what[4200];

	/* The device is the way in that works everywhere: its word first. */
	if (f->device && (f->device_err == EACCES || f->device_err == EPERM))
		return refused(f->device, f->device_err, msg, size);
	if (f->debugfs && dev_gone && f->debugfs_err == EPERM)
		return debugfs_eperm(f, msg, size);
	if (f->debugfs && dev_gone && f->debugfs_err == EACCES) {
		snprintf(what, sizeof(what), "%s/ptwalk", f->debugfs);
		return refused(what, EACCES, msg, size);
	}
	if (dev_gone && dbg_gone)
		return nothing_there(f, msg, size);
	if (f->device && !dev_gone)
		snprintf(msg, size, "cannot open %s: %s", f->device,
			 strerror(f->device_err));
	else
		snprintf(msg, size, "cannot open %s/ptwalk: %s", f->debugfs,
			 strerror(f->debugfs_err));
	return FAIL_INTERNAL;
}

/*
 * EPERM from a query or a read of an open file: ptwalk asks the caller's
 * capabilities on each, not only the opener's at open.
 */
static enum failure query_refused(char *msg, size_t size)
{
	snprintf(msg, size,
		 "ptwalk refused the query: this process lacks CAP_SYS_ADMIN or CAP_SYS_PTRACE in the initial user namespace now; ptwalk checks them on every query and read, not only at open (were they dropped after opening?): run as root with both");
	return FAIL_PRIVILEGE;
}

enum failure diagnose_query(int err, pid_t pid, char *msg, size_t size)
{
	switch (err) {
	case ESRCH:
		snprintf(msg, size, "no process %d: check the PID", (int)pid);
		return FAIL_NO_TARGET;
	case ENXIO:
		snprintf(msg, size,
			 "process %d has no user memory (a kernel thread or a zombie): pick a user process",
			 (int)pid);
		return FAIL_NO_MM;
	case ERANGE:
		snprintf(msg, size,
			 "range outside the user address space of process %d: check --range",
			 (int)pid);
		return FAIL_USAGE;
	case EPERM:
		return query_refused(msg, size);
	case EACCES:
		snprintf(msg, size,
			 "ptwalk refused the query: run as root with CAP_SYS_ADMIN and CAP_SYS_PTRACE");
		return FAIL_PRIVILEGE;
	case EINVAL:
		snprintf(msg, size,
			 "ptwalk.ko refused the query as malformed: a ptcompare and ptwalk.ko of different builds? load this release's module ('rmmod ptwalk; insmod ptwalk.ko')");
		return FAIL_INTERNAL;
	default:
		snprintf(msg, size, "ptwalk query about process %d failed: %s",
			 (int)pid, strerror(err));
		return FAIL_INTERNAL;
	}
}

enum failure diagnose_proc_open(int err, pid_t pid, const char *file,
				char *msg, size_t size)
{
	switch (err) {
	case ENOENT:
	case ESRCH:
		snprintf(msg, size, "no process %d: check the PID", (int)pid);
		return FAIL_NO_TARGET;
	case EACCES:
	case EPERM:
		snprintf(msg, size,
			 "cannot read /proc/%d/%s: permission denied: run as root",
			 (int)pid, file);
		return FAIL_PRIVILEGE;
	default:
		snprintf(msg, size, "cannot read /proc/%d/%s: %s", (int)pid,
			 file, strerror(err));
		return FAIL_INTERNAL;
	}
}

enum failure diagnose_scan(int err, pid_t pid, int alive, char *msg,
			   size_t size)
{
	if (err == ESRCH || err == ENXIO || !alive) {
		snprintf(msg, size,
			 "process %d exited during the scan: no report; run ptcompare again on a live process",
			 (int)pid);
		return FAIL_EXITED;
	}
	if (err == EPERM)
		return query_refused(msg, size);
	if (err == EPROTO) {
		snprintf(msg, size,
			 "ptwalk's records for process %d do not cover the range page by page: a ptwalk.ko bug, please report it",
			 (int)pid);
		return FAIL_INTERNAL;
	}
	if (err == EINTR) {
		snprintf(msg, size, "scan of process %d interrupted", (int)pid);
		return FAIL_INTERNAL;
	}
	snprintf(msg, size, "scan of process %d failed: %s", (int)pid,
		 strerror(err));
	return FAIL_INTERNAL;
}

enum failure vtop_diagnose(int err, pid_t pid, uint64_t addr, char *msg,
			   size_t size)
{
	switch (err) {
	case EOPNOTSUPP:
		snprintf(msg, size,
			 "the loaded ptwalk.ko answers no vtop query: load this release's module ('rmmod ptwalk; insmod ptwalk.ko')");
		return FAIL_INTERNAL;
	case ERANGE:
		snprintf(msg, size,
			 "address 0x%" PRIx64 " is outside the user address space of process %d (at or above its task size): give a user address",
			 addr, (int)pid);
		return FAIL_USAGE;
	default:
		return diagnose_query(err, pid, msg, size);
	}
}

enum failure diagnose_dma_track(int err, const char *device, bool off,
				char *msg, size_t size)
{
	switch (err) {
	case EOPNOTSUPP:
		snprintf(msg, size,
			 "this kernel has no DMA API tracepoints: tracking a driver's DMA mappings needs Linux 6.12 or later (--iommu %s --dma-api still reads the device's domain)",
			 device);
		return FAIL_DMA_TRACK_UNSUPPORTED;
	case ENOTTY:
		snprintf(msg, size,
			 "ptwalk.ko does not track DMA mappings: load the ptwalk.ko of this ptcompare's version");
		return FAIL_INTERNAL;
	case ENODEV:
		snprintf(msg, size,
			 "no PCI device %s: see /sys/bus/pci/devices (lspci -D)",
			 device);
		return FAIL_NO_DEVICE;
	case ENOENT:
		if (off)
			snprintf(msg, size,
				 "device %s is not tracked: nothing to stop",
				 device);
		else
			snprintf(msg, size,
				 "device %s is not tracked: start with ptcompare --dma-track %s, then map",
				 device, device);
		return FAIL_USAGE;
	case ENOSPC:
		snprintf(msg, size,
			 "ptwalk.ko tracks as many devices as it can (%d): stop one first (ptcompare --dma-track DEVICE --off)",
			 PTWALK_DMA_MAX_DEVICES);
		return FAIL_USAGE;
	case EBUSY:
		snprintf(msg, size,
			 "device %s is kept tracked by another open ptwalk session or by ptwalk.ko's dma_track parameter: it stays tracked until they let go",
			 device);
		return FAIL_USAGE;
	case EPERM:
		snprintf(msg, size,
			 "ptwalk.ko asks for CAP_SYS_ADMIN and CAP_SYS_PTRACE on every query, DMA tracking too: run as root");
		return FAIL_PRIVILEGE;
	case EACCES:
		snprintf(msg, size,
			 "kernel lockdown (confidentiality) refuses tracking %s's DMA mappings: they are the kernel's own buffers",
			 device);
		return FAIL_LOCKDOWN;
	default:
		snprintf(msg, size, "%s tracking of %s failed: %s",
			 off ? "stopping the" : "the", device, strerror(err));
		return FAIL_INTERNAL;
	}
}

enum failure diagnose_iommu(int err, const char *device,
			    const char *domain_type, uint64_t start,
			    uint64_t end, char *msg, size_t size)
{
	const char *type = *domain_type ? domain_type : "DMA or DMA-FQ";

	switch (err) {
	case EBUSY:
		snprintf(msg, size,
			 "device %s is attached to a DMA-API domain (%s): the kernel maps and unmaps its page tables at any moment and may free one under the read; pass --dma-api to read it anyway (ptcompare(1), SECURITY)",
			 device, type);
		return FAIL_DMA_API;
	case EACCES:
		snprintf(msg, size,
			 "kernel lockdown (confidentiality) refuses the device view of %s's paging IOMMU domain: under lockdown no live domain is read, its tables map the kernel's buffers or may be freed under the read",
			 device);
		return FAIL_LOCKDOWN;
	case EAGAIN:
		snprintf(msg, size,
			 "device %s's unmanaged IOMMU domain was not read (owner running): its owner may unmap and free a page table under the read; stop the owner, or pass --live-domain to read it anyway (ptcompare(1), SECURITY)",
			 device);
		return FAIL_LIVE_DOMAIN;
	case EDOM:
		snprintf(msg, size,
			 "the IOMMU domain of %s maps pages smaller than the kernel's page: ptwalk answers in kernel pages and will not merge IOMMU pages; not supported",
			 device);
		return FAIL_DOMAIN;
	case ENODEV:
		snprintf(msg, size,
			 "no PCI device %s: see /sys/bus/pci/devices (lspci -D)",
			 device);
		return FAIL_NO_DEVICE;
	case ENOENT:
		snprintf(msg, size,
			 "device %s has an IOMMU group but no domain attached: its domain type cannot be read",
			 device);
		return FAIL_DOMAIN;
	case EOPNOTSUPP:
		snprintf(msg, size,
			 "device %s is attached to an IOMMU domain that cannot be asked (SVA, nested or platform): not supported",
			 device);
		return FAIL_DOMAIN;
	case ENOTTY:
		snprintf(msg, size,
			 "the loaded ptwalk.ko has no device view: its kernel was built without the IOMMU API (CONFIG_IOMMU_API), so no device of it is behind an IOMMU");
		return FAIL_INTERNAL;
	case ERANGE:
		snprintf(msg, size,
			 "device addresses 0x%" PRIx64 "-0x%" PRIx64 " are outside the aperture of %s's IOMMU domain: give --iova inside it",
			 start, end, device);
		return FAIL_APERTURE;
	case EPERM:
		return query_refused(msg, size);
	case EADDRNOTAVAIL:
		snprintf(msg, size,
			 "device %s has no IOMMU and no driver bound, and the firmware describes DMA ranges above it (dma-ranges, _DMA): the kernel knows its DMA offset only while a driver is bound; bind its driver and ask again",
			 device);
		return FAIL_DMA_OFFSET;
	default:
		snprintf(msg, size, "device view of %s failed: %s", device,
			 strerror(err));
		return FAIL_INTERNAL;
	}
}

enum failure diagnose_iommu_read(int err, const char *device,
				 const char *domain_type, uint64_t start,
				 uint64_t end, char *msg, size_t size)
{
	if (err != ENODEV)
		return diagnose_iommu(err, device, domain_type, start, end,
				      msg, size);
	snprintf(msg, size,
		 "device %s went away during the query (removed, left its IOMMU group, or its driver was unbound): no report; run again once it is back",
		 device);
	return FAIL_NO_DEVICE;
}

/* "pid N (comm)" of owner i of ow. */
static const char *owner_name(const struct domain_owners *ow, char *buf,
			      size_t size)
{
	const struct domain_owner *o = &ow->o[ow->culprit];

	snprintf(buf, size, "pid %d (%s)", (int)o->pid,
		 *o->comm ? o->comm : "?");
	return buf;
}

enum failure diagnose_owner(const char *device, const char *driver,
			    const struct domain_owners *ow, char *msg,
			    size_t size)
{
	static const char opt_in[] =
		"pass --live-domain to read it anyway (ptcompare(1), SECURITY)";
	char who[96];

	switch (ow->why) {
	case OWNER_NONE_FOUND:
		if (*driver && strncmp(driver, "vfio", 4))
			snprintf(msg, size,
				 "device %s's unmanaged IOMMU domain is owned by the kernel driver %s, which cannot be stopped: not read (owner running); %s",
				 device, driver, opt_in);
		else
			snprintf(msg, size,
				 "device %s's unmanaged IOMMU domain (driver %s) has no owner process in sight (another pid namespace, or its VFIO files passed on): not read (owner running); %s",
				 device, *driver ? driver : "none", opt_in);
		return FAIL_LIVE_DOMAIN;
	case OWNER_NO_PERMISSION:
		snprintf(msg, size,
			 "the owner of device %s's IOMMU domain, %s, may not be stopped by this user (EPERM): not read (owner running); run as its user or root, or %s",
			 device, owner_name(ow, who, sizeof(who)), opt_in);
		return FAIL_LIVE_DOMAIN;
	case OWNER_EXITED:
		snprintf(msg, size,
			 "the owner of device %s's IOMMU domain, %s, exited while being stopped: not read; run again, or %s",
			 device, owner_name(ow, who, sizeof(who)), opt_in);
		return FAIL_LIVE_DOMAIN;
	case OWNER_TRACED:
		snprintf(msg, size,
			 "the owner of device %s's IOMMU domain, %s, is traced by pid %d and running: ptcompare leaves it to its tracer; stop it there, or %s",
			 device, owner_name(ow, who, sizeof(who)),
			 (int)ow->tracer, opt_in);
		return FAIL_LIVE_DOMAIN;
	case OWNER_TIMEOUT:
		snprintf(msg, size,
			 "the owner of device %s's IOMMU domain, %s, did not stop within %u ms (thread %d in state %c): not read (owner running); %s",
			 device, owner_name(ow, who, sizeof(who)),
			 OWNER_STOP_TIMEOUT_MS, (int)ow->thread,
			 ow->thread_state ? ow->thread_state : '?', opt_in);
		return FAIL_LIVE_DOMAIN;
	case OWNER_TOO_MANY:
		snprintf(msg, size,
			 "over %d processes hold device %s's VFIO or iommufd files: ptcompare stops no more than that; not read (owner running); %s",
			 DOMAIN_OWNERS_MAX, device, opt_in);
		return FAIL_LIVE_DOMAIN;
	case OWNER_SYSTEM:
	default:
		snprintf(msg, size,
			 "cannot stop the owners of device %s's IOMMU domain: %s",
			 device, strerror(ow->err ? ow->err : EIO));
		return FAIL_INTERNAL;
	}
}

int diagnose_iommu_watch(const char *device, bool has_group,
			 const char *driver, uint64_t features, char *msg,
			 size_t size)
{
	if (!has_group) {
		snprintf(msg, size,
			 "device %s has no IOMMU group: its DMA addresses are physical, so there are no IOMMU mappings of it to watch",
			 device);
		return FAIL_NO_GROUP;
	}
	if (strncmp(driver, "vfio", 4)) {
		snprintf(msg, size,
			 "device %s is %s%s, not driven through VFIO: the IOMMU core's map and unmap events name no device, and ptcompare ties them to one by the process holding its VFIO file (bind it to vfio-pci)",
			 device, *driver ? "bound to " : "bound to no driver",
			 driver);
		return FAIL_NOT_VFIO;
	}
	if (!(features & PTWALK_FEAT_IOMMU_EVENTS)) {
		snprintf(msg, size,
			 "the loaded ptwalk.ko records no IOMMU events: it was loaded with iommu_events=0, or its kernel has no IOMMU tracepoints; reload it without iommu_events=0 ('rmmod ptwalk; insmod ptwalk.ko')");
		return FAIL_NO_RECORDER;
	}
	return EXIT_OK;
}

enum failure diagnose_abi(int err, unsigned int version, char *msg,
			  size_t size)
{
	/* versions 1 and 2 know no ioctl of this one's (another type) */
	if (err == ENOTTY)
		snprintf(msg, size,
			 "the loaded ptwalk.ko speaks ABI version 1 or 2, this ptcompare version %d (an older module, perhaps an old DKMS install): load this release's module ('rmmod ptwalk; insmod ptwalk.ko', or 'dkms install ptwalk/VERSION')",
			 PTWALK_ABI_VERSION);
	else if (!err && version < PTWALK_ABI_VERSION)
		snprintf(msg, size,
			 "the loaded ptwalk.ko speaks ABI version %u, this ptcompare version %d (an older module, perhaps an old DKMS install): load this release's module ('rmmod ptwalk; insmod ptwalk.ko', or 'dkms install ptwalk/VERSION')",
			 version, PTWALK_ABI_VERSION);
	else if (!err)
		snprintf(msg, size,
			 "the loaded ptwalk.ko speaks ABI version %u, newer than this ptcompare's %d: install the ptcompare of the module's release",
			 version, PTWALK_ABI_VERSION);
	else
		snprintf(msg, size, "cannot ask ptwalk.ko its ABI version: %s",
			 strerror(err));
	return FAIL_NO_MODULE;
}

int diagnose_output(int json_err, FILE *f, char *msg, size_t size)
{
	if (json_err) {
		snprintf(msg, size, "internal error writing the JSON: %s",
			 strerror(-json_err));
		return FAIL_INTERNAL;
	}
	if (fflush(f)) {
		snprintf(msg, size, "cannot write the output: %s",
			 strerror(errno));
		return FAIL_INTERNAL;
	}
	return EXIT_OK;
}
