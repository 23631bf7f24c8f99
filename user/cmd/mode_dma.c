// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --dma: the I/O around engine/dma_inventory.c.  The mappings
 * are read twice from ptwalk.ko (where it does not track the DMA API,
 * with --dma-api, from the device's domain, walked); after each read,
 * each listed page's frame is read in /proc/kpageflags and, with
 * --dma-api, in the device's IOMMU domain.  A finding is reported only
 * when the second read still holds the same mapping with it, so that a
 * mapping freed and unmapped between two reads is no false alarm.  Then
 * the processes mapping the user frames are looked for (ptwalk's records
 * of every process), page-cache frames' files asked of ptwalk.ko, and
 * MMIO frames named from /proc/iomem.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/domain_read.h"
#include "cmd/mode_dma.h"
#include "cmd/mode_phys.h"
#include "engine/dma_inventory.h"
#include "io/pci_sysfs.h"
#include "io/proc_read.h"
#include "io/ptwalk_client.h"
#include "model/device_class.h"
#include "parse/iomem.h"
#include "report/diagnose.h"
#include "report/dma_inventory_print.h"

/* Mappings read at most: the module's own bound is dma_track_maps. */
#define DMA_MAX		65536

/* Device-view records read per read(). */
#define IOMMU_BATCH	64

/*
 * Device addresses a walk of the domain reads without --range: the first
 * 4 GiB, where dma-iommu gives a PCI device its addresses first (below
 * its 32-bit limit, top down), and the last 4 GiB below the end of the
 * domain's aperture or of the device's DMA mask, whichever comes first,
 * where it gives them top down from a wider DMA mask.
 */
#define WALK_SPAN	(1ull << 32)

/* What one run of ptcompare --dma reads with. */
struct dma_ctx {
	int fd;			/* the ptwalk session */
	int kpf_fd;		/* /proc/kpageflags, or -1 */
	const char *device;
	bool bound;		/* a driver is bound to the device */
	bool dma_api;
	unsigned int shift;	/* page size, as a shift */
	struct domain_reader dr;
	uint64_t start, end;	/* --range */
	bool has_range;
	struct dma_window win[2];	/* what the walk read */
	size_t nr_win;
	bool walk;		/* the DMA API is not tracked: walk the domain */
	uint32_t walk_domain;	/* the walk's domain (enum ptwalk_iommu_domain) */
};

/* One read of the mappings, each page's frame read after it. */
struct dma_read {
	struct ptwalk_dma_query q;
	struct ptwalk_dma_mapping *maps;
	unsigned int *findings;
	struct dma_item *items;
	struct dma_page *pages;
};

/* Frame pfn's kpageflags word: false if it cannot be read. */
static bool kpf_of(int kpf_fd, uint64_t pfn, uint64_t *kpf)
{
	return kpf_fd >= 0 && pfn != PTWALK_PFN_NONE &&
	       proc_pread(kpf_fd, kpf, sizeof(*kpf),
			  (off_t)(pfn * sizeof(*kpf)), NULL) ==
	       (ssize_t)sizeof(*kpf);
}

/*
 * What the device's IOMMU domain translates its pages to: 0, or the
 * -errno of the read (the pages then stay unread).
 */
static int read_iommu(struct dma_ctx *c, struct dma_item *it,
		      struct dma_page *pages)
{
	uint64_t start = it->m.dma >> c->shift << c->shift;
	uint64_t end = start + ((uint64_t)it->n << c->shift);
	struct ptwalk_iommu_record rec[IOMMU_BATCH];
	bool first = true;
	ssize_t got;
	int err;

	if (!it->n)
		return 0;
	err = domain_read_start(&c->dr, c->fd, start, end);
	if (err)
		return err;
	while ((got = ptwalk_read_iommu(c->fd, rec, IOMMU_BATCH)) > 0)
		for (ssize_t r = 0; r < got; r++) {
			uint64_t at = (rec[r].iova - start) >> c->shift;

			if (first)
				it->domain = rec[r].domain;
			first = false;
			for (uint64_t k = 0; k < rec[r].nr_pages &&
					     at + k < it->n; k++) {
				pages[at + k].iommu_read = true;
				pages[at + k].iommu_pfn =
					rec[r].pfn == PTWALK_PFN_NONE ?
					PTWALK_PFN_NONE : rec[r].pfn + k;
			}
		}
	domain_read_end(&c->dr, it->domain);
	return got < 0 ? (int)got : 0;
}

/* Each listed page's frame, what it is, and the mapping's findings. */
static void read_pages(struct dma_ctx *c, struct dma_item *it,
		       struct dma_page *pages, unsigned int *findings)
{
	for (size_t p = 0; p < it->n; p++)
		pages[p] = (struct dma_page){
			.pfn = dma_pfn_at(&it->m, p, 1ull << c->shift),
			.iommu_pfn = PTWALK_PFN_NONE,
		};
	if (it->m.kind == DMA_KIND_WALKED) {
		/* the walk's frames are the IOMMU's translation itself */
		it->domain = c->walk_domain;
		for (size_t p = 0; p < it->n; p++) {
			pages[p].iommu_read = true;
			pages[p].iommu_pfn = pages[p].pfn;
			pages[p].pfn = PTWALK_PFN_NONE;
		}
	} else if (c->dma_api) {
		it->iommu_err = read_iommu(c, it, pages);
	}
	for (size_t p = 0; p < it->n; p++) {
		uint64_t pfn = pages[p].pfn != PTWALK_PFN_NONE ? pages[p].pfn :
			       pages[p].iommu_read ? pages[p].iommu_pfn :
						     PTWALK_PFN_NONE;
		uint64_t kpf = 0;
		bool have = kpf_of(c->kpf_fd, pfn, &kpf);

		pages[p].what = dma_frame_at(&it->m, p, pfn != PTWALK_PFN_NONE,
					     have, kpf);
		pages[p].io_held = dma_frame_io_held(have, kpf);
	}
	*findings = dma_findings_of(&it->m, pages, it->n, c->bound);
}

static ssize_t read_iommu_batch(int fd, void *buf, size_t max)
{
	return ptwalk_read_iommu(fd, buf, max);
}

static bool paging(uint32_t domain)
{
	return domain == PTWALK_IOMMU_DMA || domain == PTWALK_IOMMU_DMA_FQ ||
	       domain == PTWALK_IOMMU_UNMANAGED;
}

/*
 * The translated runs of [w->start, w->end) of the device's domain as
 * mappings (DMA_KIND_WALKED) into r->maps; *aperture_end: the domain's.
 * 0, or a failure with msg.
 */
static int walk_window(struct dma_ctx *c, struct dma_read *r,
		       const struct dma_window *w, uint64_t *aperture_end,
		       char *msg, size_t size)
{
	struct ptwalk_iommu_record *recs = NULL;
	uint32_t domain = PTWALK_IOMMU_NONE;
	char type[32];
	ssize_t got;
	int err;

	pci_sysfs_group_type(PCI_SYSFS_DEVICES, c->device, type, sizeof(type));
	err = domain_read_start(&c->dr, c->fd, w->start, w->end);
	if (err)
		return (int)diagnose_iommu(-err, c->device, type, w->start,
					   w->end, msg, size);
	got = ptwalk_read_all(c->fd, sizeof(*recs), IOMMU_BATCH,
			      read_iommu_batch, (void **)&recs);
	if (got > 0) {
		domain = recs[0].domain;
		*aperture_end = recs[0].aperture_end;
	}
	domain_read_end(&c->dr, domain);
	if (got < 0)
		return (int)diagnose_iommu_read((int)-got, c->device, type,
						w->start, w->end, msg, size);
	if (!paging(domain)) {
		free(recs);
		snprintf(msg, size,
			 "device %s: this kernel does not track the DMA API (Linux 6.12 or later, then ptcompare --dma-track %s), and its %s domain has no mappings of its own to walk",
			 c->device, c->device, iommu_domain_name(domain) ?
			 iommu_domain_name(domain) : "unknown");
		return FAIL_DMA_TRACK_UNSUPPORTED;
	}
	for (ssize_t i = 0; i < got; i++) {
		if (recs[i].pfn == PTWALK_PFN_NONE)
			continue;
		if (r->q.nr_maps == DMA_MAX) {
			r->q.overflow++;
			continue;
		}
		r->maps[r->q.nr_maps++] = (struct ptwalk_dma_mapping){
			.dma = recs[i].iova, .phys = recs[i].pfn << c->shift,
			.size = recs[i].nr_pages << c->shift,
			.kind = DMA_KIND_WALKED, .flags = PTWALK_DMA_F_PAGE,
		};
	}
	c->walk_domain = domain;
	free(recs);
	return 0;
}

/*
 * Where the DMA API is not tracked (before 6.12, or the device not
 * tracked), with --dma-api: the device's domain walked over --range, or
 * its first and last WALK_SPAN bytes of device addresses, each run of
 * translated device addresses one mapping.  0, or a failure with msg.
 */
static int walk_domain(struct dma_ctx *c, struct dma_read *r, char *msg,
		       size_t size)
{
	uint64_t aperture_end = 0;
	unsigned int bits;
	int err;

	c->nr_win = 1;
	c->win[0] = c->has_range ? (struct dma_window){ c->start, c->end } :
				   (struct dma_window){ 0, WALK_SPAN };
	err = walk_window(c, r, &c->win[0], &aperture_end, msg, size);
	bits = pci_sysfs_dma_mask_bits(PCI_SYSFS_DEVICES, c->device);
	if (bits && bits < 64 && aperture_end > (1ull << bits) - 1)
		aperture_end = (1ull << bits) - 1;
	/* an aperture that ends where no page can: nothing above to read */
	if (!err && !c->has_range && aperture_end >= WALK_SPAN &&
	    aperture_end != UINT64_MAX) {
		uint64_t end = (aperture_end + 1) >> c->shift << c->shift;
		uint64_t start = end - WALK_SPAN < WALK_SPAN ? WALK_SPAN :
							     end - WALK_SPAN;

		if (start < end) {
			c->win[c->nr_win++] = (struct dma_window){ start, end };
			err = walk_window(c, r, &c->win[1], &aperture_end, msg,
					  size);
		}
	}
	r->q.live = r->q.nr_maps;
	return err;
}

/* Keeps the mappings that meet [c->start, c->end) (--range). */
static void keep_in_range(const struct dma_ctx *c, struct dma_read *r)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < r->q.nr_maps; i++)
		if (r->maps[i].dma < c->end &&
		    r->maps[i].dma + r->maps[i].size > c->start)
			r->maps[k++] = r->maps[i];
	r->q.nr_maps = k;
}

static void read_free(struct dma_read *r)
{
	free(r->maps);
	free(r->findings);
	free(r->items);
	free(r->pages);
	memset(r, 0, sizeof(*r));
}

static int read_once(struct dma_ctx *c, struct dma_read *r, char *msg,
		     size_t size)
{
	size_t total = 0;
	int err;

	r->maps = calloc(DMA_MAX, sizeof(*r->maps));
	if (!r->maps)
		goto oom;
	err = c->walk ? 0 : ptwalk_dma_maps(c->fd, c->device, r->maps, DMA_MAX,
					    &r->q);
	if (c->dma_api && (err == -EOPNOTSUPP || err == -ENOENT))
		c->walk = true;
	if (c->walk) {
		/* a refused query leaves its room in q: the walk starts empty */
		memset(&r->q, 0, sizeof(r->q));
		err = walk_domain(c, r, msg, size);
		if (err)
			return err;
	} else if (err) {
		return (int)diagnose_dma_track(-err, c->device, false, msg,
					       size);
	} else if (c->has_range) {
		keep_in_range(c, r);
	}
	r->findings = calloc(r->q.nr_maps + 1, sizeof(*r->findings));
	r->items = calloc(r->q.nr_maps + 1, sizeof(*r->items));
	if (!r->findings || !r->items)
		goto oom;
	for (uint32_t i = 0; i < r->q.nr_maps; i++) {
		struct dma_item *it = &r->items[i];

		it->m = r->maps[i];
		it->nr_pages = dma_pages_of(&it->m, 1ull << c->shift);
		it->n = it->nr_pages < DMA_PAGES_MAX ? (size_t)it->nr_pages :
						       DMA_PAGES_MAX;
		total += it->n;
	}
	r->pages = calloc(total + 1, sizeof(*r->pages));
	if (!r->pages)
		goto oom;
	total = 0;
	for (uint32_t i = 0; i < r->q.nr_maps; i++) {
		r->items[i].pages = &r->pages[total];
		read_pages(c, &r->items[i], &r->pages[total], &r->findings[i]);
		total += r->items[i].n;
	}
	return 0;
oom:
	snprintf(msg, size, "out of memory for the mappings of %s", c->device);
	return FAIL_INTERNAL;
}

static bool user_frame(enum dma_frame f)
{
	return f == DMA_FRAME_ANONYMOUS || f == DMA_FRAME_PAGE_CACHE;
}

static uint64_t shown(const struct dma_page *p)
{
	return p->pfn != PTWALK_PFN_NONE ? p->pfn :
	       p->iommu_read ? p->iommu_pfn : PTWALK_PFN_NONE;
}

static int by_pfn(const void *a, const void *b)
{
	const struct frame_run *x = a, *y = b;

	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

/* The user frames of the items as sorted, disjoint runs: their count. */
static size_t user_runs(const struct dma_read *r, size_t total,
			struct frame_run *runs)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < total; i++)
		if (user_frame(r->pages[i].what) &&
		    shown(&r->pages[i]) != PTWALK_PFN_NONE)
			runs[n++] = (struct frame_run){ shown(&r->pages[i]), 1 };
	qsort(runs, n, sizeof(*runs), by_pfn);
	for (size_t i = 0; i < n; i++) {
		if (k && runs[i].pfn < runs[k - 1].pfn + runs[k - 1].pages)
			continue;
		if (k && runs[i].pfn == runs[k - 1].pfn + runs[k - 1].pages)
			runs[k - 1].pages++;
		else
			runs[k++] = runs[i];
	}
	return k;
}

/* The process mapping pfn in ps, into w: false where none does. */
static bool who_maps(const struct phys_scan *ps, uint64_t pfn,
		     enum dma_frame what, struct dma_page_who *w)
{
	for (size_t i = 0; i < ps->set.n; i++) {
		const struct phys_mapping *m = &ps->set.m[i];

		if (pfn < m->pfn || pfn >= m->pfn + m->pages)
			continue;
		w->pid = m->pid;
		w->va = m->addr + ((pfn - m->pfn) << ps->set.page_shift);
		/* a process name, cut as the kernel's own TASK_COMM_LEN */
		snprintf(w->comm, sizeof(w->comm), "%.15s",
			 ps->procs[m->proc].comm);
		if (what == DMA_FRAME_PAGE_CACHE)
			snprintf(w->file, sizeof(w->file), "%.255s",
				 ps->vmas[m->vma].name);
		return true;
	}
	return false;
}

/*
 * The processes that map the user frames (anonymous or page cache), in
 * ptwalk's records of every process: 0, or -errno.
 */
static int find_users(struct dma_ctx *c, const struct dma_read *r,
		      size_t total, struct dma_page_who *who)
{
	struct frame_run *runs = calloc(total + 1, sizeof(*runs));
	struct phys_scan *ps = malloc(sizeof(*ps));
	size_t n = runs ? user_runs(r, total, runs) : 0;
	pid_t pid = 0;
	int err = runs && ps ? 0 : -ENOMEM;

	if (!err && n) {
		phys_scan_init(ps, c->fd, runs, n, c->shift);
		err = phys_scan_all(ps, &pid);
		for (size_t i = 0; !err && i < total; i++)
			if (user_frame(r->pages[i].what))
				who_maps(ps, shown(&r->pages[i]),
					 r->pages[i].what, &who[i]);
		phys_scan_free(ps);
	}
	free(ps);
	free(runs);
	return err;
}

/*
 * The file of each page-cache frame, from ptwalk.ko (which finds it
 * whether a process maps the frame or not); a frame it cannot name keeps
 * the path of the process mapping that find_users() found.
 */
/* " (deleted)" after an unlinked name, as /proc/PID/maps says it. */
static void append_deleted(char *file, size_t size)
{
	static const char tag[] = " (deleted)";
	size_t len = strnlen(file, size - 1);

	if (len + sizeof(tag) > size)
		len = size - sizeof(tag);
	memcpy(file + len, tag, sizeof(tag));
}

static void name_files(struct dma_ctx *c, const struct dma_read *r,
		       size_t total, struct dma_page_who *who)
{
	for (size_t i = 0; i < total; i++) {
		struct ptwalk_frame_file ff;

		if (r->pages[i].what != DMA_FRAME_PAGE_CACHE ||
		    ptwalk_frame_file(c->fd, shown(&r->pages[i]), &ff))
			continue;
		if (ff.path_flags & PTWALK_FRAME_PATH_DISCONNECTED)
			snprintf(who[i].file, sizeof(who[i].file),
				 "(no name from the root)");
		else if (snprintf(who[i].file, sizeof(who[i].file), "%.*s%s",
				  (int)sizeof(ff.path) - 1, ff.path,
				  ff.path_flags & PTWALK_FRAME_PATH_CUT ?
				  "..." : "") >= 0 &&
			 (ff.path_flags & PTWALK_FRAME_PATH_DELETED))
			append_deleted(who[i].file, sizeof(who[i].file));
		snprintf(who[i].fstype, sizeof(who[i].fstype), "%.*s",
			 (int)sizeof(ff.fstype) - 1, ff.fstype);
		who[i].ino = ff.ino;
	}
}

/* /proc/iomem's name of each MMIO frame, where iomem could be read. */
static void name_mmio(const struct dma_read *r, size_t total,
		      unsigned int shift, struct dma_page_who *who)
{
	FILE *f = fopen("/proc/iomem", "re");
	struct iomem m = { 0 };
	char why[200];

	if (!f)
		return;
	if (!iomem_parse_file(&m, f, why, sizeof(why)))
		for (size_t i = 0; i < total; i++)
			if (r->pages[i].what == DMA_FRAME_MMIO &&
			    shown(&r->pages[i]) != PTWALK_PFN_NONE)
				iomem_path(&m, iomem_find(&m, shown(&r->pages[i]) << shift),
					   who[i].iomem, sizeof(who[i].iomem));
	iomem_free(&m);
	fclose(f);
}

static int report(struct dma_ctx *c, const struct cli_options *o,
		  struct dma_read *first, const struct dma_read *again,
		  const char *driver, char *msg, size_t size)
{
	struct dma_inventory inv = {
		.device = o->dma, .driver = driver, .q = &first->q,
		.items = first->items, .n = first->q.nr_maps,
		.dma_api = c->dma_api, .page_shift = c->shift,
		.walked = c->walk, .windows = c->win, .nr_windows = c->nr_win,
	};
	unsigned int per[DMA_NR_FINDINGS];
	struct dma_page_who *who;
	size_t total = 0;

	for (uint32_t i = 0; i < first->q.nr_maps; i++) {
		first->items[i].findings =
			dma_confirmed(&first->maps[i], first->findings[i],
				      again->maps, again->findings,
				      again->q.nr_maps);
		total += first->items[i].n;
		inv.unmap_optional += !!(first->maps[i].flags &
					 PTWALK_DMA_F_UNMAP_OPTIONAL);
	}
	who = calloc(total + 1, sizeof(*who));
	if (!who) {
		snprintf(msg, size, "out of memory for the frames of %s",
			 o->dma);
		return FAIL_INTERNAL;
	}
	inv.users_err = find_users(c, first, total, who);
	name_files(c, first, total, who);
	name_mmio(first, total, c->shift, who);
	total = 0;
	for (uint32_t i = 0; i < first->q.nr_maps; i++) {
		first->items[i].who = &who[total];
		total += first->items[i].n;
	}
	if (o->json)
		dma_inventory_print_json(stdout, &inv);
	else
		dma_inventory_print_text(stdout, &inv);
	free(who);
	return dma_inventory_count(&inv, per) ? EXIT_MISMATCH : EXIT_OK;
}

int mode_dma(const struct cli_options *o, char *msg, size_t size)
{
	struct dma_read first = { 0 }, again = { 0 };
	struct dma_ctx c = {
		.device = o->dma, .dma_api = o->dma_api,
		.shift = (unsigned int)__builtin_ctzl(
			(unsigned long)sysconf(_SC_PAGESIZE)),
		.has_range = o->has_range, .start = o->start, .end = o->end,
	};
	char driver[64];
	enum failure why;
	struct endpoint ep;
	int status;

	c.fd = connect_ptwalk(o, &ep, &why, msg, size);
	if (c.fd < 0)
		return (int)why;
	c.kpf_fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	domain_reader_init(&c.dr, c.fd, o->dma, false, true, false);
	pci_sysfs_driver(PCI_SYSFS_DEVICES, o->dma, driver, sizeof(driver));
	c.bound = driver[0];
	status = read_once(&c, &first, msg, size);
	if (!status)
		status = read_once(&c, &again, msg, size);
	if (!status)
		status = report(&c, o, &first, &again, driver, msg, size);
	if (c.kpf_fd >= 0)
		close(c.kpf_fd);
	close(c.fd);
	read_free(&first);
	read_free(&again);
	return status;
}
