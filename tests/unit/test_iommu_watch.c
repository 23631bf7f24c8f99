// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --iommu DEVICE --watch, its pure parts: engine/iommu_watch.c
 * (which events are the device's, the mappings they make, an unmap's old
 * frame, a remap) and report/iommu_watch_print.c (each line, text and
 * JSON Lines).
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
#include "engine/iommu_watch.h"
#include "report/iommu_watch_print.h"

#define MAP PTWALK_EVENT_MAP
#define UNMAP PTWALK_EVENT_UNMAP
#define NONE PTWALK_PFN_NONE
#define BUF 0x7e0000000000ULL

/* Applies e (kept) and returns what it changed. */
static struct iommu_watch_seen apply(struct iommu_watch *w,
				     struct ptwalk_iommu_event e)
{
	struct iommu_watch_seen s;

	assert_true(iommu_watch_keep(w, &e));
	assert_int_equal(iommu_watch_apply(w, &e, &s), 0);
	return s;
}

/* Only maps and unmaps of tied pids that touch the range are kept. */
static void keep_by_range_and_pid(void **state)
{
	struct iommu_watch w;
	struct ptwalk_iommu_event e;

	(void)state;
	iommu_watch_init(&w, BUF, BUF + 0x3fff, 12);
	assert_int_equal(iommu_watch_tie(&w, 42), 0);
	assert_int_equal(iommu_watch_tie(&w, 42), 0);
	assert_int_equal(w.nr_pids, 1);
	e = rec_event(1, 1, MAP, BUF + 0x2000, 0x1000, 0x10, 42);
	assert_true(iommu_watch_keep(&w, &e));
	e.pid = 43;			/* another process: not the device's */
	assert_true(iommu_watch_in_range(&w, &e));
	assert_false(iommu_watch_keep(&w, &e));
	e = rec_event(2, 1, MAP, BUF - 0x1000, 0x1000, 0x10, 42);
	assert_false(iommu_watch_keep(&w, &e));	/* ends where the range starts */
	e.size = 0x1001;			/* one byte into it */
	assert_true(iommu_watch_keep(&w, &e));
	e = rec_event(3, 1, UNMAP, BUF + 0x4000, 0x1000, NONE, 42);
	assert_false(iommu_watch_keep(&w, &e));	/* after the last byte */
	e = rec_event(4, 1, PTWALK_EVENT_FAULT, BUF, 0x1000, NONE, 42);
	assert_false(iommu_watch_keep(&w, &e));
	e = rec_event(5, 0, PTWALK_EVENT_DROPPED, 0, 7, NONE, 0);
	assert_true(iommu_watch_keep(&w, &e));	/* always reported */
	/* the top of the 64-bit space */
	iommu_watch_free(&w);
	iommu_watch_init(&w, 0, UINT64_MAX, 12);
	assert_int_equal(iommu_watch_tie(&w, 1), 0);
	e = rec_event(6, 1, MAP, UINT64_MAX - 0xfff, 0x2000, 0x10, 1);
	assert_true(iommu_watch_keep(&w, &e));
	iommu_watch_free(&w);
}

/* Unmap, then map a new buffer at the same IOVA: the old and new frames. */
static void unmap_then_remap(void **state)
{
	struct iommu_watch w;
	struct iommu_watch_seen s;

	(void)state;
	iommu_watch_init(&w, 0, UINT64_MAX, 12);
	iommu_watch_tie(&w, 42);
	s = apply(&w, rec_event(1, 1, MAP, BUF, 0x4000, 0x100, 42));
	assert_false(s.remap);
	assert_int_equal(s.old_pfn, NONE);
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x2abc), 0x102);
	s = apply(&w, rec_event(2, 2, UNMAP, BUF, 0x4000, NONE, 42));
	assert_int_equal(s.old_pfn, 0x100);
	assert_int_equal(iommu_watch_frame(&w, BUF), NONE);
	assert_int_equal(w.nr_live, 0);
	s = apply(&w, rec_event(3, 3, MAP, BUF + 0x1000, 0x1000, 0x900, 42));
	assert_true(s.remap);
	assert_int_equal(s.old_pfn, 0x101);	/* that page's old frame */
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x1000), 0x900);
	/* an IOVA never seen mapped */
	s = apply(&w, rec_event(4, 4, UNMAP, 0x5000000, 0x1000, NONE, 42));
	assert_int_equal(s.old_pfn, NONE);
	iommu_watch_free(&w);
}

/* An unmap in the middle of a mapping leaves both ends, frames kept. */
static void unmap_middle_splits(void **state)
{
	struct iommu_watch w;
	struct iommu_watch_seen s;

	(void)state;
	iommu_watch_init(&w, 0, UINT64_MAX, 12);
	iommu_watch_tie(&w, 7);
	apply(&w, rec_event(1, 1, MAP, BUF, 0x8000, 0x200, 7));
	apply(&w, rec_event(2, 1, MAP, BUF + 0x10000, 0x1000, 0x300, 7));
	s = apply(&w, rec_event(3, 2, UNMAP, BUF + 0x2000, 0x3000, NONE, 7));
	assert_int_equal(s.old_pfn, 0x202);
	assert_int_equal(w.nr_live, 3);
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x1000), 0x201);
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x2000), NONE);
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x4fff), NONE);
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x5000), 0x205);
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x10000), 0x300);
	/* one unmap over the left end, the right end and the next mapping */
	s = apply(&w, rec_event(4, 3, UNMAP, BUF + 0x1000, 0x10000, NONE, 7));
	assert_int_equal(s.old_pfn, 0x201);
	assert_int_equal(w.nr_live, 1);
	assert_int_equal(iommu_watch_frame(&w, BUF), 0x200);
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x10000), NONE);
	/* the right end comes back: a remap of what was there */
	s = apply(&w, rec_event(5, 4, MAP, BUF + 0x6000, 0x1000, 0x999, 7));
	assert_true(s.remap);
	assert_int_equal(s.old_pfn, 0x206);
	iommu_watch_free(&w);
}

/* A map over a live mapping replaces it: a remap of its frame. */
static void map_over_live(void **state)
{
	struct iommu_watch w;
	struct iommu_watch_seen s;

	(void)state;
	iommu_watch_init(&w, 0, UINT64_MAX, 12);
	iommu_watch_tie(&w, 7);
	apply(&w, rec_event(1, 1, MAP, BUF, 0x2000, 0x10, 7));
	s = apply(&w, rec_event(2, 2, MAP, BUF + 0x1000, 0x2000, 0x50, 7));
	assert_true(s.remap);
	assert_int_equal(s.old_pfn, 0x11);
	assert_int_equal(w.nr_live, 2);
	assert_int_equal(iommu_watch_frame(&w, BUF), 0x10);
	assert_int_equal(iommu_watch_frame(&w, BUF + 0x2000), 0x51);
	/* nothing unmapped (done 0) changes nothing */
	{
		struct ptwalk_iommu_event e =
			rec_event(3, 3, UNMAP, BUF, 0x1000, NONE, 7);

		e.done = 0;
		assert_true(iommu_watch_keep(&w, &e));
		assert_int_equal(iommu_watch_apply(&w, &e, &s), 0);
		assert_int_equal(iommu_watch_frame(&w, BUF), 0x10);
	}
	iommu_watch_free(&w);
}

/* Only the last IOMMU_WATCH_GONE_MAX IOVA maps unmapped are remembered. */
static void gone_is_bounded(void **state)
{
	struct iommu_watch w;
	struct iommu_watch_seen s;
	uint64_t seq = 1;

	(void)state;
	iommu_watch_init(&w, 0, UINT64_MAX, 12);
	iommu_watch_tie(&w, 7);
	for (uint64_t i = 0; i <= IOMMU_WATCH_GONE_MAX; i++) {
		apply(&w, rec_event(seq++, 1, MAP, i << 12, 0x1000, 0x1000 + i, 7));
		apply(&w, rec_event(seq++, 1, UNMAP, i << 12, 0x1000, NONE, 7));
	}
	s = apply(&w, rec_event(seq++, 2, MAP, 0, 0x1000, 0x5, 7));
	assert_false(s.remap);		/* the first was forgotten */
	s = apply(&w, rec_event(seq++, 2, MAP, 1 << 12, 0x1000, 0x6, 7));
	assert_true(s.remap);
	assert_int_equal(s.old_pfn, 0x1001);
	iommu_watch_free(&w);
}

static char *printed(bool json, const struct iommu_watch_line *l)
{
	struct capture c;

	iommu_watch_print_event(capture_open(&c), json, "0000:00:03.0", 12, l);
	return capture_close(&c);
}

/* A remap and an unmap, as text. */
static void text_lines(void **state)
{
	struct ptwalk_iommu_event m = rec_event(9, 12345, MAP, BUF, 0x2000,
						0x1040a2, 142);
	struct ptwalk_iommu_event u = rec_event(8, 12300, UNMAP, BUF, 0x1000,
						NONE, 142);
	struct ptwalk_iommu_event d = rec_event(3, 0, PTWALK_EVENT_DROPPED,
						0, 35, NONE, 0);
	struct iommu_watch_line l = {
		.e = &m, .comm = "vmtest", .has_device_pfn = true,
		.device_pfn = 0x1040a2,
		.seen = { .old_pfn = 0x1036b3, .remap = true },
	};
	char *s = printed(false, &l);

	(void)state;
	assert_string_equal(s, "12.345000 0000:00:03.0 map 0x7e0000000000-0x7e0000002000 (2 pages) pid 142 (vmtest): frames 0x1040a2-0x1040a3, device now 0x1040a2, remap (was frame 0x1036b3)\n");
	free(s);
	l = (struct iommu_watch_line){
		.e = &u, .comm = "", .old_mapped = true,
		.seen = { .old_pfn = 0x1036b3 },
	};
	s = printed(false, &l);
	assert_string_equal(s, "12.300000 0000:00:03.0 unmap 0x7e0000000000-0x7e0000001000 (1 page) pid 142: was frame 0x1036b3, which pid 142 still maps at 0x7e0000000000\n");
	free(s);
	l = (struct iommu_watch_line){ .e = &d, .comm = "" };
	s = printed(false, &l);
	assert_non_null(strstr(s, "dropped 35 events (seq 3 to 37)"));
	free(s);
}

/* The same as JSON Lines: one object a line, every key. */
static void json_lines(void **state)
{
	struct ptwalk_iommu_event m = rec_event(9, 12345, MAP, BUF, 0x1000,
						NONE, 142);
	struct ptwalk_iommu_event u = rec_event(8, 12300, UNMAP, BUF, 0x2000,
						NONE, 142);
	struct iommu_watch_line l = {
		.e = &m, .comm = "vmtest",
		.seen = { .old_pfn = NONE },
	};
	static const char *const keys[][2] = {
		{ "event", "map" }, { "time", "12.345000" },
		{ "device", "0000:00:03.0" }, { "iova", "0x7e0000000000" },
		{ "comm", "vmtest" },
	};
	struct json_object *o;
	char *s = printed(true, &l);

	(void)state;
	assert_non_null(strchr(s, '\n'));
	assert_true(strchr(s, '\n') == s + strlen(s) - 1);
	o = json_tokener_parse(s);
	assert_non_null(o);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_string_equal(json_str(o, keys[i][0]), keys[i][1]);
	assert_int_equal(json_num(o, "seq"), 9);
	assert_int_equal(json_num(o, "pages"), 1);
	assert_null(json_get(o, "pfn"));	/* withheld */
	assert_null(json_get(o, "device_pfn"));	/* not read */
	assert_false(json_object_get_boolean(json_get(o, "remap")));
	assert_null(json_get(o, "old_pfn"));
	json_object_put(o);
	free(s);
	u.done = 0x1000;
	l = (struct iommu_watch_line){
		.e = &u, .comm = "", .seen = { .old_pfn = 0x77 },
	};
	s = printed(true, &l);
	o = json_tokener_parse(s);
	assert_string_equal(json_str(o, "event"), "unmap");
	assert_int_equal(json_num(o, "size"), 0x2000);
	assert_int_equal(json_num(o, "unmapped"), 0x1000);
	assert_string_equal(json_str(o, "old_pfn"), "0x77");
	assert_null(json_get(o, "old_mapped_by"));
	assert_null(json_get(o, "comm"));
	json_object_put(o);
	free(s);
}

/* The start and end lines. */
static void start_and_end(void **state)
{
	struct iommu_watch_info i = {
		.device = "0000:00:03.0", .driver = "vfio-pci", .whole = false,
		.start = BUF, .end = BUF + 0x4000, .seconds = 10,
		.interval_ms = 250, .from_seq = 1235, .owner = 142,
		.owner_comm = "vmtest",
	};
	struct iommu_watch_totals t = {
		.ended = "signal", .maps = 1, .unmaps = 2, .dropped = 3,
	};
	struct json_object *o;
	struct capture c;
	char *s;

	(void)state;
	iommu_watch_print_start(capture_open(&c), false, &i);
	s = capture_close(&c);
	assert_string_equal(s, "watching 0000:00:03.0 (vfio-pci), IOVA 0x7e0000000000-0x7e0000004000, for 10 s, ptwalk's recorder read every 250 ms from event 1235: pid 142 (vmtest) holds its VFIO file\n");
	free(s);
	i.whole = true;
	i.owner = 0;
	iommu_watch_print_start(capture_open(&c), true, &i);
	s = capture_close(&c);
	o = json_tokener_parse(s);
	assert_string_equal(json_str(o, "event"), "start");
	assert_null(json_get(o, "range"));
	assert_null(json_get(o, "owner"));
	assert_int_equal(json_num(o, "from_seq"), 1235);
	json_object_put(o);
	free(s);
	iommu_watch_print_end(capture_open(&c), false, &t);
	s = capture_close(&c);
	assert_string_equal(s, "watch ended (signal): 1 map, 2 unmaps, 3 events dropped by the recorder\n");
	free(s);
	iommu_watch_print_end(capture_open(&c), true, &t);
	s = capture_close(&c);
	o = json_tokener_parse(s);
	assert_string_equal(json_str(o, "ended"), "signal");
	assert_int_equal(json_num(o, "events_dropped"), 3);
	json_object_put(o);
	free(s);
}

UNIT_MAIN("iommu_watch", UT(keep_by_range_and_pid), UT(unmap_then_remap),
	  UT(unmap_middle_splits), UT(map_over_live), UT(gone_is_bounded),
	  UT(text_lines), UT(json_lines), UT(start_and_end))
