// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "report/diagnose.h"

enum failure diagnose_open(int err, enum module_state state,
			   const char *debugfs, char *msg, size_t size)
{
	switch (err) {
	case ENOENT:
		if (state == MODULE_NOT_LOADED) {
			snprintf(msg, size,
				 "ptwalk is not loaded: run 'insmod ptwalk.ko' (or 'modprobe ptwalk') as root");
		} else if (state == MODULE_LOADED) {
			snprintf(msg, size,
				 "ptwalk is loaded but %s/ptwalk is missing: mount debugfs with 'mount -t debugfs none %s'",
				 debugfs, debugfs);
		} else {
			snprintf(msg, size,
				 "%s/ptwalk not found: load ptwalk.ko and mount debugfs at %s",
				 debugfs, debugfs);
		}
		return FAIL_NO_MODULE;
	case EACCES:
		snprintf(msg, size,
			 "permission denied on %s/ptwalk: run as root (CAP_SYS_ADMIN in the initial namespace is required)",
			 debugfs);
		return FAIL_PRIVILEGE;
	case EPERM:
		/* debugfs under kernel lockdown refuses even root this way */
		snprintf(msg, size,
			 "operation not permitted on %s/ptwalk: run as root with CAP_SYS_ADMIN in the initial namespace; if you are, kernel lockdown (/sys/kernel/security/lockdown) forbids debugfs",
			 debugfs);
		return FAIL_PRIVILEGE;
	default:
		snprintf(msg, size, "cannot open %s/ptwalk: %s", debugfs,
			 strerror(err));
		return FAIL_INTERNAL;
	}
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
	case EACCES:
		snprintf(msg, size,
			 "ptwalk refused the query: run as root with CAP_SYS_ADMIN");
		return FAIL_PRIVILEGE;
	case EPROTO:
		snprintf(msg, size,
			 "ptwalk.ko speaks another ABI version than this ptcompare: use the pair from the same build");
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
	case EINVAL:
		snprintf(msg, size,
			 "ptwalk.ko too old for vtop (it refused the request): rebuild and reload it ('rmmod ptwalk; insmod ptwalk.ko')");
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
