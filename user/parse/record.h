/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptwalk's records (module/ptwalk_abi.h) read page by page: where a record
 * ends, the frame or swap offset of one of its pages, the record covering
 * an address, and whether a stream of them covers a range as promised.
 * Records count kernel pages: every function takes the kernel's page
 * shift (model/page.h).  Pure: the records come from the caller (io/ptwalk_client.h reads them).
 */
#ifndef PTCOMPARE_PARSE_RECORD_H
#define PTCOMPARE_PARSE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "module/ptwalk_abi.h"

/* End address (exclusive) of a record. */
uint64_t ptwalk_record_end(const struct ptwalk_record *r,
			   unsigned int page_shift);

/*
 * Frame (or, for non-present kinds with advancing offsets, swap offset) of
 * the page at addr inside r; PTWALK_PFN_NONE when r maps no frame.
 */
uint64_t ptwalk_pfn_at(const struct ptwalk_record *r, uint64_t addr,
		       unsigned int page_shift);

/*
 * Swap offset (as pagemap encodes it) of the page at addr inside a
 * non-present record: offsets advance per page, except for markers and
 * entries ptwalk cannot decode, which carry one value.
 */
uint64_t ptwalk_swap_offset_at(const struct ptwalk_record *r, uint64_t addr,
			       unsigned int page_shift);

/*
 * The last check of a partition: the records (named what in why) end at
 * end, where at says they do; on failure writes why and returns false.
 */
bool records_end_at(const char *what, uint64_t at, uint64_t end, char *why,
		    size_t why_size);

/*
 * Checks that recs partition [start, end) exactly, in order, without empty
 * records.  On failure writes why (one line) and returns false.
 */
bool ptwalk_check_partition(const struct ptwalk_record *recs, size_t n,
			    uint64_t start, uint64_t end,
			    unsigned int page_shift, char *why, size_t why_size);

#endif /* PTCOMPARE_PARSE_RECORD_H */
