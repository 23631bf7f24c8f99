/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/kpageflags as a third witness: what the kernel's page allocator
 * says about a frame, checked against what ptwalk read in the page tables.
 * Pure: one page's expectation and its kpageflags word in, the broken
 * rules out.
 *
 * Bit numbers: include/uapi/linux/kernel-page-flags.h (0-26) and
 * include/linux/kernel-page-flags.h (32-41) of Linux 6.1; the values
 * come from stable_page_flags() in fs/proc/page.c.
 */
#ifndef PTCOMPARE_KPAGEFLAGS_H
#define PTCOMPARE_KPAGEFLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum kpf_bit {
	KPF_B_LOCKED = 0, KPF_B_ERROR = 1, KPF_B_REFERENCED = 2,
	KPF_B_UPTODATE = 3, KPF_B_DIRTY = 4, KPF_B_LRU = 5, KPF_B_ACTIVE = 6,
	KPF_B_SLAB = 7, KPF_B_WRITEBACK = 8, KPF_B_RECLAIM = 9,
	KPF_B_BUDDY = 10, KPF_B_MMAP = 11, KPF_B_ANON = 12,
	KPF_B_SWAPCACHE = 13, KPF_B_SWAPBACKED = 14,
	KPF_B_COMPOUND_HEAD = 15, KPF_B_COMPOUND_TAIL = 16, KPF_B_HUGE = 17,
	KPF_B_UNEVICTABLE = 18, KPF_B_HWPOISON = 19, KPF_B_NOPAGE = 20,
	KPF_B_KSM = 21, KPF_B_THP = 22, KPF_B_OFFLINE = 23,
	KPF_B_ZERO_PAGE = 24, KPF_B_IDLE = 25, KPF_B_PGTABLE = 26,
	KPF_B_RESERVED = 32, KPF_B_MLOCKED = 33, KPF_B_MAPPEDTODISK = 34,
	KPF_B_PRIVATE = 35, KPF_B_PRIVATE_2 = 36, KPF_B_OWNER_PRIVATE = 37,
	KPF_B_ARCH = 38, KPF_B_UNCACHED = 39, KPF_B_SOFTDIRTY = 40,
	KPF_B_ARCH_2 = 41,
};

#define KPF(b)	(1ULL << KPF_B_##b)

/*
 * The bits the report names: what a page is, not its LRU/IO state of the
 * moment (referenced, dirty, active, ... change under our feet).
 */
#define KPF_SHOWN (KPF(MMAP) | KPF(ANON) | KPF(KSM) | KPF(THP) | KPF(HUGE) | \
		   KPF(ZERO_PAGE) | KPF(COMPOUND_HEAD) | KPF(COMPOUND_TAIL) | \
		   KPF(NOPAGE) | KPF(BUDDY) | KPF(SLAB) | KPF(PGTABLE) |     \
		   KPF(OFFLINE) | KPF(HWPOISON) | KPF(SWAPCACHE) |          \
		   KPF(SWAPBACKED) | KPF(UNEVICTABLE) | KPF(MLOCKED) |      \
		   KPF(RESERVED))

/* Name of kpageflags bit b ("mmap", "compound_head", ...), or NULL. */
const char *kpf_bit_name(unsigned int b);

/* Names of the set bits of flags & KPF_SHOWN, comma separated. */
char *kpf_format(char *buf, size_t size, uint64_t flags);

/* What ptwalk said about one page. */
struct kpf_expect {
	uint32_t walk_flags;	/* PTWALK_F_* of its record */
	uint64_t vm_flags;	/* PTWALK_VM_* of its VMA */
	uint8_t level;		/* enum ptwalk_level of the leaf */
	/* first page of its huge leaf: a PMD/PUD or a contiguous group
	 * (the leaf maps an aligned block)
	 */
	bool leaf_head;
	/* /proc/iomem puts the frame in "System RAM" */
	bool system_ram;
};

/* The page is one the third witness checks: present with a struct page. */
bool kpf_applies(uint32_t walk_flags);

/* The rules, one bit each: which one a page breaks. */
enum kpf_rule {
	KPF_RULE_NOPAGE,	/* RAM frame ptwalk maps, no page for kpageflags */
	KPF_RULE_FREE,		/* mapped, yet free in the buddy allocator */
	KPF_RULE_KERNEL,	/* mapped by a normal VMA, yet slab/page table/offline */
	KPF_RULE_COMPOUND,	/* ptwalk's compound flag vs head/tail */
	KPF_RULE_HEAD_TAIL,	/* PMD/PUD leaf: head first, tails after */
	KPF_RULE_HUGETLB,	/* hugetlb VMA vs KPF_HUGE */
	KPF_RULE_THP,		/* anonymous PMD leaf without KPF_THP */
	KPF_RULE_ZERO,		/* zero page / huge zero page vs KPF_ZERO_PAGE */
	KPF_RULE_MMAP,		/* a page mapped with rmap, without KPF_MMAP */
	KPF_RULE_ANON,		/* page of an anonymous VMA without KPF_ANON */
	NR_KPF_RULES,
};

/* Bit set of the rules page flags kpf breaks, 0 when consistent. */
unsigned int kpf_check(const struct kpf_expect *e, uint64_t kpf);

/* "ptwalk: compound page; kpageflags: neither head nor tail", ... */
const char *kpf_rule_text(enum kpf_rule rule);

/* Short name of a rule for JSON: "compound", "head_tail", "mmap", ... */
const char *kpf_rule_name(enum kpf_rule rule);

/* The first rule of a non-zero kpf_check() result. */
enum kpf_rule kpf_first_rule(unsigned int broken);

#endif /* PTCOMPARE_KPAGEFLAGS_H */
