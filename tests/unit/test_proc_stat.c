// SPDX-License-Identifier: GPL-2.0
/* parse/proc_stat.c: state and flags of /proc/PID/stat. */
#include "unit.h"
#include "parse/proc_stat.h"

static void user_process(void **state)
{
	char st;
	unsigned long flags;

	(void)state;
	assert_true(proc_stat_parse("159 (vmtest) S 1 159 159 34816 159 4194560 118 0 0 0\n",
				    &st, &flags));
	assert_int_equal(st, 'S');
	assert_int_equal(flags, 4194560);
	assert_false(flags & PROC_PF_KTHREAD);
}

static void kernel_thread(void **state)
{
	char st;
	unsigned long flags;

	(void)state;
	assert_true(proc_stat_parse("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0",
				    &st, &flags));
	assert_true(flags & PROC_PF_KTHREAD);
}

/* A comm with spaces and a ')' of its own: fields count from the last. */
static void odd_comm(void **state)
{
	char st;
	unsigned long flags;

	(void)state;
	assert_true(proc_stat_parse("77 (a) b (c)) Z 1 77 77 0 -1 4227148 0",
				    &st, &flags));
	assert_int_equal(st, 'Z');
	assert_int_equal(flags, 4227148);
}

static void malformed(void **state)
{
	char st;
	unsigned long flags;

	(void)state;
	assert_false(proc_stat_parse("", &st, &flags));
	assert_false(proc_stat_parse("1 (x)", &st, &flags));
	assert_false(proc_stat_parse("1 (x) S 0 0 0 0", &st, &flags));
	assert_false(proc_stat_parse("1 (x) S 0 0 0 0 -1 zz", &st, &flags));
}

UNIT_MAIN("proc_stat", UT(user_process), UT(kernel_thread), UT(odd_comm),
	  UT(malformed))
