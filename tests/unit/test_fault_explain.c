// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --faults, its pure parts: engine/fault_explain.c (the last
 * mapping of a page over recorder events, DROPPED among them; StreamID to
 * PCI device), and report/fault_print*.c (JSON and text of an
 * explanation assembled from given inputs).  Its command line is
 * test_cli.c's.
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "json_get.h"
#include "recorder_event.h"
#include "engine/fault_explain.h"
#include "report/fault_print.h"

/* The last mapping of the 4K page of iova by e[0 .. n), at ms. */
static struct fault_last_mapping last_4k(const struct ptwalk_iommu_event *e,
					 size_t n, uint64_t iova, uint64_t ms)
{
	struct fault_last_mapping m;

	fault_last_mapping(e, n, iova, ms * MS, 12, &m);
	return m;
}

#define MAP PTWALK_EVENT_MAP
#define UNMAP PTWALK_EVENT_UNMAP
#define DROPPED PTWALK_EVENT_DROPPED
#define NONE PTWALK_PFN_NONE

/* A buffer mapped, unmapped, and faulted on: its frame and the unmap. */
static void last_mapping_unmapped(void **state)
{
	const struct ptwalk_iommu_event e[] = {
		rec_event(1, 10, MAP, 0x7f0000000000, 0x4000, 0x1000, 42),
		rec_event(2, 20, MAP, 0x5000000, 0x1000, 0x2000, 43),
		rec_event(3, 30, UNMAP, 0x7f0000000000, 0x4000, NONE, 42),
	};
	/* the third page of the mapping, 5 ms after the unmap */
	struct fault_last_mapping m = last_4k(e, 3, 0x7f0000002010, 35);

	(void)state;
	assert_true(m.found);
	assert_int_equal(m.iova, 0x7f0000000000);
	assert_int_equal(m.pages, 4);
	assert_int_equal(m.pfn, 0x1002);
	assert_int_equal(m.map_pid, 42);
	assert_true(m.unmapped);
	assert_int_equal(m.unmapped_ms_before, 5);
	assert_int_equal(m.unmap_pid, 42);
	assert_int_equal(m.dropped, 0);
}

/* The newest map before the fault wins; events after the fault do not count. */
static void last_mapping_newest_before_fault(void **state)
{
	const struct ptwalk_iommu_event e[] = {
		rec_event(1, 10, MAP, 0x100000, 0x1000, 0x111, 1),
		rec_event(2, 11, UNMAP, 0x100000, 0x1000, NONE, 1),
		rec_event(3, 12, MAP, 0x100000, 0x1000, 0x222, 2),
		rec_event(4, 50, UNMAP, 0x100000, 0x1000, NONE, 2),
		rec_event(5, 60, MAP, 0x100000, 0x1000, 0x333, 3),
	};
	struct fault_last_mapping m = last_4k(e, 5, 0x100000, 40);

	(void)state;
	assert_true(m.found);
	assert_int_equal(m.pfn, 0x222);
	assert_false(m.unmapped);	/* its unmap came after the fault */
	/* no time (a pasted line): every event counts */
	m = last_4k(e, 5, 0x100000, 0);
	assert_int_equal(m.pfn, 0x333);
	assert_false(m.unmapped);
}

/* Events lost between the answer and the fault make it uncertain. */
static void last_mapping_with_dropped(void **state)
{
	const struct ptwalk_iommu_event e[] = {
		rec_event(1, 10, MAP, 0x200000, 0x2000, 0x500, 7),
		rec_event(2, 0, DROPPED, 0, 17, NONE, 0),
		rec_event(19, 30, UNMAP, 0x201000, 0x1000, NONE, 7),
	};
	const struct ptwalk_iommu_event lost[] = {
		rec_event(1, 0, DROPPED, 0, 100, NONE, 0),
		rec_event(101, 30, UNMAP, 0x300000, 0x1000, NONE, 7),
	};
	struct fault_last_mapping m = last_4k(e, 3, 0x201000, 31);

	(void)state;
	assert_true(m.found);
	assert_int_equal(m.pfn, 0x501);
	assert_true(m.unmapped);
	assert_int_equal(m.unmapped_ms_before, 1);
	assert_int_equal(m.dropped, 17);
	/* another page of the map: not unmapped */
	m = last_4k(e, 3, 0x200000, 31);
	assert_false(m.unmapped);
	/* nothing found, but the ring lost events: said */
	m = last_4k(lost, 2, 0x300000, 40);
	assert_false(m.found);
	assert_int_equal(m.dropped, 100);
	/* nothing at all */
	m = last_4k(lost, 0, 0x300000, 40);
	assert_false(m.found);
	assert_int_equal(m.dropped, 0);
}

/* A map under lockdown carries no frame. */
static void last_mapping_no_frame(void **state)
{
	const struct ptwalk_iommu_event e[] = {
		rec_event(1, 10, MAP, 0x10000, 0x10000, NONE, 0),
	};
	struct fault_last_mapping m = last_4k(e, 1, 0x1f000, 20);

	(void)state;
	assert_true(m.found);
	assert_true(m.pfn == NONE);
	/* a 64K kernel page: pages of 64K */
	fault_last_mapping(e, 1, 0x1f000, 20 * MS, 16, &m);
	assert_int_equal(m.pages, 1);
}

/* StreamID = RID (bus << 8 | devfn) behind an identity iommu-map. */
static void stream_id(void **state)
{
	uint32_t dom, rid;

	(void)state;
	assert_true(fault_pci_rid("0000:00:02.0", &dom, &rid));
	assert_int_equal(rid, 0x10);
	assert_int_equal(dom, 0);
	assert_true(fault_pci_rid("0001:3a:1f.7", &dom, &rid));
	assert_int_equal(rid, 0x3aff);
	assert_int_equal(dom, 1);
	assert_true(fault_pci_rid("00:03.0", &dom, &rid));
	assert_int_equal(rid, 0x18);
	assert_false(fault_pci_rid("0000:00:20.0", &dom, &rid));
	assert_false(fault_pci_rid("0000:00:02.8", &dom, &rid));
	assert_false(fault_pci_rid("9050000.smmuv3", &dom, &rid));
	assert_false(fault_pci_rid("0000:00:02.0x", &dom, &rid));
	/* hex digits alone, as sysfs writes them (sscanf took these) */
	assert_false(fault_pci_rid("-1:00:03.0", &dom, &rid));
	assert_false(fault_pci_rid(" 0000:00:03.0", &dom, &rid));
	assert_false(fault_pci_rid("0x0:00:03.0", &dom, &rid));
	assert_false(fault_pci_rid("0000:00:+3.0", &dom, &rid));
	assert_false(fault_pci_rid("00000:00:03.0", &dom, &rid));
	assert_true(fault_sid_matches("0000:00:02.0", 0x10, 0));
	assert_false(fault_sid_matches("0000:00:03.0", 0x10, 0));
	assert_true(fault_sid_matches("0000:00:02.0", 0x10010, 0x10000));
}

/* The case of docs/report.md: a write after VFIO_IOMMU_UNMAP_DMA. */
static void sample(struct fault_explained *x, struct fault_frame_mapping *fm,
		   struct fault_unexplained *u, struct fault_report *r)
{
	memset(x, 0, sizeof(*x));
	x->g.first.iommu = "vt-d";
	x->g.first.access = IOMMU_ACCESS_WRITE;
	x->g.first.cls = IOMMU_CLASS_PAGE;
	x->g.first.iova = 0x7f1234567000;
	x->g.first.has_iova = true;
	x->g.first.has_time = true;
	snprintf(x->g.first.reason, sizeof(x->g.first.reason),
		 "PTE Write access is not set");
	x->g.count = 2;
	x->g.first_us = 84211003;
	x->g.last_us = 84311003;
	strcpy(x->device, "0000:00:03.0");
	strcpy(x->driver, "vfio-pci");
	x->has_domain = true;
	x->domain = PTWALK_IOMMU_UNMANAGED;
	x->device_pfn = NONE;
	x->owner_pid = 321;
	strcpy(x->owner_comm, "vmtest");
	x->has_mapping_now = true;
	x->vma_start = 0x7f1234567000;
	x->vma_end = 0x7f1234568000;
	x->walk_pfn = 0x4321;
	x->last = (struct fault_last_mapping){
		.found = true, .iova = 0x7f1234567000, .pages = 1,
		.pfn = 0x4321, .map_pid = 321, .unmapped = true,
		.unmapped_ms_before = 204, .unmap_pid = 321,
	};
	x->has_recorder = true;
	fm->pid = 321;
	strcpy(fm->comm, "vmtest");
	fm->start = 0x7f1234567000;
	fm->memtype = PTWALK_MEMTYPE_WB;
	x->frames = fm;
	x->nr_frames = 1;
	*u = (struct fault_unexplained){ .why = "log wrapped", .count = 3 };
	*r = (struct fault_report){
		.kernel = "6.1.0-test", .page_shift = 12, .faults = x,
		.nr_faults = 1, .unexplained = u, .nr_unexplained = 1,
		.records_read = 900,
	};
}

static void json_report(void **state)
{
	struct fault_explained x;
	struct fault_frame_mapping fm;
	struct fault_unexplained u;
	struct fault_report r;
	struct capture c;
	struct json_object *doc, *f, *o;
	char *out;

	(void)state;
	sample(&x, &fm, &u, &r);
	assert_int_equal(fault_print_json(capture_open(&c), &r), 0);
	out = capture_close(&c);
	doc = json_tokener_parse(out);
	assert_non_null(doc);
	f = json_object_array_get_idx(json_get(doc, "faults"), 0);
	assert_non_null(f);
	assert_string_equal(json_str(f, "time"), "84.211003");
	assert_int_equal(json_num(f, "count"), 2);
	assert_string_equal(json_str(f, "device"), "0000:00:03.0");
	assert_string_equal(json_str(f, "driver"), "vfio-pci");
	assert_string_equal(json_str(f, "iommu"), "vt-d");
	assert_string_equal(json_str(f, "iova"), "0x7f1234567000");
	assert_string_equal(json_str(f, "access"), "write");
	assert_string_equal(json_str(f, "reason"), "PTE Write access is not set");
	assert_string_equal(json_str(f, "domain"), "unmanaged");
	assert_true(json_object_get_type(json_get(f, "device_pfn")) == json_type_null);
	o = json_get(f, "owner");
	assert_int_equal(json_num(o, "pid"), 321);
	o = json_get(f, "mapping_now");
	assert_string_equal(json_str(o, "walk_pfn"), "0x4321");
	assert_string_equal(json_str(o, "start"), "0x7f1234567000");
	o = json_get(f, "last_mapping");
	assert_string_equal(json_str(o, "pfn"), "0x4321");
	assert_int_equal(json_num(o, "unmapped_ms_before"), 204);
	assert_int_equal(json_num(o, "pid"), 321);
	o = json_object_array_get_idx(json_get(f, "frame_mappings"), 0);
	assert_int_equal(json_num(o, "pid"), 321);
	assert_string_equal(json_str(o, "start"), "0x7f1234567000");
	assert_string_equal(json_str(o, "memtype"), "wb");
	o = json_object_array_get_idx(json_get(doc, "faults_unexplained"), 0);
	assert_string_equal(json_str(o, "why"), "log wrapped");
	assert_int_equal(json_num(o, "count"), 3);
	json_object_put(doc);
	free(out);
	/* no owner, no last mapping: nulls */
	x.owner_pid = 0;
	x.has_mapping_now = false;
	x.last.found = false;
	x.nr_frames = 0;
	r.nr_unexplained = 0;
	assert_int_equal(fault_print_json(capture_open(&c), &r), 0);
	out = capture_close(&c);
	doc = json_tokener_parse(out);
	f = json_object_array_get_idx(json_get(doc, "faults"), 0);
	assert_true(json_object_get_type(json_get(f, "owner")) == json_type_null);
	assert_true(json_object_get_type(json_get(f, "last_mapping")) == json_type_null);
	assert_true(json_object_get_type(json_get(f, "recorder_since")) == json_type_null);
	assert_int_equal(json_object_array_length(json_get(f, "frame_mappings")), 0);
	json_object_put(doc);
	free(out);
	/* the recorder armed at 80.5 s: its history starts there */
	x.recorder_since_ns = 80500000000ULL;
	assert_int_equal(fault_print_json(capture_open(&c), &r), 0);
	out = capture_close(&c);
	doc = json_tokener_parse(out);
	f = json_object_array_get_idx(json_get(doc, "faults"), 0);
	assert_string_equal(json_str(f, "recorder_since"), "80.500000");
	json_object_put(doc);
	free(out);
}

/* Without a mapping found, the text says where the history starts. */
static void text_history_start(void **state)
{
	struct fault_explained x;
	struct fault_frame_mapping fm;
	struct fault_unexplained u;
	struct fault_report r;
	struct capture c;
	char *out;

	(void)state;
	sample(&x, &fm, &u, &r);
	x.last.found = false;
	x.nr_frames = 0;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "before:     unknown: the recorder was not armed before this run");
	free(out);
	x.recorder_since_ns = 80500000000ULL;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "before:     no mapping of that page recorded since the recorder was armed at 80.500000");
	free(out);
	x.has_recorder = false;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "before:     unknown (no recorder)");
	free(out);
}

static void text_report(void **state)
{
	struct fault_explained x;
	struct fault_frame_mapping fm;
	struct fault_unexplained u;
	struct fault_report r;
	struct capture c;
	char *out;

	(void)state;
	sample(&x, &fm, &u, &r);
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_contains(out, "fault 1: vt-d write at IOVA 0x7f1234567000 by 0000:00:03.0, 2 times",
			"reason:     PTE Write access is not set",
			"domain now: unmanaged, no translation",
			"owner:      pid 321 (vmtest)",
			"unmapped 204 ms before the last fault by pid 321",
			"frame now:  pid 321 (vmtest) maps it at 0x7f1234567000, wb",
			"unexplained: log wrapped (3)");
	free(out);
	r.nr_faults = 0;
	r.nr_unexplained = 0;
	fault_print_text(capture_open(&c), &r);
	out = capture_close(&c);
	assert_string_equal(out, "no IOMMU faults in the kernel log\n");
	free(out);
}

UNIT_MAIN("fault_explain",
	  UT(last_mapping_unmapped), UT(last_mapping_newest_before_fault),
	  UT(last_mapping_with_dropped), UT(last_mapping_no_frame),
	  UT(stream_id), UT(json_report), UT(text_report),
	  UT(text_history_start))
