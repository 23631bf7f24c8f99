// SPDX-License-Identifier: GPL-2.0
/*
 * ptwalk records as the module hands them out (parse/record.c's pure
 * helpers).  The input is a range START END, then records of 48 bytes.
 * Oracles: the partition check agrees with one done in 128-bit
 * arithmetic; a record found for an address holds it, and over a
 * partition every address of the range has one.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include "fuzz.h"
#include "parse/record.h"
#include "tests/lib/test_lib.h"

#define MAX_RECS 16

typedef unsigned __int128 u128;

static bool partition(const struct ptwalk_record *recs, size_t n,
		      uint64_t start, uint64_t end)
{
	u128 expect = start;

	for (size_t i = 0; i < n; i++) {
		if (recs[i].start != expect || !recs[i].nr_pages)
			return false;
		expect += (u128)recs[i].nr_pages * 4096;
	}
	return expect == end;
}

static void check_find(const struct ptwalk_record *recs, size_t n,
		       bool part, uint64_t start, uint64_t end, uint64_t addr)
{
	const struct ptwalk_record *r = ptwalk_find(recs, n, addr, 12);

	if (r) {
		FUZZ_CHECK(r >= recs && r < recs + n && r->start <= addr &&
			   addr < ptwalk_record_end(r, 12),
			   "record found for 0x%" PRIx64 " does not hold it", addr);
		FUZZ_CHECK(r->pfn == PTWALK_PFN_NONE ?
			   ptwalk_pfn_at(r, addr, 12) == PTWALK_PFN_NONE :
			   ptwalk_pfn_at(r, addr, 12) == r->pfn + (addr - r->start) / 4096,
			   "pfn at 0x%" PRIx64, addr);
	}
	if (part)
		FUZZ_CHECK(!!r == (addr >= start && addr < end),
			   "partition: 0x%" PRIx64 " %s", addr,
			   r ? "found outside" : "not found inside");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint64_t start = fuzz_u64(&in), end = fuzz_u64(&in);
	struct ptwalk_record recs[MAX_RECS];
	const uint8_t *p;
	char why[128];
	size_t n = 0;
	bool part, ok;

	while (n < MAX_RECS && (p = fuzz_take(&in, sizeof(recs[0]))))
		memcpy(&recs[n++], p, sizeof(recs[0]));
	part = partition(recs, n, start, end);
	why[0] = '\0';
	ok = ptwalk_check_partition(recs, n, start, end, 12, why, sizeof(why));
	FUZZ_CHECK(ok == part, "partition check says %d, 128-bit sums %d",
		   ok, part);
	FUZZ_CHECK(ok || (*why && !strchr(why, '\n')), "no reason given");
	check_find(recs, n, part, start, end, start);
	check_find(recs, n, part, start, end, end - 1);
	check_find(recs, n, part, start, end, end);
	check_find(recs, n, part, start, end, start - 1);
	for (size_t i = 0; i < n; i++) {
		check_find(recs, n, part, start, end, recs[i].start);
		check_find(recs, n, part, start, end, ptwalk_record_end(&recs[i], 12) - 1);
	}
	return 0;
}
