// SPDX-License-Identifier: GPL-2.0
/*
 * One address translated (vtop.c): ptwalk's struct ptwalk_vtop answer as
 * the module hands it out, pagemap's words for the page on each read, the
 * maps line of the VMA and the process's comm, all from the input.
 * Oracles: the class is that of the last reads, transient only after a
 * first mismatch; the JSON document is valid for json-c in strict mode,
 * with its class, verdict, entry and frame what the answer says; the text
 * ends with the verdict; the exit status follows the class.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include "fuzz.h"
#include "engine/compare.h"
#include "engine/vtop.h"
#include "parse/pagemap.h"
#include "report/vtop_print.h"

struct fake {
	struct ptwalk_vtop walk;
	uint64_t pm[COMPARE_MAX_REREADS + 1];
	unsigned int reads;
	int fail;		/* -errno of the walk, 0 */
};

static int read_pagemap(void *ctx, uint64_t addr, uint64_t *raw)
{
	struct fake *f = ctx;

	(void)addr;
	FUZZ_CHECK(f->reads <= COMPARE_MAX_REREADS, "read %u times", f->reads + 1);
	*raw = f->pm[f->reads++];
	return 0;
}

static int walk(void *ctx, uint64_t addr, struct ptwalk_vtop *out)
{
	struct fake *f = ctx;

	*out = f->walk;
	out->addr = addr;
	return f->fail;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	FUZZ_CHECK(json_object_object_get_ex(o, key, &v), "no key %s", key);
	return v;
}

static uint64_t hex(struct json_object *v)
{
	const char *s = json_object_get_string(v);

	FUZZ_CHECK(json_object_is_type(v, json_type_string) && !strncmp(s, "0x", 2),
		   "not a hex string");
	return strtoull(s + 2, NULL, 16);
}

static void check_json(const struct vtop_view *v, const char *doc, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o, *levels, *pfn, *pm;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	/* the document ends with a newline, which strict mode takes as trailing */
	o = json_tokener_parse_ex(tok, doc, (int)len - 1);
	FUZZ_CHECK(o && doc[len - 1] == '\n', "invalid JSON (%s): %s",
		   json_tokener_error_desc(json_tokener_get_error(tok)), doc);
	FUZZ_CHECK(!strcmp(json_object_get_string(get(o, "class")),
			   page_class_name(v->cls)) &&
		   !strcmp(json_object_get_string(get(o, "verdict")),
			   v->cls == CLASS_MISMATCH ? "mismatch" : "ok") &&
		   hex(get(o, "addr")) == v->addr &&
		   json_object_get_int(get(o, "rereads")) == (int)v->rereads,
		   "class, verdict, addr or rereads: %s", doc);
	levels = get(o, "levels");
	FUZZ_CHECK(json_object_is_type(levels, json_type_array) &&
		   json_object_array_length(levels) <= PTWALK_VTOP_NR_LEVELS,
		   "levels: %s", doc);
	pfn = get(o, "pfn");
	FUZZ_CHECK(pfn ? v->walk.stop == PTWALK_VTOP_STOP_LEAF &&
			 hex(pfn) == v->walk.pfn : true, "pfn without a leaf");
	pm = get(o, "pagemap");
	FUZZ_CHECK(hex(get(pm, "entry")) == v->pagemap, "pagemap entry");
	FUZZ_CHECK(json_object_get_boolean(get(pm, "present")) ==
		   !!(v->pagemap >> 63), "pagemap present");
	json_object_put(o);
	json_tokener_free(tok);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct vtop_io io = { read_pagemap, walk, NULL };
	static struct fake f;
	static struct vtop_view v;
	const uint8_t *w = fuzz_take(&in, sizeof(f.walk));
	uint64_t addr = fuzz_u64(&in);
	char *text = NULL, *doc = NULL, *line, *comm;
	size_t tlen = 0, dlen = 0, cut;
	struct pagemap_entry before, after;
	bool moved = false;
	FILE *out;
	int err;

	if (!w)
		return 0;
	memset(&f, 0, sizeof(f));
	memset(&v, 0, sizeof(v));
	memcpy(&f.walk, w, sizeof(f.walk));
	for (int i = 0; i <= COMPARE_MAX_REREADS; i++)
		f.pm[i] = fuzz_u64(&in);
	f.fail = fuzz_u8(&in) == 0xff ? -ENXIO : 0;
	v.geom = fuzz_geom(fuzz_u8(&in));
	io.ctx = &f;
	/* the rest: a maps line, a NUL, the comm */
	line = fuzz_string(in.p, in.n);
	cut = strlen(line);
	comm = cut < in.n ? line + cut + 1 : line + cut;
	err = vtop_resolve(&io, addr, &v);
	if (f.fail) {
		FUZZ_CHECK(err == f.fail, "walk error %d came back as %d", f.fail, err);
		free(line);
		return 0;
	}
	FUZZ_CHECK(!err && v.addr == addr && v.rereads == f.reads - 1 &&
		   v.pagemap == f.pm[v.rereads], "resolve: %d, %u re-reads",
		   err, v.rereads);
	/* the walk holds still here: a change is pagemap's */
	if (v.rereads) {
		pagemap_decode(f.pm[v.rereads - 1], &before);
		pagemap_decode(f.pm[v.rereads], &after);
		moved = !pagemap_same_answer(&before, &after);
	}
	FUZZ_CHECK(v.cls == classify_reread(v.rereads ? CLASS_MISMATCH : v.cls,
					    vtop_classify(&v.walk, v.pagemap, &v.geom),
					    moved) &&
		   (v.cls != CLASS_MISMATCH || v.rereads == COMPARE_MAX_REREADS),
		   "class %s after %u re-reads", page_class_name(v.cls), v.rereads);
	FUZZ_CHECK(vtop_exit_status(&v) == (v.cls == CLASS_MISMATCH ?
					    EXIT_MISMATCH : EXIT_OK), "exit status");
	vtop_vma_from_line(line, addr, &v.vma);
	v.pid = 4242;
	v.comm = comm;
	v.kernel = "6.1.0-fuzz";
	out = open_memstream(&text, &tlen);
	vtop_print_text(out, &v);
	fclose(out);
	FUZZ_CHECK(tlen && strstr(text, v.cls == CLASS_MISMATCH ?
				  "\nverdict: MISMATCH\n" : "\nverdict: ok\n"),
		   "text without its verdict: %s", text);
	out = open_memstream(&doc, &dlen);
	vtop_print_json(out, &v);
	fclose(out);
	check_json(&v, doc, dlen);
	free(text);
	free(doc);
	free(line);
	return 0;
}
