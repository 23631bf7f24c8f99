// SPDX-License-Identifier: GPL-2.0
/*
 * engine/dma_inventory.c: each frame of a mapping, what it is now, what
 * the IOMMU translates its pages to, and the findings.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "engine/dma_inventory.h"
#include "engine/kpageflags.h"
#include "report/dma_inventory_print.h"

#define PAGE	4096ull
#define NONE	PTWALK_PFN_NONE

static struct ptwalk_dma_mapping mapping(uint32_t flags)
{
	return (struct ptwalk_dma_mapping){
		.dma = 0xfffff000, .phys = 0x1234000, .size = 4096,
		.kind = PTWALK_DMA_SG, .flags = flags, .map_ns = 7,
	};
}

/* A page whose frame is pfn, told what, the IOMMU's answer unread. */
static struct dma_page page(uint64_t pfn, enum dma_frame what)
{
	return (struct dma_page){ .pfn = pfn, .iommu_pfn = NONE, .what = what };
}

static enum dma_frame frame0(const struct ptwalk_dma_mapping *m, bool have,
			     uint64_t kpf)
{
	return dma_frame_at(m, 0, true, have, kpf);
}

/* The frame, from the module's flags first, then kpageflags. */
static void frames(void **state)
{
	struct ptwalk_dma_mapping m = mapping(PTWALK_DMA_F_PAGE);

	(void)state;
	assert_int_equal(frame0(&m, true, KPF(SLAB)), DMA_FRAME_SLAB);
	assert_int_equal(frame0(&m, true, KPF(BUDDY)), DMA_FRAME_FREE);
	assert_int_equal(frame0(&m, true, KPF(PGTABLE)), DMA_FRAME_PAGE_TABLE);
	assert_int_equal(frame0(&m, true, KPF(RESERVED)), DMA_FRAME_RESERVED);
	assert_int_equal(frame0(&m, true, KPF(ANON) | KPF(LRU)),
			 DMA_FRAME_ANONYMOUS);
	assert_int_equal(frame0(&m, true, KPF(LRU)), DMA_FRAME_PAGE_CACHE);
	assert_int_equal(frame0(&m, true, 0), DMA_FRAME_KERNEL);
	assert_int_equal(frame0(&m, false, 0), DMA_FRAME_KERNEL);
	/* a free frame on a per-CPU list has no flag: the module's count says */
	m.flags |= PTWALK_DMA_F_FREE;
	assert_int_equal(frame0(&m, true, 0), DMA_FRAME_FREE);
	/* the module's word on the first frame: a file's page off the LRU */
	m.flags = PTWALK_DMA_F_PAGE |
		  PTWALK_DMA_FRAME_FILE << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(frame0(&m, true, 0), DMA_FRAME_PAGE_CACHE);
	assert_int_equal(frame0(&m, false, 0), DMA_FRAME_PAGE_CACHE);
	assert_int_equal(dma_frame_at(&m, 1, true, true, 0), DMA_FRAME_KERNEL);
	m.flags = PTWALK_DMA_F_PAGE |
		  PTWALK_DMA_FRAME_ANON << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(frame0(&m, true, 0), DMA_FRAME_ANONYMOUS);
	m.flags = PTWALK_DMA_F_PAGE |
		  PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(frame0(&m, true, KPF(RESERVED)), DMA_FRAME_RESERVED);
	m = mapping(0);
	assert_int_equal(frame0(&m, true, 0), DMA_FRAME_MMIO);
	assert_int_equal(dma_frame_at(&m, 0, false, true, 0), DMA_FRAME_UNKNOWN);
	assert_string_equal(dma_frame_name(DMA_FRAME_PAGE_TABLE), "page_table");
}

/*
 * Every frame a mapping covers, each told by its own kpageflags: the
 * module's flags are of the first frame only.
 */
static void every_frame(void **state)
{
	struct ptwalk_dma_mapping m = mapping(PTWALK_DMA_F_PAGE |
					      PTWALK_DMA_F_FREE);

	(void)state;
	m.size = 3 * PAGE;
	assert_int_equal(dma_pages_of(&m, PAGE), 3);
	assert_int_equal(dma_pfn_at(&m, 0, PAGE), 0x1234);
	assert_int_equal(dma_pfn_at(&m, 2, PAGE), 0x1236);
	/* the first frame's free flag says nothing of the second */
	assert_int_equal(dma_frame_at(&m, 1, true, true, KPF(SLAB)),
			 DMA_FRAME_SLAB);
	assert_int_equal(dma_frame_at(&m, 2, true, true, KPF(BUDDY)),
			 DMA_FRAME_FREE);
	assert_int_equal(dma_frame_at(&m, 1, true, true, KPF(NOPAGE)),
			 DMA_FRAME_MMIO);
	/* a byte range across a page boundary covers both pages */
	m.dma = 0x10ff0;
	m.size = 0x20;
	assert_int_equal(dma_pages_of(&m, PAGE), 2);
	m.size = 0;
	assert_int_equal(dma_pages_of(&m, PAGE), 0);
	/* a vmap()ed buffer: only its first frame is known from the map */
	m = mapping(PTWALK_DMA_F_PAGE | PTWALK_DMA_F_VMAPPED);
	m.size = 2 * PAGE;
	assert_int_equal(dma_pfn_at(&m, 0, PAGE), 0x1234);
	assert_int_equal(dma_pfn_at(&m, 1, PAGE), NONE);
	m.phys = PTWALK_DMA_PHYS_NONE;
	assert_int_equal(dma_pfn_at(&m, 0, PAGE), NONE);
	/* a resource's frames are MMIO, each of them */
	m = mapping(0);
	m.kind = PTWALK_DMA_RESOURCE;
	assert_int_equal(dma_frame_at(&m, 3, true, false, 0), DMA_FRAME_MMIO);
}

/* Each finding from its cause alone; correct use has none. */
static void findings(void **state)
{
	struct ptwalk_dma_mapping pinned =
		mapping(PTWALK_DMA_F_PAGE | PTWALK_DMA_F_PINNED);
	struct ptwalk_dma_mapping unpinned = mapping(PTWALK_DMA_F_PAGE);
	struct dma_page anon = page(0x1234, DMA_FRAME_ANONYMOUS);
	struct dma_page kernel = page(0x1234, DMA_FRAME_KERNEL);
	struct dma_page file = page(0x1234, DMA_FRAME_PAGE_CACHE);
	struct dma_page freed = page(0x1234, DMA_FRAME_FREE);
	struct dma_page slab = page(0x1234, DMA_FRAME_SLAB);
	struct dma_page two[2] = { kernel, freed };
	struct dma_page file_io = file, anon_io = anon, slab_io = slab;

	(void)state;
	file_io.io_held = anon_io.io_held = slab_io.io_held = true;
	assert_int_equal(dma_findings_of(&pinned, &anon, 1, true), 0);
	assert_int_equal(dma_findings_of(&unpinned, &kernel, 1, true), 0);
	assert_int_equal(dma_findings_of(&unpinned, &anon, 1, true),
			 1u << DMA_USER_PAGE_UNPINNED);
	assert_int_equal(dma_findings_of(&unpinned, &file, 1, true),
			 1u << DMA_USER_PAGE_UNPINNED);
	/* the page cache's and swap's own I/O: locked or under writeback */
	assert_true(dma_frame_io_held(true, KPF(LOCKED)));
	assert_true(dma_frame_io_held(true, KPF(WRITEBACK) | KPF(LRU)));
	assert_false(dma_frame_io_held(true, KPF(LRU) | KPF(DIRTY)));
	assert_false(dma_frame_io_held(false, KPF(WRITEBACK)));
	assert_int_equal(dma_findings_of(&unpinned, &file_io, 1, true), 0);
	assert_int_equal(dma_findings_of(&unpinned, &anon_io, 1, true), 0);
	assert_int_equal(dma_findings_of(&pinned, &freed, 1, true),
			 1u << DMA_FREED_WHILE_MAPPED);
	/* a later frame of the mapping freed: found too */
	assert_int_equal(dma_findings_of(&pinned, two, 2, true),
			 1u << DMA_FREED_WHILE_MAPPED);
	assert_int_equal(dma_findings_of(&pinned, two, 1, true), 0);
	assert_int_equal(dma_findings_of(&pinned, &kernel, 1, false),
			 1u << DMA_LEAKED);
	/* a kernel page when mapped, a slab page now: freed, allocated again */
	pinned.flags = PTWALK_DMA_F_PAGE |
		       PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_WAS_SHIFT |
		       PTWALK_DMA_FRAME_SLAB << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&pinned, &slab, 1, true),
			 1u << DMA_FREED_WHILE_MAPPED);
	/*
	 * a kernel page when mapped, a file's or anonymous now: freed and
	 * taken again, unless held for I/O (a page read into the page cache
	 * reaches the LRU while mapped); a slab page is no I/O's
	 */
	unpinned.flags = PTWALK_DMA_F_PAGE |
			 PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_WAS_SHIFT |
			 PTWALK_DMA_FRAME_FILE << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&unpinned, &file_io, 1, true), 0);
	assert_int_equal(dma_findings_of(&unpinned, &file, 1, true),
			 1u << DMA_FREED_WHILE_MAPPED | 1u << DMA_USER_PAGE_UNPINNED);
	unpinned.flags = PTWALK_DMA_F_PAGE |
			 PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_WAS_SHIFT |
			 PTWALK_DMA_FRAME_ANON << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&unpinned, &anon_io, 1, true), 0);
	unpinned.flags = PTWALK_DMA_F_PAGE |
			 PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_WAS_SHIFT |
			 PTWALK_DMA_FRAME_SLAB << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&unpinned, &slab_io, 1, true),
			 1u << DMA_FREED_WHILE_MAPPED);
	pinned.flags = PTWALK_DMA_F_PAGE |
		       PTWALK_DMA_FRAME_SLAB << PTWALK_DMA_WAS_SHIFT |
		       PTWALK_DMA_FRAME_SLAB << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&pinned, &slab, 1, true), 0);
	/* found walking the domain: no record of a pin, so no finding of it */
	unpinned.flags = PTWALK_DMA_F_PAGE;
	unpinned.kind = DMA_KIND_WALKED;
	assert_int_equal(dma_findings_of(&unpinned, &anon, 1, true), 0);
	assert_int_equal(dma_findings_of(&unpinned, &freed, 1, false),
			 1u << DMA_FREED_WHILE_MAPPED | 1u << DMA_LEAKED);
	/*
	 * a mapping its driver need not unmap (dma_need_unmap() false):
	 * freed, unpinned, on an unbound device, it may simply be over
	 */
	unpinned.kind = PTWALK_DMA_PAGE;
	unpinned.flags = PTWALK_DMA_F_PAGE | PTWALK_DMA_F_UNMAP_OPTIONAL;
	assert_int_equal(dma_findings_of(&unpinned, &freed, 1, false), 0);
	assert_int_equal(dma_findings_of(&unpinned, &anon, 1, true), 0);
	unpinned.flags = PTWALK_DMA_F_PAGE;
	assert_int_equal(dma_findings_of(&unpinned, &freed, 1, false),
			 1u << DMA_FREED_WHILE_MAPPED | 1u << DMA_LEAKED);
	assert_string_equal(dma_finding_name(DMA_FREED_WHILE_MAPPED),
			    "dma_freed_while_mapped");
	assert_string_equal(dma_finding_name(DMA_USER_PAGE_UNPINNED),
			    "dma_user_page_unpinned");
	assert_string_equal(dma_finding_name(DMA_LEAKED), "dma_leaked");
	assert_string_equal(dma_finding_name(DMA_IOMMU_DISAGREES),
			    "dma_iommu_disagrees");
}

/*
 * The IOMMU disagrees where it translates a page to another frame, or to
 * none; where the mapping's frame is not known (a vmap()ed buffer's),
 * only no translation disagrees.  Unread, it says nothing.
 */
static void iommu_disagrees(void **state)
{
	struct ptwalk_dma_mapping m = mapping(PTWALK_DMA_F_PAGE);
	struct dma_page p[2] = { page(0x1234, DMA_FRAME_KERNEL),
				 page(0x1235, DMA_FRAME_KERNEL) };
	unsigned int f = 1u << DMA_IOMMU_DISAGREES;

	(void)state;
	assert_false(dma_iommu_disagrees(0x1234, 0x1234));
	assert_true(dma_iommu_disagrees(0x1234, 0x1235));
	assert_true(dma_iommu_disagrees(0x1234, NONE));
	assert_false(dma_iommu_disagrees(NONE, 0x99));
	assert_true(dma_iommu_disagrees(NONE, NONE));
	m.size = 2 * PAGE;
	/* unread: nothing to say */
	p[1].iommu_pfn = 0x77;
	assert_int_equal(dma_findings_of(&m, p, 2, true), 0);
	p[0].iommu_read = p[1].iommu_read = true;
	p[0].iommu_pfn = 0x1234;
	p[1].iommu_pfn = 0x1235;
	assert_int_equal(dma_findings_of(&m, p, 2, true), 0);
	p[1].iommu_pfn = 0x77;
	assert_int_equal(dma_findings_of(&m, p, 2, true), f);
	p[1].iommu_pfn = NONE;
	assert_int_equal(dma_findings_of(&m, p, 2, true), f);
	/* a page of a vmap()ed buffer: the IOMMU's frame is the frame */
	p[1].pfn = NONE;
	p[1].iommu_pfn = 0x77;
	assert_int_equal(dma_findings_of(&m, p, 2, true), 0);
	p[1].iommu_pfn = NONE;
	assert_int_equal(dma_findings_of(&m, p, 2, true), f);
}

/*
 * A finding holds only when the second read has the same mapping with
 * it: unmapped (or remapped elsewhere) between the reads, none.
 */
static void confirmed_by_the_second_read(void **state)
{
	struct ptwalk_dma_mapping m = mapping(PTWALK_DMA_F_PAGE);
	struct ptwalk_dma_mapping again[2] = { m, m };
	unsigned int f = 1u << DMA_FREED_WHILE_MAPPED;
	unsigned int again_f[2] = { 0, f };

	(void)state;
	again[0].dma = 0x1000;
	assert_int_equal(dma_confirmed(&m, f, again, again_f, 2), f);
	assert_int_equal(dma_confirmed(&m, f, again, again_f, 1), 0);
	again_f[1] = 1u << DMA_LEAKED;
	assert_int_equal(dma_confirmed(&m, f, again, again_f, 2), 0);
	/* the same address mapped again later: another mapping */
	again[1].map_ns = 8;
	again_f[1] = f;
	assert_int_equal(dma_confirmed(&m, f, again, again_f, 2), 0);
	/* an IOMMU disagreement gone by the second read: none */
	again[1].map_ns = 7;
	again_f[1] = 0;
	assert_int_equal(dma_confirmed(&m, 1u << DMA_IOMMU_DISAGREES, again,
				       again_f, 2), 0);
}

static char *print(const struct dma_inventory *inv, bool json)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	if (json)
		dma_inventory_print_json(f, inv);
	else
		dma_inventory_print_text(f, inv);
	fclose(f);
	return out;
}

/* The report counts per finding, and names every frame and its owner. */
static void report_counts(void **state)
{
	struct ptwalk_dma_query q = { .live = 2, .capacity = 4096 };
	struct dma_page pages[3] = {
		page(0x1234, DMA_FRAME_FREE),
		page(0x1234, DMA_FRAME_ANONYMOUS),
		page(0x1235, DMA_FRAME_KERNEL),
	};
	struct dma_page_who who[3] = {
		{ 0 },
		{ .pid = 42, .va = 0x7f0000001000, .comm = "vmtest" },
		{ .file = "/data/x", .fstype = "tmpfs", .ino = 12 },
	};
	struct dma_item items[2] = {
		{ .m = mapping(PTWALK_DMA_F_PAGE),
		  .findings = 1u << DMA_FREED_WHILE_MAPPED, .nr_pages = 1,
		  .pages = &pages[0], .who = &who[0], .n = 1 },
		{ .m = mapping(PTWALK_DMA_F_PAGE | PTWALK_DMA_F_PINNED),
		  .findings = 1u << DMA_IOMMU_DISAGREES, .nr_pages = 100,
		  .pages = &pages[1], .who = &who[1], .n = 2,
		  .domain = PTWALK_IOMMU_DMA_FQ },
	};
	struct dma_inventory inv = {
		.device = "0000:00:03.0", .driver = "ptwalk_edu", .q = &q,
		.items = items, .n = 2, .dma_api = true, .page_shift = 12,
	};
	static const struct dma_window windows[2] = {
		{ 0, 1ull << 32 }, { 0xffff00000000, 1ull << 48 },
	};
	unsigned int per[DMA_NR_FINDINGS];
	char *out;

	(void)state;
	pages[1].iommu_read = pages[2].iommu_read = true;
	pages[1].iommu_pfn = 0x1234;
	pages[2].iommu_pfn = NONE;
	items[0].iommu_err = -ENOENT;
	assert_int_equal(dma_inventory_count(&inv, per), 2);
	assert_int_equal(per[DMA_FREED_WHILE_MAPPED], 1);
	assert_int_equal(per[DMA_IOMMU_DISAGREES], 1);
	out = print(&inv, true);
	assert_contains(out, "\"findings\": [\"dma_freed_while_mapped\"]");
	assert_contains(out, "\"findings\": [\"dma_iommu_disagrees\"]");
	assert_contains(out, "\"frame\": \"free\"");
	assert_contains(out, "\"pages\": 100, \"pages_listed\": 2");
	assert_contains(out, "\"iommu_domain\": \"dma-fq\"");
	assert_contains(out, "\"pid\": 42, \"va\": \"0x7f0000001000\", \"comm\": \"vmtest\"");
	assert_contains(out, "\"dma\": \"0xfffff000\", \"pfn\": \"0x1234\", \"pfn_from\": \"mapping\", \"frame\": \"anonymous\"");
	assert_contains(out, "\"iommu_read\": true, \"iommu_pfn\": null}");
	assert_contains(out, "\"comm\": \"vmtest\", \"file\": null, \"fs\": null, \"ino\": null");
	assert_contains(out, "\"pid\": null, \"va\": null, \"comm\": null, \"file\": \"/data/x\", \"fs\": \"tmpfs\", \"ino\": 12");
	assert_contains(out, "\"dma_iommu_disagrees\": 1");
	assert_contains(out, "\"total_findings\": 2}");
	free(out);
	out = print(&inv, false);
	assert_contains(out, "anonymous of pid 42 (vmtest) at 0x7f0000001000; iommu agrees");
	assert_contains(out, "+0x1000 pfn 0x1235 kernel file tmpfs:/data/x (ino 12); iommu: no translation");
	assert_contains(out, "(98 more pages not listed");
	assert_contains(out, "iommu domain not read:");
	assert_contains(out, "dma_iommu_disagrees: 1 (");
	free(out);
	/* a vmap()ed buffer's page the IOMMU was not asked about */
	items[1].m.flags |= PTWALK_DMA_F_VMAPPED;
	pages[2] = page(NONE, DMA_FRAME_UNKNOWN);
	inv.dma_api = false;
	out = print(&inv, false);
	assert_contains(out, "+0x1000 frame unknown (a vmap()ed buffer: --dma-api names it) file tmpfs:/data/x");
	free(out);
	/* ... and one it translates to nothing */
	pages[2].iommu_read = true;
	inv.dma_api = true;
	out = print(&inv, false);
	assert_contains(out, "+0x1000 frame unknown file tmpfs:/data/x (ino 12); iommu: no translation");
	free(out);
	/* a walk of the domain says so, and over which addresses */
	inv.walked = true;
	inv.windows = windows;
	inv.nr_windows = 2;
	items[0].m.kind = DMA_KIND_WALKED;
	out = print(&inv, true);
	assert_contains(out, "\"source\": \"domain_walk\", \"walk\": [{\"start\": \"0x0\", \"end\": \"0x100000000\"}, {\"start\": \"0xffff00000000\", \"end\": \"0x1000000000000\"}]");
	assert_contains(out, "\"kind\": \"domain\", \"dir\": null");
	assert_contains(out, "\"pinned\": null");
	free(out);
	out = print(&inv, false);
	assert_contains(out, "DMA API not tracked; 2 runs of device addresses translated in its IOMMU domain over 0x0-0x100000000, 0xffff00000000-0x1000000000000\n");
	free(out);
}

/*
 * Mappings whose driver need not unmap them are marked, counted, and the
 * ones dropped for room said, in the text and the JSON.
 */
static void report_unmap_optional(void **state)
{
	struct ptwalk_dma_query q = { .live = 1, .capacity = 4, .expired = 7 };
	struct dma_page pg = page(0x1234, DMA_FRAME_FREE);
	struct dma_page_who who = { 0 };
	struct dma_item item = {
		.m = mapping(PTWALK_DMA_F_PAGE | PTWALK_DMA_F_UNMAP_OPTIONAL),
		.nr_pages = 1, .pages = &pg, .who = &who, .n = 1,
	};
	struct dma_inventory inv = {
		.device = "0000:00:05.0", .driver = "nvme", .q = &q,
		.items = &item, .n = 1, .page_shift = 12, .unmap_optional = 1,
	};
	unsigned int per[DMA_NR_FINDINGS];
	char *out;

	(void)state;
	assert_int_equal(dma_inventory_count(&inv, per), 0);
	out = print(&inv, true);
	assert_contains(out, "\"unmap_optional\": 1, \"optional_unmapped\": 0, \"expired\": 7,");
	assert_contains(out, "\"vmapped\": false, \"unmap_optional\": true,");
	assert_contains(out, "\"findings\": []");
	free(out);
	out = print(&inv, false);
	assert_contains(out, " unmap-optional ");
	assert_contains(out, "1 unmap-optional (the DMA API lets the driver skip their unmap, so they may be over: not judged); the driver unmapped 0 such since tracking began, 7 older ones were dropped for room\n");
	assert_contains(out, "0 findings\n");
	free(out);
	/* none: no line */
	inv.unmap_optional = 0;
	q.expired = 0;
	item.m.flags = PTWALK_DMA_F_PAGE;
	out = print(&inv, false);
	assert_null(strstr(out, "unmap-optional"));
	free(out);
}

UNIT_MAIN("dma_inventory", UT(frames), UT(every_frame), UT(findings),
	  UT(iommu_disagrees), UT(confirmed_by_the_second_read),
	  UT(report_counts), UT(report_unmap_optional))
