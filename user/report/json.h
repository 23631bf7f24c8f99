/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare's one JSON writer: it places every comma, opens and closes
 * every object and array, and escapes every string, so no other file
 * writes JSON punctuation by hand.  A writer streams to its FILE as it
 * goes (nothing is buffered or allocated); it remembers only, for each
 * open container, whether it is an object and whether anything was
 * written in it yet.
 *
 * The top level is a list: a document writes one value there; a spool
 * (report.h) writes the elements of an array whose brackets the document
 * writes around the spool when it copies it in.
 *
 * A misuse (a value in an object without its key, a key in an array,
 * closing what is not open, nesting deeper than JW_MAX_DEPTH) is an error
 * that sticks: nothing more is written and jw_error() returns it, so the
 * output is never silently malformed.
 */
#ifndef PTCOMPARE_JSON_H
#define PTCOMPARE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "model/flag_names.h"

/* The deepest nesting ptcompare writes is 4; room to spare. */
#define JW_MAX_DEPTH	16

struct json_writer {
	FILE *f;
	unsigned int depth;		/* containers open */
	bool after_key;			/* a key was written, its value is due */
	bool newline;			/* start the next item on a new line */
	int err;			/* 0, or the first misuse's -errno */
	bool first[JW_MAX_DEPTH + 1];	/* per level: nothing written yet */
	bool object[JW_MAX_DEPTH + 1];	/* per level: an object, not a list */
};

void jw_init(struct json_writer *w, FILE *f);

void jw_begin_object(struct json_writer *w);
/*
 * An object starting a line of its own (after its comma): how the scan's
 * long arrays put one element a line.
 */
void jw_begin_line_object(struct json_writer *w);
void jw_end_object(struct json_writer *w);
void jw_begin_array(struct json_writer *w);
void jw_end_array(struct json_writer *w);

/* A member's name; its value is the next thing written. */
void jw_key(struct json_writer *w, const char *name);
/* The same, starting a line: the document's sections. */
void jw_line_key(struct json_writer *w, const char *name);

void jw_str(struct json_writer *w, const char *s);
void jw_str_or_null(struct json_writer *w, const char *s); /* NULL: null */
void jw_u64(struct json_writer *w, uint64_t v);
void jw_i64(struct json_writer *w, int64_t v);
void jw_bool(struct json_writer *w, bool b);
void jw_null(struct json_writer *w);

/*
 * A value another writer wrote whole (a document the caller copies in
 * next): the comma and newline before it, as for any value.  False when
 * nothing may be written.
 */
bool jw_raw_value(struct json_writer *w);

/* "0x1f000" zero-padded to digits digits: "0x00000000000001e7". */
void jw_hex_padded(struct json_writer *w, uint64_t v, int digits);

/* "0x..." for a hex value, or null when v == none. */
void jw_hex_or_null(struct json_writer *w, uint64_t v, uint64_t none);

/* The names of the named bits of bits as an array: ["read","write"]. */
void jw_flag_names(struct json_writer *w, uint64_t bits, bit_name_fn name);

/* Key and value in one call, for the common members. */
void jw_kv_str(struct json_writer *w, const char *key, const char *s);
void jw_kv_u64(struct json_writer *w, const char *key, uint64_t v);
void jw_kv_i64(struct json_writer *w, const char *key, int64_t v);
void jw_kv_bool(struct json_writer *w, const char *key, bool b);
void jw_kv_null(struct json_writer *w, const char *key);
void jw_kv_hex(struct json_writer *w, const char *key, uint64_t v);
void jw_kv_hex_or_null(struct json_writer *w, const char *key, uint64_t v,
		       uint64_t none);

/*
 * "key": an object where there is one (has), opened for the caller to
 * fill and close; null where there is none.  Returns has.
 */
bool jw_kv_object_or_null(struct json_writer *w, const char *key, bool has);

/* "start" and "end" as hex: how every address range begins its object. */
void jw_kv_start_end(struct json_writer *w, uint64_t start, uint64_t end);

/*
 * Ends a document: everything must be closed; writes the final newline.
 * Returns 0, or the writer's error.
 */
int jw_finish(struct json_writer *w);

/*
 * One line of JSON Lines (the --watch modes): an object to f whose first
 * key, "event", says what the line is.  jw_event_end() closes it, ends
 * the line and flushes f, so that a reader sees each event as it
 * happens; 0, or the writer's error.
 */
void jw_event_begin(struct json_writer *w, FILE *f, const char *event);
int jw_event_end(struct json_writer *w);

/* 0, or the -errno of the first misuse (-EINVAL, -EOVERFLOW). */
int jw_error(const struct json_writer *w);

/*
 * Writes s as a JSON string.  Quotes, backslashes and control characters
 * are escaped; valid UTF-8 passes through; a byte that is not part of valid
 * UTF-8 (file names are bytes) is written as the code point of the same
 * value (\u00XX), so the document is always valid.  The writer's strings
 * and keys all go through here.
 */
void json_string(FILE *f, const char *s);

#endif /* PTCOMPARE_JSON_H */
