/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of ptwalk's levels can hold a leaf on arm64, and what it maps: pure
 * functions of the granule (PAGE_SHIFT), the levels the kernel was built
 * with (CONFIG_PGTABLE_LEVELS) and the levels in use, so that every
 * configuration the kernel allows is tested in userspace
 * (tests/unit/test_arm64_levels.c) while arch_arm64.h asks the same
 * functions with the running kernel's constants and checks them at build
 * time against its PMD_SIZE, PUD_SIZE, CONT_*_SIZE and VA_BITS.
 *
 * arch/arm64/Kconfig's configurations (levels: ARM64_HW_PGTABLE_LEVELS()
 * of asm/pgtable-hwdef.h) and what the top table's entries are:
 *
 *	granule  VA bits  levels  the top table is
 *	4K       39       3       level 1: a PUD (1G blocks), the PGD itself
 *	4K       48       4       level 0 (the P4D folded)
 *	4K       52       5       level -1; 4 levels without LPA2 (6.9+)
 *	16K      36       2       level 2: the PMD (32M blocks) is the PGD
 *	16K      47       3       level 1: a PUD, never a block
 *	16K      48       4       level 0, 2 entries
 *	16K      52       4       level 0; 3 levels (47 bits) without LPA2
 *	64K      42       2       level 2: the PMD (512M blocks) is the PGD
 *	64K      48, 52   3       level 1: a PUD, never a block
 *
 * Linux makes blocks at level 2 (PMD) with every granule, at level 1 (PUD)
 * with 4K pages only (pud_sect_supported()), never at level 0 or -1,
 * even where LPA2 would allow them.  With two levels the PMD is folded
 * (asm-generic/pgtable-nopmd.h): the walk's PUD step reads the top-level
 * entry, a PMD's, through a pud_t whose pud_none() is always false, and a
 * block there is a PMD leaf of PMD_SIZE, decided at the PMD step.  A
 * level folded at run time (LPA2 configured, the CPU without it, 6.9+) is
 * the P4D (4K) or the PUD (16K) above a top table the walk reaches at the
 * folded level's step: no leaf moves, only the top table's index shifts.
 */
#ifndef PTWALK_ARM64_LEVELS_H
#define PTWALK_ARM64_LEVELS_H

#include <linux/types.h>
#include "ptwalk_abi.h"

/* The lowest address bit a table of hardware level @level (-1 to 3) takes. */
static inline unsigned int ptwalk_arm64_level_shift(unsigned int page_shift,
						    int level)
{
	return (page_shift - 3) * (4 - level) + 3;
}

/* Levels of tables for @va_bits of address: ARM64_HW_PGTABLE_LEVELS(). */
static inline unsigned int ptwalk_arm64_hw_levels(unsigned int page_shift,
						  unsigned int va_bits)
{
	return (va_bits - 4) / (page_shift - 3);
}

/*
 * The VA bits in use when a 52-bit kernel boots on a CPU that cannot use
 * them: 4K and 16K need LPA2 and fall back to VA_BITS_MIN (48, 47); 64K
 * (FEAT_LVA) keeps its three levels at 48 bits.
 */
static inline unsigned int ptwalk_arm64_va_bits_fallback(unsigned int page_shift,
							 unsigned int va_bits)
{
	if (va_bits <= 48)
		return va_bits;
	return page_shift == 14 ? 47 : 48;
}

/* Bytes a PMD block (level 2) maps: PMD_SIZE with any number of levels. */
static inline unsigned long ptwalk_arm64_pmd_leaf_size(unsigned int page_shift)
{
	return 1UL << ptwalk_arm64_level_shift(page_shift, 2);
}

/*
 * Bytes a leaf at the walk's PUD step maps, 0 where that step holds none:
 * level-1 blocks exist with 4K pages only, and with the PMD folded (two
 * levels) the PUD step's entry is the PMD's.
 */
static inline unsigned long ptwalk_arm64_pud_leaf_size(unsigned int page_shift,
						       unsigned int config_levels)
{
	if (page_shift != 12 || config_levels < 3)
		return 0;
	return 1UL << ptwalk_arm64_level_shift(page_shift, 1);
}

/* Entries in a PTE_CONT/PMD group: CONFIG_ARM64_CONT_{PTE,PMD}_SHIFT. */
static inline unsigned int ptwalk_arm64_cont_ptes(unsigned int page_shift)
{
	return page_shift == 16 ? 32 : page_shift == 14 ? 128 : 16;
}

static inline unsigned int ptwalk_arm64_cont_pmds(unsigned int page_shift)
{
	return page_shift == 12 ? 16 : 32;
}

/*
 * The level a block in the top table is named, PTWALK_LEVEL_NONE where
 * the top table holds none: the PMD with two levels, the PUD with three
 * and 4K pages.
 */
static inline enum ptwalk_level ptwalk_arm64_top_leaf(unsigned int page_shift,
						      unsigned int levels)
{
	if (levels == 2)
		return PTWALK_LEVEL_PMD;
	if (levels == 3 && ptwalk_arm64_pud_leaf_size(page_shift, levels))
		return PTWALK_LEVEL_PUD;
	return PTWALK_LEVEL_NONE;
}

/* One configuration as ptwalk reports it (geometry.c's line, vtop's). */
struct ptwalk_arm64_levels {
	unsigned int levels;		/* tables a walk goes through */
	unsigned long pte_size;		/* bytes of each leaf level, 0: none */
	unsigned long pmd_size;
	unsigned long pud_size;
	unsigned long cont_pte_size;	/* bytes of a contiguous group */
	unsigned long cont_pmd_size;
	unsigned int root_shift;	/* the top table's index: from this bit */
	enum ptwalk_level top_leaf;	/* a block in the top table */
};

/*
 * The kernel built for @config_levels levels of @page_shift pages, running
 * with @levels of them (fewer only with LPA2 configured and not in use).
 */
static inline struct ptwalk_arm64_levels
ptwalk_arm64_levels(unsigned int page_shift, unsigned int config_levels,
		    unsigned int levels)
{
	unsigned long pmd = ptwalk_arm64_pmd_leaf_size(page_shift);
	struct ptwalk_arm64_levels l = {
		.levels = levels,
		.pte_size = 1UL << page_shift,
		.pmd_size = pmd,
		.pud_size = ptwalk_arm64_pud_leaf_size(page_shift, config_levels),
		.cont_pte_size = ptwalk_arm64_cont_ptes(page_shift) << page_shift,
		.cont_pmd_size = ptwalk_arm64_cont_pmds(page_shift) * pmd,
		.root_shift = ptwalk_arm64_level_shift(page_shift, 4 - levels),
		.top_leaf = ptwalk_arm64_top_leaf(page_shift, levels),
	};

	return l;
}

#endif /* PTWALK_ARM64_LEVELS_H */
