// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders: VMA flags, frame flags and the leaf or non-present entry that
 * maps a page, into the fields of a ptwalk_record.  The architecture's
 * entry bits are arch.h's; what is decoded here is the same on every
 * architecture.
 */
#include <linux/hugetlb.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include "arch.h"
#include "compat.h"
#include "decode.h"

static const struct {
	unsigned long vm;
	u64 ptwalk;
} vm_flag_map[] = {
	{ VM_READ, PTWALK_VM_READ },
	{ VM_WRITE, PTWALK_VM_WRITE },
	{ VM_EXEC, PTWALK_VM_EXEC },
	{ VM_SHARED, PTWALK_VM_SHARED },
	{ VM_MAYSHARE, PTWALK_VM_MAYSHARE },
	{ VM_IO, PTWALK_VM_IO },
	{ VM_PFNMAP, PTWALK_VM_PFNMAP },
	{ VM_MIXEDMAP, PTWALK_VM_MIXEDMAP },
	{ VM_HUGETLB, PTWALK_VM_HUGETLB },
	{ VM_LOCKED, PTWALK_VM_LOCKED },
	{ VM_HUGEPAGE, PTWALK_VM_HUGEPAGE },
	{ VM_NOHUGEPAGE, PTWALK_VM_NOHUGEPAGE },
	{ VM_DONTDUMP, PTWALK_VM_DONTDUMP },
	{ VM_SOFTDIRTY, PTWALK_VM_SOFTDIRTY },
	{ VM_GROWSDOWN, PTWALK_VM_GROWSDOWN },
	{ VM_DONTEXPAND, PTWALK_VM_DONTEXPAND },
	{ VM_UFFD_WP, PTWALK_VM_UFFD_WP },
};

u64 ptwalk_vm_flags(struct vm_area_struct *vma)
{
	u64 flags = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vm_flag_map); i++)
		if (vm_flag_map[i].vm && (vma->vm_flags & vm_flag_map[i].vm))
			flags |= vm_flag_map[i].ptwalk;
	if (vma_is_anonymous(vma))
		flags |= PTWALK_VM_ANON;
	return flags;
}

u32 ptwalk_absent_flags(void)
{
	u32 absent = PTWALK_ARCH_ABSENT_FLAGS;

	if (!ptwalk_have_soft_dirty())
		absent |= PTWALK_F_SOFT_DIRTY;
	if (!ptwalk_have_uffd_wp())
		absent |= PTWALK_F_UFFD_WP;
	if (!PTWALK_HAVE_GUARD_MARKER)
		absent |= PTWALK_F_GUARD;
	return absent;
}

/* Index of the page at @addr inside the leaf of @level that maps it. */
static u64 leaf_index(unsigned long addr, enum ptwalk_level level)
{
	switch (level) {
	case PTWALK_LEVEL_PUD:
		return (addr & ~PUD_MASK) >> PAGE_SHIFT;
	case PTWALK_LEVEL_PMD:
		return (addr & ~PMD_MASK) >> PAGE_SHIFT;
	default:
		return 0;
	}
}

/*
 * A private anonymous VMA maps at PMD level either an anonymous THP or the
 * huge zero page, which is the only one that is not PageAnon().  The
 * kernel's own test, is_huge_zero_pmd(), uses a symbol it does not export.
 * Newer kernels ("mm/huge_memory: mark PMD mappings of the huge zero folio
 * special", 7.2 here) mark its PMD special, the only special PMD such a
 * VMA can hold: then it is known without reading the page, which a
 * special entry does not hold (decode.h).
 */
static bool is_huge_zero(struct vm_area_struct *vma, pte_t entry, u64 pfn,
			 bool holds_page)
{
	if (!vma || is_vm_hugetlb_page(vma) || !vma_is_anonymous(vma) ||
	    pte_write(entry) || !pfn_valid(pfn))
		return false;
	if (!holds_page)
		return ptwalk_leaf_special(entry, PTWALK_LEVEL_PMD);
	return !PageAnon(pfn_to_page(pfn));
}

bool ptwalk_entry_holds_page(struct vm_area_struct *vma, pte_t entry,
			     enum ptwalk_level level)
{
	if (!vma || ptwalk_leaf_special(entry, level))
		return false;
	return level == PTWALK_LEVEL_PTE || !(vma->vm_flags & VM_PFNMAP);
}

u32 ptwalk_frame_flags(u64 pfn, enum ptwalk_level level, bool holds_page,
		       s32 *node, u8 *folio_shift)
{
	u32 flags = 0;

	*node = PTWALK_NODE_NONE;
	*folio_shift = 0;
	if (pfn_valid(pfn))
		flags |= PTWALK_F_PFN_VALID;
	if (pfn_valid(pfn) && holds_page) {
		struct page *page = pfn_to_page(pfn);

		/*
		 * A struct page never initialised (poisoned: all ones, so
		 * PG_head and the compound_head bit read as set) has no
		 * compound state, node or pin count to read, and with
		 * DEBUG_VM the page flag tests assert on it: test it first.
		 */
		if (PagePoisoned(page))
			return flags;
		/*
		 * The entry is read under its page table lock, so the page
		 * stays mapped and cannot be freed; a split racing with us
		 * only makes this hint stale, as pagemap's own flags are.
		 */
		if (PageCompound(page))
			flags |= PTWALK_F_COMPOUND;
		/*
		 * The folio's size, from its head page's order, read with no
		 * reference for the same reason: the entry keeps the frame
		 * mapped, so the memory is a page of some order; a split
		 * between the two reads gives the order of the page as it
		 * is now (0 for a tail that stopped being one), as
		 * pagemap's KPF_THP would.
		 */
		*folio_shift = PAGE_SHIFT +
			       compound_order(compound_head(page));
		/*
		 * The pin count of the page's folio: a pin is taken and
		 * dropped under no page table lock, so this is the state at
		 * the moment of the read, as for any pin reader.
		 */
		if (ptwalk_page_maybe_dma_pinned(page))
			flags |= PTWALK_F_DMA_PINNED;
		*node = page_to_nid(page);
	}
	if (level == PTWALK_LEVEL_PTE && is_zero_pfn(pfn))
		flags |= PTWALK_F_ZERO_PAGE;
	return flags;
}

static u32 present_flags(struct vm_area_struct *vma, pte_t entry,
			 enum ptwalk_level level, u64 leaf_pfn, s32 *node,
			 u8 *folio_shift)
{
	bool holds_page = ptwalk_entry_holds_page(vma, entry, level);
	u32 flags = PTWALK_F_PRESENT |
		    ptwalk_frame_flags(leaf_pfn, level, holds_page, node,
				       folio_shift) |
		    ptwalk_arch_present_flags(entry);

	if (pte_soft_dirty(entry))
		flags |= PTWALK_F_SOFT_DIRTY;
	if (pte_uffd_wp(entry))
		flags |= PTWALK_F_UFFD_WP;
	if (ptwalk_leaf_special(entry, level))
		flags |= PTWALK_F_SPECIAL;
	if (level == PTWALK_LEVEL_PMD &&
	    is_huge_zero(vma, entry, leaf_pfn, holds_page))
		flags |= PTWALK_F_HUGE_ZERO;
	return flags;
}

/* A non-present, non-empty entry: swap, migration, marker, ... */
static void decode_swap(struct ptwalk_record *rec, pte_t entry, u64 index)
{
	ptwalk_swp_t swp;

	if (pte_swp_soft_dirty(entry))
		rec->flags |= PTWALK_F_SOFT_DIRTY;
	if (pte_swp_uffd_wp(entry))
		rec->flags |= PTWALK_F_UFFD_WP;
	swp = ptwalk_pte_to_swp(entry);
	rec->swap_type = swp_type(swp);
	if (ptwalk_swp_is_marker(swp)) {
		rec->kind = PTWALK_KIND_MARKER;
		if (ptwalk_swp_is_guard(swp))
			rec->flags |= PTWALK_F_GUARD;
		rec->swap_offset = swp_offset(swp);
		return;
	}
	/* Same offset as pagemap reports: the PFN for PFN swap entries. */
	rec->swap_offset = ptwalk_swp_offset_pfn(swp) + index;

	if (ptwalk_swp_is_swap(swp)) {
		rec->kind = PTWALK_KIND_SWAP;
	} else if (ptwalk_swp_is_migration(swp)) {
		rec->kind = PTWALK_KIND_MIGRATION;
		if (ptwalk_swp_is_migration_write(swp))
			rec->flags |= PTWALK_F_MIGRATION_WRITE;
	} else if (ptwalk_swp_is_device_private(swp)) {
		rec->kind = PTWALK_KIND_DEVICE_PRIVATE;
	} else if (ptwalk_swp_is_device_exclusive(swp)) {
		rec->kind = PTWALK_KIND_DEVICE_EXCLUSIVE;
	} else if (ptwalk_swp_is_hwpoison(swp)) {
		rec->kind = PTWALK_KIND_HWPOISON;
	} else {
		rec->kind = PTWALK_KIND_UNKNOWN;
	}
}

void ptwalk_decode_entry(struct ptwalk_record *rec, s32 *node,
			 u8 *folio_shift, struct vm_area_struct *vma,
			 pte_t entry, u64 leaf_pfn, enum ptwalk_level level,
			 unsigned long addr)
{
	u64 index = leaf_index(addr, level);

	if (pte_none(entry))
		return;
	rec->level = level;
	if (pte_present(entry)) {
		rec->kind = PTWALK_KIND_PRESENT;
		rec->pfn = leaf_pfn + index;
		rec->flags |= present_flags(vma, entry, level, leaf_pfn, node,
					    folio_shift);
		rec->memtype = ptwalk_arch_memtype(entry, level);
	} else {
		decode_swap(rec, entry, index);
	}
}
