/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 page table entries as ptwalk reads them (the interface is in
 * arch.h; include that, not this).  Any granule (4K, 16K, 64K: what is
 * granule-specific comes from the kernel's own constants, PAGE_SIZE,
 * PMD_SIZE, CONT_PTE_SIZE, ...).  A table entry has bits
 * [1:0] = 0b11, a block (PMD/PUD leaf) 0b01; PROT_NONE clears PTE_VALID
 * and sets the software PTE_PROT_NONE; "dirty" is either the software
 * PTE_DIRTY or hardware-managed (writable, DBM, and PTE_RDONLY clear).
 * The bits are read through the kernel's own pte_*() accessors wherever
 * it has them: pte_write() tests PTE_WRITE (DBM), pte_user() PTE_USER
 * (AP[1]), pte_young() PTE_AF, pte_user_exec() PTE_UXN, pte_special()
 * PTE_SPECIAL, pte_cont() PTE_CONT.
 */
#ifndef PTWALK_ARCH_ARM64_H
#define PTWALK_ARCH_ARM64_H

#include <linux/build_bug.h>
#include <linux/pgtable.h>
#include "arm64_levels.h"
#include "compat.h"
#include "arch_contig.h"
#include "ptwalk_abi.h"

/* The kernel's own lookups (riscv64 needs its own: arch_riscv64.h). */
#define ptwalk_p4d_offset(pgd, addr)	p4d_offset(pgd, addr)
#define ptwalk_pud_offset(p4d, addr)	pud_offset(p4d, addr)

/*
 * pmd_leaf()/pud_leaf() require the entry to be present, and pmd_bad()/
 * pud_bad() are true for blocks: a non-empty entry without the table bit
 * is a leaf, present (a block), PROT_NONE or not present (a THP migration
 * entry, whose low two bits are 0 too).
 */
/*
 * The table bit is bit 1, what PXD_TYPE_TABLE (0b11) has and
 * PXD_TYPE_SECT (0b01) has not: spelt so because PUD_TABLE_BIT and
 * PMD_TABLE_BIT are gone from the newest kernels ("arm64/mm: Drop
 * PXD_TABLE_BIT"), while the TYPE constants are in every release.
 */
#define PTWALK_PUD_TABLE_BIT	(PUD_TYPE_TABLE & ~PUD_TYPE_SECT)
#define PTWALK_PMD_TABLE_BIT	(PMD_TYPE_TABLE & ~PMD_TYPE_SECT)

/*
 * Bytes a leaf at the walk's PUD step maps, 0 where it holds none
 * (arm64_levels.h): 1G with 4K pages; none with 16K or 64K pages, nor with
 * two levels, where the PMD is folded and the PUD step's pud_t is the
 * top-level entry, a PMD's (its pud_none() is always false and a 32M or
 * 512M block there is a PMD leaf).  Checked here against the kernel's own
 * constants, so that the unit tests of arm64_levels.h test what this
 * kernel does.
 */
static inline unsigned long ptwalk_arch_pud_leaf_size(void)
{
	unsigned long pud = ptwalk_arm64_pud_leaf_size(PAGE_SHIFT,
						       CONFIG_PGTABLE_LEVELS);

	BUILD_BUG_ON(ptwalk_arm64_hw_levels(PAGE_SHIFT, VA_BITS) !=
		     CONFIG_PGTABLE_LEVELS);
	BUILD_BUG_ON(ptwalk_arm64_va_bits_fallback(PAGE_SHIFT, VA_BITS) !=
		     VA_BITS_MIN);
	BUILD_BUG_ON(ptwalk_arm64_pmd_leaf_size(PAGE_SHIFT) != PMD_SIZE);
	BUILD_BUG_ON(pud && pud != PUD_SIZE);
	BUILD_BUG_ON(ptwalk_arm64_cont_ptes(PAGE_SHIFT) != CONT_PTES);
	BUILD_BUG_ON(ptwalk_arm64_cont_pmds(PAGE_SHIFT) != CONT_PMDS);
	return pud;
}

static inline bool ptwalk_pud_is_leaf(pud_t pud)
{
	return ptwalk_arch_pud_leaf_size() && !pud_none(pud) &&
	       !(pud_val(pud) & PTWALK_PUD_TABLE_BIT);
}

static inline bool ptwalk_pmd_is_leaf(pmd_t pmd)
{
	return !pmd_none(pmd) && !(pmd_val(pmd) & PTWALK_PMD_TABLE_BIT);
}

/* Blocks keep their attributes where a page (PTE) entry has them. */
static inline pte_t ptwalk_pmd_pte(pmd_t pmd)
{
	return pmd_pte(pmd);
}

static inline pte_t ptwalk_pud_pte(pud_t pud)
{
	return pud_pte(pud);
}

/* Each entry of a contiguous group holds its own frame. */
static inline u64 ptwalk_arch_pte_pfn(pte_t pte, unsigned long addr)
{
	return pte_pfn(pte);
}

/*
 * The frame's bits are where pfn_pte() puts them: PTE_ADDR_MASK until the
 * LPA2 series moved and split them (PTE_ADDR_LOW/HIGH, 6.9), and with 64K
 * pages and 52-bit addresses the high bits sit at [15:12].  Asking the
 * kernel to place the entry's own frame covers every layout.
 */
static inline u64 ptwalk_pte_attrs(pte_t pte)
{
	return pte_val(pte) & ~pte_val(pfn_pte(pte_pfn(pte), __pgprot(0)));
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
	/* UXN: the user may not execute, as x86's NX */
	if (!pte_user_exec(entry))
		flags |= PTWALK_F_NX;
	if (ptwalk_arm64_pte_protnone(entry))
		flags |= PTWALK_F_PROTNONE;
	if (pte_cont(entry))
		flags |= PTWALK_F_CONT;
	return flags;
}

/* Fixed at build time before 6.9, chosen at boot since (compat.h). */
static inline unsigned int ptwalk_pgtable_levels(void)
{
	return ptwalk_arm64_pgtable_levels();
}

/* PTE_CONT groups: the kernel's own sizes for its granule. */
static inline unsigned long ptwalk_arch_cont_pte_size(void)
{
	return CONT_PTE_SIZE;
}

static inline unsigned long ptwalk_arch_cont_pmd_size(void)
{
	return CONT_PMD_SIZE;
}

/* Soft-dirty and uffd-wp follow the kernel's configuration (decode.c). */
#define PTWALK_ARCH_ABSENT_FLAGS	0U

/*
 * arm64's memory type: the entry's AttrIndx (bits [4:2], where page and
 * block entries alike keep it) selects one of the MAIR_EL1 slots the
 * kernel programs at boot, named by its MT_* (asm/memory.h): the slot
 * numbers are the kernel's, so they are read through its own constants.
 * A slot the kernel does not use is no memory type (null).
 */
static inline u8 ptwalk_arch_memtype(pte_t entry, enum ptwalk_level level)
{
	static const struct {
		pteval_t attrindx;
		u8 memtype;
	} slots[] = {
		{ PTE_ATTRINDX(MT_NORMAL), PTWALK_MEMTYPE_NORMAL },
		{ PTE_ATTRINDX(MT_NORMAL_TAGGED), PTWALK_MEMTYPE_NORMAL_TAGGED },
		{ PTE_ATTRINDX(MT_NORMAL_NC), PTWALK_MEMTYPE_NORMAL_NC },
		{ PTE_ATTRINDX(MT_DEVICE_nGnRnE), PTWALK_MEMTYPE_DEVICE_NGNRNE },
		{ PTE_ATTRINDX(MT_DEVICE_nGnRE), PTWALK_MEMTYPE_DEVICE_NGNRE },
	};
	pteval_t attrindx = pte_val(entry) & PTE_ATTRINDX_MASK;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(slots); i++)
		if (slots[i].attrindx == attrindx)
			return slots[i].memtype;
	return PTWALK_MEMTYPE_NONE;
}

#endif /* PTWALK_ARCH_ARM64_H */
