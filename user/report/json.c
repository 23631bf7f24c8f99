// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdbool.h>
#include "report/json.h"

/* Length of the valid UTF-8 sequence at s, 0 if there is none. */
static int utf8_len(const unsigned char *s)
{
	unsigned int cp;
	int len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void json_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int len = utf8_len(s);

		if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
		} else if (*s == '\t') {
			fputs("\\t", f);
		} else if (*s < 0x20 || *s == 0x7f || !len) {
			fprintf(f, "\\u%04x", *s);
		} else {
			fwrite(s, 1, (size_t)len, f);
			s += len;
			continue;
		}
		s++;
	}
	fputc('"', f);
}

void json_hex_or_null(FILE *f, uint64_t v, uint64_t none)
{
	if (v == none)
		fputs("null", f);
	else
		fprintf(f, "\"0x%" PRIx64 "\"", v);
}

void json_flag_names(FILE *f, uint64_t bits, bit_name_fn name)
{
	unsigned int bit = 0;
	const char *n;
	bool first = true;

	fputc('[', f);
	while ((n = flag_names_next(bits, name, &bit))) {
		if (!first)
			fputc(',', f);
		json_string(f, n);
		first = false;
	}
	fputc(']', f);
}
