// SPDX-License-Identifier: GPL-2.0
/*
 * parse/hex.h: the one hex reader the command line, maps, iomem and PCI
 * addresses share: where it stops, its digit limit, 64 bits at most.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "parse/hex.h"

static void reads_and_stops(void **state)
{
	uint64_t v = 7;

	(void)state;
	const char *s = "7f00aBc-1";

	assert_ptr_equal(hex_scan(s, 0, &v), s + 7);
	assert_int_equal(v, 0x7f00abc);
	s = "ffffffffffffffff";
	assert_ptr_equal(hex_scan(s, 0, &v), s + 16);
	assert_int_equal(v, UINT64_MAX);
	/* a 65th bit, no digit, a sign or "0x" are not read */
	v = 1;
	assert_null(hex_scan("10000000000000000", 0, &v));
	assert_null(hex_scan("", 0, &v));
	assert_null(hex_scan("-1", 0, &v));
	assert_null(hex_scan(" 1", 0, &v));
	assert_int_equal(v, 1);
	s = "0x10";
	assert_ptr_equal(hex_scan(s, 0, &v), s + 1);
	assert_int_equal(v, 0);
}

static void at_most_max_digits(void **state)
{
	const char *s = "0000:00:03.0";
	uint64_t v;

	(void)state;
	assert_ptr_equal(hex_scan(s, 2, &v), s + 2);
	assert_ptr_equal(hex_scan(s, 8, &v), s + 4);
	assert_ptr_equal(hex_scan(s + 5, 2, &v), s + 7);
	s = "123456";
	assert_ptr_equal(hex_scan(s, 3, &v), s + 3);
	assert_int_equal(v, 0x123);
}

UNIT_MAIN("hex", UT(reads_and_stops), UT(at_most_max_digits))
