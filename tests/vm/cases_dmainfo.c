// SPDX-License-Identifier: GPL-2.0
/*
 * What a driver needs to know of a DMA buffer, per page, from ptwalk's
 * extended records (struct ptwalk_record_ext): the memory type, the DMA-pinned
 * state, the NUMA node.  Each is checked against an oracle that is neither
 * ptwalk nor pagemap:
 *  - pinned: io_uring's IORING_REGISTER_BUFFERS pins with FOLL_PIN while
 *    the buffers are registered and unpins them when unregistered;
 *  - memory type: the kernel's record of its PAT reservations,
 *    /sys/kernel/debug/x86/pat_memtype_list, for a PCI BAR mapped through
 *    sysfs resource0 (uncached-minus) and resource0_wc (write-combining);
 *    on arm64, what the kernel's sysfs mmap path asks for (resource0:
 *    pgprot_device(), Device-nGnRE; resource0_wc: pgprot_writecombine(),
 *    Normal-NC; anonymous memory: Normal), checked against the AttrIndx of
 *    the raw entry the fixture reads;
 *  - node: move_pages(2) with no target nodes, which reports the node of
 *    each page, on buffers bound with mbind(2) to each of two nodes;
 *  - frames: the fixture's get_user_pages/follow_pfn, as everywhere.
 * ptcompare's JSON ranges, its DMA view and vtop are checked against the
 * same oracles.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/io_uring.h>
#if defined(__x86_64__)
#include <drm.h>
#include <drm_mode.h>
#include <linux/videodev2.h>
#endif
#include "module/ptwalk_names.h"
#include "ptcompare_run.h"
#include "vmtest.h"

/*
 * The memory type of ordinary memory: x86's PAT decode says wb, arm64's
 * MAIR decode normal, riscv64's PBMT decode pma.  The cases of NUMA nodes and the x86 drivers run on
 * x86 only (the arm64 VM has two nodes too, of 3G and 1G, since the watch
 * cases: these could run there as well).
 */
#if defined(__x86_64__)
#define RAM_MEMTYPE PTWALK_MEMTYPE_WB
#elif defined(__riscv)
#define RAM_MEMTYPE PTWALK_MEMTYPE_PMA
#else
#define RAM_MEMTYPE PTWALK_MEMTYPE_NORMAL
#endif
#define MAX_EXT 4096
#define PAT_LIST "/sys/kernel/debug/x86/pat_memtype_list"
#define PAT_CONFIG "x86/PAT: Configuration [0-7]: "
#define DYNDBG "/sys/kernel/debug/dynamic_debug/control"

/* Extended records of [start, end) of this process, checked to partition it. */
static bool walk_ext(struct vmtest *t, uint64_t start, uint64_t end,
		     struct ptwalk_record_ext *out, size_t *n)
{
	int fd = vm_open_query(t);
	uint64_t expect = start;
	ssize_t got;
	int ret;

	*n = 0;
	if (fd < 0)
		return false;
	ret = ptwalk_query(fd, getpid(), start, end);
	if (ret) {
		close(fd);
		return fail(t, "extended query: %s", strerror(-ret));
	}
	while ((got = ptwalk_read_ext(fd, out + *n, MAX_EXT - *n)) > 0)
		*n += (size_t)got;
	close(fd);
	if (got < 0)
		return fail(t, "extended read: %s", strerror((int)-got));
	for (size_t i = 0; i < *n; i++) {
		if (out[i].rec.start != expect || !out[i].rec.nr_pages)
			return fail(t, "extended record %zu at 0x%" PRIx64
				    ", expected 0x%" PRIx64, i,
				    (uint64_t)out[i].rec.start, expect);
		expect = ptwalk_record_end(&out[i].rec, PAGE_SHIFT_K);
	}
	if (expect != end)
		return fail(t, "extended records end at 0x%" PRIx64, expect);
	return true;
}

static const struct ptwalk_record_ext *ext_at(const struct ptwalk_record_ext *x,
					      size_t n, uint64_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (x[i].rec.start <= addr && addr < ptwalk_record_end(&x[i].rec, PAGE_SHIFT_K))
			return &x[i];
	return NULL;
}

#if defined(__aarch64__)
/*
 * The MAIR_EL1 slot (AttrIndx, bits [4:2] of an entry) the arm64 kernel
 * gives each memory type, its MT_* numbers in
 * arch/arm64/include/asm/memory.h (5.10 to 6.x).
 */
#define MEMTYPE_FIELD		"AttrIndx"
#define MEMTYPE_BITS(pte)	((int)(((pte) >> 2) & 7))
static int memtype_bits(int memtype)
{
	switch (memtype) {
	case PTWALK_MEMTYPE_NORMAL: return 0;		/* MT_NORMAL */
	case PTWALK_MEMTYPE_NORMAL_TAGGED: return 1;	/* MT_NORMAL_TAGGED */
	case PTWALK_MEMTYPE_NORMAL_NC: return 2;	/* MT_NORMAL_NC */
	case PTWALK_MEMTYPE_DEVICE_NGNRNE: return 3;	/* MT_DEVICE_nGnRnE */
	case PTWALK_MEMTYPE_DEVICE_NGNRE: return 4;	/* MT_DEVICE_nGnRE */
	default: return -1;
	}
}
#elif defined(__riscv)
/*
 * The PBMT value (Svpbmt, bits 62:61 of a leaf) the riscv64 kernel writes
 * for each memory type: 0 PMA, 1 NC (pgprot_writecombine()), 2 IO
 * (pgprot_noncached()).
 */
#define MEMTYPE_FIELD		"PBMT"
#define MEMTYPE_BITS(pte)	((int)(((pte) >> 61) & 3))
static int memtype_bits(int memtype)
{
	switch (memtype) {
	case PTWALK_MEMTYPE_PMA: return 0;
	case PTWALK_MEMTYPE_NC: return 1;
	case PTWALK_MEMTYPE_IO: return 2;
	default: return -1;
	}
}
#endif

#ifdef MEMTYPE_FIELD
/*
 * The raw entry mapping @addr, as the fixture reads it, has @memtype's
 * MEMTYPE_FIELD: the oracle's expectation is what the kernel wrote.
 */
static bool attrindx_is(struct vmtest *t, uint64_t addr, int memtype)
{
	struct ptwalk_fixture_pte pte = { .addr = addr };
	int bits;

	if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PTE, &pte) || pte.err)
		return fail(t, "fixture PTE of 0x%" PRIx64 ": %s", addr,
			    strerror(pte.err ? -pte.err : errno));
	bits = MEMTYPE_BITS(pte.pte);
	if (bits != memtype_bits(memtype))
		return fail(t, "0x%" PRIx64 ": the kernel's entry 0x%" PRIx64
			    " has " MEMTYPE_FIELD " %d, %s is %d", addr,
			    (uint64_t)pte.pte, bits, ptwalk_memtype_name(memtype),
			    memtype_bits(memtype));
	return true;
}
#endif

/*
 * Page i of [p, p + pages * PAGE) as ptwalk says it: present, frame as the
 * fixture's oracle says, memtype, pinned and node as expected (node < 0:
 * not checked).
 */
static bool check_ext_page(struct vmtest *t, const struct ptwalk_record_ext *x,
			   size_t n, uint64_t addr, int memtype, bool pinned,
			   int node)
{
	const struct ptwalk_record_ext *e = ext_at(x, n, addr);
	struct ptwalk_fixture_translate o;
	const char *mt;

	if (!e)
		return fail(t, "no extended record at 0x%" PRIx64, addr);
	if (!oracle(t, addr, &o))
		return false;
	if (o.status != PTWALK_FIXTURE_MAPPED ||
	    e->rec.kind != PTWALK_KIND_PRESENT ||
	    ptwalk_pfn_at(&e->rec, addr, PAGE_SHIFT_K) != o.pfn)
		return fail(t, "0x%" PRIx64 ": ptwalk frame 0x%" PRIx64
			    " (kind %u), oracle 0x%" PRIx64 " (status %u)",
			    addr, ptwalk_pfn_at(&e->rec, addr, PAGE_SHIFT_K), e->rec.kind,
			    (uint64_t)o.pfn, o.status);
	if (e->rec.memtype != memtype) {
		mt = ptwalk_memtype_name(e->rec.memtype);
		return fail(t, "0x%" PRIx64 ": memtype %s, expected %s", addr,
			    mt ? mt : "none", ptwalk_memtype_name(memtype));
	}
	if (!!(e->rec.flags & PTWALK_F_DMA_PINNED) != pinned)
		return fail(t, "0x%" PRIx64 ": dma_pinned %d, expected %d",
			    addr, !pinned, pinned);
	if (node >= 0 && e->node != node)
		return fail(t, "0x%" PRIx64 ": node %d, expected %d", addr,
			    e->node, node);
	return true;
}

/*
 * ptcompare --json --range over pages [0, pages) of p: each page's range
 * says memtype (a name; NULL: null), dma_pinned (pinned[i]: 0 false, 1 true, -1 null)
 * and node (node[i], -1 null, -2 any number) as the oracles do.
 */
static bool pc_attrs(struct vmtest *t, struct pc_result *r, const char *p,
		     size_t pages, const char *memtype, const int *pinned,
		     const int *node)
{
	struct json_object *ranges;
	bool ok = pc_json(t, r, getpid(), A(p), A(p) + pages * PAGE);

	if (!ok)
		return false;
	ranges = pc_get(r->doc, "ranges");
	for (size_t i = 0; ok && i < pages; i++) {
		uint64_t addr = A(p) + i * PAGE;
		struct json_object *o = NULL, *pin, *nd, *mt;

		for (size_t k = 0; !o && k < json_object_array_length(ranges); k++) {
			struct json_object *c = json_object_array_get_idx(ranges, k);
			uint64_t s = pc_hex_or_none(c, "start");
			uint64_t n = (uint64_t)json_object_get_int64(pc_get(c, "pages"));

			if (s <= addr && addr < s + n * PAGE)
				o = c;
		}
		if (!o) {
			ok = fail(t, "ptcompare: no range holds 0x%" PRIx64, addr);
			break;
		}
		mt = pc_get(o, "memtype");
		pin = pc_get(o, "dma_pinned");
		nd = pc_get(o, "node");
		if (!memtype ? mt != NULL :
		    !mt || strcmp(json_object_get_string(mt), memtype))
			ok = fail(t, "ptcompare: 0x%" PRIx64 " memtype %s, expected %s",
				  addr, mt ? json_object_get_string(mt) : "null",
				  memtype ? memtype : "null");
		else if (pinned[i] < 0 ? pin != NULL :
			 !pin || json_object_get_boolean(pin) != pinned[i])
			ok = fail(t, "ptcompare: 0x%" PRIx64 " dma_pinned %s, expected %d",
				  addr, pin ? json_object_to_json_string(pin) : "null",
				  pinned[i]);
		else if (node[i] == -1 ? nd != NULL :
			 !nd || (node[i] >= 0 && json_object_get_int(nd) != node[i]))
			ok = fail(t, "ptcompare: 0x%" PRIx64 " node %s, expected %d",
				  addr, nd ? json_object_to_json_string(nd) : "null",
				  node[i]);
	}
	return ok;
}

/* ptcompare's text output for argv has every needle. */
static bool pc_text_has(struct vmtest *t, const char *const argv[],
			const char *const needles[])
{
	struct pc_result r;
	bool ok = pc_run(t, &r, argv) &&
		  (r.status == 0 || fail(t, "%s exited %d: %s", argv[1],
					 r.status, r.err));

	for (size_t i = 0; ok && needles[i]; i++)
		if (!strstr(r.out, needles[i]))
			ok = fail(t, "no '%s' in: %s", needles[i], r.out);
	pc_free(&r);
	return ok;
}

/* Plain and extended queries give the same records, in their own sizes. */
VMTEST_CASE(dmainfo, "dmainfo_ext_matches_plain", ext_matches_plain)
{
	static struct ptwalk_record_ext x[MAX_EXT];
	size_t len = 64 * PAGE, n, i;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	bool ok = p != NULL;

	if (!ok)
		return false;
	touch_write(p, len / 2);
	ok = walk(t, getpid(), A(p), A(p) + len) &&
	     walk_ext(t, A(p), A(p) + len, x, &n);
	if (ok && n != t->nr_recs)
		ok = fail(t, "%zu extended records, %zu plain", n, t->nr_recs);
	for (i = 0; ok && i < n; i++)
		if (memcmp(&x[i].rec, &t->recs[i], sizeof(x[i].rec)))
			ok = fail(t, "record %zu differs between the two", i);
	for (i = 0; ok && i < len / PAGE / 2; i++) {
		ok = check_ext_page(t, x, n, A(p) + i * PAGE, RAM_MEMTYPE,
				    false, -1);
#if defined(__aarch64__) || defined(__riscv)
		if (ok)
			ok = attrindx_is(t, A(p) + i * PAGE, RAM_MEMTYPE);
#endif
	}
	/* The untouched half: no frame, no memtype, no node. */
	for (i = len / PAGE / 2; ok && i < len / PAGE; i++) {
		const struct ptwalk_record_ext *e = ext_at(x, n, A(p) + i * PAGE);

		if (!e || e->rec.memtype || e->node != PTWALK_NODE_NONE ||
		    (e->rec.flags & PTWALK_F_DMA_PINNED))
			ok = fail(t, "untouched page %zu has memtype, node or pin",
				  i);
	}
	munmap(p, len);
	return ok;
}

static int io_uring_setup(unsigned int entries, struct io_uring_params *p)
{
	return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int io_uring_register(int fd, unsigned int op, const void *arg,
			     unsigned int nr)
{
	return (int)syscall(__NR_io_uring_register, fd, op, arg, nr);
}

/*
 * Pages [first, first + count) of p pinned, the others not, with their
 * frames as the oracle says.
 */
static bool pinned_exactly(struct vmtest *t, char *p, size_t pages,
			   size_t first, size_t count)
{
	static struct ptwalk_record_ext x[MAX_EXT];
	size_t n, i;
	bool ok = walk_ext(t, A(p), A(p) + pages * PAGE, x, &n);

	for (i = 0; ok && i < pages; i++)
		ok = check_ext_page(t, x, n, A(p) + i * PAGE, RAM_MEMTYPE,
				    i >= first && i < first + count, -1);
	return ok;
}

/*
 * ptcompare on the buffer: JSON per range, the DMA view's pinned spans,
 * vtop of a registered page; registered or not (after unregistering).
 */
static bool pc_iouring(struct vmtest *t, const char *p, size_t pages,
		       size_t first, size_t count, bool registered)
{
	int pinned[16], node[16];
	char range[64], pid[16], addr[32], want[128], mt[64];
	const char *text[] = { "ptcompare", "--range", range, pid, NULL };
	const char *vtop[] = { "ptcompare", "--vtop", addr, pid, NULL };
	const char *dma[] = { want, NULL };
	const char *vt[] = { registered ? "\npinned:  yes" : "\npinned:  no\n",
			     mt, NULL };
	struct pc_result r;
	bool ok;

	for (size_t i = 0; i < pages; i++) {
		pinned[i] = registered && i >= first && i < first + count;
		node[i] = -2;
	}
	snprintf(mt, sizeof(mt), "\nmemtype: %s\n",
		 ptwalk_memtype_name(RAM_MEMTYPE));
	/* some node: which one is the numa case's to check (move_pages) */
	ok = pc_attrs(t, &r, p, pages, ptwalk_memtype_name(RAM_MEMTYPE), pinned,
		      node);
	if (ok) {
		struct json_object *dv = pc_get(r.doc, "dma");
		struct json_object *pn = dv ? pc_get(dv, "pinned") : NULL;

		if (!pn || json_object_get_int64(pc_get(pn, "pages")) !=
			   (registered ? (int64_t)count : 0))
			ok = fail(t, "ptcompare's DMA view: pinned %s",
				  pn ? json_object_to_json_string(pn) : "missing");
	}
	pc_free(&r);
	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, A(p),
		 A(p) + pages * PAGE);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(addr, sizeof(addr), "0x%" PRIx64, A(p) + (first + 1) * PAGE);
	if (registered)
		snprintf(want, sizeof(want),
			 "  pinned: %zu pages DMA-pinned in 1 span, %zu not pinned in 2 spans",
			 count, pages - count);
	else
		snprintf(want, sizeof(want),
			 "  pinned: 0 pages DMA-pinned in 0 spans, %zu not pinned in 1 span",
			 pages);
	return ok && pc_text_has(t, text, dma) && pc_text_has(t, vtop, vt);
}

/* IORING_REGISTER_BUFFERS pins (FOLL_PIN | FOLL_LONGTERM) until unregistered. */
VMTEST_CASE(dmainfo, "dmainfo_iouring_registered_buffer", iouring_registered_buffer)
{
	const size_t pages = 16, first = 4, count = 8;
	struct io_uring_params params = { 0 };
	char *p = map_anon(t, pages * PAGE, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	struct iovec iov;
	int ring;
	bool ok;

	if (!p)
		return false;
	touch_write(p, pages * PAGE);
	ring = io_uring_setup(4, &params);
	if (ring < 0) {
		munmap(p, pages * PAGE);
		return fail(t, "io_uring_setup: %s", strerror(errno));
	}
	ok = pinned_exactly(t, p, pages, 0, 0);
	iov.iov_base = p + first * PAGE;
	iov.iov_len = count * PAGE;
	if (ok && io_uring_register(ring, IORING_REGISTER_BUFFERS, &iov, 1))
		ok = fail(t, "IORING_REGISTER_BUFFERS: %s", strerror(errno));
	if (ok)
		ok = pinned_exactly(t, p, pages, first, count);
	if (ok)
		ok = pc_iouring(t, p, pages, first, count, true);
	if (ok && io_uring_register(ring, IORING_UNREGISTER_BUFFERS, NULL, 0))
		ok = fail(t, "IORING_UNREGISTER_BUFFERS: %s", strerror(errno));
	if (ok)
		ok = pinned_exactly(t, p, pages, 0, 0);
	if (ok)
		ok = pc_iouring(t, p, pages, first, count, false);
	close(ring);
	munmap(p, pages * PAGE);
	return ok;
}

#if defined(__x86_64__)
/* The kernel's name of a PAT memory type, as pat_memtype_list writes it. */
static const char *pat_name(int memtype)
{
	switch (memtype) {
	case PTWALK_MEMTYPE_WB: return "write-back";
	case PTWALK_MEMTYPE_WC: return "write-combining";
	case PTWALK_MEMTYPE_WT: return "write-through";
	case PTWALK_MEMTYPE_WP: return "write-protected";
	case PTWALK_MEMTYPE_UC: return "uncached";
	case PTWALK_MEMTYPE_UC_MINUS: return "uncached-minus";
	default: return NULL;
	}
}

/*
 * The type of the PAT reservation holding phys in pat_memtype_list
 * ("PAT: [mem 0x...-0x...] uncached-minus"): true with type set, or false
 * with t->why when none holds it or reservations of two types do.
 */
static bool pat_reservation(struct vmtest *t, uint64_t phys, char *type,
			    size_t size)
{
	FILE *f = fopen(PAT_LIST, "r");
	char line[256], name[64];
	bool found = false;
	uint64_t s, e;

	if (!f)
		return fail(t, "%s: %s", PAT_LIST, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "PAT: [mem 0x%" SCNx64 "-0x%" SCNx64 "] %63s",
			   &s, &e, name) != 3 || phys < s || phys >= e)
			continue;
		if (found && strcmp(type, name)) {
			fclose(f);
			return fail(t, "0x%" PRIx64 " reserved both %s and %s",
				    phys, type, name);
		}
		snprintf(type, size, "%s", name);
		found = true;
	}
	fclose(f);
	return found ? true :
		fail(t, "no PAT reservation holds 0x%" PRIx64, phys);
}
#endif

/* Whether PCI device @name (sysfs) has vendor ID @vendor ("0x1234"). */
static bool pci_vendor_is(const char *name, const char *vendor)
{
	char path[300], got[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor", name);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(got, sizeof(got), f))
		got[0] = '\0';
	fclose(f);
	return !strncmp(got, vendor, strlen(vendor));
}

/*
 * First PCI device with a write-combining BAR 0 (where the architecture
 * has none, VM_BAR_WC, one of QEMU's display, vendor 0x1234, with
 * resource0): its sysfs directory.
 */
static bool find_wc_bar(struct vmtest *t, char *dir, size_t size)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *de;
	char path[512];
	bool found = false;

	if (!d)
		return fail(t, "/sys/bus/pci/devices: %s", strerror(errno));
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s",
			 de->d_name, VM_BAR_WC ? "resource0_wc" : "resource0");
		if (!access(path, R_OK) &&
		    (VM_BAR_WC || pci_vendor_is(de->d_name, "0x1234"))) {
			snprintf(dir, size, "/sys/bus/pci/devices/%s", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found ? true :
		fail(t, "no PCI device with a prefetchable BAR 0 (resource0_wc)");
}

/*
 * ptcompare on a BAR mapping: memtype per range (pinned and node null: no
 * struct page), the DMA view naming the device and its sysfs numa_node,
 * vtop's memory type.
 */
static bool pc_bar(struct vmtest *t, const char *dir, const char *p,
		   size_t pages, int memtype)
{
	int none[4] = { -1, -1, -1, -1 };
	char path[600], buf[32], addr[32], pid[16], want[64], range[64];
	char mts[64], devline[128];
	const char *vtop[] = { "ptcompare", "--vtop", addr, pid, NULL };
	const char *vt[] = { want, "\npinned:  unknown (no struct page)\n", NULL };
	const char *text[] = { "ptcompare", "--range", range, pid, NULL };
	const char *dv[] = { mts, devline,
			     "  pinned: 0 pages DMA-pinned in 0 spans, 0 not pinned in 0 spans, 4 unknown (no struct page, or a special entry's, which is not read)",
			     NULL };
	struct json_object *dev;
	struct pc_result r;
	int numa = -1;
	FILE *f;
	bool ok = pc_attrs(t, &r, p, pages, ptwalk_memtype_name(memtype), none,
			   none);

	snprintf(path, sizeof(path), "%s/numa_node", dir);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			numa = atoi(buf);
		fclose(f);
	}
	dev = ok ? json_object_array_get_idx(pc_get(pc_get(r.doc, "dma"),
						   "devices"), 0) : NULL;
	if (ok && (!dev || !pc_get(dev, "pci_device") ||
		   strcmp(json_object_get_string(pc_get(dev, "pci_device")),
			  strrchr(dir, '/') + 1) ||
		   json_object_get_int(pc_get(dev, "bar")) != 0 ||
		   json_object_get_int(pc_get(dev, "numa_node")) != numa))
		ok = fail(t, "ptcompare's DMA view names %s, not %s BAR 0 numa_node %d",
			  dev ? json_object_to_json_string(dev) : "no device",
			  strrchr(dir, '/') + 1, numa);
	pc_free(&r);
	snprintf(addr, sizeof(addr), "0x%" PRIx64, A(p));
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(want, sizeof(want), "\nmemtype: %s\n",
		 ptwalk_memtype_name(memtype));
	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, A(p),
		 A(p) + pages * PAGE);
	snprintf(mts, sizeof(mts), "  memory types: %s %zu pages\n",
		 ptwalk_memtype_name(memtype), pages);
	if (numa < 0)
		snprintf(devline, sizeof(devline), ": PCI %s BAR 0, device NUMA node none (-1)\n",
			 strrchr(dir, '/') + 1);
	else
		snprintf(devline, sizeof(devline), ": PCI %s BAR 0, device NUMA node %d\n",
			 strrchr(dir, '/') + 1, numa);
	return ok && pc_text_has(t, vtop, vt) && pc_text_has(t, text, dv);
}

/*
 * The oracle of a BAR page's memory type: x86, the PAT reservation list
 * must name @memtype; arm64, the kernel's entry has @memtype's AttrIndx;
 * riscv64, its PBMT.
 */
static bool bar_page_memtype(struct vmtest *t, const char *file, size_t i,
			     const struct ptwalk_record_ext *e, uint64_t addr,
			     int memtype)
{
#if defined(__x86_64__)
	char type[64];

	if (!pat_reservation(t, ptwalk_pfn_at(&e->rec, addr, PAGE_SHIFT_K) * PAGE, type,
			     sizeof(type)))
		return false;
	if (strcmp(type, pat_name(memtype)))
		return fail(t, "%s page %zu: ptwalk says %s, PAT list %s",
			    file, i, ptwalk_memtype_name(e->rec.memtype), type);
	return true;
#else
	(void)file, (void)i, (void)e;
	return attrindx_is(t, addr, memtype);
#endif
}

/*
 * Maps pages of BAR 0 through @file at @page_off, reads them in, and checks
 * each page's frame (fixture), memory type (@memtype, and its oracle
 * agrees) and unknown pinned state (no struct page).
 */
static bool bar_memtype(struct vmtest *t, const char *dir, const char *file,
			size_t page_off, int memtype)
{
	static struct ptwalk_record_ext x[MAX_EXT];
	const size_t pages = 4;
	char path[600];
	volatile const char *p;
	size_t n, i;
	bool ok = true;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(t, "%s: %s", path, strerror(errno));
	p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)(page_off * PAGE));
	close(fd);
	if (p == MAP_FAILED)
		return fail(t, "mmap %s: %s", path, strerror(errno));
	for (i = 0; i < pages; i++)
		(void)p[i * PAGE];
	ok = walk_ext(t, A(p), A(p) + pages * PAGE, x, &n);
	for (i = 0; ok && i < pages; i++) {
		const struct ptwalk_record_ext *e;
		uint64_t addr = A(p) + i * PAGE;

		ok = check_ext_page(t, x, n, addr, memtype, false, -1);
		e = ext_at(x, n, addr);
		if (ok && ((e->rec.flags & PTWALK_F_PFN_VALID) ||
			   e->node != PTWALK_NODE_NONE))
			ok = fail(t, "%s page %zu: a struct page or a node", file, i);
		if (ok)
			ok = bar_page_memtype(t, file, i, e, addr, memtype);
	}
	if (ok)
		ok = pc_bar(t, dir, (const char *)p, pages, memtype);
	munmap((void *)p, pages * PAGE);
	return ok;
}

/*
 * sysfs resource0 maps uncached (x86 uncached-minus; arm64 Device-nGnRE,
 * pci_mmap_resource_range()'s pgprot_device(); riscv64 PBMT IO),
 * resource0_wc write-combining (x86 write-combining; arm64 Normal-NC,
 * pgprot_writecombine(); riscv64 PBMT NC).
 */
#if defined(__x86_64__)
#define BAR_UC PTWALK_MEMTYPE_UC_MINUS
#define BAR_WC PTWALK_MEMTYPE_WC
#elif defined(__riscv)
#define BAR_UC PTWALK_MEMTYPE_IO
#define BAR_WC PTWALK_MEMTYPE_NC
#else
#define BAR_UC PTWALK_MEMTYPE_DEVICE_NGNRE
#define BAR_WC PTWALK_MEMTYPE_NORMAL_NC
#endif
VMTEST_CASE(dmainfo, "dmainfo_pci_bar_memtypes", pci_bar_memtypes)
{
	char dir[300];

	/* different pages: one range reserved with two types would conflict */
	return find_wc_bar(t, dir, sizeof(dir)) &&
	       bar_memtype(t, dir, "resource0", 0, BAR_UC) &&
	       (!VM_BAR_WC ||
		bar_memtype(t, dir, "resource0_wc", 16, BAR_WC));
}

#if defined(__x86_64__)

/* A buffer bound to each of nodes 0 and 1: ptwalk's node of every page is
 * move_pages(2)'s.
 */
VMTEST_CASE(dmainfo, "dmainfo_numa_two_nodes", numa_two_nodes)
{
	static struct ptwalk_record_ext x[MAX_EXT];
	const size_t pages = 32;
	void *addrs[32];
	int status[32];
	char *p;
	size_t n, i;
	bool ok;

	if (access("/sys/devices/system/node/node1", F_OK))
		return fail(t, "the VM has no NUMA node 1 (qemu -numa)");
	p = map_anon(t, pages * PAGE, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	if (!p)
		return false;
	ok = true;
	if (vm_mbind_node(p, pages / 2 * PAGE, 0) ||
	    vm_mbind_node(p + pages / 2 * PAGE, pages / 2 * PAGE, 1))
		ok = fail(t, "mbind: %s", strerror(errno));
	if (ok)
		touch_write(p, pages * PAGE);
	for (i = 0; i < pages; i++)
		addrs[i] = p + i * PAGE;
	if (ok && syscall(__NR_move_pages, 0, pages, addrs, NULL, status, 0))
		ok = fail(t, "move_pages: %s", strerror(errno));
	for (i = 0; ok && i < pages; i++)
		if (status[i] != (i < pages / 2 ? 0 : 1))
			ok = fail(t, "move_pages puts page %zu on node %d: mbind did not bind",
				  i, status[i]);
	if (ok)
		ok = walk_ext(t, A(p), A(p) + pages * PAGE, x, &n);
	for (i = 0; ok && i < pages; i++)
		ok = check_ext_page(t, x, n, A(p) + i * PAGE, PTWALK_MEMTYPE_WB,
				    false, status[i]);
	if (ok) {
		int pinned[32] = { 0 };
		struct pc_result r;

		ok = pc_attrs(t, &r, p, pages, "wb", pinned, status);
		pc_free(&r);
	}
	munmap(p, pages * PAGE);
	return ok;
}

/* The enum ptwalk_memtype of each PAT index, from the boot log; false if absent. */
static bool pat_config(struct vmtest *t, int memtype[8])
{
	static const struct { const char *name; int memtype; } names[] = {
		{ "WB", PTWALK_MEMTYPE_WB }, { "WC", PTWALK_MEMTYPE_WC },
		{ "WT", PTWALK_MEMTYPE_WT }, { "WP", PTWALK_MEMTYPE_WP },
		{ "UC-", PTWALK_MEMTYPE_UC_MINUS }, { "UC", PTWALK_MEMTYPE_UC },
	};
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char rec[2048], *p = NULL;
	ssize_t n;

	if (fd < 0)
		return fail(t, "/dev/kmsg: %s", strerror(errno));
	while (!p && ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE)) {
		if (n <= 0)
			continue;	/* EPIPE: records overwritten, go on */
		rec[n] = '\0';
		p = strstr(rec, PAT_CONFIG);
	}
	close(fd);
	if (!p)
		return fail(t, "no '%s' line in the kernel log", PAT_CONFIG);
	p += strlen(PAT_CONFIG);
	for (int i = 0; i < 8; i++) {
		char tok[8];
		int used;
		size_t k;

		if (sscanf(p, " %7s%n", tok, &used) != 1)
			return fail(t, "PAT configuration line cut at entry %d", i);
		p += used;
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (!strcmp(tok, names[k].name))
				break;
		if (k == sizeof(names) / sizeof(names[0]))
			return fail(t, "PAT entry %d is '%s'", i, tok);
		memtype[i] = names[k].memtype;
	}
	return true;
}

/* The PAT index of a 4 KiB PTE: PAT (bit 7), PCD (bit 4), PWT (bit 3). */
static int pat_index(uint64_t pte)
{
	return (int)(((pte >> 7) & 1) << 2 | ((pte >> 4) & 1) << 1 |
		     ((pte >> 3) & 1));
}

/* An open DRM device whose driver is @name, or -1. */
static int open_drm(const char *name)
{
	DIR *d = opendir("/dev/dri");
	struct dirent *de;
	int found = -1;

	if (!d)
		return -1;
	while (found < 0 && (de = readdir(d))) {
		char path[300], drv[32] = "";
		struct drm_version v = { .name = drv, .name_len = sizeof(drv) - 1 };
		int fd;

		if (strncmp(de->d_name, "card", 4))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(drv, name))
			found = fd;
		else
			close(fd);
	}
	closedir(d);
	return found;
}

/*
 * A vgem dumb buffer of 16 pages, written to: every page present in a
 * VM_PFNMAP mapping, its frame the fixture's, its memory type the one the
 * PTE's PAT index has in the boot-time PAT configuration, which must be
 * write-combining as vgem asks (map_wc), not pinned, on a node that
 * exists; ptcompare says the same memory type.
 */
VMTEST_CASE(dmainfo, "dmainfo_vgem_dumb_buffer", vgem_dumb_buffer)
{
	static struct ptwalk_record_ext x[MAX_EXT];
	struct drm_mode_create_dumb create = { .width = 256, .height = 64,
					       .bpp = 32 };
	struct drm_mode_map_dumb map = { 0 };
	int pat[8], fd = open_drm("vgem"), want = -1;
	size_t pages, n = 0, i;
	struct pc_result r;
	uint8_t *p;
	bool ok, pfnmap = false;
	char vma[160] = "";

	if (fd < 0)
		return fail(t, "no vgem DRM device under /dev/dri (vgem.ko not loaded?)");
	if (!pat_config(t, pat)) {
		close(fd);
		return false;
	}
	if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) {
		close(fd);
		return fail(t, "DRM_IOCTL_MODE_CREATE_DUMB: %s", strerror(errno));
	}
	map.handle = create.handle;
	if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) {
		close(fd);
		return fail(t, "DRM_IOCTL_MODE_MAP_DUMB: %s", strerror(errno));
	}
	pages = create.size / PAGE;
	p = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)map.offset);
	if (p == MAP_FAILED) {
		close(fd);
		return fail(t, "mmap of the dumb buffer: %s", strerror(errno));
	}
	for (i = 0; i < pages; i++)
		p[i * PAGE] = (uint8_t)i;
	/*
	 * VM_PFNMAP on 6.1 and later; 5.10's vgem (before the GEM shmem
	 * helpers) maps its pages from its fault handler into a VMA with
	 * neither VM_PFNMAP nor VM_MIXEDMAP (seen in the 5.10 matrix run).
	 * Either way the frames are system RAM with a struct page and the
	 * mapping write-combining: what follows checks that.
	 */
	ok = vm_flag_at(A(p), "pf", &pfnmap, vma, sizeof(vma)) ||
	     fail(t, "no VMA at the dumb buffer's 0x%" PRIx64, A(p));
	if (ok)
		printf("# dmainfo_vgem_dumb_buffer: %s (%s)\n",
		       pfnmap ? "VM_PFNMAP" : "not VM_PFNMAP", vma);
	if (ok)
		ok = walk_ext(t, A(p), A(p) + pages * PAGE, x, &n);
	for (i = 0; ok && i < pages; i++) {
		uint64_t addr = A(p) + i * PAGE;
		const struct ptwalk_record_ext *e = ext_at(x, n, addr);
		struct ptwalk_fixture_pte pte = { .addr = addr };
		char node[64];

		if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PTE, &pte) || pte.err) {
			ok = fail(t, "fixture PTE of 0x%" PRIx64 ": %s", addr,
				  strerror(pte.err ? -pte.err : errno));
			break;
		}
		if (want < 0)
			want = pat[pat_index(pte.pte)];
		if (want != PTWALK_MEMTYPE_WC) {
			ok = fail(t, "the kernel's PTE of 0x%" PRIx64 " is %s, not the wc vgem asks for",
				  addr, ptwalk_memtype_name(want));
			break;
		}
		ok = check_ext_page(t, x, n, addr, pat[pat_index(pte.pte)],
				    false, -1);
		/*
		 * A special entry (vmf_insert_pfn() into VM_PFNMAP) holds no
		 * reference on the page: the frame has a struct page, but
		 * vm_normal_page()'s rule forbids reading it, so no node,
		 * compound state, pin or folio.  An ordinary entry (5.10)
		 * holds it: its node is one that exists.
		 */
		snprintf(node, sizeof(node), "/sys/devices/system/node/node%d",
			 e ? e->node : -1);
		if (ok && !(e->rec.flags & PTWALK_F_PFN_VALID))
			ok = fail(t, "0x%" PRIx64 ": shmem page without struct page",
				  addr);
		if (ok && (e->rec.flags & PTWALK_F_SPECIAL) &&
		    (e->node != PTWALK_NODE_NONE || e->folio_shift ||
		     (e->rec.flags & (PTWALK_F_COMPOUND | PTWALK_F_DMA_PINNED))))
			ok = fail(t, "0x%" PRIx64 ": special entry, yet its page was read: node %d, folio shift %u, flags 0x%x",
				  addr, e->node, e->folio_shift, e->rec.flags);
		if (ok && !(e->rec.flags & PTWALK_F_SPECIAL) && access(node, F_OK))
			ok = fail(t, "0x%" PRIx64 ": shmem page on node %d",
				  addr, e->node);
	}
	if (ok) {
		int pinned[64] = { 0 }, nodes[64];

		/* a special entry's page is not read: node null */
		for (i = 0; i < pages && i < 64; i++) {
			const struct ptwalk_record_ext *e =
				ext_at(x, n, A(p) + i * PAGE);

			nodes[i] = e && (e->rec.flags & PTWALK_F_SPECIAL) ? -1 : -2;
			pinned[i] = nodes[i] == -1 ? -1 : 0;
		}
		ok = pc_attrs(t, &r, (const char *)p, pages < 64 ? pages : 64,
			      ptwalk_memtype_name(want), pinned,
			      nodes);
		pc_free(&r);
	}
	munmap(p, create.size);
	close(fd);
	return ok;
}

/*
 * The DMA address the driver itself logged for the buffer mapped at
 * @vaddr: videobuf2-dma-contig's pr_debug "vb2_dc_mmap: mapped dma addr
 * 0x... at 0x<vaddr>, size N" (dynamic debug on); false if absent.
 */
static bool logged_dma_addr(struct vmtest *t, uint64_t vaddr, uint64_t *dma,
			    uint64_t *size)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char rec[2048], want[64];
	bool found = false;
	ssize_t n;

	if (fd < 0)
		return fail(t, "/dev/kmsg: %s", strerror(errno));
	snprintf(want, sizeof(want), " at 0x%08" PRIx64 ", size ", vaddr);
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		char *p;

		if (n <= 0)
			continue;
		rec[n] = '\0';
		p = strstr(rec, "mapped dma addr 0x");
		if (p && strstr(p, want) &&
		    sscanf(p, "mapped dma addr 0x%" SCNx64, dma) == 1 &&
		    sscanf(strstr(p, want) + strlen(want), "%" SCNu64, size) == 1)
			found = true;	/* the last such line wins */
	}
	close(fd);
	return found ? true :
		fail(t, "vb2-dma-contig logged no DMA address for 0x%" PRIx64, vaddr);
}

/* Turns videobuf2-dma-contig's pr_debug lines on (+p) or off (-p). */
static bool vb2_debug(struct vmtest *t, const char *onoff)
{
	FILE *f = fopen(DYNDBG, "w");
	bool ok = f && fprintf(f, "module videobuf2_dma_contig %s\n", onoff) > 0;

	if (f && fclose(f))
		ok = false;
	return ok || fail(t, "%s: cannot write 'module videobuf2_dma_contig %s'",
			  DYNDBG, onoff);
}

/* The first vivid video capture node, open, or -1. */
static int open_vivid_capture(void)
{
	for (int i = 0; i < 64; i++) {
		struct v4l2_capability cap = { 0 };
		char path[32];
		int fd;

		snprintf(path, sizeof(path), "/dev/video%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!ioctl(fd, VIDIOC_QUERYCAP, &cap) &&
		    !strcmp((const char *)cap.driver, "vivid") &&
		    (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE))
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * vivid with its dma-contig allocator (allocators=1): a capture buffer is
 * the driver's coherent DMA memory mapped with remap_pfn_range.  Every page
 * present, VM_PFNMAP, frames as follow_pfn() gives them and, the whole
 * buffer, contiguous from the DMA address the driver logged (no IOMMU in
 * the VM: bus address = physical address); memory type as the PTE's PAT
 * index has it in the boot-time configuration; ptcompare's DMA view one
 * run starting at that address.
 */
VMTEST_CASE(dmainfo, "dmainfo_vivid_dma_contig", vivid_dma_contig)
{
	static struct ptwalk_record_ext x[MAX_EXT];
	struct v4l2_requestbuffers req = { .count = 1,
					   .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };
	struct v4l2_buffer buf = { .index = 0,
				   .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				   .memory = V4L2_MEMORY_MMAP };
	int fd = open_vivid_capture(), pat[8];
	uint64_t dma = 0, size = 0;
	size_t pages, n, i;
	volatile const uint8_t *p;
	bool ok, pfnmap = false;

	if (fd < 0)
		return fail(t, "no vivid capture node (vivid.ko not loaded?)");
	ok = pat_config(t, pat) && vb2_debug(t, "+p");
	if (ok && ioctl(fd, VIDIOC_REQBUFS, &req))
		ok = fail(t, "VIDIOC_REQBUFS: %s", strerror(errno));
	if (ok && ioctl(fd, VIDIOC_QUERYBUF, &buf))
		ok = fail(t, "VIDIOC_QUERYBUF: %s", strerror(errno));
	if (!ok) {
		close(fd);
		return false;
	}
	pages = (buf.length + PAGE - 1) / PAGE;
	p = mmap(NULL, pages * PAGE, PROT_READ, MAP_SHARED, fd, buf.m.offset);
	if (p == MAP_FAILED) {
		close(fd);
		return fail(t, "mmap of the capture buffer: %s", strerror(errno));
	}
	for (i = 0; i < pages; i++)
		(void)p[i * PAGE];
	ok = logged_dma_addr(t, A(p), &dma, &size) &&
	     ((vm_flag_of("/dev/video", "pf", &pfnmap) && pfnmap) ||
	      fail(t, "the capture buffer is not VM_PFNMAP (smaps VmFlags)")) &&
	     walk_ext(t, A(p), A(p) + pages * PAGE, x, &n);
	if (ok && size < pages * PAGE)
		ok = fail(t, "the driver logged %" PRIu64 " bytes, %zu pages mapped",
			  size, pages);
	for (i = 0; ok && i < pages; i++) {
		uint64_t addr = A(p) + i * PAGE;
		struct ptwalk_fixture_pte pte = { .addr = addr };
		const struct ptwalk_record_ext *e;

		if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_PTE, &pte) || pte.err) {
			ok = fail(t, "fixture PTE of 0x%" PRIx64 ": %s", addr,
				  strerror(pte.err ? -pte.err : errno));
			break;
		}
		ok = check_ext_page(t, x, n, addr, pat[pat_index(pte.pte)],
				    false, -1);
		e = ext_at(x, n, addr);
		if (ok && ptwalk_pfn_at(&e->rec, addr, PAGE_SHIFT_K) != (dma >> PAGE_SHIFT_K) + i)
			ok = fail(t, "page %zu: frame 0x%" PRIx64 ", the driver's DMA address says 0x%" PRIx64,
				  i, ptwalk_pfn_at(&e->rec, addr, PAGE_SHIFT_K), (dma >> PAGE_SHIFT_K) + i);
	}
	if (ok) {
		struct pc_result r;

		ok = pc_json(t, &r, getpid(), A(p), A(p) + pages * PAGE);
		if (ok) {
			struct json_object *dv = pc_get(r.doc, "dma");
			struct json_object *run = json_object_array_get_idx(pc_get(dv, "runs"), 0);

			if (json_object_get_int64(pc_get(pc_get(dv, "totals"), "runs")) != 1 ||
			    pc_hex_or_none(run, "phys") != (dma & ~(PAGE - 1)))
				ok = fail(t, "ptcompare's DMA view: %s, the driver's buffer is one run at 0x%" PRIx64,
					  json_object_to_json_string(dv), dma);
		}
		pc_free(&r);
	}
	munmap((void *)p, pages * PAGE);
	close(fd);
	return vb2_debug(t, "-p") && ok;
}
#endif /* __x86_64__ */
