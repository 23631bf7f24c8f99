// SPDX-License-Identifier: GPL-2.0
/*
 * The device view's records and PCI addresses (parse/iommu_record.c) and
 * the view built over them (engine/device_view.c).  The input: a range
 * START PAGES (at most 64 pages), a device address IOVA, a mode byte,
 * then either raw records (mode odd: walk records of 48 bytes, as many as
 * a count byte says, up to 8; device records of 56 bytes, up to 8) or
 * records built to tile the range (mode even: per record a length byte, a
 * frame and a domain byte), then a device name.  Oracles: the device
 * partition check agrees with one done in 128-bit arithmetic; the PCI
 * address check agrees with a sscanf-free restatement of its grammar;
 * over two valid partitions the view's ranges tile the range, their
 * classes follow from their frames, and the per-class page counts add up.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdbool.h>
#include "fuzz.h"
#include "engine/device_view.h"
#include "parse/iommu_record.h"
#include "parse/record.h"

#define MAX_RECS 8
#define MAX_PAGES 64

typedef unsigned __int128 u128;

static bool dev_partition(const struct ptwalk_iommu_record *r, size_t n,
			  uint64_t start, uint64_t end)
{
	u128 at = start;

	for (size_t i = 0; i < n; i++) {
		if (r[i].iova != at || !r[i].nr_pages || r[i].domain > 5 ||
		    r[i].reserved)
			return false;
		if (r[i].pfn != PTWALK_PFN_NONE &&
		    (u128)r[i].pfn + r[i].nr_pages > UINT64_MAX)
			return false;
		at += (u128)r[i].nr_pages * 4096;
		if (at > end)
			return false;
	}
	return at == end;
}

/* Digits of class c ("x" hex, "o" 0-7, "s" slot 00-1f) in s. */
static bool pci_grammar(const char *s)
{
	size_t len = strlen(s), d = 0;

	while (d < len && isxdigit((unsigned char)s[d]))
		d++;
	if (d < 4 || d > 8 || len != d + 8 || s[d] != ':' ||
	    !isxdigit((unsigned char)s[d + 1]) ||
	    !isxdigit((unsigned char)s[d + 2]) || s[d + 3] != ':' ||
	    !strchr("01", s[d + 4]) || !isxdigit((unsigned char)s[d + 5]) ||
	    s[d + 6] != '.' || s[d + 7] < '0' || s[d + 7] > '7')
		return false;
	return true;
}

/* A frame off the input: PTWALK_PFN_NONE when its low byte is odd. */
static uint64_t take_pfn(struct fuzz_in *in)
{
	uint64_t pfn = fuzz_u64(in);

	return pfn & 1 ? PTWALK_PFN_NONE : pfn >> 1;
}

/*
 * Tiles pages pages from at in at most MAX_RECS pieces, each as long as
 * the input says (the last takes the rest): fill(in, i, at, len, recs)
 * for piece i.  Their number.
 */
static size_t tile(struct fuzz_in *in, uint64_t at, uint64_t pages,
		   void (*fill)(struct fuzz_in *in, size_t i, uint64_t at,
				uint64_t len, void *recs),
		   void *recs)
{
	size_t n = 0;

	while (pages) {
		uint64_t len = n + 1 == MAX_RECS ? pages :
			       fuzz_u8(in) % pages + 1;

		fill(in, n++, at, len, recs);
		at += len * 4096;
		pages -= len;
	}
	return n;
}

/* Page-table record i: present with the input's frame, or none. */
static void walk_piece(struct fuzz_in *in, size_t i, uint64_t start,
		       uint64_t len, void *recs)
{
	struct ptwalk_record *r = (struct ptwalk_record *)recs + i;

	*r = (struct ptwalk_record){ .start = start, .nr_pages = len };
	r->pfn = take_pfn(in);
	r->kind = r->pfn == PTWALK_PFN_NONE ? PTWALK_KIND_NONE :
					      PTWALK_KIND_PRESENT;
}

/* Device record i: the input's frame and domain. */
static void dev_piece(struct fuzz_in *in, size_t i, uint64_t iova,
		      uint64_t len, void *recs)
{
	struct ptwalk_iommu_record *r = (struct ptwalk_iommu_record *)recs + i;

	*r = (struct ptwalk_iommu_record){ .iova = iova, .nr_pages = len };
	r->pfn = take_pfn(in);
	r->domain = fuzz_u8(in) % 6;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint64_t start = fuzz_u64(&in) & ~0xfffULL;
	uint64_t pages = fuzz_u8(&in) % MAX_PAGES + 1;
	uint64_t iova = fuzz_u64(&in) & ~0xfffULL;
	uint8_t mode = fuzz_u8(&in);
	unsigned int nw = fuzz_u8(&in) % (MAX_RECS + 1);
	struct ptwalk_record walk[MAX_RECS];
	struct ptwalk_iommu_record dev[MAX_RECS];
	size_t nr_walk = 0, nr_dev = 0;
	struct device_view v = { 0 };
	uint64_t end = start + pages * 4096, iend = iova + pages * 4096;
	const uint8_t *p;
	char why[200], name[24];
	bool ok, part;

	if (end < start || iend < iova)
		return 0;
	if (mode & 1) {
		while (nr_walk < nw && (p = fuzz_take(&in, sizeof(walk[0]))))
			memcpy(&walk[nr_walk++], p, sizeof(walk[0]));
		while (nr_dev < MAX_RECS && in.n > sizeof(name) &&
		       (p = fuzz_take(&in, sizeof(dev[0]))))
			memcpy(&dev[nr_dev++], p, sizeof(dev[0]));
	} else {
		nr_walk = tile(&in, start, pages, walk_piece, walk);
		nr_dev = tile(&in, iova, pages, dev_piece, dev);
	}
	memset(name, 0, sizeof(name));
	memcpy(name, in.p, in.n < sizeof(name) - 1 ? in.n : sizeof(name) - 1);
	FUZZ_CHECK(pci_address_valid(name) == pci_grammar(name),
		   "PCI address '%s': check says %d", name,
		   pci_address_valid(name));

	part = dev_partition(dev, nr_dev, iova, iend);
	why[0] = '\0';
	ok = iommu_check_partition(dev, nr_dev, iova, iend, 12, why,
				   sizeof(why));
	FUZZ_CHECK(ok == part, "device partition check says %d, 128-bit %d",
		   ok, part);
	FUZZ_CHECK(ok || (*why && !strchr(why, '\n')), "no reason given");
	if (!ok || !ptwalk_check_partition(walk, nr_walk, start, end, 12, why,
					   sizeof(why)))
		return 0;
	FUZZ_CHECK(!device_view_build(&v, walk, nr_walk, dev, nr_dev, start,
				      end, iova, 12), "out of memory");
	{
		uint64_t at = start, sum = 0;

		for (size_t i = 0; i < v.nr_ranges; i++) {
			const struct device_range *r = &v.ranges[i];

			FUZZ_CHECK(r->start == at && r->pages &&
				   r->iova == iova + (at - start),
				   "range %zu does not continue the last", i);
			FUZZ_CHECK(r->cls == device_classify(r->device_pfn,
							     r->walk_pfn),
				   "range %zu class", i);
			at += r->pages * 4096;
		}
		FUZZ_CHECK(at == end, "ranges end short of the range");
		for (int c = 0; c < DEVICE_NR_CLASSES; c++)
			sum += v.pages[c];
		FUZZ_CHECK(sum == pages, "class counts add up to %llu",
			   (unsigned long long)sum);
	}
	device_view_free(&v);
	return 0;
}
