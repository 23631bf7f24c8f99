// SPDX-License-Identifier: GPL-2.0
/*
 * No page table is read while its owner can free it, unless the user asks
 * (issue 40).  The IOMMU lane's edu, bound to vfio-pci, is driven by an
 * owner process forked here: it opens its own VFIO container and, in a
 * loop, unmaps its IOVA range and maps it again to the other of two
 * buffers, one ioctl each, counting the rounds.  Its own record (the
 * frames of both buffers, from the fixture's get_user_pages(), and its
 * round counter) is the oracle: a read with the owner stopped sees the
 * whole range translated to one buffer, or none of it, never a mix, and
 * the owner goes on counting afterwards.
 *
 * The cases: ptcompare's default stops the owner and says for how long;
 * --live-domain stops nobody; a traced owner is not stopped (exit 18);
 * the module refuses an unmanaged domain without a flag (no kernel-owned
 * unmanaged domain exists in this VM: the ioctl proves the kernel's side,
 * and a ptcompare that sees no owner, from a pid namespace of its own,
 * the refusal naming the driver); SIGINT to ptcompare while the owner is
 * stopped continues it; and under confidentiality lockdown (the
 * iommu_lockdown lane, after the rest) no paging domain is read at all.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptcompare_run.h"
#include "vmtest.h"

#define EDU_ID		"1234:11e8"
#define OWNER_PAGES	16
#define OWNER_IOVA	0x10000000ULL
#define OWNER_LEN	((uint64_t)OWNER_PAGES * PAGE)

/* What the owner shares with the case: its record, the oracle. */
struct owner_shm {
	volatile uint64_t loops;	/* rounds done */
	volatile int ready;		/* 1 mapped and looping; -1 failed */
	volatile int quit;
	uint64_t va[2];			/* its two buffers */
	uint64_t frames[2][OWNER_PAGES];
	char why[200];
};

struct owner {
	pid_t pid;
	struct owner_shm *shm;
	char bdf[32];
};

/* edu's PCI address and IOMMU group, from sysfs. */
static bool edu_find(struct vmtest *t, char *bdf, size_t size, int *group)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *de;
	bool found = false;

	if (!d)
		return fail(t, "opendir /sys/bus/pci/devices: %s",
			    strerror(errno));
	while (!found && (de = readdir(d))) {
		char path[300], v[16] = "", dv[16] = "", link[256];
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor",
			 de->d_name);
		vm_read_text(path, v, sizeof(v));
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device",
			 de->d_name);
		vm_read_text(path, dv, sizeof(dv));
		if (strncmp(v, "0x1234", 6) || strncmp(dv, "0x11e8", 6) ||
		    strlen(de->d_name) >= size)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/iommu_group", de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		*group = atoi(strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
		memcpy(bdf, de->d_name, strlen(de->d_name) + 1);
		found = true;
	}
	closedir(d);
	return found || fail(t, "no edu (%s) with an IOMMU group", EDU_ID);
}

static void owner_fail(struct owner_shm *s, const char *what, int err)
{
	snprintf(s->why, sizeof(s->why), "owner: %s: %s", what, strerror(err));
	s->ready = -1;
	_exit(1);
}

/* The owner's life: its container, its buffers and record, the loop. */
static void owner_run(struct vmtest *t, struct owner_shm *s, int group_nr)
{
	int container, group, err;
	char *buf[2];

	err = vfio_container_open(group_nr, &container, &group);
	if (err)
		owner_fail(s, "VFIO container", -err);
	for (int b = 0; b < 2; b++) {
		buf[b] = mmap(NULL, OWNER_LEN, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (buf[b] == MAP_FAILED)
			owner_fail(s, "mmap", errno);
		mlock(buf[b], OWNER_LEN);
		s->va[b] = A(buf[b]);
		for (int i = 0; i < OWNER_PAGES; i++) {
			struct ptwalk_fixture_translate o;

			buf[b][(size_t)i * PAGE] = (char)(b + 1);
			if (!oracle(t, A(buf[b]) + (uint64_t)i * PAGE, &o) ||
			    o.status != PTWALK_FIXTURE_MAPPED)
				owner_fail(s, "fixture oracle", EIO);
			s->frames[b][i] = o.pfn;
		}
	}
	err = vfio_dma_map(container, buf[0], OWNER_IOVA, OWNER_LEN);
	if (err)
		owner_fail(s, "VFIO_IOMMU_MAP_DMA", -err);
	s->ready = 1;
	for (uint64_t n = 1; !s->quit; n++) {
		err = vfio_dma_unmap(container, OWNER_IOVA, OWNER_LEN);
		if (!err)
			err = vfio_dma_map(container, buf[n % 2], OWNER_IOVA,
					   OWNER_LEN);
		if (err)
			owner_fail(s, "remap", -err);
		s->loops = n;
	}
	_exit(0);
}

/* Forks the owner and waits until it loops. */
static bool owner_start(struct vmtest *t, struct owner *ow)
{
	int group;

	memset(ow, 0, sizeof(*ow));
	if (!edu_find(t, ow->bdf, sizeof(ow->bdf), &group))
		return false;
	ow->shm = mmap(NULL, sizeof(*ow->shm), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ow->shm == MAP_FAILED) {
		ow->shm = NULL;
		return fail(t, "mmap shared: %s", strerror(errno));
	}
	memset(ow->shm, 0, sizeof(*ow->shm));
	ow->pid = fork();
	if (ow->pid < 0)
		return fail(t, "fork: %s", strerror(errno));
	if (ow->pid == 0)
		owner_run(t, ow->shm, group);
	for (int i = 0; i < 500 && !ow->shm->ready; i++)
		usleep(10000);
	if (ow->shm->ready != 1)
		return fail(t, "the owner did not start: %s",
			    ow->shm->why[0] ? ow->shm->why : "in 5 s");
	return true;
}

/* Whether pid has ended (exited or killed), reaped; ptrace stops are not. */
static bool reaped(pid_t pid, int flags)
{
	int status;
	pid_t r;

	while ((r = waitpid(pid, &status, flags)) == pid)
		if (WIFEXITED(status) || WIFSIGNALED(status))
			return true;
	return r < 0 && errno == ECHILD;
}

static void owner_end(struct owner *ow)
{
	bool done = false;

	if (ow->pid > 0) {
		ow->shm->quit = 1;
		kill(ow->pid, SIGCONT);
		for (int i = 0; i < 300 && !done; i++) {
			done = reaped(ow->pid, WNOHANG);
			if (!done)
				usleep(10000);
		}
		if (!done) {
			kill(ow->pid, SIGKILL);
			reaped(ow->pid, 0);
		}
	}
	if (ow->shm)
		munmap(ow->shm, sizeof(*ow->shm));
	memset(ow, 0, sizeof(*ow));
}

/* The state letter of pid's /proc/PID/stat, '?' if unreadable. */
static char state_of(pid_t pid)
{
	char path[64], line[512] = "", *close;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!vm_read_text(path, line, sizeof(line)))
		return '?';
	close = strrchr(line, ')');
	return close && close[1] == ' ' ? close[2] : '?';
}

/* The owner runs: not stopped, and its round counter advances. */
static bool owner_runs(struct vmtest *t, const struct owner *ow,
		       const char *when)
{
	uint64_t before = ow->shm->loops;
	char s;

	/* continued by ptcompare, or by its guard once it is gone */
	for (int i = 0; i < 200 && ow->shm->loops == before; i++)
		usleep(10000);
	s = state_of(ow->pid);
	if (s == 'T' || s == 't')
		return fail(t, "%s: the owner %d is left stopped (state %c)",
			    when, (int)ow->pid, s);
	return ow->shm->loops > before ||
	       fail(t, "%s: the owner's rounds stay at %" PRIu64 " for 2 s",
		    when, before);
}

/* The device frame ptcompare's JSON gives the page at addr. */
static uint64_t device_pfn_at(struct json_object *dev, uint64_t addr,
			      bool *found)
{
	struct json_object *ranges = pc_get(dev, "ranges");
	size_t n = ranges ? json_object_array_length(ranges) : 0;

	*found = false;
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(ranges, i);
		uint64_t start, pages, pfn;

		if (!pc_hex(r, "start", &start) || !pc_get(r, "pages"))
			continue;
		pages = (uint64_t)json_object_get_int64(pc_get(r, "pages"));
		if (addr < start || addr >= start + pages * PAGE)
			continue;
		*found = true;
		pfn = pc_hex_or_none(r, "device_pfn");
		return pfn == NO_PFN ? NO_PFN : pfn + (addr - start) / PAGE;
	}
	return NO_PFN;
}

/*
 * The device view of the owner's IOVA range is one state of its loop:
 * every page translated to buffer 0's frame, or every page to buffer
 * 1's, or none at all.
 */
static bool view_consistent(struct vmtest *t, const struct owner *ow,
			    struct json_object *dev)
{
	int state = -2;		/* -1 none, 0 or 1 a buffer */

	for (int i = 0; i < OWNER_PAGES; i++) {
		bool found;
		uint64_t pfn = device_pfn_at(dev, ow->shm->va[0] +
					     (uint64_t)i * PAGE, &found);
		int s = pfn == NO_PFN ? -1 :
			pfn == ow->shm->frames[0][i] ? 0 :
			pfn == ow->shm->frames[1][i] ? 1 : 2;

		if (!found)
			return fail(t, "no device range holds page %d", i);
		if (s == 2)
			return fail(t, "page %d: device frame 0x%" PRIx64 " is neither buffer's (0x%" PRIx64 ", 0x%" PRIx64 ")",
				    i, pfn, ow->shm->frames[0][i],
				    ow->shm->frames[1][i]);
		if (state != -2 && s != state)
			return fail(t, "page %d is in state %d, page 0 in %d: a read mid-remap",
				    i, s, state);
		state = s;
	}
	return true;
}

/* ptcompare --json [flag] --iommu BDF --iova IOVA --range BUF0 OWNER. */
static bool owner_view(struct vmtest *t, const struct owner *ow,
		       const char *flag, bool json, struct pc_result *r)
{
	char range[64], pid[16], iova[32];
	const char *argv[10];
	int n = 0;

	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64,
		 ow->shm->va[0], ow->shm->va[0] + OWNER_LEN);
	snprintf(pid, sizeof(pid), "%d", (int)ow->pid);
	snprintf(iova, sizeof(iova), "0x%llx", OWNER_IOVA);
	argv[n++] = "ptcompare";
	if (json)
		argv[n++] = "--json";
	if (flag)
		argv[n++] = flag;
	argv[n++] = "--iommu";
	argv[n++] = ow->bdf;
	argv[n++] = "--iova";
	argv[n++] = iova;
	argv[n++] = "--range";
	argv[n++] = range;
	argv[n++] = pid;
	argv[n] = NULL;
	memset(r, 0, sizeof(*r));
	if (!pc_run(t, r, argv))
		return false;
	if (r->status != EXIT_OK && r->status != EXIT_MISMATCH)
		return fail(t, "ptcompare%s%s: exit %d: %s", flag ? " " : "",
			    flag ? flag : "", r->status, r->err);
	if (json) {
		r->doc = json_tokener_parse(r->out);
		if (!r->doc)
			return fail(t, "invalid JSON: %.200s", r->out);
	}
	return true;
}

/* The JSON's device.read and its owners: exactly want_pid, stopped by us. */
static bool read_says(struct vmtest *t, struct pc_result *r, const char *read,
		      pid_t want_pid)
{
	struct json_object *dev = pc_get(r->doc, "device");
	struct json_object *owners = pc_get(dev, "owners");
	const char *got = json_object_get_string(pc_get(dev, "read"));
	size_t n = owners ? json_object_array_length(owners) : 0;
	struct json_object *o;

	if (!got || strcmp(got, read))
		return fail(t, "device.read is %s, want %s", got ? got : "null",
			    read);
	if (!want_pid)
		return n == 0 || fail(t, "%zu owners listed on a %s read", n,
				      read);
	if (n != 1)
		return fail(t, "%zu owners listed, want the owner %d alone", n,
			    (int)want_pid);
	o = json_object_array_get_idx(owners, 0);
	if (json_object_get_int64(pc_get(o, "pid")) != want_pid ||
	    strcmp(json_object_get_string(pc_get(o, "by")) ?: "", "ptcompare") ||
	    json_object_get_int64(pc_get(o, "stopped_us")) <= 0)
		return fail(t, "owner listed as %s", json_object_to_json_string(o));
	return true;
}

/*
 * (a) The default: the owner stopped for each read, every read one state
 * of its loop, the owner running again after each, the report saying so.
 */
VMTEST_CASE(iommu, "iommu_owner_stopped", iommu_owner_stopped)
{
	struct pc_result r = { 0 };
	struct owner ow;
	char line[128];
	bool ok = owner_start(t, &ow);

	for (int i = 0; ok && i < 5; i++) {
		ok = owner_view(t, &ow, NULL, true, &r) &&
		     read_says(t, &r, "owner-stopped", ow.pid) &&
		     view_consistent(t, &ow, pc_get(r.doc, "device")) &&
		     owner_runs(t, &ow, "after the read");
		pc_free(&r);
	}
	/* the text report's line */
	ok = ok && owner_view(t, &ow, NULL, false, &r);
	snprintf(line, sizeof(line), "owner pid %d (", (int)ow.pid);
	if (ok && (!strstr(r.out, line) || !strstr(r.out, " stopped for ")))
		ok = fail(t, "no \"%s... stopped for\" line in the report: %.300s",
			  line, r.out);
	pc_free(&r);
	ok = ok && owner_runs(t, &ow, "after the text read");
	owner_end(&ow);
	return ok;
}

/* (b) --live-domain: read while the owner runs, nobody stopped. */
VMTEST_CASE(iommu, "iommu_owner_live_domain", iommu_owner_live_domain)
{
	struct pc_result r = { 0 };
	struct owner ow;
	bool ok = owner_start(t, &ow);

	ok = ok && owner_view(t, &ow, "--live-domain", true, &r) &&
	     read_says(t, &r, "live", 0);
	if (ok && !strstr(r.out, "\"owners\""))
		ok = fail(t, "no owners key");
	pc_free(&r);
	ok = ok && owner_view(t, &ow, "--live-domain", false, &r);
	if (ok && !strstr(r.out, "domain read live"))
		ok = fail(t, "the text report does not say the read was live: %.300s",
			  r.out);
	if (ok && strstr(r.out, " stopped for "))
		ok = fail(t, "--live-domain stopped someone: %.300s", r.out);
	pc_free(&r);
	ok = ok && owner_runs(t, &ow, "after the live read");
	owner_end(&ow);
	return ok;
}

/*
 * (c) An owner ptcompare may not stop: traced (PTRACE_SEIZE, left
 * running) by this process, its tracer's to stop.  Exit 18, one line
 * naming it and --live-domain; the owner never stopped.
 */
VMTEST_CASE(iommu, "iommu_owner_traced_refused", iommu_owner_traced_refused)
{
	struct pc_result r = { 0 };
	struct owner ow;
	char who[64], tracer[64];
	bool ok = owner_start(t, &ow);

	if (ok && ptrace(PTRACE_SEIZE, ow.pid, 0, 0))
		ok = fail(t, "PTRACE_SEIZE: %s", strerror(errno));
	ok = ok && owner_runs(t, &ow, "seized");
	if (ok) {
		const char *argv[] = { "ptcompare", "--iommu", ow.bdf,
				       "0x10000000", NULL };

		ok = pc_run(t, &r, argv);
	}
	snprintf(who, sizeof(who), "pid %d (", (int)ow.pid);
	snprintf(tracer, sizeof(tracer), "traced by pid %d", (int)getpid());
	if (ok && (r.status != EXIT_LIVE_DOMAIN || !strstr(r.err, who) ||
		   !strstr(r.err, tracer) || !strstr(r.err, "--live-domain") ||
		   r.len))
		ok = fail(t, "a traced owner: exit %d, %zu bytes out: %s",
			  r.status, r.len, r.err);
	pc_free(&r);
	ok = ok && owner_runs(t, &ow, "after the refusal");
	/* a tracee stops at each signal but SIGKILL: end it so */
	if (ow.pid > 0)
		kill(ow.pid, SIGKILL);
	owner_end(&ow);
	return ok;
}

/* Stops pid and waits until it is in 'T' (1 s at most). */
static bool stop_and_wait(struct vmtest *t, pid_t pid)
{
	kill(pid, SIGSTOP);
	for (int i = 0; i < 100; i++) {
		if (state_of(pid) == 'T')
			return true;
		usleep(10000);
	}
	return fail(t, "pid %d did not stop: state %c", (int)pid,
		    state_of(pid));
}

/* One device-view query on a fresh session: 0 or -errno, records read. */
static int ask(struct vmtest *t, const char *bdf, uint32_t flags,
	       struct ptwalk_iommu_record *recs, size_t max, ssize_t *n)
{
	int fd = vm_open_query(t), err;

	if (fd < 0)
		return -EBADF;
	err = ptwalk_query_iommu(fd, bdf, OWNER_IOVA, OWNER_IOVA + OWNER_LEN,
				 flags);
	*n = err ? 0 : ptwalk_read_iommu(fd, recs, max);
	close(fd);
	return err;
}

/*
 * (d) The kernel's side: an unmanaged domain is EAGAIN without a flag,
 * read with PTWALK_IOMMU_OWNER_STOPPED (here with the owner stopped by
 * this case, one state of its loop); a DMA-API domain (edu once the
 * owner is gone) refuses OWNER_STOPPED (EBUSY), its owner being the
 * kernel.  And ptcompare with no owner in sight (its own pid namespace
 * and /proc) refuses with exit 18, naming the driver and --live-domain.
 */
VMTEST_CASE(iommu, "iommu_owner_kernel_refuses", iommu_owner_kernel_refuses)
{
	struct ptwalk_iommu_record recs[8];
	struct ptwalk_info info = { 0 };
	struct owner ow;
	char bdf[32];
	ssize_t n;
	int err, fd, status;
	bool ok = owner_start(t, &ow);

	fd = ok ? vm_open_query(t) : -1;
	if (fd >= 0) {
		if (ptwalk_info(fd, &info) ||
		    !(info.features & PTWALK_FEAT_IOMMU_OWNER_STOPPED))
			ok = fail(t, "features 0x%llx lack OWNER_STOPPED",
				  (unsigned long long)info.features);
		close(fd);
	}
	err = ok ? ask(t, ow.bdf, 0, recs, 8, &n) : 0;
	if (ok && err != -EAGAIN)
		ok = fail(t, "unmanaged, no flag: %s, want EAGAIN",
			  strerror(-err));
	ok = ok && stop_and_wait(t, ow.pid);
	err = ok ? ask(t, ow.bdf, PTWALK_IOMMU_OWNER_STOPPED, recs, 8, &n) : 0;
	if (ok && (err || n < 1))
		ok = fail(t, "unmanaged, owner stopped: %s, %zd records",
			  strerror(-err), n);
	if (ok) {
		/* one record per state: all one buffer's frames, or none */
		uint64_t pfn = recs[0].pfn;

		if (recs[0].domain != PTWALK_IOMMU_UNMANAGED ||
		    (n == 1 && recs[0].nr_pages != OWNER_PAGES &&
		     pfn != PTWALK_PFN_NONE) ||
		    (pfn != PTWALK_PFN_NONE && pfn != ow.shm->frames[0][0] &&
		     pfn != ow.shm->frames[1][0]))
			ok = fail(t, "stopped read: domain %u, %zd records, first frame 0x%llx",
				  recs[0].domain, n, (unsigned long long)pfn);
	}
	kill(ow.pid, SIGCONT);
	ok = ok && owner_runs(t, &ow, "continued");
	/* ptcompare in a pid namespace of its own: no owner in sight */
	if (ok) {
		pid_t c = fork();

		if (c == 0) {
			pid_t g;

			if (unshare(CLONE_NEWPID | CLONE_NEWNS))
				_exit(120);
			g = fork();
			if (g == 0) {
				int e = open("/tmp/owner-ns.err",
					     O_WRONLY | O_CREAT | O_TRUNC, 0600);

				if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
					  NULL) ||
				    mount("proc", "/proc", "proc", 0, NULL))
					_exit(121);
				dup2(e, 2);
				execl("/bin/ptcompare", "ptcompare", "--iommu",
				      ow.bdf, "0x10000000", (char *)NULL);
				_exit(127);
			}
			if (g < 0 || waitpid(g, &status, 0) != g)
				_exit(122);
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 123);
		}
		if (c < 0 || waitpid(c, &status, 0) != c)
			ok = fail(t, "fork: %s", strerror(errno));
		else {
			char msg[512] = "";

			vm_read_text("/tmp/owner-ns.err", msg, sizeof(msg));
			if (!WIFEXITED(status) ||
			    WEXITSTATUS(status) != EXIT_LIVE_DOMAIN ||
			    !strstr(msg, "no owner process in sight") ||
			    !strstr(msg, "vfio-pci") ||
			    !strstr(msg, "--live-domain"))
				ok = fail(t, "ptcompare with no owner in sight: status 0x%x: %s",
					  status, msg);
		}
	}
	ok = ok && owner_runs(t, &ow, "after the namespace run");
	memcpy(bdf, ow.bdf, sizeof(bdf));
	owner_end(&ow);
	/*
	 * The owner gone, edu is back in its default domain: a DMA-API one,
	 * or identity where the lane boots so (5.10's), which is no paging
	 * domain and is answered.
	 */
	err = ok ? ask(t, bdf, PTWALK_IOMMU_OWNER_STOPPED, recs, 8, &n) : 0;
	if (ok && vm_pci_identity_default(bdf)) {
		if (err || n < 1 || recs[0].domain != PTWALK_IOMMU_IDENTITY)
			ok = fail(t, "an identity default domain: %s, %zd records, domain %u",
				  strerror(-err), n, n > 0 ? recs[0].domain : 0);
	} else if (ok && err != -EBUSY) {
		ok = fail(t, "a DMA-API domain with OWNER_STOPPED: %s, want EBUSY",
			  strerror(-err));
	}
	return ok;
}

/*
 * (f) SIGINT to ptcompare while it holds the owner stopped (a read of
 * the whole user address space, minutes long): the owner runs again.
 */
VMTEST_CASE(iommu, "iommu_owner_sigint_continues", iommu_owner_sigint_continues)
{
	uint64_t top = user_task_size();
	char range[48], pid[16];
	const char *argv[] = { "ptcompare", "--iommu", NULL, "--iova", "0x0",
			       "--range", range, pid, NULL };
	struct owner ow;
	int out = -1, status;
	pid_t pc = -1;
	bool ok = owner_start(t, &ow), seen = false;

	if (top > 1ULL << 47)
		top = 1ULL << 47;
	snprintf(range, sizeof(range), "0x0-0x%" PRIx64, top - PAGE);
	snprintf(pid, sizeof(pid), "%d", (int)ow.pid);
	argv[2] = ow.bdf;
	if (ok)
		pc = pc_spawn(t, argv, "/dev/null", &out);
	ok = ok && pc > 0;
	for (int i = 0; ok && i < 500 && !seen; i++) {
		seen = state_of(ow.pid) == 'T';
		if (!seen)
			usleep(10000);
	}
	if (ok && !seen)
		ok = fail(t, "ptcompare did not stop the owner in 5 s");
	if (ok && waitpid(pc, &status, WNOHANG) == pc)
		ok = fail(t, "ptcompare ended with the owner stopped (status 0x%x)",
			  status), pc = -1;
	if (pc > 0) {
		kill(pc, SIGINT);
		waitpid(pc, &status, 0);
		if (ok && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT))
			ok = fail(t, "ptcompare after SIGINT: status 0x%x",
				  status);
	}
	if (out >= 0)
		close(out);
	ok = ok && owner_runs(t, &ow, "after SIGINT to ptcompare");
	owner_end(&ow);
	return ok;
}

/*
 * (e) Under confidentiality lockdown (the iommu_lockdown lane): no paging
 * domain is read, with any flag (EACCES), and ptcompare refuses before it
 * stops anyone (exit 4), --live-domain too.
 */
VMTEST_CASE(iommu_lockdown, "iommu_owner_lockdown", iommu_owner_lockdown)
{
	static const uint32_t flags[] = {
		0, PTWALK_IOMMU_OWNER_STOPPED, PTWALK_IOMMU_LIVE,
	};
	struct ptwalk_iommu_record recs[8];
	struct pc_result r = { 0 };
	struct owner ow;
	ssize_t n;
	char bdf[32];
	bool ok = owner_start(t, &ow), identity;

	for (size_t i = 0; ok && i < 3; i++) {
		int err = ask(t, ow.bdf, flags[i], recs, 8, &n);

		if (err != -EACCES)
			ok = fail(t, "unmanaged under lockdown, flags 0x%x: %s, want EACCES",
				  flags[i], strerror(-err));
	}
	for (int live = 0; ok && live < 2; live++) {
		const char *argv[] = { "ptcompare", "--iommu", ow.bdf,
				       "0x10000000", NULL, NULL };

		if (live) {
			argv[1] = "--live-domain";
			argv[2] = "--iommu";
			argv[3] = ow.bdf;
			argv[4] = "0x10000000";
		}
		ok = pc_run(t, &r, argv);
		if (ok && (r.status != EXIT_LOCKDOWN ||
			   !strstr(r.err, "no live domain") || r.len))
			ok = fail(t, "ptcompare%s under lockdown: exit %d: %s",
				  live ? " --live-domain" : "", r.status,
				  r.err);
		if (ok && strstr(r.err, "stopped"))
			ok = fail(t, "ptcompare stopped someone: %s", r.err);
		pc_free(&r);
		ok = ok && owner_runs(t, &ow, "after the refusal");
	}
	memcpy(bdf, ow.bdf, sizeof(bdf));
	owner_end(&ow);
	/*
	 * The DMA-API domain, even with the opt-in; an identity default
	 * (5.10's lane) is no paging domain, and is answered.
	 */
	identity = vm_pci_identity_default(bdf);
	for (size_t i = 0; ok && i < 3; i++) {
		int err = ask(t, bdf, flags[i], recs, 8, &n);

		if (identity && (err || n < 1 ||
				 recs[0].domain != PTWALK_IOMMU_IDENTITY))
			ok = fail(t, "identity under lockdown, flags 0x%x: %s, %zd records",
				  flags[i], strerror(-err), n);
		else if (!identity && err != -EACCES)
			ok = fail(t, "DMA-API under lockdown, flags 0x%x: %s, want EACCES",
				  flags[i], strerror(-err));
	}
	return ok;
}
