// SPDX-License-Identifier: GPL-2.0
/*
 * module/arm64_levels.h, the level naming arch_arm64.h asks (and checks
 * at build time against the kernel's PMD_SIZE, PUD_SIZE, CONT_*, VA_BITS),
 * over every (granule, VA bits) configuration arch/arm64/Kconfig allows,
 * LPA2's in use and folded at boot: which levels hold leaves and what
 * they map, and where vtop notes each level's entry (ptwalk_names.h).
 * The expected values are written out, from the Arm ARM's translation
 * tables and Kconfig, not computed.
 */
#include <stddef.h>
#include <stdint.h>
#include "unit.h"
#include "../../module/arm64_levels.h"
#include "../../module/ptwalk_names.h"

#define K	(1UL << 10)
#define M	(1UL << 20)
#define G	(1UL << 30)

#define F_P4D	(1U << PTWALK_VTOP_P4D)
#define F_PUD	(1U << PTWALK_VTOP_PUD)
#define F_PMD	(1U << PTWALK_VTOP_PMD)

struct config {
	const char *name;
	unsigned int page_shift, va_bits;
	int lpa2;			/* 52 bits: the CPU has LPA2 (or LVA) */
	unsigned int config_levels;	/* CONFIG_PGTABLE_LEVELS */
	unsigned int levels;		/* in use */
	unsigned long pmd, pud, cont_pte, cont_pmd;
	unsigned int root_shift;
	enum ptwalk_level top_leaf;
	unsigned int folded;		/* enum ptwalk_vtop_level bits */
};

static const struct config configs[] = {
	{ "4K/39", 12, 39, 0, 3, 3, 2 * M, 1 * G, 64 * K, 32 * M, 30,
	  PTWALK_LEVEL_PUD, F_P4D | F_PUD },
	{ "4K/48", 12, 48, 0, 4, 4, 2 * M, 1 * G, 64 * K, 32 * M, 39,
	  PTWALK_LEVEL_NONE, F_P4D },
	{ "4K/52 LPA2", 12, 52, 1, 5, 5, 2 * M, 1 * G, 64 * K, 32 * M, 48,
	  PTWALK_LEVEL_NONE, 0 },
	{ "4K/52 without LPA2", 12, 52, 0, 5, 4, 2 * M, 1 * G, 64 * K, 32 * M,
	  39, PTWALK_LEVEL_NONE, F_P4D },
	{ "16K/36", 14, 36, 0, 2, 2, 32 * M, 0, 2 * M, 1 * G, 25,
	  PTWALK_LEVEL_PMD, F_P4D | F_PUD | F_PMD },
	{ "16K/47", 14, 47, 0, 3, 3, 32 * M, 0, 2 * M, 1 * G, 36,
	  PTWALK_LEVEL_NONE, F_P4D | F_PUD },
	{ "16K/48", 14, 48, 0, 4, 4, 32 * M, 0, 2 * M, 1 * G, 47,
	  PTWALK_LEVEL_NONE, F_P4D },
	{ "16K/52 LPA2", 14, 52, 1, 4, 4, 32 * M, 0, 2 * M, 1 * G, 47,
	  PTWALK_LEVEL_NONE, F_P4D },
	{ "16K/52 without LPA2", 14, 52, 0, 4, 3, 32 * M, 0, 2 * M, 1 * G, 36,
	  PTWALK_LEVEL_NONE, F_P4D | F_PUD },
	{ "64K/42", 16, 42, 0, 2, 2, 512 * M, 0, 2 * M, 16 * G, 29,
	  PTWALK_LEVEL_PMD, F_P4D | F_PUD | F_PMD },
	{ "64K/48", 16, 48, 0, 3, 3, 512 * M, 0, 2 * M, 16 * G, 42,
	  PTWALK_LEVEL_NONE, F_P4D | F_PUD },
	{ "64K/52 LVA", 16, 52, 1, 3, 3, 512 * M, 0, 2 * M, 16 * G, 42,
	  PTWALK_LEVEL_NONE, F_P4D | F_PUD },
	{ "64K/52 without LVA", 16, 52, 0, 3, 3, 512 * M, 0, 2 * M, 16 * G, 42,
	  PTWALK_LEVEL_NONE, F_P4D | F_PUD },
};

#define NR_CONFIGS	(sizeof(configs) / sizeof(configs[0]))

static unsigned int in_use(const struct config *c)
{
	unsigned int va = c->lpa2 ? c->va_bits :
		ptwalk_arm64_va_bits_fallback(c->page_shift, c->va_bits);

	return ptwalk_arm64_hw_levels(c->page_shift, va);
}

/*
 * check(c, l) for every configuration c, l its levels; the name of each
 * goes first, so that a failure says which.
 */
static void each_config(void (*check)(const struct config *c,
				      const struct ptwalk_arm64_levels *l))
{
	for (size_t i = 0; i < NR_CONFIGS; i++) {
		const struct config *c = &configs[i];
		struct ptwalk_arm64_levels l =
			ptwalk_arm64_levels(c->page_shift, c->config_levels,
					    c->levels);

		print_message("# %s\n", c->name);
		check(c, &l);
	}
}

/* Kconfig's PGTABLE_LEVELS, and the levels left when LPA2 is not there. */
static void levels_of_each_configuration(void **state)
{
	(void)state;
	for (size_t i = 0; i < NR_CONFIGS; i++) {
		const struct config *c = &configs[i];

		print_message("# %s\n", c->name);
		assert_int_equal(ptwalk_arm64_hw_levels(c->page_shift, c->va_bits),
				 c->config_levels);
		assert_int_equal(in_use(c), c->levels);
	}
}

/* The geometry line's sizes: pud 0 wherever the PUD step holds no leaf. */
static void sizes_of(const struct config *c,
		     const struct ptwalk_arm64_levels *l)
{
	assert_int_equal(l->levels, c->levels);
	assert_int_equal(l->pte_size, 1UL << c->page_shift);
	assert_int_equal(l->pmd_size, c->pmd);
	assert_int_equal(l->pud_size, c->pud);
	assert_int_equal(l->cont_pte_size, c->cont_pte);
	assert_int_equal(l->cont_pmd_size, c->cont_pmd);
	assert_int_equal(l->root_shift, c->root_shift);
}

static void leaf_sizes(void **state)
{
	(void)state;
	each_config(sizes_of);
}

/*
 * The bug this header fixes: with two levels the walk's PUD step reads the
 * top-level entry, a PMD's; a block there is a PMD leaf of PMD_SIZE, never
 * a PUD leaf.  And no PUD leaf where the granule has none.
 */
static void top_table_of(const struct config *c,
			 const struct ptwalk_arm64_levels *l)
{
	assert_int_equal(l->top_leaf, c->top_leaf);
	if (c->config_levels == 2) {
		assert_int_equal(l->top_leaf, PTWALK_LEVEL_PMD);
		assert_int_equal(l->pud_size, 0);
		/* the top table's entry maps what a PMD block maps */
		assert_int_equal(1UL << l->root_shift, l->pmd_size);
	}
	if (c->page_shift != 12)
		assert_int_equal(l->pud_size, 0);
	if (l->top_leaf == PTWALK_LEVEL_PUD)
		assert_int_equal(1UL << l->root_shift, l->pud_size);
}

static void top_table_blocks(void **state)
{
	(void)state;
	each_config(top_table_of);
}

/*
 * vtop: the levels folded at each configuration's levels in use, and the
 * entry a leaf of each level is noted in (ptwalk_vtop_slot()): the top
 * table's, the PGD's, where its level is folded.
 */
static void folded_of(const struct config *c,
		      const struct ptwalk_arm64_levels *l)
{
	unsigned int folded = 0;

	for (unsigned int t = 0; t < PTWALK_VTOP_NR_LEVELS; t++)
		if (ptwalk_vtop_folded(t, c->levels))
			folded |= 1U << t;
	assert_int_equal(folded, c->folded);
	assert_int_equal(ptwalk_vtop_slot(PTWALK_VTOP_PTE, c->levels),
			 PTWALK_VTOP_PTE);
	/* a PMD leaf sits in the top table exactly with 2 levels */
	assert_int_equal(ptwalk_vtop_slot(PTWALK_VTOP_PMD, c->levels),
			 c->levels == 2 ? PTWALK_VTOP_PGD : PTWALK_VTOP_PMD);
	if (l->pud_size)
		assert_int_equal(ptwalk_vtop_slot(PTWALK_VTOP_PUD, c->levels),
				 l->top_leaf == PTWALK_LEVEL_PUD ?
				 PTWALK_VTOP_PGD : PTWALK_VTOP_PUD);
	/* the top table's block is noted in the PGD's entry */
	if (l->top_leaf == PTWALK_LEVEL_PMD)
		assert_int_equal(ptwalk_vtop_slot(PTWALK_VTOP_PMD, c->levels),
				 PTWALK_VTOP_PGD);
	if (l->top_leaf == PTWALK_LEVEL_PUD)
		assert_int_equal(ptwalk_vtop_slot(PTWALK_VTOP_PUD, c->levels),
				 PTWALK_VTOP_PGD);
}

static void vtop_folded_levels(void **state)
{
	(void)state;
	each_config(folded_of);
}

/* The hardware levels' address bits, as ARM64_HW_PGTABLE_LEVEL_SHIFT(). */
static void level_shifts(void **state)
{
	(void)state;
	assert_int_equal(ptwalk_arm64_level_shift(12, 3), 12);
	assert_int_equal(ptwalk_arm64_level_shift(12, 2), 21);
	assert_int_equal(ptwalk_arm64_level_shift(12, 1), 30);
	assert_int_equal(ptwalk_arm64_level_shift(12, 0), 39);
	assert_int_equal(ptwalk_arm64_level_shift(12, -1), 48);
	assert_int_equal(ptwalk_arm64_level_shift(14, 2), 25);
	assert_int_equal(ptwalk_arm64_level_shift(14, 1), 36);
	assert_int_equal(ptwalk_arm64_level_shift(14, 0), 47);
	assert_int_equal(ptwalk_arm64_level_shift(16, 2), 29);
	assert_int_equal(ptwalk_arm64_level_shift(16, 1), 42);
}

UNIT_MAIN("arm64_levels", UT(levels_of_each_configuration), UT(leaf_sizes),
	  UT(top_table_blocks), UT(vtop_folded_levels), UT(level_shifts))
