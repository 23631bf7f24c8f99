// SPDX-License-Identifier: GPL-2.0
/* Finding, stopping and continuing the owners of a device's domain. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/kcmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "io/domain_owner.h"
#include "io/proc_read.h"
#include "io/source.h"
#include "io/vfio_owner.h"
#include "model/array.h"
#include "parse/task_state.h"

#define VFIO_CONTAINER	"/dev/vfio/vfio"
#define IOMMUFD		"/dev/iommu"
#define VFIO_DEVICE_ANON "anon_inode:[vfio-device]"
/* The guard closes the fds below this (a bound on the loop, not a size). */
#define GUARD_CLOSE_MAX	1024
/* A process's container or iommufd files looked at, at most. */
#define DOMAIN_FDS_MAX	8

/* What one process holds of the device's. */
struct holder {
	pid_t pid;
	bool device;		/* the group, the cdev or a device file */
	int domain_fd[DOMAIN_FDS_MAX];	/* container or iommufd fds */
	size_t nr_domain_fds;
};

/* Reads a small /proc file into buf (NUL-terminated): length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* Whether fd of pid is a VFIO device file of bdf (fdinfo, 6.9 on). */
static bool device_file_of(pid_t pid, const char *fd, const char *bdf)
{
	char path[300], info[1024];

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", (int)pid, fd);
	return read_small(path, info, sizeof(info)) > 0 &&
	       fdinfo_is_vfio_device(info, bdf);
}

struct holder_scan {
	const char *bdf;
	const struct vfio_files *f;
	struct holder *h;
};

/* One open file of h's process: the device's, a domain's, or neither. */
static bool holder_file(const char *fd, const char *link, void *arg)
{
	const struct holder_scan *sc = arg;
	const struct vfio_files *f = sc->f;
	struct holder *h = sc->h;

	if ((f->group[0] && !strcmp(link, f->group)) ||
	    (f->cdev[0] && !strcmp(link, f->cdev)) ||
	    (!strcmp(link, VFIO_DEVICE_ANON) &&
	     device_file_of(h->pid, fd, sc->bdf)))
		h->device = true;
	else if ((!strcmp(link, VFIO_CONTAINER) || !strcmp(link, IOMMUFD)) &&
		 h->nr_domain_fds < DOMAIN_FDS_MAX)
		h->domain_fd[h->nr_domain_fds++] = atoi(fd);
	return false;
}

/* What pid holds of f's and of bdf's, from /proc/PID/fd, into h. */
static void holder_scan(pid_t pid, const char *bdf,
			const struct vfio_files *f, struct holder *h)
{
	struct holder_scan sc = { .bdf = bdf, .f = f, .h = h };

	memset(h, 0, sizeof(*h));
	h->pid = pid;
	proc_fd_each(pid, holder_file, &sc);
}

/*
 * Whether a and b hold one open file among their container and iommufd
 * files; true too where kcmp() cannot tell (see domain_owner.h).
 */
static bool share_domain_file(const struct holder *a, const struct holder *b)
{
	for (size_t i = 0; i < a->nr_domain_fds; i++)
		for (size_t j = 0; j < b->nr_domain_fds; j++) {
			long r = syscall(SYS_kcmp, a->pid, b->pid, KCMP_FILE,
					 a->domain_fd[i], b->domain_fd[j]);

			if (r == 0 || (r < 0 && errno != EBADF &&
				       errno != ESRCH))
				return true;
		}
	return false;
}

static bool add_owner(struct domain_owners *ow, pid_t pid)
{
	struct domain_owner *o;

	if (ow->n == DOMAIN_OWNERS_MAX) {
		ow->why = OWNER_TOO_MANY;
		return false;
	}
	o = &ow->o[ow->n++];
	memset(o, 0, sizeof(*o));
	o->pid = pid;
	proc_comm(pid, o->comm, sizeof(o->comm));
	return true;
}

void domain_owners_find(const char *bdf, struct domain_owners *ow)
{
	struct holder *h = NULL;
	struct vfio_files f;
	size_t nr_h = 0, cap = 0;
	pid_t *pids;
	long n;

	memset(ow, 0, sizeof(*ow));
	vfio_files_of(bdf, &f);
	n = proc_list_pids(&pids);
	if (n < 0) {
		ow->why = OWNER_SYSTEM;
		ow->err = (int)-n;
		return;
	}
	/* those holding the device or a domain file */
	for (long i = 0; i < n; i++) {
		struct holder one, *grown;

		holder_scan(pids[i], bdf, &f, &one);
		if (!one.device && !one.nr_domain_fds)
			continue;
		grown = array_grow(h, &cap, nr_h + 1, sizeof(*h), 16, 0);
		if (!grown) {
			ow->why = OWNER_SYSTEM;
			ow->err = ENOMEM;
			goto out;
		}
		h = grown;
		h[nr_h++] = one;
	}
	for (size_t i = 0; i < nr_h; i++)
		if (h[i].device && !add_owner(ow, h[i].pid))
			goto out;
	/* and those sharing a device holder's container or iommufd */
	for (size_t i = 0; i < nr_h; i++) {
		if (h[i].device)
			continue;
		for (size_t j = 0; j < nr_h; j++)
			if (h[j].device && share_domain_file(&h[i], &h[j])) {
				if (!add_owner(ow, h[i].pid))
					goto out;
				break;
			}
	}
out:
	free(h);
	if (n > 0)
		free(pids);
}

/* Every thread of pid, state by state: 1 all still, 0 not, -errno. */
static int threads_still(pid_t pid, bool stopped_only, pid_t *tid,
			 char *state)
{
	char path[64];
	struct dirent *de;
	int all = 1, seen = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while (all && (de = readdir(dir))) {
		char stat[PATH_MAX], line[512];
		char s;

		if (de->d_name[0] == '.')
			continue;
		snprintf(stat, sizeof(stat), "%s/%s/stat", path, de->d_name);
		if (read_small(stat, line, sizeof(line)) <= 0)
			continue;	/* a thread gone meanwhile */
		s = task_stat_state(line);
		seen++;
		if (stopped_only ? !task_state_stopped(s) :
				   !task_state_still(s)) {
			all = 0;
			*tid = (pid_t)atoi(de->d_name);
			*state = s;
		}
	}
	closedir(dir);
	return seen ? all : -ESRCH;
}

static pid_t tracer_of(pid_t pid)
{
	char path[64], status[4096];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	return read_small(path, status, sizeof(status)) > 0 ?
	       task_status_tracer(status) : 0;
}

/* The guard's side: pids in, SIGCONT to them at end of file unless 0. */
static void guard_run(int fd)
{
	pid_t held[DOMAIN_OWNERS_MAX], pid;
	size_t n = 0;
	ssize_t got;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	for (;;) {
		got = read(fd, &pid, sizeof(pid));
		if (got < 0 && errno == EINTR)
			continue;
		if (got != sizeof(pid))
			break;
		if (!pid)
			n = 0;		/* continued by ptcompare itself */
		else if (n < DOMAIN_OWNERS_MAX)
			held[n++] = pid;
	}
	for (size_t i = 0; i < n; i++)
		kill(held[i], SIGCONT);
	_exit(0);
}

static int guard_start(struct owner_guard *g)
{
	int p[2];
	long max = sysconf(_SC_OPEN_MAX);

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	g->pid = fork();
	if (g->pid < 0) {
		int err = errno;

		close(p[0]);
		close(p[1]);
		g->pid = 0;
		return -err;
	}
	if (g->pid == 0) {
		/* nothing of ptcompare's held open: stdout's pipe above all */
		if (max < 0 || max > GUARD_CLOSE_MAX)
			max = GUARD_CLOSE_MAX;
		for (int fd = 0; fd < max; fd++)
			if (fd != p[0])
				close(fd);
		guard_run(p[0]);
	}
	close(p[0]);
	g->fd = p[1];
	return 0;
}

static bool guard_tell(struct owner_guard *g, pid_t pid)
{
	return write(g->fd, &pid, sizeof(pid)) == sizeof(pid);
}

static void guard_end(struct owner_guard *g)
{
	if (g->fd >= 0)
		close(g->fd);
	g->fd = -1;
	if (g->pid > 0)
		while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
			;
	g->pid = 0;
}

static bool refuse(struct domain_owners *ow, size_t i, enum owner_refusal why,
		   struct owner_guard *g)
{
	ow->why = why;
	ow->culprit = i;
	domain_owners_continue(ow, g);
	return false;
}

/* Sends SIGSTOP to owner i unless it is stopped already: true, or refused. */
static bool stop_one(struct domain_owners *ow, size_t i, struct owner_guard *g)
{
	struct domain_owner *o = &ow->o[i];
	pid_t tid;
	char state;
	int still = threads_still(o->pid, true, &tid, &state);

	if (still == -ESRCH)
		return refuse(ow, i, OWNER_EXITED, g);
	if (still == 1) {
		o->state = OWNER_WAS_STOPPED;
		return true;
	}
	ow->tracer = tracer_of(o->pid);
	if (ow->tracer > 0)
		return refuse(ow, i, OWNER_TRACED, g);
	if (!guard_tell(g, o->pid)) {
		ow->err = EPIPE;
		return refuse(ow, i, OWNER_SYSTEM, g);
	}
	if (kill(o->pid, SIGSTOP))
		return refuse(ow, i, errno == ESRCH ? OWNER_EXITED :
				     OWNER_NO_PERMISSION, g);
	o->state = OWNER_STOPPED_BY_US;
	o->held_ns = monotonic_ns();	/* the start, until continued */
	return true;
}

bool domain_owners_stop(struct domain_owners *ow, struct owner_guard *g)
{
	uint64_t deadline;
	int err;

	g->pid = 0;
	g->fd = -1;
	err = guard_start(g);
	if (err) {
		ow->why = OWNER_SYSTEM;
		ow->err = -err;
		return false;
	}
	for (size_t i = 0; i < ow->n; i++)
		if (!stop_one(ow, i, g))
			return false;
	deadline = monotonic_ns() + OWNER_STOP_TIMEOUT_MS * 1000000ULL;
	for (size_t i = 0; i < ow->n;) {
		struct timespec ms = { 0, 1000000 };
		int still = ow->o[i].state != OWNER_STOPPED_BY_US ? 1 :
			    threads_still(ow->o[i].pid, false, &ow->thread,
					  &ow->thread_state);

		if (still == 1) {
			i++;
			continue;
		}
		if (still < 0)
			return refuse(ow, i, OWNER_EXITED, g);
		if (monotonic_ns() >= deadline)
			return refuse(ow, i, OWNER_TIMEOUT, g);
		nanosleep(&ms, NULL);
	}
	return true;
}

void domain_owners_continue(struct domain_owners *ow, struct owner_guard *g)
{
	uint64_t now;

	for (size_t i = 0; i < ow->n; i++) {
		struct domain_owner *o = &ow->o[i];

		if (o->state != OWNER_STOPPED_BY_US)
			continue;
		kill(o->pid, SIGCONT);
		now = monotonic_ns();
		o->held_ns = now > o->held_ns ? now - o->held_ns : 0;
	}
	if (g->fd >= 0)
		guard_tell(g, 0);
	guard_end(g);
}
