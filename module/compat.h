/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version guard of ptwalk.ko lives here, each with the release
 * that changed the interface (the test fixture's own are in
 * tests/fixture/fixture_compat.h).  Where a backport can bring the change
 * to an older series, the guard is not the version but a feature test:
 * module/Kbuild compiles module/conftest/NAME.c with the kernel's own
 * flags and defines PTWALK_HAVE_NAME where it compiles; or the kernel's
 * own configuration symbol or macro.  The version tests left are a floor
 * and changes whose older branch stays right on a kernel with both; the
 * end of this file checks each feature test against the release that
 * brought it.  make check-kernels builds and tests
 * Debian's 5.10, 6.1, 6.12 and the newest (7.2 when written); a branch
 * that only a release between those takes (6.11, 6.19 to 7.1) says
 * "untested" where it is chosen.
 *
 * Changes that need no guard: 6.12 removed no_llseek, and a NULL .llseek
 * has meant the same (-ESPIPE) on every kernel here, so the debugfs fops
 * leave it NULL, as stream_open() files do anyway.  task_struct's
 * start_boottime (the recorder's pid check) is there from 5.5 to 7.2,
 * and ns_capable_noaudit() exported from 4.10 to 7.2.
 */
#ifndef PTWALK_COMPAT_H
#define PTWALK_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/pgtable.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "ptwalk needs Linux 5.10 or newer"
#endif

/*
 * pmdp_get_lockless() for every architecture came in 6.5 with the series
 * that made PTE tables RCU-freed, which vendor kernels backport (RHEL 9's
 * 5.14): a feature test.  Without it a 64-bit PMD is read in one access.
 */
#ifdef PTWALK_HAVE_PMDP_GET_LOCKLESS
#define ptwalk_pmdp_get(pmdp)	pmdp_get_lockless(pmdp)
#else
#define ptwalk_pmdp_get(pmdp)	READ_ONCE(*(pmdp))
#endif

/*
 * Mapping a PTE table, the same on every kernel.  6.5 made PTE tables
 * RCU-freed and pte_offset_map_lock() able to fail (NULL: the PMD changed,
 * re-read it), and 6.6 lets khugepaged retract tables without the mmap
 * lock.  A version test would be wrong where that is backported under an
 * older version (RHEL 9's 5.14), and the helper behind the macro,
 * __pte_offset_map_lock(), is not exported; so map and lock here, as it
 * does: under RCU the table cannot be freed, and the PMD is re-checked
 * under the lock.  Before 6.5 the mmap read lock the walker holds already
 * keeps the table, and RCU and the check cost nothing more (the modules'
 * architectures are 64-bit: no highmem PTE tables to kmap).
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
	pmdval = ptwalk_pmdp_get(pmdp);
	if (!pmd_present(pmdval) || pmd_leaf(pmdval) || pmd_bad(pmdval))
		goto fail;
	ptl = pte_lockptr(mm, &pmdval);
	spin_lock(ptl);
	if (!pmd_same(pmdval, ptwalk_pmdp_get(pmdp))) {
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
 * to 7.1); there the call alone.  A macro: its presence is the test.
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

/*
 * vma_lookup() came in 5.14: the VMA that contains @addr, or NULL.  A
 * version test: find_vma() stays, so the older branch is right on a kernel
 * that has both (a backport).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 14, 0)
static inline struct vm_area_struct *ptwalk_vma_lookup(struct mm_struct *mm,
							unsigned long addr)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	return vma && vma->vm_start <= addr ? vma : NULL;
}
#else
#define ptwalk_vma_lookup(mm, addr)	vma_lookup(mm, addr)
#endif

/*
 * 6.11 gave huge_ptep_get() the mm and the address (arm64's contiguous
 * hugetlb entries need them): a feature test, as a backport brings it.
 */
#ifdef PTWALK_HAVE_HUGE_PTEP_GET_MM
#define ptwalk_huge_ptep_get(mm, addr, ptep)	huge_ptep_get(mm, addr, ptep)
#else
#define ptwalk_huge_ptep_get(mm, addr, ptep)	huge_ptep_get(ptep)
#endif

/*
 * Non-present entries (swap, migration, device, hwpoison, markers), read
 * with the kernel's own helpers: swapops.h until 6.18, leafops.h's
 * softleaf_*() since 6.19 (untested: 6.19 to 7.1), where swapops.h lost
 * pte_to_swp_entry() and the is_*_entry() tests.  softleaf_t is still a
 * swp_entry_t there, so swp_type()/swp_offset() read both.  A kind that a
 * kernel does not have cannot occur on it: its test is false.  Each is a
 * feature test (module/conftest/), as vendor kernels backport them: PTE
 * markers and swp_offset_pfn() are in RHEL 9's 5.14.
 */
/*
 * Whether @page may be pinned with FOLL_PIN: folio_maybe_dma_pinned() of
 * the page's folio where the kernel has it (5.16), page_maybe_dma_pinned()
 * before (5.10), which is gone in 6.12.  A feature test: vendor kernels
 * backport folios.
 */
#ifdef PTWALK_HAVE_FOLIO_MAYBE_DMA_PINNED
#define ptwalk_page_maybe_dma_pinned(page) \
	folio_maybe_dma_pinned(page_folio(page))
#else
#define ptwalk_page_maybe_dma_pinned(page)	page_maybe_dma_pinned(page)
#endif

/*
 * The low bits of a folio's mapping field that say it is no address
 * space: PAGE_MAPPING_FLAGS until 6.17 ("mm: rename PAGE_MAPPING_* to
 * FOLIO_MAPPING_*"), both macros.
 */
#ifdef FOLIO_MAPPING_FLAGS
#define PTWALK_MAPPING_FLAGS		FOLIO_MAPPING_FLAGS
#else
#define PTWALK_MAPPING_FLAGS		PAGE_MAPPING_FLAGS
#endif

/*
 * A page-cache frame taken for a look at its file (frame_file.c): its
 * folio (5.16), or before folios its compound head.  A feature test:
 * vendor kernels backport folios.  Only an LRU or hugetlb folio is taken,
 * checked before and after the reference (mm/page_idle.c's rule): any
 * other owner of a page may use its lock bit or its mapping field for
 * itself (SLUB's slab_lock(), balloon and zsmalloc pages, which BUG or
 * WARN if their trylock fails).  ptwalk_frame_get() gives the referenced
 * folio or head page of @page, or -ENOENT (no such folio), -EAGAIN (it
 * changed under the look, or a file's page not yet on the LRU: its
 * lru_add batch drains soon).
 */
#ifdef PTWALK_HAVE_FOLIO_TRY_GET
#define ptwalk_frame_t			struct folio
static inline bool ptwalk_frame_candidate(struct folio *folio)
{
	return folio_test_lru(folio) || folio_test_hugetlb(folio);
}

/* a racy look at the mapping field, never dereferenced */
static inline bool ptwalk_frame_looks_file(struct folio *folio)
{
	unsigned long m = (unsigned long)READ_ONCE(folio->mapping);

	return m && !(m & PTWALK_MAPPING_FLAGS) && !folio_test_slab(folio) &&
	       !folio_test_swapcache(folio);
}

static inline int ptwalk_frame_get(struct page *page, struct folio **out)
{
	struct folio *folio = page_folio(page);

	if (!ptwalk_frame_candidate(folio))
		return ptwalk_frame_looks_file(folio) ? -EAGAIN : -ENOENT;
	if (!folio_try_get(folio))
		return -ENOENT;
	/* split, freed or taken off the LRU meanwhile */
	if (folio != page_folio(page) || !ptwalk_frame_candidate(folio)) {
		folio_put(folio);
		return -EAGAIN;
	}
	*out = folio;
	return 0;
}
#define ptwalk_frame_put(f)		folio_put(f)
#define ptwalk_frame_trylock(f)		folio_trylock(f)
#define ptwalk_frame_unlock(f)		folio_unlock(f)
#define ptwalk_frame_file_mapping(f) \
	(folio_test_anon(f) || folio_test_swapcache(f) ? NULL : folio_mapping(f))
#define ptwalk_frame_index(f)		((f)->index)
#define ptwalk_frame_pfn(f)		folio_pfn(f)
#define ptwalk_frame_pages(f)		folio_nr_pages(f)
#define ptwalk_frame_hugetlb(f)		folio_test_hugetlb(f)
/*
 * Whether @page is a file's (not anonymous, not swap cache): a racy read
 * of its mapping field, as a probe may, inline on the probe's path.
 */
#define ptwalk_page_in_file(page)	ptwalk_frame_looks_file(page_folio(page))
#define ptwalk_page_swapcache(page)	folio_test_swapcache(page_folio(page))
#else
#define ptwalk_frame_t			struct page
static inline bool ptwalk_frame_candidate(struct page *head)
{
	return PageLRU(head) || PageHuge(head);
}

static inline bool ptwalk_frame_looks_file(struct page *head)
{
	unsigned long m = (unsigned long)READ_ONCE(head->mapping);

	return m && !(m & PTWALK_MAPPING_FLAGS) && !PageSlab(head) &&
	       !PageSwapCache(head);
}

static inline int ptwalk_frame_get(struct page *page, struct page **out)
{
	struct page *head = compound_head(page);

	if (!ptwalk_frame_candidate(head))
		return ptwalk_frame_looks_file(head) ? -EAGAIN : -ENOENT;
	if (!get_page_unless_zero(head))
		return -ENOENT;
	if (head != compound_head(page) || !ptwalk_frame_candidate(head)) {
		put_page(head);
		return -EAGAIN;
	}
	*out = head;
	return 0;
}
#define ptwalk_frame_put(p)		put_page(p)
#define ptwalk_frame_trylock(p)		trylock_page(p)
#define ptwalk_frame_unlock(p)		unlock_page(p)
#define ptwalk_frame_file_mapping(p) \
	(PageAnon(p) || PageSwapCache(p) ? NULL : page_mapping(p))
#define ptwalk_frame_index(p)		((p)->index)
#define ptwalk_frame_pfn(p)		page_to_pfn(p)
#define ptwalk_frame_pages(p)		compound_nr(p)
#define ptwalk_frame_hugetlb(p)		PageHuge(p)
#define ptwalk_page_in_file(page) \
	ptwalk_frame_looks_file(compound_head(page))
#define ptwalk_page_swapcache(page)	PageSwapCache(compound_head(page))
#endif

/*
 * A hugetlb folio's index in its file counts huge pages until 6.7 ("mm:
 * remove hugetlb special casing in filemap.c" made it count base pages;
 * hugetlb_basepage_index() went with it).  A feature test: the change was
 * backported (to 6.6 in some trees).
 */
#ifdef PTWALK_HAVE_HUGETLB_BASEPAGE_INDEX
#define ptwalk_frame_base_index(f) \
	(ptwalk_frame_hugetlb(f) ? \
	 (unsigned long)ptwalk_frame_index(f) * ptwalk_frame_pages(f) : \
	 (unsigned long)ptwalk_frame_index(f))
#else
#define ptwalk_frame_base_index(f)	((unsigned long)ptwalk_frame_index(f))
#endif

/*
 * Whether a present leaf of @level, in the layout of a PTE (arch.h), is
 * special: no struct page to refcount.  6.12 ("mm: introduce
 * ARCH_SUPPORTS_HUGE_PFNMAP and special bits to pmd/pud") marks PMD and
 * PUD leaves of pfn maps (vfio-pci's large BARs) special in the bit a PTE
 * uses, where the architecture says so in its configuration
 * (ARCH_SUPPORTS_PMD_PFNMAP, ARCH_SUPPORTS_PUD_PFNMAP): those symbols are
 * the test, as a backport carries them with the bits.  Elsewhere only PTEs
 * have the bit.
 */
#define ptwalk_leaf_special(entry, level) \
	(((level) == PTWALK_LEVEL_PTE || \
	  ((level) == PTWALK_LEVEL_PMD && \
	   IS_ENABLED(CONFIG_ARCH_SUPPORTS_PMD_PFNMAP)) || \
	  ((level) == PTWALK_LEVEL_PUD && \
	   IS_ENABLED(CONFIG_ARCH_SUPPORTS_PUD_PFNMAP))) && pte_special(entry))

/* swapops.h (5.10's, and 7.2's through leafops.h) uses it, unincluded */
#include <linux/swap.h>
#ifndef PTWALK_HAVE_LEAFOPS
#include <linux/swapops.h>

#define ptwalk_swp_t				swp_entry_t

#define ptwalk_pte_to_swp(pte)			pte_to_swp_entry(pte)
#define ptwalk_swp_is_swap(swp)			(!non_swap_entry(swp))
#define ptwalk_swp_is_migration(swp)		is_migration_entry(swp)
#define ptwalk_swp_is_device_private(swp)	is_device_private_entry(swp)
#define ptwalk_swp_is_hwpoison(swp)		is_hwpoison_entry(swp)

/* 5.14 renamed is_write_migration_entry() */
#ifdef PTWALK_HAVE_WRITABLE_MIGRATION_ENTRY
#define ptwalk_swp_is_migration_write(swp)	is_writable_migration_entry(swp)
#else
#define ptwalk_swp_is_migration_write(swp)	is_write_migration_entry(swp)
#endif

/* Device-exclusive entries came in 5.14. */
#ifdef PTWALK_HAVE_DEVICE_EXCLUSIVE_ENTRY
#define ptwalk_swp_is_device_exclusive(swp)	is_device_exclusive_entry(swp)
#else
#define ptwalk_swp_is_device_exclusive(swp)	false
#endif

/* PTE markers came in 5.19. */
#ifdef PTWALK_HAVE_PTE_MARKER_ENTRY
#define ptwalk_swp_is_marker(swp)		is_pte_marker_entry(swp)
#else
#define ptwalk_swp_is_marker(swp)		false
#endif

/*
 * 6.1 keeps flags (migration A/D) above a PFN entry's PFN; before, a PFN
 * entry's whole offset is its PFN.
 */
#ifdef PTWALK_HAVE_SWP_OFFSET_PFN
#define ptwalk_swp_offset_pfn(swp) \
	(is_pfn_swap_entry(swp) ? swp_offset_pfn(swp) : swp_offset(swp))
#else
#define ptwalk_swp_offset_pfn(swp)		swp_offset(swp)
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
 * series may have both.  So a feature test (module/conftest/).
 */
#ifdef PTWALK_HAVE_IOMMU_DRIVER_GET_DOMAIN_FOR_DEV
#define ptwalk_iommu_domain_locked(dev)	iommu_driver_get_domain_for_dev(dev)
#else
#define ptwalk_iommu_domain_locked(dev)	iommu_get_domain_for_dev(dev)
#endif

/*
 * Guard-region markers: MADV_GUARD_INSTALL (6.13, 662df3e5c376 "mm:
 * madvise: implement lightweight guard page mechanism") installs a PTE
 * marker with PTE_MARKER_GUARD; swapops.h's is_guard_swp_entry() tests it
 * until 6.18 (untested: 6.13 to 6.18), leafops.h's
 * softleaf_is_guard_marker() since 6.19 (leafops.h came after the
 * markers).  Before 6.13, or a backport of them, there is none.
 */
#if defined(PTWALK_HAVE_LEAFOPS)
#define PTWALK_HAVE_GUARD_MARKER		1
#define ptwalk_swp_is_guard(swp)		softleaf_is_guard_marker(swp)
#elif defined(PTWALK_HAVE_GUARD_SWP_ENTRY)
#define PTWALK_HAVE_GUARD_MARKER		1
#define ptwalk_swp_is_guard(swp)		is_guard_swp_entry(swp)
#else
#define PTWALK_HAVE_GUARD_MARKER		0
#define ptwalk_swp_is_guard(swp)		false
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
 * which of the configured levels are folded (a feature test: a walk with
 * a level too many would read a PMD as a table).  Before 6.9 the count is
 * CONFIG_PGTABLE_LEVELS.  x86-64 has had pgtable_l5_enabled() all along.
 */
#if defined(CONFIG_ARM64)
#ifndef PTWALK_HAVE_PGTABLE_L4_ENABLED
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
 * pte_protnone() says (there only under CONFIG_NUMA_BALANCING).  The
 * macro PTE_PROT_NONE is the test, as a backport removes it.
 */
#if defined(CONFIG_ARM64)
#ifdef PTE_PROT_NONE
#define ptwalk_arm64_pte_protnone(pte) \
	((pte_val(pte) & (PTE_VALID | PTE_PROT_NONE)) == PTE_PROT_NONE)
#else
#define ptwalk_arm64_pte_protnone(pte) \
	(pte_present_invalid(pte) && !pte_user(pte) && !pte_user_exec(pte))
#endif
#endif

/*
 * A feature test that finds nothing on a release that has the interface
 * is a broken test (module/Kbuild, the kernel's flags), not a kernel
 * without it: stop the build rather than walk with the older branch.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0) && \
	!defined(PTWALK_HAVE_PMDP_GET_LOCKLESS)
#error "conftest/pmdp_get_lockless.c failed on 6.5 or later: see module/Kbuild"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0) && \
	!defined(PTWALK_HAVE_FOLIO_MAYBE_DMA_PINNED)
#error "conftest/folio_maybe_dma_pinned.c failed on 5.16 or later"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0) && \
	!defined(PTWALK_HAVE_FOLIO_TRY_GET)
#error "conftest/folio_try_get.c failed on 5.16 or later"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0) && \
	defined(CONFIG_HUGETLB_PAGE) && !defined(PTWALK_HAVE_HUGE_PTEP_GET_MM)
#error "conftest/huge_ptep_get_mm.c failed on 6.11 or later"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 19, 0) && \
	!defined(PTWALK_HAVE_LEAFOPS)
#error "conftest/leafops.c failed on 6.19 or later"
#endif
#ifndef PTWALK_HAVE_LEAFOPS
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 14, 0) && \
	(!defined(PTWALK_HAVE_WRITABLE_MIGRATION_ENTRY) || \
	 !defined(PTWALK_HAVE_DEVICE_EXCLUSIVE_ENTRY))
#error "conftest/writable_migration_entry.c or device_exclusive_entry.c failed on 5.14 or later"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 19, 0) && \
	!defined(PTWALK_HAVE_PTE_MARKER_ENTRY)
#error "conftest/pte_marker_entry.c failed on 5.19 or later"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0) && \
	!defined(PTWALK_HAVE_SWP_OFFSET_PFN)
#error "conftest/swp_offset_pfn.c failed on 6.1 or later"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0) && \
	!defined(PTWALK_HAVE_GUARD_SWP_ENTRY)
#error "conftest/guard_swp_entry.c failed on 6.13 or later"
#endif
#endif
#if defined(CONFIG_ARM64) && CONFIG_PGTABLE_LEVELS > 3 && \
	LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0) && \
	!defined(PTWALK_HAVE_PGTABLE_L4_ENABLED)
#error "conftest/pgtable_l4_enabled.c failed on arm64 6.9 or later"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0) && \
	LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0) && \
	!defined(PTWALK_HAVE_TRACE_DMA_MAP_PAGE)
#error "conftest/trace_dma_map_page.c failed on 6.12 to 6.17"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0) && \
	!defined(PTWALK_HAVE_TRACE_DMA_MAP_PHYS)
#error "conftest/trace_dma_map_phys.c failed on 6.18 or later"
#endif
/* 6.17's nvme calls it, whichever release brought it */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0) && \
	!defined(PTWALK_HAVE_DMA_NEED_UNMAP)
#error "conftest/dma_need_unmap.c failed on 6.17 or later"
#endif

/*
 * Whether the DMA API lets a driver skip the unmap of what it maps on
 * @dev: dma_need_unmap() false (6.16, "dma-mapping: Provide an interface
 * to allow avoid unmap calls"; dma-direct with no bounce buffer and no
 * cache maintenance), and nvme's blk_rq_dma_unmap() (6.17) and hmm then
 * never unmap.  Before it, every driver unmaps.  A feature test: a
 * backport of the two-step DMA API brings it.
 */
#ifdef PTWALK_HAVE_DMA_NEED_UNMAP
#define ptwalk_dma_unmap_optional(dev)	(!dma_need_unmap(dev))
#else
#define ptwalk_dma_unmap_optional(dev)	false
#endif

/*
 * DMA_ATTR_MMIO came in 6.18 with dma_map_phys(), which maps MMIO with it
 * (dma_map_resource() its caller); before, no mapping carries it.  A
 * macro, so a backport that brings it defines it: no version test.
 */
#include <linux/dma-mapping.h>
#ifdef DMA_ATTR_MMIO
#define PTWALK_DMA_ATTR_MMIO	DMA_ATTR_MMIO
#else
#define PTWALK_DMA_ATTR_MMIO	0UL
#endif

#endif /* PTWALK_COMPAT_H */
