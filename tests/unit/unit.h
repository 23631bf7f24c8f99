/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every unit test program (tests/unit/test_*.c) shares: cmocka's
 * headers in the order it needs them, and its main().
 *
 *	UNIT_MAIN("pagemap", UT(present_entry), UT(swap_entry))
 *
 * is main() running those tests as the cmocka group "pagemap", no group
 * setup or teardown; its exit status is the number of tests that failed.
 */
#ifndef PTCOMPARE_TEST_UNIT_H
#define PTCOMPARE_TEST_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* One test of the group: a function void name(void **state). */
#define UT(name) cmocka_unit_test(name)

#define UNIT_MAIN(group, ...)						\
	int main(void)							\
	{								\
		const struct CMUnitTest tests[] = { __VA_ARGS__ };	\
									\
		return cmocka_run_group_tests_name(group, tests, NULL, NULL); \
	}

#endif /* PTCOMPARE_TEST_UNIT_H */
