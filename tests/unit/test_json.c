// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include <json-c/json.h>
#include "module/ptwalk_names.h"
#include "report/json.h"

/* json_string(s) as a C string (caller frees). */
static char *quoted(const char *s)
{
	struct capture c;

	json_string(capture_open(&c), s);
	return capture_close(&c);
}

static void expect_quoted(const char *in, const char *want)
{
	char *got = quoted(in);

	assert_string_equal(got, want);
	free(got);
}

/* What an independent parser makes of our output. */
static void expect_roundtrip(const char *in, const char *decoded)
{
	char *doc = quoted(in);
	struct json_object *o = json_tokener_parse(doc);

	assert_non_null(o);
	assert_true(json_object_is_type(o, json_type_string));
	assert_string_equal(json_object_get_string(o), decoded);
	json_object_put(o);
	free(doc);
}

static void escapes(void **state)
{
	(void)state;
	expect_quoted("", "\"\"");
	expect_quoted("plain name", "\"plain name\"");
	expect_quoted("a\"b\\c", "\"a\\\"b\\\\c\"");
	expect_quoted("tab\there\nnl", "\"tab\\there\\nnl\"");
	expect_quoted("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	expect_quoted("/lib/x.so (deleted)", "\"/lib/x.so (deleted)\"");
	expect_roundtrip("a\"b\\c\n\x01", "a\"b\\c\n\x01");
}

static void utf8(void **state)
{
	(void)state;
	/* valid sequences of 2, 3 and 4 bytes pass through */
	expect_quoted("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		      "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	expect_roundtrip("\xe2\x82\xac", "\xe2\x82\xac");
	/* bytes that are not UTF-8 become the code point of their value */
	expect_quoted("a\xff" "b", "\"a\\u00ffb\"");
	expect_quoted("\xc3", "\"\\u00c3\"");		/* truncated */
	expect_quoted("\xc0\xaf", "\"\\u00c0\\u00af\"");	/* overlong '/' */
	expect_quoted("\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\"");
	expect_quoted("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");	/* surrogate */
	expect_quoted("\xf4\x90\x80\x80",
		      "\"\\u00f4\\u0090\\u0080\\u0080\"");	/* > U+10FFFF */
	/* and the parser accepts the result */
	expect_roundtrip("a\xff" "b", "a\xc3\xbf" "b");
}

static void hex_or_null(void **state)
{
	struct capture c;
	FILE *f = capture_open(&c);
	char *buf;

	(void)state;
	json_hex_or_null(f, 0x1f000, UINT64_MAX);
	fputc(' ', f);
	json_hex_or_null(f, UINT64_MAX, UINT64_MAX);
	fputc(' ', f);
	json_hex_or_null(f, 0, UINT64_MAX);
	buf = capture_close(&c);
	assert_string_equal(buf, "\"0x1f000\" null \"0x0\"");
	free(buf);
}

/* Flag sets as arrays of names: the same walk as the text's lists. */
static void flag_names(void **state)
{
	struct capture c;
	FILE *f = capture_open(&c);
	struct json_object *o;
	char *buf;

	(void)state;
	json_flag_names(f, PTWALK_F_PRESENT | PTWALK_F_WRITE |
			PTWALK_F_PFN_VALID | 1ULL << 63, ptwalk_flag_name);
	fputc(' ', f);
	json_flag_names(f, 0, ptwalk_flag_name);
	fputc(' ', f);
	json_flag_names(f, PTWALK_VM_READ | PTWALK_VM_HUGEPAGE,
			ptwalk_vm_flag_name);
	buf = capture_close(&c);
	/* bit 63 has no name: left out */
	assert_string_equal(buf,
		"[\"present\",\"write\",\"pfn_valid\"] [] [\"read\",\"hugepage\"]");
	*strchr(buf, ' ') = '\0';
	o = json_tokener_parse(buf);
	assert_non_null(o);
	assert_int_equal(json_object_array_length(o), 3);
	json_object_put(o);
	free(buf);
}

UNIT_MAIN("json", UT(escapes), UT(utf8), UT(hex_or_null), UT(flag_names))
