// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/ptwalk beside debugfs: the node (a root-only character device of
 * the misc class, its ABI version in sysfs), and the same answers as the
 * debugfs file.  The session cases themselves run again through the
 * device (vmtest.c, "device_" cases).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include "vmtest.h"

#define MISC_DIR "/sys/class/misc/" PTWALK_DEVICE_NAME

/* The first line of a small file, without its newline. */
static bool read_line(struct vmtest *t, const char *path, char *buf,
		      size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return fail(t, "open %s: %s", path, strerror(errno));
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		return fail(t, "%s is empty", path);
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

VMTEST_CASE(device, "device_node", device_node)
{
	char dev[32], abi[16], dbg_abi[16], want[16];
	unsigned int maj, min;
	struct stat st;

	if (stat(PTWALK_DEFAULT_DEVICE, &st))
		return fail(t, "stat %s: %s", PTWALK_DEFAULT_DEVICE,
			    strerror(errno));
	if (!S_ISCHR(st.st_mode) || (st.st_mode & 07777) != 0600 ||
	    st.st_uid != 0 || st.st_gid != 0)
		return fail(t, "%s: mode 0%o uid %u gid %u, expected a 0600 root character device",
			    PTWALK_DEFAULT_DEVICE, st.st_mode, st.st_uid,
			    st.st_gid);
	if (!read_line(t, MISC_DIR "/dev", dev, sizeof(dev)) ||
	    sscanf(dev, "%u:%u", &maj, &min) != 2)
		return fail(t, "%s/dev: '%s'", MISC_DIR, dev);
	if (major(st.st_rdev) != maj || minor(st.st_rdev) != min)
		return fail(t, "%s is %u:%u, the misc device %u:%u",
			    PTWALK_DEFAULT_DEVICE, major(st.st_rdev),
			    minor(st.st_rdev), maj, min);
	snprintf(want, sizeof(want), "%d", PTWALK_ABI_VERSION);
	if (!read_line(t, MISC_DIR "/" PTWALK_DEVICE_ABI_ATTR, abi, sizeof(abi)) ||
	    !read_line(t, PTWALK_DEFAULT_DEBUGFS "/" PTWALK_DEBUGFS_DIR "/"
		       PTWALK_ABI_FILE, dbg_abi, sizeof(dbg_abi)))
		return false;
	if (strcmp(abi, want) || strcmp(dbg_abi, want))
		return fail(t, "ABI version: sysfs '%s', debugfs '%s', expected %s",
			    abi, dbg_abi, want);
	return true;
}

/* One record, every field, for a failure's message (two at most at once). */
static const char *rec_text(const struct ptwalk_record *r)
{
	static char buf[2][160];
	static unsigned int k;
	char *b = buf[k++ % 2];

	snprintf(b, sizeof(buf[0]),
		 "{0x%" PRIx64 " %" PRIu64 " pages pfn 0x%" PRIx64 " swap 0x%" PRIx64
		 " vm_flags 0x%" PRIx64 " flags 0x%x level %u kind %u type %u memtype %u}",
		 (uint64_t)r->start, (uint64_t)r->nr_pages, (uint64_t)r->pfn,
		 (uint64_t)r->swap_offset, (uint64_t)r->vm_flags, r->flags,
		 r->level, r->kind, r->swap_type, r->memtype);
	return b;
}

/*
 * The whole address space, with the fixture mapped, walked through both
 * ways in: the same records.  Both record buffers are written all over
 * first, so that no page of them becomes present between the walks.  The
 * process still changes its own entries between two walks now and then
 * (a write to a page an earlier case's fork left write-protected makes it
 * writable and dirty; the kernel's ageing clears an accessed bit), so a
 * pair that differs is walked again, up to ATTEMPTS pairs: the two ways
 * in must agree record for record in one pair.
 */
#define ATTEMPTS 3
VMTEST_CASE(device, "device_answers_like_debugfs", device_answers_like_debugfs)
{
	struct ptwalk_fixture_pfns known;
	const char *saved = t->query_path;
	struct ptwalk_record *first = calloc(MAX_RECS, sizeof(*first));
	char *p = vm_map_fixture(t, &known);
	size_t n = 0, i = 0;
	bool ok = p && first, same = false;

	if (ok) {
		memset(first, 0xff, MAX_RECS * sizeof(*first));
		memset(t->recs, 0xff, MAX_RECS * sizeof(*t->recs));
	}
	for (int attempt = 0; ok && !same && attempt < ATTEMPTS; attempt++) {
		t->query_path = PTWALK_DEFAULT_DEBUGFS "/" PTWALK_DEBUGFS_DIR
				"/" PTWALK_QUERY_FILE;
		ok = walk(t, getpid(), 0, user_task_size());
		n = t->nr_recs;
		if (ok)
			memcpy(first, t->recs, n * sizeof(*first));
		t->query_path = PTWALK_DEFAULT_DEVICE;
		ok = ok && walk(t, getpid(), 0, user_task_size());
		same = ok && t->nr_recs == n &&
		       !memcmp(first, t->recs, n * sizeof(*first));
		if (ok && !same)
			printf("# device_answers_like_debugfs: pair %d differs, walked again\n",
			       attempt + 1);
	}
	if (ok && !same) {
		while (i < n && i < t->nr_recs &&
		       !memcmp(&first[i], &t->recs[i], sizeof(*first)))
			i++;
		ok = i < n && i < t->nr_recs ?
		     fail(t, "%d pairs of walks: debugfs gave %zu records, the device %zu; record %zu differs: debugfs %s, the device %s",
			  ATTEMPTS, n, t->nr_recs, i, rec_text(&first[i]),
			  rec_text(&t->recs[i])) :
		     fail(t, "%d pairs of walks: debugfs gave %zu records, the device %zu",
			  ATTEMPTS, n, t->nr_recs);
	}
	/* and the fixture's frames are in them */
	for (i = 0; ok && i < PTWALK_FIXTURE_PAGES; i++) {
		uint64_t addr = A(p) + i * PAGE;
		const struct ptwalk_record *r = ptwalk_find(t->recs, t->nr_recs,
							    addr, PAGE_SHIFT_K);

		if (!r || ptwalk_pfn_at(r, addr, PAGE_SHIFT_K) != known.pfn[i])
			ok = fail(t, "device: fixture page %zu not at frame 0x%"
				  PRIx64, i, (uint64_t)known.pfn[i]);
	}
	t->query_path = saved;
	if (p)
		munmap(p, PTWALK_FIXTURE_PAGES * PAGE);
	free(first);
	return ok;
}
#undef ATTEMPTS

#if defined(__x86_64__)
/*
 * A 32-bit client (tests/vm/compat32.c, /bin/compat32 in the x86-64
 * guests; the kernel's IA32 emulation): /dev/ptwalk answers it through
 * .compat_ioctl (compat_ptr_ioctl(): the structs are the same for 32- and
 * 64-bit callers), the debugfs query file cannot, since debugfs' proxy
 * forwards no .compat_ioctl (docs/interface.md: the device is the 32-bit
 * way).  Runs compat32 on @path, reads its lines into @out (addr, info,
 * and range after a successful info) and leaves it waiting: its pid, and
 * in *to_child the pipe whose close ends it; -1 with t->why set.
 */
#define COMPAT32 "/bin/compat32"
static pid_t compat32_start(struct vmtest *t, const char *path,
			    char out[3][128], int *to_child)
{
	int in[2], back[2], lines = 0;
	FILE *f;
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) || pipe2(back, O_CLOEXEC))
		return fail(t, "pipe: %s", strerror(errno)), -1;
	pid = fork();
	if (pid < 0)
		return fail(t, "fork: %s", strerror(errno)), -1;
	if (!pid) {
		dup2(in[0], STDIN_FILENO);
		dup2(back[1], STDOUT_FILENO);
		execl(COMPAT32, "compat32", path, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(back[1]);
	*to_child = in[1];
	f = fdopen(back[0], "r");
	while (f && lines < 3 && fgets(out[lines], 128, f)) {
		out[lines][strcspn(out[lines], "\n")] = '\0';
		lines++;
		/* no range line after a failed info */
		if (lines == 2 && strncmp(out[1], "info 0 ", 7))
			break;
	}
	if (f)
		fclose(f);
	else
		close(back[0]);
	if (lines < 2) {
		close(in[1]);
		waitpid(pid, NULL, 0);
		return fail(t, "%s printed %d lines: is it there (make %s) and can this kernel run 32-bit programs (CONFIG_IA32_EMULATION)?",
			    COMPAT32, lines, "build/compat32"), -1;
	}
	return pid;
}

static void compat32_end(pid_t pid, int to_child)
{
	close(to_child);
	waitpid(pid, NULL, 0);
}

/* The device answers a 32-bit caller as it answers this one. */
VMTEST_CASE(device, "compat32_device_answers", compat32_device_answers)
{
	char out[3][128] = { "" };
	unsigned long long addr = 0, pfn = 0;
	int rc = -1, err = 0, nrecs = 0;
	unsigned int abi = 0, level = 0, kind = 0;
	int to_child;
	pid_t pid = compat32_start(t, PTWALK_DEFAULT_DEVICE, out, &to_child);
	bool ok = pid > 0;

	if (!ok)
		return false;
	ok = (sscanf(out[0], "addr %llx", &addr) == 1 &&
	      sscanf(out[1], "info %d %d %u", &rc, &err, &abi) == 3 &&
	      !rc && abi == PTWALK_ABI_VERSION) ||
	     fail(t, "32-bit info through %s: '%s'", PTWALK_DEFAULT_DEVICE,
		  out[1]);
	ok = ok && ((sscanf(out[2], "range %d %d %d %llx %u %u", &rc, &err,
			    &nrecs, &pfn, &level, &kind) == 6 &&
		     !rc && nrecs == 1 && pfn != PTWALK_PFN_NONE) ||
		    fail(t, "32-bit range query of its own written page: '%s'",
			 out[2]));
	/* the same page of the same process, asked by a 64-bit caller */
	ok = ok && walk(t, pid, addr, addr + PAGE);
	ok = ok && ((t->nr_recs == 1 && t->recs[0].pfn == pfn &&
		     t->recs[0].level == level && t->recs[0].kind == kind) ||
		    fail(t, "32-bit caller got pfn 0x%llx level %u kind %u, 64-bit %zu records: %s",
			 pfn, level, kind, t->nr_recs, rec_text(&t->recs[0])));
	compat32_end(pid, to_child);
	return ok;
}

/* The debugfs query file has no 32-bit ioctl path: ENOTTY, as documented. */
VMTEST_CASE(device, "compat32_debugfs_enotty", compat32_debugfs_enotty)
{
	char out[3][128] = { "" };
	int rc = 0, err = 0, to_child;
	unsigned int abi;
	pid_t pid = compat32_start(t, PTWALK_DEFAULT_DEBUGFS "/"
				   PTWALK_DEBUGFS_DIR "/" PTWALK_QUERY_FILE,
				   out, &to_child);
	bool ok = pid > 0;

	if (!ok)
		return false;
	ok = (sscanf(out[1], "info %d %d %u", &rc, &err, &abi) == 3 &&
	      rc == -1 && err == ENOTTY) ||
	     fail(t, "32-bit info through debugfs: '%s', expected ENOTTY (%d)",
		  out[1], ENOTTY);
	compat32_end(pid, to_child);
	return ok;
}
#endif
