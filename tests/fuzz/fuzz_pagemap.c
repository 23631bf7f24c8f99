// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/pagemap entries (pagemap_decode) and the verdict on a page
 * (classify_page).  The input is a ptwalk record, then pagemap words, one
 * per page of the record.  Oracles: the fields put back together give the
 * word again (Documentation/admin-guide/mm/pagemap.rst: bits 0-54 the
 * frame, or swap type in 0-4 and offset in 5-54; 55 soft-dirty, 56
 * exclusive, 57 uffd-wp, 58 guard, 61 file, 62 swap, 63 present; bits 59-60
 * unused); the class of a page is what classify.h says it means.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include "fuzz.h"
#include "engine/classify.h"
#include "parse/pagemap.h"
#include "io/ptwalk_client.h"

#define FRAME_BITS	((1ULL << 55) - 1)
#define UNUSED_BITS	(3ULL << 59)

static uint64_t encode(const struct pagemap_entry *e)
{
	uint64_t w = (e->present ? PM_PRESENT : 0) | (e->swapped ? PM_SWAP : 0) |
		     (e->soft_dirty ? PM_SOFT_DIRTY : 0) |
		     (e->exclusive ? PM_MMAP_EXCLUSIVE : 0) |
		     (e->uffd_wp ? PM_UFFD_WP : 0) | (e->guard ? PM_GUARD_REGION : 0) |
		     (e->file ? PM_FILE : 0);

	if (e->present)
		w |= e->pfn;
	else if (e->swapped)
		w |= e->swap_offset << 5 | e->swap_type;
	return w;
}

static void check_decode(uint64_t raw, const struct pagemap_entry *e)
{
	uint64_t want = raw & ~UNUSED_BITS;

	/* without present or swap, the frame bits mean nothing */
	if (!(raw & (PM_PRESENT | PM_SWAP)))
		want &= ~FRAME_BITS;
	/* a present entry is no swap entry (never both from the kernel) */
	if (raw & PM_PRESENT)
		want &= ~PM_SWAP;
	FUZZ_CHECK(encode(e) == want, "0x%016" PRIx64 " decodes to 0x%016" PRIx64,
		   raw, encode(e));
	FUZZ_CHECK(e->pfn <= FRAME_BITS && e->swap_type < 32 &&
		   e->swap_offset < 1ULL << 50, "a field out of range");
	FUZZ_CHECK(e->present ? !e->swap_type && !e->swap_offset : !e->pfn,
		   "frame and swap fields both set");
}

static void check_class(const struct ptwalk_record *r, uint64_t addr,
			const struct pagemap_entry *pm, enum page_class c)
{
	bool walk_present = r->kind == PTWALK_KIND_PRESENT;
	bool walk_swapped = r->kind != PTWALK_KIND_NONE && !walk_present;

	FUZZ_CHECK(c < NR_CLASSES && c != CLASS_TRANSIENT,
		   "class %d on a first read", c);
	/* both sides map the same frame: nothing else is a match */
	FUZZ_CHECK((c == CLASS_MATCH) == (walk_present && pm->present &&
					  pm->pfn == ptwalk_pfn_at(r, addr, 12)),
		   "match vs frames");
	if (c == CLASS_NOT_PRESENT)
		FUZZ_CHECK(!walk_present && !pm->present && !pm->swapped,
			   "not present with something mapped");
	if (c == CLASS_PFNMAP_HIDDEN)
		FUZZ_CHECK(walk_present && !pm->present && !pm->swapped &&
			   (r->vm_flags & PTWALK_VM_PFNMAP), "pfnmap_hidden");
	if (c == CLASS_SWAPPED)
		FUZZ_CHECK(walk_swapped && pm->swapped && !pm->present &&
			   pm->swap_type == r->swap_type &&
			   pm->swap_offset == ptwalk_swap_offset_at(r, addr, 12),
			   "swapped without the same swap entry");
	if (c == CLASS_PFN_ZEROED)
		FUZZ_CHECK((walk_present && pm->present && !pm->pfn) ||
			   (walk_swapped && pm->swapped && !pm->swap_type &&
			    !pm->swap_offset),
			   "pfn_zeroed without a zero on pagemap's side");
	/* nothing on either side is never a mismatch */
	if (r->kind == PTWALK_KIND_NONE && !pm->present && !pm->swapped)
		FUZZ_CHECK(c == CLASS_NOT_PRESENT, "hole is %s",
			   page_class_name(c));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct ptwalk_record r;
	const uint8_t *rec = fuzz_take(&in, sizeof(r));

	if (!rec)
		return 0;
	memcpy(&r, rec, sizeof(r));
	r.start &= ~0xfffULL;
	for (uint64_t k = 0; in.n; k++) {
		uint64_t raw = fuzz_u64(&in), addr = r.start + k * 4096;
		struct pagemap_entry pm;

		pagemap_decode(raw, &pm);
		check_decode(raw, &pm);
		if (k < r.nr_pages)
			check_class(&r, addr, &pm, classify_page(&r, addr, &pm, 12));
	}
	return 0;
}
