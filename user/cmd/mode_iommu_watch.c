// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --iommu DEVICE --watch: the I/O around engine/iommu_watch.c.
 * One ptwalk session reads the recorder (PTWALK_IOC_EVENTS) every
 * interval from where it stopped; the events before the watch's first
 * (INFO's events_next) are read once, first, for the mappings they made,
 * and not reported.  A second session asks, for each map, what the
 * device's domain translates its first page to, and for each unmap
 * whether the process still maps the old frame at VA = IOVA: one query
 * each, the cheap part of --faults's "who maps that frame now".  The
 * processes holding the device's VFIO file tie the events to it: a pid
 * is looked up in /proc/PID/fd the first time it maps or unmaps in the
 * range, and once found stays tied for the watch.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/domain_read.h"
#include "cmd/mode_iommu_watch.h"
#include "engine/iommu_watch.h"
#include "io/pci_sysfs.h"
#include "io/ptwalk_client.h"
#include "io/source.h"
#include "io/stop_signals.h"
#include "io/vfio_owner.h"
#include "model/defaults.h"
#include "report/diagnose.h"
#include "report/iommu_watch_print.h"

#define EVENT_BATCH	256
/* pids of one reading found not to hold the device, not asked again */
#define NOT_TIED_MAX	64

struct iwatcher {
	const struct cli_options *o;
	int fd;			/* the recorder's session */
	int view_fd;		/* device-view and page-table queries */
	int sig_fd;
	unsigned int shift;	/* the kernel's page */
	unsigned int interval_ms;
	struct vfio_files files;
	struct iommu_watch st;
	int32_t not_tied[NOT_TIED_MAX];
	size_t nr_not_tied;
	uint64_t next;		/* the next event to read */
	uint64_t from;		/* the first event reported */
	struct iommu_watch_totals totals;
	struct ptwalk_iommu_event ev[EVENT_BATCH];
};

/* Ties pid to the device if it holds its VFIO file: 0 or -ENOMEM. */
static int tie(struct iwatcher *w, int32_t pid)
{
	if (pid <= 0 || iommu_watch_tied(&w->st, pid))
		return 0;
	for (size_t i = 0; i < w->nr_not_tied; i++)
		if (w->not_tied[i] == pid)
			return 0;
	if (vfio_pid_holds(pid, &w->files))
		return iommu_watch_tie(&w->st, pid);
	if (w->nr_not_tied < NOT_TIED_MAX)
		w->not_tied[w->nr_not_tied++] = pid;
	return 0;
}

/* What the device's domain translates the page of iova to now. */
static void device_now(struct iwatcher *w, uint64_t iova,
		       struct iommu_watch_line *l)
{
	uint64_t psize = 1ULL << w->shift, page = iova & ~(psize - 1);
	struct ptwalk_iommu_record rec;

	struct domain_reader dr;
	int err;

	/* a watch never stops the owner: "not read (owner running)" */
	domain_reader_init(&dr, w->view_fd, w->o->iommu, w->o->live_domain,
			   false, false);
	err = domain_read_start(&dr, w->view_fd, page, page + psize);
	if (err == -EAGAIN) {
		l->owner_running = true;
		return;
	}
	if (err || ptwalk_read_iommu(w->view_fd, &rec, 1) != 1)
		return;
	l->has_device_pfn = true;
	l->device_pfn = rec.pfn;
}

/* Whether pid maps frame pfn at the page of addr. */
static bool maps_frame(struct iwatcher *w, int32_t pid, uint64_t addr,
		       uint64_t pfn)
{
	uint64_t psize = 1ULL << w->shift, page = addr & ~(psize - 1);
	struct ptwalk_record rec;

	return pid > 0 && pfn != PTWALK_PFN_NONE &&
	       !ptwalk_query(w->view_fd, pid, page, page + psize) &&
	       ptwalk_read(w->view_fd, &rec, 1) == 1 &&
	       rec.kind == PTWALK_KIND_PRESENT && rec.pfn == pfn;
}

/* A DROPPED record: the part of it from the watch's first event on. */
static void dropped(struct iwatcher *w, const struct ptwalk_iommu_event *e)
{
	struct ptwalk_iommu_event d = *e;
	struct iommu_watch_line l = { .e = &d, .comm = "" };
	uint64_t end = e->seq + e->size;

	w->next = end;
	if (end <= w->from)
		return;
	if (d.seq < w->from) {
		d.size = end - w->from;
		d.seq = w->from;
	}
	w->totals.dropped += d.size;
	iommu_watch_print_event(stdout, w->o->json, w->o->iommu, w->shift, &l);
}

/* One event read: the device's reported (seeded before the first): 0 or -errno. */
static int take(struct iwatcher *w, const struct ptwalk_iommu_event *e)
{
	struct iommu_watch_line l = { .e = e };
	char comm[64] = "";
	int err;

	if (e->kind == PTWALK_EVENT_DROPPED) {
		dropped(w, e);
		return 0;
	}
	w->next = e->seq + 1;
	if (!iommu_watch_in_range(&w->st, e))
		return 0;
	err = tie(w, e->pid);
	if (err || !iommu_watch_keep(&w->st, e))
		return err;
	err = iommu_watch_apply(&w->st, e, &l.seen);
	if (err || e->seq < w->from)
		return err;
	if (e->pid > 0)
		proc_comm(e->pid, comm, sizeof(comm));
	l.comm = comm;
	if (e->kind == PTWALK_EVENT_MAP) {
		w->totals.maps++;
		device_now(w, e->iova, &l);
	} else {
		w->totals.unmaps++;
		l.old_mapped = maps_frame(w, e->pid, e->iova, l.seen.old_pfn);
	}
	iommu_watch_print_event(stdout, w->o->json, w->o->iommu, w->shift, &l);
	return 0;
}

/* Every event from w->next up to now: 0, or -errno. */
static int read_events(struct iwatcher *w)
{
	ssize_t got;
	int err = ptwalk_query_events(w->fd, w->next);

	if (err)
		return err;
	w->nr_not_tied = 0;
	while ((got = ptwalk_read_events(w->fd, w->ev, EVENT_BATCH)) > 0)
		for (ssize_t i = 0; i < got; i++) {
			err = take(w, &w->ev[i]);
			if (err)
				return err;
		}
	return got < 0 ? (int)got : 0;
}

/* The readings until the time is up or a signal, and one after: status. */
static int loop(struct iwatcher *w, char *msg, size_t size)
{
	uint64_t end_ns = monotonic_ns() +
			  (uint64_t)w->o->watch_s * 1000000000ULL;

	for (;;) {
		uint64_t now, wait;
		int err = read_events(w);

		if (err) {
			snprintf(msg, size, "reading ptwalk's IOMMU events: %s",
				 strerror(-err));
			return FAIL_INTERNAL;
		}
		if (w->totals.ended)
			return EXIT_OK;
		now = monotonic_ns();
		if (now >= end_ns) {
			w->totals.ended = "time";
			continue;
		}
		wait = (end_ns - now) / 1000000;
		if (wait > w->interval_ms)
			wait = w->interval_ms;
		if (stop_signal_wait(w->sig_fd, wait))
			w->totals.ended = "signal";
	}
}

/* The device, the module and the signals: EXIT_OK or a failure (msg). */
static int setup(struct iwatcher *w, struct iommu_watch_info *info,
		 char *msg, size_t size)
{
	const struct cli_options *o = w->o;
	struct ptwalk_info pi = { 0 };
	struct page_geom geom;
	struct endpoint ep;
	enum failure why;
	int status;

	w->fd = connect_ptwalk(o, &ep, &why, msg, size);
	if (w->fd < 0)
		return (int)why;
	w->view_fd = connect_again(&ep, &why, msg, size);
	if (w->view_fd < 0)
		return (int)why;
	if (connect_geometry(&ep, &geom, msg, size))
		return FAIL_NO_MODULE;
	if (o->has_range &&
	    cli_check_range_pages(o->start, o->end, geom_page_size(&geom),
				  msg, size))
		return FAIL_USAGE;
	w->shift = geom.shift;
	if (ptwalk_info(w->fd, &pi)) {
		snprintf(msg, size, "cannot ask ptwalk.ko its features");
		return FAIL_INTERNAL;
	}
	status = diagnose_iommu_watch(o->iommu, true, info->driver,
				      pi.features, msg, size);
	if (status != EXIT_OK)
		return status;
	w->sig_fd = stop_signals_open();
	if (w->sig_fd < 0) {
		snprintf(msg, size, "cannot watch for signals: %s",
			 strerror(-w->sig_fd));
		return FAIL_INTERNAL;
	}
	vfio_files_of(o->iommu, &w->files);
	w->from = info->from_seq = pi.events_next;
	w->next = 1;
	iommu_watch_init(&w->st, o->has_range ? o->start : 0,
			 o->has_range ? o->end - 1 : UINT64_MAX, w->shift);
	return EXIT_OK;
}

int mode_iommu_watch(const struct cli_options *o, char *msg, size_t size)
{
	struct iwatcher *w = calloc(1, sizeof(*w));
	char driver[64], owner_comm[64] = "";
	struct iommu_watch_info info = {
		.device = o->iommu, .driver = driver, .whole = !o->has_range,
		.start = o->start, .end = o->end, .seconds = o->watch_s,
		.owner_comm = owner_comm,
	};
	int status;

	if (!w) {
		snprintf(msg, size, "out of memory");
		return FAIL_INTERNAL;
	}
	*w = (struct iwatcher){ .o = o, .fd = -1, .view_fd = -1, .sig_fd = -1 };
	info.interval_ms = w->interval_ms = o->interval_ms ? o->interval_ms :
					    WATCH_DEFAULT_INTERVAL_MS;
	if (!pci_sysfs_exists(PCI_SYSFS_DEVICES, o->iommu)) {
		snprintf(msg, size,
			 "no PCI device %s: see /sys/bus/pci/devices (lspci -D)",
			 o->iommu);
		status = FAIL_NO_DEVICE;
		goto out;
	}
	pci_sysfs_driver(PCI_SYSFS_DEVICES, o->iommu, driver, sizeof(driver));
	status = diagnose_iommu_watch(o->iommu,
				      pci_sysfs_has_group(PCI_SYSFS_DEVICES,
							  o->iommu),
				      driver, PTWALK_FEAT_IOMMU_EVENTS, msg,
				      size);
	if (status == EXIT_OK)
		status = setup(w, &info, msg, size);
	if (status != EXIT_OK)
		goto out;
	info.owner = vfio_owner(o->iommu);
	if (info.owner)
		proc_comm(info.owner, owner_comm, sizeof(owner_comm));
	iommu_watch_print_start(stdout, o->json, &info);
	status = loop(w, msg, size);
	w->totals.not_kept = w->st.not_kept;
	if (status == EXIT_OK) {
		iommu_watch_print_end(stdout, o->json, &w->totals);
		status = diagnose_output(0, stdout, msg, size);
	}
out:
	iommu_watch_free(&w->st);
	fd_close(&w->sig_fd);
	fd_close(&w->view_fd);
	fd_close(&w->fd);
	free(w);
	return status;
}
