// SPDX-License-Identifier: GPL-2.0
/*
 * ptwalk records as the module hands them out (ptwalk_client.c's pure
 * helpers) and their text form (record_text.c).  The input is a range
 * START END, then records of 48 bytes.  Oracles: the partition check
 * agrees with one done in 128-bit arithmetic; a record found for an
 * address holds it, and over a partition every address of the range has
 * one; the text form, cut to any buffer size, is a prefix of the whole
 * text, and the whole text reads back to the record's fields.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include "fuzz.h"
#include "ptwalk_client.h"
#include "record_text.h"
#include "../module/ptwalk_names.h"

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
	const struct ptwalk_record *r = ptwalk_find(recs, n, addr);

	if (r) {
		FUZZ_CHECK(r >= recs && r < recs + n && r->start <= addr &&
			   addr < ptwalk_record_end(r),
			   "record found for 0x%" PRIx64 " does not hold it", addr);
		FUZZ_CHECK(r->pfn == PTWALK_PFN_NONE ?
			   ptwalk_pfn_at(r, addr) == PTWALK_PFN_NONE :
			   ptwalk_pfn_at(r, addr) == r->pfn + (addr - r->start) / 4096,
			   "pfn at 0x%" PRIx64, addr);
	}
	if (part)
		FUZZ_CHECK(!!r == (addr >= start && addr < end),
			   "partition: 0x%" PRIx64 " %s", addr,
			   r ? "found outside" : "not found inside");
}

/* Comma-separated names back to bits; false for an unknown name. */
static bool names_to_bits(const char *s, const char *(*name)(unsigned int),
			  uint64_t *bits)
{
	char *copy = strdup(s), *save = NULL, *tok;
	bool ok = true;

	*bits = 0;
	if (!strcmp(s, "-")) {
		free(copy);
		return true;
	}
	for (tok = strtok_r(copy, ",", &save); tok && ok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned int b;

		for (b = 0; b < 64 && (!name(b) || strcmp(name(b), tok)); b++)
			;
		ok = b < 64 && !(*bits >> b & 1);
		*bits |= 1ULL << b;
	}
	free(copy);
	return ok;
}

static uint64_t named(const char *(*name)(unsigned int))
{
	uint64_t m = 0;

	for (unsigned int b = 0; b < 64; b++)
		if (name(b))
			m |= 1ULL << b;
	return m;
}

/* every_size: each buffer size up to the whole text, else a few. */
static void check_text(const struct ptwalk_record *r, bool every_size)
{
	char full[1024], cut[1024], level[16], kind[32], *flags, *vm;
	uint64_t start, end, pages, pfn, off, fbits, vbits;
	size_t len = format_record(full, sizeof(full), r);
	unsigned int type;
	int pos = 0;

	FUZZ_CHECK(len == strlen(full) && len + 1 < sizeof(full),
		   "length %zu of '%s'", len, full);
	for (size_t size = 0; size <= len + 2;
	     size = every_size || size < 2 ? size + 1 :
		    size < len / 2 ? len / 2 : size < len ? len : size + 1) {
		size_t got;

		memset(cut, 'X', sizeof(cut));
		got = format_record(cut, size, r);
		if (!size) {
			FUZZ_CHECK(cut[0] == 'X', "wrote into an empty buffer");
			continue;
		}
		FUZZ_CHECK(got == strlen(cut) && got < size &&
			   got == (len < size ? len : size - 1) &&
			   !strncmp(cut, full, got),
			   "cut to %zu: %zu '%s'", size, got, cut);
	}
	FUZZ_CHECK(sscanf(full, "0x%" SCNx64 "-0x%" SCNx64 " %" SCNu64
			  " %15s %31s %n", &start, &end, &pages, level, kind,
			  &pos) == 5 && pos,
		   "unreadable: '%s'", full);
	FUZZ_CHECK(start == r->start && end == ptwalk_record_end(r) &&
		   pages == r->nr_pages &&
		   !strcmp(level, ptwalk_level_name(r->level)) &&
		   !strcmp(kind, ptwalk_kind_name(r->kind)),
		   "fields of '%s'", full);
	flags = full + pos;
	if (r->pfn != PTWALK_PFN_NONE) {
		FUZZ_CHECK(sscanf(flags, "pfn=0x%" SCNx64 " %n", &pfn, &pos) == 1 &&
			   pfn == r->pfn, "pfn in '%s'", full);
	} else if (r->kind != PTWALK_KIND_NONE) {
		FUZZ_CHECK(sscanf(flags, "type=%u offset=0x%" SCNx64 " %n",
				  &type, &off, &pos) == 2 &&
			   type == r->swap_type && off == r->swap_offset,
			   "swap entry in '%s'", full);
	} else {
		FUZZ_CHECK(!strncmp(flags, "- ", 2), "no frame in '%s'", full);
		pos = 2;
	}
	flags += pos;
	vm = strstr(flags, " vm=");
	FUZZ_CHECK(vm, "no vm= in '%s'", full);
	*vm = '\0';
	vm += 4;
	FUZZ_CHECK(names_to_bits(flags, ptwalk_flag_name, &fbits) &&
		   fbits == (r->flags & named(ptwalk_flag_name)),
		   "flags '%s' for 0x%x", flags, r->flags);
	FUZZ_CHECK(names_to_bits(vm, ptwalk_vm_flag_name, &vbits) &&
		   vbits == (r->vm_flags & named(ptwalk_vm_flag_name)),
		   "vm flags '%s' for 0x%" PRIx64, vm, (uint64_t)r->vm_flags);
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
	ok = ptwalk_check_partition(recs, n, start, end, why, sizeof(why));
	FUZZ_CHECK(ok == part, "partition check says %d, 128-bit sums %d",
		   ok, part);
	FUZZ_CHECK(ok || (*why && !strchr(why, '\n')), "no reason given");
	check_find(recs, n, part, start, end, start);
	check_find(recs, n, part, start, end, end - 1);
	check_find(recs, n, part, start, end, end);
	check_find(recs, n, part, start, end, start - 1);
	for (size_t i = 0; i < n; i++) {
		check_find(recs, n, part, start, end, recs[i].start);
		check_find(recs, n, part, start, end, ptwalk_record_end(&recs[i]) - 1);
		check_text(&recs[i], !i);
	}
	return 0;
}
