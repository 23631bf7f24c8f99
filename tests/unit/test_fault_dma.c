// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --faults for a tracked device, its pure parts:
 * engine/fault_dma.c (a fault's page against the device's live mappings
 * and its unmaps: the last mapping before the fault, the times, the frame
 * of the faulting page, the cause named) and the "dma" part of
 * report/fault_print*.c.
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "json_get.h"
#include "engine/fault_dma.h"
#include "report/fault_print.h"

#define MS		1000000ULL
#define US		1000ULL
#define TO_DEVICE	1
#define FROM_DEVICE	2
#define WRITE		IOMMU_ACCESS_WRITE
#define READ		IOMMU_ACCESS_READ

/* A mapping of size bytes at dma -> phys, made at map_ms, unmapped at unmap_ms (0: live). */
static struct ptwalk_dma_mapping mapping(uint64_t dma, uint64_t phys,
					 uint64_t size, uint32_t dir,
					 uint64_t map_ms, uint64_t unmap_ms)
{
	return (struct ptwalk_dma_mapping){
		.dma = dma, .phys = phys, .size = size, .dir = dir,
		.kind = PTWALK_DMA_SG, .map_ns = map_ms * MS,
		.unmap_ns = unmap_ms * MS, .pid = 812, .comm = "vmtest",
		.flags = PTWALK_DMA_F_PAGE,
	};
}

static struct fault_dma_match match_4k(const struct ptwalk_dma_mapping *maps,
				       size_t nm,
				       const struct ptwalk_dma_mapping *unmaps,
				       size_t nu, uint64_t iova,
				       uint64_t fault_ns,
				       enum iommu_access access)
{
	struct fault_dma_match x;

	fault_dma_match(maps, nm, unmaps, nu, 1 * MS, iova, fault_ns, access,
			12, &x);
	return x;
}

/*
 * DMA after unmap: the page's mapping unmapped 3.25 ms before the fault;
 * the third page of it faulted, its frame the mapping's third.
 */
static void after_unmap(void **state)
{
	const struct ptwalk_dma_mapping unmaps[] = {
		mapping(0xfff00000, 0x1000000, 0x1000, FROM_DEVICE, 10, 20),
		mapping(0xffffc000, 0x7ffa0000, 0x4000, FROM_DEVICE, 100, 200),
	};
	const struct ptwalk_dma_mapping maps[] = {
		mapping(0xfff00000, 0x2000000, 0x1000, TO_DEVICE, 30, 0),
	};
	struct fault_dma_match x = match_4k(maps, 1, unmaps, 2, 0xffffe010,
					    203 * MS + 250 * US, WRITE);

	(void)state;
	assert_true(x.found);
	assert_false(x.live);
	assert_int_equal(x.m.dma, 0xffffc000);
	assert_int_equal(x.phys, 0x7ffa2000);
	assert_false(x.first_frame);
	assert_true(x.timed);
	assert_int_equal(x.mapped_us_before, 103250);
	assert_true(x.unmapped_before);
	assert_int_equal(x.unmapped_us_before, 3250);
	assert_int_equal(x.cause, DMA_FAULT_AFTER_UNMAP);
	assert_string_equal(dma_fault_cause_name(x.cause), "dma_after_unmap");
}

/*
 * A write to a live DMA_TO_DEVICE mapping: the mismatch named; a read of
 * it is allowed, so nothing is; the mirror for DMA_FROM_DEVICE.
 */
static void direction_mismatch(void **state)
{
	const struct ptwalk_dma_mapping maps[] = {
		mapping(0xffffe000, 0x5000000, 0x1000, TO_DEVICE, 50, 0),
		mapping(0xffffd000, 0x6000000, 0x800, FROM_DEVICE, 50, 0),
	};
	struct fault_dma_match x;

	(void)state;
	x = match_4k(maps, 2, NULL, 0, 0xffffe000, 60 * MS, WRITE);
	assert_true(x.found && x.live && x.first_frame);
	assert_int_equal(x.phys, 0x5000000);
	assert_false(x.unmapped_before);
	assert_int_equal(x.mapped_us_before, 10000);
	assert_int_equal(x.cause, DMA_FAULT_WRITE_TO_DEVICE);
	assert_string_equal(dma_fault_cause_name(x.cause),
			    "dma_write_to_device_mapping");
	x = match_4k(maps, 2, NULL, 0, 0xffffe000, 60 * MS, READ);
	assert_int_equal(x.cause, DMA_FAULT_UNNAMED);
	assert_null(dma_fault_cause_name(x.cause));
	x = match_4k(maps, 2, NULL, 0, 0xffffd7f0, 60 * MS, READ);
	assert_int_equal(x.m.dma, 0xffffd000);
	assert_int_equal(x.cause, DMA_FAULT_READ_FROM_DEVICE);
	x = match_4k(maps, 2, NULL, 0, 0xffffd000, 60 * MS,
		     IOMMU_ACCESS_UNKNOWN);
	assert_int_equal(x.cause, DMA_FAULT_UNNAMED);
	/* bidirectional allows both */
	assert_int_equal(fault_dma_cause(true, 0, WRITE), DMA_FAULT_UNNAMED);
	assert_int_equal(fault_dma_cause(true, 0, READ), DMA_FAULT_UNNAMED);
	assert_int_equal(fault_dma_cause(false, 0, READ),
			 DMA_FAULT_AFTER_UNMAP);
}

/*
 * The address reused: the last mapping made before the fault is the
 * answer, not one made after it (live now), nor an older one unmapped.
 * A mapping unmapped after the fault was mapped at it.
 */
static void newest_before_fault(void **state)
{
	const struct ptwalk_dma_mapping unmaps[] = {
		mapping(0xffffe000, 0x1000, 0x1000, FROM_DEVICE, 10, 20),
		mapping(0xffffe000, 0x2000, 0x1000, TO_DEVICE, 30, 90),
	};
	const struct ptwalk_dma_mapping maps[] = {
		mapping(0xffffe000, 0x3000, 0x1000, FROM_DEVICE, 95, 0),
	};
	struct fault_dma_match x = match_4k(maps, 1, unmaps, 2, 0xffffe000,
					    40 * MS, WRITE);

	(void)state;
	assert_true(x.found);
	assert_false(x.live);
	assert_int_equal(x.phys, 0x2000);
	assert_false(x.unmapped_before);
	assert_int_equal(x.unmapped_us_after, 50000);
	assert_int_equal(x.cause, DMA_FAULT_WRITE_TO_DEVICE);
	/* after the live one's map: it is the answer */
	x = match_4k(maps, 1, unmaps, 2, 0xffffe000, 100 * MS, WRITE);
	assert_true(x.live);
	assert_int_equal(x.phys, 0x3000);
	assert_int_equal(x.cause, DMA_FAULT_UNNAMED);
	/* between the second's unmap and the live one's map */
	x = match_4k(maps, 1, unmaps, 2, 0xffffe000, 92 * MS, WRITE);
	assert_int_equal(x.phys, 0x2000);
	assert_int_equal(x.unmapped_us_before, 2000);
	assert_int_equal(x.cause, DMA_FAULT_AFTER_UNMAP);
}

/* No time known: the newest mapping of all, no times, no cause. */
static void no_time(void **state)
{
	const struct ptwalk_dma_mapping unmaps[] = {
		mapping(0xffffe000, 0x2000, 0x1000, TO_DEVICE, 30, 90),
	};
	struct fault_dma_match x = match_4k(NULL, 0, unmaps, 1, 0xffffe000, 0,
					    WRITE);

	(void)state;
	assert_true(x.found);
	assert_false(x.timed);
	assert_false(x.unmapped_before);
	assert_int_equal(x.cause, DMA_FAULT_UNNAMED);
}

/*
 * Nothing covers the page: found false; tracking begun after the fault,
 * or an unmap history starting after it, said; a page next to a mapping
 * is not covered by it, an unaligned one by its pages.
 */
static void not_found(void **state)
{
	const struct ptwalk_dma_mapping unmaps[] = {
		mapping(0xffffc000, 0x2000, 0x1000, TO_DEVICE, 30, 90),
		mapping(0xffffa000, 0x3000, 0x1000, TO_DEVICE, 30, 70),
	};
	const struct ptwalk_dma_mapping maps[] = {
		mapping(0xffff8800, 0x4800, 0x900, TO_DEVICE, 30, 0),
	};
	struct fault_dma_match x;

	(void)state;
	x = match_4k(maps, 1, unmaps, 2, 0xffffd000, 100 * MS, WRITE);
	assert_false(x.found);
	assert_false(x.tracked_after);
	assert_false(x.history_after);
	x = match_4k(maps, 1, unmaps, 2, 0xffffd000, 50 * MS, WRITE);
	assert_false(x.found);
	assert_true(x.history_after);
	fault_dma_match(maps, 1, unmaps, 2, 60 * MS, 0xffffd000, 50 * MS,
			WRITE, 12, &x);
	assert_true(x.tracked_after);
	/* [0xffff8800, 0xffff9100) covers pages 0xffff8000 and 0xffff9000 */
	x = match_4k(maps, 1, NULL, 0, 0xffff9080, 100 * MS, WRITE);
	assert_true(x.found);
	assert_int_equal(x.phys, 0x5000);
	assert_false(x.first_frame);
	x = match_4k(maps, 1, NULL, 0, 0xffffa000, 100 * MS, WRITE);
	assert_false(x.found);
	x = match_4k(maps, 1, NULL, 0, 0xffff7fff, 100 * MS, WRITE);
	assert_false(x.found);
}

/* The frame to classify: the faulting page's, FREE only for the first. */
static void frame_of_fault(void **state)
{
	struct ptwalk_dma_mapping m = mapping(0xffffc000, 0x7000, 0x2000,
					      TO_DEVICE, 10, 0);
	struct fault_dma_match x;
	struct ptwalk_dma_mapping one;

	(void)state;
	m.flags |= PTWALK_DMA_F_FREE;
	x = match_4k(&m, 1, NULL, 0, 0xffffd000, 20 * MS, READ);
	one = fault_dma_frame(&x);
	assert_int_equal(one.phys, 0x8000);
	assert_false(one.flags & PTWALK_DMA_F_FREE);
	assert_true(one.flags & PTWALK_DMA_F_PAGE);
	x = match_4k(&m, 1, NULL, 0, 0xffffc000, 20 * MS, READ);
	one = fault_dma_frame(&x);
	assert_int_equal(one.phys, 0x7000);
	assert_true(one.flags & PTWALK_DMA_F_FREE);
	/* a coherent buffer with no frame known */
	m.phys = PTWALK_DMA_PHYS_NONE;
	x = match_4k(&m, 1, NULL, 0, 0xffffd000, 20 * MS, READ);
	assert_true(x.found);
	assert_int_equal(x.phys, PTWALK_DMA_PHYS_NONE);
}

/* A kernel driver's fault explained, as fault_print*.c are given it. */
static void sample(struct fault_explained *x, struct fault_frame_mapping *fm,
		   struct fault_report *r)
{
	memset(x, 0, sizeof(*x));
	x->g.first.iommu = "vt-d";
	x->g.first.access = WRITE;
	x->g.first.cls = IOMMU_CLASS_PAGE;
	x->g.first.iova = 0xffffe000;
	x->g.first.has_iova = true;
	x->g.first.has_time = true;
	snprintf(x->g.first.reason, sizeof(x->g.first.reason),
		 "PTE Write access is not set");
	x->g.count = 1;
	x->g.first_us = x->g.last_us = 13266863;
	strcpy(x->device, "0000:00:03.0");
	strcpy(x->driver, "ptwalk_edu");
	x->device_pfn = PTWALK_PFN_NONE;
	x->walk_pfn = PTWALK_PFN_NONE;
	x->dma.asked = true;
	x->dma.tracked_ns = 7780210 * US;
	x->dma.unmaps = 1;
	x->dma.match = (struct fault_dma_match){
		.found = true,
		.m = mapping(0xffffe000, 0x7ffac000, 0x1000, FROM_DEVICE,
			     7800, 8042),
		.phys = 0x7ffac000, .first_frame = true, .timed = true,
		.mapped_us_before = 5466020, .unmapped_before = true,
		.unmapped_us_before = 5224493,
		.cause = DMA_FAULT_AFTER_UNMAP,
	};
	x->dma.has_frame = true;
	x->dma.frame = DMA_FRAME_ANONYMOUS;
	fm->pid = 812;
	strcpy(fm->comm, "vmtest");
	fm->start = 0x7fd6fc418000;
	fm->memtype = PTWALK_MEMTYPE_WB;
	x->dma.frames = fm;
	x->dma.nr_frames = 1;
	*r = (struct fault_report){
		.kernel = "7.2.13-test", .page_shift = 12, .faults = x,
		.nr_faults = 1,
	};
}

static void json_dma(void **state)
{
	struct fault_explained x;
	struct fault_frame_mapping fm;
	struct fault_report r;
	struct capture c;
	struct json_object *doc, *d, *o;
	char *out;

	(void)state;
	sample(&x, &fm, &r);
	assert_int_equal(fault_print_json(capture_open(&c), &r), 0);
	out = capture_close(&c);
	doc = json_tokener_parse(out);
	assert_non_null(doc);
	d = json_get(json_object_array_get_idx(json_get(doc, "faults"), 0),
		     "dma");
	assert_non_null(d);
	assert_true(json_object_get_type(json_get(d, "note")) == json_type_null);
	assert_string_equal(json_str(d, "tracked_since"), "7.780210");
	assert_int_equal(json_num(d, "unmaps_kept"), 1);
	assert_string_equal(json_str(d, "cause"), "dma_after_unmap");
	assert_string_equal(json_str(d, "frame"), "anonymous");
	o = json_get(d, "last_mapping");
	assert_string_equal(json_str(o, "dma"), "0xffffe000");
	assert_string_equal(json_str(o, "fault_phys"), "0x7ffac000");
	assert_string_equal(json_str(o, "kind"), "sg");
	assert_string_equal(json_str(o, "dir"), "from_device");
	assert_string_equal(json_str(o, "map_time"), "7.800000");
	assert_string_equal(json_str(o, "unmap_time"), "8.042000");
	assert_int_equal(json_num(o, "pid"), 812);
	assert_string_equal(json_str(o, "comm"), "vmtest");
	assert_false(json_object_get_boolean(json_get(o, "live")));
	assert_int_equal(json_num(o, "unmapped_us_before"), 5224493);
	assert_true(json_object_get_type(json_get(o, "unmapped_us_after")) ==
		    json_type_null);
	o = json_object_array_get_idx(json_get(d, "frame_mappings"), 0);
	assert_int_equal(json_num(o, "pid"), 812);
	json_object_put(doc);
	free(out);
	/* not tracked: the note, the rest null */
	memset(&x.dma, 0, sizeof(x.dma));
	x.dma.asked = true;
	x.dma.note = "not tracked";
	assert_int_equal(fault_print_json(capture_open(&c), &r), 0);
	out = capture_close(&c);
	doc = json_tokener_parse(out);
	d = json_get(json_object_array_get_idx(json_get(doc, "faults"), 0),
		     "dma");
	assert_string_equal(json_str(d, "note"), "not tracked");
	assert_true(json_object_get_type(json_get(d, "last_mapping")) ==
		    json_type_null);
	assert_true(json_object_get_type(json_get(d, "cause")) ==
		    json_type_null);
	json_object_put(doc);
	free(out);
	/* not asked (a VFIO owner's device): null */
	x.dma.asked = false;
	assert_int_equal(fault_print_json(capture_open(&c), &r), 0);
	out = capture_close(&c);
	doc = json_tokener_parse(out);
	assert_true(json_object_get_type(json_get(json_object_array_get_idx(
		json_get(doc, "faults"), 0), "dma")) == json_type_null);
	json_object_put(doc);
	free(out);
}

static void text_dma(void **state)
{
	struct fault_explained x;
	struct fault_frame_mapping fm;
	struct fault_report r;
	struct capture c;
	char *out;

	(void)state;
	sample(&x, &fm, &r);
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out,
			"dma:        tracked since 7.780210 s, 0 live mappings and 1 unmaps kept",
			"dma map:    sg from_device, dma 0xffffe000 size 0x1000, the page's frame 0x7ffac",
			"mapped at 7.800000 s by pid 812 (vmtest), 5466.020 ms before the fault",
			"dma unmap:  unmapped at 8.042000 s, 5224.493 ms before the fault",
			"dma cause:  dma_after_unmap: the device used the address after the driver unmapped it",
			"dma frame:  anonymous now",
			"pid 812 (vmtest) maps it at 0x7fd6fc418000, wb");
	free(out);
	/* a live DMA_TO_DEVICE mapping written */
	x.dma.match.live = true;
	x.dma.match.unmapped_before = false;
	x.dma.match.m.dir = TO_DEVICE;
	x.dma.match.cause = DMA_FAULT_WRITE_TO_DEVICE;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "dma unmap:  still mapped",
			"dma cause:  dma_write_to_device_mapping: the device wrote a buffer mapped DMA_TO_DEVICE");
	free(out);
	/* mapped and allowed; an access the log does not give */
	x.dma.match.cause = DMA_FAULT_UNNAMED;
	x.dma.match.m.dir = 0;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "dma cause:  none named: the page was mapped at the fault and its direction allows the access");
	free(out);
	x.g.first.access = IOMMU_ACCESS_UNKNOWN;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "dma cause:  none named: the log gives no access to hold against the direction");
	free(out);
	x.dma.match.timed = false;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "dma cause:  none named: the fault's time is unknown",
			"dma unmap:  still mapped");
	free(out);
	/* not tracked: the hint, one line */
	memset(&x.dma, 0, sizeof(x.dma));
	x.dma.asked = true;
	x.dma.note = "not tracked";
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "dma:        not tracked: run ptcompare --dma-track 0000:00:03.0 before the fault");
	assert_null(strstr(out, "dma map:"));
	free(out);
	/* tracked, nothing found: said, with why it may be short */
	x.dma.note = NULL;
	x.dma.match.tracked_after = true;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "dma map:    no tracked mapping of that page: tracking began after the fault");
	free(out);
}

UNIT_MAIN("fault_dma",
	  UT(after_unmap), UT(direction_mismatch), UT(newest_before_fault),
	  UT(no_time), UT(not_found), UT(frame_of_fault), UT(json_dma),
	  UT(text_dma))
