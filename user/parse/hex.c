// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <string.h>
#include "parse/hex.h"

/* Value of hex digit c, or -1. */
static int hex_digit(char c)
{
	static const char digits[] = "0123456789abcdef";
	const char *d = memchr(digits, tolower((unsigned char)c), 16);

	return d ? (int)(d - digits) : -1;
}

/*
 * By hand, not strspn and strtoull: maps has five fields a line, one line
 * a VMA, and strtoull would also take what the callers must refuse.
 */
const char *hex_scan(const char *s, size_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	int d;

	for (i = 0; (!max || i < max) && (d = hex_digit(s[i])) >= 0; i++) {
		if (v >> 60)
			return NULL;	/* more than 64 bits */
		v = v << 4 | (uint64_t)d;
	}
	if (!i)
		return NULL;
	*out = v;
	return s + i;
}
