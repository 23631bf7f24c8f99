/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version guard of ptwalk.ko lives here, each with the release
 * that changed the interface (the test fixture's own are in
 * tests/fixture/fixture_compat.h).  make check-kernels builds and tests
 * Debian's 5.10, 6.1, 6.12 and the newest (7.2 when written); a branch
 * that only a release between those takes (6.11, 6.19 to 7.1) says
 * "untested" where it is chosen.
 *
 * Changes that need no guard: 6.12 removed no_llseek, and a NULL .llseek
 * has meant the same (-ESPIPE) on every kernel here, so the debugfs fops
 * leave it NULL, as stream_open() files do anyway.
 */
#ifndef PTWALK_COMPAT_H
#define PTWALK_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/pgtable.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "ptwalk needs Linux 5.10 or newer"
#endif

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
 * On success the PTE lock and RCU are held until
 * ptwalk_pte_unmap_unlock(); ptwalk_pte_map_lock() tells sparse so with
 * the kernel's own idiom for a conditional lock, __cond_lock(), as
 * pte_offset_map_lock() does since 6.5.
 */
static inline pte_t *__ptwalk_pte_map_lock(struct mm_struct *mm,
					   pmd_t *pmdp, unsigned long addr,
					   spinlock_t **ptlp)
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
	/* What __cond_lock() below acquires for the caller, released here. */
	__release(ptl);
	__release(RCU);
	return pte_offset_kernel(&pmdval, addr);
fail:
	rcu_read_unlock();
	return NULL;
}

/*
 * sparse's idiom is gone by 7.2, where the kernel's lock context analysis
 * (Clang's, with the __cond_acquires() function attribute) replaced
 * __cond_lock() and sparse no longer checks lock contexts (untested: 6.19
 * to 7.1); there the call alone.
 */
#ifdef __cond_lock
#define ptwalk_cond_lock(x, c)	__cond_lock(x, c)
#else
#define ptwalk_cond_lock(x, c)	(c)
#endif

static inline pte_t *ptwalk_pte_map_lock(struct mm_struct *mm, pmd_t *pmdp,
					 unsigned long addr, spinlock_t **ptlp)
{
	pte_t *pte;

	ptwalk_cond_lock(RCU, ptwalk_cond_lock(*ptlp,
			 pte = __ptwalk_pte_map_lock(mm, pmdp, addr, ptlp)));
	return pte;
}

static inline void ptwalk_pte_unmap_unlock(pte_t *pte, spinlock_t *ptl)
	__releases(ptl) __releases(RCU)
{
	spin_unlock(ptl);
	rcu_read_unlock();
}

#define ptwalk_pte_map_failed(pte)	(!(pte))
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 14, 0)
/* vma_lookup() came in 5.14: the VMA that contains @addr, or NULL. */
static inline struct vm_area_struct *ptwalk_vma_lookup(struct mm_struct *mm,
							unsigned long addr)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	return vma && vma->vm_start <= addr ? vma : NULL;
}
#else
#define ptwalk_vma_lookup(mm, addr)	vma_lookup(mm, addr)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 11, 0)
#define ptwalk_huge_ptep_get(mm, addr, ptep)	huge_ptep_get(ptep)
#else
/* 6.11 gave huge_ptep_get() the mm and the address (untested: 6.11). */
#define ptwalk_huge_ptep_get(mm, addr, ptep)	huge_ptep_get(mm, addr, ptep)
#endif

/*
 * Non-present entries (swap, migration, device, hwpoison, markers), read
 * with the kernel's own helpers: swapops.h until 6.18, leafops.h's
 * softleaf_*() since 6.19 (untested: 6.19 to 7.1), where swapops.h lost
 * pte_to_swp_entry() and the is_*_entry() tests.  softleaf_t is still a
 * swp_entry_t there, so swp_type()/swp_offset() read both.  A kind that a
 * kernel does not have cannot occur on it: its test is false.
 */
/*
 * Whether @page may be pinned with FOLL_PIN: page_maybe_dma_pinned() until
 * its removal (it is gone in 6.12), folio_maybe_dma_pinned() of the page's
 * folio since folios (6.1 has both; 5.10 the page one only).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#define ptwalk_page_maybe_dma_pinned(page)	page_maybe_dma_pinned(page)
#else
#define ptwalk_page_maybe_dma_pinned(page) \
	folio_maybe_dma_pinned(page_folio(page))
#endif

/*
 * Whether a present leaf of @level, in the layout of a PTE (arch.h), is
 * special: no struct page to refcount.  6.12 ("mm: introduce
 * ARCH_SUPPORTS_HUGE_PFNMAP and special bits to pmd/pud") marks PMD and
 * PUD leaves of pfn maps (vfio-pci's large BARs) special in the bit a PTE
 * uses, on both architectures here; before it only PTEs have the bit.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#define ptwalk_leaf_special(entry, level) \
	((level) == PTWALK_LEVEL_PTE && pte_special(entry))
#else
#define ptwalk_leaf_special(entry, level)	pte_special(entry)
#endif

/* swapops.h (5.10's, and 7.2's through leafops.h) uses it, unincluded */
#include <linux/swap.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 19, 0)
#include <linux/swapops.h>

#define ptwalk_swp_t				swp_entry_t

#define ptwalk_pte_to_swp(pte)			pte_to_swp_entry(pte)
#define ptwalk_swp_is_swap(swp)			(!non_swap_entry(swp))
#define ptwalk_swp_is_migration(swp)		is_migration_entry(swp)
#define ptwalk_swp_is_device_private(swp)	is_device_private_entry(swp)
#define ptwalk_swp_is_hwpoison(swp)		is_hwpoison_entry(swp)

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 14, 0)
/* 5.14 renamed is_write_migration_entry() */
#define ptwalk_swp_is_migration_write(swp)	is_write_migration_entry(swp)
#else
#define ptwalk_swp_is_migration_write(swp)	is_writable_migration_entry(swp)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 14, 0)
/* Device-exclusive entries came in 5.14. */
#define ptwalk_swp_is_device_exclusive(swp)	false
#else
#define ptwalk_swp_is_device_exclusive(swp)	is_device_exclusive_entry(swp)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 19, 0)
/* PTE markers came in 5.19. */
#define ptwalk_swp_is_marker(swp)		false
#else
#define ptwalk_swp_is_marker(swp)		is_pte_marker_entry(swp)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
/* Until 6.1 a PFN entry's whole offset is its PFN. */
#define ptwalk_swp_offset_pfn(swp)		swp_offset(swp)
#else
/* 6.1 keeps flags (migration A/D) above a PFN entry's PFN. */
#define ptwalk_swp_offset_pfn(swp) \
	(is_pfn_swap_entry(swp) ? swp_offset_pfn(swp) : swp_offset(swp))
#endif

#else /* 6.19: softleaf_t */
#include <linux/leafops.h>

#define ptwalk_swp_t				softleaf_t

#define ptwalk_pte_to_swp(pte)			softleaf_from_pte(pte)
#define ptwalk_swp_is_swap(swp)			softleaf_is_swap(swp)
#define ptwalk_swp_is_migration(swp)		softleaf_is_migration(swp)
#define ptwalk_swp_is_migration_write(swp)	softleaf_is_migration_write(swp)
#define ptwalk_swp_is_device_private(swp)	softleaf_is_device_private(swp)
#define ptwalk_swp_is_device_exclusive(swp)	softleaf_is_device_exclusive(swp)
#define ptwalk_swp_is_hwpoison(swp)		softleaf_is_hwpoison(swp)
#define ptwalk_swp_is_marker(swp)		softleaf_is_marker(swp)
#define ptwalk_swp_offset_pfn(swp) \
	(softleaf_has_pfn(swp) ? softleaf_to_pfn(swp) : swp_offset(swp))
#endif

/*
 * The IOMMU (iommu.c).  IOMMU_DOMAIN_DMA_FQ, the lazy DMA domain, is a
 * type of its own since 5.15 ("iommu: Introduce explicit type for
 * non-strict DMA domains"); 5.10's lazy domains are IOMMU_DOMAIN_DMA.
 */
#include <linux/iommu.h>
#ifdef IOMMU_DOMAIN_DMA_FQ
#define ptwalk_iommu_type_is_dma_fq(type)	((type) == IOMMU_DOMAIN_DMA_FQ)
#else
#define ptwalk_iommu_type_is_dma_fq(type)	false
#endif

/*
 * The domain of @dev, read with its group's mutex held (iommu.c says why).
 * Up to 6.18 iommu_get_domain_for_dev() reads group->domain without taking
 * the mutex.  Nicolin Chen's "iommu: Add iommu_driver_get_domain_for_dev()
 * helper" (2025, in 7.2 here) makes it assert that the mutex is NOT held
 * and exports iommu_driver_get_domain_for_dev() for callers that hold it;
 * its follow-up is marked for stable, so a stable release of an older
 * series may have both.  So not a version test: module/Kbuild looks for
 * the helper's declaration in the kernel's iommu.h, as Kbuild feature
 * tests do, and defines PTWALK_HAVE_IOMMU_DRIVER_GET_DOMAIN.
 */
#ifdef PTWALK_HAVE_IOMMU_DRIVER_GET_DOMAIN
#define ptwalk_iommu_domain_locked(dev)	iommu_driver_get_domain_for_dev(dev)
#else
#define ptwalk_iommu_domain_locked(dev)	iommu_get_domain_for_dev(dev)
#endif

/*
 * Guard-region markers: MADV_GUARD_INSTALL (6.13, 662df3e5c376 "mm:
 * madvise: implement lightweight guard page mechanism") installs a PTE
 * marker with PTE_MARKER_GUARD; swapops.h's is_guard_swp_entry() tests it
 * until 6.18 (untested: 6.13 to 6.18), leafops.h's
 * softleaf_is_guard_marker() since 6.19.  Before 6.13 there is none.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#define PTWALK_HAVE_GUARD_MARKER		0
#define ptwalk_swp_is_guard(swp)		false
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 19, 0)
#define PTWALK_HAVE_GUARD_MARKER		1
#define ptwalk_swp_is_guard(swp)		is_guard_swp_entry(swp)
#else
#define PTWALK_HAVE_GUARD_MARKER		1
#define ptwalk_swp_is_guard(swp)		softleaf_is_guard_marker(swp)
#endif

/*
 * Whether the running kernel has soft-dirty and uffd-wp entry bits: its
 * configuration says so until they became questions asked at run time,
 * pgtable_supports_soft_dirty() and pgtable_supports_uffd_wp() (Chunyan
 * Zhang's riscv soft-dirty and uffd-wp series, 2025: riscv64 keeps them
 * in bits 60:59, which the CPU may give to software only with the
 * Svrsw60t59b extension; 7.2 here, untested: 6.19 to 7.1).  Macros in
 * both the generic and the riscv headers, so their presence is the test.
 */
#ifdef pgtable_supports_soft_dirty
#define ptwalk_have_soft_dirty()	pgtable_supports_soft_dirty()
#else
#define ptwalk_have_soft_dirty()	IS_ENABLED(CONFIG_MEM_SOFT_DIRTY)
#endif
#ifdef pgtable_supports_uffd_wp
#define ptwalk_have_uffd_wp()		pgtable_supports_uffd_wp()
#else
#define ptwalk_have_uffd_wp()	IS_ENABLED(CONFIG_HAVE_ARCH_USERFAULTFD_WP)
#endif

/*
 * arm64 chooses at boot how many levels its page tables use since 6.9
 * (the LPA2 series, "arm64: mm: Add support for folding PUDs at runtime"
 * and its P4D twin): pgtable_l4_enabled() and pgtable_l5_enabled() say
 * which of the configured levels are folded.  Before 6.9 the count is
 * CONFIG_PGTABLE_LEVELS.  x86-64 has had pgtable_l5_enabled() all along.
 */
#if defined(CONFIG_ARM64)
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
#define ptwalk_arm64_pgtable_levels()	CONFIG_PGTABLE_LEVELS
#else
#define ptwalk_arm64_pgtable_levels() \
	(CONFIG_PGTABLE_LEVELS - \
	 (CONFIG_PGTABLE_LEVELS > 4 && !pgtable_l5_enabled()) - \
	 (CONFIG_PGTABLE_LEVELS > 3 && !pgtable_l4_enabled()))
#endif
#endif

/*
 * arm64's PROT_NONE entry: until 6.9 PTE_VALID clear and the software bit
 * PTE_PROT_NONE (58) set.  6.10 ("arm64/mm: Remove PTE_PROT_NONE bit")
 * encodes it as present-invalid (PTE_VALID clear, PTE_PRESENT_INVALID,
 * i.e. nG, set) with neither user read nor user execute, as its
 * pte_protnone() says (there only under CONFIG_NUMA_BALANCING).
 */
#if defined(CONFIG_ARM64)
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
#define ptwalk_arm64_pte_protnone(pte) \
	((pte_val(pte) & (PTE_VALID | PTE_PROT_NONE)) == PTE_PROT_NONE)
#else
#define ptwalk_arm64_pte_protnone(pte) \
	(pte_present_invalid(pte) && !pte_user(pte) && !pte_user_exec(pte))
#endif
#endif

/*
 * Whether a frame is pinned for DMA (FOLL_PIN): page_maybe_dma_pinned()
 * until the folio version took its place (present in 6.1, the page one
 * gone by 6.12); 5.10 has only the page one.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#define ptwalk_page_dma_pinned(page)	page_maybe_dma_pinned(page)
#else
#define ptwalk_page_dma_pinned(page)	folio_maybe_dma_pinned(page_folio(page))
#endif

/*
 * DMA_ATTR_MMIO came in 6.18 with dma_map_phys(), which maps MMIO with it
 * (dma_map_resource() its caller); before, no mapping carries it.
 */
#include <linux/dma-mapping.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
#define PTWALK_DMA_ATTR_MMIO	0UL
#else
#define PTWALK_DMA_ATTR_MMIO	DMA_ATTR_MMIO
#endif

#endif /* PTWALK_COMPAT_H */
