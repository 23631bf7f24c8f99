// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --iommu: the I/O around engine/device_view.c.  One ptwalk
 * session asks first the device view (the IOMMU's records over the device
 * addresses), then the page tables over the virtual range; /proc/iomem
 * names the frames, sysfs the driver.  The two answers are taken one
 * after the other, so a change between them shows as a difference: the
 * report is a snapshot, as every ptcompare report is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/domain_read.h"
#include "cmd/mode_iommu.h"
#include "engine/device_view.h"
#include "io/pci_sysfs.h"
#include "io/source.h"
#include "io/ptwalk_client.h"
#include "model/page.h"
#include "parse/iommu_record.h"
#include "report/device_print.h"
#include "report/diagnose.h"

/* Records read per read(). */
#define READ_BATCH 256

static ssize_t read_iommu_batch(int fd, void *buf, size_t max)
{
	return ptwalk_read_iommu(fd, buf, max);
}

static ssize_t read_walk_batch(int fd, void *buf, size_t max)
{
	return ptwalk_read(fd, buf, max);
}

/* The device's side: records over [iova, iova + len), checked. */
static int query_device(int fd, const struct cli_options *o,
			struct domain_reader *dr, const char *driver,
			uint64_t iova, uint64_t len, unsigned int shift,
			struct ptwalk_iommu_record **recs, size_t *n,
			char *msg, size_t size)
{
	char why[200], type[32];
	ssize_t got;
	int err;

	domain_reader_init(dr, fd, o->iommu, o->live_domain, o->dma_api, true);
	err = domain_read_start(dr, fd, iova, iova + len);
	pci_sysfs_group_type(PCI_SYSFS_DEVICES, o->iommu, type, sizeof(type));
	if (err == -EAGAIN && dr->owners.why != OWNER_OK)
		return (int)diagnose_owner(o->iommu, driver, &dr->owners, msg,
					   size);
	if (err)
		return (int)diagnose_iommu(-err, o->iommu, type, iova,
					   iova + len, msg, size);
	got = ptwalk_read_all(fd, sizeof(**recs), READ_BATCH, read_iommu_batch,
			      (void **)recs);
	domain_read_end(dr, got > 0 ? (*recs)[0].domain : PTWALK_IOMMU_NONE);
	if (got < 0)
		return (int)diagnose_iommu_read((int)-got, o->iommu, type,
						iova, iova + len, msg, size);
	*n = (size_t)got;
	if (!iommu_check_partition(*recs, *n, iova, iova + len,
				   shift, why, sizeof(why))) {
		snprintf(msg, size, "ptwalk's device records are malformed: %s",
			 why);
		free(*recs);
		*recs = NULL;
		return FAIL_INTERNAL;
	}
	return EXIT_OK;
}

static void fill_info(struct device_info *d, const struct ptwalk_iommu_record *r,
		      const struct domain_reader *dr)
{
	d->read = dr->how;
	d->owners = &dr->owners;
	d->domain = r->domain;
	d->aperture_start = r->aperture_start;
	d->aperture_end = r->aperture_end;
}

/* --iommu DEVICE IOVA: one device address. */
static int translate_one(int fd, const struct cli_options *o,
			 struct device_info *d, char *msg, size_t size)
{
	struct ptwalk_iommu_record *recs = NULL;
	struct domain_reader dr;
	size_t n = 0;
	int status, err;

	status = query_device(fd, o, &dr, d->driver, o->iova,
			      1ULL << d->page_shift, d->page_shift, &recs, &n,
			      msg, size);
	if (status != EXIT_OK)
		return status;
	fill_info(d, &recs[0], &dr);
	err = 0;
	if (o->json)
		err = device_translate_json(stdout, d, o->iova, recs[0].pfn);
	else
		device_translate_text(stdout, d, o->iova, recs[0].pfn);
	free(recs);
	return diagnose_output(err, stdout, msg, size);
}

/* --iommu DEVICE [--iova IOVA] --range START-END PID. */
static int iommu_compare_range(int fd, const struct cli_options *o,
			 struct device_info *d, char *msg, size_t size)
{
	struct ptwalk_iommu_record *dev = NULL;
	struct ptwalk_record *walk = NULL;
	struct device_view v = { 0 };
	struct domain_reader dr;
	size_t nr_dev = 0;
	ssize_t nr_walk;
	char comm[64], why[200];
	int status, err;

	status = query_device(fd, o, &dr, d->driver, o->iova,
			      o->end - o->start, d->page_shift, &dev, &nr_dev,
			      msg, size);
	if (status != EXIT_OK)
		return status;
	fill_info(d, &dev[0], &dr);
	err = ptwalk_query(fd, o->pid, o->start, o->end);
	if (err) {
		status = (int)diagnose_query(-err, o->pid, msg, size);
		goto out;
	}
	nr_walk = ptwalk_read_all(fd, sizeof(*walk), READ_BATCH, read_walk_batch,
				  (void **)&walk);
	if (nr_walk < 0) {
		status = (int)diagnose_scan((int)-nr_walk, o->pid,
					    proc_alive(o->pid), msg, size);
		goto out;
	}
	if (!ptwalk_check_partition(walk, (size_t)nr_walk, o->start, o->end,
				    d->page_shift, why, sizeof(why))) {
		snprintf(msg, size, "ptwalk's records are malformed: %s", why);
		status = FAIL_INTERNAL;
		goto out;
	}
	if (device_view_build(&v, walk, (size_t)nr_walk, dev, nr_dev, o->start,
			      o->end, o->iova, d->page_shift)) {
		snprintf(msg, size, "out of memory for the device view");
		status = FAIL_INTERNAL;
		goto out;
	}
	proc_comm(o->pid, comm, sizeof(comm));
	d->comm = comm;
	err = 0;
	if (o->json)
		err = device_print_json(stdout, d, &v);
	else
		device_print_text(stdout, d, &v);
	status = diagnose_output(err, stdout, msg, size);
	if (status == EXIT_OK && v.pages[DEVICE_STALE])
		status = EXIT_MISMATCH;
out:
	device_view_free(&v);
	free(walk);
	free(dev);
	return status;
}

int mode_iommu(const struct cli_options *o, char *msg, size_t size)
{
	struct page_geom geom;
	char driver[64];
	struct device_info d = {
		.name = o->iommu, .driver = driver, .pid = o->pid,
		.start = o->start, .end = o->end, .iova_start = o->iova,
		.iova_as_va = !o->has_iova && !o->iommu_translate,
	};
	struct iomem iomem = { 0 };
	struct endpoint ep;
	enum failure why;
	int fd, status;

	if (!pci_sysfs_exists(PCI_SYSFS_DEVICES, o->iommu)) {
		snprintf(msg, size,
			 "no PCI device %s: see /sys/bus/pci/devices (lspci -D)",
			 o->iommu);
		return FAIL_NO_DEVICE;
	}
	/*
	 * Without an IOMMU a device address is physical: it can match a
	 * process's virtual addresses only where the user says which
	 * device address the range starts at.
	 */
	if (d.iova_as_va && !pci_sysfs_has_group(PCI_SYSFS_DEVICES, o->iommu)) {
		snprintf(msg, size,
			 "device %s has no IOMMU group, so its addresses are physical: IOVA = VA cannot hold; give --iova",
			 o->iommu);
		return FAIL_NO_GROUP;
	}
	pci_sysfs_driver(PCI_SYSFS_DEVICES, o->iommu, driver, sizeof(driver));
	fd = connect_ptwalk(o, &ep, &why, msg, size);
	if (fd < 0)
		return (int)why;
	if (connect_geometry(&ep, &geom, msg, size)) {
		close(fd);
		return FAIL_NO_MODULE;
	}
	d.page_shift = geom.shift;
	if ((o->iova & geom_page_mask(&geom)) ||
	    (!o->iommu_translate &&
	     cli_check_range_pages(o->start, o->end, geom_page_size(&geom),
				   msg, size))) {
		if (o->iova & geom_page_mask(&geom))
			snprintf(msg, size,
				 "bad IOVA 0x%llx: a device address must be a multiple of the kernel's page size, 0x%llx",
				 (unsigned long long)o->iova,
				 (unsigned long long)geom_page_size(&geom));
		close(fd);
		return FAIL_USAGE;
	}
	if (proc_iomem_load(&iomem))
		d.iomem = &iomem;
	if (o->iommu_translate)
		status = translate_one(fd, o, &d, msg, size);
	else
		status = iommu_compare_range(fd, o, &d, msg, size);
	iomem_free(&iomem);
	close(fd);
	return status;
}
