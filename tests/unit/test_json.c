// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include <json-c/json.h>
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "json_get.h"

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

/*
 * A writer on a memstream.  The tests of the writer get one each (the
 * fixture), write a document, and hand it to expect_doc(); the fixture
 * frees the text and what json-c made of it.
 */
struct doc {
	char *buf;
	size_t len;
	FILE *f;
	struct json_writer w;
	struct json_object *o;	/* the document as json-c parsed it */
};

static void doc_open(struct doc *d)
{
	*d = (struct doc){ 0 };
	d->f = open_memstream(&d->buf, &d->len);
	assert_non_null(d->f);
	jw_init(&d->w, d->f);
}

static void doc_close(struct doc *d)
{
	assert_int_equal(fclose(d->f), 0);
	d->f = NULL;
}

static int doc_setup(void **state)
{
	static struct doc d;

	doc_open(&d);
	*state = &d;
	return 0;
}

static int doc_teardown(void **state)
{
	struct doc *d = *state;

	if (d->f)
		fclose(d->f);
	json_object_put(d->o);
	free(d->buf);
	return 0;
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
	d->o = parse_strict(d->buf);
	return d->o;
}

static void hex_or_null(void **state)
{
	struct doc *d = *state;
	struct json_object *o;

	jw_begin_array(&d->w);
	jw_hex_or_null(&d->w, 0x1f000, UINT64_MAX);
	jw_hex_or_null(&d->w, UINT64_MAX, UINT64_MAX);
	jw_hex_or_null(&d->w, 0, UINT64_MAX);
	jw_hex_padded(&d->w, 0x1e7, 16);
	jw_end_array(&d->w);
	o = expect_doc(d, "[\"0x1f000\",null,\"0x0\",\"0x00000000000001e7\"]\n");
	assert_null(json_object_array_get_idx(o, 1));
}

/* "key": an object to fill where there is one, null where there is none. */
static void object_or_null(void **state)
{
	struct doc *d = *state;

	jw_begin_object(&d->w);
	if (jw_kv_object_or_null(&d->w, "owner", true)) {
		jw_kv_i64(&d->w, "pid", 7);
		jw_end_object(&d->w);
	}
	assert_false(jw_kv_object_or_null(&d->w, "range", false));
	jw_end_object(&d->w);
	expect_doc(d, "{\"owner\":{\"pid\":7},\"range\":null}\n");
}

/* JSON Lines: an object a line, its first key "event", each flushed. */
static void event_lines(void **state)
{
	struct doc *d = *state;
	struct json_writer w;

	jw_event_begin(&w, d->f, "start");
	jw_kv_u64(&w, "seconds", 5);
	assert_int_equal(jw_event_end(&w), 0);
	/* flushed: the line is in the buffer before the stream closes */
	assert_string_equal(d->buf, "{\"event\":\"start\",\"seconds\":5}\n");
	jw_event_begin(&w, d->f, "end");
	jw_begin_object(&w);	/* left open: the writer's error */
	assert_int_equal(jw_event_end(&w), -EINVAL);
	doc_close(d);
}

/* Flag sets as arrays of names: the same walk as the text's lists. */
static void flag_names(void **state)
{
	struct doc *d = *state;
	struct json_object *o;

	jw_begin_array(&d->w);
	jw_flag_names(&d->w, PTWALK_F_PRESENT | PTWALK_F_WRITE |
		      PTWALK_F_PFN_VALID | 1ULL << 63, ptwalk_flag_name);
	jw_flag_names(&d->w, 0, ptwalk_flag_name);
	jw_flag_names(&d->w, PTWALK_VM_READ | PTWALK_VM_HUGEPAGE,
		      ptwalk_vm_flag_name);
	jw_end_array(&d->w);
	/* bit 63 has no name: left out */
	o = expect_doc(d,
		"[[\"present\",\"write\",\"pfn_valid\"],[],[\"read\",\"hugepage\"]]\n");
	assert_int_equal(json_object_array_length(
				 json_object_array_get_idx(o, 0)), 3);
}

/* Commas between members and elements at every depth, none elsewhere. */
static void nesting(void **state)
{
	struct doc *d = *state;
	struct json_writer *w = &d->w;
	struct json_object *o, *a, *inner;

	jw_begin_object(w);
	jw_kv_u64(w, "n", 18446744073709551615ULL);
	jw_kv_i64(w, "i", -5);
	jw_kv_bool(w, "t", true);
	jw_kv_bool(w, "f", false);
	jw_kv_null(w, "z");
	jw_kv_str(w, "s", "x");
	jw_key(w, "a");
	jw_begin_array(w);
	jw_u64(w, 1);
	jw_begin_object(w);
	jw_key(w, "b");
	jw_begin_array(w);
	jw_begin_array(w);
	jw_null(w);
	jw_bool(w, true);
	jw_end_array(w);
	jw_begin_object(w);
	jw_end_object(w);
	jw_end_array(w);
	jw_kv_start_end(w, 0xabc, 0xdef);
	jw_end_object(w);
	jw_str_or_null(w, NULL);
	jw_str_or_null(w, "y");
	jw_end_array(w);
	jw_key(w, "e");
	jw_begin_array(w);
	jw_end_array(w);
	jw_key(w, "o");
	jw_begin_object(w);
	jw_end_object(w);
	jw_end_object(w);
	o = expect_doc(d, "{\"n\":18446744073709551615,\"i\":-5,\"t\":true,"
		       "\"f\":false,\"z\":null,\"s\":\"x\",\"a\":[1,{\"b\":"
		       "[[null,true],{}],\"start\":\"0xabc\",\"end\":\"0xdef\"},"
		       "null,\"y\"],\"e\":[],\"o\":{}}\n");
	a = json_get(o, "a");
	assert_int_equal(json_object_array_length(a), 4);
	inner = json_object_array_get_idx(a, 1);
	assert_string_equal(json_str(inner, "end"), "0xdef");
	assert_int_equal(json_object_array_length(json_get(inner, "b")), 2);
	assert_int_equal(json_num(o, "i"), -5);
	assert_int_equal(json_object_object_length(json_get(o, "o")), 0);
}

static void empty_object(void **state)
{
	struct doc *d = *state;

	jw_begin_object(&d->w);
	jw_end_object(&d->w);
	assert_int_equal(json_object_object_length(expect_doc(d, "{}\n")), 0);
}

static void empty_array(void **state)
{
	struct doc *d = *state;

	jw_begin_array(&d->w);
	jw_end_array(&d->w);
	assert_int_equal(json_object_array_length(expect_doc(d, "[]\n")), 0);
}

/* Keys and values escape as json_string does: one escaper. */
static void escaped_keys_and_values(void **state)
{
	struct doc *d = *state;
	struct json_object *o;

	jw_begin_object(&d->w);
	jw_kv_str(&d->w, "k\"\n", "v\\\x01\xff");
	jw_end_object(&d->w);
	o = expect_doc(d, "{\"k\\\"\\n\":\"v\\\\\\u0001\\u00ff\"}\n");
	assert_string_equal(json_str(o, "k\"\n"), "v\\\x01\xc3\xbf");
}

/*
 * The spools' layout: a newline before each element and before the
 * members asked for, the comma ahead of it; a spool is a list of values
 * at the top level that the document copies between its brackets.
 */
static void newlines_and_spools(void **state)
{
	struct doc *d = *state, spool;
	struct json_object *o;

	doc_open(&spool);
	for (int i = 0; i < 3; i++) {
		jw_begin_line_object(&spool.w);
		jw_kv_i64(&spool.w, "i", i);
		jw_end_object(&spool.w);
	}
	assert_int_equal(jw_error(&spool.w), 0);
	doc_close(&spool);
	assert_string_equal(spool.buf, "\n{\"i\":0},\n{\"i\":1},\n{\"i\":2}");

	jw_begin_object(&d->w);
	jw_kv_u64(&d->w, "pages", 3);
	jw_line_key(&d->w, "ranges");
	jw_begin_array(&d->w);
	fputs(spool.buf, d->f);
	jw_end_array(&d->w);
	jw_end_object(&d->w);
	free(spool.buf);
	o = expect_doc(d, "{\"pages\":3,\n\"ranges\":[\n{\"i\":0},\n{\"i\":1},"
		       "\n{\"i\":2}]}\n");
	assert_int_equal(json_object_array_length(json_get(o, "ranges")), 3);
}

static void deepest(void **state)
{
	struct doc *d = *state;
	struct json_object *o;

	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_begin_array(&d->w);
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_end_array(&d->w);
	o = expect_doc(d, "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]\n");
	assert_int_equal(json_object_array_length(o), 1);
}

/* Nesting beyond JW_MAX_DEPTH is refused, and nothing follows it. */
static void depth_overflow(void **state)
{
	struct doc *d = *state;
	size_t len;

	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_begin_array(&d->w);
	assert_int_equal(jw_error(&d->w), 0);
	fflush(d->f);
	len = d->len;
	jw_begin_object(&d->w);
	assert_int_equal(jw_error(&d->w), -EOVERFLOW);
	jw_null(&d->w);
	jw_end_array(&d->w);
	assert_int_equal(jw_finish(&d->w), -EOVERFLOW);
	doc_close(d);
	assert_int_equal(d->len, len);
}

/* Misuses the writer refuses rather than write a broken document. */
static void value_without_key(struct json_writer *w)
{
	jw_begin_object(w);
	jw_u64(w, 1);
}

static void key_in_array(struct json_writer *w)
{
	jw_begin_array(w);
	jw_key(w, "k");
}

static void two_keys(struct json_writer *w)
{
	jw_begin_object(w);
	jw_key(w, "a");
	jw_key(w, "b");
}

static void close_nothing(struct json_writer *w)
{
	jw_end_object(w);
}

static void close_the_other(struct json_writer *w)
{
	jw_begin_array(w);
	jw_end_object(w);
}

static void key_without_value(struct json_writer *w)
{
	jw_begin_object(w);
	jw_key(w, "a");
}

static void left_open(struct json_writer *w)
{
	jw_begin_array(w);
	jw_begin_array(w);
}

static void misuse(void **state)
{
	static const struct {
		void (*use)(struct json_writer *w);
		const char *written;	/* before the misuse */
	} cases[] = {
		{ value_without_key, "{" },
		{ key_in_array, "[" },
		{ two_keys, "{\"a\":" },
		{ close_nothing, "" },
		{ close_the_other, "[" },
		{ key_without_value, "{\"a\":" },	/* caught by jw_finish */
		{ left_open, "[[" },			/* caught by jw_finish */
	};
	struct doc d;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		doc_open(&d);
		cases[i].use(&d.w);
		assert_int_equal(jw_finish(&d.w), -EINVAL);
		/* sticky: nothing more is written */
		jw_null(&d.w);
		jw_end_object(&d.w);
		assert_int_equal(jw_error(&d.w), -EINVAL);
		doc_close(&d);
		assert_string_equal(d.buf, cases[i].written);
		free(d.buf);
	}
}

#define doc_test(f) cmocka_unit_test_setup_teardown(f, doc_setup, doc_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
		cmocka_unit_test(utf8),
		doc_test(hex_or_null),
		doc_test(object_or_null),
		doc_test(event_lines),
		doc_test(flag_names),
		doc_test(nesting),
		doc_test(empty_object),
		doc_test(empty_array),
		doc_test(escaped_keys_and_values),
		doc_test(newlines_and_spools),
		doc_test(deepest),
		doc_test(depth_overflow),
		cmocka_unit_test(misuse),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
