// SPDX-License-Identifier: GPL-2.0
/*
 * Demo target: maps memory of the kinds ptwalk is for, touches it, prints
 * "NAME START END" per mapping to the file given as argument, and sleeps
 * until killed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/mman.h>
#include "../fixture/fixture_abi.h"

#define MIB (1UL << 20)

static void report(FILE *f, const char *name, void *p, size_t len)
{
	if (p == MAP_FAILED || !p) {
		fprintf(stderr, "demo_target: cannot map %s\n", name);
		return;
	}
	memset(p, 0x11, name[0] == 'p' ? 0 : len); /* BARs: no writes */
	fprintf(f, "%s %p %p\n", name, p, (char *)p + len);
}

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;
	char *thp, *raw;
	glob_t g;
	int fd;

	if (!f)
		return 2;
	raw = mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	thp = (char *)(((uintptr_t)raw + 2 * MIB - 1) & ~(2 * MIB - 1));
	madvise(thp, 2 * MIB, MADV_HUGEPAGE);
	report(f, "thp", thp, 2 * MIB);
	report(f, "hugetlb_2m",
	       mmap(NULL, 2 * MIB, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB,
		    -1, 0), 2 * MIB);
	fd = open(PTWALK_FIXTURE_DEV, O_RDWR);
	if (fd >= 0)
		report(f, "remap_pfn_range",
		       mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			    fd, 0), 16 * 4096);
	/* QEMU's -vga std framebuffer: a real PCI BAR. */
	if (!glob("/sys/bus/pci/devices/*/resource0", 0, NULL, &g)) {
		size_t i;

		for (i = 0; i < g.gl_pathc; i++) {
			char vendor[64];
			FILE *v;

			snprintf(vendor, sizeof(vendor), "%.*s/vendor",
				 (int)(strlen(g.gl_pathv[i]) - 10), g.gl_pathv[i]);
			v = fopen(vendor, "r");
			if (!v || !fgets(vendor, sizeof(vendor), v) ||
			    strncmp(vendor, "0x1234", 6)) {
				if (v)
					fclose(v);
				continue;
			}
			fclose(v);
			fd = open(g.gl_pathv[i], O_RDWR | O_SYNC);
			if (fd >= 0)
				report(f, "pci_bar_vga",
				       mmap(NULL, 64 * 1024, PROT_READ,
					    MAP_SHARED, fd, 0), 64 * 1024);
			break;
		}
		globfree(&g);
	}
	fclose(f);
	for (;;)
		pause();
}
