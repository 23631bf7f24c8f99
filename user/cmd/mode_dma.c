// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --dma: the I/O around engine/dma_inventory.c.  The mappings
 * are read twice from ptwalk.ko; between the reads, each frame's
 * /proc/kpageflags word and the device's driver are read.  A finding is
 * reported only when the second read still holds the same mapping with
 * it, so that a mapping freed and unmapped between two reads is no false
 * alarm.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/mode_dma.h"
#include "engine/dma_inventory.h"
#include "io/pci_sysfs.h"
#include "io/proc_read.h"
#include "io/ptwalk_client.h"
#include "parse/iomem.h"
#include "report/diagnose.h"
#include "report/dma_inventory_print.h"

/* Mappings read at most: the module's own bound is dma_track_maps. */
#define DMA_MAX		65536

struct dma_read {
	struct ptwalk_dma_query q;
	struct ptwalk_dma_mapping *maps;
	unsigned int *findings;
	enum dma_frame *frames;
};

/* The first frame's kpageflags word: false if it cannot be read. */
static bool kpf_of(int kpf_fd, uint64_t phys, uint64_t *kpf)
{
	return kpf_fd >= 0 && phys != PTWALK_DMA_PHYS_NONE &&
	       proc_pread(kpf_fd, kpf, sizeof(*kpf),
			  (off_t)(phys / (uint64_t)sysconf(_SC_PAGESIZE) *
				  sizeof(*kpf)), NULL) ==
	       (ssize_t)sizeof(*kpf);
}

static int read_once(int fd, const char *device, int kpf_fd, bool bound,
		     struct dma_read *r, char *msg, size_t size)
{
	int err = ptwalk_dma_maps(fd, device, r->maps, DMA_MAX, &r->q);

	if (err)
		return (int)diagnose_dma_track(-err, device, false, msg, size);
	for (uint32_t i = 0; i < r->q.nr_maps; i++) {
		uint64_t kpf = 0;
		bool have = kpf_of(kpf_fd, r->maps[i].phys, &kpf);

		r->frames[i] = dma_frame_of(&r->maps[i], have, kpf);
		r->findings[i] = dma_findings_of(&r->maps[i], r->frames[i],
						 dma_frame_io_held(have, kpf),
						 bound);
	}
	return 0;
}

static bool read_alloc(struct dma_read *r)
{
	r->maps = calloc(DMA_MAX, sizeof(*r->maps));
	r->findings = calloc(DMA_MAX, sizeof(*r->findings));
	r->frames = calloc(DMA_MAX, sizeof(*r->frames));
	return r->maps && r->findings && r->frames;
}

static void read_free(struct dma_read *r)
{
	free(r->maps);
	free(r->findings);
	free(r->frames);
}

/* /proc/iomem's name of each MMIO frame, where iomem could be read. */
static void name_mmio(struct dma_item *items, size_t n)
{
	FILE *f = fopen("/proc/iomem", "re");
	struct iomem m = { 0 };
	char why[200];

	if (!f)
		return;
	if (!iomem_parse_file(&m, f, why, sizeof(why)))
		for (size_t i = 0; i < n; i++)
			if (items[i].frame == DMA_FRAME_MMIO)
				iomem_path(&m, iomem_find(&m, items[i].m.phys),
					   items[i].where,
					   sizeof(items[i].where));
	iomem_free(&m);
	fclose(f);
}

static int inventory(int fd, const struct cli_options *o,
		     struct dma_read *first, struct dma_read *again,
		     char *msg, size_t size)
{
	int kpf_fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	struct dma_inventory inv = { .device = o->dma, .q = &first->q };
	struct dma_item *items = NULL;
	char driver[64];
	bool bound;
	int status;

	pci_sysfs_driver(PCI_SYSFS_DEVICES, o->dma, driver, sizeof(driver));
	bound = driver[0];
	status = read_once(fd, o->dma, kpf_fd, bound, first, msg, size);
	if (!status)
		status = read_once(fd, o->dma, kpf_fd, bound, again, msg, size);
	if (kpf_fd >= 0)
		close(kpf_fd);
	if (status)
		return status;
	items = calloc(first->q.nr_maps ? first->q.nr_maps : 1, sizeof(*items));
	if (!items) {
		snprintf(msg, size, "out of memory for %u mappings",
			 first->q.nr_maps);
		return FAIL_INTERNAL;
	}
	for (uint32_t i = 0; i < first->q.nr_maps; i++) {
		items[i].m = first->maps[i];
		items[i].frame = first->frames[i];
		items[i].findings = dma_confirmed(&first->maps[i],
						  first->findings[i],
						  again->maps, again->findings,
						  again->q.nr_maps);
	}
	name_mmio(items, first->q.nr_maps);
	inv.driver = driver;
	inv.items = items;
	inv.n = first->q.nr_maps;
	if (o->json)
		dma_inventory_print_json(stdout, &inv);
	else
		dma_inventory_print_text(stdout, &inv);
	{
		unsigned int per[DMA_NR_FINDINGS];

		status = dma_inventory_count(&inv, per) ? EXIT_MISMATCH :
							  EXIT_OK;
	}
	free(items);
	return status;
}

int mode_dma(const struct cli_options *o, char *msg, size_t size)
{
	struct dma_read first = { 0 }, again = { 0 };
	enum failure why;
	struct endpoint ep;
	int fd, status;

	if (!read_alloc(&first) || !read_alloc(&again)) {
		read_free(&first);
		read_free(&again);
		snprintf(msg, size, "out of memory for the mappings of %s",
			 o->dma);
		return FAIL_INTERNAL;
	}
	fd = connect_ptwalk(o, &ep, &why, msg, size);
	status = fd < 0 ? (int)why : inventory(fd, o, &first, &again, msg,
						size);
	if (fd >= 0)
		close(fd);
	read_free(&first);
	read_free(&again);
	return status;
}
