// SPDX-License-Identifier: GPL-2.0
/*
 * report/line.h: each helper prints what its printf conversion prints, on
 * random values and widths, and a line longer than the buffer is written
 * whole.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "report/line.h"

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A value of a random bit length: small ones as often as large ones. */
static uint64_t random_value(uint64_t *s)
{
	unsigned int bits = (unsigned int)(next_rand(s) % 65);

	return bits == 64 ? next_rand(s) :
			    next_rand(s) & ((UINT64_C(1) << bits) - 1);
}

static void same_as_printf(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		char *got, want[128];
		struct capture c;
		uint64_t v = random_value(&seed);
		unsigned int w = (unsigned int)(next_rand(&seed) % 24);
		const char *strs[] = { "", "rw-p", "thp,hugetlb-2M", "x" };
		const char *str = strs[next_rand(&seed) % 4];
		struct line l;

		line_init(&l, capture_open(&c));
		line_u64(&l, v, w);
		line_char(&l, '|');
		line_hex(&l, v, w);
		line_char(&l, '|');
		line_str(&l, str, w);
		line_flush(&l);
		got = capture_close(&c);
		snprintf(want, sizeof(want), "%*" PRIu64 "|%0*" PRIx64 "|%-*s",
			 (int)w, v, (int)w, v, (int)w, str);
		assert_string_equal(got, want);
		free(got);
	}
}

/* A name of 3,000 bytes padded to 5,000: all of it, in order. */
static void longer_than_the_buffer(void **state)
{
	char name[3001], *got;
	struct capture c;
	struct line l;

	(void)state;
	for (size_t i = 0; i < 3000; i++)
		name[i] = (char)('a' + i % 26);
	name[3000] = '\0';
	line_init(&l, capture_open(&c));
	line_hex(&l, 0xabc, 12);
	line_str(&l, name, 5000);
	line_char(&l, '\n');
	line_flush(&l);
	got = capture_close(&c);
	assert_int_equal(c.len, 12 + 5000 + 1);
	assert_memory_equal(got, "000000000abc", 12);
	assert_memory_equal(got + 12, name, 3000);
	for (size_t i = 3012; i < 5012; i++)
		assert_int_equal(got[i], ' ');
	assert_int_equal(got[5012], '\n');
	free(got);
}

UNIT_MAIN("line", UT(same_as_printf), UT(longer_than_the_buffer))
