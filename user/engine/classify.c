// SPDX-License-Identifier: GPL-2.0
#include "engine/classify.h"
#include "parse/record.h"

/* Kinds whose swap_offset pagemap reports as a swap entry (bit 62). */
static bool walk_swapped(const struct ptwalk_record *r)
{
	return r->kind != PTWALK_KIND_NONE && r->kind != PTWALK_KIND_PRESENT;
}

enum page_class classify_page(const struct ptwalk_record *r, uint64_t addr,
			      const struct pagemap_entry *pm,
			      unsigned int page_shift)
{
	bool walk_present = r->kind == PTWALK_KIND_PRESENT;

	/*
	 * A guard marker (ptwalk's PTWALK_F_GUARD) maps nothing: whatever
	 * pagemap says of it short of a frame (a marker swap entry before
	 * 6.15, its guard bit since) is the same fact.
	 */
	if (r->kind == PTWALK_KIND_MARKER && (r->flags & PTWALK_F_GUARD) &&
	    !pm->present)
		return CLASS_GUARD;

	if (walk_present && pm->present) {
		uint64_t pfn = ptwalk_pfn_at(r, addr, page_shift);

		if (pm->pfn == pfn)
			return CLASS_MATCH;
		/* Frame 0 is never a user page: pagemap zeroed it. */
		return pm->pfn == 0 ? CLASS_PFN_ZEROED : CLASS_MISMATCH;
	}
	if (walk_present && !pm->swapped)
		/* The generic walker skips VM_PFNMAP: holes, by design. */
		return r->vm_flags & PTWALK_VM_PFNMAP ? CLASS_PFNMAP_HIDDEN :
							CLASS_MISMATCH;
	if (!walk_present && !pm->present && !pm->swapped) {
		/*
		 * Non-present hugetlb entries (migration, hwpoison) show in
		 * pagemap as not present without the swap bit.
		 */
		if (!walk_swapped(r) || (r->vm_flags & PTWALK_VM_HUGETLB))
			return CLASS_NOT_PRESENT;
		return CLASS_MISMATCH;
	}
	if (walk_swapped(r) && pm->swapped) {
		if (pm->swap_type == 0 && pm->swap_offset == 0 &&
		    (r->swap_type || ptwalk_swap_offset_at(r, addr, page_shift)))
			return CLASS_PFN_ZEROED;
		if (pm->swap_type == r->swap_type &&
		    pm->swap_offset == ptwalk_swap_offset_at(r, addr, page_shift))
			return CLASS_SWAPPED;
	}
	return CLASS_MISMATCH;
}

enum page_class classify_reread(enum page_class first, enum page_class again,
				bool changed)
{
	if (first == CLASS_MISMATCH && (again != CLASS_MISMATCH || changed))
		return CLASS_TRANSIENT;
	return again;
}

bool pagemap_same_answer(const struct pagemap_entry *a,
			 const struct pagemap_entry *b)
{
	if (a->present != b->present || a->swapped != b->swapped)
		return false;
	if (a->present)
		return a->pfn == b->pfn;
	return !a->swapped || (a->swap_type == b->swap_type &&
			       a->swap_offset == b->swap_offset);
}
