// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "json_get.h"

/* json_string(s) as a C string (caller frees). */
static char *quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_string(f, s);
	fclose(f);
	return buf;
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

/* What a writer wrote into a memstream: a C string (caller frees). */
struct doc {
	char *buf;
	size_t len;
	FILE *f;
	struct json_writer w;
};

static void doc_open(struct doc *d)
{
	d->buf = NULL;
	d->len = 0;
	d->f = open_memstream(&d->buf, &d->len);
	assert_non_null(d->f);
	jw_init(&d->w, d->f);
}

static void doc_close(struct doc *d)
{
	assert_int_equal(fclose(d->f), 0);
}

/* json-c in strict mode with UTF-8 validation: the document or NULL. */
static struct json_object *parse_strict(const char *text)
{
	struct json_tokener *tok = json_tokener_new();
	size_t len = strlen(text);
	struct json_object *o;

	/* one value, then the final newline and nothing else */
	assert_true(len && text[len - 1] == '\n');
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
			       JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, text, (int)len - 1);
	assert_int_equal(json_tokener_get_error(tok), json_tokener_success);
	assert_int_equal(json_tokener_get_parse_end(tok), len - 1);
	json_tokener_free(tok);
	assert_non_null(o);
	return o;
}

/* d's document is exactly want (with its newline), and parses strictly. */
static struct json_object *expect_doc(struct doc *d, const char *want)
{
	assert_int_equal(jw_finish(&d->w), 0);
	doc_close(d);
	assert_string_equal(d->buf, want);
	return parse_strict(d->buf);
}

static void hex_or_null(void **state)
{
	struct doc d;
	struct json_object *o;

	(void)state;
	doc_open(&d);
	jw_begin_array(&d.w);
	jw_hex_or_null(&d.w, 0x1f000, UINT64_MAX);
	jw_hex_or_null(&d.w, UINT64_MAX, UINT64_MAX);
	jw_hex_or_null(&d.w, 0, UINT64_MAX);
	jw_hex_padded(&d.w, 0x1e7, 16);
	jw_end_array(&d.w);
	o = expect_doc(&d, "[\"0x1f000\",null,\"0x0\",\"0x00000000000001e7\"]\n");
	assert_null(json_object_array_get_idx(o, 1));
	json_object_put(o);
	free(d.buf);
}

/* Flag sets as arrays of names: the same walk as the text's lists. */
static void flag_names(void **state)
{
	struct doc d;
	struct json_object *o;

	(void)state;
	doc_open(&d);
	jw_begin_array(&d.w);
	jw_flag_names(&d.w, PTWALK_F_PRESENT | PTWALK_F_WRITE |
		      PTWALK_F_PFN_VALID | 1ULL << 63, ptwalk_flag_name);
	jw_flag_names(&d.w, 0, ptwalk_flag_name);
	jw_flag_names(&d.w, PTWALK_VM_READ | PTWALK_VM_HUGEPAGE,
		      ptwalk_vm_flag_name);
	jw_end_array(&d.w);
	/* bit 63 has no name: left out */
	o = expect_doc(&d,
		"[[\"present\",\"write\",\"pfn_valid\"],[],[\"read\",\"hugepage\"]]\n");
	assert_int_equal(json_object_array_length(
				 json_object_array_get_idx(o, 0)), 3);
	json_object_put(o);
	free(d.buf);
}

/* Commas between members and elements at every depth, none elsewhere. */
static void nesting(void **state)
{
	struct doc d;
	struct json_object *o, *a, *inner;

	(void)state;
	doc_open(&d);
	jw_begin_object(&d.w);
	jw_kv_u64(&d.w, "n", 18446744073709551615ULL);
	jw_kv_i64(&d.w, "i", -5);
	jw_kv_bool(&d.w, "t", true);
	jw_kv_bool(&d.w, "f", false);
	jw_kv_null(&d.w, "z");
	jw_kv_str(&d.w, "s", "x");
	jw_key(&d.w, "a");
	jw_begin_array(&d.w);
	jw_u64(&d.w, 1);
	jw_begin_object(&d.w);
	jw_key(&d.w, "b");
	jw_begin_array(&d.w);
	jw_begin_array(&d.w);
	jw_null(&d.w);
	jw_bool(&d.w, true);
	jw_end_array(&d.w);
	jw_begin_object(&d.w);
	jw_end_object(&d.w);
	jw_end_array(&d.w);
	jw_kv_hex(&d.w, "h", 0xabc);
	jw_end_object(&d.w);
	jw_str_or_null(&d.w, NULL);
	jw_str_or_null(&d.w, "y");
	jw_end_array(&d.w);
	jw_key(&d.w, "e");
	jw_begin_array(&d.w);
	jw_end_array(&d.w);
	jw_key(&d.w, "o");
	jw_begin_object(&d.w);
	jw_end_object(&d.w);
	jw_end_object(&d.w);
	o = expect_doc(&d, "{\"n\":18446744073709551615,\"i\":-5,\"t\":true,"
		       "\"f\":false,\"z\":null,\"s\":\"x\",\"a\":[1,{\"b\":"
		       "[[null,true],{}],\"h\":\"0xabc\"},null,\"y\"],"
		       "\"e\":[],\"o\":{}}\n");
	a = json_get(o, "a");
	assert_int_equal(json_object_array_length(a), 4);
	inner = json_object_array_get_idx(a, 1);
	assert_string_equal(json_str(inner, "h"), "0xabc");
	assert_int_equal(json_object_array_length(json_get(inner, "b")), 2);
	assert_int_equal(json_num(o, "i"), -5);
	assert_int_equal(json_object_object_length(json_get(o, "o")), 0);
	json_object_put(o);
	free(d.buf);
}

static void empty_containers(void **state)
{
	struct doc d;
	struct json_object *o;

	(void)state;
	doc_open(&d);
	jw_begin_object(&d.w);
	jw_end_object(&d.w);
	o = expect_doc(&d, "{}\n");
	assert_int_equal(json_object_object_length(o), 0);
	json_object_put(o);
	free(d.buf);

	doc_open(&d);
	jw_begin_array(&d.w);
	jw_end_array(&d.w);
	o = expect_doc(&d, "[]\n");
	assert_int_equal(json_object_array_length(o), 0);
	json_object_put(o);
	free(d.buf);
}

/* Keys and values escape as json_string does: one escaper. */
static void escaped_keys_and_values(void **state)
{
	struct doc d;
	struct json_object *o;

	(void)state;
	doc_open(&d);
	jw_begin_object(&d.w);
	jw_kv_str(&d.w, "k\"\n", "v\\\x01\xff");
	jw_end_object(&d.w);
	o = expect_doc(&d, "{\"k\\\"\\n\":\"v\\\\\\u0001\\u00ff\"}\n");
	assert_string_equal(json_str(o, "k\"\n"), "v\\\x01\xc3\xbf");
	json_object_put(o);
	free(d.buf);
}

/*
 * The spools' layout: a newline before each element and before the
 * members asked for, the comma ahead of it; a spool is a list of values
 * at the top level that the document copies between its brackets.
 */
static void newlines_and_spools(void **state)
{
	struct doc d, spool;
	struct json_object *o;

	(void)state;
	doc_open(&spool);
	for (int i = 0; i < 3; i++) {
		jw_newline(&spool.w);
		jw_begin_object(&spool.w);
		jw_kv_i64(&spool.w, "i", i);
		jw_end_object(&spool.w);
	}
	assert_int_equal(jw_error(&spool.w), 0);
	doc_close(&spool);
	assert_string_equal(spool.buf, "\n{\"i\":0},\n{\"i\":1},\n{\"i\":2}");

	doc_open(&d);
	jw_begin_object(&d.w);
	jw_kv_u64(&d.w, "pages", 3);
	jw_newline(&d.w);
	jw_key(&d.w, "ranges");
	jw_begin_array(&d.w);
	fputs(spool.buf, d.f);
	jw_end_array(&d.w);
	jw_end_object(&d.w);
	o = expect_doc(&d, "{\"pages\":3,\n\"ranges\":[\n{\"i\":0},\n{\"i\":1},"
		       "\n{\"i\":2}]}\n");
	assert_int_equal(json_object_array_length(json_get(o, "ranges")), 3);
	json_object_put(o);
	free(d.buf);
	free(spool.buf);
}

/* Nesting beyond JW_MAX_DEPTH is refused, and nothing follows it. */
static void depth_overflow(void **state)
{
	struct doc d;
	struct json_object *o;
	size_t len;

	(void)state;
	doc_open(&d);
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_begin_array(&d.w);
	assert_int_equal(jw_error(&d.w), 0);
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_end_array(&d.w);
	assert_int_equal(jw_finish(&d.w), 0);
	doc_close(&d);
	o = parse_strict(d.buf);
	json_object_put(o);
	free(d.buf);

	doc_open(&d);
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_begin_array(&d.w);
	fflush(d.f);
	len = d.len;
	jw_begin_object(&d.w);
	assert_int_equal(jw_error(&d.w), -EOVERFLOW);
	jw_null(&d.w);
	jw_end_array(&d.w);
	assert_int_equal(jw_finish(&d.w), -EOVERFLOW);
	doc_close(&d);
	assert_int_equal(d.len, len);
	free(d.buf);
}

/* Misuses the writer refuses rather than write a broken document. */
static void misuse(void **state)
{
	struct doc d;

	(void)state;
	/* a value in an object without its key */
	doc_open(&d);
	jw_begin_object(&d.w);
	jw_u64(&d.w, 1);
	assert_int_equal(jw_error(&d.w), -EINVAL);
	doc_close(&d);
	assert_string_equal(d.buf, "{");
	free(d.buf);

	/* a key in an array */
	doc_open(&d);
	jw_begin_array(&d.w);
	jw_key(&d.w, "k");
	assert_int_equal(jw_error(&d.w), -EINVAL);
	doc_close(&d);
	free(d.buf);

	/* two keys in a row */
	doc_open(&d);
	jw_begin_object(&d.w);
	jw_key(&d.w, "a");
	jw_key(&d.w, "b");
	assert_int_equal(jw_error(&d.w), -EINVAL);
	doc_close(&d);
	free(d.buf);

	/* closing what is not open, or not what is open */
	doc_open(&d);
	jw_end_object(&d.w);
	assert_int_equal(jw_error(&d.w), -EINVAL);
	doc_close(&d);
	free(d.buf);
	doc_open(&d);
	jw_begin_array(&d.w);
	jw_end_object(&d.w);
	assert_int_equal(jw_error(&d.w), -EINVAL);
	doc_close(&d);
	free(d.buf);

	/* a key left without its value, a container left open */
	doc_open(&d);
	jw_begin_object(&d.w);
	jw_key(&d.w, "a");
	assert_int_equal(jw_finish(&d.w), -EINVAL);
	doc_close(&d);
	free(d.buf);
	doc_open(&d);
	jw_begin_object(&d.w);
	assert_int_equal(jw_finish(&d.w), -EINVAL);
	doc_close(&d);
	assert_string_equal(d.buf, "{");
	free(d.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
		cmocka_unit_test(utf8),
		cmocka_unit_test(hex_or_null),
		cmocka_unit_test(flag_names),
		cmocka_unit_test(nesting),
		cmocka_unit_test(empty_containers),
		cmocka_unit_test(escaped_keys_and_values),
		cmocka_unit_test(newlines_and_spools),
		cmocka_unit_test(depth_overflow),
		cmocka_unit_test(misuse),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
