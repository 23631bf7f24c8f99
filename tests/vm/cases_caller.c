// SPDX-License-Identifier: GPL-2.0
/*
 * Who asks, call by call: ptwalk checks the capabilities of the process
 * that makes each query and read, not only of the one that opened the
 * file, and reads pids in the pid namespace the file was opened in
 * (docs/interface.md).  The oracle is the kernel's own view of the same
 * processes: their names in /proc and prctl(PR_SET_NAME).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include "vmtest.h"

/* Every capability of this process gone: effective, permitted, inherited. */
static int drop_all_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { { 0 } };

	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

/* A task query's answer (its comm into comm): 0 or -errno. */
static int task_comm(int fd, pid_t pid, char *comm, pid_t *tgid)
{
	struct ptwalk_task task;
	int err = ptwalk_query_task(fd, pid, &task);

	if (!err) {
		memcpy(comm, task.comm, PTWALK_COMM_LEN);
		comm[PTWALK_COMM_LEN - 1] = 0;
		if (tgid)
			*tgid = task.pid == pid ? task.tgid : -1;
	}
	return err;
}

/* One range query of pid 1's first 16 pages and one read: 0 or -errno. */
static int range_of_init(int fd)
{
	struct ptwalk_record rec[4];
	int err = ptwalk_query(fd, 1, 0, 16 * PAGE);
	ssize_t n = err ? err : ptwalk_read(fd, rec, 4);

	return n < 0 ? (int)n : n ? 0 : -ENODATA;
}

/*
 * In a child: what fd answers once the caller has no capability left,
 * as an exit status: 0 when every call is refused with EPERM, else which
 * call answered (a started range query's read, a task query, a range
 * query of pid 1).
 */
static int refused_without_caps(int fd, bool started)
{
	struct ptwalk_record rec[4];
	char comm[PTWALK_COMM_LEN];

	if (drop_all_caps())
		return 10;
	if (started && ptwalk_read(fd, rec, 4) != -EPERM)
		return 11;
	if (task_comm(fd, 1, comm, NULL) != -EPERM)
		return 12;
	if (range_of_init(fd) != -EPERM)
		return 13;
	return 0;
}

static const char *refusal_name(int status)
{
	switch (status) {
	case 10: return "capset";
	case 11: return "the read of a range query started before the drop answered";
	case 12: return "a task query of pid 1 answered";
	case 13: return "a range query of pid 1 answered";
	case 14: return "no fd came over the socket";
	default: return "the child failed";
	}
}

static bool child_status(struct vmtest *t, pid_t pid, const char *who)
{
	int status;

	if (pid < 0)
		return fail(t, "fork: %s", strerror(errno));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return fail(t, "%s: status 0x%x", who, status);
	return !WEXITSTATUS(status) ||
	       fail(t, "%s: %s (exit %d)", who,
		    refusal_name(WEXITSTATUS(status)), WEXITSTATUS(status));
}

/*
 * A process that opened ptwalk with every capability and then dropped
 * them all: the task and range queries of pid 1, and the rest of a range
 * query it started before, are refused (EPERM).  The same fd answered
 * both queries before the drop.
 */
VMTEST_CASE(error, "caps_dropped_after_open", caps_dropped_after_open)
{
	char comm[PTWALK_COMM_LEN];
	pid_t pid;
	int fd, err;

	fd = vm_open_query(t);
	if (fd < 0)
		return false;
	err = task_comm(fd, 1, comm, NULL);
	if (!err)
		err = range_of_init(fd);
	if (err) {
		close(fd);
		return fail(t, "with every capability, pid 1: %s",
			    strerror(-err));
	}
	pid = fork();
	if (pid == 0)
		_exit(refused_without_caps(fd, false));
	if (!child_status(t, pid, "dropped after open")) {
		close(fd);
		return false;
	}
	err = ptwalk_query(fd, 1, 0, 16 * PAGE);
	pid = err ? -1 : fork();
	if (pid == 0)
		_exit(refused_without_caps(fd, true));
	close(fd);
	if (err)
		return fail(t, "range query of pid 1: %s", strerror(-err));
	return child_status(t, pid, "dropped after a query started");
}

/* Sends fd over the socket sock (SCM_RIGHTS): 0 or -1. */
static int send_fd(int sock, int fd)
{
	char byte = 0, ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/* The fd that came over sock, or -1. */
static int recv_fd(int sock)
{
	char byte, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *c;
	int fd = -1;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/*
 * The file handed over SCM_RIGHTS to a child that gave up every
 * capability before it got it (uid 65534 too): refused, its started
 * query too.
 */
VMTEST_CASE(error, "caps_fd_passed_to_unprivileged", caps_fd_passed)
{
	int sv[2], fd;
	pid_t pid;
	bool ok;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return fail(t, "socketpair: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		int got;

		close(sv[0]);
		if (setgid(65534) || setuid(65534))
			_exit(10);
		got = recv_fd(sv[1]);
		_exit(got < 0 ? 14 : refused_without_caps(got, true));
	}
	close(sv[1]);
	fd = pid < 0 ? -1 : vm_open_query(t);
	ok = fd >= 0 && !ptwalk_query(fd, 1, 0, 16 * PAGE) &&
	     !send_fd(sv[0], fd);
	if (fd >= 0)
		close(fd);
	close(sv[0]);
	if (!ok && pid > 0) {
		waitpid(pid, NULL, 0);
		return fail(t, "opening, querying pid 1 or sending the fd failed: %s",
			    strerror(errno));
	}
	return child_status(t, pid, "fd passed to uid 65534");
}

/* /proc/PID/comm of pid in this process's namespace into comm. */
static bool proc_comm(pid_t pid, char *comm, size_t size)
{
	char path[32];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	ok = f && fgets(comm, (int)size, f);
	if (f)
		fclose(f);
	if (ok)
		comm[strcspn(comm, "\n")] = 0;
	return ok;
}

#define NS_NAME	"ptwalk-nsinit"

/*
 * In pid 1 of a new pid namespace (its name NS_NAME): inherited, the fd
 * its grandparent opened in the initial namespace (pid 1 is the initial
 * namespace's, init_comm; outside, this namespace's creator); own, one it
 * opens itself (pid 1 is itself, outside is ESRCH).  0, or which answer
 * was wrong.
 */
static int ns_init_checks(const char *query_path, int inherited,
			  pid_t outside, const char *init_comm)
{
	char comm[PTWALK_COMM_LEN];
	pid_t tgid;
	int own;

	if (getpid() != 1 || prctl(PR_SET_NAME, NS_NAME))
		return 20;
	own = open(query_path, O_RDWR | O_CLOEXEC);
	if (own < 0)
		return 21;
	if (task_comm(own, 1, comm, &tgid) || strcmp(comm, NS_NAME) ||
	    tgid != 1)
		return 22;
	if (task_comm(own, outside, comm, NULL) != -ESRCH)
		return 23;
	if (range_of_init(own))
		return 24;
	if (task_comm(inherited, 1, comm, &tgid) ||
	    strncmp(comm, init_comm, PTWALK_COMM_LEN - 1) || tgid != 1)
		return 25;
	if (task_comm(inherited, outside, comm, &tgid) || tgid != outside)
		return 26;
	return 0;
}

static const char *ns_failure(int status)
{
	switch (status) {
	case 20: return "not pid 1 of the new namespace";
	case 21: return "could not open ptwalk there";
	case 22: return "its own fd: pid 1 is not itself (tgid 1)";
	case 23: return "its own fd: a pid outside its namespace is not ESRCH";
	case 24: return "its own fd: no range of pid 1";
	case 25: return "the inherited fd: pid 1 is not the initial namespace's init";
	case 26: return "the inherited fd: the pid outside, its tgid, not found as its opener numbers it";
	case 30: return "unshare(CLONE_NEWPID)";
	default: return "the child failed";
	}
}

/*
 * A caller in a child pid namespace (unshare(CLONE_NEWPID), then fork:
 * the grandchild is its pid 1).  With a file it opened there, pid 1 is
 * itself and a pid of the initial namespace is ESRCH; with a file opened
 * in the initial namespace and inherited, the pids are that namespace's.
 */
VMTEST_CASE(error, "pid_namespace_child", pid_namespace_child)
{
	char init_comm[64];
	int fd, status;
	pid_t pid;

	if (!proc_comm(1, init_comm, sizeof(init_comm)))
		return fail(t, "/proc/1/comm: %s", strerror(errno));
	if (!strcmp(init_comm, NS_NAME))
		return fail(t, "the guest's init is called %s", NS_NAME);
	fd = vm_open_query(t);
	if (fd < 0)
		return false;
	pid = fork();
	if (pid == 0) {
		pid_t me = getpid(), g;

		if (unshare(CLONE_NEWPID))
			_exit(30);
		g = fork();
		if (g == 0)
			_exit(ns_init_checks(t->query_path, fd, me,
					     init_comm));
		if (g < 0 || waitpid(g, &status, 0) != g ||
		    !WIFEXITED(status))
			_exit(31);
		_exit(WEXITSTATUS(status));
	}
	close(fd);
	if (pid < 0)
		return fail(t, "fork: %s", strerror(errno));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return fail(t, "child: status 0x%x", status);
	if (WEXITSTATUS(status))
		return fail(t, "in the child namespace: %s (exit %d)",
			    ns_failure(WEXITSTATUS(status)),
			    WEXITSTATUS(status));
	printf("# pid_namespace_child: pid 1 is %s through the inherited fd, %s through its own\n",
	       init_comm, NS_NAME);
	return true;
}
