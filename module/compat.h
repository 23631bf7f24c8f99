/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version guard of ptwalk (and of its test fixture) lives here,
 * each with the release that changed the interface.  Kernel 6.1 (Debian
 * bookworm) is the tested target; the other branches are written against the
 * newer kernels' headers but are compile-untested here.
 */
#ifndef PTWALK_COMPAT_H
#define PTWALK_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/pgtable.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
/* pmdp_get_lockless() became available to all x86 kernels in 6.5. */
static inline pmd_t ptwalk_pmdp_get(pmd_t *pmdp)
{
	return READ_ONCE(*pmdp);
}

/*
 * Up to 6.4 a PMD that points to a page table keeps pointing to it while
 * the mmap lock is held for reading, so mapping the table cannot fail.
 */
static inline pte_t *ptwalk_pte_map_lock(struct mm_struct *mm, pmd_t *pmdp,
					 unsigned long addr, spinlock_t **ptlp)
{
	return pte_offset_map_lock(mm, pmdp, addr, ptlp);
}

static inline void ptwalk_pte_unmap_unlock(pte_t *pte, spinlock_t *ptl)
{
	pte_unmap_unlock(pte, ptl);
}

/* A constant, so that sparse sees no path that returns holding the lock. */
#define ptwalk_pte_map_failed(pte)	false
#else
static inline pmd_t ptwalk_pmdp_get(pmd_t *pmdp)
{
	return pmdp_get_lockless(pmdp);
}

/*
 * 6.5 made PTE tables RCU-freed and pte_offset_map_lock() able to fail
 * (NULL: the PMD changed, re-read it), and 6.6 lets khugepaged retract
 * tables without the mmap lock.  The helper behind the macro,
 * __pte_offset_map_lock(), is not exported, so map and lock here: under
 * RCU the table cannot be freed, and the PMD is re-checked under the lock.
 */
static inline pte_t *ptwalk_pte_map_lock(struct mm_struct *mm, pmd_t *pmdp,
					 unsigned long addr, spinlock_t **ptlp)
{
	spinlock_t *ptl;
	pmd_t pmdval;

	rcu_read_lock();
	pmdval = pmdp_get_lockless(pmdp);
	if (!pmd_present(pmdval) || pmd_leaf(pmdval) || pmd_bad(pmdval))
		goto fail;
	ptl = pte_lockptr(mm, &pmdval);
	spin_lock(ptl);
	if (!pmd_same(pmdval, pmdp_get_lockless(pmdp))) {
		spin_unlock(ptl);
		goto fail;
	}
	*ptlp = ptl;
	return pte_offset_kernel(&pmdval, addr);
fail:
	rcu_read_unlock();
	return NULL;
}

static inline void ptwalk_pte_unmap_unlock(pte_t *pte, spinlock_t *ptl)
{
	spin_unlock(ptl);
	rcu_read_unlock();
}

#define ptwalk_pte_map_failed(pte)	(!(pte))
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
/* 6.5 dropped the vmas argument of get_user_pages(). */
#define ptwalk_get_user_pages(start, nr, flags, pages) \
	get_user_pages(start, nr, flags, pages, NULL)
#else
#define ptwalk_get_user_pages(start, nr, flags, pages) \
	get_user_pages(start, nr, flags, pages)
#endif

/*
 * Translating a VM_PFNMAP/VM_IO address without the page table walker of
 * this module (the test fixture's oracle): follow_pfn() until 6.9, a
 * vma-taking follow_pte() in 6.10/6.11 and follow_pfnmap_start() since 6.12.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
static inline int ptwalk_follow_pfn(struct vm_area_struct *vma,
				    unsigned long addr, unsigned long *pfn)
{
	return follow_pfn(vma, addr, pfn);
}
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
static inline int ptwalk_follow_pfn(struct vm_area_struct *vma,
				    unsigned long addr, unsigned long *pfn)
{
	spinlock_t *ptl;
	pte_t *ptep;
	int ret;

	ret = follow_pte(vma, addr, &ptep, &ptl);
	if (ret)
		return ret;
	*pfn = pte_pfn(ptep_get(ptep));
	pte_unmap_unlock(ptep, ptl);
	return 0;
}
#else
static inline int ptwalk_follow_pfn(struct vm_area_struct *vma,
				    unsigned long addr, unsigned long *pfn)
{
	struct follow_pfnmap_args args = { .vma = vma, .address = addr };
	int ret;

	ret = follow_pfnmap_start(&args);
	if (ret)
		return ret;
	*pfn = args.pfn;
	follow_pfnmap_end(&args);
	return 0;
}
#endif

/*
 * The raw PTE of a present 4 KiB page, read by the kernel's follow_pte()
 * (the test fixture's oracle for ptwalk's vtop): follow_pte() takes the
 * mm until 6.9 and the vma in 6.10/6.11; 6.12 replaced it by
 * follow_pfnmap_start(), which gives no raw entry.  follow_pte() refuses
 * huge and non-present entries, and VM_BUG_ONs on a PMD-mapped THP, so
 * the caller must rule those out first.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
static inline int ptwalk_follow_pte_raw(struct vm_area_struct *vma,
					unsigned long addr, u64 *raw)
{
	spinlock_t *ptl;
	pte_t *ptep;
	int ret;

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
	ret = follow_pte(vma->vm_mm, addr, &ptep, &ptl);
#else
	ret = follow_pte(vma, addr, &ptep, &ptl);
#endif
	if (ret)
		return ret;
	__acquire(ptl);	/* for sparse: follow_pte() returned with it held */
	*raw = pte_val(ptep_get(ptep));
	pte_unmap_unlock(ptep, ptl);
	return 0;
}
#else
static inline int ptwalk_follow_pte_raw(struct vm_area_struct *vma,
					unsigned long addr, u64 *raw)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* PTWALK_COMPAT_H */
