// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --faults: the I/O around parse/iommu_fault.c and
 * engine/fault_explain.c.  The kernel log is read from /dev/kmsg without
 * blocking (each read() one record; EPIPE: records overwritten before
 * they were read, counted as "log wrapped"), every line through one
 * decoder so SMMUv3's multi-line events come whole.  Then, for each fault
 * (repeats collapsed), one ptwalk session asks the device view at the
 * IOVA, the page tables of the process holding the device's VFIO file at
 * IOVA = VA, the recorder's events, and every process's mappings of the
 * frame the IOVA last pointed to.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/mode_faults.h"
#include "cmd/mode_phys.h"
#include "engine/fault_explain.h"
#include "io/pci_sysfs.h"
#include "io/proc_read.h"
#include "io/ptwalk_client.h"
#include "io/source.h"
#include "io/vfio_owner.h"
#include "model/array.h"
#include "parse/iommu_fault.h"
#include "parse/maps.h"
#include "report/diagnose.h"
#include "report/fault_print.h"

#define SYS_PCI "/sys/bus/pci/devices"
#define EVENT_BATCH 256

/* The faults read, in log order, and what the reading lost. */
struct fault_log {
	struct iommu_fault *f;
	size_t n, cap;
	uint64_t records, wrapped, not_kept;
	uint64_t since_us;	/* keep faults from then on; 0: all */
};

static int log_add(struct fault_log *l, const struct iommu_fault *f)
{
	struct iommu_fault *grown;

	if (l->since_us && (!f->has_time || f->time_us < l->since_us))
		return 0;
	if (l->n == FAULTS_MAX) {
		l->not_kept++;
		return 0;
	}
	grown = array_grow(l->f, &l->cap, l->n + 1, sizeof(*l->f), 64, 0);
	if (!grown)
		return -ENOMEM;
	l->f = grown;
	l->f[l->n++] = *f;
	return 0;
}

/* One line through the decoder: 0 or -ENOMEM. */
static int log_line(struct fault_log *l, struct iommu_fault_decoder *d,
		    const char *line, size_t len)
{
	struct iommu_fault f;

	switch (iommu_fault_decode(d, line, len, &f)) {
	case IOMMU_LINE_FAULT:
		return log_add(l, &f);
	case IOMMU_LINE_DETAIL:
		/* the SMMU's decoded lines complete its last fault */
		for (size_t i = l->n; i-- > 0;)
			if (!strcmp(l->f[i].iommu, f.iommu) &&
			    !strcmp(l->f[i].iommu_dev, f.iommu_dev)) {
				l->f[i] = f;
				return 0;
			}
		return log_add(l, &f);
	default:
		return 0;
	}
}

/* --fault-line TEXT: its lines (an SMMUv3 event spans several). */
static int read_text(struct fault_log *l, const char *text)
{
	struct iommu_fault_decoder d;
	int err = 0;

	iommu_fault_decoder_init(&d);
	while (!err && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		l->records++;
		err = log_line(l, &d, text, len);
		text += len + (nl ? 1 : 0);
	}
	return err;
}

/* /dev/kmsg from its first record still held: 0 or -errno. */
static int read_kmsg(struct fault_log *l)
{
	struct iommu_fault_decoder d;
	static char rec[8192];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	iommu_fault_decoder_init(&d);
	for (;;) {
		ssize_t got = read(fd, rec, sizeof(rec));
		const char *nl;

		if (got < 0) {
			if (errno == EPIPE) {	/* overwritten before read */
				l->wrapped++;
				continue;
			}
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				err = -errno;
			break;
		}
		if (got == 0)
			break;
		l->records++;
		/*
		 * The message ends at its first newline: a dev_printk()'s
		 * record goes on with " SUBSYSTEM=" and " DEVICE=" lines
		 * (SMMUv3's dev_info() lines among them).
		 */
		nl = memchr(rec, '\n', (size_t)got);
		err = log_line(l, &d, rec, nl ? (size_t)(nl - rec) : (size_t)got);
		if (err)
			break;
	}
	close(fd);
	return err;
}

/* name into out[size], or "" when it does not fit. */
static void copy_name(char *out, size_t size, const char *name)
{
	size_t len = strlen(name);

	if (len >= size)
		len = 0;
	memcpy(out, name, len);
	out[len] = '\0';
}

/* The PCI device an SMMUv3 StreamID names, behind SMMU iommu_dev. */
static bool resolve_sid(uint32_t sid, const char *iommu_dev, char *out,
			size_t size)
{
	DIR *dir = opendir(SYS_PCI);
	struct dirent *de;
	bool found = false;

	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		char path[PATH_MAX], *real;

		if (de->d_name[0] == '.' ||
		    !fault_sid_matches(de->d_name, sid, 0))
			continue;
		snprintf(path, sizeof(path), SYS_PCI "/%s/iommu", de->d_name);
		real = realpath(path, NULL);
		/* the device's IOMMU must be the SMMU that logged it */
		if (real && (!*iommu_dev || strstr(real, iommu_dev))) {
			copy_name(out, size, de->d_name);
			found = *out;
		}
		free(real);
	}
	closedir(dir);
	return found;
}

struct vma_of {
	uint64_t addr;
	struct fault_explained *x;
	bool found;
};

static bool vma_holding(char *line, void *arg)
{
	struct vma_of *v = arg;
	struct maps_entry e;

	if (!maps_parse_line(line, &e) || v->addr < e.start ||
	    v->addr >= e.end)
		return false;
	v->x->vma_start = e.start;
	v->x->vma_end = e.end;
	snprintf(v->x->vma_name, sizeof(v->x->vma_name), "%s", e.name);
	v->found = true;
	return true;
}

/* The VMA of pid holding addr into x: false if none. */
static bool vma_at(pid_t pid, uint64_t addr, struct fault_explained *x)
{
	struct vma_of v = { addr, x, false };

	return !proc_maps_each(pid, vma_holding, &v) && v.found;
}

/* The device view at the fault's page: device_pfn, domain, or a note. */
static void device_now(int fd, const struct cli_options *o,
		       struct fault_explained *x, uint64_t page,
		       uint64_t psize)
{
	struct ptwalk_iommu_record rec;
	int err = ptwalk_query_iommu(fd, x->device, page, page + psize,
				     o->dma_api ? PTWALK_IOMMU_DMA_API : 0);
	ssize_t got;

	x->device_pfn = PTWALK_PFN_NONE;
	got = err ? err : ptwalk_read_iommu(fd, &rec, 1);
	if (got != 1) {
		x->device_note = fault_device_note(got < 0 ? (int)-got : EIO);
		return;
	}
	x->has_domain = true;
	x->domain = rec.domain;
	x->device_pfn = rec.pfn;
}

/* The owner's page at IOVA = VA: its VMA and frame. */
static void mapping_now(int fd, struct fault_explained *x, uint64_t page,
			uint64_t psize)
{
	struct ptwalk_record rec;

	if (!vma_at(x->owner_pid, page, x))
		return;
	x->has_mapping_now = true;
	x->walk_pfn = PTWALK_PFN_NONE;
	if (!ptwalk_query(fd, x->owner_pid, page, page + psize) &&
	    ptwalk_read(fd, &rec, 1) == 1 && rec.kind == PTWALK_KIND_PRESENT)
		x->walk_pfn = rec.pfn;
}

/* Every process's mapping of frame pfn (but ours): 0 or -errno. */
static int frame_now(int fd, struct fault_explained *x, uint64_t pfn,
		     unsigned int shift)
{
	struct phys_scan *ps = malloc(sizeof(*ps));
	struct frame_run run = { pfn, 1 };
	pid_t pid = 0;
	int err;

	if (!ps)
		return -ENOMEM;
	phys_scan_init(ps, fd, &run, 1, shift);
	err = phys_scan_all(ps, &pid);
	if (!err && ps->set.n) {
		x->frames = calloc(ps->set.n, sizeof(*x->frames));
		if (!x->frames)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < ps->set.n; i++) {
		const struct phys_mapping *m = &ps->set.m[i];
		struct fault_frame_mapping *fm = &x->frames[x->nr_frames++];

		fm->pid = m->pid;
		snprintf(fm->comm, sizeof(fm->comm), "%s",
			 ps->procs[m->proc].comm);
		fm->start = m->addr + ((pfn - m->pfn) << shift);
		fm->memtype = m->memtype;
	}
	phys_scan_free(ps);
	free(ps);
	return err;
}

/* Every recorder event still in the ring: count, or -errno. */
static ssize_t read_events_batch(int fd, void *buf, size_t max)
{
	return ptwalk_read_events(fd, buf, max);
}

static ssize_t read_events(int fd, struct ptwalk_iommu_event **out)
{
	int err = ptwalk_query_events(fd, 1);

	*out = NULL;
	if (err)
		return err;
	return ptwalk_read_all(fd, sizeof(**out), EVENT_BATCH,
			       read_events_batch, (void **)out);
}

struct faults_run {
	struct fault_explained *x;
	size_t nr_x;
	struct fault_unexplained *u;
	size_t nr_u, cap_u;
};

static int unexplained(struct faults_run *r, const char *why,
		       const char *device, const struct iommu_fault *f,
		       uint64_t count)
{
	struct fault_unexplained *grown = array_grow(r->u, &r->cap_u,
						     r->nr_u + 1,
						     sizeof(*r->u), 8, 0);

	if (!grown)
		return -ENOMEM;
	r->u = grown;
	r->u[r->nr_u] = (struct fault_unexplained){ .why = why, .count = count };
	snprintf(r->u[r->nr_u].device, sizeof(r->u[0].device), "%s",
		 device ? device : "");
	if (f && f->has_iova) {
		r->u[r->nr_u].iova = f->iova;
		r->u[r->nr_u].has_iova = true;
	}
	r->nr_u++;
	return 0;
}

/* One fault group explained into r: 0 or -errno. */
static int explain(int fd, const struct cli_options *o, unsigned int shift,
		   const struct ptwalk_iommu_event *ev, ssize_t nr_ev,
		   const struct iommu_fault_group *g, struct faults_run *r)
{
	const struct iommu_fault *f = &g->first;
	uint64_t psize = 1ULL << shift, page = f->iova & ~(psize - 1);
	struct fault_explained *x = &r->x[r->nr_x];

	memset(x, 0, sizeof(*x));
	x->g = *g;
	x->device_pfn = PTWALK_PFN_NONE;
	x->walk_pfn = PTWALK_PFN_NONE;
	if (f->device[0])
		snprintf(x->device, sizeof(x->device), "%s", f->device);
	else if (f->has_sid &&
		 !resolve_sid(f->sid, f->iommu_dev, x->device,
			      sizeof(x->device)))
		return unexplained(r, "StreamID names no PCI device here",
				   NULL, f, g->count);
	if (x->device[0] && !pci_sysfs_exists(SYS_PCI, x->device))
		return unexplained(r, "device gone", x->device, f, g->count);
	r->nr_x++;
	if (x->device[0])
		pci_sysfs_driver(SYS_PCI, x->device, x->driver,
				 sizeof(x->driver));
	if (!f->has_iova || !x->device[0])
		return 0;
	device_now(fd, o, x, page, psize);
	x->owner_pid = vfio_owner(x->device);
	if (x->owner_pid) {
		proc_comm(x->owner_pid, x->owner_comm, sizeof(x->owner_comm));
		mapping_now(fd, x, page, psize);
	}
	x->has_recorder = nr_ev >= 0;
	/*
	 * Before the group's latest fault: repeats of one page can span
	 * several mappings of it (an address reused), and the latest is
	 * the one the state now follows.
	 */
	if (nr_ev > 0)
		fault_last_mapping(ev, (size_t)nr_ev, f->iova,
				   f->has_time ? g->last_us * 1000 : 0,
				   shift, &x->last);
	if (!x->last.found && x->last.dropped)
		return unexplained(r, "ring dropped events", x->device, f,
				   x->last.dropped);
	if (x->last.found && x->last.pfn != PTWALK_PFN_NONE)
		return frame_now(fd, x, x->last.pfn, shift);
	return 0;
}

/* Now, in the log's clock (microseconds since boot). */
static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int mode_faults(const struct cli_options *o, char *msg, size_t size)
{
	struct fault_log log = { 0 };
	struct faults_run run = { 0 };
	struct iommu_fault_group *groups = NULL;
	struct ptwalk_iommu_event *ev = NULL;
	struct ptwalk_info info;
	struct fault_report rep = { 0 };
	struct page_geom geom;
	struct endpoint ep;
	struct utsname u;
	enum failure why;
	size_t nr_groups = 0, dropped = 0;
	ssize_t nr_ev = -1;
	int status = EXIT_OK, err, fd = -1;

	if (o->since_s) {
		uint64_t now = now_us(), back = (uint64_t)o->since_s * 1000000;

		log.since_us = now > back ? now - back : 1;
	}
	err = o->fault_line ? read_text(&log, o->fault_line) : read_kmsg(&log);
	if (err) {
		if (err == -ENOMEM)
			snprintf(msg, size, "out of memory");
		else
			snprintf(msg, size, "cannot read /dev/kmsg: %s%s",
				 strerror(-err),
				 err == -EPERM || err == -EACCES ?
				 " (run as root, or set kernel.dmesg_restrict=0)" : "");
		status = err == -EPERM || err == -EACCES ? FAIL_PRIVILEGE :
			 FAIL_INTERNAL;
		goto out;
	}
	if (log.n) {
		fd = connect_ptwalk(o, &ep, &why, msg, size);
		if (fd < 0) {
			status = (int)why;
			goto out;
		}
		if (connect_geometry(&ep, &geom, msg, size)) {
			status = FAIL_NO_MODULE;
			goto out;
		}
		groups = calloc(log.n, sizeof(*groups));
		run.x = calloc(log.n, sizeof(*run.x));
		if (!groups || !run.x) {
			snprintf(msg, size, "out of memory");
			status = FAIL_INTERNAL;
			goto out;
		}
		nr_groups = iommu_fault_collapse(log.f, log.n,
						 geom_page_size(&geom), groups,
						 log.n, &dropped);
		if (!ptwalk_info(fd, &info) && info.events_next)
			nr_ev = read_events(fd, &ev);
		for (size_t i = 0; i < nr_groups; i++) {
			err = explain(fd, o, geom.shift, ev, nr_ev, &groups[i],
				      &run);
			if (err) {
				snprintf(msg, size, "explaining a fault: %s",
					 strerror(-err));
				status = FAIL_INTERNAL;
				goto out;
			}
		}
		rep.page_shift = geom.shift;
	}
	if ((log.wrapped &&
	     unexplained(&run, "log wrapped", NULL, NULL, log.wrapped)) ||
	    (log.not_kept &&
	     unexplained(&run, "too many faults to keep", NULL, NULL,
			 log.not_kept))) {
		snprintf(msg, size, "out of memory");
		status = FAIL_INTERNAL;
		goto out;
	}
	rep.kernel = uname(&u) ? "?" : u.release;
	if (!rep.page_shift)
		rep.page_shift = (unsigned int)__builtin_ctzl(
			(unsigned long)sysconf(_SC_PAGESIZE));
	rep.faults = run.x;
	rep.nr_faults = run.nr_x;
	rep.unexplained = run.u;
	rep.nr_unexplained = run.nr_u;
	rep.records_read = log.records;
	rep.from_line = o->fault_line != NULL;
	err = 0;
	if (o->json)
		err = fault_print_json(stdout, &rep);
	else
		fault_print_text(stdout, &rep);
	if (diagnose_output(err, stdout, msg, size))
		status = FAIL_INTERNAL;
	else
		status = log.n ? EXIT_MISMATCH : EXIT_OK;
out:
	for (size_t i = 0; run.x && i < run.nr_x; i++)
		free(run.x[i].frames);
	free(run.x);
	free(run.u);
	free(ev);
	free(groups);
	free(log.f);
	fd_close(&fd);
	return status;
}
