/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the JSON documents the unit tests make ptcompare's writers
 * produce: a member that must be there, as an object, a number or a
 * string.  A missing member or another type fails the test (cmocka).
 */
#ifndef PTCOMPARE_TEST_JSON_GET_H
#define PTCOMPARE_TEST_JSON_GET_H

#include <stdint.h>
#include <json-c/json.h>

/* o's member key (NULL for JSON null); the test fails without one. */
struct json_object *json_get(struct json_object *o, const char *key);

/* o's member key, which must be an integer. */
int64_t json_num(struct json_object *o, const char *key);

/* o's member key, which must be a string. */
const char *json_str(struct json_object *o, const char *key);

#endif /* PTCOMPARE_TEST_JSON_GET_H */
