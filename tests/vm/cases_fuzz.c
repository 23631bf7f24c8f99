// SPDX-License-Identifier: GPL-2.0
/*
 * A fuzzer for ptwalk's debugfs files: random and structured-but-wrong
 * requests, partial writes, reads of odd sizes and at offsets, bad user
 * pointers, every kind of target pid.  Every call must succeed or fail
 * with a documented errno; afterwards the module must still answer
 * correctly (checked against the oracle), and the VM lane fails on any
 * kernel warning the fuzzing caused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "vmtest.h"

#define FUZZ_CALLS	30000
#define FUZZ_SEED	0x5eed1234abcdULL

struct rng {
	uint64_t s;
};

static uint64_t next(struct rng *r)
{
	/* xorshift64*: reproducible from the seed printed with a failure */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static uint64_t pick(struct rng *r, const uint64_t *v, size_t n)
{
	return v[next(r) % n];
}

/* errnos the interface documents, plus EFAULT for bad pointers */
static bool documented(int err)
{
	switch (err) {
	case EINVAL: case E2BIG: case ERANGE: case ESRCH: case ENXIO:
	case ENODATA: case EFAULT: case ESPIPE: case ENOTTY:
		return true;
	default:
		return false;
	}
}

struct targets {
	pid_t self, zombie, gone;
	unsigned int outcome[134];	/* [0]: success, else errno */
};

static void count(struct targets *tg, ssize_t n)
{
	int k = n >= 0 ? 0 : errno;

	if (k >= 0 && k < (int)(sizeof(tg->outcome) / sizeof(tg->outcome[0])))
		tg->outcome[k]++;
}

/* Room for any query struct and a tail beyond it. */
union any_query {
	struct ptwalk_range_query range;
	struct ptwalk_vtop_query vtop;
	struct ptwalk_task_query task;
	unsigned char bytes[64];
};

static void random_request(struct rng *r, const struct targets *tg,
			   struct ptwalk_range_query *q)
{
	const uint64_t addrs[] = {
		0, 4096, 0x400000, 0x7f0000000000ULL, 0x7ffffffff000ULL,
		0x800000000000ULL, 0x100000000000000ULL, 0xfffffffffffff000ULL,
		~0ULL, 1, 0x1001, (uint64_t)-4096,
	};
	const uint64_t pids[] = {
		(uint64_t)tg->self, 1, 2, (uint64_t)tg->zombie,
		(uint64_t)tg->gone, 0, (uint64_t)-1, 0x7fffffff, 4194304,
	};

	q->size = next(r) % 4 ? sizeof(*q) : (uint32_t)(next(r) % 80);
	q->flags = next(r) % 8 ? 0 : (uint32_t)next(r);
	q->reserved = next(r) % 8 ? 0 : (uint32_t)next(r);
	q->pid = (int32_t)pick(r, pids, sizeof(pids) / sizeof(pids[0]));
	q->start = next(r) % 3 ? pick(r, addrs, sizeof(addrs) / sizeof(addrs[0])) :
				 next(r);
	q->end = next(r) % 3 ? pick(r, addrs, sizeof(addrs) / sizeof(addrs[0])) :
			       q->start + (next(r) % 64) * PAGE;
}

/* One fuzz step on the binary file; false (with t->why) on a bad answer. */
static bool step_query(struct vmtest *t, struct rng *r, int fd,
		       struct targets *tg, uint64_t i)
{
	static const unsigned long cmds[] = {
		PTWALK_IOC_RANGE, PTWALK_IOC_VTOP, PTWALK_IOC_TASK,
		PTWALK_IOC_INFO, _IO(PTWALK_IOC_TYPE, 0x55),
	};
	unsigned char buf[4 * sizeof(struct ptwalk_record_ext) + 16];
	union any_query q = { 0 };
	size_t len;
	ssize_t n;
	void *ptr = &q;

	switch (next(r) % 6) {
	case 0:	/* a structured query of any kind, its tail sometimes set */
	case 1:
		random_request(r, tg, &q.range);
		if (next(r) % 8 == 0)
			q.bytes[sizeof(q.range) + next(r) % 16] = 1;
		if (next(r) % 64 == 0)
			ptr = (void *)1;	/* bad user pointer */
		n = ioctl(fd, cmds[next(r) % 5], ptr);
		break;
	case 2:	/* random bytes: as a query, or a version 1 write */
		for (len = 0; len < sizeof(q.bytes); len++)
			q.bytes[len] = (unsigned char)next(r);
		n = next(r) % 2 ? ioctl(fd, cmds[next(r) % 5], &q) :
				  write(fd, &q, 32);
		break;
	case 3:	/* a read of an odd size */
	case 4:
		len = next(r) % sizeof(buf);
		if (next(r) % 64 == 0)
			ptr = (void *)1;
		n = read(fd, ptr, len);
		if (n > 0 && n % sizeof(struct ptwalk_record_ext) &&
		    n != sizeof(struct ptwalk_vtop) &&
		    n != sizeof(struct ptwalk_task))
			return fail(t, "call %" PRIu64 ": read of %zu gave %zd, not whole records",
				    i, len, n);
		break;
	default:	/* reads and writes at an offset */
		n = next(r) % 2 ? pread(fd, buf, sizeof(buf), (off_t)(next(r) % 4096)) :
				  pwrite(fd, buf, 32, (off_t)(next(r) % 4096));
		if (n >= 0)
			return fail(t, "call %" PRIu64 ": positioned I/O on a stream succeeded", i);
		break;
	}
	if (n < 0 && !documented(errno))
		return fail(t, "call %" PRIu64 ": undocumented errno %d (%s)", i,
			    errno, strerror(errno));
	count(tg, n);
	return true;
}

/* The text file: random lines, some of them valid. */
static bool step_text(struct vmtest *t, struct rng *r, int fd,
		      struct targets *tg, uint64_t i)
{
	char line[128], out[300];
	ssize_t n;

	switch (next(r) % 4) {
	case 0:
		snprintf(line, sizeof(line), "%d\n", (int)tg->self);
		break;
	case 1:
		snprintf(line, sizeof(line), "%d 0x%" PRIx64 " 0x%" PRIx64 "\n",
			 (int)(next(r) % 3 ? tg->self : (pid_t)next(r)),
			 next(r) % 2 ? (uint64_t)0x400000 : next(r),
			 next(r) % 2 ? (uint64_t)0x800000 : next(r));
		break;
	case 2: {
		size_t k, len = next(r) % (sizeof(line) - 1);

		for (k = 0; k < len; k++)
			line[k] = (char)(next(r) % 255 + 1);
		line[len] = '\0';
		break;
	}
	default:
		n = read(fd, out, next(r) % sizeof(out));
		if (n < 0 && !documented(errno))
			return fail(t, "text call %" PRIu64 ": errno %d", i, errno);
		count(tg, n);
		return true;
	}
	n = write(fd, line, strlen(line));
	if (n < 0 && !documented(errno))
		return fail(t, "text call %" PRIu64 ": undocumented errno %d (%s)",
			    i, errno, strerror(errno));
	count(tg, n);
	return true;
}

VMTEST_CASE(fuzz, "fuzz_debugfs", fuzz_debugfs)
{
	struct rng r = { FUZZ_SEED };
	struct targets tg = { .self = getpid() };
	const struct expect e = {
		.level = PTWALK_LEVEL_PTE, .present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_WRITE,
	};
	int qfd, tfd, status;
	uint64_t i;
	char *p;
	bool ok = true;

	tg.zombie = fork();
	if (tg.zombie == 0)
		_exit(0);
	tg.gone = fork();
	if (tg.gone == 0)
		_exit(0);
	waitpid(tg.gone, &status, 0);	/* reaped: a pid nobody has */
	usleep(100000);			/* the zombie is a zombie by now */
	qfd = ptwalk_open(PTWALK_DEFAULT_DEBUGFS, PTWALK_QUERY_FILE, O_RDWR);
	tfd = ptwalk_open(PTWALK_DEFAULT_DEBUGFS, PTWALK_TEXT_FILE, O_RDWR);
	if (qfd < 0 || tfd < 0)
		return fail(t, "open: %s", strerror(qfd < 0 ? -qfd : -tfd));
	for (i = 0; ok && i < FUZZ_CALLS; i++) {
		/* now and then a fresh session, to fuzz open/release too */
		if (next(&r) % 512 == 0) {
			close(qfd);
			qfd = ptwalk_open(PTWALK_DEFAULT_DEBUGFS,
					  PTWALK_QUERY_FILE, O_RDWR);
			if (qfd < 0)
				return fail(t, "reopen: %s", strerror(-qfd));
		}
		ok = next(&r) % 5 ? step_query(t, &r, qfd, &tg, i) :
				    step_text(t, &r, tfd, &tg, i);
	}
	close(qfd);
	close(tfd);
	waitpid(tg.zombie, &status, 0);
	if (!ok)
		return fail(t, "%s (seed 0x%llx)", t->why,
			    (unsigned long long)FUZZ_SEED);
	printf("# fuzz: %d calls on query and text, seed 0x%llx: %u succeeded",
	       FUZZ_CALLS, (unsigned long long)FUZZ_SEED, tg.outcome[0]);
	for (i = 1; i < sizeof(tg.outcome) / sizeof(tg.outcome[0]); i++)
		if (tg.outcome[i])
			printf(", %u %s", tg.outcome[i], strerrorname_np((int)i));
	printf("\n");
	/* still answering correctly */
	p = map_anon(t, 16 * PAGE, MAP_PRIVATE | MAP_ANONYMOUS,
		     MADV_NOHUGEPAGE);
	if (!p)
		return false;
	touch_write(p, 16 * PAGE);
	ok = check_range(t, (uint64_t)(uintptr_t)p,
			 (uint64_t)(uintptr_t)p + 16 * PAGE, 1, &e);
	munmap(p, 16 * PAGE);
	return ok;
}
