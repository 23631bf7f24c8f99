/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every unit test program (tests/unit/test_*.c) shares: cmocka's
 * headers in the order it needs them, and its main().
 *
 *	UNIT_MAIN("pagemap", UT(present_entry), UT(swap_entry))
 *
 * is main() running those tests as the cmocka group "pagemap", no group
 * setup or teardown; its exit status is the number of tests that failed.
 * And the helpers unit.c gives them (linked into every test_*.c but
 * test_extent.c, which is kernel code's test and links none): files in
 * memory to read from, and output written to memory.
 */
#ifndef PTCOMPARE_TEST_UNIT_H
#define PTCOMPARE_TEST_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/*
 * A descriptor of a temporary file holding len bytes of data, read from
 * offset 0 with pread (the FILE behind it leaks for the test's life).
 */
int temp_fd(const void *data, size_t len);

/*
 * What a writer prints, as a string: capture_open() gives the stream
 * (the test fails without one), capture_close() closes it and returns
 * what was written, NUL-terminated (the caller frees it).
 */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
};
FILE *capture_open(struct capture *c);
char *capture_close(struct capture *c);

/*
 * Fails the test unless text holds each of the strings that follow,
 * saying the first one missing and the text.
 */
#define assert_contains(text, ...)					\
	ut_contains(__FILE__, __LINE__, text, __VA_ARGS__, (const char *)NULL)
void ut_contains(const char *file, int line, const char *text, ...);

#endif /* PTCOMPARE_TEST_UNIT_H */
