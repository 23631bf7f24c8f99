// SPDX-License-Identifier: GPL-2.0
/* Shared by the unit tests (the Makefile links it into each). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "json_get.h"

struct json_object *json_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

int64_t json_num(struct json_object *o, const char *key)
{
	struct json_object *v = json_get(o, key);

	assert_true(json_object_is_type(v, json_type_int));
	return json_object_get_int64(v);
}

const char *json_str(struct json_object *o, const char *key)
{
	struct json_object *v = json_get(o, key);

	assert_true(json_object_is_type(v, json_type_string));
	return json_object_get_string(v);
}
