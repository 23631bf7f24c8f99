// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "report/line.h"

void line_flush(struct line *l)
{
	if (l->len)
		fwrite(l->buf, 1, l->len, l->f);
	l->len = 0;
}

/* n bytes of s, or n bytes c when s is NULL. */
static void put(struct line *l, const char *s, char c, size_t n)
{
	while (n) {
		size_t k = LINE_MAX_LEN - l->len;

		if (!k) {
			line_flush(l);
			continue;
		}
		if (k > n)
			k = n;
		if (s) {
			memcpy(l->buf + l->len, s, k);
			s += k;
		} else {
			memset(l->buf + l->len, c, k);
		}
		l->len += k;
		n -= k;
	}
}

static void pad(struct line *l, char c, size_t n)
{
	put(l, NULL, c, n);
}

void line_str(struct line *l, const char *s, unsigned int width)
{
	size_t n = strlen(s);

	put(l, s, 0, n);
	if (n < width)
		pad(l, ' ', width - n);
}

void line_char(struct line *l, char c)
{
	put(l, &c, 0, 1);
}

/* v in base 10 or 16, right-aligned in width with fill before it. */
static void number(struct line *l, uint64_t v, unsigned int base, char fill,
		   unsigned int width)
{
	char tmp[24];
	size_t n = 0;

	do {
		tmp[23 - n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (n < width)
		pad(l, fill, width - n);
	put(l, tmp + 24 - n, 0, n);
}

void line_u64(struct line *l, uint64_t v, unsigned int width)
{
	number(l, v, 10, ' ', width);
}

void line_hex(struct line *l, uint64_t v, unsigned int width)
{
	number(l, v, 16, '0', width);
}
