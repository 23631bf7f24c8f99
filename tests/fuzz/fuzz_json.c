// SPDX-License-Identifier: GPL-2.0
/*
 * JSON strings of outside bytes (json_string): VMA names from
 * /proc/PID/maps, /proc/iomem names, comm, all bytes the kernel hands
 * over.  Oracle: json-c, a parser that is not ours, in strict mode with
 * UTF-8 validation, reads the document back to the input, where each
 * byte that is not part of well-formed UTF-8 (the Unicode standard's
 * table 3-7, written out below by byte ranges) stands for U+0000-U+00FF
 * of the same value, as json.h documents.
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <stdbool.h>
#include "fuzz.h"
#include "report/json.h"

/* Length of a well-formed UTF-8 sequence at s (table 3-7), 0 if none. */
static size_t well_formed(const unsigned char *s)
{
	static const struct {
		unsigned char lo[4], hi[4];
		size_t len;
	} rows[] = {
		{ { 0x01 }, { 0x7f }, 1 },
		{ { 0xc2, 0x80 }, { 0xdf, 0xbf }, 2 },
		{ { 0xe0, 0xa0, 0x80 }, { 0xe0, 0xbf, 0xbf }, 3 },
		{ { 0xe1, 0x80, 0x80 }, { 0xec, 0xbf, 0xbf }, 3 },
		{ { 0xed, 0x80, 0x80 }, { 0xed, 0x9f, 0xbf }, 3 },
		{ { 0xee, 0x80, 0x80 }, { 0xef, 0xbf, 0xbf }, 3 },
		{ { 0xf0, 0x90, 0x80, 0x80 }, { 0xf0, 0xbf, 0xbf, 0xbf }, 4 },
		{ { 0xf1, 0x80, 0x80, 0x80 }, { 0xf3, 0xbf, 0xbf, 0xbf }, 4 },
		{ { 0xf4, 0x80, 0x80, 0x80 }, { 0xf4, 0x8f, 0xbf, 0xbf }, 4 },
	};

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		size_t i;

		for (i = 0; i < rows[r].len && s[i] >= rows[r].lo[i] &&
			    s[i] <= rows[r].hi[i]; i++)
			;
		if (i == rows[r].len)
			return i;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_string(data, size), *doc = NULL, *want;
	const unsigned char *s = (const unsigned char *)in;
	size_t len = 0, w = 0;
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;
	FILE *f = open_memstream(&doc, &len);

	json_string(f, in);
	fclose(f);
	want = malloc(2 * strlen(in) + 1);
	while (*s) {
		size_t n = well_formed(s);

		if (n) {
			memcpy(want + w, s, n);
			w += n;
			s += n;
		} else {	/* U+0080-U+00FF in UTF-8 */
			want[w++] = (char)(0xc0 | *s >> 6);
			want[w++] = (char)(0x80 | (*s & 0x3f));
			s++;
		}
	}
	want[w] = '\0';
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, doc, (int)len);
	FUZZ_CHECK(o && json_tokener_get_error(tok) == json_tokener_success &&
		   json_object_is_type(o, json_type_string),
		   "json-c rejects %s: %s", doc,
		   json_tokener_error_desc(json_tokener_get_error(tok)));
	FUZZ_CHECK((size_t)json_object_get_string_len(o) == w &&
		   !memcmp(json_object_get_string(o), want, w),
		   "%s reads back as '%s', not '%s'", doc,
		   json_object_get_string(o), want);
	FUZZ_CHECK(!memchr(doc, '\n', len) && !memchr(doc, 0x7f, len),
		   "a raw control character in %s", doc);
	json_object_put(o);
	json_tokener_free(tok);
	free(want);
	free(doc);
	free(in);
	return 0;
}
