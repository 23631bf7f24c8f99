// SPDX-License-Identifier: GPL-2.0
/*
 * The rule set, from Linux 6.1's stable_page_flags() (fs/proc/page.c) and
 * how the page tables get their entries:
 *
 * - kpageflags reads pfn_to_online_page(): a valid frame that is offline
 *   or ZONE_DEVICE (pmem, device-dax) reads KPF_NOPAGE.  A present user
 *   mapping of an offline RAM frame cannot exist (offlining migrates every
 *   page away), so NOPAGE is a contradiction for "System RAM" frames only.
 * - A mapped page is never free (KPF_BUDDY); a normal VMA never maps slab,
 *   page-table or offline pages (VM_PFNMAP mappings may map any frame).
 * - KPF_COMPOUND_HEAD/TAIL are PageHead/PageTail; ptwalk's COMPOUND is
 *   PageCompound() of the same frame: the two must agree, where ptwalk
 *   read the page at all (not for a special entry: vm_normal_page()'s
 *   rule; 7.2 marks the huge zero folio's PMD special).  A PMD/PUD leaf
 *   of a THP, a hugetlb page or the huge zero page maps one whole compound
 *   page: head at the leaf's first page, tails after.
 * - KPF_HUGE is PageHuge: hugetlb pages, mapped only by hugetlb VMAs.
 * - KPF_THP: a compound page whose head is on the LRU or anonymous, or the
 *   huge zero page.  A file THP may be off the LRU for a moment
 *   (isolation), so only an anonymous PMD leaf must show it.
 * - KPF_ZERO_PAGE: is_zero_pfn(), or the huge zero page (with KPF_THP).
 * - KPF_MMAP is page_mapped(): set for every page mapped through the rmap
 *   (anonymous, file, hugetlb, THP tails through the compound mapcount).
 *   Not for the zero pages, special PTEs (remap_pfn_range, vm_insert_pfn)
 *   or VM_PFNMAP VMAs, nor for PMD/PUD leaves of VM_MIXEDMAP (DAX) VMAs,
 *   whose entries carry no special bit.
 * - KPF_ANON is PageAnon: a private anonymous VMA (vma_is_anonymous) maps
 *   anonymous pages (KSM pages included) or a zero page, nothing else.
 */
#include <stdio.h>
#include <string.h>
#include "engine/kpageflags.h"
#include "model/flag_names.h"
#include "module/ptwalk_abi.h"

const char *kpf_bit_name(unsigned int b)
{
	static const char *const names[] = {
		[KPF_B_LOCKED] = "locked", [KPF_B_ERROR] = "error",
		[KPF_B_REFERENCED] = "referenced",
		[KPF_B_UPTODATE] = "uptodate", [KPF_B_DIRTY] = "dirty",
		[KPF_B_LRU] = "lru", [KPF_B_ACTIVE] = "active",
		[KPF_B_SLAB] = "slab", [KPF_B_WRITEBACK] = "writeback",
		[KPF_B_RECLAIM] = "reclaim", [KPF_B_BUDDY] = "buddy",
		[KPF_B_MMAP] = "mmap", [KPF_B_ANON] = "anon",
		[KPF_B_SWAPCACHE] = "swapcache",
		[KPF_B_SWAPBACKED] = "swapbacked",
		[KPF_B_COMPOUND_HEAD] = "compound_head",
		[KPF_B_COMPOUND_TAIL] = "compound_tail",
		[KPF_B_HUGE] = "huge", [KPF_B_UNEVICTABLE] = "unevictable",
		[KPF_B_HWPOISON] = "hwpoison", [KPF_B_NOPAGE] = "nopage",
		[KPF_B_KSM] = "ksm", [KPF_B_THP] = "thp",
		[KPF_B_OFFLINE] = "offline", [KPF_B_ZERO_PAGE] = "zero_page",
		[KPF_B_IDLE] = "idle", [KPF_B_PGTABLE] = "pgtable",
		[KPF_B_RESERVED] = "reserved", [KPF_B_MLOCKED] = "mlocked",
		[KPF_B_MAPPEDTODISK] = "mappedtodisk",
		[KPF_B_PRIVATE] = "private", [KPF_B_PRIVATE_2] = "private_2",
		[KPF_B_OWNER_PRIVATE] = "owner_private", [KPF_B_ARCH] = "arch",
		[KPF_B_UNCACHED] = "uncached", [KPF_B_SOFTDIRTY] = "softdirty",
		[KPF_B_ARCH_2] = "arch_2",
	};

	return b < sizeof(names) / sizeof(names[0]) ? names[b] : NULL;
}

char *kpf_format(char *buf, size_t size, uint64_t flags)
{
	flag_names_join(buf, size, flags & KPF_SHOWN, kpf_bit_name, "");
	return buf;
}

bool kpf_applies(uint32_t walk_flags)
{
	const uint32_t need = PTWALK_F_PRESENT | PTWALK_F_PFN_VALID;

	return (walk_flags & need) == need;
}

static bool has(uint64_t kpf, uint64_t bits)
{
	return (kpf & bits) != 0;
}

unsigned int kpf_check(const struct kpf_expect *e, uint64_t kpf)
{
	uint32_t f = e->walk_flags;
	uint64_t vm = e->vm_flags;
	bool pfnmap = vm & PTWALK_VM_PFNMAP;
	bool hugetlb = vm & PTWALK_VM_HUGETLB;
	/*
	 * A huge leaf maps one compound page, head first: a PMD/PUD, or a
	 * contiguous group of PTEs of a hugetlb page (arm64).  A contiguous
	 * group outside hugetlb is arm64's contpte folding of a large folio
	 * (6.9+): the folio may be larger than the group (a 128K mTHP folded
	 * as two 64K groups), so the second group starts on a tail, and
	 * neither it nor any other PTE-mapped large folio (mTHP, 6.8+) is
	 * held to the head/tail order or to KPF_THP, only to being compound.
	 */
	bool leaf = e->level == PTWALK_LEVEL_PMD || e->level == PTWALK_LEVEL_PUD ||
		    ((f & PTWALK_F_CONT) && hugetlb);
	bool zero = f & PTWALK_F_ZERO_PAGE, huge_zero = f & PTWALK_F_HUGE_ZERO;
	bool compound = has(kpf, KPF(COMPOUND_HEAD) | KPF(COMPOUND_TAIL));
	unsigned int broken = 0;

	if (kpf & KPF(NOPAGE))
		return e->system_ram ? 1U << KPF_RULE_NOPAGE : 0;
	if (kpf & KPF(BUDDY))
		broken |= 1U << KPF_RULE_FREE;
	if (!pfnmap && has(kpf, KPF(SLAB) | KPF(PGTABLE) | KPF(OFFLINE)))
		broken |= 1U << KPF_RULE_KERNEL;
	/* ptwalk.ko reads no page of a special entry: compound unknown */
	if (!(f & PTWALK_F_SPECIAL) && !!(f & PTWALK_F_COMPOUND) != compound)
		broken |= 1U << KPF_RULE_COMPOUND;
	if (leaf && !pfnmap &&
	    (kpf & (KPF(COMPOUND_HEAD) | KPF(COMPOUND_TAIL))) !=
	    (e->leaf_head ? KPF(COMPOUND_HEAD) : KPF(COMPOUND_TAIL)))
		broken |= 1U << KPF_RULE_HEAD_TAIL;
	if (!pfnmap && hugetlb != has(kpf, KPF(HUGE)))
		broken |= 1U << KPF_RULE_HUGETLB;
	if (leaf && !pfnmap && !hugetlb && has(kpf, KPF(ANON)) &&
	    !has(kpf, KPF(THP)))
		broken |= 1U << KPF_RULE_THP;
	if ((zero || huge_zero) != has(kpf, KPF(ZERO_PAGE)) ||
	    (huge_zero && !has(kpf, KPF(THP))))
		broken |= 1U << KPF_RULE_ZERO;
	if (!pfnmap && !zero && !huge_zero && !(f & PTWALK_F_SPECIAL) &&
	    !(leaf && (vm & PTWALK_VM_MIXEDMAP)) && !has(kpf, KPF(MMAP)))
		broken |= 1U << KPF_RULE_MMAP;
	if ((vm & PTWALK_VM_ANON) && !pfnmap && !zero && !huge_zero &&
	    !has(kpf, KPF(ANON)))
		broken |= 1U << KPF_RULE_ANON;
	return broken;
}

const char *kpf_rule_text(enum kpf_rule rule)
{
	static const char *const text[NR_KPF_RULES] = {
		[KPF_RULE_NOPAGE] = "ptwalk maps a System RAM frame with a struct page; kpageflags has no page there",
		[KPF_RULE_FREE] = "ptwalk maps the frame; kpageflags says it is free (buddy)",
		[KPF_RULE_KERNEL] = "ptwalk maps the frame in a normal VMA; kpageflags says it is a slab, page table or offline page",
		[KPF_RULE_COMPOUND] = "ptwalk's compound flag and kpageflags' compound_head/compound_tail disagree",
		[KPF_RULE_HEAD_TAIL] = "a huge leaf (PMD, PUD or contiguous group) maps one compound page; kpageflags does not show its head first and tails after",
		[KPF_RULE_HUGETLB] = "hugetlb VMA and kpageflags' huge bit disagree",
		[KPF_RULE_THP] = "ptwalk maps an anonymous page by a PMD leaf; kpageflags does not say thp",
		[KPF_RULE_ZERO] = "ptwalk's zero page/huge zero page flags and kpageflags' zero_page disagree",
		[KPF_RULE_MMAP] = "ptwalk maps the page through the rmap; kpageflags says it is not mapped",
		[KPF_RULE_ANON] = "an anonymous VMA maps the page; kpageflags says it is not anonymous",
	};

	return rule < NR_KPF_RULES ? text[rule] : "?";
}

const char *kpf_rule_name(enum kpf_rule rule)
{
	static const char *const names[NR_KPF_RULES] = {
		"nopage", "free", "kernel", "compound", "head_tail",
		"hugetlb", "thp", "zero", "mmap", "anon",
	};

	return rule < NR_KPF_RULES ? names[rule] : "?";
}

enum kpf_rule kpf_first_rule(unsigned int broken)
{
	for (unsigned int i = 0; i < NR_KPF_RULES; i++)
		if (broken & 1U << i)
			return (enum kpf_rule)i;
	return NR_KPF_RULES;
}
