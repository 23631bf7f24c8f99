// SPDX-License-Identifier: GPL-2.0
#include "engine/jobs.h"
#include "model/defaults.h"
#include "module/ptwalk_abi.h"
#include "module/ptwalk_version.h"
#include "report/usage.h"

void usage_print(FILE *f)
{
	fprintf(f,
		"usage: ptcompare [--json] [--stats] [--no-progress] [--kpageflags]\n"
		"                 [--jobs N] [--range START-END] [--debugfs DIR]\n"
		"                 [--device DEV] PID\n"
		"       ptcompare [--json] [--debugfs DIR] [--device DEV] PID ADDR\n"
		"                 (or --vtop ADDR PID)\n"
		"       ptcompare [--json] --iommu DEVICE [--dma-api] [--iova IOVA] --range START-END PID\n"
		"       ptcompare [--json] --iommu DEVICE IOVA\n"
		"       ptcompare [--json] [--debugfs DIR] [--device DEV] --phys ADDR[-END]\n"
		"       ptcompare [--json] [--stats] [--kpageflags] [--jobs N] --all\n"
		"       ptcompare [--json] --watch SECONDS [--interval MS] --range START-END PID\n"
		"Compares, page by page, the frames /proc/PID/pagemap reports with those\n"
		"ptwalk.ko finds in the process's page tables, and explains every difference.\n"
		"With ADDR, translates that one address level by level instead (like crash's vtop).\n"
		"  --json             one JSON document instead of the report\n"
		"  --range START-END  only this range (hex, END exclusive, page aligned),\n"
		"                     with its DMA view: contiguous runs, 4 GiB, holes, locking\n"
		"  --vtop ADDR        translate ADDR (hex, any alignment): entries per level,\n"
		"                     frame, physical address, VMA, pagemap's entry, verdict\n"
		"  --all              every user process: a row each, the findings of all,\n"
		"                     memtype conflicts across processes\n"
		"  --watch SECONDS    read --range again and again for SECONDS and print\n"
		"                     each change of a page's frame or state, with its\n"
		"                     cause; a DMA-pinned page that moves is a finding\n"
		"  --interval MS      between readings of --watch (default 250)\n"
		"  --phys ADDR[-END]  who maps these frames (hex physical, END exclusive):\n"
		"                     every mapping in every process, its memory type,\n"
		"                     and frames mapped with different memory types\n"
		"  --debugfs DIR      debugfs mount point (default %s)\n"
		"  --device DEV       ptwalk's device (default %s), used when debugfs\n"
		"                     cannot be (kernel lockdown); --debugfs or --device\n"
		"                     alone: only that one is tried\n"
		"  --iommu DEVICE     the device's view: what DEVICE's IOMMU domain (a PCI\n"
		"                     address, e.g. 0000:00:03.0) translates each page to,\n"
		"                     beside the page tables' frame; or one device address\n"
		"  --iova IOVA        device address of START (default: START, IOVA = VA)\n"
		"  --dma-api          read a kernel DMA-API domain too (a risk: ptcompare(1))\n"
		"  --stats            print what was read and the peak memory on stderr\n"
		"  --kpageflags       cross-check present frames with /proc/kpageflags too\n"
		"                     (a third witness; it reads 8 bytes per frame)\n"
		"  --jobs N           scan with N threads at once (1 to %d; default: the\n"
		"                     online CPUs, at most %d); the report is the same\n"
		"  --no-progress      no progress line on stderr (shown on a terminal\n"
		"                     when a scan takes more than a second)\n"
		"  -h, --help, --version\n"
		"Exit status: 0 every page explained, 1 a mismatch (or a memtype\n"
		"conflict) remains, 2 usage,\n"
		"3 ptwalk not loaded, 4 lockdown, 5 privilege, 6 no such process,\n"
		"7 exited during the scan, 8 no user memory, 9 internal or I/O error,\n"
		"10 no such device, 11 no IOMMU group, 12 IOMMU domain unreadable or\n"
		"unsupported, 13 IOVA outside the aperture.\n",
		PTWALK_DEFAULT_DEBUGFS, PTWALK_DEFAULT_DEVICE, JOBS_MAX, JOBS_MAX);
}

void version_print(FILE *f, const char *interface)
{
	fprintf(f, "ptcompare %s (ptwalk ABI %d)\n%s\n", PTWALK_VERSION,
		PTWALK_ABI_VERSION, interface);
}
