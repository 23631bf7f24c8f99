/* SPDX-License-Identifier: GPL-2.0 */
/* The few JSON writers ptcompare needs: strings, hex numbers, null, flags. */
#ifndef PTCOMPARE_JSON_H
#define PTCOMPARE_JSON_H

#include <stdint.h>
#include <stdio.h>
#include "model/flag_names.h"

/*
 * Writes s as a JSON string.  Quotes, backslashes and control characters
 * are escaped; valid UTF-8 passes through; a byte that is not part of valid
 * UTF-8 (file names are bytes) is written as the code point of the same
 * value (\u00XX), so the document is always valid.
 */
void json_string(FILE *f, const char *s);

/* "0x..." for a hex value, or null when v == none. */
void json_hex_or_null(FILE *f, uint64_t v, uint64_t none);

/* The names of the named bits of bits as an array: ["read","write"]. */
void json_flag_names(FILE *f, uint64_t bits, bit_name_fn name);

#endif /* PTCOMPARE_JSON_H */
