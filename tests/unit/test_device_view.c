// SPDX-License-Identifier: GPL-2.0
/*
 * The device's view (--iommu): the PCI address check, the device-view
 * records' partition check, the page classes and the ranges they merge
 * into, and the text and JSON reports.
 */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "engine/device_view.h"
#include "model/page.h"
#include "parse/iommu_record.h"
#include "report/device_print.h"

#define VA 0x7f0000000000ULL
#define NONE PTWALK_PFN_NONE

static void pci_addresses(void **state)
{
	(void)state;
	assert_true(pci_address_valid("0000:00:03.0"));
	assert_true(pci_address_valid("10000:3a:1f.7"));	/* VMD domain */
	assert_true(pci_address_valid("0000:AB:0c.1"));
	assert_false(pci_address_valid("00:03.0"));		/* no domain */
	assert_false(pci_address_valid("0000:00:20.0"));	/* slot > 1f */
	assert_false(pci_address_valid("0000:00:03.8"));	/* fn > 7 */
	assert_false(pci_address_valid("0000:00:03.0 "));
	assert_false(pci_address_valid(" 0000:00:03.0"));
	assert_false(pci_address_valid("0000:0:03.0"));
	assert_false(pci_address_valid("0x00:00:03.0"));
	assert_false(pci_address_valid("000000000:00:03.0"));	/* 9 digits */
	assert_false(pci_address_valid(""));
	assert_false(pci_address_valid("0000:00:03"));
}

static struct ptwalk_iommu_record dev_rec(uint64_t iova, uint64_t pages,
					  uint64_t pfn, uint32_t domain)
{
	struct ptwalk_iommu_record r = {
		.iova = iova, .nr_pages = pages, .pfn = pfn, .domain = domain,
		.aperture_end = 0xffffffffffffULL,
	};
	return r;
}

static void partition(void **state)
{
	struct ptwalk_iommu_record r[3];
	char why[200];

	(void)state;
	r[0] = dev_rec(0x10000, 2, 0x500, PTWALK_IOMMU_UNMANAGED);
	r[1] = dev_rec(0x12000, 1, NONE, PTWALK_IOMMU_UNMANAGED);
	assert_true(iommu_check_partition(r, 2, 0x10000, 0x13000, 12, why,
					  sizeof(why)));
	/* a gap */
	r[1].iova = 0x13000;
	assert_false(iommu_check_partition(r, 2, 0x10000, 0x14000, 12, why,
					   sizeof(why)));
	assert_contains(why, "expected 0x12000");
	/* short of the end */
	r[1].iova = 0x12000;
	assert_false(iommu_check_partition(r, 2, 0x10000, 0x14000, 12, why,
					   sizeof(why)));
	/* past the end */
	assert_false(iommu_check_partition(r, 2, 0x10000, 0x12000, 12, why,
					   sizeof(why)));
	/* empty record */
	r[2] = dev_rec(0x13000, 0, 1, PTWALK_IOMMU_UNMANAGED);
	assert_false(iommu_check_partition(r, 3, 0x10000, 0x13000, 12, why,
					   sizeof(why)));
	/* unknown domain, nonzero reserved */
	r[1].domain = 6;
	assert_false(iommu_check_partition(r, 2, 0x10000, 0x13000, 12, why,
					   sizeof(why)));
	r[1].domain = PTWALK_IOMMU_DMA_FQ;
	r[1].reserved = 1;
	assert_false(iommu_check_partition(r, 2, 0x10000, 0x13000, 12, why,
					   sizeof(why)));
	/* frames wrapping */
	r[1].reserved = 0;
	r[0].pfn = NONE - 1;	/* two pages: the second past 2^64 */
	assert_false(iommu_check_partition(r, 2, 0x10000, 0x13000, 12, why,
					   sizeof(why)));
	r[0].pfn = 0x500;
	assert_true(iommu_check_partition(r, 2, 0x10000, 0x13000, 12, why,
					  sizeof(why)));
	assert_int_equal(iommu_pfn_at(&r[0], 0x11000, 12), 0x501);
	r[0].pfn = NONE;
	assert_true(iommu_pfn_at(&r[0], 0x11000, 12) == NONE);
}

static void classes(void **state)
{
	(void)state;
	assert_int_equal(device_classify(5, 5), DEVICE_MATCH);
	assert_int_equal(device_classify(5, 6), DEVICE_STALE);
	assert_int_equal(device_classify(NONE, 6), DEVICE_UNMAPPED);
	assert_int_equal(device_classify(5, NONE), DEVICE_ONLY);
	assert_int_equal(device_classify(NONE, NONE), DEVICE_NEITHER);
	assert_string_equal(device_class_name(DEVICE_STALE), "device_stale");
	assert_string_equal(device_class_name(DEVICE_NR_CLASSES), "?");
	assert_string_equal(iommu_domain_name(PTWALK_IOMMU_DMA_FQ), "dma-fq");
	assert_string_equal(iommu_domain_name(PTWALK_IOMMU_NONE), "none");
	assert_null(iommu_domain_name(6));
}

static struct ptwalk_record walk_rec(uint64_t start, uint64_t pages,
				     uint64_t pfn)
{
	struct ptwalk_record r = {
		.start = start, .nr_pages = pages, .pfn = pfn,
		.kind = pfn == NONE ? PTWALK_KIND_NONE : PTWALK_KIND_PRESENT,
		.level = pfn == NONE ? PTWALK_LEVEL_NONE : PTWALK_LEVEL_PTE,
	};
	return r;
}

/*
 * Eight pages at VA, device addresses from 0x100000: two match, one the
 * buffer replaced after mapping (stale), one the IOMMU lacks, one only
 * the IOMMU maps, one neither; the last two match again.
 */
static void build_view(struct device_view *v)
{
	struct ptwalk_record w[] = {
		walk_rec(VA, 2, 0x1000),
		walk_rec(VA + 0x2000, 2, 0x2000),	/* replaced, unmapped */
		walk_rec(VA + 0x4000, 2, NONE),
		walk_rec(VA + 0x6000, 2, 0x3006),
	};
	struct ptwalk_iommu_record d[] = {
		dev_rec(0x100000, 2, 0x1000, PTWALK_IOMMU_UNMANAGED),
		dev_rec(0x102000, 1, 0x9000, PTWALK_IOMMU_UNMANAGED),
		dev_rec(0x103000, 1, NONE, PTWALK_IOMMU_UNMANAGED),
		dev_rec(0x104000, 1, 0x4444, PTWALK_IOMMU_UNMANAGED),
		dev_rec(0x105000, 1, NONE, PTWALK_IOMMU_UNMANAGED),
		dev_rec(0x106000, 2, 0x3006, PTWALK_IOMMU_UNMANAGED),
	};

	memset(v, 0, sizeof(*v));
	assert_int_equal(device_view_build(v, w, 4, d, 6, VA, VA + 0x8000,
					   0x100000, 12), 0);
}

static void ranges(void **state)
{
	struct device_view v;

	(void)state;
	build_view(&v);
	assert_int_equal(v.nr_ranges, 6);
	assert_int_equal(v.ranges[0].cls, DEVICE_MATCH);
	assert_int_equal(v.ranges[0].pages, 2);
	assert_int_equal(v.ranges[1].cls, DEVICE_STALE);
	assert_int_equal(v.ranges[1].start, VA + 0x2000);
	assert_int_equal(v.ranges[1].iova, 0x102000);
	assert_int_equal(v.ranges[1].device_pfn, 0x9000);
	assert_int_equal(v.ranges[1].walk_pfn, 0x2000);
	assert_int_equal(v.ranges[2].cls, DEVICE_UNMAPPED);
	assert_int_equal(v.ranges[2].walk_pfn, 0x2001);
	assert_int_equal(v.ranges[3].cls, DEVICE_ONLY);
	assert_int_equal(v.ranges[4].cls, DEVICE_NEITHER);
	assert_int_equal(v.ranges[5].cls, DEVICE_MATCH);
	assert_int_equal(v.ranges[5].pages, 2);
	assert_int_equal(v.pages[DEVICE_MATCH], 4);
	assert_int_equal(v.pages[DEVICE_STALE], 1);
	/* 0x1000-1, 0x9000, 0x4444, 0x3006-7 */
	assert_int_equal(v.device_runs, 4);
	assert_false(v.domain_changed);
	device_view_free(&v);
}

/* Ranges split where either frame stops being contiguous. */
static void contiguity(void **state)
{
	struct ptwalk_record w[] = { walk_rec(VA, 4, 0x100) };
	struct ptwalk_iommu_record d[] = {
		dev_rec(0, 2, 0x100, PTWALK_IOMMU_IDENTITY),
		dev_rec(0x2000, 2, 0x102, PTWALK_IOMMU_DMA),
	};
	struct device_view v = { 0 };

	(void)state;
	assert_int_equal(device_view_build(&v, w, 1, d, 2, VA, VA + 0x4000, 0, 12),
			 0);
	assert_int_equal(v.nr_ranges, 1);
	assert_int_equal(v.ranges[0].pages, 4);
	assert_true(v.domain_changed);
	assert_int_equal(v.domain, PTWALK_IOMMU_IDENTITY);
	device_view_free(&v);
	d[1].pfn = 0x200;	/* the device's frames jump, the walk's don't */
	memset(&v, 0, sizeof(v));
	assert_int_equal(device_view_build(&v, w, 1, d, 2, VA, VA + 0x4000, 0, 12),
			 0);
	assert_int_equal(v.nr_ranges, 2);
	assert_int_equal(v.ranges[0].cls, DEVICE_MATCH);
	assert_int_equal(v.ranges[1].cls, DEVICE_STALE);
	assert_int_equal(v.device_runs, 2);
	device_view_free(&v);
}

static const struct device_info info = {
	.name = "0000:00:03.0", .driver = "vfio-pci",
	.domain = PTWALK_IOMMU_UNMANAGED, .aperture_end = 0xffffffffffffULL,
	.iova_start = 0x100000, .pid = 42, .comm = "target", .start = VA,
	.end = VA + 0x8000, .page_shift = 12,
};

static void text_report(void **state)
{
	struct device_view v;
	struct capture c;
	char *out;

	(void)state;
	build_view(&v);
	device_print_text(capture_open(&c), &info, &v);
	out = capture_close(&c);
	assert_contains(out, "device 0000:00:03.0, driver vfio-pci, IOMMU domain unmanaged",
			"0x7f0000002000-0x7f0000003000 iova 0x102000 1 page device_stale: device frame 0x9000, page tables 0x2000",
			"device_unmapped: device frame none, page tables 0x2001",
			"4 physically contiguous runs",
			"verdict: the device reaches 1 page ");
	free(out);
	device_view_free(&v);
}

static void json_report(void **state)
{
	struct device_view v;
	struct capture c;
	char *out;

	(void)state;
	build_view(&v);
	assert_int_equal(device_print_json(capture_open(&c), &info, &v), 0);
	out = capture_close(&c);
	assert_contains(out, "\"device\":{\"name\":\"0000:00:03.0\",\"driver\":\"vfio-pci\",\"domain\":\"unmanaged\"",
			"\"iova_start\":\"0x100000\"",
			"{\"start\":\"0x7f0000002000\",\"iova\":\"0x102000\",\"pages\":1,\"class\":\"device_stale\",\"device_pfn\":\"0x9000\",\"walk_pfn\":\"0x2000\"}",
			"\"class\":\"neither\",\"device_pfn\":null,\"walk_pfn\":null");
	free(out);
	device_view_free(&v);
}

UNIT_MAIN("device_view", UT(pci_addresses), UT(partition), UT(classes),
	  UT(ranges), UT(contiguity), UT(text_report), UT(json_report))
