/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the walker finds, in ptwalk's ABI terms: pure helpers that neither
 * walk nor lock (as fs/proc/task_mmu.c's pte_to_pagemap_entry() is apart
 * from its walk).  Entries are decoded under the table lock that guards
 * them, which the walker holds; their architecture's bits come from arch.h.
 */
#ifndef PTWALK_DECODE_H
#define PTWALK_DECODE_H

#include <linux/mm_types.h>
#include "ptwalk_abi.h"

/* The PTWALK_VM_* of @vma. */
u64 ptwalk_vm_flags(struct vm_area_struct *vma);

/*
 * The PTWALK_F_* entry bits this kernel never sets because its
 * architecture or configuration lacks them (PTWALK_ABSENT_FILE).
 */
u32 ptwalk_absent_flags(void);

/*
 * Whether the present leaf @entry of @level in @vma holds a reference on
 * its frame's struct page: the rule of vm_normal_page() and
 * vm_normal_page_pmd() (mm/memory.c) where pte_special() exists, as on
 * every architecture ptwalk supports.  A special entry (remap_pfn_range(),
 * the zero page, a PMD or PUD pfn map from 6.12 on) does not, nor a PMD or
 * PUD leaf of a VM_PFNMAP mapping before 6.12 gave those the bit; a
 * non-special PTE does, even in a VM_PFNMAP mapping (a copy-on-write
 * copy).  Only such a page's compound state, pin count, node and folio
 * may be read: the frame of any other may be a page some other owner is
 * freeing or reusing.
 */
bool ptwalk_entry_holds_page(struct vm_area_struct *vma, pte_t entry,
			     enum ptwalk_level level);

/*
 * The flags that depend on the frame rather than on the entry's bits, in
 * @node the frame's NUMA node and in @folio_shift log2 of its folio's
 * bytes, read from its struct page when @holds_page
 * (ptwalk_entry_holds_page()); else PTWALK_NODE_NONE, 0 and only
 * PTWALK_F_PFN_VALID and PTWALK_F_ZERO_PAGE, which read no page.
 * Consecutive entries with equal bits share a record only if these agree.
 */
u32 ptwalk_frame_flags(u64 pfn, enum ptwalk_level level, bool holds_page,
		       s32 *node, u8 *folio_shift);

/*
 * Fills in @rec's level, kind, pfn, flags (added to those it has), memtype
 * and swap fields, and @node and @folio_shift (see ptwalk_frame_flags()),
 * from @entry, a leaf or non-present entry of @level read as a PTE
 * (arch.h's ptwalk_pmd_pte()/ptwalk_pud_pte() for the upper levels) in
 * @vma (NULL: outside any VMA).  @leaf_pfn is the leaf's first frame,
 * decoded with its level's pXd_pfn(); @addr is a page the leaf maps, and
 * pfn and swap_offset are those of that page.  An empty entry leaves @rec
 * as it is, so @rec starts as an empty range (pfn PTWALK_PFN_NONE), @node
 * as PTWALK_NODE_NONE and @folio_shift as 0.
 */
void ptwalk_decode_entry(struct ptwalk_record *rec, s32 *node,
			 u8 *folio_shift, struct vm_area_struct *vma,
			 pte_t entry, u64 leaf_pfn, enum ptwalk_level level,
			 unsigned long addr);

#endif /* PTWALK_DECODE_H */
