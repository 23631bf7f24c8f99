/* SPDX-License-Identifier: GPL-2.0 */
/* One line of text per ptwalk record: pure formatting. */
#ifndef PTCOMPARE_RECORD_TEXT_H
#define PTCOMPARE_RECORD_TEXT_H

#include <stddef.h>
#include "module/ptwalk_abi.h"

/* Comma-separated names of the set bits ("-" for none); returns length. */
size_t format_flag_names(char *buf, size_t size, uint64_t bits,
			 const char *(*name)(unsigned int));

/* "START-END PAGES LEVEL KIND FRAME FLAGS vm=VMFLAGS"; returns length. */
size_t format_record(char *buf, size_t size, const struct ptwalk_record *r);

#endif /* PTCOMPARE_RECORD_TEXT_H */
