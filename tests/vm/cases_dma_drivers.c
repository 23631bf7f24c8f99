// SPDX-License-Identifier: GPL-2.0
/*
 * Real in-tree drivers' DMA under load, tracked by ptwalk.ko: virtio-blk
 * and virtio-net (iommu_platform=on, so every buffer goes through the DMA
 * API), QEMU's nvme and e1000e, all behind the lane's IOMMU
 * (scripts/vm-run.sh adds them to the x86-64 IOMMU lane).  Each device is
 * tracked, then rebound to its driver so that what the driver allocates
 * at probe and open is tracked too; under load (O_DIRECT from user pages,
 * buffered I/O through the page cache, raw frames between the two NICs),
 * ptcompare --json --dma must find nothing, every mapping must be live
 * kernel memory, the page cache or a pinned user page, and the inventory
 * must hold what the driver must: its rings, whose sizes come from the
 * device's configuration (the QEMU options vm-run.sh gives, the driver's
 * own ethtool ring parameters and sysfs), never from ptwalk.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <linux/virtio_ring.h>
#include "ptcompare_run.h"
#include "vmtest.h"

/* What vm-run.sh gives QEMU: the devices and their configuration. */
#define VIRTIO_VENDOR		"0x1af4"
#define VIRTIO_BLK_DEVICE	"0x1042"	/* modern (disable-legacy=on) */
#define VIRTIO_NET_DEVICE	"0x1041"
#define NVME_VENDOR		"0x1b36"	/* QEMU's nvme */
#define NVME_DEVICE		"0x0010"
#define E1000E_VENDOR		"0x8086"	/* 82574L */
#define E1000E_DEVICE		"0x10d3"
#define VBLK_QUEUES		2		/* num-queues=2 */
#define VBLK_QUEUE_SIZE		128		/* queue-size=128 */
/* virtio-net's control queue: QEMU adds it with 64 entries, a constant
 * of hw/net/virtio-net.c (virtio_add_queue(vdev, 64, ...ctrl)) */
#define VNET_CTRL_SIZE		64
/*
 * The split ring's alignment: virtio-pci modern creates every queue with
 * SMP_CACHE_BYTES (drivers/virtio/virtio_pci_modern.c), 64 on x86-64;
 * the ring is one dma_alloc_coherent() of vring_size(num, 64) bytes
 * (drivers/virtio/virtio_ring.c, vring_alloc_queue_split()).
 */
#define VRING_ALIGN		64
/* NVMe: admin queue depth NVME_AQ_DEPTH (32); 64-byte SQ, 16-byte CQ entries */
#define NVME_AQ_DEPTH		32
#define NVME_SQE		64
#define NVME_CQE		16
/*
 * The doorbell buffer (QEMU's nvme offers it from 7.1): two allocations of
 * nr_allocated_queues * 8 * db_stride bytes (drivers/nvme/host/pci.c,
 * nvme_dbbuf_size()), the queues being the admin queue and one per
 * possible CPU (nvme_max_io_queues(), no write or poll queues), the
 * stride 1 (QEMU's CAP.DSTRD is 0)
 */
#define NVME_DBBUF_PER_QUEUE	8
/*
 * e1000e: each ring ALIGN(count * descriptor, 4096) bytes; the receive
 * ring sized for the largest descriptor, packet split's 32 bytes, the
 * transmit ring 16 (drivers/net/ethernet/intel/e1000e/netdev.c,
 * e1000e_setup_rx_resources(), e1000e_setup_tx_resources())
 */
#define E1000E_RX_DESC		32
#define E1000E_TX_DESC		16
/* raw frames between the two NICs: a local experimental ethertype */
#define BLAST_ETHERTYPE		0x88b5
#define BLAST_LEN		1000
#define ALIGN_UP(x, a)		(((x) + (a) - 1) / (a) * (a))
/* inventories under load: at least, and at most while no user page is seen */
#define SNAPSHOTS		3
#define SNAPSHOTS_MAX		12
#define WAIT_S			30

/* Whether the running kernel is 6.12 or later (the DMA API tracepoints). */
static bool have_dma_tracepoints(void)
{
	struct utsname u;
	int ma = 0, mi = 0;

	return !uname(&u) && sscanf(u.release, "%d.%d", &ma, &mi) == 2 &&
	       (ma > 6 || (ma == 6 && mi >= 12));
}

static int dma_track(int fd, const char *bdf, bool off)
{
	struct ptwalk_dma_track q = {
		.size = sizeof(q), .flags = off ? PTWALK_DMA_TRACK_OFF : 0,
	};

	snprintf(q.device, sizeof(q.device), "%s", bdf);
	return ioctl(fd, PTWALK_IOC_DMA_TRACK, &q) ? errno : 0;
}

/* The name of the driver bound to PCI device bdf ("" for none). */
static void bound_driver(const char *bdf, char *name, size_t size)
{
	char path[300], link[300];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	*name = 0;
	if (n > 0) {
		const char *slash;

		link[n] = 0;
		slash = strrchr(link, '/');
		slash = slash ? slash + 1 : link;
		if (strlen(slash) < size)
			memcpy(name, slash, strlen(slash) + 1);
	}
}

/*
 * The first entry of dir whose name starts with prefix and, with
 * namespace, holds an 'n' after it (nvme0n1 beside nvme0c0n1's kind).
 */
static bool first_entry(const char *dir, const char *prefix, bool namespace,
			char *out, size_t size)
{
	size_t pl = strlen(prefix);
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, pl) || de->d_name[0] == '.')
			continue;
		if (namespace && !strchr(de->d_name + pl, 'n'))
			continue;
		found = strlen(de->d_name) < size;
		if (found)
			memcpy(out, de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
	return found;
}

/*
 * Under PCI device bdf: in its child mid* (mid NULL: none), in the
 * directory leaf, the first entry starting with prefix.
 */
static bool device_entry(const char *bdf, const char *mid, const char *leaf,
			 const char *prefix, bool namespace, char *out,
			 size_t size)
{
	char dir[512], sub[128];
	int n;

	n = snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", bdf);
	if (mid) {
		if (n < 0 || (size_t)n >= sizeof(dir) ||
		    !first_entry(dir, mid, false, sub, sizeof(sub)))
			return false;
		n = snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s/%s/%s",
			     bdf, sub, leaf);
	} else {
		n = snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s/%s",
			     bdf, leaf);
	}
	return n > 0 && (size_t)n < sizeof(dir) &&
	       first_entry(dir, prefix, namespace, out, size);
}

/* Waits up to WAIT_S for device_entry(); false with why. */
static bool wait_entry(struct vmtest *t, const char *bdf, const char *mid,
		       const char *leaf, const char *prefix, bool namespace,
		       char *out, size_t size)
{
	for (int i = 0; i < WAIT_S * 10; i++) {
		if (device_entry(bdf, mid, leaf, prefix, namespace, out, size))
			return true;
		usleep(100000);
	}
	return fail(t, "no %s* in %s's %s%s%s after %d s", prefix, bdf,
		    mid ? mid : "", mid ? "*/" : "", leaf, WAIT_S);
}

/* Unbinds bdf from driver and binds it again: the driver probes anew. */
static bool rebind(struct vmtest *t, const char *bdf, const char *driver)
{
	char path[300];

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/unbind", driver);
	if (!vm_write_text(path, bdf))
		return fail(t, "%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/bind", driver);
	if (!vm_write_text(path, bdf))
		return fail(t, "%s: %s", path, strerror(errno));
	return true;
}

/* --- the loads: children that run until killed --- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Block I/O on dev (size bytes): O_DIRECT 4K and 1M reads and 64K writes from
 * this process's anonymous pages (the block layer pins them), or buffered
 * reads and writes through the page cache, the cache dropped now and then
 * so that reads reach the device, writes synced so that they do.
 */
static void blk_child(const char *dev, uint64_t size, int which)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
	size_t len = which == 0 ? 4096 : which == 1 ? 65536 : MIB;
	int fd = open(dev, which < 3 ? O_RDWR | O_DIRECT : O_RDWR);
	void *buf = NULL;

	if (fd < 0 || posix_memalign(&buf, 65536, MIB))
		_exit(1);
	memset(buf, 0x5a, MIB);
	for (;;) {
		/* writes to the second half, reads from anywhere */
		off_t at = (off_t)(rnd(&s) % (size / 2 / len)) * (off_t)len;
		ssize_t n;

		switch (which) {
		case 0:		/* O_DIRECT 4K reads */
			n = pread(fd, buf, len, at);
			break;
		case 1:		/* O_DIRECT 64K writes */
			n = pwrite(fd, buf, len, at + (off_t)(size / 2));
			break;
		case 2:		/* O_DIRECT 1M reads: many pages in flight */
			n = pread(fd, buf, len, at);
			break;
		default:	/* buffered: write 64K, sync, drop, read back */
			at = (off_t)(rnd(&s) % (size / 2 / 65536)) * 65536 +
			     (off_t)(size / 2);
			n = pwrite(fd, buf, 65536, at);
			if (n == 65536 && !fdatasync(fd) &&
			    !posix_fadvise(fd, at, 65536, POSIX_FADV_DONTNEED))
				n = pread(fd, buf, 65536, at);
			break;
		}
		if (n < 0)
			_exit(2);
	}
}

/* Raw frames out of ifindex, broadcast, as fast as the NIC takes them. */
static void blast_child(int ifindex)
{
	unsigned char frame[BLAST_LEN];
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET, .sll_ifindex = ifindex,
		.sll_protocol = htons(BLAST_ETHERTYPE), .sll_halen = 6,
		.sll_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	int fd = socket(AF_PACKET, SOCK_DGRAM, htons(BLAST_ETHERTYPE));

	if (fd < 0)
		_exit(1);
	memset(frame, 0xa5, sizeof(frame));
	for (;;)
		if (sendto(fd, frame, sizeof(frame), 0,
			   (struct sockaddr *)&to, sizeof(to)) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN &&
			    errno != ENETDOWN)
				_exit(2);
			usleep(1000);
		}
}

#define MAX_LOAD	4

struct load {
	pid_t pid[MAX_LOAD];
	int n;
};

static bool load_add(struct vmtest *t, struct load *l, void (*fn)(void *),
		     void *arg)
{
	pid_t pid = fork();

	if (pid < 0)
		return fail(t, "fork: %s", strerror(errno));
	if (!pid) {
		fn(arg);
		_exit(0);
	}
	l->pid[l->n++] = pid;
	return true;
}

/* Stops the load: false with why if a child had died before. */
static bool load_stop(struct vmtest *t, struct load *l)
{
	bool ok = true;

	for (int i = 0; i < l->n; i++) {
		int status = 0;

		if (waitpid(l->pid[i], &status, WNOHANG) == l->pid[i])
			ok = fail(t, "load child %d ended early: status 0x%x",
				  i, status);
		else
			kill(l->pid[i], SIGKILL);
	}
	for (int i = 0; i < l->n; i++)
		waitpid(l->pid[i], NULL, 0);
	l->n = 0;
	return ok;
}

struct blk_arg {
	char dev[80];
	uint64_t size;
	int which;
};

static void blk_fn(void *a)
{
	struct blk_arg *b = a;

	blk_child(b->dev, b->size, b->which);
}

static void blast_fn(void *a)
{
	blast_child(*(int *)a);
}

/* --- what the inventory must hold --- */

/* A coherent allocation the driver must hold: count of size bytes. */
struct ring {
	uint64_t size;
	unsigned int count;
	const char *what;
};

#define MAX_RINGS	8

struct expect_dma {
	struct ring rings[MAX_RINGS];
	unsigned int nr_rings;
	/* coherent allocations besides the rings: pages of a dma_pool, ... */
	bool (*other_coherent)(uint64_t size);
	/* streaming mappings from the device (rx buffers), at most */
	unsigned int max_from_device;
	/* streaming mappings, all directions, at most */
	unsigned int max_streaming;
};

static void ring_add(struct expect_dma *e, uint64_t size, unsigned int count,
		     const char *what)
{
	for (unsigned int i = 0; i < e->nr_rings; i++)
		if (e->rings[i].size == size) {
			e->rings[i].count += count;
			return;
		}
	if (e->nr_rings < MAX_RINGS)
		e->rings[e->nr_rings++] = (struct ring){ size, count, what };
}

/* What one ptcompare --dma said, counted. */
struct seen {
	unsigned int mappings, streaming, from_device, user_pinned;
	unsigned int page_cache;
	unsigned int gone;	/* read as not sound, unmapped since */
	unsigned int unjudged;	/* unmap-optional: may be over */
	unsigned int coherent_at[MAX_RINGS];
	unsigned int coherent_other;
};

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v = pc_get(o, key);

	return v ? json_object_get_string(v) : "";
}

#define LIVE_MAX	8192

/* Whether bdf's mapping at dma, made at map_ns, is still live. */
static bool still_live(struct vmtest *t, int fd, const char *bdf,
		       uint64_t dma, uint64_t map_ns, bool *live)
{
	struct ptwalk_dma_mapping *m = calloc(LIVE_MAX, sizeof(*m));
	struct ptwalk_dma_query q = {
		.size = sizeof(q), .maps = A(m), .nr_maps = LIVE_MAX,
	};
	bool ok;

	if (!m)
		return fail(t, "out of memory");
	snprintf(q.device, sizeof(q.device), "%s", bdf);
	ok = !ioctl(fd, PTWALK_IOC_DMA_MAPS, &q) ||
	     fail(t, "PTWALK_IOC_DMA_MAPS %s: %s", bdf, strerror(errno));
	*live = false;
	for (uint32_t i = 0; ok && i < q.nr_maps; i++)
		if (m[i].dma == dma && m[i].map_ns == map_ns)
			*live = true;
	free(m);
	return ok;
}

/*
 * One mapping of the inventory: no finding, and a frame that is live
 * kernel memory, the page cache, or a user page the DMA pinned.  Another
 * frame is a failure if the mapping is still live once ptcompare is done
 * (fd: the tracking session): a buffer unmapped and freed while ptcompare
 * read it may be read free, and ptcompare's second read keeps it from
 * being a finding.  An unmap-optional mapping (dma-direct from 6.16,
 * which nvme from 6.17 need not unmap) may be long over: only counted.
 */
static bool mapping_sound(struct vmtest *t, int fd, const char *bdf,
			  struct json_object *m, const struct expect_dma *e,
			  struct seen *s)
{
	struct json_object *opt = pc_get(m, "unmap_optional");

	const char *frame = str_of(m, "frame"), *kind = str_of(m, "kind");
	struct json_object *f = pc_get(m, "findings");
	struct json_object *size = pc_get(m, "size"), *pinned = pc_get(m, "pinned");
	bool pin = pinned && json_object_get_boolean(pinned), live = false;

	if (!f || json_object_array_length(f))
		return fail(t, "a finding on a driver's mapping: %s",
			    json_object_to_json_string(m));
	if (opt && json_object_get_boolean(opt)) {
		s->unjudged++;
		/* in flight, an O_DIRECT page is pinned still */
		s->user_pinned += !strcmp(frame, "anonymous") && pin;
		return true;
	}
	if (!strcmp(frame, "anonymous") && pin) {
		s->user_pinned++;
	} else if (!strcmp(frame, "page_cache")) {
		s->page_cache++;
	} else if (strcmp(frame, "kernel") && strcmp(frame, "slab")) {
		if (!still_live(t, fd, bdf, pc_hex_or_none(m, "dma"),
				(uint64_t)json_object_get_int64(pc_get(m, "map_ns")),
				&live))
			return false;
		if (live)
			return fail(t, "a live mapping whose frame is %s%s: %s",
				    frame, pin ? "" : " (unpinned)",
				    json_object_to_json_string(m));
		s->gone++;
		return true;
	}
	s->mappings++;
	if (!strcmp(kind, "coherent")) {
		uint64_t sz = size ? (uint64_t)json_object_get_int64(size) : 0;
		unsigned int i;

		for (i = 0; i < e->nr_rings; i++)
			if (e->rings[i].size == sz) {
				s->coherent_at[i]++;
				break;
			}
		if (i == e->nr_rings) {
			if (!e->other_coherent || !e->other_coherent(sz))
				return fail(t, "a coherent allocation of %" PRIu64
					    " bytes, no ring of the driver's: %s",
					    sz, json_object_to_json_string(m));
			s->coherent_other++;
		}
		return true;
	}
	s->streaming++;
	if (!strcmp(str_of(m, "dir"), "from_device"))
		s->from_device++;
	return true;
}

/* The mappings of doc with a finding, as TAP comments. */
static void show_findings(struct json_object *doc)
{
	struct json_object *maps = doc ? pc_get(doc, "mappings") : NULL;
	size_t n = maps ? json_object_array_length(maps) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(maps, i);
		struct json_object *f = pc_get(m, "findings");

		if (f && json_object_array_length(f))
			printf("# found: %s\n", json_object_to_json_string(m));
	}
}

/*
 * ptcompare --json --dma bdf: exit 0, no finding, every mapping sound,
 * the rings exactly as the driver must hold them, the streaming mappings
 * within what its rings can hold.
 */
static bool inventory_agrees(struct vmtest *t, int fd, const char *bdf,
			     const struct expect_dma *e, struct seen *s)
{
	const char *argv[] = { "ptcompare", "--json", "--dma", bdf, NULL };
	struct pc_result r = { 0 };
	struct json_object *maps, *v;
	bool ok = true;
	size_t n;

	memset(s, 0, sizeof(*s));
	if (!pc_run(t, &r, argv))
		return false;
	r.doc = r.len ? json_tokener_parse(r.out) : NULL;
	if (r.status != EXIT_OK || !r.doc) {
		show_findings(r.doc);
		ok = fail(t, "ptcompare --dma %s: exit %d, expected 0: %s%.600s",
			  bdf, r.status, r.err, r.out ? r.out : "");
		goto out;
	}
	v = pc_get(r.doc, "overflow");
	if (!v || json_object_get_int64(v)) {
		ok = fail(t, "overflow %s: the inventory is not whole",
			  v ? json_object_get_string(v) : "(none)");
		goto out;
	}
	maps = pc_get(r.doc, "mappings");
	n = maps ? json_object_array_length(maps) : 0;
	for (size_t i = 0; ok && i < n; i++)
		ok = mapping_sound(t, fd, bdf, json_object_array_get_idx(maps, i),
				   e, s);
	for (unsigned int i = 0; ok && i < e->nr_rings; i++)
		if (s->coherent_at[i] != e->rings[i].count)
			ok = fail(t, "%u coherent allocations of %" PRIu64
				  " bytes (%s), the driver must hold %u",
				  s->coherent_at[i], e->rings[i].size,
				  e->rings[i].what, e->rings[i].count);
	if (ok && s->from_device > e->max_from_device)
		ok = fail(t, "%u streaming mappings from the device, its rings hold %u at most",
			  s->from_device, e->max_from_device);
	if (ok && s->streaming > e->max_streaming)
		ok = fail(t, "%u streaming mappings, its rings hold %u at most",
			  s->streaming, e->max_streaming);
out:
	pc_free(&r);
	return ok;
}

static void say(const char *dev, const char *when, const struct seen *s)
{
	printf("# %s %s: %u mappings, %u streaming (%u from the device, %u pinned user pages, %u page cache), %u coherent beside the rings, %u unmapped while read, %u unmap-optional\n",
	       dev, when, s->mappings, s->streaming, s->from_device,
	       s->user_pinned, s->page_cache, s->coherent_other, s->gone,
	       s->unjudged);
}

/*
 * Tracks bdf, rebinds it to driver, lets ready() find what the driver
 * made (and expect() say what it must hold), runs start()'s load, and
 * checks SNAPSHOTS inventories under load and one after it.  quiet_max:
 * the streaming mappings left once the load stops (at most).
 */
struct driver_case {
	const char *vendor, *device, *driver;
	bool (*ready)(struct vmtest *t, const char *bdf, char *name,
		      size_t size);
	bool (*expect)(struct vmtest *t, const char *name, struct expect_dma *e);
	bool (*start)(struct vmtest *t, const char *name, struct load *l);
	/* after the load: the streaming mappings it leaves, at least and at most */
	unsigned int (*quiet_min)(const struct expect_dma *e);
	unsigned int (*quiet_max)(const struct expect_dma *e);
	bool need_user_pages;	/* O_DIRECT: pinned user pages seen */
};

static bool run_driver_case(struct vmtest *t, const struct driver_case *c)
{
	struct expect_dma e = { .nr_rings = 0 };
	struct load l = { .n = 0 };
	char bdf[32], drv[64], name[64];
	unsigned int streamed = 0, pinned = 0;
	struct seen s;
	bool ok;
	int fd, err;

	if (!find_pci(t, c->vendor, c->device, bdf, sizeof(bdf)))
		return false;
	bound_driver(bdf, drv, sizeof(drv));
	if (strcmp(drv, c->driver))
		return fail(t, "%s bound to '%s', expected %s", bdf, drv,
			    c->driver);
	fd = vm_open_query(t);
	if (fd < 0)
		return false;
	err = dma_track(fd, bdf, false);
	if (!have_dma_tracepoints()) {
		close(fd);
		return err == EOPNOTSUPP ||
		       fail(t, "PTWALK_IOC_DMA_TRACK before 6.12: %s, expected EOPNOTSUPP",
			    strerror(err));
	}
	if (err) {
		close(fd);
		return fail(t, "PTWALK_IOC_DMA_TRACK %s: %s", bdf, strerror(err));
	}
	ok = rebind(t, bdf, c->driver) && c->ready(t, bdf, name, sizeof(name)) &&
	     c->expect(t, name, &e);
	ok = ok && inventory_agrees(t, fd, bdf, &e, &s);
	if (ok)
		say(name, "idle after probe", &s);
	ok = ok && c->start(t, name, &l);
	for (int i = 0; ok && (i < SNAPSHOTS || (c->need_user_pages && !pinned &&
						      i < SNAPSHOTS_MAX)); i++) {
		usleep(300000);
		ok = inventory_agrees(t, fd, bdf, &e, &s);
		if (ok) {
			say(name, "under load", &s);
			streamed += s.streaming + s.unjudged;
			pinned += s.user_pinned;
		}
	}
	ok = load_stop(t, &l) && ok;
	if (ok && !streamed)
		ok = fail(t, "no streaming mapping in the inventories under load");
	if (ok && c->need_user_pages && !pinned)
		ok = fail(t, "no pinned user page in %d inventories under O_DIRECT",
			  SNAPSHOTS_MAX);
	if (ok) {
		sleep(1);
		ok = inventory_agrees(t, fd, bdf, &e, &s);
	}
	if (ok) {
		say(name, "after the load", &s);
		/*
		 * unmap-optional ones count toward the least (a NIC's
		 * receive buffers are so on dma-direct), not the most: some
		 * may be over (nvme's)
		 */
		if (s.streaming + s.unjudged < c->quiet_min(&e) ||
		    s.streaming > c->quiet_max(&e))
			ok = fail(t, "%u streaming mappings after the load (%u more unmap-optional), expected %u to %u",
				  s.streaming, s.unjudged, c->quiet_min(&e),
				  c->quiet_max(&e));
	}
	dma_track(fd, bdf, true);
	close(fd);
	return ok;
}

/* --- block devices --- */

static unsigned int none_left(const struct expect_dma *e)
{
	(void)e;
	return 0;
}

static uint64_t blk_bytes(const char *name)
{
	char path[128], v[32] = "";

	snprintf(path, sizeof(path), "/sys/block/%s/size", name);
	return vm_read_text(path, v, sizeof(v)) ? strtoull(v, NULL, 10) * 512 : 0;
}

/* The hardware queues blk-mq made for name (its driver's queues). */
static unsigned int mq_queues(const char *name)
{
	char path[128];
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/block/%s/mq", name);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static unsigned int sysfs_uint(const char *fmt, const char *name)
{
	char path[160], v[32] = "";

	snprintf(path, sizeof(path), fmt, name);
	return vm_read_text(path, v, sizeof(v)) ? (unsigned int)strtoul(v, NULL, 0) : 0;
}

/*
 * The disk I/O goes to for name: itself, or with nvme's native multipath,
 * the namespace's head (nvme0n1) of the path name (nvme0c0n1).
 */
static void io_disk(const char *name, char *out, size_t size)
{
	unsigned int c, p, n;

	if (sscanf(name, "nvme%uc%un%u", &c, &p, &n) == 3)
		snprintf(out, size, "nvme%un%u", c, n);
	else
		snprintf(out, size, "%s", name);
}

/* O_DIRECT reads and writes, and buffered I/O, on name's disk. */
static bool blk_start(struct vmtest *t, const char *name, struct load *l)
{
	static struct blk_arg a[4];
	char disk[64];
	uint64_t size;

	io_disk(name, disk, sizeof(disk));
	size = blk_bytes(disk);
	if (size < 4 * MIB)
		return fail(t, "/sys/block/%s/size: %" PRIu64 " bytes", disk, size);
	for (int i = 0; i < 4; i++) {
		snprintf(a[i].dev, sizeof(a[i].dev), "/dev/%s", disk);
		a[i].size = size;
		a[i].which = i;
		if (access(a[i].dev, R_OK | W_OK))
			return fail(t, "%s: %s", a[i].dev, strerror(errno));
		if (!load_add(t, l, blk_fn, &a[i]))
			return false;
	}
	return true;
}

static bool vblk_ready(struct vmtest *t, const char *bdf, char *name,
		       size_t size)
{
	return wait_entry(t, bdf, "virtio", "block", "vd", false, name, size);
}

/*
 * virtio-blk: one ring of vring_size(queue-size) per request queue, the
 * queues vm-run.sh asks for (num-queues, which the guest's two CPUs do
 * not cut), as blk-mq's hardware queues say too; in flight, each request
 * one descriptor (indirect) with its header, status and data segments,
 * so at most queue-size requests of max_segments + 3 mappings (the
 * indirect table, the header, the status) per queue.
 */
static bool vblk_expect(struct vmtest *t, const char *name,
			struct expect_dma *e)
{
	unsigned int q = mq_queues(name);
	unsigned int segs = sysfs_uint("/sys/block/%s/queue/max_segments", name);

	if (q != VBLK_QUEUES)
		return fail(t, "/sys/block/%s/mq: %u queues, vm-run.sh asks for %d",
			    name, q, VBLK_QUEUES);
	if (!segs)
		return fail(t, "/sys/block/%s/queue/max_segments unreadable", name);
	ring_add(e, vring_size(VBLK_QUEUE_SIZE, VRING_ALIGN), VBLK_QUEUES,
		 "request queue rings");
	e->max_streaming = VBLK_QUEUES * VBLK_QUEUE_SIZE * (segs + 3);
	e->max_from_device = e->max_streaming;
	return true;
}

VMTEST_CASE(iommu, "dma_driver_virtio_blk", dma_driver_virtio_blk)
{
	static const struct driver_case c = {
		VIRTIO_VENDOR, VIRTIO_BLK_DEVICE, "virtio-pci",
		vblk_ready, vblk_expect, blk_start, none_left, none_left, true,
	};

	return run_driver_case(t, &c);
}

/* The possible CPUs ("0-1": 2), 0 if unreadable. */
static unsigned int possible_cpus(void)
{
	char v[64] = "";
	unsigned int a = 0, b = 0;
	int n;

	if (!vm_read_text("/sys/devices/system/cpu/possible", v, sizeof(v)))
		return 0;
	n = sscanf(v, "%u-%u", &a, &b);
	return n == 2 ? b - a + 1 : n == 1 ? 1 : 0;
}

static bool nvme_ready(struct vmtest *t, const char *bdf, char *name,
		       size_t size)
{
	char ctrl[64];

	return wait_entry(t, bdf, NULL, "nvme", "nvme", false, ctrl,
			  sizeof(ctrl)) &&
	       wait_entry(t, bdf, "nvme", ctrl, "nvme", true, name, size);
}

/* nvme's descriptor pools: pages of PRP lists (dma_pool: page-sized) */
static bool nvme_other(uint64_t size)
{
	return size == PAGE;
}

/*
 * nvme: the admin queue (NVME_AQ_DEPTH entries) and one submission and
 * one completion queue per I/O queue, blk-mq's hardware queues, each
 * sqsize + 1 entries deep (the controller's sysfs); in flight, each
 * command at most max_segments data mappings.
 */
static bool nvme_expect(struct vmtest *t, const char *name,
			struct expect_dma *e)
{
	unsigned int q = mq_queues(name), depth, segs, c = 0, cpus;
	char ctrl[32];

	cpus = possible_cpus();
	if (!cpus)
		return fail(t, "/sys/devices/system/cpu/possible unreadable");
	sscanf(name, "nvme%u", &c);
	snprintf(ctrl, sizeof(ctrl), "nvme%u", c);
	depth = sysfs_uint("/sys/class/nvme/%s/sqsize", ctrl) + 1;
	segs = sysfs_uint("/sys/block/%s/queue/max_segments", name);
	if (!q || depth < 2 || !segs)
		return fail(t, "%s: %u queues, sqsize + 1 = %u, max_segments %u",
			    name, q, depth, segs);
	ring_add(e, NVME_AQ_DEPTH * NVME_SQE, 1, "admin submission queue");
	ring_add(e, NVME_AQ_DEPTH * NVME_CQE, 1, "admin completion queue");
	ring_add(e, (uint64_t)depth * NVME_SQE, q, "I/O submission queues");
	ring_add(e, (uint64_t)depth * NVME_CQE, q, "I/O completion queues");
	ring_add(e, (uint64_t)(cpus + 1) * NVME_DBBUF_PER_QUEUE, 2,
		 "doorbell buffers");
	e->other_coherent = nvme_other;
	e->max_streaming = q * depth * segs;
	e->max_from_device = e->max_streaming;
	return true;
}

VMTEST_CASE(iommu, "dma_driver_nvme", dma_driver_nvme)
{
	static const struct driver_case c = {
		NVME_VENDOR, NVME_DEVICE, "nvme",
		nvme_ready, nvme_expect, blk_start, none_left, none_left, true,
	};

	return run_driver_case(t, &c);
}

/* --- network devices: raw frames both ways between the two NICs --- */

static int ifindex_of(const char *name)
{
	return (int)if_nametoindex(name);
}

static bool if_up(struct vmtest *t, const char *name)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	bool ok;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ok = s >= 0 && !ioctl(s, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	ok = ok && !ioctl(s, SIOCSIFFLAGS, &ifr);
	if (!ok)
		fail(t, "%s up: %s", name, strerror(errno));
	if (s >= 0)
		close(s);
	return ok;
}

/*
 * Every interface but loopback down again, as the guest booted: a NIC
 * left up keeps its receive buffers mapped to the poweroff, where the
 * newest kernel's virtio bus (not 6.12's) resets virtio-iommu before the
 * NICs' own shutdown ("virtio: break and reset virtio devices on
 * device_shutdown()"), and dma-iommu WARNs on each of e1000e's unmaps
 * that then fails.
 */
static bool nics_down(struct vmtest *t)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	bool ok = ifs && s >= 0;

	for (i = ifs; ok && i->if_index; i++) {
		struct ifreq ifr = { 0 };

		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", i->if_name);
		if (ioctl(s, SIOCGIFFLAGS, &ifr)) {
			ok = false;
		} else if (!(ifr.ifr_flags & IFF_LOOPBACK) &&
			   (ifr.ifr_flags & IFF_UP)) {
			ifr.ifr_flags &= ~IFF_UP;
			ok = !ioctl(s, SIOCSIFFLAGS, &ifr);
		}
	}
	if (!ok)
		fail(t, "interfaces down: %s", strerror(errno));
	if (ifs)
		if_freenameindex(ifs);
	if (s >= 0)
		close(s);
	return ok;
}

/* The driver's own ring sizes (ethtool -g): rx and tx descriptors. */
static bool ring_param(struct vmtest *t, const char *name, unsigned int *rx,
		       unsigned int *tx)
{
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	bool ok;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_data = (char *)&rp;
	ok = s >= 0 && !ioctl(s, SIOCETHTOOL, &ifr);
	if (s >= 0)
		close(s);
	if (!ok || !rp.rx_pending || !rp.tx_pending)
		return fail(t, "ETHTOOL_GRINGPARAM %s: %s (rx %u, tx %u)", name,
			    strerror(errno), rp.rx_pending, rp.tx_pending);
	*rx = rp.rx_pending;
	*tx = rp.tx_pending;
	return true;
}

/* The other NIC of the pair (the one this case does not track), up. */
static bool peer_nic(struct vmtest *t, const char *vendor, const char *device,
		     const char *mid, char *name, size_t size)
{
	char bdf[32];

	if (!find_pci(t, vendor, device, bdf, sizeof(bdf)))
		return false;
	return wait_entry(t, bdf, mid, "net", "", false, name, size) &&
	       if_up(t, name);
}

static bool blast_both(struct vmtest *t, const char *name, const char *peer,
		       struct load *l)
{
	static int idx[2];

	idx[0] = ifindex_of(name);
	idx[1] = ifindex_of(peer);
	if (!idx[0] || !idx[1])
		return fail(t, "no ifindex for %s or %s", name, peer);
	return load_add(t, l, blast_fn, &idx[0]) &&
	       load_add(t, l, blast_fn, &idx[1]);
}

static bool vnet_ready(struct vmtest *t, const char *bdf, char *name,
		       size_t size)
{
	return wait_entry(t, bdf, "virtio", "net", "", false, name, size) &&
	       if_up(t, name);
}

/*
 * virtio-net: one receive and one transmit ring of the sizes the driver
 * reports (one queue pair: QEMU's mq is off), and the control queue; the
 * receive ring holds at most rx posted buffers, each at most one mapping;
 * each sent frame at most MAX_SKB_FRAGS + 2 mappings and an indirect
 * table, at most tx of them in flight.
 */
static bool vnet_expect(struct vmtest *t, const char *name,
			struct expect_dma *e)
{
	unsigned int rx, tx;

	if (!ring_param(t, name, &rx, &tx))
		return false;
	ring_add(e, vring_size(rx, VRING_ALIGN), 1, "receive ring");
	ring_add(e, vring_size(tx, VRING_ALIGN), 1, "transmit ring");
	ring_add(e, vring_size(VNET_CTRL_SIZE, VRING_ALIGN), 1, "control ring");
	e->max_from_device = rx;
	e->max_streaming = rx + tx * (17 + 3);
	return true;
}

static bool vnet_start(struct vmtest *t, const char *name, struct load *l)
{
	char peer[64];

	return peer_nic(t, E1000E_VENDOR, E1000E_DEVICE, NULL, peer,
			sizeof(peer)) &&
	       blast_both(t, name, peer, l);
}

/* virtio-net keeps its receive ring filled: at least one buffer mapped */
static unsigned int one(const struct expect_dma *e)
{
	(void)e;
	return 1;
}

static unsigned int all_streaming(const struct expect_dma *e)
{
	return e->max_streaming;
}

VMTEST_CASE(iommu, "dma_driver_virtio_net", dma_driver_virtio_net)
{
	static const struct driver_case c = {
		VIRTIO_VENDOR, VIRTIO_NET_DEVICE, "virtio-pci",
		vnet_ready, vnet_expect, vnet_start, one, all_streaming, false,
	};
	bool ok = run_driver_case(t, &c);

	return nics_down(t) && ok;
}

static bool e1000e_ready(struct vmtest *t, const char *bdf, char *name,
			 size_t size)
{
	return wait_entry(t, bdf, NULL, "net", "", false, name, size) &&
	       if_up(t, name);
}

/*
 * e1000e: its two descriptor rings (E1000E_RX_DESC); once open, every receive descriptor but one holds a mapped buffer
 * (e1000_alloc_rx_buffers() of e1000_desc_unused(): count - 1): never
 * more from the device, and that many again once the load stops; a sent
 * frame holds its head and at most MAX_SKB_FRAGS (17) pages mapped.
 */
static bool e1000e_expect(struct vmtest *t, const char *name,
			  struct expect_dma *e)
{
	unsigned int rx, tx;

	if (!ring_param(t, name, &rx, &tx))
		return false;
	ring_add(e, ALIGN_UP(rx * E1000E_RX_DESC, 4096), 1, "receive ring");
	ring_add(e, ALIGN_UP(tx * E1000E_TX_DESC, 4096), 1, "transmit ring");
	e->max_from_device = rx - 1;
	e->max_streaming = rx - 1 + tx * (17 + 1);
	return true;
}

static bool e1000e_start(struct vmtest *t, const char *name, struct load *l)
{
	char peer[64];

	return peer_nic(t, VIRTIO_VENDOR, VIRTIO_NET_DEVICE, "virtio", peer,
			sizeof(peer)) &&
	       blast_both(t, name, peer, l);
}

/* at rest, the receive ring refilled: rx - 1 buffers, and frames the
 * transmit ring has not yet cleaned (e1000e cleans them on its next
 * interrupt) */
static unsigned int e1000e_quiet_min(const struct expect_dma *e)
{
	return e->max_from_device;
}

VMTEST_CASE(iommu, "dma_driver_e1000e", dma_driver_e1000e)
{
	static const struct driver_case c = {
		E1000E_VENDOR, E1000E_DEVICE, "e1000e",
		e1000e_ready, e1000e_expect, e1000e_start, e1000e_quiet_min,
		all_streaming, false,
	};
	bool ok = run_driver_case(t, &c);

	return nics_down(t) && ok;
}
