// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
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

/* snprintf that keeps len within size and tells how far it got. */
static size_t append(char *buf, size_t size, size_t len, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

static size_t append(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len >= size)
		return len;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return len;
	return len + (size_t)n >= size ? size - 1 : len + (size_t)n;
}

size_t flag_names_join(char *buf, size_t size, uint64_t bits, bit_name_fn name,
		       const char *none)
{
	unsigned int bit = 0;
	size_t len = 0;
	const char *n;

	if (size)
		buf[0] = '\0';
	while ((n = flag_names_next(bits, name, &bit)))
		len = append(buf, size, len, "%s%s", len ? "," : "", n);
	if (!len)
		len = append(buf, size, len, "%s", none);
	return len;
}
