// SPDX-License-Identifier: GPL-2.0
/*
 * Interface cases: every bad request gets its own errno, sessions are
 * private, streaming resumes exactly, privileges are enforced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include "ptcompare_run.h"
#include "vmtest.h"

static int open_query(struct vmtest *t)
{
	return vm_open_query(t);
}

static bool expect_errno(struct vmtest *t, const char *what, int got, int want)
{
	if (got == -want)
		return true;
	return fail(t, "%s: got %s (%d), expected %s", what,
		    got ? strerror(-got) : "success", got, strerror(want));
}

/* Writes a raw request; 0 or -errno. */
static int raw_write(int fd, const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	return n < 0 ? -errno : 0;
}

/* A query ioctl with its struct at q: 0 or -errno. */
static int raw_ioctl(int fd, unsigned long cmd, void *q)
{
	return ioctl(fd, cmd, q) < 0 ? -errno : 0;
}

static struct ptwalk_range_query good_request(void)
{
	struct ptwalk_range_query r = {
		.size = sizeof(r), .pid = getpid(),
		.start = 0x400000, .end = 0x800000,
	};
	return r;
}

VMTEST_CASE(error, "bad_requests_errnos", bad_requests)
{
	const struct {	/* not static: an end depends on the page size */
		const char *what;
		int err;
		int field;	/* which field to spoil */
		uint64_t value;
	} cases[] = {
		{ "size 0", EINVAL, 0, 0 },
		{ "size 8: shorter than the first version", EINVAL, 0, 8 },
		{ "size above a page", E2BIG, 0, PAGE + 8 },
		{ "undefined flag 1", EINVAL, 1, 1 },
		{ "undefined flag 31", EINVAL, 1, 1ULL << 31 },
		{ "reserved 1", EINVAL, 2, 1 },
		{ "pid 0", EINVAL, 3, 0 },
		{ "pid -5", EINVAL, 3, (uint64_t)-5 },
		{ "unaligned start", EINVAL, 4, 0x400001 },
		{ "unaligned end", EINVAL, 5, 0x800010 },
		{ "start == end", ERANGE, 5, 0x400000 },
		{ "start > end", ERANGE, 5, 0x200000 },
		/*
		 * 2^57: beyond user space even with 5-level paging (x86
		 * LA57 ends at 2^56 - 4K; riscv64 Sv57 at 2^56 exactly)
		 */
		{ "end beyond user space", ERANGE, 5, 1ULL << 57 },
		/* the last page-aligned end: 2^64 - 16K with 16K pages */
		{ "end at 2^64 - PAGE", ERANGE, 5, -(uint64_t)PAGE },
		{ "no such pid", ESRCH, 3, 4194000 },
		{ "kernel thread (kthreadd)", ENXIO, 3, 2 },
	};
	/* a struct longer than the module's, its tail zero, then not */
	struct {
		struct ptwalk_range_query q;
		uint64_t tail[4];
	} longer = { .q = good_request() };
	size_t i;
	int fd = open_query(t);
	bool ok = fd >= 0;

	for (i = 0; ok && i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ptwalk_range_query r = good_request();

		switch (cases[i].field) {
		case 0: r.size = cases[i].value; break;
		case 1: r.flags = cases[i].value; break;
		case 2: r.reserved = cases[i].value; break;
		case 3: r.pid = (int32_t)cases[i].value; break;
		case 4: r.start = cases[i].value; break;
		case 5: r.end = cases[i].value; break;
		}
		if (cases[i].err == ESRCH && kill(r.pid, 0) == 0)
			continue;	/* that pid exists after all */
		ok = expect_errno(t, cases[i].what,
				  raw_ioctl(fd, PTWALK_IOC_RANGE, &r),
				  cases[i].err);
	}
	longer.q.size = sizeof(longer);
	ok = ok && expect_errno(t, "longer struct, zero tail",
				raw_ioctl(fd, PTWALK_IOC_RANGE, &longer), 0);
	longer.tail[3] = 1;
	ok = ok && expect_errno(t, "longer struct, a field this module lacks",
				raw_ioctl(fd, PTWALK_IOC_RANGE, &longer), E2BIG);
	ok = ok && expect_errno(t, "an ioctl ptwalk does not have",
				raw_ioctl(fd, _IO(PTWALK_IOC_TYPE, 0x7f),
					  &longer), ENOTTY);
	if (fd >= 0)
		close(fd);
	return ok;
}

VMTEST_CASE(error, "bad_sizes_and_order", bad_sizes)
{
	struct ptwalk_range_query r = good_request();
	struct ptwalk_record_ext rec;
	int fd = open_query(t);
	bool ok;

	if (fd < 0)
		return false;
	/* ABI version 2 and on have no write(): a version 1 query is refused */
	ok = expect_errno(t, "read before any query",
			  read(fd, &rec, sizeof(rec)) < 0 ? -errno : 0, ENODATA) &&
	     expect_errno(t, "a version 1 write", raw_write(fd, &r, 32),
			  EINVAL) &&
	     expect_errno(t, "good query", raw_ioctl(fd, PTWALK_IOC_RANGE, &r),
			  0) &&
	     expect_errno(t, "read into 55 bytes",
			  read(fd, &rec, sizeof(rec) - 1) < 0 ? -errno : 0,
			  EINVAL) &&
	     expect_errno(t, "pread",
			  pread(fd, &rec, sizeof(rec), 0) < 0 ? -errno : 0,
			  ESPIPE) &&
	     expect_errno(t, "lseek", lseek(fd, 0, SEEK_SET) < 0 ? -errno : 0,
			  ESPIPE);
	/* A failed query forgets the previous one. */
	r.end = r.start;
	ok = ok && expect_errno(t, "bad query",
				raw_ioctl(fd, PTWALK_IOC_RANGE, &r), ERANGE) &&
	     expect_errno(t, "read after failed query",
			  read(fd, &rec, sizeof(rec)) < 0 ? -errno : 0, ENODATA);
	close(fd);
	return ok;
}

VMTEST_CASE(error, "zombie_has_no_mm", zombie)
{
	siginfo_t si;
	int fd, ret;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return fail(t, "fork: %s", strerror(errno));
	/* Wait for the exit but leave the zombie in place. */
	waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
	fd = open_query(t);
	if (fd < 0)
		return false;
	ret = ptwalk_query(fd, pid, 0x400000, 0x800000);
	close(fd);
	waitpid(pid, NULL, 0);
	return expect_errno(t, "zombie", ret, ENXIO);
}

VMTEST_CASE(error, "target_exits_during_scan", exits_during_scan)
{
	struct ptwalk_record rec;
	int fd, ret;
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	if (pid < 0)
		return fail(t, "fork: %s", strerror(errno));
	fd = open_query(t);
	if (fd < 0)
		return false;
	ret = ptwalk_query(fd, pid, 0, user_task_size());
	if (ret) {
		close(fd);
		return fail(t, "query: %s", strerror(-ret));
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ret = (int)ptwalk_read(fd, &rec, 1);
	close(fd);
	return expect_errno(t, "read after the target exited", ret < 0 ? ret : 0,
			    ESRCH);
}

/* Asks a task query for pid and reads its answer into *out (n bytes). */
static int task_ask(int fd, pid_t pid, struct ptwalk_task *out, size_t n)
{
	struct ptwalk_task_query r = { .size = sizeof(r), .pid = pid };
	int err = raw_ioctl(fd, PTWALK_IOC_TASK, &r);
	ssize_t got;

	if (err)
		return err;
	memset(out, 0x5a, sizeof(*out));
	got = read(fd, out, n);
	if (got < 0)
		return -errno;
	return got == sizeof(*out) ? 0 : -EIO;
}

/* The answer is the one wanted: pid, tgid, and the name, NUL-padded. */
static bool task_is(struct vmtest *t, const struct ptwalk_task *a, pid_t pid,
		    pid_t tgid, const char *comm)
{
	char want[PTWALK_COMM_LEN] = { 0 };

	strncpy(want, comm, sizeof(want) - 1);
	if (a->pid == pid && a->tgid == tgid &&
	    !memcmp(a->comm, want, sizeof(want)))
		return true;
	return fail(t, "task query of %d: pid %d tgid %d comm '%.16s', want %d %d '%s'",
		    (int)pid, (int)a->pid, (int)a->tgid, a->comm, (int)pid,
		    (int)tgid, comm);
}

struct named_thread {
	int ready[2], go[2];
	pid_t tid;
};

static void *named_thread_run(void *arg)
{
	struct named_thread *nt = arg;
	char c;

	prctl(PR_SET_NAME, "ptw-thread");
	nt->tid = gettid();
	if (write(nt->ready[1], "r", 1) != 1 || read(nt->go[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

/*
 * PTWALK_IOC_TASK, against what the tasks did themselves: a child that
 * named itself with prctl (all 15 characters), and a thread of this
 * process that named itself, whose tgid is this process; no mm (kthreadd,
 * a zombie) ENXIO and no task ESRCH, as for a query; a flag or the
 * reserved field EINVAL; one answer, then end of file; a buffer smaller
 * than the answer EINVAL.
 */
VMTEST_CASE(error, "task_query", task_query)
{
	const char *name = "ptw task name15";
	struct named_thread nt = { .tid = 0 };
	struct ptwalk_task_query r = { .size = sizeof(r), .pid = getpid() };
	struct ptwalk_task a;
	int ready[2], fd, st;
	pthread_t th;
	pid_t child, zombie;
	bool ok;
	char c;

	if (pipe(ready) || pipe(nt.ready) || pipe(nt.go))
		return fail(t, "pipe: %s", strerror(errno));
	child = fork();
	if (child == 0) {
		prctl(PR_SET_NAME, name);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	zombie = fork();
	if (zombie == 0)
		_exit(0);
	if (child < 0 || zombie < 0 || read(ready[0], &c, 1) != 1)
		return fail(t, "fork: %s", strerror(errno));
	waitid(P_PID, zombie, &(siginfo_t){ 0 }, WEXITED | WNOWAIT);
	if (pthread_create(&th, NULL, named_thread_run, &nt))
		return fail(t, "pthread_create failed");
	ok = read(nt.ready[0], &c, 1) == 1;
	fd = open_query(t);
	ok = ok && fd >= 0;
	ok = ok && expect_errno(t, "task query of a child",
				task_ask(fd, child, &a, sizeof(a)), 0) &&
	     task_is(t, &a, child, child, name) &&
	     expect_errno(t, "second read", (int)read(fd, &a, sizeof(a)), 0);
	ok = ok && expect_errno(t, "task query of a thread",
				task_ask(fd, nt.tid, &a, sizeof(a)), 0) &&
	     task_is(t, &a, nt.tid, getpid(), "ptw-thread");
	ok = ok && expect_errno(t, "read into 23 bytes",
				task_ask(fd, child, &a, sizeof(a) - 1), EINVAL);
	ok = ok && expect_errno(t, "kthreadd",
				task_ask(fd, 2, &a, sizeof(a)), ENXIO) &&
	     expect_errno(t, "a zombie", task_ask(fd, zombie, &a, sizeof(a)),
			  ENXIO) &&
	     (kill(4194000, 0) == 0 ||
	      expect_errno(t, "no such pid",
			   task_ask(fd, 4194000, &a, sizeof(a)), ESRCH));
	r.flags = 1;
	ok = ok && expect_errno(t, "task with a flag",
				raw_ioctl(fd, PTWALK_IOC_TASK, &r), EINVAL);
	r.flags = 0;
	r.reserved = 1;
	ok = ok && expect_errno(t, "task with reserved",
				raw_ioctl(fd, PTWALK_IOC_TASK, &r), EINVAL);
	if (fd >= 0)
		close(fd);
	if (write(nt.go[1], "g", 1) == 1)
		pthread_join(th, NULL);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	waitpid(zombie, &st, 0);
	for (int i = 0; i < 2; i++) {
		close(ready[i]);
		close(nt.ready[i]);
		close(nt.go[i]);
	}
	return ok;
}

/* Two sessions on two files, read alternately, each see their own query. */
VMTEST_CASE(error, "sessions_are_private", sessions_private)
{
	size_t len = 8 * PAGE;
	char *a = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	char *b = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	int fa = open_query(t), fb = open_query(t), i;
	uint64_t next[2];
	bool ok = a && b && fa >= 0 && fb >= 0;

	if (!ok)
		return false;
	/* Every other page touched: 8 separate records in each range. */
	for (i = 0; i < 8; i += 2) {
		a[i * PAGE] = 1;
		b[i * PAGE] = 1;
	}
	next[0] = (uintptr_t)a;
	next[1] = (uintptr_t)b;
	ok = !ptwalk_query(fa, getpid(), next[0], next[0] + len) &&
	     !ptwalk_query(fb, getpid(), next[1], next[1] + len);
	for (i = 0; ok && i < 16; i++) {
		struct ptwalk_record rec;
		int which = i & 1;

		if (ptwalk_read(which ? fb : fa, &rec, 1) != 1)
			ok = fail(t, "session %d ended early", which);
		else if (rec.start != next[which])
			ok = fail(t, "session %d got 0x%" PRIx64 ", expected 0x%"
				  PRIx64, which, (uint64_t)rec.start,
				  next[which]);
		else
			next[which] = ptwalk_record_end(&rec, PAGE_SHIFT_K);
	}
	close(fa);
	close(fb);
	munmap(a, len);
	munmap(b, len);
	return ok;
}

/* Walks pid's whole address space one record per read() into out. */
static ssize_t walk_one_by_one(struct vmtest *t, pid_t pid,
			       struct ptwalk_record *out, size_t max)
{
	int fd = open_query(t), ret;
	size_t n = 0;
	ssize_t got = 0;

	if (fd < 0)
		return -1;
	ret = ptwalk_query(fd, pid, 0, user_task_size());
	if (ret) {
		close(fd);
		return fail(t, "query: %s", strerror(-ret)), -1;
	}
	while (n < max && (got = ptwalk_read(fd, &out[n], 1)) == 1)
		n++;
	close(fd);
	if (n == max)
		return fail(t, "more than %zu records", max), -1;
	if (got < 0)
		return fail(t, "read: %s", strerror((int)-got)), -1;
	return (ssize_t)n;
}

/*
 * One record per read() across the whole address space: the walk must
 * resume exactly where the output filled up, giving the same records as
 * one walk with a large buffer.  The target is a stopped child with THP
 * off (no khugepaged collapse), so its tables stay as they are; this
 * process's own would not (its stack and heap change between the walks).
 * Compaction may still move a frame between the two walks: a difference
 * is walked again, and only three in a row fail.
 */
VMTEST_CASE(error, "stream_one_record_per_read", stream_one_by_one)
{
	struct ptwalk_record *one = calloc(MAX_RECS, sizeof(*one));
	ssize_t n = -1;
	int status, attempt;
	bool ok = false;
	pid_t pid;

	if (!one)
		return fail(t, "calloc");
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
		raise(SIGSTOP);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, WUNTRACED) != pid ||
	    !WIFSTOPPED(status)) {
		free(one);
		return fail(t, "child did not stop");
	}
	for (attempt = 0; attempt < 3 && !ok; attempt++) {
		n = walk_one_by_one(t, pid, one, MAX_RECS);
		if (n < 0 ||
		    !ptwalk_check_partition(one, (size_t)n, 0, user_task_size(), PAGE_SHIFT_K,
					    t->why, sizeof(t->why)) ||
		    !walk(t, pid, 0, user_task_size()))
			break;
		ok = t->nr_recs == (size_t)n &&
		     !memcmp(one, t->recs, (size_t)n * sizeof(*one));
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	free(one);
	if (n >= 0 && !ok && !t->why[0])
		fail(t, "%zd records one by one, %zu at once, differing in 3 walks",
		     n, t->nr_recs);
	else if (ok)
		printf("# stream_one_record_per_read: %zd records, %d walk(s)\n",
		       n, attempt);
	return ok;
}

/* Runs fn in a child and returns its errno result for opening query. */
static int open_in_child(struct vmtest *t, int (*drop)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int fd;

		if (drop())
			_exit(200);
		fd = open(t->query_path, O_RDWR | O_CLOEXEC);
		_exit(fd < 0 ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return fail(t, "child failed"), -1;
	return WEXITSTATUS(status);
}

/* Drops @cap from this process, and from what an exec may give back. */
static int drop_cap(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) ||
	    syscall(SYS_capget, &h, d))
		return -1;
	d[cap / 32].effective &= ~(1U << (cap % 32));
	d[cap / 32].permitted &= ~(1U << (cap % 32));
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

static int drop_cap_sys_admin(void)
{
	return drop_cap(CAP_SYS_ADMIN);
}

static int drop_cap_sys_ptrace(void)
{
	return drop_cap(CAP_SYS_PTRACE);
}

/*
 * ptcompare without CAP_SYS_PTRACE, run from a child that dropped it:
 * exit 5, one line naming the capability.  0, or why not in t->why.
 */
static bool ptcompare_without_ptrace(struct vmtest *t)
{
	int fds[2], status;
	char msg[600] = "";
	pid_t pid;
	ssize_t n;

	if (pipe(fds))
		return fail(t, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		struct pc_result r;
		char self[16];
		const char *argv[] = { "ptcompare", self, NULL };

		close(fds[0]);
		snprintf(self, sizeof(self), "%d", (int)getppid());
		if (drop_cap_sys_ptrace() || !pc_run(t, &r, argv))
			_exit(2);
		n = snprintf(msg, sizeof(msg), "%d %s", r.status, r.err);
		if (write(fds[1], msg, (size_t)n) != n)
			_exit(3);
		_exit(0);
	}
	close(fds[1]);
	n = pid > 0 ? read(fds[0], msg, sizeof(msg) - 1) : -1;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || n <= 0)
		return fail(t, "the child without CAP_SYS_PTRACE failed");
	msg[n] = '\0';
	if (atoi(msg) != EXIT_PRIVILEGE || !strstr(msg, "CAP_SYS_PTRACE"))
		return fail(t, "ptcompare without CAP_SYS_PTRACE: %s", msg);
	return true;
}

static int become_nobody(void)
{
	return setgid(65534) || setuid(65534) ? -1 : 0;
}

/*
 * Root in a new user namespace: every capability there, none in the
 * initial namespace; the file mode lets it open, ptwalk must refuse.
 */
static int enter_user_namespace(void)
{
	return unshare(CLONE_NEWUSER);
}

/*
 * Others may reach t->query_path: its directory is readable and
 * searchable by them, every directory above it searchable.
 */
static bool reachable_by_others(const char *path)
{
	char dir[256];
	struct stat st;
	mode_t want = 0005;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	while ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		if (stat(dir, &st) || (st.st_mode & want) != want)
			return false;
		want = 0001;
	}
	return true;
}

/* A child that drops its rights with drop cannot open ptwalk: errno want. */
static bool refused(struct vmtest *t, int (*drop)(void), int want,
		    const char *who)
{
	int err = open_in_child(t, drop);

	return err == want ||
	       fail(t, "%s: %s, expected %s", who,
		    err == 200 ? "dropping failed" : err ? strerror(err) : "opened",
		    want == EPERM ? "EPERM" : "EACCES");
}

VMTEST_CASE(error, "privileges", privileges)
{
	struct stat st;

	/* EACCES must come from ptwalk's file mode, not from the path. */
	if (!reachable_by_others(t->query_path))
		return fail(t, "test setup: %s not reachable by others",
			    t->query_path);
	if (stat(t->query_path, &st) || (st.st_mode & 07777) != 0600 ||
	    st.st_uid != 0)
		return fail(t, "%s: mode 0%o uid %u, expected 0600 root",
			    t->query_path, st.st_mode & 07777, st.st_uid);
	return refused(t, drop_cap_sys_admin, EPERM,
		       "root without CAP_SYS_ADMIN") &&
	       refused(t, drop_cap_sys_ptrace, EPERM,
		       "root without CAP_SYS_PTRACE") &&
	       ptcompare_without_ptrace(t) &&
	       refused(t, become_nobody, EACCES, "uid 65534") &&
	       refused(t, enter_user_namespace, EPERM,
		       "root in a user namespace");
}

VMTEST_CASE(error, "text_view", text_view)
{
	struct ptwalk_fixture_pfns known;
	size_t len = PTWALK_FIXTURE_PAGES * PAGE, got = 0;
	char *p, *out = malloc(1 << 16), cmd[96], want[64];
	int fd = ptwalk_open(PTWALK_DEFAULT_DEBUGFS, PTWALK_TEXT_FILE, O_RDWR);
	bool ok = true;
	ssize_t n;

	if (fd < 0 || !out)
		return fail(t, "open text: %s", strerror(-fd));
	if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PFNS, &known))
		return fail(t, "fixture pfns: %s", strerror(errno));
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, t->fixture_fd, 0);
	if (p == MAP_FAILED)
		return fail(t, "mmap fixture: %s", strerror(errno));
	ok = expect_errno(t, "text \"abc\"", raw_write(fd, "abc\n", 4), EINVAL) &&
	     expect_errno(t, "text \"1 2\"", raw_write(fd, "1 2\n", 4), EINVAL);
	snprintf(cmd, sizeof(cmd), "%d %p %p\n", getpid(), (void *)p,
		 (void *)(p + len));
	ok = ok && expect_errno(t, "text query", raw_write(fd, cmd, strlen(cmd)),
				0);
	/* Small reads, to exercise partial lines. */
	while (ok && (n = read(fd, out + got, 7)) > 0 && got < (1 << 16) - 8)
		got += n;
	out[got] = '\0';
	snprintf(want, sizeof(want), "pfn=0x%llx ",
		 (unsigned long long)known.pfn[0]);
	if (ok && (!strstr(out, "# ptwalk pid") || !strstr(out, want) ||
		   !strstr(out, "pfnmap")))
		ok = fail(t, "text view lacks header or \"%s\": %.200s", want,
			  out);
	close(fd);
	free(out);
	munmap(p, len);
	return ok;
}

/*
 * PTWALK_IOC_INFO: version 3 and every query's feature bit; the caller's
 * size honoured both ways (a longer struct's tail zeroed, a shorter one
 * filled only as far as it goes); the absent flags those of the file.
 */
VMTEST_CASE(error, "abi_info", abi_info)
{
	struct {
		struct ptwalk_info info;
		unsigned char tail[16];
	} big;
	uint64_t want = PTWALK_FEAT_RANGE | PTWALK_FEAT_VTOP |
			PTWALK_FEAT_TASK | PTWALK_FEAT_IOMMU |
			PTWALK_FEAT_IOMMU_DMA_API | PTWALK_FEAT_IOMMU_EVENTS |
			PTWALK_FEAT_IOMMU_OWNER_STOPPED |
			PTWALK_FEAT_EVENTS_ARMING | PTWALK_FEAT_FRAME_FILE |
			PTWALK_FEAT_DMA_EXPIRY;
	uint32_t absent = 0, small[3];
	int fd = open_query(t);
	bool ok = fd >= 0;

	memset(&big, 0xff, sizeof(big));
	big.info.size = sizeof(big);
	ok = ok && expect_errno(t, "info", raw_ioctl(fd, PTWALK_IOC_INFO, &big),
				0);
	if (ok && (big.info.size != sizeof(big.info) ||
		   big.info.abi_version != 3 || big.info.features != want ||
		   big.info.reserved || big.tail[0] || big.tail[15]))
		ok = fail(t, "info: size %u version %u features 0x%llx reserved %u tail %02x..%02x",
			  big.info.size, big.info.abi_version,
			  (unsigned long long)big.info.features,
			  big.info.reserved, big.tail[0], big.tail[15]);
	ok = ok && !ptwalk_absent_flags(PTWALK_DEFAULT_DEBUGFS "/" PTWALK_DEBUGFS_DIR
					"/" PTWALK_ABSENT_FILE, &absent) &&
	     (big.info.absent_flags == absent ||
	      fail(t, "info's absent flags 0x%x, the file's 0x%x",
		   big.info.absent_flags, absent));
	memset(small, 0xff, sizeof(small));
	small[0] = 8;
	ok = ok && expect_errno(t, "info into 8 bytes",
				raw_ioctl(fd, PTWALK_IOC_INFO, small), 0) &&
	     ((small[0] == 8 && small[1] == 3 && small[2] == 0xffffffff) ||
	      fail(t, "8-byte info: %u %u 0x%x", small[0], small[1], small[2]));
	small[0] = 4;
	ok = ok && expect_errno(t, "info into 4 bytes",
				raw_ioctl(fd, PTWALK_IOC_INFO, small), EINVAL);
	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * A module of ABI version 1 (the fixture's stand-in: a query file that
 * takes writes and knows no ioctl): ptcompare says so in one line with
 * exit 3, the fix in it, and writes nothing on stdout.
 */
VMTEST_CASE(error, "abi_v1_module", abi_v1_module)
{
	char self[16];
	const char *argv[] = { "ptcompare", "--debugfs",
			       PTWALK_DEFAULT_DEBUGFS "/" PTWALK_FIXTURE_V1_DIR, self, NULL };
	struct pc_result r;
	bool ok;

	snprintf(self, sizeof(self), "%d", (int)getpid());
	if (!pc_run(t, &r, argv))
		return false;
	ok = (r.status == EXIT_NO_MODULE && r.len == 0 &&
	      strstr(r.err, "ABI version 1") && strstr(r.err, "insmod")) ||
	     fail(t, "a version 1 module: exit %d, %zu bytes out: %s",
		  r.status, r.len, r.err);
	pc_free(&r);
	return ok;
}

/* Reads every record of the query started on fd into recs: their number. */
static ssize_t read_every(struct vmtest *t, int fd,
			  struct ptwalk_record_ext *recs, size_t max)
{
	size_t n = 0;
	ssize_t got;

	while (n < max && (got = ptwalk_read_ext(fd, recs + n, max - n)) > 0)
		n += (size_t)got;
	if (got < 0)
		return fail(t, "read: %s", strerror((int)-got)), -1;
	return (ssize_t)n;
}

/*
 * A read into a buffer that ends in an unmapped page fails (EFAULT) and
 * loses nothing: the records it could not copy come with the next read,
 * so the answer is the same records as a query read into good memory.
 * The range alternates populated and empty pages, so it is many records:
 * more than one batch of the module's.
 */
VMTEST_CASE(error, "efault_read_loses_nothing", efault_read_loses_nothing)
{
	size_t pages = 512, max = 1024, n_good, n_bad = 0;
	struct ptwalk_record_ext *good = calloc(max, sizeof(*good));
	struct ptwalk_record_ext *bad = calloc(max, sizeof(*bad));
	char *p = map_anon(t, pages * PAGE, MAP_PRIVATE | MAP_ANONYMOUS,
			   MADV_NOHUGEPAGE);
	char *buf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t room = 3 * sizeof(*good);
	int fd = open_query(t);
	ssize_t got;
	bool ok = p && good && bad && buf != MAP_FAILED && fd >= 0;

	if (ok)
		for (size_t i = 0; i < pages; i += 2)
			p[i * PAGE] = 1;
	ok = ok && !mprotect(buf + PAGE, PAGE, PROT_NONE);
	ok = ok && !ptwalk_query(fd, getpid(), A(p), A(p) + pages * PAGE) &&
	     (got = read_every(t, fd, good, max)) > 64;
	n_good = ok ? (size_t)got : 0;
	ok = ok && !ptwalk_query(fd, getpid(), A(p), A(p) + pages * PAGE);
	/* room for three records, asked for ten: the copy runs off the end */
	got = ok ? read(fd, buf + PAGE - room, 10 * sizeof(*good)) : 0;
	ok = ok && ((got < 0 && errno == EFAULT) ||
		    fail(t, "read into a buffer running into PROT_NONE: %zd (%s)",
			 got, got < 0 ? strerror(errno) : "no error"));
	if (ok && (got = read_every(t, fd, bad, max)) >= 0)
		n_bad = (size_t)got;
	ok = ok && ((n_bad == n_good && !memcmp(good, bad, n_good * sizeof(*good))) ||
		    fail(t, "after EFAULT: %zu records, %zu without it (first at 0x%llx, want 0x%llx)",
			 n_bad, n_good, (unsigned long long)bad[0].rec.start,
			 (unsigned long long)good[0].rec.start));
	if (fd >= 0)
		close(fd);
	if (buf != MAP_FAILED)
		munmap(buf, 2 * PAGE);
	if (p)
		munmap(p, pages * PAGE);
	free(good);
	free(bad);
	return ok;
}
