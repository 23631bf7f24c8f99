// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
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

void jw_init(struct json_writer *w, FILE *f)
{
	*w = (struct json_writer){ .f = f };
	w->first[0] = true;
}

static void fail(struct json_writer *w, int err)
{
	if (!w->err)
		w->err = err;
}

/*
 * Before a key (key true) or a value: checks it belongs here and writes
 * the comma and newline that separate it from the one before.  False
 * when nothing may be written.
 */
static bool item(struct json_writer *w, bool key)
{
	unsigned int d = w->depth;

	if (w->err)
		return false;
	if (w->after_key) {
		if (key) {
			fail(w, -EINVAL);
			return false;
		}
		w->after_key = false;
		return true;
	}
	if (key != w->object[d]) {
		fail(w, -EINVAL);
		return false;
	}
	if (!w->first[d])
		fputc(',', w->f);
	w->first[d] = false;
	if (w->newline)
		fputc('\n', w->f);
	w->newline = false;
	return true;
}

bool jw_raw_value(struct json_writer *w)
{
	return item(w, false);
}

static void begin(struct json_writer *w, char open, bool object)
{
	if (!w->err && w->depth == JW_MAX_DEPTH)
		fail(w, -EOVERFLOW);
	if (!item(w, false))
		return;
	fputc(open, w->f);
	w->depth++;
	w->first[w->depth] = true;
	w->object[w->depth] = object;
}

static void end(struct json_writer *w, char close, bool object)
{
	if (w->err)
		return;
	if (!w->depth || w->object[w->depth] != object || w->after_key) {
		fail(w, -EINVAL);
		return;
	}
	fputc(close, w->f);
	w->depth--;
	w->newline = false;
}

void jw_begin_object(struct json_writer *w)
{
	begin(w, '{', true);
}

void jw_begin_line_object(struct json_writer *w)
{
	w->newline = true;
	jw_begin_object(w);
}

void jw_end_object(struct json_writer *w)
{
	end(w, '}', true);
}

void jw_begin_array(struct json_writer *w)
{
	begin(w, '[', false);
}

void jw_end_array(struct json_writer *w)
{
	end(w, ']', false);
}

void jw_key(struct json_writer *w, const char *name)
{
	if (!item(w, true))
		return;
	json_string(w->f, name);
	fputc(':', w->f);
	w->after_key = true;
}

void jw_line_key(struct json_writer *w, const char *name)
{
	w->newline = true;
	jw_key(w, name);
}

void jw_str(struct json_writer *w, const char *s)
{
	if (item(w, false))
		json_string(w->f, s);
}

void jw_str_or_null(struct json_writer *w, const char *s)
{
	if (s)
		jw_str(w, s);
	else
		jw_null(w);
}

void jw_u64(struct json_writer *w, uint64_t v)
{
	if (item(w, false))
		fprintf(w->f, "%" PRIu64, v);
}

void jw_i64(struct json_writer *w, int64_t v)
{
	if (item(w, false))
		fprintf(w->f, "%" PRId64, v);
}

void jw_bool(struct json_writer *w, bool b)
{
	if (item(w, false))
		fputs(b ? "true" : "false", w->f);
}

void jw_null(struct json_writer *w)
{
	if (item(w, false))
		fputs("null", w->f);
}

/* "0x1f000". */
static void jw_hex(struct json_writer *w, uint64_t v)
{
	jw_hex_padded(w, v, 0);
}

void jw_hex_padded(struct json_writer *w, uint64_t v, int digits)
{
	if (item(w, false))
		fprintf(w->f, "\"0x%0*" PRIx64 "\"", digits, v);
}

void jw_hex_or_null(struct json_writer *w, uint64_t v, uint64_t none)
{
	if (v == none)
		jw_null(w);
	else
		jw_hex(w, v);
}

void jw_flag_names(struct json_writer *w, uint64_t bits, bit_name_fn name)
{
	unsigned int bit = 0;
	const char *n;

	jw_begin_array(w);
	while ((n = flag_names_next(bits, name, &bit)))
		jw_str(w, n);
	jw_end_array(w);
}

void jw_kv_str(struct json_writer *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_str(w, s);
}

void jw_kv_u64(struct json_writer *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	jw_u64(w, v);
}

void jw_kv_i64(struct json_writer *w, const char *key, int64_t v)
{
	jw_key(w, key);
	jw_i64(w, v);
}

void jw_kv_bool(struct json_writer *w, const char *key, bool b)
{
	jw_key(w, key);
	jw_bool(w, b);
}

void jw_kv_null(struct json_writer *w, const char *key)
{
	jw_key(w, key);
	jw_null(w);
}

void jw_kv_hex(struct json_writer *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	jw_hex(w, v);
}

void jw_kv_hex_or_null(struct json_writer *w, const char *key, uint64_t v,
		       uint64_t none)
{
	jw_key(w, key);
	jw_hex_or_null(w, v, none);
}

void jw_kv_start_end(struct json_writer *w, uint64_t start, uint64_t end)
{
	jw_kv_hex(w, "start", start);
	jw_kv_hex(w, "end", end);
}

int jw_finish(struct json_writer *w)
{
	if (!w->err && (w->depth || w->after_key))
		fail(w, -EINVAL);
	if (!w->err)
		fputc('\n', w->f);
	return w->err;
}

bool jw_kv_object_or_null(struct json_writer *w, const char *key, bool has)
{
	jw_key(w, key);
	if (has)
		jw_begin_object(w);
	else
		jw_null(w);
	return has;
}

void jw_event_begin(struct json_writer *w, FILE *f, const char *event)
{
	jw_init(w, f);
	jw_begin_object(w);
	jw_kv_str(w, "event", event);
}

int jw_event_end(struct json_writer *w)
{
	int err;

	jw_end_object(w);
	err = jw_finish(w);
	fflush(w->f);
	return err;
}

int jw_error(const struct json_writer *w)
{
	return w->err;
}
