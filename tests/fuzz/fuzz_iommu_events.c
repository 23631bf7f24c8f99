// SPDX-License-Identifier: GPL-2.0
/*
 * What ptcompare reads beside the fault lines themselves: a PCI name to
 * its requester ID and an SMMUv3 StreamID (fault_pci_rid,
 * fault_sid_matches), the last mapping of a page over the recorder's
 * events (fault_last_mapping, --faults), and the mappings those events
 * make (engine/iommu_watch.c, --iommu --watch).
 *
 * The input: a length byte and that many bytes of a PCI name, a
 * StreamID and an ID-map base, the page and time asked about, then
 * events of six bytes (kind, first page, pages, frame, milliseconds
 * since the one before, pid) over 64 pages of IOVA.
 * Oracles: a name is accepted exactly when it is DDDD:BB:DD.F or
 * BB:DD.F in hex digits alone (slot at most 0x1f, function at most 7),
 * and its ID printed back reads back the same; a StreamID matches
 * exactly when ID plus base equals it; the last mapping is the last map
 * covering the page found scanning back from the fault, its frame offset
 * by the page, unmapped when an unmap of the page follows it, with the
 * drops after it counted; and the watch's mappings are, page by page,
 * those of a table of 64 frames the events are played on, its live list
 * sorted and disjoint, an unmap's old frame and a map's remap as the
 * table says (while the watch still remembers every IOVA map unmapped).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <inttypes.h>
#include "fuzz.h"
#include "engine/fault_explain.h"
#include "engine/iommu_watch.h"

#define PAGES		64
#define SHIFT		12
#define MAX_EVENTS	512
#define NONE		PTWALK_PFN_NONE

static bool hexdigits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f')))
			return false;
	return len > 0;
}

static unsigned int hexval(const char *s, size_t len)
{
	unsigned int v = 0;

	for (size_t i = 0; i < len; i++)
		v = v * 16 + (unsigned int)(s[i] <= '9' ? s[i] - '0' :
					    (s[i] | 0x20) - 'a' + 10);
	return v;
}

/* The second reader: fields of 1-4, 1-2, 1-2 and 1 hex digits. */
static bool ref_rid(const char *s, uint32_t *domain, uint32_t *rid)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	const char *bus = s, *dot;
	unsigned int d = 0, slot, fn;

	if (c2) {
		if (c1 - s > 4 || !hexdigits(s, (size_t)(c1 - s)))
			return false;
		d = hexval(s, (size_t)(c1 - s));
		bus = c1 + 1;
	}
	c1 = strchr(bus, ':');
	dot = c1 ? strchr(c1, '.') : NULL;
	if (!c1 || !dot || c1 - bus > 2 || dot - c1 - 1 > 2 ||
	    !hexdigits(bus, (size_t)(c1 - bus)) ||
	    !hexdigits(c1 + 1, (size_t)(dot - c1 - 1)) ||
	    strlen(dot + 1) != 1 || !hexdigits(dot + 1, 1))
		return false;
	slot = hexval(c1 + 1, (size_t)(dot - c1 - 1));
	fn = hexval(dot + 1, 1);
	if (slot > 31 || fn > 7)
		return false;
	*domain = d;
	*rid = hexval(bus, (size_t)(c1 - bus)) << 8 | slot << 3 | fn;
	return true;
}

static void check_rid(const char *name, uint32_t sid, uint32_t base)
{
	uint32_t d = 0, rid = 0, d2 = 0, rid2 = 0, rd = 0, rr = 0;
	bool ok = fault_pci_rid(name, &d, &rid);
	char back[32];

	FUZZ_CHECK(ok == ref_rid(name, &rd, &rr), "'%s': accepted %d", name, ok);
	FUZZ_CHECK(fault_sid_matches(name, sid, base) == (ok && rid + base == sid),
		   "'%s' and StreamID 0x%x base 0x%x", name, sid, base);
	if (!ok)
		return;
	FUZZ_CHECK(d == rd && rid == rr, "'%s': %x:%x, not %x:%x", name, d,
		   rid, rd, rr);
	snprintf(back, sizeof(back), "%04x:%02x:%02x.%x", d, rid >> 8,
		 (rid >> 3) & 31, rid & 7);
	FUZZ_CHECK(fault_pci_rid(back, &d2, &rid2) && d2 == d && rid2 == rid,
		   "'%s' printed back as '%s' reads differently", name, back);
}

static bool covers(const struct ptwalk_iommu_event *e, uint64_t page)
{
	uint64_t psize = 1ULL << SHIFT;

	return e->size && page + psize > e->iova &&
	       page < iova_end(e->iova, e->size) &&
	       iova_end(e->iova, e->size) > e->iova;
}

/* fault_last_mapping against a scan back from the fault. */
static void check_last(const struct ptwalk_iommu_event *ev, size_t n,
		       uint64_t page, uint64_t fault_ns)
{
	struct fault_last_mapping m;
	size_t end = 0, map = n;
	uint64_t dropped = 0;
	bool unmapped = false;

	fault_last_mapping(ev, n, page, fault_ns, SHIFT, &m);
	while (end < n && (!fault_ns || ev[end].time_ns <= fault_ns ||
			   ev[end].kind == PTWALK_EVENT_DROPPED))
		end++;
	for (size_t i = end; i-- > 0 && map == n;)
		if (ev[i].kind == PTWALK_EVENT_MAP && covers(&ev[i], page))
			map = i;
	for (size_t i = map == n ? 0 : map + 1; i < end; i++) {
		dropped += ev[i].kind == PTWALK_EVENT_DROPPED ? ev[i].size : 0;
		unmapped |= map < n && ev[i].kind == PTWALK_EVENT_UNMAP &&
			    covers(&ev[i], page);
	}
	FUZZ_CHECK(m.found == (map < n), "found %d, the scan back %zu", m.found,
		   map);
	FUZZ_CHECK(m.dropped == dropped, "dropped %" PRIu64 ", counted %" PRIu64,
		   m.dropped, dropped);
	if (!m.found)
		return;
	FUZZ_CHECK(m.iova == ev[map].iova && m.unmapped == unmapped &&
		   m.pfn == (ev[map].pfn == NONE ? NONE :
			     ev[map].pfn + ((page - ev[map].iova) >> SHIFT)),
		   "map %zu: iova 0x%" PRIx64 " pfn 0x%" PRIx64 " unmapped %d",
		   map, m.iova, m.pfn, m.unmapped);
}

/* The table the events are played on: per page of IOVA. */
struct table {
	bool live[PAGES];	/* mapped now, frame[] its frame */
	bool gone[PAGES];	/* unmapped (or replaced) once, was[] its frame */
	uint64_t frame[PAGES], was[PAGES];
	size_t taken;		/* pages taken out: at least its IOVA maps */
};

/* The watch's live list: sorted, disjoint, every page the table's. */
static void check_table(const struct iommu_watch *w, const struct table *t)
{
	for (size_t i = 0; i < w->nr_live; i++) {
		const struct iova_map *m = &w->live[i];

		FUZZ_CHECK(m->size && (i == 0 ||
			   iova_end(w->live[i - 1].iova, w->live[i - 1].size) <=
			   m->iova), "live %zu: 0x%" PRIx64 "+0x%" PRIx64, i,
			   m->iova, m->size);
	}
	for (uint64_t p = 0; p < PAGES; p++) {
		uint64_t want = t->live[p] ? t->frame[p] : NONE;

		FUZZ_CHECK(iommu_watch_frame(w, p << SHIFT) == want,
			   "page %" PRIu64 ": 0x%" PRIx64 ", played 0x%" PRIx64,
			   p, iommu_watch_frame(w, p << SHIFT), want);
	}
}

/* One event played on the table and the watch, and what each says. */
static void play(struct iommu_watch *w, const struct ptwalk_iommu_event *e,
		 struct table *t)
{
	uint64_t first = e->iova >> SHIFT, pages = e->size >> SHIFT;
	uint64_t bytes = e->kind == PTWALK_EVENT_UNMAP && e->done ? e->done :
			 e->size;
	bool map = e->kind == PTWALK_EVENT_MAP;
	bool before = t->live[first] || (map && t->gone[first]);
	uint64_t want_old = !before ? NONE : t->live[first] ? t->frame[first] :
			    t->was[first];
	struct iommu_watch_seen s;

	FUZZ_CHECK(iommu_watch_keep(w, e) ==
		   (e->kind == PTWALK_EVENT_DROPPED || (bytes && e->pid == 1 &&
		    (map || e->kind == PTWALK_EVENT_UNMAP))), "keep kind %u pid %d",
		   e->kind, e->pid);
	if (!iommu_watch_keep(w, e))
		return;
	FUZZ_CHECK(!iommu_watch_apply(w, e, &s), "out of memory");
	if (!map && e->kind != PTWALK_EVENT_UNMAP)
		return;
	if (!map && !e->done)
		pages = 0;
	for (uint64_t k = 0; k < pages && first + k < PAGES; k++) {
		uint64_t p = first + k;

		if (t->live[p]) {
			t->gone[p] = true;
			t->was[p] = t->frame[p];
			t->taken++;
		}
		t->live[p] = map;
		t->frame[p] = e->pfn == NONE ? NONE : e->pfn + k;
	}
	/* while the watch remembers every IOVA map it took out */
	if (t->taken >= IOMMU_WATCH_GONE_MAX)
		return;
	FUZZ_CHECK(s.old_pfn == want_old, "event %" PRIu64 ": old 0x%" PRIx64
		   ", played 0x%" PRIx64, (uint64_t)e->seq, s.old_pfn, want_old);
	FUZZ_CHECK(!map || s.remap == before, "event %" PRIu64 ": remap %d",
		   (uint64_t)e->seq, s.remap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	static struct ptwalk_iommu_event ev[MAX_EVENTS];
	static struct table tab;
	uint64_t t = 0, page, fault_ns;
	size_t len = fuzz_u8(&in) % 32, n = 0;
	const uint8_t *name = fuzz_take(&in, len);
	uint32_t sid = (uint32_t)fuzz_uint(&in, 4), base = fuzz_u8(&in);
	struct iommu_watch w;
	char bdf[33];

	memcpy(bdf, name ? (const char *)name : "", name ? len : 0);
	bdf[name ? len : 0] = '\0';
	check_rid(bdf, sid, base);
	page = (uint64_t)(fuzz_u8(&in) % PAGES) << SHIFT;
	fault_ns = fuzz_u8(&in) * 1000000ULL;
	while (in.n && n < MAX_EVENTS) {
		uint8_t kind = fuzz_u8(&in), first = fuzz_u8(&in) % PAGES;
		uint8_t pages = 1 + fuzz_u8(&in) % 16, pfn = fuzz_u8(&in);
		struct ptwalk_iommu_event *e = &ev[n];

		t += fuzz_u8(&in) * 100000ULL;
		*e = (struct ptwalk_iommu_event){
			.seq = n + 1, .time_ns = t, .kind = 1 + kind % 4,
			.iova = (uint64_t)first << SHIFT,
			.size = (uint64_t)pages << SHIFT,
			.pfn = pfn == 0xff ? NONE : 0x1000ULL * pfn,
			.pid = fuzz_u8(&in) % 3,
		};
		if (e->kind == PTWALK_EVENT_UNMAP)
			e->done = kind & 0x10 ? 0 : e->size;
		if (e->kind == PTWALK_EVENT_DROPPED)
			e->size = 1 + kind / 4;
		n++;
	}
	check_last(ev, n, page, fault_ns);
	iommu_watch_init(&w, 0, UINT64_MAX, SHIFT);
	FUZZ_CHECK(!iommu_watch_tie(&w, 1), "out of memory");
	memset(&tab, 0, sizeof(tab));
	for (size_t i = 0; i < n; i++) {
		/* the table keeps frames of pages inside it only */
		if (iova_end(ev[i].iova, ev[i].size) > (uint64_t)PAGES << SHIFT &&
		    ev[i].kind == PTWALK_EVENT_MAP)
			ev[i].size = ((uint64_t)PAGES << SHIFT) - ev[i].iova;
		play(&w, &ev[i], &tab);
		check_table(&w, &tab);
	}
	iommu_watch_free(&w);
	return 0;
}
