// SPDX-License-Identifier: GPL-2.0
/* engine/dma_inventory.c: what a mapped frame is now, and the findings. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "engine/dma_inventory.h"
#include "engine/kpageflags.h"
#include "report/dma_inventory_print.h"

static struct ptwalk_dma_mapping mapping(uint32_t flags)
{
	return (struct ptwalk_dma_mapping){
		.dma = 0xfffff000, .phys = 0x1234000, .size = 4096,
		.kind = PTWALK_DMA_SG, .flags = flags, .map_ns = 7,
	};
}

/* The frame, from the module's flags first, then kpageflags. */
static void frames(void **state)
{
	struct ptwalk_dma_mapping m = mapping(PTWALK_DMA_F_PAGE);

	(void)state;
	assert_int_equal(dma_frame_of(&m, true, KPF(SLAB)), DMA_FRAME_SLAB);
	assert_int_equal(dma_frame_of(&m, true, KPF(BUDDY)), DMA_FRAME_FREE);
	assert_int_equal(dma_frame_of(&m, true, KPF(PGTABLE)),
			 DMA_FRAME_PAGE_TABLE);
	assert_int_equal(dma_frame_of(&m, true, KPF(RESERVED)),
			 DMA_FRAME_RESERVED);
	assert_int_equal(dma_frame_of(&m, true, KPF(ANON) | KPF(LRU)),
			 DMA_FRAME_ANONYMOUS);
	assert_int_equal(dma_frame_of(&m, true, KPF(LRU)),
			 DMA_FRAME_PAGE_CACHE);
	assert_int_equal(dma_frame_of(&m, true, 0), DMA_FRAME_KERNEL);
	assert_int_equal(dma_frame_of(&m, false, 0), DMA_FRAME_KERNEL);
	/* a free frame on a per-CPU list has no flag: the module's count says */
	m.flags |= PTWALK_DMA_F_FREE;
	assert_int_equal(dma_frame_of(&m, true, 0), DMA_FRAME_FREE);
	m = mapping(0);
	assert_int_equal(dma_frame_of(&m, true, 0), DMA_FRAME_MMIO);
	m.phys = PTWALK_DMA_PHYS_NONE;
	assert_int_equal(dma_frame_of(&m, true, 0), DMA_FRAME_UNKNOWN);
	assert_string_equal(dma_frame_name(DMA_FRAME_PAGE_TABLE), "page_table");
}

/* Each finding from its cause alone; correct use has none. */
static void findings(void **state)
{
	struct ptwalk_dma_mapping pinned =
		mapping(PTWALK_DMA_F_PAGE | PTWALK_DMA_F_PINNED);
	struct ptwalk_dma_mapping unpinned = mapping(PTWALK_DMA_F_PAGE);

	(void)state;
	assert_int_equal(dma_findings_of(&pinned, DMA_FRAME_ANONYMOUS, false, true), 0);
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_KERNEL, false, true), 0);
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_ANONYMOUS, false, true),
			 1u << DMA_USER_PAGE_UNPINNED);
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_PAGE_CACHE, false, true),
			 1u << DMA_USER_PAGE_UNPINNED);
	/* the page cache's and swap's own I/O: locked or under writeback */
	assert_true(dma_frame_io_held(true, KPF(LOCKED)));
	assert_true(dma_frame_io_held(true, KPF(WRITEBACK) | KPF(LRU)));
	assert_false(dma_frame_io_held(true, KPF(LRU) | KPF(DIRTY)));
	assert_false(dma_frame_io_held(false, KPF(WRITEBACK)));
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_PAGE_CACHE, true,
					 true), 0);
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_ANONYMOUS, true,
					 true), 0);
	assert_int_equal(dma_findings_of(&pinned, DMA_FRAME_FREE, false, true),
			 1u << DMA_FREED_WHILE_MAPPED);
	assert_int_equal(dma_findings_of(&pinned, DMA_FRAME_KERNEL, false, false),
			 1u << DMA_LEAKED);
	/* a kernel page when mapped, a slab page now: freed, allocated again */
	pinned.flags = PTWALK_DMA_F_PAGE |
		       PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_WAS_SHIFT |
		       PTWALK_DMA_FRAME_SLAB << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&pinned, DMA_FRAME_SLAB, false, true),
			 1u << DMA_FREED_WHILE_MAPPED);
	/*
	 * a kernel page when mapped, a file's or anonymous now: freed and
	 * taken again, unless held for I/O (a page read into the page cache
	 * reaches the LRU while mapped); a slab page is no I/O's
	 */
	unpinned.flags = PTWALK_DMA_F_PAGE |
			 PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_WAS_SHIFT |
			 PTWALK_DMA_FRAME_FILE << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_PAGE_CACHE, true,
					 true), 0);
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_PAGE_CACHE, false,
					 true),
			 1u << DMA_FREED_WHILE_MAPPED | 1u << DMA_USER_PAGE_UNPINNED);
	unpinned.flags = PTWALK_DMA_F_PAGE |
			 PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_WAS_SHIFT |
			 PTWALK_DMA_FRAME_ANON << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_ANONYMOUS, true,
					 true), 0);
	unpinned.flags = PTWALK_DMA_F_PAGE |
			 PTWALK_DMA_FRAME_KERNEL << PTWALK_DMA_WAS_SHIFT |
			 PTWALK_DMA_FRAME_SLAB << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&unpinned, DMA_FRAME_SLAB, true, true),
			 1u << DMA_FREED_WHILE_MAPPED);
	pinned.flags = PTWALK_DMA_F_PAGE |
		       PTWALK_DMA_FRAME_SLAB << PTWALK_DMA_WAS_SHIFT |
		       PTWALK_DMA_FRAME_SLAB << PTWALK_DMA_NOW_SHIFT;
	assert_int_equal(dma_findings_of(&pinned, DMA_FRAME_SLAB, false, true), 0);
	assert_string_equal(dma_finding_name(DMA_FREED_WHILE_MAPPED),
			    "dma_freed_while_mapped");
	assert_string_equal(dma_finding_name(DMA_USER_PAGE_UNPINNED),
			    "dma_user_page_unpinned");
	assert_string_equal(dma_finding_name(DMA_LEAKED), "dma_leaked");
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
}

/* The report counts per finding, and its JSON names them. */
static void report_counts(void **state)
{
	struct ptwalk_dma_query q = { .live = 2, .capacity = 4096 };
	struct dma_item items[2] = {
		{ .m = mapping(PTWALK_DMA_F_PAGE), .frame = DMA_FRAME_FREE,
		  .findings = 1u << DMA_FREED_WHILE_MAPPED },
		{ .m = mapping(PTWALK_DMA_F_PAGE), .frame = DMA_FRAME_KERNEL },
	};
	struct dma_inventory inv = {
		.device = "0000:00:03.0", .driver = "ptwalk_edu", .q = &q,
		.items = items, .n = 2,
	};
	unsigned int per[DMA_NR_FINDINGS];
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_int_equal(dma_inventory_count(&inv, per), 1);
	assert_int_equal(per[DMA_FREED_WHILE_MAPPED], 1);
	assert_non_null(f);
	dma_inventory_print_json(f, &inv);
	fclose(f);
	assert_contains(out, "\"findings\": [\"dma_freed_while_mapped\"]");
	assert_contains(out, "\"frame\": \"free\"");
	assert_contains(out, "\"total_findings\": 1}");
	free(out);
}

UNIT_MAIN("dma_inventory", UT(frames), UT(findings),
	  UT(confirmed_by_the_second_read), UT(report_counts))
