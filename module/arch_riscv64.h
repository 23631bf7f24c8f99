/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64 page table entries as ptwalk reads them (the interface is in
 * arch.h; include that, not this).  Sv39, Sv48 and Sv57: the kernel picks
 * the mode at boot (no4lvl, no5lvl) and folds the levels it does not use
 * at run time.  4K pages; leaves at every level (PTE 4K, PMD 2M, PUD 1G);
 * a leaf is an entry with any of R, W, X (_PAGE_LEAF), a table one with
 * V alone.  PROT_NONE clears V and sets the software _PAGE_PROT_NONE
 * (which is G, never set in a user entry) and keeps R.  Svnapot's 64K
 * NAPOT PTEs (bit 63, N) are 16 equal entries each naming the group's
 * first frame, the PPN's low bits 0b1000: the kernel's pte_pfn() gives
 * that first frame, ptwalk_arch_pte_pfn() the page's own.  Svpbmt's PBMT
 * (bits 62:61) is the memory type.  The bits are read through the
 * kernel's own pte_*() accessors and _PAGE_* constants wherever it has
 * them (some of which are run-time values, patched at load by the
 * kernel's alternatives: _PAGE_MTMASK and its friends, has_svnapot()).
 */
#ifndef PTWALK_ARCH_RISCV64_H
#define PTWALK_ARCH_RISCV64_H

#include <linux/pgtable.h>
#include "arch_contig.h"
#include "ptwalk_abi.h"

/*
 * riscv's p4d_offset() and pud_offset() are functions of
 * arch/riscv/mm/pgtable.c that the kernel does not export (6.12, 7.2):
 * the same lookups, from the inlines they use.  A level folded at boot
 * (Sv48: the P4D; Sv39: the P4D and the PUD) is its parent entry itself.
 */
static inline p4d_t *ptwalk_p4d_offset(pgd_t *pgd, unsigned long addr)
{
	if (pgtable_l5_enabled)
		return pgd_pgtable(READ_ONCE(*pgd)) + p4d_index(addr);
	return (p4d_t *)pgd;
}

static inline pud_t *ptwalk_pud_offset(p4d_t *p4d, unsigned long addr)
{
	if (pgtable_l4_enabled)
		return p4d_pgtable(READ_ONCE(*p4d)) + pud_index(addr);
	return (pud_t *)p4d;
}

/*
 * A leaf is an entry with R, W or X: present, PROT_NONE (R kept) or
 * invalidated for a THP split (V cleared, the rest kept).  A swap or
 * migration entry has none of them (its type starts at bit 7): the walker
 * sends a non-present entry to its leaf hook whatever this says of it.
 * The kernel's pmd_leaf()/pud_leaf() want the entry present as well.
 */
static inline bool ptwalk_pud_is_leaf(pud_t pud)
{
	return pud_val(pud) & _PAGE_LEAF;
}

static inline bool ptwalk_pmd_is_leaf(pmd_t pmd)
{
	return pmd_val(pmd) & _PAGE_LEAF;
}

/* Every level's leaf keeps its bits where a PTE has them. */
static inline pte_t ptwalk_pmd_pte(pmd_t pmd)
{
	return __pte(pmd_val(pmd));
}

static inline pte_t ptwalk_pud_pte(pud_t pud)
{
	return __pte(pud_val(pud));
}

/*
 * The frame a PTE maps at @addr.  A NAPOT entry's PPN is the group's first
 * frame with the group's size encoded in its low bits; pte_pfn() clears
 * them; the page's own frame is its index in the group on top.
 */
static inline u64 ptwalk_arch_pte_pfn(pte_t pte, unsigned long addr)
{
	u64 pfn = pte_pfn(pte);

	if (pte_present(pte) && pte_napot(pte))
		pfn += (addr & (napot_cont_size(napot_cont_order(pte)) - 1)) >>
		       PAGE_SHIFT;
	return pfn;
}

/*
 * The bits outside the PPN field (_PAGE_PFN_MASK): a NAPOT entry's size
 * encoding is inside it, equal in the whole group.
 */
static inline u64 ptwalk_pte_attrs(pte_t pte)
{
	return pte_val(pte) & ~_PAGE_PFN_MASK;
}

static inline u32 ptwalk_arch_present_flags(pte_t entry)
{
	u32 flags = 0;

	if (pte_write(entry))
		flags |= PTWALK_F_WRITE;
	if (pte_user(entry))
		flags |= PTWALK_F_USER;
	if (pte_dirty(entry))
		flags |= PTWALK_F_DIRTY;
	if (pte_young(entry))
		flags |= PTWALK_F_ACCESSED;
	if (!pte_exec(entry))
		flags |= PTWALK_F_NX;
	/* pte_protnone() exists only with NUMA balancing: its test */
	if ((pte_val(entry) & (_PAGE_PRESENT | _PAGE_PROT_NONE)) ==
	    _PAGE_PROT_NONE)
		flags |= PTWALK_F_PROTNONE;
	if (pte_napot(entry))
		flags |= PTWALK_F_CONT;
	return flags;
}

/*
 * Sv57, Sv48 or Sv39, chosen at boot: pgtable_l5_enabled and
 * pgtable_l4_enabled are the kernel's (exported) answers.
 */
static inline unsigned int ptwalk_pgtable_levels(void)
{
	if (pgtable_l5_enabled)
		return 5;
	return pgtable_l4_enabled ? 4 : 3;
}

/* 1G leaves in every mode (in Sv39 the PUD is the folded top level). */
static inline unsigned long ptwalk_arch_pud_leaf_size(void)
{
	return PUD_SIZE;
}

/* Svnapot's one size Linux uses, 64K, where the CPU has the extension. */
static inline unsigned long ptwalk_arch_cont_pte_size(void)
{
	return has_svnapot() ? napot_cont_size(NAPOT_CONT64KB_ORDER) : 0;
}

static inline unsigned long ptwalk_arch_cont_pmd_size(void)
{
	return 0;
}

/* Soft-dirty and uffd-wp follow the kernel's configuration (decode.c). */
#define PTWALK_ARCH_ABSENT_FLAGS	0U

/*
 * Svpbmt's memory type (PBMT, bits 62:61: PMA, NC, IO), the same in a
 * PTE, PMD or PUD leaf.  The kernel's _PAGE_MTMASK, _PAGE_NOCACHE and
 * _PAGE_IO are run-time values (Svpbmt's bits, T-Head's own encoding, or
 * 0 on a CPU with neither): without them the PMAs alone decide, PMA.
 */
static inline u8 ptwalk_arch_memtype(pte_t entry, enum ptwalk_level level)
{
	unsigned long mask = _PAGE_MTMASK;
	unsigned long bits = pte_val(entry) & mask;

	if (!mask)
		return PTWALK_MEMTYPE_PMA;
	if (bits == _PAGE_IO)
		return PTWALK_MEMTYPE_IO;
	if (bits == _PAGE_NOCACHE)
		return PTWALK_MEMTYPE_NC;
	return PTWALK_MEMTYPE_PMA;
}

#endif /* PTWALK_ARCH_RISCV64_H */
