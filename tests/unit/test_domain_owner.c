// SPDX-License-Identifier: GPL-2.0
/*
 * The pure parts of stopping a domain's owners: the thread states read
 * from /proc (parse/task_state.c), the tracer and the VFIO device a file
 * is of, and the report's "stopped for" lines and keys
 * (report/owner_print.c).
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "json_get.h"
#include "parse/task_state.h"
#include "report/owner_print.h"

/* The state letter after the name, whatever the name holds. */
static void stat_state(void **state)
{
	(void)state;
	assert_int_equal(task_stat_state("4242 (qemu-system-x86) S 1 4242"),
			 'S');
	assert_int_equal(task_stat_state("7 (a) T (b) R 1 7 7 0"), 'R');
	assert_int_equal(task_stat_state("7 (x) t 1"), 't');
	assert_int_equal(task_stat_state("8 (my) (tool)) D 1"), 'D');
	/* a line cut short or with no name: no state, never a guess */
	assert_int_equal(task_stat_state("7 (x)"), '\0');
	assert_int_equal(task_stat_state("7 (x) "), '\0');
	assert_int_equal(task_stat_state("7 x S 1"), '\0');
	assert_int_equal(task_stat_state(""), '\0');
}

/* Which letters stop a thread, and which leave it unable to unmap. */
static void states(void **state)
{
	(void)state;
	assert_true(task_state_stopped('T'));
	assert_true(task_state_stopped('t'));
	assert_false(task_state_stopped('S'));
	assert_false(task_state_stopped('Z'));
	assert_true(task_state_still('T'));
	assert_true(task_state_still('t'));
	assert_true(task_state_still('Z'));
	assert_true(task_state_still('X'));
	/* inside an unmap or about to run one */
	assert_false(task_state_still('D'));
	assert_false(task_state_still('R'));
	assert_false(task_state_still('S'));
	assert_false(task_state_still('\0'));
}

static void tracer(void **state)
{
	(void)state;
	assert_int_equal(task_status_tracer("Name:\tqemu\nState:\tS (sleeping)\nTracerPid:\t0\nUid:\t0\n"),
			 0);
	assert_int_equal(task_status_tracer("Name:\tgdb-me\nTracerPid:\t1234\n"),
			 1234);
	assert_int_equal(task_status_tracer("Name:\tx\nUid:\t0\n"), -1);
	assert_int_equal(task_status_tracer("TracerPid:\tx\n"), -1);
	/* "TracerPid" only at the start of a line */
	assert_int_equal(task_status_tracer("Name:\tTracerPid: 5\nTracerPid:\t0\n"),
			 0);
}

/* A VFIO device file's fdinfo names its device by sysfs path (6.9 on). */
static void vfio_device_fdinfo(void **state)
{
	static const char info[] =
		"pos:\t0\nflags:\t02000002\nmnt_id:\t15\nino:\t1057\n"
		"vfio-device-syspath: /sys/devices/pci0000:00/0000:00:03.0\n";

	(void)state;
	assert_true(fdinfo_is_vfio_device(info, "0000:00:03.0"));
	assert_false(fdinfo_is_vfio_device(info, "0000:00:04.0"));
	/* a suffix of another device's name is not it */
	assert_false(fdinfo_is_vfio_device(info, "00:03.0"));
	assert_false(fdinfo_is_vfio_device("pos:\t0\nflags:\t02\n",
					   "0000:00:03.0"));
	assert_false(fdinfo_is_vfio_device(info, ""));
}

static char *text_of(enum domain_read how, const struct domain_owners *ow)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	owner_print_text(f, how, ow);
	fclose(f);
	return buf;
}

static void two_owners(struct domain_owners *ow)
{
	memset(ow, 0, sizeof(*ow));
	ow->n = 2;
	ow->o[0] = (struct domain_owner){ .pid = 4242,
		.state = OWNER_STOPPED_BY_US, .held_ns = 12345678 };
	snprintf(ow->o[0].comm, sizeof(ow->o[0].comm), "qemu-system-x86");
	ow->o[1] = (struct domain_owner){ .pid = 99,
		.state = OWNER_WAS_STOPPED };
	snprintf(ow->o[1].comm, sizeof(ow->o[1].comm), "dpdk-testpmd");
}

/* The report's lines: who was stopped and how long, or the live warning. */
static void report_lines(void **state)
{
	struct domain_owners ow;
	char *t;

	(void)state;
	two_owners(&ow);
	t = text_of(DOMAIN_READ_OWNER_STOPPED, &ow);
	assert_string_equal(t,
		"owner pid 4242 (qemu-system-x86) stopped for 12.3 ms\n"
		"owner pid 99 (dpdk-testpmd) already stopped: left so\n");
	free(t);
	t = text_of(DOMAIN_READ_LIVE, NULL);
	assert_non_null(strstr(t, "read live"));
	free(t);
	t = text_of(DOMAIN_READ_STILL, &ow);
	assert_string_equal(t, "");
	free(t);
	assert_null(domain_read_name(DOMAIN_READ_STILL));
	assert_string_equal(domain_read_name(DOMAIN_READ_LIVE), "live");
}

static struct json_object *json_of(enum domain_read how,
				   const struct domain_owners *ow)
{
	struct json_object *doc;
	struct json_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	jw_init(&w, f);
	jw_begin_object(&w);
	owner_print_json(&w, how, ow);
	jw_end_object(&w);
	assert_int_equal(jw_finish(&w), 0);
	fclose(f);
	doc = json_tokener_parse(buf);
	free(buf);
	assert_non_null(doc);
	return doc;
}

static void report_json(void **state)
{
	struct json_object *doc, *owners, *o;
	struct domain_owners ow;

	(void)state;
	two_owners(&ow);
	doc = json_of(DOMAIN_READ_OWNER_STOPPED, &ow);
	assert_string_equal(json_object_get_string(json_get(doc, "read")),
			    "owner-stopped");
	owners = json_get(doc, "owners");
	assert_int_equal(json_object_array_length(owners), 2);
	o = json_object_array_get_idx(owners, 0);
	assert_int_equal(json_object_get_int64(json_get(o, "pid")), 4242);
	assert_string_equal(json_object_get_string(json_get(o, "comm")),
			    "qemu-system-x86");
	assert_int_equal(json_object_get_int64(json_get(o, "stopped_us")),
			 12345);
	assert_string_equal(json_object_get_string(json_get(o, "by")),
			    "ptcompare");
	o = json_object_array_get_idx(owners, 1);
	assert_string_equal(json_object_get_string(json_get(o, "by")),
			    "already");
	assert_int_equal(json_object_get_int64(json_get(o, "stopped_us")), 0);
	json_object_put(doc);
	/* live: the key says so, and no owner is listed */
	doc = json_of(DOMAIN_READ_LIVE, &ow);
	assert_string_equal(json_object_get_string(json_get(doc, "read")),
			    "live");
	assert_int_equal(json_object_array_length(json_get(doc, "owners")), 0);
	json_object_put(doc);
}

UNIT_MAIN("domain_owner", UT(stat_state), UT(states), UT(tracer),
	  UT(vfio_device_fdinfo), UT(report_lines), UT(report_json))
