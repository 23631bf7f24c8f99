// SPDX-License-Identifier: GPL-2.0
/*
 * A 32-bit client of ptwalk.ko (built with -m32: build/compat32, copied to
 * the x86-64 guests as /bin/compat32), for the compat32_* cases of
 * tests/vm/cases_device.c: through PATH, the device or the debugfs query
 * file, it asks PTWALK_IOC_INFO and a range query of one page of its own
 * that it has written, prints what it got, and waits for its stdin to
 * close, so that the 64-bit case can walk the same page of this process and
 * compare.  Output, one line each:
 *   addr 0xADDR
 *   info RC ERRNO ABI_VERSION
 *   range RC ERRNO NRECS PFN LEVEL KIND     (after a successful info)
 * usage: compat32 PATH
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "module/ptwalk_abi.h"

static int info(int fd)
{
	struct ptwalk_info pi = { .size = sizeof(pi) };
	int rc = ioctl(fd, PTWALK_IOC_INFO, &pi);

	printf("info %d %d %u\n", rc, rc ? errno : 0, rc ? 0 : pi.abi_version);
	return rc;
}

static void range(int fd, uintptr_t page, long size)
{
	struct ptwalk_range_query q = {
		.size = sizeof(q), .pid = getpid(), .start = page,
		.end = page + (uintptr_t)size,
	};
	struct ptwalk_record_ext recs[4];
	ssize_t n = -1;
	int rc = ioctl(fd, PTWALK_IOC_RANGE, &q);

	if (!rc)
		n = read(fd, recs, sizeof(recs));
	if (rc || n < (ssize_t)sizeof(recs[0]))
		printf("range %d %d 0 0 0 0\n", rc ? rc : -1, errno);
	else
		printf("range 0 0 %d 0x%" PRIx64 " %u %u\n",
		       (int)(n / (ssize_t)sizeof(recs[0])), recs[0].rec.pfn,
		       recs[0].rec.level, recs[0].rec.kind);
}

int main(int argc, char **argv)
{
	static char buf[1 << 17];
	long size = sysconf(_SC_PAGESIZE);
	uintptr_t page = ((uintptr_t)buf + (uintptr_t)size - 1) &
			 ~((uintptr_t)size - 1);
	char c;
	int fd;

	if (argc != 2 || size <= 0 || size > (long)sizeof(buf) / 2) {
		fprintf(stderr, "usage: compat32 PATH\n");
		return 2;
	}
	memset((void *)page, 0x5a, (size_t)size);
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "compat32: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("addr 0x%" PRIxPTR "\n", page);
	if (!info(fd))
		range(fd, page, size);
	fflush(stdout);
	/* the page stays mapped until the caller has walked it too */
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	return 0;
}
