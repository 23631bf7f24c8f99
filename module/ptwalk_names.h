/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Names of the ptwalk_abi.h values, shared by the module's text view and
 * the userspace tools so that both print the same words.  Accessors rather
 * than tables so that a user of one of them does not carry unused arrays.
 */
#ifndef PTWALK_NAMES_H
#define PTWALK_NAMES_H

#include "ptwalk_abi.h"

static inline const char *ptwalk_level_name(unsigned int level)
{
	static const char *const names[] = { "none", "pte", "pmd", "pud" };

	return level < sizeof(names) / sizeof(names[0]) ? names[level] : "?";
}

static inline const char *ptwalk_kind_name(unsigned int kind)
{
	static const char *const names[] = {
		"none", "present", "swap", "migration", "device_private",
		"device_exclusive", "hwpoison", "marker", "unknown",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

/* Name of bit @bit (0-based) of ptwalk_record.flags, NULL if undefined. */
static inline const char *ptwalk_flag_name(unsigned int bit)
{
	static const char *const names[] = {
		"present", "write", "user", "dirty", "accessed", "special",
		"protnone", "soft_dirty", "uffd_wp", "nx", "zero_page",
		"huge_zero", "pfn_valid", "migration_write", "no_vma",
		"compound", "cont", "dma_pinned", "guard",
	};

	return bit < sizeof(names) / sizeof(names[0]) ? names[bit] : (void *)0;
}

/*
 * Name of enum ptwalk_memtype @t: x86's as the kernel's PAT code spells
 * cache modes (/sys/kernel/debug/x86/pat_memtype_list), arm64's after the
 * kernel's MT_* memory attributes, riscv64's after Svpbmt's PBMT values
 * (pma, nc, io); NULL for PTWALK_MEMTYPE_NONE and values
 * this header does not know.
 */
static inline const char *ptwalk_memtype_name(unsigned int t)
{
	static const char *const names[] = {
		[PTWALK_MEMTYPE_WB] = "wb",
		[PTWALK_MEMTYPE_WC] = "wc",
		[PTWALK_MEMTYPE_WT] = "wt",
		[PTWALK_MEMTYPE_WP] = "wp",
		[PTWALK_MEMTYPE_UC] = "uc",
		[PTWALK_MEMTYPE_UC_MINUS] = "uc-",
		[PTWALK_MEMTYPE_NORMAL] = "normal",
		[PTWALK_MEMTYPE_NORMAL_TAGGED] = "normal-tagged",
		[PTWALK_MEMTYPE_NORMAL_NC] = "normal-nc",
		[PTWALK_MEMTYPE_DEVICE_NGNRNE] = "device-ngnrne",
		[PTWALK_MEMTYPE_DEVICE_NGNRE] = "device-ngnre",
		[PTWALK_MEMTYPE_PMA] = "pma",
		[PTWALK_MEMTYPE_NC] = "nc",
		[PTWALK_MEMTYPE_IO] = "io",
	};

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : (void *)0;
}

/* Name of bit @bit of ptwalk_record.vm_flags, NULL if undefined. */
static inline const char *ptwalk_vm_flag_name(unsigned int bit)
{
	static const char *const names[] = {
		"read", "write", "exec", "shared", "mayshare", "io", "pfnmap",
		"mixedmap", "hugetlb", "locked", "hugepage", "nohugepage",
		"dontdump", "softdirty", "growsdown", "dontexpand", "anon",
		"uffd_wp",
	};

	return bit < sizeof(names) / sizeof(names[0]) ? names[bit] : (void *)0;
}

/* Name of enum ptwalk_vtop_level @l: "pgd" ... "pte". */
static inline const char *ptwalk_vtop_level_name(unsigned int l)
{
	static const char *const names[] = { "pgd", "p4d", "pud", "pmd", "pte" };

	return l < sizeof(names) / sizeof(names[0]) ? names[l] : "?";
}

/*
 * Whether the paging in use folds level @l away (include/asm-generic/
 * pgtable-nop4d.h, -nopud.h, -nopmd.h): with @nr_levels levels, those
 * between the PGD and the PTE table beyond the first nr_levels - 2: the
 * P4D with 4 levels, the PUD too with 3 (arm64, 64K pages), the PMD too
 * with 2.  The walker's entry at a folded level is the one above.
 */
static inline int ptwalk_vtop_folded(unsigned int l, unsigned int nr_levels)
{
	return l != 0 && l < 4 && l + nr_levels <= 5;
}

/*
 * The enum ptwalk_vtop_level whose entry (ptwalk_vtop.entry) holds what a
 * walk read at level @l: @l itself, or the PGD's for a folded level.  A
 * leaf of a folded level is there too: the 1G PUD leaf of a 3-level
 * arm64 (4K pages, 39-bit VA), the 512M PMD leaf of a 2-level one (64K
 * pages, 42-bit VA), each in the top table.
 */
static inline unsigned int ptwalk_vtop_slot(unsigned int l,
					    unsigned int nr_levels)
{
	return ptwalk_vtop_folded(l, nr_levels) ? 0 : l;
}

/* Name of enum ptwalk_vtop_stop @stop. */
static inline const char *ptwalk_vtop_stop_name(unsigned int stop)
{
	static const char *const names[] = {
		"none", "leaf", "not_present", "bad",
	};

	return stop < sizeof(names) / sizeof(names[0]) ? names[stop] : "?";
}

#endif /* PTWALK_NAMES_H */
