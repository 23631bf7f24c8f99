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
#include "cmd/domain_read.h"
#include "cmd/mode_faults.h"
#include "cmd/mode_phys.h"
#include "engine/dma_inventory.h"
#include "engine/fault_dma.h"
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

/* Undecoded lines kept with their text; the rest only counted. */
#define UNDECODED_KEPT	16
/* A line of --fault-file longer than this is read up to it. */
#define FILE_LINE_MAX	(64 * 1024)

/* The faults read, in log order, and what the reading lost. */
struct fault_log {
	struct iommu_fault *f;
	size_t n, cap;
	uint64_t records, wrapped, not_kept;
	uint64_t since_us;	/* keep faults from then on; 0: all */
	struct fault_undecoded undecoded[UNDECODED_KEPT];
	size_t nr_undecoded;
	uint64_t undecoded_total;
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

/* A message no format reads: counted, the first ones kept. */
static void log_undecoded(struct fault_log *l, const char *driver,
			  const char *format, const char *what,
			  const char *text, uint64_t line)
{
	struct fault_undecoded *u = &l->undecoded[l->nr_undecoded];

	l->undecoded_total++;
	if (l->nr_undecoded == UNDECODED_KEPT)
		return;
	l->nr_undecoded++;
	u->line = line;
	u->driver = driver;
	u->format = format;
	snprintf(u->what, sizeof(u->what), "%s", what);
	snprintf(u->text, sizeof(u->text), "%s", text ? text : "");
}

/* What the decoder said of one message: 0 or -ENOMEM. */
static int log_answer(void *arg, enum iommu_line r, const struct iommu_fault *f,
		      const char *msg, uint64_t line)
{
	struct fault_log *l = arg;

	switch (r) {
	case IOMMU_LINE_FAULT:
		return log_add(l, f);
	case IOMMU_LINE_DETAIL:
		/* the SMMU's decoded lines complete its last fault */
		for (size_t i = l->n; i-- > 0;)
			if (!strcmp(l->f[i].iommu, f->iommu) &&
			    !strcmp(l->f[i].iommu_dev, f->iommu_dev)) {
				l->f[i] = *f;
				return 0;
			}
		return log_add(l, f);
	case IOMMU_LINE_MALFORMED:
		log_undecoded(l, f->iommu, f->format, f->reason, msg, line);
		return 0;
	default:
		return 0;
	}
}

/* One line through the decoder: 0 or -ENOMEM. */
static int log_line(struct fault_log *l, struct iommu_fault_decoder *d,
		    const char *line, size_t len)
{
	l->records++;
	return iommu_fault_feed(d, line, len, log_answer, l);
}

/*
 * The end: a message held for a continuation, and multi-line events the
 * input ended in the middle of, undecoded.
 */
static int log_end(struct fault_log *l, struct iommu_fault_decoder *d)
{
	const char *driver;
	unsigned int n;
	char what[IOMMU_FAULT_REASON_MAX];
	int err = iommu_fault_finish(d, log_answer, l);

	n = iommu_fault_decoder_pending(d, &driver);
	if (err || !n)
		return err;
	snprintf(what, sizeof(what),
		 "%u multi-line event%s cut short (lines missing)", n,
		 n == 1 ? "" : "s");
	log_undecoded(l, driver, NULL, what, NULL, l->records);
	l->undecoded_total += n - 1;
	return 0;
}

/* --fault-line TEXT: its lines (an SMMUv3 event spans several). */
static int read_text(struct fault_log *l, struct iommu_fault_decoder *d,
		     const char *text)
{
	int err = 0;

	while (!err && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		err = log_line(l, d, text, len);
		text += len + (nl ? 1 : 0);
	}
	return err;
}

/*
 * --fault-file FILE or - (standard input), streamed a line at a time:
 * memory bounded by one line (FILE_LINE_MAX; longer ones are read up to
 * it) and the faults kept.  0 or -errno.
 */
static int read_file(struct fault_log *l, struct iommu_fault_decoder *d,
		     const char *path)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *buf = malloc(FILE_LINE_MAX);
	size_t len = 0;
	int c, err = 0;

	if (!in || !buf) {
		err = !in ? -errno : -ENOMEM;
		goto out;
	}
	while (!err && (c = getc(in)) != EOF) {
		if (c != '\n') {
			if (len < FILE_LINE_MAX)
				buf[len++] = (char)c;
			continue;	/* the rest of a line too long */
		}
		err = log_line(l, d, buf, len);
		len = 0;
	}
	if (!err && ferror(in))
		err = -EIO;
	if (!err && len)
		err = log_line(l, d, buf, len);
out:
	free(buf);
	if (in && in != stdin)
		fclose(in);
	return err;
}

/*
 * Each record of /dev/kmsg still held, from the first, to fn (0 to go on,
 * or -errno); records overwritten before read counted in *wrapped.  0 or
 * -errno.
 */
static int kmsg_each(int (*fn)(void *arg, const char *rec, size_t len),
		     void *arg, uint64_t *wrapped)
{
	char rec[8192];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t got = read(fd, rec, sizeof(rec));
		const char *nl;

		if (got < 0) {
			if (errno == EPIPE) {	/* overwritten before read */
				(*wrapped)++;
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
		/*
		 * The message ends at its first newline: a dev_printk()'s
		 * record goes on with " SUBSYSTEM=" and " DEVICE=" lines
		 * (SMMUv3's dev_info() lines among them).
		 */
		nl = memchr(rec, '\n', (size_t)got);
		err = fn(arg, rec, nl ? (size_t)(nl - rec) : (size_t)got);
		if (err)
			break;
	}
	close(fd);
	return err;
}

struct kmsg_reading {
	struct fault_log *l;
	struct iommu_fault_decoder *d;
};

static int kmsg_record(void *arg, const char *rec, size_t len)
{
	struct kmsg_reading *r = arg;

	return log_line(r->l, r->d, rec, len);
}

/* /dev/kmsg from its first record still held: 0 or -errno. */
static int read_kmsg(struct fault_log *l, struct iommu_fault_decoder *d)
{
	struct kmsg_reading r = { .l = l, .d = d };

	return kmsg_each(kmsg_record, &r, &l->wrapped);
}

static int kmsg_time(void *arg, const char *rec, size_t len)
{
	struct iommu_log_line line;
	uint64_t *newest = arg;

	if (iommu_log_split(rec, len, &line) && line.has_time &&
	    line.time_us > *newest)
		*newest = line.time_us;
	return 0;
}

/*
 * Now, in the log's clock (printk's local_clock()), in microseconds since
 * boot: at least the newest record's time where /dev/kmsg can be read.
 * CLOCK_BOOTTIME alone can lag the log's clock, as the two start at
 * different points of the boot: without the log, that skew is allowed
 * for, so that a line of this machine is never "not this machine".
 */
#define LOG_CLOCK_SKEW_US	(5 * 1000000ULL)
static uint64_t log_now_us(void)
{
	struct timespec ts;
	uint64_t newest = 0, wrapped = 0, now;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	now = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
	if (kmsg_each(kmsg_time, &newest, &wrapped) || !newest)
		return now + LOG_CLOCK_SKEW_US;
	return newest > now ? newest : now;
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

/*
 * The device view at the fault's page: device_pfn, domain, or a note.
 * An unmanaged domain's owners are stopped for the one page's read.
 */
static void device_now(int fd, const struct cli_options *o,
		       struct fault_explained *x, uint64_t page,
		       uint64_t psize)
{
	struct ptwalk_iommu_record rec;
	struct domain_reader dr;
	ssize_t got;
	int err;

	domain_reader_init(&dr, fd, x->device, o->live_domain, o->dma_api,
			   true);
	err = domain_read_start(&dr, fd, page, page + psize);
	x->device_pfn = PTWALK_PFN_NONE;
	got = err ? err : ptwalk_read_iommu(fd, &rec, 1);
	if (!err)
		domain_read_end(&dr, got == 1 ? rec.domain : PTWALK_IOMMU_NONE);
	if (got != 1) {
		x->device_note = fault_device_note(got < 0 ? (int)-got : EIO);
		return;
	}
	x->has_domain = true;
	x->domain = rec.domain;
	x->device_pfn = rec.pfn;
	x->device_read = dr.how;
	for (size_t i = 0; dr.how == DOMAIN_READ_OWNER_STOPPED &&
	     i < dr.owners.n; i++)
		if (dr.owners.o[i].held_ns > x->device_stopped_ns)
			x->device_stopped_ns = dr.owners.o[i].held_ns;
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

/*
 * Every process's mapping of frame pfn (but ours) into *frames, *nr of
 * them: 0 or -errno.
 */
static int frame_now(int fd, uint64_t pfn, unsigned int shift,
		     struct fault_frame_mapping **frames, size_t *nr)
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
		*frames = calloc(ps->set.n, sizeof(**frames));
		if (!*frames)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < ps->set.n; i++) {
		const struct phys_mapping *m = &ps->set.m[i];
		struct fault_frame_mapping *fm = &(*frames)[(*nr)++];

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
	uint64_t recorder_since_ns;	/* INFO's events_armed_ns */
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

/* How the faults were read, and what of the machine is there to ask. */
struct faults_ctx {
	const struct cli_options *o;
	int fd;			/* ptwalk, or -1 */
	unsigned int shift;
	const struct ptwalk_iommu_event *ev;
	ssize_t nr_ev;
	bool pasted;		/* --fault-line, --fault-file */
	const char *no_module;	/* why fd is -1: the note of every fault */
	uint64_t now_us;	/* since this machine's boot */
	uint64_t log_now_us;	/* the same in the log's clock: log_now_us() */
};

/* Unmaps asked for at most: the module keeps dma_track_history of them. */
#define DMA_HISTORY_MAX	65536

/* Why a device's tracked mappings cannot be read: fault_dma_explained.note. */
static const char *dma_note(int err)
{
	switch (err) {
	case ENOENT:
		return "not tracked";
	case EOPNOTSUPP:
		return "this kernel has no DMA API tracepoints (Linux 6.12+)";
	case ENOTTY:
		return "this ptwalk.ko does not track DMA mappings";
	case ENODEV:
		return "no such device here";
	case EPERM:
	case EACCES:
		return "not readable (root, and no lockdown in confidentiality mode)";
	default:
		return "the tracked mappings could not be read";
	}
}

/*
 * What a device with no VFIO owner had mapped at the fault, from the
 * mappings ptwalk.ko tracks for its driver, and what that frame is now:
 * into x->dma.  0 or -ENOMEM (the module's refusals are notes).
 */
static int dma_explain(const struct faults_ctx *c,
		       const struct iommu_fault_group *g,
		       struct fault_explained *x)
{
	const struct iommu_fault *f = &g->first;
	struct fault_dma_explained *d = &x->dma;
	struct ptwalk_dma_mapping *maps = NULL, *unmaps = NULL, one;
	struct ptwalk_dma_query q;
	uint64_t fault_ns, kpf = 0;
	bool have_kpf;
	int err;

	d->asked = true;
	/* an empty question first: how many live mappings it can hold */
	err = ptwalk_dma_history(c->fd, x->device, NULL, 0, NULL, 0, &q);
	if (err) {
		d->note = dma_note(-err);
		return 0;
	}
	maps = calloc(q.capacity ? q.capacity : 1, sizeof(*maps));
	unmaps = calloc(DMA_HISTORY_MAX, sizeof(*unmaps));
	err = maps && unmaps ?
	      ptwalk_dma_history(c->fd, x->device, maps, q.capacity, unmaps,
				 DMA_HISTORY_MAX, &q) : 0;
	if (!maps || !unmaps || err) {
		free(maps);
		free(unmaps);
		if (!err)
			return -ENOMEM;
		d->note = dma_note(-err);
		return 0;
	}
	d->tracked_ns = q.tracked_ns;
	d->live = q.nr_maps;
	d->unmaps = q.nr_unmaps;
	/* kmsg's microsecond ends no earlier than the fault logged in it */
	fault_ns = f->has_time ? g->last_us * 1000 + 999 : 0;
	fault_dma_match(maps, q.nr_maps, unmaps, q.nr_unmaps, q.tracked_ns,
			f->iova, fault_ns, f->access, c->shift, &d->match);
	free(maps);
	free(unmaps);
	if (!d->match.found || d->match.phys == PTWALK_DMA_PHYS_NONE)
		return 0;
	one = fault_dma_frame(&d->match);
	have_kpf = proc_kpageflags(one.phys >> c->shift, &kpf);
	d->has_frame = true;
	d->frame = dma_frame_at(&one, 0, true, have_kpf, kpf);
	if (d->frame == DMA_FRAME_MMIO || d->frame == DMA_FRAME_FREE)
		return 0;
	return frame_now(c->fd, one.phys >> c->shift, c->shift, &d->frames,
			 &d->nr_frames);
}

/*
 * A pasted fault the machine cannot hold: logged later after boot than
 * this machine has been up.
 */
static bool not_this_machine(const struct faults_ctx *c,
			     const struct iommu_fault_group *g)
{
	return c->pasted && g->first.has_time && g->last_us > c->log_now_us;
}

/* The fault's device here: its PCI name into x->device, or a note. */
static const char *device_here(const struct faults_ctx *c,
			       const struct iommu_fault *f,
			       struct fault_explained *x)
{
	if (f->device[0] && !pci_sysfs_exists(SYS_PCI, f->device))
		return "no such device here";
	if (f->device[0]) {
		snprintf(x->device, sizeof(x->device), "%s", f->device);
		return NULL;
	}
	/* their IDs are PCI requester IDs, as the log's own path reads them */
	if (f->has_sid && (!strcmp(f->iommu, "smmu-v3") ||
			   !strcmp(f->iommu, "virtio-iommu")) &&
	    resolve_sid(f->sid, f->iommu_dev, x->device, sizeof(x->device)))
		return NULL;
	(void)c;
	return "no such device here";
}

/* The live parts of a pasted fault: read, or null with a note. */
static int explain_pasted(const struct faults_ctx *c,
			  const struct iommu_fault_group *g,
			  struct faults_run *r, struct fault_explained *x)
{
	const struct iommu_fault *f = &g->first;

	r->nr_x++;
	if (not_this_machine(c, g)) {
		x->live_note = "not this machine";
		return 0;
	}
	if ((x->live_note = device_here(c, f, x)))
		return 0;
	pci_sysfs_driver(SYS_PCI, x->device, x->driver, sizeof(x->driver));
	x->live_note = c->no_module;
	return 1;	/* go on with what the machine holds */
}

/* One fault group explained into r: 0 or -errno. */
static int explain(const struct faults_ctx *c,
		   const struct iommu_fault_group *g, struct faults_run *r)
{
	const struct iommu_fault *f = &g->first;
	uint64_t psize = 1ULL << c->shift, page = f->iova & ~(psize - 1);
	struct fault_explained *x = &r->x[r->nr_x];
	int go, err;

	memset(x, 0, sizeof(*x));
	x->g = *g;
	x->device_pfn = PTWALK_PFN_NONE;
	x->walk_pfn = PTWALK_PFN_NONE;
	if (c->pasted) {
		go = explain_pasted(c, g, r, x);
		if (go <= 0)
			return go;
	} else {
		if (f->device[0])
			snprintf(x->device, sizeof(x->device), "%s", f->device);
		else if (f->has_sid &&
			 !resolve_sid(f->sid, f->iommu_dev, x->device,
				      sizeof(x->device)))
			return unexplained(r, "StreamID names no PCI device here",
					   NULL, f, g->count);
		if (x->device[0] && !pci_sysfs_exists(SYS_PCI, x->device))
			return unexplained(r, "device gone", x->device, f,
					   g->count);
		r->nr_x++;
		if (x->device[0])
			pci_sysfs_driver(SYS_PCI, x->device, x->driver,
					 sizeof(x->driver));
	}
	if (!f->has_iova || !x->device[0])
		return 0;
	x->owner_pid = vfio_owner(x->device);
	if (x->owner_pid)
		proc_comm(x->owner_pid, x->owner_comm, sizeof(x->owner_comm));
	if (c->fd < 0)
		return 0;
	device_now(c->fd, c->o, x, page, psize);
	if (x->owner_pid) {
		mapping_now(c->fd, x, page, psize);
	} else {
		err = dma_explain(c, g, x);
		if (err)
			return err;
	}
	x->has_recorder = c->nr_ev >= 0;
	x->recorder_since_ns = r->recorder_since_ns;
	/*
	 * Before the group's latest fault: repeats of one page can span
	 * several mappings of it (an address reused), and the latest is
	 * the one the state now follows.
	 */
	if (c->nr_ev > 0)
		fault_last_mapping(c->ev, (size_t)c->nr_ev, f->iova,
				   f->has_time ? g->last_us * 1000 : 0,
				   c->shift, &x->last);
	if (!x->last.found && x->last.dropped)
		return unexplained(r, "ring dropped events", x->device, f,
				   x->last.dropped);
	if (x->last.found && x->last.pfn != PTWALK_PFN_NONE)
		return frame_now(c->fd, x->last.pfn, c->shift, &x->frames,
				 &x->nr_frames);
	return 0;
}

/* Now, since boot, the clock --since counts back from. */
static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* The log, the line or the file into log: 0 or -errno. */
static int read_faults(const struct cli_options *o, struct fault_log *log)
{
	struct iommu_fault_decoder *d = malloc(sizeof(*d));
	int err;

	if (!d)
		return -ENOMEM;
	iommu_fault_decoder_init(d);
	err = o->fault_line ? read_text(log, d, o->fault_line) :
	      o->fault_file ? read_file(log, d, o->fault_file) :
	      read_kmsg(log, d);
	if (!err)
		err = log_end(log, d);
	free(d);
	return err;
}

static int read_failed(const struct cli_options *o, int err, char *msg,
		       size_t size)
{
	if (err == -ENOMEM) {
		snprintf(msg, size, "out of memory");
		return FAIL_INTERNAL;
	}
	if (o->fault_file) {
		snprintf(msg, size, "cannot read %s: %s (give a readable log file, or - for standard input)",
			 strcmp(o->fault_file, "-") ? o->fault_file :
			 "standard input", strerror(-err));
		return FAIL_USAGE;
	}
	snprintf(msg, size, "cannot read /dev/kmsg: %s%s", strerror(-err),
		 err == -EPERM || err == -EACCES ?
		 " (run as root, or set kernel.dmesg_restrict=0)" : "");
	return err == -EPERM || err == -EACCES ? FAIL_PRIVILEGE : FAIL_INTERNAL;
}

/*
 * ptwalk for the faults found: the log of this machine needs it (a
 * failure's status), pasted text does without (c->no_module the note).
 */
static int connect_for(struct faults_ctx *c, struct page_geom *geom,
		       char *msg, size_t size)
{
	struct endpoint ep;
	enum failure why;

	c->fd = connect_ptwalk(c->o, &ep, &why, msg, size);
	if (c->fd >= 0 && connect_geometry(&ep, geom, msg, size)) {
		fd_close(&c->fd);
		why = FAIL_NO_MODULE;
	}
	if (c->fd >= 0) {
		c->shift = geom->shift;
		return 0;
	}
	if (!c->pasted)
		return (int)why;
	c->no_module = why == FAIL_NO_MODULE ? "ptwalk.ko not loaded" :
		       why == FAIL_PRIVILEGE ? "ptwalk not readable without root" :
		       "ptwalk not reachable";
	msg[0] = '\0';
	c->shift = (unsigned int)__builtin_ctzl((unsigned long)sysconf(_SC_PAGESIZE));
	return 0;
}

int mode_faults(const struct cli_options *o, char *msg, size_t size)
{
	struct fault_log log = { 0 };
	struct faults_run run = { 0 };
	struct iommu_fault_group *groups = NULL;
	struct ptwalk_iommu_event *ev = NULL;
	struct faults_ctx c = { .o = o, .fd = -1, .nr_ev = -1 };
	struct ptwalk_info info;
	struct fault_report rep = { 0 };
	struct page_geom geom;
	struct utsname u;
	size_t nr_groups = 0, dropped = 0;
	int status = EXIT_OK, err;

	c.pasted = o->fault_line || o->fault_file;
	c.now_us = now_us();
	if (o->since_s) {
		uint64_t back = (uint64_t)o->since_s * 1000000;

		log.since_us = c.now_us > back ? c.now_us - back : 1;
	}
	err = read_faults(o, &log);
	if (err) {
		status = read_failed(o, err, msg, size);
		goto out;
	}
	if (log.n) {
		if ((status = connect_for(&c, &geom, msg, size)))
			goto out;
		if (c.pasted)
			c.log_now_us = log_now_us();
		groups = calloc(log.n, sizeof(*groups));
		run.x = calloc(log.n, sizeof(*run.x));
		if (!groups || !run.x) {
			snprintf(msg, size, "out of memory");
			status = FAIL_INTERNAL;
			goto out;
		}
		nr_groups = iommu_fault_collapse(log.f, log.n, 1ULL << c.shift,
						 groups, log.n, &dropped);
		/* armed before this question: the history it keeps */
		if (c.fd >= 0 && !ptwalk_info(c.fd, &info) && info.events_next) {
			/* a module before arming recorded from its load */
			run.recorder_since_ns =
				info.features & PTWALK_FEAT_EVENTS_ARMING ?
				info.events_armed_ns : 1;
			c.nr_ev = read_events(c.fd, &ev);
		}
		c.ev = ev;
		for (size_t i = 0; i < nr_groups; i++) {
			err = explain(&c, &groups[i], &run);
			if (err) {
				snprintf(msg, size, "explaining a fault: %s",
					 strerror(-err));
				status = FAIL_INTERNAL;
				goto out;
			}
		}
		rep.page_shift = c.shift;
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
	rep.from_line = c.pasted;
	rep.undecoded = log.undecoded;
	rep.nr_undecoded = log.nr_undecoded;
	rep.undecoded_total = log.undecoded_total;
	err = 0;
	if (o->json)
		err = fault_print_json(stdout, &rep);
	else
		fault_print_text(stdout, &rep);
	if (diagnose_output(err, stdout, msg, size)) {
		status = FAIL_INTERNAL;
	} else if (log.undecoded_total) {
		/* an answer with lines missing: never "no fault" */
		fault_undecoded_msg(&rep, msg, size);
		status = EXIT_FAULT_UNDECODED;
	} else {
		status = log.n ? EXIT_MISMATCH : EXIT_OK;
	}
out:
	for (size_t i = 0; run.x && i < run.nr_x; i++) {
		free(run.x[i].frames);
		free(run.x[i].dma.frames);
	}
	free(run.x);
	free(run.u);
	free(ev);
	free(groups);
	free(log.f);
	fd_close(&c.fd);
	return status;
}
