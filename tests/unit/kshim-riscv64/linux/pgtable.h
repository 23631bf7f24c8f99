/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel shim for building module/arch_riscv64.h in userspace
 * (tests/unit/test_arch_riscv64.c): riscv64's page table entry as the
 * kernel's arch/riscv/include/asm/pgtable*.h define it (6.12, 7.2), for
 * the accessors arch_riscv64.h uses, bit for bit.  The kernel's run-time
 * values are variables the tests set: _PAGE_MTMASK, _PAGE_NOCACHE and
 * _PAGE_IO (Svpbmt's, T-Head's or none, patched by alternatives in the
 * kernel), has_svnapot(), pgtable_l5_enabled and pgtable_l4_enabled.
 */
#ifndef PTWALK_KSHIM_RISCV64_PGTABLE_H
#define PTWALK_KSHIM_RISCV64_PGTABLE_H

#include <stdbool.h>
#include <linux/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PMD_SIZE	(1UL << 21)
#define PUD_SIZE	(1UL << 30)
#define BIT(n)		(1UL << (n))
#define GENMASK(h, l)	(((~0UL) << (l)) & (~0UL >> (63 - (h))))

typedef struct { unsigned long pte; } pte_t;
typedef struct { unsigned long pmd; } pmd_t;
typedef struct { unsigned long pud; } pud_t;
typedef struct { unsigned long p4d; } p4d_t;
typedef struct { unsigned long pgd; } pgd_t;
struct mm_struct;

#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

#define pte_val(x)	((x).pte)
#define pmd_val(x)	((x).pmd)
#define pud_val(x)	((x).pud)
#define p4d_val(x)	((x).p4d)
#define pgd_val(x)	((x).pgd)
#define __pte(x)	((pte_t){ (x) })
#define __pmd(x)	((pmd_t){ (x) })
#define __pud(x)	((pud_t){ (x) })

/* asm/pgtable-bits.h */
#define _PAGE_PRESENT	(1 << 0)
#define _PAGE_READ	(1 << 1)
#define _PAGE_WRITE	(1 << 2)
#define _PAGE_EXEC	(1 << 3)
#define _PAGE_USER	(1 << 4)
#define _PAGE_GLOBAL	(1 << 5)
#define _PAGE_ACCESSED	(1 << 6)
#define _PAGE_DIRTY	(1 << 7)
#define _PAGE_SOFT	(3 << 8)
#define _PAGE_SPECIAL	(1 << 8)
#define _PAGE_TABLE	_PAGE_PRESENT
#define _PAGE_PROT_NONE	_PAGE_GLOBAL
#define _PAGE_PFN_SHIFT	10
#define _PAGE_LEAF	(_PAGE_READ | _PAGE_WRITE | _PAGE_EXEC)

/* asm/pgtable-64.h */
#define _PAGE_PFN_MASK	GENMASK(53, 10)
#define _PAGE_NAPOT_SHIFT	63
#define _PAGE_NAPOT	BIT(_PAGE_NAPOT_SHIFT)
#define NAPOT_CONT64KB_ORDER	4UL
#define napot_cont_order(val) \
	(__builtin_ctzl((pte_val(val) >> _PAGE_PFN_SHIFT) << 1))
#define napot_cont_size(order)	BIT((order) + PAGE_SHIFT)
#define _PAGE_NOCACHE_SVPBMT	(1UL << 61)
#define _PAGE_IO_SVPBMT		(1UL << 62)
#define _PAGE_MTMASK_SVPBMT	(_PAGE_NOCACHE_SVPBMT | _PAGE_IO_SVPBMT)
#define _PAGE_PMA_THEAD		((1UL << 62) | (1UL << 61) | (1UL << 60))
#define _PAGE_NOCACHE_THEAD	((1UL << 61) | (1UL << 60))
#define _PAGE_IO_THEAD		((1UL << 63) | (1UL << 60))
#define _PAGE_MTMASK_THEAD	(_PAGE_PMA_THEAD | _PAGE_IO_THEAD | (1UL << 59))

/* the run-time values, set by the tests */
extern unsigned long shim_mtmask, shim_nocache, shim_io;
extern bool shim_svnapot, pgtable_l5_enabled, pgtable_l4_enabled;
#define _PAGE_MTMASK	shim_mtmask
#define _PAGE_NOCACHE	shim_nocache
#define _PAGE_IO	shim_io

/*
 * The table an upper entry points to.  The kernel's take the entry's PPN
 * through the linear map; here the tests' tables are in this process,
 * their address in the entry with the low bits (V) set.
 */
#define P4D_SHIFT	39
#define PUD_SHIFT	30
#define pud_index(addr)	(((addr) >> PUD_SHIFT) & 511)
#define p4d_index(addr)	(((addr) >> P4D_SHIFT) & 511)

static inline pud_t *p4d_pgtable(p4d_t p4d)
{
	return (pud_t *)(p4d_val(p4d) & ~0xfffUL);
}

static inline p4d_t *pgd_pgtable(pgd_t pgd)
{
	return (p4d_t *)(pgd_val(pgd) & ~0xfffUL);
}

static inline bool has_svnapot(void)
{
	return shim_svnapot;
}

/* asm/pgtable.h */
static inline int pte_present(pte_t pte)
{
	return pte_val(pte) & (_PAGE_PRESENT | _PAGE_PROT_NONE);
}

static inline unsigned long pte_napot(pte_t pte)
{
	return pte_val(pte) & _PAGE_NAPOT;
}

static inline unsigned long pte_pfn(pte_t pte)
{
	unsigned long res = (pte_val(pte) & _PAGE_PFN_MASK) >> _PAGE_PFN_SHIFT;

	if (has_svnapot() && pte_napot(pte))
		res = res & (res - 1UL);
	return res;
}

static inline int pte_write(pte_t pte) { return pte_val(pte) & _PAGE_WRITE; }
static inline int pte_exec(pte_t pte) { return pte_val(pte) & _PAGE_EXEC; }
static inline int pte_user(pte_t pte) { return pte_val(pte) & _PAGE_USER; }
static inline int pte_dirty(pte_t pte) { return pte_val(pte) & _PAGE_DIRTY; }
static inline int pte_young(pte_t pte) { return pte_val(pte) & _PAGE_ACCESSED; }

static inline pte_t pte_mkdirty(pte_t pte)
{
	return __pte(pte_val(pte) | _PAGE_DIRTY);
}

static inline pte_t pte_mkyoung(pte_t pte)
{
	return __pte(pte_val(pte) | _PAGE_ACCESSED);
}

static inline pte_t ptep_get(pte_t *ptep)
{
	return *ptep;
}

#endif
