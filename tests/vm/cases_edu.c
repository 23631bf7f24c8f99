// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-driver oracle, ptwalk_edu.ko (tests/fixture/edu.c), suite
 * edu: in the IOMMU lane, edu taken from vfio-pci (driver_override); in
 * the ordinary lane, where edu has no IOMMU (dma-direct), taken unbound.
 * Each DMA-API mapping kind made, and edu's DMA landed through the device
 * address the driver's record gives: the data must be found through the
 * mapping (the driver's CPU address, the process's page, the BAR) and in
 * the frame the record names (the fixture's PEEK).  Then each classic bug
 * committed on request, with what the hardware did as the proof that it
 * was (what an IOMMU stops lands without one).  Each case gives edu back
 * to the driver it had, for the lane's other cases.
 *
 * The bug cases have edu read, never write, where a frame may already
 * belong to someone else (freed, or left by a migrated page): a write
 * there would corrupt the guest's kernel.  Where the device writes, the
 * target is a frame the test still owns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include <linux/capability.h>
#include "ptcompare_run.h"
#include "vmtest.h"

#define EDU_VENDOR	"0x1234"
#define EDU_DEVICE	"0x11e8"
/* one transfer: half of edu's buffer (fixture_abi.h: never to its end) */
#define CHUNK		2048
#define CHUNK_WORDS	(CHUNK / 8)
#define EDU_KO		"/lib/ptwalk_edu.ko"
/* the lane's edu is -device edu,dma_mask=0xffffffffffff (vm-run.sh) */
#define EDU_PARAMS	"dma_bits=48"

struct edu_drv {
	char bdf[32];
	char driver[64];	/* edu's driver before the case ("": none) */
	bool iommu;		/* edu has an IOMMU group */
	bool direct;		/* untranslated: no group, or identity */
	int fd;
	struct ptwalk_edu_map staging;	/* a coherent page: DMA's source */
};

/* The pattern of seed: word i is tagged with both, never zero. */
static void pattern(uint64_t *w, unsigned int seed)
{
	for (unsigned int i = 0; i < CHUNK_WORDS; i++)
		w[i] = 0xed00000000000000ULL | (uint64_t)seed << 32 | (i + 1);
}

/* t->why prefixed with what: false. */
static bool because(struct vmtest *t, const char *what)
{
	char why[sizeof(t->why)];

	memcpy(why, t->why, sizeof(why));
	return fail(t, "%s: %s", what, why);
}

static bool sysfs_put(struct vmtest *t, const char *path, const char *s)
{
	return vm_write_text(path, s) ||
	       fail(t, "write '%s' to %s: %s", s, path, strerror(errno));
}

static bool edu_ioctl(struct vmtest *t, struct edu_drv *d, unsigned long cmd,
		      void *arg, const char *what)
{
	return !ioctl(d->fd, cmd, arg) ||
	       fail(t, "%s: %s", what, strerror(errno));
}

static bool edu_map(struct vmtest *t, struct edu_drv *d,
		    struct ptwalk_edu_map *m)
{
	return edu_ioctl(t, d, PTWALK_EDU_IOC_MAP, m, "PTWALK_EDU_IOC_MAP");
}

static bool edu_unmap(struct vmtest *t, struct edu_drv *d, uint32_t id)
{
	struct ptwalk_edu_id i = { .id = id };

	return edu_ioctl(t, d, PTWALK_EDU_IOC_UNMAP, &i, "PTWALK_EDU_IOC_UNMAP");
}

static bool edu_rw(struct vmtest *t, struct edu_drv *d, uint32_t id,
		   uint64_t off, void *buf, size_t len, bool write)
{
	struct ptwalk_edu_rw rw = {
		.id = id, .write = write, .offset = off, .len = len, .buf = A(buf),
	};

	return edu_ioctl(t, d, PTWALK_EDU_IOC_RW, &rw, "PTWALK_EDU_IOC_RW");
}

/* One transfer of CHUNK bytes between edu's buffer and addr. */
static bool edu_dma(struct vmtest *t, struct edu_drv *d, uint64_t addr,
		    bool to_ram)
{
	struct ptwalk_edu_dma x = {
		.addr = addr, .len = CHUNK, .flags = to_ram ? PTWALK_EDU_TO_RAM : 0,
	};

	return edu_ioctl(t, d, PTWALK_EDU_IOC_DMA, &x, "PTWALK_EDU_IOC_DMA");
}

/* edu writes the pattern of seed at device address addr. */
static bool land(struct vmtest *t, struct edu_drv *d, uint64_t addr,
		 unsigned int seed)
{
	uint64_t w[CHUNK_WORDS];

	pattern(w, seed);
	return edu_rw(t, d, d->staging.id, 0, w, CHUNK, true) &&
	       edu_dma(t, d, d->staging.page[0].dma, false) &&
	       edu_dma(t, d, addr, true);
}

/* What edu reads at device address addr, into w (CHUNK bytes). */
static bool fetch(struct vmtest *t, struct edu_drv *d, uint64_t addr,
		  uint64_t *w)
{
	return edu_dma(t, d, addr, false) &&
	       edu_dma(t, d, d->staging.page[0].dma, true) &&
	       edu_rw(t, d, d->staging.id, 0, w, CHUNK, false);
}

static bool edu_loaded(struct vmtest *t)
{
	int fd, err = 0;

	if (!access(PTWALK_EDU_DEV, F_OK))
		return true;
	fd = open(EDU_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (syscall(SYS_finit_module, fd, EDU_PARAMS, 0) &&
		       errno != EEXIST))
		err = errno;
	if (fd >= 0)
		close(fd);
	return !err || fail(t, "insmod %s: %s", EDU_KO, strerror(err));
}

/* The name of the driver bound to bdf into name ("": none). */
static void driver_of(const char *bdf, char name[64])
{
	char path[128], link[256];
	const char *slash;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	slash = strrchr(link, '/');
	snprintf(name, 64, "%.63s", slash ? slash + 1 : link);
}

/*
 * Whether bdf has an IOMMU group (sysfs): behind an IOMMU its device
 * addresses are IOVAs; without one (dma-direct) they are physical.
 */
static bool has_iommu_group(const char *bdf)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group", bdf);
	return !access(path, F_OK);
}

/* Why d's device addresses are physical (d->direct), for a failure. */
static const char *direct_why(const struct edu_drv *d)
{
	return d->iommu ? "identity domain" : "no IOMMU";
}

/* edu unbound from whatever driver has it (none: nothing to do). */
static bool unbind(struct vmtest *t, const char *bdf)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", bdf);
	if (access(path, F_OK))
		return true;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver/unbind",
		 bdf);
	return sysfs_put(t, path, bdf);
}

/*
 * edu given back to the driver it had (vfio-pci in the IOMMU lane, as
 * its other cases want it; none in the lane without an IOMMU).
 */
static bool edu_restore(struct vmtest *t, struct edu_drv *d)
{
	char path[192];
	bool ok;

	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	ok = unbind(t, d->bdf);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 d->bdf);
	ok = sysfs_put(t, path, "\n") && ok;
	if (!*d->driver || !strcmp(d->driver, PTWALK_EDU_DRIVER))
		return ok;
	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/bind", d->driver);
	return sysfs_put(t, path, d->bdf) && ok;
}

/* edu bound to ptwalk_edu, its control device open, a staging page. */
static bool edu_bind(struct vmtest *t, struct edu_drv *d)
{
	char path[128];

	d->fd = -1;
	if (!find_pci(t, EDU_VENDOR, EDU_DEVICE, d->bdf, sizeof(d->bdf)) ||
	    !edu_loaded(t))
		return false;
	driver_of(d->bdf, d->driver);
	d->iommu = has_iommu_group(d->bdf);
	d->direct = !d->iommu || vm_pci_identity_default(d->bdf);
	if (!unbind(t, d->bdf))
		return false;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 d->bdf);
	if (!sysfs_put(t, path, PTWALK_EDU_DRIVER) ||
	    !sysfs_put(t, "/sys/bus/pci/drivers/" PTWALK_EDU_DRIVER "/bind",
		       d->bdf))
		goto restore;
	d->fd = open(PTWALK_EDU_DEV, O_RDWR | O_CLOEXEC);
	if (d->fd < 0) {
		fail(t, "open %s: %s", PTWALK_EDU_DEV, strerror(errno));
		goto restore;
	}
	d->staging = (struct ptwalk_edu_map){
		.kind = PTWALK_EDU_KIND_COHERENT, .pages = 1,
	};
	if (edu_map(t, d, &d->staging))
		return true;
restore:
	edu_restore(t, d);
	return false;
}

/*
 * The frame the record names holds what edu wrote: the fixture reads its
 * first 8 bytes through the kernel's linear map (a page-aligned record).
 */
static bool frame_holds(struct vmtest *t, uint64_t phys, uint64_t want)
{
	uint64_t v;

	if (phys % PAGE)
		return fail(t, "recorded phys 0x%" PRIx64 " is not page aligned",
			    phys);
	if (!vm_peek(t, phys / PAGE, &v))
		return false;
	return v == want ||
	       fail(t, "frame 0x%" PRIx64 " holds 0x%" PRIx64 ", edu wrote 0x%"
		    PRIx64, phys / PAGE, v, want);
}

static bool same(struct vmtest *t, const uint64_t *got, unsigned int seed,
		 const char *where)
{
	uint64_t w[CHUNK_WORDS];

	pattern(w, seed);
	for (unsigned int i = 0; i < CHUNK_WORDS; i++)
		if (got[i] != w[i])
			return fail(t, "%s: word %u is 0x%" PRIx64 ", edu wrote 0x%"
				    PRIx64, where, i, got[i], w[i]);
	return true;
}

static const struct {
	uint32_t kind;
	const char *name;
} kinds[] = {
	{ PTWALK_EDU_KIND_COHERENT, "dma_alloc_coherent" },
	{ PTWALK_EDU_KIND_SINGLE, "dma_map_single" },
	{ PTWALK_EDU_KIND_PAGE, "dma_map_page" },
	{ PTWALK_EDU_KIND_SG_PIN, "dma_map_sg of pinned user pages" },
};

#define KIND_PAGES	2

/*
 * ptcompare's view of edu at device address dma (--dma-api: edu's
 * default domain is the DMA API's) names the frame the driver recorded
 * there.  Without an IOMMU group the domain is none, and the text view
 * says the device address is physical.
 */
static bool view_names(struct vmtest *t, struct edu_drv *d, uint64_t dma,
		       uint64_t phys)
{
	char addr[24];
	const char *json[] = { "ptcompare", "--json", "--dma-api", "--iommu",
			       d->bdf, addr, NULL };
	const char *text[] = { "ptcompare", "--dma-api", "--iommu", d->bdf,
			       addr, NULL };
	struct json_object *dev, *dom;
	struct pc_result r = { 0 };
	const char *domain = "";
	bool ok;

	snprintf(addr, sizeof(addr), "0x%" PRIx64, dma);
	if (!pc_run(t, &r, json))
		return false;
	ok = r.status == EXIT_OK ||
	     fail(t, "ptcompare --json --dma-api --iommu %s %s: exit %d: %s",
		  d->bdf, addr, r.status, r.err);
	r.doc = ok ? json_tokener_parse(r.out) : NULL;
	dev = r.doc ? pc_get(r.doc, "device") : NULL;
	dom = dev ? pc_get(dev, "domain") : NULL;
	if (dom)
		domain = json_object_get_string(dom);
	if (ok && !dom)
		ok = fail(t, "no device domain: %.300s", r.out);
	if (ok && (!strcmp(domain, "none") == d->iommu))
		ok = fail(t, "domain %s, and edu has %s IOMMU group", domain,
			  d->iommu ? "an" : "no");
	if (ok && pc_hex_or_none(dev, "device_pfn") != phys / PAGE)
		ok = fail(t, "the device view of 0x%" PRIx64 " is frame 0x%"
			  PRIx64 ", the driver recorded 0x%" PRIx64, dma,
			  pc_hex_or_none(dev, "device_pfn"), phys / PAGE);
	pc_free(&r);
	if (!ok || d->iommu)
		return ok;
	if (!pc_run(t, &r, text))
		return false;
	ok = (r.status == EXIT_OK &&
	      strstr(r.out, "no IOMMU: device address = physical")) ||
	     fail(t, "ptcompare --dma-api --iommu %s %s: exit %d, no word of no IOMMU: %.300s",
		  d->bdf, addr, r.status, r.out);
	pc_free(&r);
	return ok;
}

/* One mapping of kind k: edu's DMA to each page lands where recorded. */
static bool kind_lands(struct vmtest *t, struct edu_drv *d, size_t k)
{
	struct ptwalk_edu_map m = {
		.kind = kinds[k].kind, .dir = PTWALK_EDU_BIDIRECTIONAL,
		.pages = KIND_PAGES,
	};
	bool user = m.kind == PTWALK_EDU_KIND_SG_PIN, ok = true;
	char *buf = NULL;

	if (user) {
		buf = map_anon(t, KIND_PAGES * PAGE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1);
		if (!buf)
			return false;
		touch_write(buf, KIND_PAGES * PAGE);
		m.user_addr = A(buf);
	}
	if (!edu_map(t, d, &m)) {
		if (buf)
			munmap(buf, KIND_PAGES * PAGE);
		return because(t, kinds[k].name);
	}
	for (unsigned int i = 0; ok && i < KIND_PAGES; i++) {
		unsigned int seed = (unsigned int)k * 16 + i + 1;
		uint64_t got[CHUNK_WORDS], w0[CHUNK_WORDS];
		struct ptwalk_fixture_translate o = { .addr = A(buf + i * PAGE) };

		pattern(w0, seed);
		ok = land(t, d, m.page[i].dma, seed);
		if (ok && user)
			memcpy(got, buf + i * PAGE, CHUNK);
		else if (ok)
			ok = edu_rw(t, d, m.id, i * PAGE, got, CHUNK, false);
		ok = ok && same(t, got, seed, "read back through the mapping");
		ok = ok && frame_holds(t, m.page[i].phys, w0[0]);
		/* dma-direct: the device address is the physical one */
		if (ok && d->direct && m.page[i].dma != m.page[i].phys)
			ok = fail(t, "%s, yet dma 0x%" PRIx64
				  " is not the physical 0x%" PRIx64,
				  direct_why(d), (uint64_t)m.page[i].dma,
				  (uint64_t)m.page[i].phys);
		/* the last page: past the first of a merged SG range */
		if (i == KIND_PAGES - 1)
			ok = ok && view_names(t, d, m.page[i].dma,
					      m.page[i].phys);
		/* the process's page is the frame the driver recorded */
		if (ok && user && oracle(t, o.addr, &o) &&
		    o.pfn != m.page[i].phys / PAGE)
			ok = fail(t, "user page %u: frame 0x%" PRIx64
				  ", recorded 0x%" PRIx64, i, (uint64_t)o.pfn,
				  (uint64_t)m.page[i].phys / PAGE);
		if (!ok) {
			char what[128];

			snprintf(what, sizeof(what), "%s, page %u at dma 0x%"
				 PRIx64, kinds[k].name, i,
				 (uint64_t)m.page[i].dma);
			because(t, what);
		}
	}
	ok = edu_unmap(t, d, m.id) && ok;
	if (buf)
		munmap(buf, KIND_PAGES * PAGE);
	return ok;
}

/*
 * Correct use, each kind of mapping the DMA API offers for memory:
 * dma_alloc_coherent, dma_map_single, dma_map_page, dma_map_sg of user
 * pages pinned with pin_user_pages(), two pages each; edu writes each
 * page through its recorded device address, and the data is read back
 * through the mapping and found in the recorded frame, which ptcompare's
 * device view names at the last page's address.  Without an IOMMU the device
 * address is the physical one (QEMU's q35 and virt describe no DMA
 * offset).
 */
VMTEST_CASE(edu, "edu_driver_mapping_kinds", edu_driver_mapping_kinds)
{
	struct edu_drv d;
	bool ok = true;

	if (!edu_bind(t, &d))
		return false;
	for (size_t k = 0; ok && k < sizeof(kinds) / sizeof(kinds[0]); k++)
		ok = kind_lands(t, &d, k);
	return edu_restore(t, &d) && ok;
}

/*
 * The display's memory decoding on (sysfs enable: pci_enable_device()),
 * *was its enable count before.  x86's firmware turns it on at boot; on
 * arm64's and riscv64's virt the kernel assigns the BARs and nothing
 * enables the device until a driver does: its BAR then reads as all ones
 * (QEMU's gpex answers the unclaimed window so) and edu's writes to it
 * are dropped.
 */
static bool display_decodes(struct vmtest *t, const char *dir, char *was,
			    size_t size)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/enable", dir);
	if (!vm_read_text(path, was, size))
		return fail(t, "%s: %s", path, strerror(errno));
	return strcmp(was, "0") || sysfs_put(t, path, "1");
}

/*
 * dma_map_resource of the display's BAR 0 (a frame without a struct
 * page, peer to peer), its memory decoding on: edu's write lands in the
 * display's memory, read back through the BAR mapped from sysfs.
 */
VMTEST_CASE(edu, "edu_driver_map_resource", edu_driver_map_resource)
{
	struct ptwalk_edu_map m = {
		.kind = PTWALK_EDU_KIND_RESOURCE, .dir = PTWALK_EDU_FROM_DEVICE,
		.pages = 1,
	};
	uint64_t bar, got[CHUNK_WORDS];
	char dir[256], path[300], was[16] = "", *p;
	struct edu_drv d;
	bool ok;

	p = vm_map_display(t, "resource0", 2 * PAGE, &bar, dir, sizeof(dir));
	if (!p)
		return false;
	if (!display_decodes(t, dir, was, sizeof(was)) || !edu_bind(t, &d)) {
		munmap(p, 2 * PAGE);
		return false;
	}
	m.resource = bar + PAGE;
	ok = edu_map(t, &d, &m);
	if (ok && m.page[0].phys != bar + PAGE)
		ok = fail(t, "recorded phys 0x%" PRIx64 ", mapped 0x%" PRIx64,
			  (uint64_t)m.page[0].phys, bar + PAGE);
	if (ok && d.direct && m.page[0].dma != bar + PAGE)
		ok = fail(t, "%s, yet dma 0x%" PRIx64 " is not the BAR's 0x%"
			  PRIx64, direct_why(&d), (uint64_t)m.page[0].dma,
			  bar + PAGE);
	ok = ok && land(t, &d, m.page[0].dma, 0x77);
	if (ok) {
		memcpy(got, p + PAGE, CHUNK);
		ok = same(t, got, 0x77, "the BAR");
	}
	if (m.state)
		ok = edu_unmap(t, &d, m.id) && ok;
	munmap(p, 2 * PAGE);
	snprintf(path, sizeof(path), "%s/enable", dir);
	if (!strcmp(was, "0"))
		ok = sysfs_put(t, path, "0") && ok;
	return edu_restore(t, &d) && ok;
}

/* Whether the running kernel is release major.minor or later. */
static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	return !uname(&u) && sscanf(u.release, "%d.%d", &ma, &mi) == 2 &&
	       (ma > major || (ma == major && mi >= minor));
}

/* PTWALK_IOC_DMA_TRACK of bdf (off: stop): 0 or the errno. */
static int dma_track(int fd, const char *bdf, bool off)
{
	struct ptwalk_dma_track q = {
		.size = sizeof(q), .flags = off ? PTWALK_DMA_TRACK_OFF : 0,
	};

	snprintf(q.device, sizeof(q.device), "%s", bdf);
	return ioctl(fd, PTWALK_IOC_DMA_TRACK, &q) ? errno : 0;
}

/*
 * The emulated IOMMU the lane booted (scripts/vm-run.sh puts
 * ptwalk_iommu=vtd|amd|virtio on the command line), "" if none.
 */
static void lane_iommu(char *kind, size_t size)
{
	char line[4096];
	const char *p;
	FILE *f = fopen("/proc/cmdline", "re");

	kind[0] = 0;
	if (f && fgets(line, sizeof(line), f) &&
	    (p = strstr(line, " ptwalk_iommu=")))
		snprintf(kind, size, "%.*s", (int)strcspn(p + 14, " \n"),
			 p + 14);
	if (f)
		fclose(f);
}

/*
 * Whether the lane's IOMMU logs edu's faults: VT-d and virtio-iommu do;
 * QEMU 7.2's AMD-Vi logs none (tests/unit/data/iommu_faults/README.md).
 */
static bool faults_logged(void)
{
	char kind[32];

	lane_iommu(kind, sizeof(kind));
	return !strcmp(kind, "vtd") || !strcmp(kind, "virtio");
}

/*
 * The IOMMU's fault line for an access to the page of addr among the
 * lines logged since kmsg_from_now(), its /dev/kmsg record up to the
 * first newline into line[size]: VT-d's "DMAR: [DMA Write NO_PASID]
 * Request device [00:03.0] fault addr 0x5003000 [fault reason 0x05] PTE
 * Write access is not set" (kind "Write" or "Read"), virtio-iommu's
 * "virtio_iommu virtio0: page fault from EP 24 at 0x5003000 [W]" (its
 * access, when QEMU gives one, unread here).  The line may come after
 * the DMA's completion (SMMUv3's event thread, virtio-iommu's event
 * queue): waits for it up to FAULT_LOG_WAIT_S.  Closes fd.
 */
#define FAULT_LOG_WAIT_S 10
static bool fault_logged(struct vmtest *t, int fd, const char *kind,
			 uint64_t addr, char *line, size_t size)
{
	double until = vm_now_s() + FAULT_LOG_WAIT_S;
	char rec[2048], want[32];
	bool found = false;
	ssize_t n;

	snprintf(want, sizeof(want), "[DMA %s", kind);
	while (!found && ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
			  (n < 0 && errno == EPIPE) ||
			  (n < 0 && errno == EAGAIN && vm_now_s() < until))) {
		const char *a;

		if (n < 0 && errno == EAGAIN)
			usleep(50000);
		if (n <= 0)
			continue;
		rec[n] = '\0';
		rec[strcspn(rec, "\n")] = '\0';
		if (strstr(rec, want))
			a = strstr(rec, "fault addr 0x");
		else if (strstr(rec, "fault from EP"))
			a = strstr(rec, " at 0x");
		else
			a = NULL;
		a = a ? strstr(a, "0x") : NULL;
		found = a && strtoull(a, NULL, 16) / PAGE == addr / PAGE;
		if (found)
			snprintf(line, size, "%s", rec);
	}
	close(fd);
	return found || fail(t, "no %s fault logged at 0x%" PRIx64 " in %d s",
			     kind, addr, FAULT_LOG_WAIT_S);
}

/* What --faults must say of a tracked device's fault: the driver's record. */
struct dma_want {
	uint64_t dma, phys;	/* the faulting page's, as recorded */
	const char *dir;	/* "to_device", ... */
	bool live;		/* still mapped at the question */
	const char *cause;	/* NULL: none named */
	const char *frame;	/* what the frame is now */
	uint64_t at;		/* this process maps the frame at at (0: no) */
};

/* --faults's JSON fault of bdf at the page of dma (any access), or NULL. */
static struct json_object *fault_of(struct json_object *doc, const char *bdf,
				    uint64_t dma)
{
	struct json_object *faults = doc ? pc_get(doc, "faults") : NULL;
	size_t n = faults ? json_object_array_length(faults) : 0;

	for (size_t i = n; i-- > 0;) {
		struct json_object *f = json_object_array_get_idx(faults, i);
		struct json_object *dev = pc_get(f, "device");
		uint64_t iova;

		if (dev && !strcmp(json_object_get_string(dev), bdf) &&
		    pc_hex(f, "iova", &iova) && iova != NO_PFN &&
		    iova / PAGE == dma / PAGE)
			return f;
	}
	return NULL;
}

/* JSON member key of o is the string want (NULL: is null). */
static bool str_is(struct json_object *o, const char *key, const char *want)
{
	struct json_object *v = pc_get(o, key);

	if (!want)
		return !v;
	return v && !strcmp(json_object_get_string(v), want);
}

/* Whether frame_mappings of d lists this process at address at. */
static bool maps_here(struct json_object *d, uint64_t at)
{
	struct json_object *fm = pc_get(d, "frame_mappings");

	for (size_t i = 0; fm && i < json_object_array_length(fm); i++) {
		struct json_object *m = json_object_array_get_idx(fm, i);

		if (json_object_get_int(pc_get(m, "pid")) == getpid() &&
		    pc_hex_or_none(m, "start") == at)
			return true;
	}
	return false;
}

/*
 * The "dma" part of --faults's fault of bdf at w->dma against the
 * driver's record: the last mapping at that device address, the frame
 * it recorded, its direction, live or unmapped before the fault, the
 * cause named, what the frame is now and who maps it.
 */
static bool dma_explained(struct vmtest *t, struct json_object *doc,
			  const char *bdf, const struct dma_want *w,
			  const char *what)
{
	struct json_object *f = fault_of(doc, bdf, w->dma);
	struct json_object *d = f ? pc_get(f, "dma") : NULL;
	struct json_object *last = d ? pc_get(d, "last_mapping") : NULL;
	struct json_object *live = last ? pc_get(last, "live") : NULL;
	const char *dump = d ? json_object_to_json_string(d) : "null";

	if (!f)
		return fail(t, "%s: no fault of %s at 0x%" PRIx64 ": %.600s",
			    what, bdf, w->dma, doc ? json_object_to_json_string(
				pc_get(doc, "faults")) : "no JSON");
	if (!last)
		return fail(t, "%s: no last mapping: %.600s", what, dump);
	if (pc_hex_or_none(last, "dma") != w->dma ||
	    pc_hex_or_none(last, "fault_phys") / PAGE != w->phys / PAGE)
		return fail(t, "%s: last mapping dma 0x%" PRIx64 " frame 0x%"
			    PRIx64 ", the driver's record 0x%" PRIx64 " 0x%"
			    PRIx64, what, pc_hex_or_none(last, "dma"),
			    pc_hex_or_none(last, "fault_phys") / PAGE, w->dma,
			    w->phys / PAGE);
	if (!str_is(last, "dir", w->dir) || !live ||
	    json_object_get_boolean(live) != w->live ||
	    (!w->live && !pc_get(last, "unmapped_us_before")))
		return fail(t, "%s: expected %s, %s: %.600s", what, w->dir,
			    w->live ? "live" : "unmapped before the fault",
			    dump);
	if (!str_is(d, "cause", w->cause) || !str_is(d, "frame", w->frame))
		return fail(t, "%s: cause and frame now: expected %s, %s: %.600s",
			    what, w->cause ? w->cause : "null", w->frame, dump);
	if (w->at && !maps_here(d, w->at))
		return fail(t, "%s: frame_mappings lack pid %d at 0x%" PRIx64
			    ": %.600s", what, (int)getpid(), w->at, dump);
	return true;
}

/* ptcompare ARGV into r, its JSON parsed: exit 1 (faults found) wanted. */
static bool pc_faults(struct vmtest *t, const char *const argv[],
		      struct pc_result *r)
{
	memset(r, 0, sizeof(*r));
	if (!pc_run(t, r, argv))
		return false;
	r->doc = r->len ? json_tokener_parse(r->out) : NULL;
	if (r->status != EXIT_MISMATCH || !r->doc)
		return fail(t, "ptcompare %s %s: exit %d, expected 1: %s%.300s",
			    argv[1], argv[2], r->status, r->err,
			    r->out ? r->out : "");
	return true;
}

/*
 * --since's argument for a ptcompare run now that keeps the fault of line
 * (its /dev/kmsg record, "PRIO,SEQ,TIME_US,FLAGS;..."): the seconds since
 * it, and 2 more for the run's start-up.  Earlier cases' faults are 5 s
 * older still (their sleep for the ratelimits).  --since counts back from
 * CLOCK_MONOTONIC and the line is stamped in printk's clock: the skew
 * between them cancels, counted from the line's own stamp.
 */
static bool since_fault(struct vmtest *t, const char *line, char *arg,
			size_t size)
{
	struct timespec now;
	uint64_t us, now_us;

	if (!kmsg_record_us(line, &us))
		return fail(t, "no time in the record \"%.200s\"", line);
	clock_gettime(CLOCK_MONOTONIC, &now);
	now_us = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
	snprintf(arg, size, "%" PRIu64,
		 (now_us > us ? (now_us - us) / 1000000 : 0) + 2);
	return true;
}

/* ptcompare --faults [--json] --since (the fault of line's) into r. */
static bool faults_since(struct vmtest *t, const char *line, bool json,
			 struct pc_result *r)
{
	char since[32];
	const char *with_json[] = { "ptcompare", "--json", "--faults",
				    "--since", since, NULL };
	const char *text[] = { "ptcompare", "--faults", "--since", since,
			       NULL };

	memset(r, 0, sizeof(*r));
	if (!since_fault(t, line, since, sizeof(since)))
		return false;
	return json ? pc_faults(t, with_json, r) : pc_run(t, r, text);
}

/*
 * ptcompare's text of the fault of line, as TAP comments: docs/report.md's
 * example.
 */
static void show_faults(struct vmtest *t, const char *line)
{
	struct pc_result r;
	char *l, *save = NULL;

	if (!faults_since(t, line, false, &r))
		return;
	printf("# $ ptcompare --faults ... (exit %d)\n", r.status);
	for (l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		printf("#   %s\n", l);
	pc_free(&r);
}

/*
 * The fault of a tracked device explained, from the log (--faults) and
 * from its line pasted (--fault-line): as w says.
 */
static bool faults_explained(struct vmtest *t, const char *bdf,
			     const char *line, const struct dma_want *w)
{
	const char *pasted[] = { "ptcompare", "--json", "--faults",
				 "--fault-line", line, NULL };
	struct pc_result r;
	bool ok;

	ok = faults_since(t, line, true, &r) &&
	     dma_explained(t, r.doc, bdf, w, "--faults");
	if (ok)		/* docs/json.md's example */
		printf("# dma: %s\n", json_object_to_json_string_ext(
			pc_get(fault_of(r.doc, bdf, w->dma), "dma"),
			JSON_C_TO_STRING_PLAIN));
	pc_free(&r);
	ok = ok && pc_faults(t, pasted, &r) &&
	     dma_explained(t, r.doc, bdf, w, "--fault-line");
	pc_free(&r);
	if (ok)
		show_faults(t, line);
	return ok;
}

/*
 * Where DMA tracking is not there (before 6.12) or not on, --faults says
 * so for the kernel driver's fault of line, with the hint to --dma-track
 * in the text.
 */
static bool dma_untracked_said(struct vmtest *t, const char *bdf,
			       const char *line, uint64_t dma)
{
	const char *note = kernel_at_least(6, 12) ? "not tracked" :
			   "this kernel has no DMA API tracepoints (Linux 6.12+)";
	char hint[128];
	struct pc_result r;
	struct json_object *d;
	bool ok;

	ok = faults_since(t, line, true, &r);
	d = ok ? pc_get(fault_of(r.doc, bdf, dma), "dma") : NULL;
	if (ok && !str_is(d, "note", note))
		ok = fail(t, "untracked: dma %s, expected the note \"%s\"",
			  d ? json_object_to_json_string(d) : "null", note);
	pc_free(&r);
	snprintf(hint, sizeof(hint), "not tracked: run ptcompare --dma-track %s",
		 bdf);
	if (ok && kernel_at_least(6, 12)) {
		ok = faults_since(t, line, false, &r);
		if (ok && !strstr(r.out ? r.out : "", hint))
			ok = fail(t, "untracked: the text lacks \"%s\": %.600s",
				  hint, r.out ? r.out : "");
		pc_free(&r);
	}
	return ok;
}

/*
 * edu tracked by ptwalk.ko from a session of its own (fd), from 6.12;
 * -1 before (nothing to track with), -2 on a failure (t says).
 */
static int track_edu(struct vmtest *t, const char *bdf)
{
	int fd, err;

	if (!kernel_at_least(6, 12))
		return -1;
	fd = vm_open_query(t);
	if (fd < 0)
		return -2;
	err = dma_track(fd, bdf, false);
	if (!err)
		return fd;
	close(fd);
	fail(t, "PTWALK_IOC_DMA_TRACK %s: %s", bdf, strerror(err));
	return -2;
}

/* Tracking of bdf stopped, fd closed (fd < 0: nothing). */
static void untrack_edu(const char *bdf, int fd)
{
	if (fd < 0)
		return;
	dma_track(fd, bdf, true);
	close(fd);
}

/*
 * The finding a bug of mapping m is found as: none where the DMA API let
 * its driver skip m's unmap (the fixture says so: dma_need_unmap() false,
 * dma-direct from 6.16), which may be over as far as anyone can tell.
 */
static const char *found_as(const struct ptwalk_edu_map *m,
			    const char *finding)
{
	return m->flags & PTWALK_EDU_MAP_UNMAP_OPTIONAL ? NULL : finding;
}

/*
 * Untranslated (no IOMMU, or an identity domain) a device address is the
 * frame's: the record's dma and phys are one, the oracle that the mapping
 * bypasses any IOMMU page table.  Identity default domains: 5.10's lane
 * (iommu.passthrough=1) and riscv64's (Debian's riscv64 kernels lack IOMMU_DMA,
 * drivers/iommu/Kconfig: def_bool ARM64 || X86 || S390, so drivers map
 * with dma-direct).
 */
static bool dma_is_phys(struct vmtest *t, const struct ptwalk_edu_map *m)
{
	return m->page[0].dma == m->page[0].phys ||
	       fail(t, "identity domain, but dma 0x%" PRIx64 " is not phys 0x%"
		    PRIx64, (uint64_t)m->page[0].dma, (uint64_t)m->page[0].phys);
}

/*
 * The bug: edu writes a buffer mapped DMA_TO_DEVICE.  The IOMMU maps it
 * read-only, so the write is refused: the buffer keeps its zeros, and the
 * IOMMU logs a write fault at its device address (VT-d; virtio-iommu).
 * With edu tracked, --faults names the mismatch
 * (dma_write_to_device_mapping) on the live mapping the driver recorded;
 * untracked, it says so.  Untranslated (no IOMMU, or an identity default
 * domain: 5.10's lane) nothing enforces the direction: the device address
 * is the physical one and the write lands in the buffer (the driver's own
 * page, so harmless here), with no fault to explain.
 */
VMTEST_CASE(edu, "edu_driver_writes_to_device_mapping",
	    edu_driver_writes_to_device_mapping)
{
	struct ptwalk_edu_map m = {
		.kind = PTWALK_EDU_KIND_PAGE, .dir = PTWALK_EDU_TO_DEVICE,
		.pages = 1,
	};
	uint64_t got[CHUNK_WORDS];
	char line[2048];
	struct edu_drv d;
	int kmsg = -1, tfd = -1;
	bool ok, logged = faults_logged();

	if (!edu_bind(t, &d))
		return false;
	/* untranslated: nothing is refused, no fault to explain */
	logged = logged && !d.direct;
	/* the ratelimits of the IOMMUs' fault lines: earlier cases' gone */
	if (logged)
		sleep(5);
	tfd = track_edu(t, d.bdf);
	ok = tfd != -2 && edu_map(t, &d, &m);
	ok = ok && (kmsg = kmsg_from_now(t)) >= 0;
	ok = ok && land(t, &d, m.page[0].dma, 0x70);
	ok = ok && edu_rw(t, &d, m.id, 0, got, CHUNK, false);
	if (ok && d.direct) {
		ok = m.page[0].dma == m.page[0].phys ||
		     fail(t, "%s: device address 0x%" PRIx64
			  " is not the physical 0x%" PRIx64, direct_why(&d),
			  (uint64_t)m.page[0].dma, (uint64_t)m.page[0].phys);
		ok = ok && same(t, got, 0x70, "untranslated: edu's write");
		close(kmsg);
		kmsg = -1;
	}
	for (unsigned int i = 0; ok && !d.direct && i < CHUNK_WORDS; i++)
		if (got[i])
			ok = fail(t, "word %u of the DMA_TO_DEVICE buffer is 0x%"
				  PRIx64 ": edu's write landed", i, got[i]);
	if (ok && logged)
		ok = fault_logged(t, kmsg, "Write", m.page[0].dma, line,
				  sizeof(line));
	else if (kmsg >= 0)
		close(kmsg);
	if (!logged)
		printf("# edu_driver_writes_to_device_mapping: %s: --faults not asked\n",
		       d.direct ? "untranslated, nothing is refused" :
				  "this IOMMU logs no fault");
	if (ok && logged && tfd >= 0) {
		struct dma_want w = {
			.dma = m.page[0].dma, .phys = m.page[0].phys,
			.dir = "to_device", .live = true,
			.cause = "dma_write_to_device_mapping",
			.frame = "kernel",
		};

		ok = faults_explained(t, d.bdf, line, &w);
	}
	untrack_edu(d.bdf, tfd);
	if (ok && logged)
		ok = dma_untracked_said(t, d.bdf, line, m.page[0].dma);
	if (m.state)
		ok = edu_unmap(t, &d, m.id) && ok;
	return edu_restore(t, &d) && ok;
}

/*
 * The bug: DMA after unmap.  A user page pinned and mapped, written by
 * edu once (it lands), unmapped (the page stays the process's); edu's
 * next write to the same device address must not reach it, and the IOMMU
 * logs the fault (VT-d; virtio-iommu).  With edu tracked, --faults gives
 * the mapping the driver recorded (device address, frame, direction),
 * unmapped before the fault (dma_after_unmap), and the frame now this
 * process's anonymous page at the buffer.  Untranslated (no IOMMU, or an
 * identity default domain: 5.10's lane) nothing stops it: the address is
 * the frame's, so edu reads there what the process wrote since the unmap
 * (a read: the frame, unpinned now, could be reclaimed meanwhile).
 */
VMTEST_CASE(edu, "edu_driver_dma_after_unmap", edu_driver_dma_after_unmap)
{
	struct ptwalk_edu_map m = {
		.kind = PTWALK_EDU_KIND_SG_PIN, .dir = PTWALK_EDU_FROM_DEVICE,
		.pages = 1,
	};
	char *buf = map_anon(t, PAGE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	uint64_t got[CHUNK_WORDS];
	char line[2048];
	struct edu_drv d;
	int kmsg = -1, tfd = -1;
	bool ok, logged = faults_logged();

	if (!buf)
		return false;
	touch_write(buf, PAGE);
	m.user_addr = A(buf);
	if (!edu_bind(t, &d)) {
		munmap(buf, PAGE);
		return false;
	}
	/* untranslated: nothing is refused, no fault to explain */
	logged = logged && !d.direct;
	/* the ratelimits of the IOMMUs' fault lines: earlier cases' gone */
	if (logged)
		sleep(5);
	tfd = track_edu(t, d.bdf);
	ok = tfd != -2 && edu_map(t, &d, &m) && land(t, &d, m.page[0].dma, 0x71);
	if (ok) {
		memcpy(got, buf, CHUNK);
		ok = same(t, got, 0x71, "before the unmap");
	}
	ok = ok && (!d.direct || dma_is_phys(t, &m));
	ok = ok && edu_unmap(t, &d, m.id);
	ok = ok && (kmsg = kmsg_from_now(t)) >= 0;
	if (ok && d.direct) {
		pattern(got, 0x72);
		memcpy(buf, got, CHUNK);
		ok = fetch(t, &d, m.page[0].dma, got) &&
		     same(t, got, 0x72, "untranslated: read after the unmap");
	} else {
		ok = ok && land(t, &d, m.page[0].dma, 0x72);
		if (ok) {
			memcpy(got, buf, CHUNK);
			ok = same(t, got, 0x71, "after the unmap (unchanged)");
		}
	}
	if (ok && logged)
		ok = fault_logged(t, kmsg, "Write", m.page[0].dma, line,
				  sizeof(line));
	else if (kmsg >= 0)
		close(kmsg);
	if (!logged)
		printf("# edu_driver_dma_after_unmap: %s: --faults not asked\n",
		       d.direct ? "untranslated, nothing is refused" :
				  "this IOMMU logs no fault");
	if (ok && logged && tfd >= 0) {
		struct dma_want w = {
			.dma = m.page[0].dma, .phys = m.page[0].phys,
			.dir = "from_device", .live = false,
			.cause = "dma_after_unmap", .frame = "anonymous",
			.at = A(buf),
		};

		ok = faults_explained(t, d.bdf, line, &w);
	}
	untrack_edu(d.bdf, tfd);
	munmap(buf, PAGE);
	return edu_restore(t, &d) && ok;
}

/*
 * The bug: a page freed while still mapped.  The driver writes its page
 * (through the CPU), frees it and keeps the mapping: edu still reads that
 * frame through the device address, whatever it holds now (the frame read
 * through the linear map before and after the DMA).
 */
VMTEST_CASE(edu, "edu_driver_frees_mapped_page",
	    edu_driver_frees_mapped_page)
{
	struct ptwalk_edu_map m = {
		.kind = PTWALK_EDU_KIND_PAGE, .dir = PTWALK_EDU_BIDIRECTIONAL,
		.pages = 1,
	};
	uint64_t w[CHUNK_WORDS], got[CHUNK_WORDS], before = 0, after = 0;
	struct ptwalk_edu_id id;
	struct edu_drv d;
	bool ok;

	if (!edu_bind(t, &d))
		return false;
	pattern(w, 0x73);
	ok = edu_map(t, &d, &m) && edu_rw(t, &d, m.id, 0, w, CHUNK, true);
	id.id = m.id;
	ok = ok && edu_ioctl(t, &d, PTWALK_EDU_IOC_FREE_MAPPED, &id,
			     "PTWALK_EDU_IOC_FREE_MAPPED");
	ok = ok && edu_ioctl(t, &d, PTWALK_EDU_IOC_RECORD, &m,
			     "PTWALK_EDU_IOC_RECORD");
	if (ok && m.state != PTWALK_EDU_FREED_MAPPED)
		ok = fail(t, "record state %u after the free", m.state);
	ok = ok && vm_peek(t, m.page[0].phys / PAGE, &before);
	ok = ok && fetch(t, &d, m.page[0].dma, got);
	ok = ok && vm_peek(t, m.page[0].phys / PAGE, &after);
	if (ok && got[0] != before && got[0] != after)
		ok = fail(t, "edu read 0x%" PRIx64 " at the freed page's address, the frame held 0x%"
			  PRIx64 " then 0x%" PRIx64, got[0], before, after);
	if (m.state)
		ok = edu_unmap(t, &d, m.id) && ok;
	return edu_restore(t, &d) && ok;
}

/*
 * The bug: user pages taken with get_user_pages() without FOLL_PIN, their
 * references dropped once mapped.  move_pages(2) then moves the process's
 * page to the other node: the process writes its new frame, edu still
 * reads the old one (the recorded frame, which the fixture's translation
 * no longer names).
 */
VMTEST_CASE(edu, "edu_driver_unpinned_page_moves",
	    edu_driver_unpinned_page_moves)
{
	struct ptwalk_edu_map m = {
		.kind = PTWALK_EDU_KIND_SG_GUP, .dir = PTWALK_EDU_BIDIRECTIONAL,
		.flags = PTWALK_EDU_MAP_DROP_REF, .pages = 1,
	};
	char *buf = map_anon(t, PAGE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	struct ptwalk_fixture_translate o = { .addr = A(buf) };
	uint64_t w[CHUNK_WORDS], got[CHUNK_WORDS], old = 0, old_holds = 0;
	void *addrs[1] = { buf };
	int node, status = -1;
	struct edu_drv d;
	bool ok;

	if (!buf)
		return false;
	pattern(w, 0x74);
	memcpy(buf, w, CHUNK);
	m.user_addr = A(buf);
	if (!edu_bind(t, &d)) {
		munmap(buf, PAGE);
		return false;
	}
	ok = edu_map(t, &d, &m) && oracle(t, o.addr, &o);
	if (ok && o.pfn != m.page[0].phys / PAGE)
		ok = fail(t, "mapped frame 0x%" PRIx64 ", the page's 0x%" PRIx64,
			  (uint64_t)m.page[0].phys / PAGE, (uint64_t)o.pfn);
	old = o.pfn;
	ok = ok && !syscall(__NR_move_pages, 0, 1, addrs, NULL, &status, 0);
	node = status == 0 ? 1 : 0;
	if (ok && (syscall(__NR_move_pages, 0, 1, addrs, &node, &status, 0) ||
		   status != node))
		ok = fail(t, "move_pages to node %d: %s, status %d", node,
			  strerror(errno), status);
	ok = ok && oracle(t, o.addr, &o);
	if (ok && o.pfn == old)
		ok = fail(t, "the page did not move (frame 0x%" PRIx64 ")", old);
	pattern(w, 0x75);
	memcpy(buf, w, CHUNK);	/* into the new frame */
	ok = ok && fetch(t, &d, m.page[0].dma, got);
	if (ok && got[0] == w[0])
		ok = fail(t, "edu read the process's new data: the mapping moved");
	ok = ok && vm_peek(t, old, &old_holds);
	pattern(w, 0x74);
	/* the old frame's data, unless it was reused since */
	if (ok && got[0] != w[0] && got[0] != old_holds)
		ok = fail(t, "edu read 0x%" PRIx64 ", the old frame holds 0x%"
			  PRIx64, got[0], old_holds);
	if (m.state)
		ok = edu_unmap(t, &d, m.id) && ok;
	munmap(buf, PAGE);
	return edu_restore(t, &d) && ok;
}

/*
 * The bug: unbind with mappings left behind.  The driver is told to leave
 * them, unbound and bound again: edu, through the device address of the
 * first binding's mapping, still reads what the driver wrote there.
 * Unloading the driver undoes the leak (it is loaded again for the next
 * case).
 */
VMTEST_CASE(edu, "edu_driver_leaks_at_unbind", edu_driver_leaks_at_unbind)
{
	struct ptwalk_edu_map m = {
		.kind = PTWALK_EDU_KIND_PAGE, .dir = PTWALK_EDU_BIDIRECTIONAL,
		.pages = 1,
	};
	struct ptwalk_edu_id leak = { .id = 1 };
	uint64_t w[CHUNK_WORDS], got[CHUNK_WORDS];
	struct edu_drv d;
	bool ok;

	if (!edu_bind(t, &d))
		return false;
	pattern(w, 0x76);
	ok = edu_map(t, &d, &m) && edu_rw(t, &d, m.id, 0, w, CHUNK, true);
	ok = ok && edu_ioctl(t, &d, PTWALK_EDU_IOC_LEAK_AT_UNBIND, &leak,
			     "PTWALK_EDU_IOC_LEAK_AT_UNBIND");
	close(d.fd);
	d.fd = -1;
	ok = unbind(t, d.bdf) && ok;
	ok = ok && sysfs_put(t, "/sys/bus/pci/drivers/" PTWALK_EDU_DRIVER
			     "/bind", d.bdf);
	if (ok) {
		d.fd = open(PTWALK_EDU_DEV, O_RDWR | O_CLOEXEC);
		if (d.fd < 0)
			ok = fail(t, "open %s: %s", PTWALK_EDU_DEV,
				  strerror(errno));
	}
	d.staging = (struct ptwalk_edu_map){
		.kind = PTWALK_EDU_KIND_COHERENT, .pages = 1,
	};
	ok = ok && edu_map(t, &d, &d.staging);
	ok = ok && fetch(t, &d, m.page[0].dma, got);
	ok = ok && same(t, got, 0x76, "the leaked mapping after rebinding");
	if (d.fd >= 0)
		close(d.fd);
	d.fd = -1;
	/* undone with edu in its default domain, the one the leak is in */
	ok = unbind(t, d.bdf) && ok;
	if (syscall(SYS_delete_module, PTWALK_EDU_DRIVER, O_NONBLOCK))
		ok = fail(t, "rmmod %s: %s", PTWALK_EDU_DRIVER, strerror(errno));
	return edu_restore(t, &d) && ok;
}

/* --- ptwalk.ko's tracking of the DMA API (module/dma_track.c) --- */

#define TRACKED_MAX	64

struct tracked_maps {
	struct ptwalk_dma_query q;
	struct ptwalk_dma_mapping maps[TRACKED_MAX], unmaps[TRACKED_MAX];
};

/* PTWALK_IOC_DMA_MAPS of bdf into tm: 0 or the errno. */
static int dma_maps(int fd, const char *bdf, struct tracked_maps *tm)
{
	memset(&tm->q, 0, sizeof(tm->q));
	tm->q.size = sizeof(tm->q);
	snprintf(tm->q.device, sizeof(tm->q.device), "%s", bdf);
	tm->q.maps = A(tm->maps);
	tm->q.unmaps = A(tm->unmaps);
	tm->q.nr_maps = TRACKED_MAX;
	tm->q.nr_unmaps = TRACKED_MAX;
	return ioctl(fd, PTWALK_IOC_DMA_MAPS, &tm->q) ? errno : 0;
}

static const struct ptwalk_dma_mapping *
tracked_at(const struct ptwalk_dma_mapping *m, uint32_t n, uint64_t dma)
{
	for (uint32_t i = 0; i < n; i++)
		if (m[i].dma == dma)
			return &m[i];
	return NULL;
}

/*
 * What ptwalk.ko tracked for the fixture's mapping r (made as kind, pages
 * bytes each in one mapping or, for SG, one entry per page) agrees with
 * the driver's record: device address, frame, size, kind, direction, the
 * mapping process, and the pin of user pages.
 */
static bool tracked_matches(struct vmtest *t, const struct tracked_maps *tm,
			    const struct ptwalk_edu_map *r, uint32_t kind,
			    bool pinned)
{
	bool sg = kind == PTWALK_DMA_SG;
	uint32_t n = sg ? r->pages : 1;

	for (uint32_t i = 0; i < n; i++) {
		const struct ptwalk_dma_mapping *m =
			tracked_at(tm->maps, tm->q.nr_maps, r->page[i].dma);
		uint64_t size = sg ? PAGE : r->pages * PAGE;

		if (!m)
			return fail(t, "kind %u: no live mapping tracked at dma 0x%"
				    PRIx64, kind, (uint64_t)r->page[i].dma);
		if (m->phys != r->page[i].phys || m->size != size ||
		    m->kind != kind || m->dir != r->dir)
			return fail(t, "dma 0x%" PRIx64 ": tracked phys 0x%" PRIx64
				    " size %" PRIu64 " kind %u dir %u; the driver's phys 0x%"
				    PRIx64 " size %" PRIu64 " kind %u dir %u",
				    (uint64_t)m->dma, (uint64_t)m->phys,
				    (uint64_t)m->size, m->kind, m->dir,
				    (uint64_t)r->page[i].phys, size, kind, r->dir);
		if (m->pid != getpid() || (m->flags & PTWALK_DMA_F_ATOMIC))
			return fail(t, "dma 0x%" PRIx64 " mapped by pid %d (%.16s), flags 0x%x; this is %d",
				    (uint64_t)m->dma, m->pid, m->comm, m->flags,
				    (int)getpid());
		if (!!(m->flags & PTWALK_DMA_F_PINNED) != pinned)
			return fail(t, "dma 0x%" PRIx64 ": pinned %d, expected %d",
				    (uint64_t)m->dma,
				    !!(m->flags & PTWALK_DMA_F_PINNED), pinned);
	}
	return true;
}

static const struct {
	uint32_t edu_kind, kind;
	bool pinned;
} tracked_kinds[] = {
	{ PTWALK_EDU_KIND_COHERENT, PTWALK_DMA_COHERENT, false },
	{ PTWALK_EDU_KIND_SINGLE, PTWALK_DMA_PAGE, false },
	{ PTWALK_EDU_KIND_PAGE, PTWALK_DMA_PAGE, false },
	{ PTWALK_EDU_KIND_SG_PIN, PTWALK_DMA_SG, true },
	{ PTWALK_EDU_KIND_SG_GUP, PTWALK_DMA_SG, false },
};

/* Maps each kind of tracked_kinds into r (their buffer: user, 2 pages each). */
static bool map_tracked_kinds(struct vmtest *t, struct edu_drv *d,
			      struct ptwalk_edu_map *r, char *user)
{
	for (size_t k = 0; k < sizeof(tracked_kinds) / sizeof(tracked_kinds[0]); k++) {
		r[k] = (struct ptwalk_edu_map){
			.kind = tracked_kinds[k].edu_kind, .pages = 2,
			.dir = (uint32_t)k % 3,
			.user_addr = A(user + k * 2 * PAGE),
		};
		if (!edu_map(t, d, &r[k]))
			return false;
	}
	return true;
}

/*
 * ptwalk.ko's DMA tracking against the driver's own record.  On kernels
 * before 6.12 (no DMA API tracepoints) the tracking ioctl is refused with
 * EOPNOTSUPP.  From 6.12: edu tracked, then mapped each way; every live
 * mapping the driver recorded is tracked as it recorded it (the staging
 * buffer, mapped before tracking began, is not); an unmapped one leaves
 * the live list for the history; untracked, the device is refused
 * (ENOENT).
 */
VMTEST_CASE(edu, "edu_driver_dma_tracked", edu_driver_dma_tracked)
{
	enum { N = sizeof(tracked_kinds) / sizeof(tracked_kinds[0]) };
	struct ptwalk_edu_map r[N];
	struct tracked_maps *tm = calloc(1, sizeof(*tm));
	char *user = NULL;
	struct edu_drv d;
	int fd, err;
	bool ok = tm != NULL;

	fd = ok ? vm_open_query(t) : -1;
	if (fd < 0) {
		free(tm);
		return ok ? false : fail(t, "out of memory");
	}
	if (!edu_bind(t, &d)) {
		close(fd);
		free(tm);
		return false;
	}
	err = dma_track(fd, d.bdf, false);
	if (!kernel_at_least(6, 12)) {
		ok = err == EOPNOTSUPP ||
		     fail(t, "PTWALK_IOC_DMA_TRACK before 6.12: %s, expected EOPNOTSUPP",
			  strerror(err));
		goto out;
	}
	if (err) {
		ok = fail(t, "PTWALK_IOC_DMA_TRACK %s: %s", d.bdf, strerror(err));
		goto out;
	}
	user = map_anon(t, N * 2 * PAGE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	ok = user != NULL;
	if (ok)
		touch_write(user, N * 2 * PAGE);
	ok = ok && map_tracked_kinds(t, &d, r, user);
	err = ok ? dma_maps(fd, d.bdf, tm) : 0;
	if (err)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS: %s", strerror(err));
	for (size_t k = 0; ok && k < N; k++)
		ok = tracked_matches(t, tm, &r[k], tracked_kinds[k].kind,
				     tracked_kinds[k].pinned);
	if (ok && tracked_at(tm->maps, tm->q.nr_maps, d.staging.page[0].dma))
		ok = fail(t, "the staging buffer, mapped before tracking, is tracked");
	if (ok && (tm->q.live != tm->q.nr_maps || tm->q.overflow))
		ok = fail(t, "live %u, copied %u, overflow %" PRIu64,
			  tm->q.live, tm->q.nr_maps, (uint64_t)tm->q.overflow);
	/* the dma_map_page one unmapped: gone from the live list, in the history */
	ok = ok && edu_unmap(t, &d, r[2].id);
	err = ok ? dma_maps(fd, d.bdf, tm) : 0;
	if (err)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS: %s", strerror(err));
	if (ok && tracked_at(tm->maps, tm->q.nr_maps, r[2].page[0].dma))
		ok = fail(t, "dma 0x%" PRIx64 " still live after its unmap",
			  (uint64_t)r[2].page[0].dma);
	if (ok && (!tm->q.nr_unmaps || tm->unmaps[0].dma != r[2].page[0].dma ||
		   tm->unmaps[0].unmap_ns < tm->unmaps[0].map_ns))
		ok = fail(t, "the newest unmap is not dma 0x%" PRIx64,
			  (uint64_t)r[2].page[0].dma);
	err = dma_track(fd, d.bdf, true);
	if (ok && err)
		ok = fail(t, "PTWALK_IOC_DMA_TRACK off: %s", strerror(err));
	err = dma_maps(fd, d.bdf, tm);
	if (ok && err != ENOENT)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS untracked: %s, expected ENOENT",
			  strerror(err));
out:
	close(fd);
	free(tm);
	ok = edu_restore(t, &d) && ok;	/* unmaps the rest */
	if (user)
		munmap(user, N * 2 * PAGE);
	return ok;
}

/*
 * A map the DMA API fails is not tracked: 6.12's dma_map_page_attrs()
 * traces it all the same, with DMA_MAPPING_ERROR for the address.  The
 * fixture maps under a one-page DMA mask (PTWALK_EDU_MAP_FAIL), which no
 * IOVA of the IOMMU lane's DMA domain fits; the driver's own answer (EIO)
 * is the oracle that the map failed.  Untranslated (no IOMMU, or an
 * identity domain), dma-direct refuses that mask itself
 * (dma_direct_supported(): below its DMA zone), so no map is tried
 * (EOPNOTSUPP) and none may be tracked either.
 */
VMTEST_CASE(edu, "edu_driver_dma_failed_map_untracked",
	    edu_driver_dma_failed_map_untracked)
{
	struct ptwalk_edu_map r = {
		.kind = PTWALK_EDU_KIND_PAGE, .pages = 1,
		.flags = PTWALK_EDU_MAP_FAIL,
	};
	struct tracked_maps *tm;
	struct edu_drv d;
	bool ok = true;
	int fd, err;

	if (!kernel_at_least(6, 12))
		return true;	/* no tracking: edu_driver_dma_tracked says so */
	tm = calloc(1, sizeof(*tm));
	fd = tm ? vm_open_query(t) : -1;
	if (fd < 0) {
		free(tm);
		return tm ? false : fail(t, "out of memory");
	}
	if (!edu_bind(t, &d)) {
		close(fd);
		free(tm);
		return false;
	}
	err = dma_track(fd, d.bdf, false);
	if (err)
		ok = fail(t, "PTWALK_IOC_DMA_TRACK %s: %s", d.bdf, strerror(err));
	if (ok && !ioctl(d.fd, PTWALK_EDU_IOC_MAP, &r))
		ok = fail(t, "a map under a one-page DMA mask succeeded");
	else if (ok && errno != (d.direct ? EOPNOTSUPP : EIO))
		ok = fail(t, "PTWALK_EDU_MAP_FAIL: %s, expected %s", strerror(errno),
			  d.direct ? "EOPNOTSUPP (dma-direct: the mask refused)" :
				     "EIO (the map failed)");
	err = ok ? dma_maps(fd, d.bdf, tm) : 0;
	if (err)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS: %s", strerror(err));
	if (ok && (tm->q.live || tm->q.overflow ||
		   tracked_at(tm->maps, tm->q.nr_maps, UINT64_MAX)))
		ok = fail(t, "the failed map is tracked: live %u, overflow %" PRIu64
			  ", first dma 0x%" PRIx64, tm->q.live,
			  (uint64_t)tm->q.overflow,
			  tm->q.nr_maps ? (uint64_t)tm->maps[0].dma : 0);
	dma_track(fd, d.bdf, true);
	close(fd);
	free(tm);
	return edu_restore(t, &d) && ok;
}

#define DMA_IDLE_PARAM	"/sys/module/ptwalk/parameters/dma_track_idle"

/*
 * Who keeps a device tracked (module/dma_track.c): the session that asked
 * holds it, and another session's --off is refused (EBUSY) while it does;
 * the device stays tracked after that session is closed, for
 * dma_track_idle seconds (1 here) from its last read, then is untracked
 * (ENOENT).  A session without CAP_SYS_ADMIN is refused both ioctls
 * (EPERM), as every query.
 */
VMTEST_CASE(edu, "edu_driver_dma_track_holds", edu_driver_dma_track_holds)
{
	char bdf[32], idle[32] = "";
	struct tracked_maps *tm;
	bool ok = true;
	int fd, other = -1, err;
	pid_t pid;

	if (!kernel_at_least(6, 12))
		return true;	/* no tracking: edu_driver_dma_tracked says so */
	if (!find_pci(t, EDU_VENDOR, EDU_DEVICE, bdf, sizeof(bdf)))
		return false;
	if (!vm_read_text(DMA_IDLE_PARAM, idle, sizeof(idle)))
		return fail(t, "%s: %s", DMA_IDLE_PARAM, strerror(errno));
	tm = calloc(1, sizeof(*tm));
	fd = tm ? vm_open_query(t) : -1;
	if (fd >= 0)
		other = vm_open_query(t);
	if (fd < 0 || other < 0) {
		if (fd >= 0)
			close(fd);
		free(tm);
		return tm ? false : fail(t, "out of memory");
	}
	err = dma_track(fd, bdf, false);
	if (err)
		ok = fail(t, "PTWALK_IOC_DMA_TRACK %s: %s", bdf, strerror(err));
	err = ok ? dma_track(other, bdf, true) : EBUSY;
	if (err != EBUSY)
		ok = fail(t, "--off from another session while one holds it: %s, expected EBUSY",
			  strerror(err));
	pid = ok ? fork() : 1;
	if (!pid) {
		struct __user_cap_header_struct h = {
			.version = _LINUX_CAPABILITY_VERSION_3,
		};
		struct __user_cap_data_struct c[2] = { { 0 } };

		if (syscall(SYS_capset, &h, c))
			_exit(10);
		if (dma_maps(other, bdf, tm) != EPERM)
			_exit(11);
		_exit(dma_track(other, bdf, true) == EPERM ? 0 : 12);
	}
	if (ok) {
		int status = 0;

		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			ok = fail(t, "without capabilities (child status 0x%x): 10 capset, 11 DMA_MAPS, 12 DMA_TRACK not refused with EPERM",
				  status);
	}
	ok = ok && sysfs_put(t, DMA_IDLE_PARAM, "1");
	close(fd);	/* its hold goes */
	err = ok ? dma_maps(other, bdf, tm) : 0;
	if (err)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS once the holder closed: %s, expected tracked for dma_track_idle",
			  strerror(err));
	if (ok)
		sleep(3);
	err = ok ? dma_maps(other, bdf, tm) : ENOENT;
	if (err != ENOENT)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS 3 s after the last read, dma_track_idle 1: %s, expected ENOENT",
			  strerror(err));
	dma_track(other, bdf, true);
	if (*idle && !sysfs_put(t, DMA_IDLE_PARAM, idle))
		ok = false;
	close(other);
	free(tm);
	return ok;
}

/* ptcompare with argv: its exit status want, stderr naming what. */
static bool pc_status(struct vmtest *t, const char *const argv[], int want,
		      const char *what)
{
	struct pc_result r = { 0 };
	bool ok;

	if (!pc_run(t, &r, argv))
		return false;
	ok = r.status == want && (!what || strstr(r.err, what));
	if (!ok)
		fail(t, "ptcompare %s %s%s: exit %d, expected %d%s%s: %s",
		     argv[1], argv[2], argv[3] ? " --off" : "", r.status, want,
		     what ? " naming " : "", what ? what : "", r.err);
	pc_free(&r);
	return ok;
}

/*
 * ptcompare --dma-track DEVICE [--off]: before 6.12, its own exit status
 * and the release it needs; from 6.12, the device tracked (ptwalk.ko
 * answers its mappings), then no longer (ENOENT), and --off of a device
 * not tracked is a usage error naming it.
 */
VMTEST_CASE(edu, "edu_driver_ptcompare_dma_track",
	    edu_driver_ptcompare_dma_track)
{
	char bdf[32];
	const char *on[] = { "ptcompare", "--dma-track", bdf, NULL };
	const char *off[] = { "ptcompare", "--dma-track", bdf, "--off", NULL };
	struct tracked_maps *tm;
	bool ok;
	int fd, err;

	if (!find_pci(t, EDU_VENDOR, EDU_DEVICE, bdf, sizeof(bdf)))
		return false;
	if (!kernel_at_least(6, 12))
		return pc_status(t, on, EXIT_DMA_TRACK_UNSUPPORTED, "6.12");
	tm = calloc(1, sizeof(*tm));
	fd = tm ? vm_open_query(t) : -1;
	if (fd < 0) {
		free(tm);
		return tm ? false : fail(t, "out of memory");
	}
	ok = pc_status(t, on, EXIT_OK, NULL);
	err = ok ? dma_maps(fd, bdf, tm) : 0;
	if (err)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS after --dma-track: %s",
			  strerror(err));
	ok = ok && pc_status(t, off, EXIT_OK, NULL);
	err = ok ? dma_maps(fd, bdf, tm) : ENOENT;
	if (err != ENOENT)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS after --off: %s, expected ENOENT",
			  strerror(err));
	ok = ok && pc_status(t, off, EXIT_USAGE, "not tracked");
	close(fd);
	free(tm);
	return ok;
}

/*
 * ptcompare --json --dma DEVICE into r (r->doc parsed): false with why
 * unless it exits want.
 */
static bool pc_dma(struct vmtest *t, const char *bdf, int want,
		   struct pc_result *r)
{
	const char *argv[] = { "ptcompare", "--json", "--dma", bdf, NULL };

	memset(r, 0, sizeof(*r));
	if (!pc_run(t, r, argv))
		return false;
	r->doc = r->len ? json_tokener_parse(r->out) : NULL;
	if (r->status != want || !r->doc)
		return fail(t, "ptcompare --dma %s: exit %d, expected %d: %s%.300s",
			    bdf, r->status, want, r->err, r->out ? r->out : "");
	return true;
}

/* ptcompare's text report of --dma, as TAP comments: for the docs. */
static void show_text(struct vmtest *t, const char *bdf)
{
	const char *argv[] = { "ptcompare", "--dma", bdf, NULL };
	struct pc_result r = { 0 };
	char *line, *save = NULL;

	if (!pc_run(t, &r, argv))
		return;
	printf("# $ ptcompare --dma %s (exit %d)\n", bdf, r.status);
	for (line = strtok_r(r.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("#   %s\n", line);
	pc_free(&r);
}

/* The JSON mapping at device address dma, or NULL. */
static struct json_object *dma_entry(struct pc_result *r, uint64_t dma)
{
	struct json_object *maps = pc_get(r->doc, "mappings");
	size_t n = maps ? json_object_array_length(maps) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(maps, i);
		struct json_object *a = pc_get(m, "dma");

		if (a && strtoull(json_object_get_string(a), NULL, 16) == dma)
			return m;
	}
	return NULL;
}

/* Whether entry m lists finding (NULL: lists none). */
static bool has_finding(struct json_object *m, const char *finding)
{
	struct json_object *f = pc_get(m, "findings");
	size_t n = f ? json_object_array_length(f) : 0;

	if (!finding)
		return f && !n;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(f, i)),
			    finding))
			return true;
	return false;
}

/* The mapping at dma is listed, its frame now is frame, with finding. */
static bool listed(struct vmtest *t, struct pc_result *r, uint64_t dma,
		   const char *frame, const char *finding)
{
	struct json_object *m = dma_entry(r, dma);
	struct json_object *fr = m ? pc_get(m, "frame") : NULL;

	if (!m)
		return fail(t, "--dma lists no mapping at 0x%" PRIx64 ": %.400s",
			    dma, r->out);
	if (frame && (!fr || strcmp(json_object_get_string(fr), frame)))
		return fail(t, "dma 0x%" PRIx64 ": frame %s, expected %s", dma,
			    fr ? json_object_get_string(fr) : "(none)", frame);
	if (!has_finding(m, finding))
		return fail(t, "dma 0x%" PRIx64 ": findings %s, expected %s (frame %s)",
			    dma, json_object_to_json_string(pc_get(m, "findings")),
			    finding ? finding : "none",
			    fr ? json_object_get_string(fr) : "(none)");
	return true;
}

/* Whether mapping m of ptcompare's JSON says unmap_optional. */
static bool json_unmap_optional(struct json_object *m)
{
	struct json_object *v = m ? pc_get(m, "unmap_optional") : NULL;

	return v && json_object_get_boolean(v);
}

/* PTWALK_EDU_IOC_DONE of mapping id: 0 or the errno. */
static int edu_done(struct edu_drv *d, uint32_t id)
{
	struct ptwalk_edu_id i = { .id = id };

	return ioctl(d->fd, PTWALK_EDU_IOC_DONE, &i) ? errno : 0;
}

/*
 * Many more mappings than the device's room, each done with and never
 * unmapped: the oldest unmap-optional ones make room for the new
 * (expired), none is lost (overflow 0), the first (at first_dma) gone.
 */
static bool room_expires(struct vmtest *t, struct edu_drv *d, int fd,
			 struct tracked_maps *tm, uint64_t first_dma)
{
	struct ptwalk_edu_map m = { .kind = PTWALK_EDU_KIND_PAGE, .pages = 1 };
	uint32_t extra = 8, n;
	int err;

	err = dma_maps(fd, d->bdf, tm);
	if (err)
		return fail(t, "PTWALK_IOC_DMA_MAPS: %s", strerror(err));
	n = tm->q.capacity + extra;
	for (uint32_t i = 0; i < n; i++) {
		if (!edu_map(t, d, &m))
			return false;
		err = edu_done(d, m.id);
		if (err)
			return fail(t, "PTWALK_EDU_IOC_DONE %u of %u: %s", i, n,
				    strerror(err));
	}
	err = dma_maps(fd, d->bdf, tm);
	if (err)
		return fail(t, "PTWALK_IOC_DMA_MAPS: %s", strerror(err));
	printf("# %u done with, never unmapped: %u live of %u, %" PRIu64
	       " expired, %" PRIu64 " overflow\n", n, tm->q.live,
	       tm->q.capacity, (uint64_t)tm->q.expired,
	       (uint64_t)tm->q.overflow);
	if (tm->q.overflow || tm->q.expired < extra ||
	    tm->q.live != tm->q.capacity)
		return fail(t, "after %u mappings never unmapped: live %u of %u, expired %" PRIu64
			    ", overflow %" PRIu64 "; expected full, %u or more expired, none lost",
			    n, tm->q.live, tm->q.capacity,
			    (uint64_t)tm->q.expired, (uint64_t)tm->q.overflow,
			    extra);
	if (first_dma != m.page[0].dma &&
	    tracked_at(tm->maps, tm->q.nr_maps, first_dma))
		return fail(t, "the oldest (dma 0x%" PRIx64 ") kept, not expired",
			    first_dma);
	return true;
}

/* Every unmap-optional mapping of r has no finding, and there are some. */
static bool optional_unjudged(struct vmtest *t, struct pc_result *r)
{
	struct json_object *maps = pc_get(r->doc, "mappings");
	size_t n = maps ? json_object_array_length(maps) : 0, opt = 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(maps, i);

		if (!json_unmap_optional(m))
			continue;
		opt++;
		if (!has_finding(m, NULL))
			return fail(t, "an unmap-optional mapping with a finding: %s",
				    json_object_to_json_string(m));
	}
	printf("# %zu unmap-optional mappings, none with a finding\n", opt);
	return opt || fail(t, "no unmap-optional mapping listed");
}

/*
 * Where the DMA API lets a driver skip its unmaps (dma_need_unmap()
 * false: dma-direct with no bounce buffer, 6.16+), nvme's requests are
 * done with and mostly never unmapped.  The fixture, asking
 * dma_need_unmap() itself (the oracle), says which of its mappings are
 * so, and can do the same (PTWALK_EDU_IOC_DONE).  ptwalk marks exactly
 * those unmap_optional; one done with, its page freed, never unmapped,
 * is listed with no finding (exit 0).  Many more than the device's room
 * expire the oldest, none lost.  At unbind they are still no finding
 * (dma_leaked is not said of them).  Where the DMA API needs the unmap
 * (an IOMMU's domain), the fixture is refused (EPERM) and ptwalk marks
 * nothing; before dma_need_unmap() (EOPNOTSUPP) nothing either.
 */
VMTEST_CASE(edu, "edu_driver_dma_unmap_optional", edu_driver_dma_unmap_optional)
{
	struct ptwalk_edu_map a = { .kind = PTWALK_EDU_KIND_PAGE, .pages = 1 };
	struct tracked_maps *tm = calloc(1, sizeof(*tm));
	const struct ptwalk_dma_mapping *tr;
	struct pc_result pr = { 0 };
	bool ok, marked, optional;
	struct edu_drv d;
	int fd, err;

	if (!tm)
		return fail(t, "out of memory");
	if (!edu_bind(t, &d)) {
		free(tm);
		return false;
	}
	fd = track_edu(t, d.bdf);
	ok = fd != -2;
	if (fd < 0)
		goto out;	/* before 6.12: nothing tracked */
	ok = edu_map(t, &d, &a);
	err = ok ? dma_maps(fd, d.bdf, tm) : 0;
	if (err)
		ok = fail(t, "PTWALK_IOC_DMA_MAPS: %s", strerror(err));
	tr = ok ? tracked_at(tm->maps, tm->q.nr_maps, a.page[0].dma) : NULL;
	if (ok && !tr)
		ok = fail(t, "dma 0x%" PRIx64 " not tracked",
			  (uint64_t)a.page[0].dma);
	if (!ok)
		goto out;
	marked = tr->flags & PTWALK_DMA_F_UNMAP_OPTIONAL;
	optional = a.flags & PTWALK_EDU_MAP_UNMAP_OPTIONAL;
	err = edu_done(&d, a.id);
	printf("# %s: the fixture's dma_need_unmap() %s, PTWALK_EDU_IOC_DONE %s; ptwalk marked the mapping %s\n",
	       d.direct ? "dma-direct" : "translated",
	       optional ? "false" : "true or absent",
	       err ? strerror(err) : "done", marked ? "unmap-optional" : "not");
	if (marked != optional) {
		ok = fail(t, "ptwalk %s the mapping unmap-optional, the fixture's dma_need_unmap() says %s",
			  marked ? "marked" : "did not mark",
			  optional ? "it is" : "it is not");
		if (!err)
			goto out;
	}
	if (!optional) {
		if (err != EPERM && err != EOPNOTSUPP)
			ok = fail(t, "PTWALK_EDU_IOC_DONE where the unmap is needed: %s",
				  err ? strerror(err) : "done");
		ok = (err && edu_unmap(t, &d, a.id)) && ok;
		goto out;
	}
	if (err) {
		ok = fail(t, "PTWALK_EDU_IOC_DONE: %s", strerror(err));
		goto out;
	}
	/* done with, its page freed, never unmapped: no finding */
	ok = pc_dma(t, d.bdf, EXIT_OK, &pr) &&
	     listed(t, &pr, a.page[0].dma, NULL, NULL);
	if (ok && !json_unmap_optional(dma_entry(&pr, a.page[0].dma)))
		ok = fail(t, "dma 0x%" PRIx64 ": unmap_optional not true: %.400s",
			  (uint64_t)a.page[0].dma, pr.out);
	pc_free(&pr);
	if (ok)
		show_text(t, d.bdf);
	ok = ok && room_expires(t, &d, fd, tm, a.page[0].dma);
	/* unbound: still none (the driver was allowed to leave them) */
	if (ok) {
		close(d.fd);
		d.fd = -1;
		ok = unbind(t, d.bdf);
	}
	ok = ok && pc_dma(t, d.bdf, EXIT_OK, &pr) && optional_unjudged(t, &pr);
	pc_free(&pr);
out:
	untrack_edu(d.bdf, fd);
	free(tm);
	return edu_restore(t, &d) && ok;
}

/* More than one page table reaches, in any granule (512M with 64K pages) */
#define UNTOUCHED_SPAN		(1ULL << 30)
#define UNTOUCHED_RESERVE	(4 * UNTOUCHED_SPAN)

/*
 * One writable page, never touched, alone in an UNTOUCHED_SPAN-aligned
 * span of address space reserved for it (*reserved, UNTOUCHED_RESERVE
 * bytes to unmap): no page table reaches it yet, so its first write
 * allocates one or more, then its page.
 */
static char *untouched_page(struct vmtest *t, char **reserved)
{
	char *r = mmap(NULL, UNTOUCHED_RESERVE, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *p;

	if (r == MAP_FAILED) {
		fail(t, "mmap of %llu bytes: %s", UNTOUCHED_RESERVE,
		     strerror(errno));
		return NULL;
	}
	p = (char *)(((uintptr_t)r + 2 * UNTOUCHED_SPAN - 1) &
		     ~(uintptr_t)(UNTOUCHED_SPAN - 1));
	if (mprotect(p, PAGE, PROT_READ | PROT_WRITE)) {
		fail(t, "mprotect: %s", strerror(errno));
		munmap(r, UNTOUCHED_RESERVE);
		return NULL;
	}
	*reserved = r;
	return p;
}

/*
 * ptcompare --dma against the driver's record and its bugs.  Correct use
 * (coherent, single, page, pinned user pages: each listed where the driver
 * recorded it, its frame named) gives 0 findings, exit 0; then each bug is
 * found and named, exit 1: a page freed while mapped
 * (dma_freed_while_mapped), user pages mapped without FOLL_PIN
 * (dma_user_page_unpinned), mappings left at unbind (dma_leaked, on all of
 * them).  Before 6.12, --dma exits 20.
 */
VMTEST_CASE(edu, "edu_driver_dma_inventory", edu_driver_dma_inventory)
{
	enum { N = 4 };
	static const uint32_t kinds_ok[N] = {
		PTWALK_EDU_KIND_COHERENT, PTWALK_EDU_KIND_SINGLE,
		PTWALK_EDU_KIND_PAGE, PTWALK_EDU_KIND_SG_PIN,
	};
	struct ptwalk_edu_map r[N], gup = { .kind = PTWALK_EDU_KIND_SG_GUP,
					    .pages = 1 },
		freed = { .kind = PTWALK_EDU_KIND_PAGE, .pages = 1 };
	cpu_set_t cpu0, saved;
	char *reuse = NULL, *reserved = NULL;
	struct ptwalk_edu_id id = { 0 }, leak = { .id = 1 };
	struct pc_result pr = { 0 };
	char *user = NULL;
	struct edu_drv d;
	bool ok = true;
	int fd;

	/* one CPU, one per-CPU page list: see the freed page below */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_getaffinity(0, sizeof(saved), &saved) ||
	    sched_setaffinity(0, sizeof(cpu0), &cpu0))
		return fail(t, "sched_setaffinity: %s", strerror(errno));
	if (!edu_bind(t, &d)) {
		sched_setaffinity(0, sizeof(saved), &saved);
		return false;
	}
	if (!kernel_at_least(6, 12)) {
		const char *argv[] = { "ptcompare", "--dma", d.bdf, NULL };

		ok = pc_status(t, argv, EXIT_DMA_TRACK_UNSUPPORTED, "6.12");
		sched_setaffinity(0, sizeof(saved), &saved);
		return edu_restore(t, &d) && ok;
	}
	fd = vm_open_query(t);
	if (fd < 0 || dma_track(fd, d.bdf, false)) {
		ok = fd >= 0 ? fail(t, "PTWALK_IOC_DMA_TRACK: %s", strerror(errno)) :
			       false;
		goto out;
	}
	user = map_anon(t, (N + 1) * 2 * PAGE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	ok = user != NULL;
	if (ok)
		touch_write(user, (N + 1) * 2 * PAGE);
	for (size_t k = 0; ok && k < N; k++) {
		r[k] = (struct ptwalk_edu_map){
			.kind = kinds_ok[k], .pages = 2,
			.user_addr = A(user + k * 2 * PAGE),
		};
		ok = edu_map(t, &d, &r[k]);
	}
	/* correct use: listed, nothing found */
	ok = ok && pc_dma(t, d.bdf, EXIT_OK, &pr);
	for (size_t k = 0; ok && k < N; k++)
		ok = listed(t, &pr, r[k].page[0].dma,
			    kinds_ok[k] == PTWALK_EDU_KIND_SG_PIN ? "anonymous" : NULL,
			    NULL);
	pc_free(&pr);
	/*
	 * A page freed while mapped, and allocated again at once for a page
	 * table or this process's anonymous memory: freed to this CPU's
	 * per-CPU list of its pageblock's migrate type, the first write to
	 * an untouched page alone in its span of address space takes it
	 * (last in, first out), as a page table (unmovable) or the page
	 * itself (movable).  Otherwise anything else may take it first,
	 * ptcompare's fork and exec for a kernel stack or a pipe's buffer:
	 * a frame of the same kind as the driver's, which no reader can
	 * tell from it (docs/testing.md says so).
	 */
	ok = ok && (reuse = untouched_page(t, &reserved)) != NULL;
	ok = ok && edu_map(t, &d, &freed);
	id.id = freed.id;
	ok = ok && edu_ioctl(t, &d, PTWALK_EDU_IOC_FREE_MAPPED, &id,
			     "PTWALK_EDU_IOC_FREE_MAPPED");
	if (ok)
		*(volatile char *)reuse = 1;
	ok = ok && pc_dma(t, d.bdf, found_as(&freed, "") ? EXIT_MISMATCH : EXIT_OK,
			  &pr) &&
	     listed(t, &pr, freed.page[0].dma, NULL,
		    found_as(&freed, "dma_freed_while_mapped")) &&
	     listed(t, &pr, r[0].page[0].dma, NULL, NULL);
	if (ok)
		printf("# $ ptcompare --json --dma %s\n# %s\n", d.bdf, pr.out);
	pc_free(&pr);
	if (ok)
		show_text(t, d.bdf);
	ok = ok && edu_unmap(t, &d, freed.id);
	/* user pages without FOLL_PIN */
	gup.user_addr = A(user + N * 2 * PAGE);
	ok = ok && edu_map(t, &d, &gup);
	ok = ok && pc_dma(t, d.bdf, found_as(&gup, "") ? EXIT_MISMATCH : EXIT_OK,
			  &pr) &&
	     listed(t, &pr, gup.page[0].dma, "anonymous",
		    found_as(&gup, "dma_user_page_unpinned")) &&
	     listed(t, &pr, r[3].page[0].dma, "anonymous", NULL);
	pc_free(&pr);
	ok = ok && edu_unmap(t, &d, gup.id);
	/* left behind at unbind: every mapping leaked */
	ok = ok && edu_ioctl(t, &d, PTWALK_EDU_IOC_LEAK_AT_UNBIND, &leak,
			     "PTWALK_EDU_IOC_LEAK_AT_UNBIND");
	close(d.fd);
	d.fd = -1;
	ok = unbind(t, d.bdf) && ok;
	ok = ok && pc_dma(t, d.bdf, EXIT_MISMATCH, &pr) &&
	     listed(t, &pr, r[0].page[0].dma, NULL, "dma_leaked") &&
	     listed(t, &pr, r[3].page[0].dma, NULL,
		    found_as(&r[3], "dma_leaked"));
	pc_free(&pr);
	/* the driver unloaded: its leak undone, nothing left to find */
	if (syscall(SYS_delete_module, PTWALK_EDU_DRIVER, O_NONBLOCK))
		ok = fail(t, "rmmod %s: %s", PTWALK_EDU_DRIVER, strerror(errno));
	ok = ok && pc_dma(t, d.bdf, EXIT_OK, &pr);
	pc_free(&pr);
out:
	if (fd >= 0) {
		dma_track(fd, d.bdf, true);
		close(fd);
	}
	if (user)
		munmap(user, (N + 1) * 2 * PAGE);
	if (reserved)
		munmap(reserved, UNTOUCHED_RESERVE);
	sched_setaffinity(0, sizeof(saved), &saved);
	return edu_restore(t, &d) && ok;
}

/* ptcompare --json --dma bdf [--dma-api] into r, exit want. */
static bool pc_dma_api(struct vmtest *t, const char *bdf, bool dma_api,
		       int want, struct pc_result *r)
{
	const char *argv[] = { "ptcompare", "--json", "--dma", bdf,
			       dma_api ? "--dma-api" : NULL, NULL };

	memset(r, 0, sizeof(*r));
	if (!pc_run(t, r, argv))
		return false;
	r->doc = r->len ? json_tokener_parse(r->out) : NULL;
	if (r->status != want || !r->doc) {
		/* the whole report, for the log */
		printf("# %s\n", r->out ? r->out : "");
		return fail(t, "ptcompare --dma %s%s: exit %d, expected %d: %s (report above)",
			    bdf, dma_api ? " --dma-api" : "", r->status, want,
			    r->err);
	}
	return true;
}

/* The page at device address dma among every mapping's frames, or NULL. */
static struct json_object *page_at(struct pc_result *r, uint64_t dma,
				   struct json_object **mapping)
{
	struct json_object *maps = pc_get(r->doc, "mappings");
	size_t n = maps ? json_object_array_length(maps) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(maps, i);
		struct json_object *fr = pc_get(m, "frames");
		size_t k = fr ? json_object_array_length(fr) : 0;

		for (size_t j = 0; j < k; j++) {
			struct json_object *p = json_object_array_get_idx(fr, j);
			uint64_t a;

			if (pc_hex(p, "dma", &a) && a == dma) {
				*mapping = m;
				return p;
			}
		}
	}
	return NULL;
}

/* A JSON hex string or null: its value, or PTWALK_PFN_NONE. */
static uint64_t hex_or_none(struct json_object *o, const char *key)
{
	uint64_t v;

	return pc_hex(o, key, &v) ? v : PTWALK_PFN_NONE;
}

/*
 * Page i of the driver's record r as --dma lists it: its frame is the
 * recorded one, told as frame (NULL: any); with iommu, the IOMMU
 * translates it to iommu_pfn (PTWALK_PFN_NONE: to nothing); user pages
 * name this process at va.
 */
static bool page_listed(struct vmtest *t, struct pc_result *r,
			const struct ptwalk_edu_map *rec, unsigned int i,
			const char *frame, bool iommu, uint64_t iommu_pfn,
			uint64_t va)
{
	uint64_t dma = rec->page[i].dma, pfn = rec->page[i].phys / PAGE;
	struct json_object *m = NULL, *p = page_at(r, dma, &m);
	struct json_object *fr = p ? pc_get(p, "frame") : NULL;
	struct json_object *pid = p ? pc_get(p, "pid") : NULL;

	if (!p)
		return fail(t, "--dma lists no page at dma 0x%" PRIx64 ": %.600s",
			    dma, r->out);
	if (hex_or_none(p, "pfn") != pfn) {
		/* the whole mapping, for the log: more than a reason holds */
		printf("# %s\n", json_object_to_json_string(m));
		return fail(t, "dma 0x%" PRIx64 ": pfn 0x%" PRIx64 ", the driver recorded 0x%"
			    PRIx64 " (mapping above)", dma, hex_or_none(p, "pfn"),
			    pfn);
	}
	if (frame && (!fr || strcmp(json_object_get_string(fr), frame)))
		return fail(t, "dma 0x%" PRIx64 ": frame %s, expected %s", dma,
			    fr ? json_object_get_string(fr) : "(none)", frame);
	if (va && (!pid || json_object_get_int(pid) != getpid() ||
		   hex_or_none(p, "va") != va))
		return fail(t, "dma 0x%" PRIx64 ": mapped by %s at 0x%" PRIx64
			    ", expected pid %d at 0x%" PRIx64, dma,
			    pid ? json_object_to_json_string(pid) : "?",
			    hex_or_none(p, "va"), (int)getpid(), va);
	if (iommu != json_object_get_boolean(pc_get(p, "iommu_read")))
		return fail(t, "dma 0x%" PRIx64 ": iommu_read %s", dma,
			    iommu ? "false" : "true");
	if (iommu && hex_or_none(p, "iommu_pfn") != iommu_pfn)
		return fail(t, "dma 0x%" PRIx64 ": the IOMMU translates to 0x%"
			    PRIx64 ", expected 0x%" PRIx64, dma,
			    hex_or_none(p, "iommu_pfn"), iommu_pfn);
	return true;
}

static bool redirect(struct vmtest *t, struct edu_drv *d, uint32_t id,
		     uint32_t page, uint64_t phys, bool undo)
{
	struct ptwalk_edu_redirect r = {
		.id = id, .page = page, .phys = phys,
		.flags = undo ? PTWALK_EDU_REDIRECT_UNDO : 0,
	};

	return edu_ioctl(t, d, PTWALK_EDU_IOC_REDIRECT, &r,
			 "PTWALK_EDU_IOC_REDIRECT");
}

/* Whether the JSON mapping of page dma lists finding. */
static bool page_finding(struct vmtest *t, struct pc_result *r, uint64_t dma,
			 const char *finding)
{
	struct json_object *m = NULL;

	if (!page_at(r, dma, &m))
		return fail(t, "--dma lists no page at dma 0x%" PRIx64, dma);
	return has_finding(m, finding) ||
	       fail(t, "dma 0x%" PRIx64 ": findings %s, expected %s", dma,
		    json_object_to_json_string(pc_get(m, "findings")),
		    finding ? finding : "none");
}

#define FR_PAGES	3

/*
 * The page at dma is translated to nothing.  Its frame: unknown now where
 * only the IOMMU named it (a buffer vmap()ed from pages apart, past its
 * first: dma-iommu's remap, x86-64's), else the recorded frame pfn, from
 * the mapping (a contiguous buffer: arm64's atomic or contiguous pool).
 */
static bool iommu_none(struct vmtest *t, struct pc_result *r, uint64_t dma,
		       uint64_t pfn)
{
	struct json_object *m = NULL, *p = page_at(r, dma, &m);

	if (!p)
		return fail(t, "--dma lists no page at dma 0x%" PRIx64, dma);
	if (!json_object_get_boolean(pc_get(p, "iommu_read")) ||
	    pc_get(p, "iommu_pfn") ||
	    (pc_get(p, "pfn") && pc_hex_or_none(p, "pfn") != pfn))
		return fail(t, "dma 0x%" PRIx64 ": expected no translation, and no frame or 0x%" PRIx64 ": %s",
			    dma, pfn, json_object_to_json_string(p));
	return true;
}

/*
 * ptcompare --dma lists every frame of each mapping, each the frame the
 * driver recorded, and names whose it is: a pinned user buffer's pages
 * as this process's anonymous memory at their addresses.  With --dma-api
 * the IOMMU translates every page to its recorded frame (a coherent
 * buffer's pages too, which dma-iommu vmap()s from frames that need not
 * be contiguous), 0 findings.  Then the driver changes its own DMA
 * domain behind the DMA API (PTWALK_EDU_IOC_REDIRECT): a page of a
 * dma_map_page() buffer translated to another buffer's frame, edu's
 * write through it landing in that frame (the hardware's proof), and a
 * coherent page translated to nothing.  --dma-api names both
 * dma_iommu_disagrees and exits 1; without --dma-api nothing is read
 * and nothing found; undone, 0 findings again.
 */
VMTEST_CASE(iommu, "edu_driver_dma_frames", edu_driver_dma_frames)
{
	struct ptwalk_edu_map coh = { .kind = PTWALK_EDU_KIND_COHERENT,
				      .pages = FR_PAGES },
		pg = { .kind = PTWALK_EDU_KIND_PAGE, .pages = FR_PAGES },
		one = { .kind = PTWALK_EDU_KIND_SINGLE, .pages = 1 },
		sg = { .kind = PTWALK_EDU_KIND_SG_PIN, .pages = FR_PAGES };
	const struct ptwalk_edu_map *kernel[] = { &coh, &pg, &one };
	uint64_t w[CHUNK_WORDS], v;
	struct pc_result pr = { 0 };
	char *user = NULL;
	struct edu_drv d;
	bool ok = true;
	int fd;

	if (!kernel_at_least(6, 12))
		return true;	/* no tracking: edu_driver_dma_inventory says so */
	if (!edu_bind(t, &d))
		return false;
	fd = vm_open_query(t);
	if (fd < 0 || dma_track(fd, d.bdf, false)) {
		ok = fd >= 0 ? fail(t, "PTWALK_IOC_DMA_TRACK: %s", strerror(errno)) :
			       false;
		goto out;
	}
	user = map_anon(t, FR_PAGES * PAGE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	ok = user != NULL;
	if (ok)
		touch_write(user, FR_PAGES * PAGE);
	sg.user_addr = A(user);
	ok = ok && edu_map(t, &d, &coh) && edu_map(t, &d, &pg) &&
	     edu_map(t, &d, &one) && edu_map(t, &d, &sg);
	/* every frame, as the driver recorded it; the user pages ours */
	ok = ok && pc_dma_api(t, d.bdf, false, EXIT_OK, &pr);
	for (unsigned int i = 0; ok && i < FR_PAGES; i++)
		ok = page_listed(t, &pr, &pg, i, "kernel", false, 0, 0) &&
		     page_listed(t, &pr, &sg, i, "anonymous", false, 0,
				 A(user) + i * PAGE);
	pc_free(&pr);
	/* where edu's DMA to each coherent page lands: the hardware's word */
	for (unsigned int i = 0; ok && i < FR_PAGES; i++) {
		uint64_t got[CHUNK_WORDS];

		ok = land(t, &d, coh.page[i].dma, 0x60 + i) &&
		     edu_rw(t, &d, coh.id, i * PAGE, got, CHUNK, false) &&
		     same(t, got, 0x60 + i, "a coherent page, read by the CPU");
	}
	/* with the IOMMU: each page translates to its recorded frame */
	ok = ok && pc_dma_api(t, d.bdf, true, EXIT_OK, &pr);
	for (size_t k = 0; ok && k < sizeof(kernel) / sizeof(kernel[0]); k++)
		for (unsigned int i = 0; ok && i < kernel[k]->pages; i++)
			ok = page_listed(t, &pr, kernel[k], i, NULL, true,
					 kernel[k]->page[i].phys / PAGE, 0);
	for (unsigned int i = 0; ok && i < FR_PAGES; i++)
		ok = page_listed(t, &pr, &sg, i, "anonymous", true,
				 sg.page[i].phys / PAGE, A(user) + i * PAGE);
	if (ok)
		printf("# $ ptcompare --json --dma %s --dma-api\n# %s\n", d.bdf,
		       pr.out);
	pc_free(&pr);
	/*
	 * Untranslated (an identity domain: riscv64's lane, 5.10's) there is
	 * no IO page table to change behind the DMA API's back.
	 */
	if (ok && d.direct) {
		printf("# edu_driver_dma_frames: %s: no IO page table to redirect\n",
		       direct_why(&d));
	} else {
		/* page 1 of pg now reaches one's frame; coh's page 2 nothing */
		ok = ok && redirect(t, &d, pg.id, 1, one.page[0].phys, false) &&
		     redirect(t, &d, coh.id, 2, 0, false);
		ok = ok && land(t, &d, pg.page[1].dma, 0x5a) &&
		     vm_peek(t, one.page[0].phys / PAGE, &v);
		if (ok) {
			pattern(w, 0x5a);
			if (v != w[0])
				ok = fail(t, "edu's write through the redirected page: 0x%"
					  PRIx64 " in the other buffer's frame, expected 0x%"
					  PRIx64, v, w[0]);
		}
		ok = ok && pc_dma_api(t, d.bdf, true, EXIT_MISMATCH, &pr) &&
		     page_listed(t, &pr, &pg, 1, "kernel", true,
				 one.page[0].phys / PAGE, 0) &&
		     iommu_none(t, &pr, coh.page[2].dma, coh.page[2].phys / PAGE) &&
		     page_finding(t, &pr, pg.page[1].dma, "dma_iommu_disagrees") &&
		     page_finding(t, &pr, coh.page[2].dma, "dma_iommu_disagrees") &&
		     page_finding(t, &pr, one.page[0].dma, NULL) &&
		     page_finding(t, &pr, sg.page[0].dma, NULL);
		pc_free(&pr);
	}
	if (ok)
		show_text(t, d.bdf);
	{
		const char *argv[] = { "ptcompare", "--dma", d.bdf, "--dma-api",
				       NULL };
		struct pc_result tr = { 0 };
		char *line, *save = NULL;

		if (ok && pc_run(t, &tr, argv)) {
			printf("# $ ptcompare --dma %s --dma-api (exit %d)\n",
			       d.bdf, tr.status);
			for (line = strtok_r(tr.out, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				printf("#   %s\n", line);
			pc_free(&tr);
		}
	}
	/* without --dma-api the IOMMU is not asked: nothing to find */
	ok = ok && pc_dma_api(t, d.bdf, false, EXIT_OK, &pr);
	pc_free(&pr);
	ok = ok && (d.direct || (redirect(t, &d, pg.id, 1, 0, true) &&
				 redirect(t, &d, coh.id, 2, 0, true))) &&
	     pc_dma_api(t, d.bdf, true, EXIT_OK, &pr);
	pc_free(&pr);
	/* the fixture's own unmaps undo what a redirect left */
	ok = ok && (d.direct ||
		    redirect(t, &d, pg.id, 0, one.page[0].phys, false));
	ok = ok && edu_unmap(t, &d, coh.id) && edu_unmap(t, &d, pg.id) &&
	     edu_unmap(t, &d, one.id) && edu_unmap(t, &d, sg.id);
out:
	if (fd >= 0) {
		dma_track(fd, d.bdf, true);
		close(fd);
	}
	if (user)
		munmap(user, FR_PAGES * PAGE);
	return edu_restore(t, &d) && ok;
}

/* Whether the document's "source" is want. */
static bool source_is(struct vmtest *t, struct pc_result *r, const char *want)
{
	struct json_object *s = pc_get(r->doc, "source");

	return (s && !strcmp(json_object_get_string(s), want)) ||
	       fail(t, "--dma source %s, expected %s",
		    s ? json_object_get_string(s) : "(none)", want);
}

/*
 * Where the DMA API is not tracked (before 6.12 no kernel can; after,
 * edu untracked), ptcompare --dma --dma-api walks edu's DMA-API domain
 * over the first 4 GiB of device addresses and lists what it
 * translates: every page the driver mapped (a coherent buffer, a
 * dma_map_page buffer, pinned user pages, its staging page) at its
 * recorded device address and frame, the user pages as this process's
 * anonymous memory at their addresses, 0 findings (a walk knows no pin).
 * An unmapped buffer is gone from the next walk; mappings left at unbind
 * are dma_leaked, exit 1; the driver unloaded, none is left, exit 0.  In
 * an identity default domain (5.10's lane) there is nothing of the
 * device's own to walk: exit 20, naming the domain.
 */
VMTEST_CASE(iommu, "edu_driver_dma_domain_walk", edu_driver_dma_domain_walk)
{
	struct ptwalk_edu_map coh = { .kind = PTWALK_EDU_KIND_COHERENT,
				      .pages = 2 },
		pg = { .kind = PTWALK_EDU_KIND_PAGE, .pages = 2 },
		sg = { .kind = PTWALK_EDU_KIND_SG_PIN, .pages = 2 };
	struct ptwalk_edu_id leak = { .id = 1 };
	struct json_object *m = NULL;
	struct pc_result pr = { 0 };
	char *user = NULL;
	struct edu_drv d;
	bool ok = true;

	if (!edu_bind(t, &d))
		return false;
	if (vm_pci_identity_default(d.bdf)) {
		/* 5.10's lane: passthrough, no mappings of the device's own */
		const char *argv[] = { "ptcompare", "--dma", d.bdf, "--dma-api",
				       NULL };

		ok = kernel_at_least(6, 12) ||
		     pc_status(t, argv, EXIT_DMA_TRACK_UNSUPPORTED, "identity");
		return edu_restore(t, &d) && ok;
	}
	if (kernel_at_least(6, 12)) {
		int fd = vm_open_query(t);

		if (fd < 0) {
			edu_restore(t, &d);
			return false;
		}
		dma_track(fd, d.bdf, true);	/* untracked, whatever it was */
		close(fd);
	}
	user = map_anon(t, 2 * PAGE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	ok = user != NULL;
	if (ok)
		touch_write(user, 2 * PAGE);
	sg.user_addr = A(user);
	ok = ok && edu_map(t, &d, &coh) && edu_map(t, &d, &pg) &&
	     edu_map(t, &d, &sg);
	ok = ok && pc_dma_api(t, d.bdf, true, EXIT_OK, &pr) &&
	     source_is(t, &pr, "domain_walk") &&
	     page_listed(t, &pr, &d.staging, 0, NULL, true,
			 d.staging.page[0].phys / PAGE, 0);
	for (unsigned int i = 0; ok && i < 2; i++)
		ok = page_listed(t, &pr, &coh, i, NULL, true,
				 coh.page[i].phys / PAGE, 0) &&
		     page_listed(t, &pr, &pg, i, "kernel", true,
				 pg.page[i].phys / PAGE, 0) &&
		     page_listed(t, &pr, &sg, i, "anonymous", true,
				 sg.page[i].phys / PAGE, A(user) + i * PAGE);
	if (ok)
		printf("# $ ptcompare --json --dma %s --dma-api\n# %s\n", d.bdf,
		       pr.out);
	pc_free(&pr);
	/* unmapped: no longer translated */
	ok = ok && edu_unmap(t, &d, pg.id) &&
	     pc_dma_api(t, d.bdf, true, EXIT_OK, &pr);
	if (ok && page_at(&pr, pg.page[0].dma, &m))
		ok = fail(t, "the walk still lists dma 0x%" PRIx64 " after the unmap",
			  (uint64_t)pg.page[0].dma);
	pc_free(&pr);
	/* left behind at unbind */
	ok = ok && edu_ioctl(t, &d, PTWALK_EDU_IOC_LEAK_AT_UNBIND, &leak,
			     "PTWALK_EDU_IOC_LEAK_AT_UNBIND");
	if (ok) {
		close(d.fd);
		d.fd = -1;
		ok = unbind(t, d.bdf);
	}
	ok = ok && pc_dma_api(t, d.bdf, true, EXIT_MISMATCH, &pr) &&
	     page_finding(t, &pr, coh.page[0].dma, "dma_leaked") &&
	     page_finding(t, &pr, sg.page[1].dma, "dma_leaked");
	pc_free(&pr);
	if (ok && syscall(SYS_delete_module, PTWALK_EDU_DRIVER, O_NONBLOCK))
		ok = fail(t, "rmmod %s: %s", PTWALK_EDU_DRIVER, strerror(errno));
	ok = ok && pc_dma_api(t, d.bdf, true, EXIT_OK, &pr);
	if (ok && page_at(&pr, coh.page[0].dma, &m))
		ok = fail(t, "the walk lists dma 0x%" PRIx64 " after the driver's unload",
			  (uint64_t)coh.page[0].dma);
	pc_free(&pr);
	if (user)
		munmap(user, 2 * PAGE);
	return edu_restore(t, &d) && ok;
}

/*
 * The page at dma names the file path (its page cache), mapped by this
 * process at va or (va 0) by none.
 */
static bool page_file(struct vmtest *t, struct pc_result *r, uint64_t dma,
		      const char *path, uint64_t va)
{
	struct json_object *m = NULL, *p = page_at(r, dma, &m);
	struct json_object *file = p ? pc_get(p, "file") : NULL;
	struct json_object *pid = p ? pc_get(p, "pid") : NULL;
	struct json_object *fr = p ? pc_get(p, "frame") : NULL;

	if (!p)
		return fail(t, "--dma lists no page at dma 0x%" PRIx64 ": %.600s",
			    dma, r->out);
	if (!fr || strcmp(json_object_get_string(fr), "page_cache"))
		return fail(t, "dma 0x%" PRIx64 ": frame %s, expected page_cache",
			    dma, fr ? json_object_get_string(fr) : "(none)");
	/* below its filesystem's root: /tmp may be a mount of its own */
	size_t n = file ? strlen(json_object_get_string(file)) : 0;

	if (!n || n > strlen(path) ||
	    strcmp(path + strlen(path) - n, json_object_get_string(file)) ||
	    json_object_get_string(file)[0] != '/' ||
	    !json_object_get_string(pc_get(p, "fs")))
		return fail(t, "dma 0x%" PRIx64 ": file %s, expected %s: %s", dma,
			    file ? json_object_get_string(file) : "(none)", path,
			    json_object_to_json_string(p));
	if (va ? !pid || json_object_get_int(pid) != getpid() ||
		 hex_or_none(p, "va") != va : pid != NULL)
		return fail(t, "dma 0x%" PRIx64 ": mapped by %s, expected %s", dma,
			    pid ? json_object_to_json_string(pid) : "none",
			    va ? "this process" : "none");
	return true;
}

/*
 * A file's page mapped for DMA (dma_map_sg of the pinned page of a
 * MAP_SHARED mapping of a /tmp file): --dma names it page_cache of that
 * file (ptwalk.ko's PTWALK_IOC_FRAME_FILE: its path below the
 * filesystem's root, the end of the path the test made, and the
 * filesystem's type), mapped by this process at its address; once the
 * process unmaps it, still the file's, mapped by no process.
 */
VMTEST_CASE(iommu, "edu_driver_dma_page_cache", edu_driver_dma_page_cache)
{
	struct ptwalk_edu_map fm = { .kind = PTWALK_EDU_KIND_SG_PIN,
				     .pages = 1 };
	char path[] = "/tmp/ptwalk-dma-XXXXXX";
	struct pc_result pr = { 0 };
	char *buf = MAP_FAILED;
	struct edu_drv d;
	bool ok = true;
	int fd, qfd = -1;

	if (!kernel_at_least(6, 12))
		return true;	/* no tracking: edu_driver_dma_inventory says so */
	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, PAGE))
		return fail(t, "mkstemp %s: %s", path, strerror(errno));
	buf = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (buf == MAP_FAILED) {
		ok = fail(t, "mmap %s: %s", path, strerror(errno));
		goto out_file;
	}
	memset(buf, 0x5c, PAGE);
	if (!edu_bind(t, &d)) {
		ok = false;
		goto out_file;
	}
	qfd = vm_open_query(t);
	if (qfd < 0 || dma_track(qfd, d.bdf, false)) {
		ok = qfd >= 0 ? fail(t, "PTWALK_IOC_DMA_TRACK: %s", strerror(errno)) :
				false;
		goto out;
	}
	fm.user_addr = A(buf);
	ok = edu_map(t, &d, &fm) && pc_dma_api(t, d.bdf, false, EXIT_OK, &pr) &&
	     page_listed(t, &pr, &fm, 0, "page_cache", false, 0, A(buf)) &&
	     page_file(t, &pr, fm.page[0].dma, path, A(buf));
	pc_free(&pr);
	munmap(buf, PAGE);
	buf = MAP_FAILED;
	ok = ok && pc_dma_api(t, d.bdf, false, EXIT_OK, &pr) &&
	     page_file(t, &pr, fm.page[0].dma, path, 0);
	if (ok)
		show_text(t, d.bdf);
	pc_free(&pr);
	ok = (!fm.state || edu_unmap(t, &d, fm.id)) && ok;
out:
	if (qfd >= 0) {
		dma_track(qfd, d.bdf, true);
		close(qfd);
	}
	ok = edu_restore(t, &d) && ok;
out_file:
	if (buf != MAP_FAILED)
		munmap(buf, PAGE);
	close(fd);
	unlink(path);
	return ok;
}
