// SPDX-License-Identifier: GPL-2.0
/*
 * Under kernel lockdown (integrity), raised by the guest suite just
 * before (tests/vm/guest-lockdown.sh): debugfs refuses ptwalk's writable
 * files as fs/debugfs/file.c says (EPERM on open, whatever the open mode;
 * the read-only abi_version stays readable), and ptcompare finds its way
 * through /dev/ptwalk, or says why it cannot.  vmtest.c then runs walks
 * and ptcompare cases again ("lockdown_" cases) against the oracle.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ptcompare_run.h"
#include "vmtest.h"

#define LOCKDOWN "/sys/kernel/security/lockdown"
#define DBG PTWALK_DEFAULT_DEBUGFS "/" PTWALK_DEBUGFS_DIR "/"
#define HIDDEN PTWALK_DEFAULT_DEVICE ".hidden"

/* open(path, flags) must fail with EPERM. */
static bool refused(struct vmtest *t, const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return fail(t, "%s opened (flags 0%o) under lockdown", path,
			    flags);
	}
	return errno == EPERM ||
	       fail(t, "%s (flags 0%o): %s, expected EPERM", path, flags,
		    strerror(errno));
}

/* ptcompare ARGS...: exit status want, stderr's first line holds needle. */
static bool expect(struct vmtest *t, const char *const argv[], int want,
		   const char *needle, const char *needle2)
{
	struct pc_result r;
	bool ok;

	if (!pc_run(t, &r, argv))
		return false;
	ok = (r.status == want && strstr(r.err, needle) &&
	      (!needle2 || strstr(r.err, needle2))) ||
	     fail(t, "ptcompare %s %s: exit %d (want %d), said '%s'", argv[1],
		  argv[2] ? argv[2] : "", r.status, want, r.err);
	pc_free(&r);
	return ok;
}

/* One vtop of this process's stack through the device, into *v. */
static bool vtop_stack(struct vmtest *t, struct ptwalk_vtop *v)
{
	int fd = vm_open_query(t);
	int err;

	if (fd < 0)
		return false;
	err = ptwalk_query_vtop(fd, getpid(), A(v), v);
	close(fd);
	return !err || fail(t, "vtop: %s", strerror(-err));
}

/*
 * Integrity mode withholds nothing of vtop: the upper levels' raw
 * entries (physical addresses of page tables) are there.
 */
VMTEST_CASE(lockdown, "lockdown_vtop_entries", lockdown_vtop_entries)
{
	struct ptwalk_vtop v;

	if (!vtop_stack(t, &v))
		return false;
	return (v.stop == PTWALK_VTOP_STOP_LEAF &&
		v.entry[PTWALK_VTOP_PGD] && v.entry[PTWALK_VTOP_PTE]) ||
	       fail(t, "vtop under integrity: stop %u, pgd 0x%llx, pte 0x%llx",
		    v.stop, (unsigned long long)v.entry[PTWALK_VTOP_PGD],
		    (unsigned long long)v.entry[PTWALK_VTOP_PTE]);
}

VMTEST_CASE(lockdown, "lockdown_integrity", lockdown_integrity)
{
	char mode[128] = "";
	FILE *f = fopen(LOCKDOWN, "re");

	if (!f)
		return fail(t, "open %s: %s", LOCKDOWN, strerror(errno));
	if (!fgets(mode, sizeof(mode), f))
		mode[0] = '\0';
	fclose(f);
	return strstr(mode, "[integrity]") ||
	       fail(t, "lockdown is '%s', expected [integrity]", mode);
}

VMTEST_CASE(lockdown, "lockdown_debugfs_refused", debugfs_refused)
{
	char buf[16] = "";
	int fd;
	ssize_t n;

	if (!refused(t, DBG PTWALK_QUERY_FILE, O_RDWR) ||
	    !refused(t, DBG PTWALK_QUERY_FILE, O_RDONLY) ||
	    !refused(t, DBG PTWALK_TEXT_FILE, O_RDWR) ||
	    !refused(t, DBG PTWALK_TEXT_FILE, O_RDONLY))
		return false;
	/* mode 0400, no write, ioctl or mmap: debugfs lets it be read */
	fd = open(DBG PTWALK_ABI_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(t, "abi_version refused under lockdown: %s",
			    strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return (n > 0 && atoi(buf) == PTWALK_ABI_VERSION) ||
	       fail(t, "abi_version reads '%s'", buf);
}

VMTEST_CASE(lockdown, "lockdown_ptcompare_version", ptcompare_version)
{
	const char *argv[] = { "ptcompare", "--version", NULL };
	const char *want = "\ninterface: device " PTWALK_DEFAULT_DEVICE
			   " (debugfs: Operation not permitted; lockdown: integrity)\n";
	struct pc_result r;
	bool ok;

	if (!pc_run(t, &r, argv))
		return false;
	ok = (r.status == 0 && strstr(r.out, want)) ||
	     fail(t, "ptcompare --version: exit %d, said '%s'", r.status,
		  r.out);
	pc_free(&r);
	return ok;
}

/* --debugfs alone is taken at its word: lockdown is named, no fallback. */
VMTEST_CASE(lockdown, "lockdown_ptcompare_debugfs_given", ptcompare_debugfs_given)
{
	char pid[16];
	const char *scan[] = { "ptcompare", "--debugfs", PTWALK_DEFAULT_DEBUGFS,
			       pid, NULL };
	const char *vtop[] = { "ptcompare", "--debugfs", PTWALK_DEFAULT_DEBUGFS,
			       pid, "0x400000", NULL };

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return expect(t, scan, EXIT_LOCKDOWN, "kernel lockdown (integrity", "drop --debugfs") &&
	       expect(t, vtop, EXIT_LOCKDOWN, "kernel lockdown (integrity", "drop --debugfs");
}

/* Without the device node: lockdown and the missing device are named. */
VMTEST_CASE(lockdown, "lockdown_ptcompare_no_device", ptcompare_no_device)
{
	char pid[16];
	const char *scan[] = { "ptcompare", pid, NULL };
	const char *vtop[] = { "ptcompare", pid, "0x400000", NULL };
	bool ok;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (rename(PTWALK_DEFAULT_DEVICE, HIDDEN))
		return fail(t, "rename %s: %s", PTWALK_DEFAULT_DEVICE,
			    strerror(errno));
	ok = expect(t, scan, EXIT_LOCKDOWN, "kernel lockdown (integrity",
		    PTWALK_DEFAULT_DEVICE " is missing") &&
	     expect(t, vtop, EXIT_LOCKDOWN, "kernel lockdown (integrity",
		    PTWALK_DEFAULT_DEVICE " is missing");
	if (rename(HIDDEN, PTWALK_DEFAULT_DEVICE))
		return fail(t, "rename %s back: %s", HIDDEN, strerror(errno));
	return ok;
}

/*
 * Confidentiality mode (raised after the integrity cases): the raw
 * entries above the leaf, page-table addresses, are 0 while walked still
 * names the levels read; the leaf's entry is the one the fixture reads,
 * and its frame the oracle's.
 */
VMTEST_CASE(confidentiality, "confidentiality_vtop_redacted", confidentiality_vtop_redacted)
{
	struct ptwalk_fixture_translate o;
	struct ptwalk_fixture_pte pte;
	struct ptwalk_vtop v;
	int l;

	if (!vtop_stack(t, &v) || !oracle(t, A(&v), &o))
		return false;
	pte.addr = A(&v);
	if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PTE, &pte) || pte.err)
		return fail(t, "fixture PTE: %s", strerror(errno));
	if (v.stop != PTWALK_VTOP_STOP_LEAF || v.level != PTWALK_LEVEL_PTE ||
	    v.pfn != o.pfn || v.entry[PTWALK_VTOP_PTE] != pte.pte)
		return fail(t, "vtop under confidentiality: stop %u level %u pfn 0x%llx (oracle 0x%llx), pte 0x%llx (fixture 0x%llx)",
			    v.stop, v.level, (unsigned long long)v.pfn,
			    (unsigned long long)o.pfn,
			    (unsigned long long)v.entry[PTWALK_VTOP_PTE],
			    (unsigned long long)pte.pte);
	for (l = PTWALK_VTOP_PGD; l < PTWALK_VTOP_PTE; l++)
		if (v.entry[l])
			return fail(t, "vtop under confidentiality: level %d's entry 0x%llx shown",
				    l, (unsigned long long)v.entry[l]);
	return (v.walked & (1U << PTWALK_VTOP_PGD)) ||
	       fail(t, "vtop under confidentiality: walked 0x%x", v.walked);
}

/* Lines of /dev/kmsg from fd on (opened at its end) holding needle. */
static int kmsg_count(int fd, const char *needle)
{
	char rec[1024];
	int n = 0;
	ssize_t got;

	while ((got = read(fd, rec, sizeof(rec) - 1)) > 0 || (got < 0 && errno == EPIPE)) {
		if (got <= 0)
			continue;
		rec[got] = 0;
		n += strstr(rec, needle) != NULL;
	}
	return n;
}

#define KCORE_REFUSED	"vmtest: /proc/kcore access is restricted"
#define LOG_QUERIES	3

/*
 * Under confidentiality, ptwalk asks lockdown once per query, at its
 * start, and the kernel logs each refusal it answers: LOG_QUERIES vtop
 * queries, each read twice (a first read into an unwritable buffer fails
 * with EFAULT, the second answers, redacted), log LOG_QUERIES lines, not
 * one per read.  The kernel rate-limits those lines (10 per 5 s): the
 * case waits out the window the cases before it used.
 */
VMTEST_CASE(confidentiality, "confidentiality_one_log_line_per_query", confidentiality_one_log_line)
{
	struct ptwalk_vtop_query q = {
		.size = sizeof(q), .pid = getpid(),
	};
	struct ptwalk_vtop v;
	int kmsg, fd = -1, lines;
	bool ok = true;
	void *bad = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);

	if (bad == MAP_FAILED)
		return fail(t, "mmap: %s", strerror(errno));
	q.addr = A(&v);
	sleep(6);
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0)
		return fail(t, "/dev/kmsg: %s", strerror(errno));
	for (int i = 0; ok && i < LOG_QUERIES; i++) {
		fd = vm_open_query(t);
		if (fd < 0) {
			ok = false;
			break;
		}
		if (ioctl(fd, PTWALK_IOC_VTOP, &q))
			ok = fail(t, "vtop query: %s", strerror(errno));
		else if (read(fd, bad, sizeof(v)) >= 0 || errno != EFAULT)
			ok = fail(t, "read into a PROT_NONE page: not EFAULT (%s)",
				  strerror(errno));
		else if (read(fd, &v, sizeof(v)) != sizeof(v) ||
			 v.entry[PTWALK_VTOP_PGD])
			ok = fail(t, "the second read: %s, pgd entry 0x%llx",
				  strerror(errno),
				  (unsigned long long)v.entry[PTWALK_VTOP_PGD]);
		close(fd);
	}
	lines = ok ? kmsg_count(kmsg, KCORE_REFUSED) : 0;
	close(kmsg);
	munmap(bad, PAGE);
	if (ok && lines != LOG_QUERIES)
		ok = fail(t, "%d lines '%s' for %d queries of two reads each",
			  lines, KCORE_REFUSED, LOG_QUERIES);
	return ok;
}
