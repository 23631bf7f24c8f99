// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "model/flag_names.h"

const char *flag_names_next(uint64_t bits, bit_name_fn name,
			    unsigned int *bit)
{
	while (*bit < 64) {
		unsigned int b = (*bit)++;
		const char *n;

		if (!(bits >> b & 1))
			continue;
		n = name(b);
		if (n)
			return n;
	}
	return NULL;
}

/*
 * Appends s to the len bytes of buf, within size, NUL-terminated: where
 * it got.  Not snprintf: the report joins names for every VMA and range,
 * and vsnprintf's parsing of a format would cost more than the copy.
 */
static size_t append(char *buf, size_t size, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (len + 1 >= size)
		return len;
	if (n > size - 1 - len)
		n = size - 1 - len;
	memcpy(buf + len, s, n);
	buf[len + n] = '\0';
	return len + n;
}

size_t flag_names_join(char *buf, size_t size, uint64_t bits, bit_name_fn name,
		       const char *none)
{
	unsigned int bit = 0;
	size_t len = 0;
	const char *n;

	if (size)
		buf[0] = '\0';
	while ((n = flag_names_next(bits, name, &bit))) {
		if (len)
			len = append(buf, size, len, ",");
		len = append(buf, size, len, n);
	}
	if (!len)
		len = append(buf, size, len, none);
	return len;
}
