// SPDX-License-Identifier: GPL-2.0
/*
 * Huge pfn maps: the fixture's huge pfn region (fixture_abi.h), a
 * VM_PFNMAP mapping of RAM the fixture allocated, filled on fault with one
 * PMD leaf where the kernel allows it (6.12+, as vfio-pci maps a large
 * BAR) and with 4 KiB entries elsewhere.  Which of the two it did, the
 * fixture says (its insert counters, read around the fault): the case
 * never guesses from the kernel's version.  ptwalk must report that level,
 * the fixture's frames, and the leaf special: 6.12 marks PMD and PUD leaves
 * of pfn maps special as PTEs always were.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "vmtest.h"

static bool huge_info(struct vmtest *t, struct ptwalk_fixture_huge *h)
{
	if (ioctl(t->fixture_fd, PTWALK_FIXTURE_IOC_HUGE, h))
		return fail(t, "fixture huge region: %s", strerror(errno));
	if (!h->size || h->size % PAGE || h->pfn % (h->size / PAGE))
		return fail(t, "fixture huge region: %" PRIu64
			    " bytes at pfn 0x%" PRIx64 ", not aligned to its size",
			    (uint64_t)h->size, (uint64_t)h->pfn);
	return true;
}

/*
 * What the fixture inserted for one write to every page, from the counter
 * deltas: one PMD leaf and no PTE where it could map a PMD leaf (the
 * whole region in the first fault), otherwise one PTE per page.  The level
 * ptwalk must find goes to e->level.
 */
static bool fixture_did(struct vmtest *t, const struct ptwalk_fixture_huge *a,
			const struct ptwalk_fixture_huge *b, struct expect *e)
{
	uint64_t pmd = b->pmd_inserts - a->pmd_inserts;
	uint64_t pte = b->pte_inserts - a->pte_inserts;
	uint64_t refused = b->pmd_fallbacks - a->pmd_fallbacks;
	uint64_t pages = a->size / PAGE;

	if (a->pmd_capable) {
		if (pmd < 1 || pte)
			return fail(t, "the fixture could map a PMD leaf but inserted %"
				    PRIu64 " PMD and %" PRIu64 " PTE entries (%"
				    PRIu64 " PMD faults refused; no PMD fault offered: THP disabled in sysfs?)",
				    pmd, pte, refused);
		e->level = PTWALK_LEVEL_PMD;
		return true;
	}
	if (pmd || pte != pages)
		return fail(t, "the fixture maps 4 KiB entries only, yet inserted %"
			    PRIu64 " PMD and %" PRIu64 " PTE entries for %" PRIu64
			    " pages", pmd, pte, pages);
	e->level = PTWALK_LEVEL_PTE;
	printf("# hugepfn_pmd: the fixture cannot map a PMD pfn leaf on this kernel (before 6.12, or no CONFIG_ARCH_SUPPORTS_PMD_PFNMAP): its %" PRIu64
	       " 4 KiB entries checked instead\n", pages);
	return true;
}

/*
 * Maps the region at an address aligned to its size, writes every page,
 * then checks the walk page by page against the fixture's oracle
 * (follow_pfnmap_start() on 6.12+, which reads PMD leaves too) and against
 * the frames the fixture allocated, and ptcompare's view (pagemap shows a
 * VM_PFNMAP mapping as holes: "pfnmap_hidden").  A PMD leaf is one record.
 */
VMTEST_CASE(hugepfn, "hugepfn_pmd", hugepfn_pmd)
{
	struct ptwalk_fixture_huge before, after;
	struct expect e = {
		.present = true,
		.flags_set = PTWALK_F_PRESENT | PTWALK_F_WRITE | PTWALK_F_USER |
			     PTWALK_F_SPECIAL | PTWALK_F_PFN_VALID,
		.flags_clear = PTWALK_F_ZERO_PAGE | PTWALK_F_HUGE_ZERO |
			       PTWALK_F_COMPOUND,
		.vm_set = PTWALK_VM_PFNMAP | PTWALK_VM_IO | PTWALK_VM_SHARED,
	};
	uint64_t size, pages, i;
	char *p, *q;
	bool ok;

	if (!huge_info(t, &before))
		return false;
	size = before.size;
	pages = size / PAGE;
	p = map_aligned(t, size, size, -1);
	if (!p)
		return false;
	q = mmap(p, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 t->fixture_fd, PTWALK_FIXTURE_HUGE_OFFSET);
	if (q == MAP_FAILED) {
		ok = fail(t, "mmap the huge region: %s", strerror(errno));
		munmap(p, size);
		return ok;
	}
	touch_write(q, size);
	ok = huge_info(t, &after) && fixture_did(t, &before, &after, &e) &&
	     check_range(t, A(q), A(q) + size, 1, &e);
	for (i = 0; ok && i < pages; i++) {
		uint64_t addr = A(q) + i * PAGE;
		uint64_t pfn = ptwalk_pfn_at(ptwalk_find(t->recs, t->nr_recs,
							 addr, PAGE_SHIFT_K), addr, PAGE_SHIFT_K);

		if (pfn != before.pfn + i)
			ok = fail(t, "page %" PRIu64 ": pfn 0x%" PRIx64
				  ", fixture mapped 0x%" PRIx64, i, pfn,
				  (uint64_t)before.pfn + i);
	}
	if (ok && e.level == PTWALK_LEVEL_PMD &&
	    (t->nr_recs != 1 || t->recs[0].nr_pages != pages))
		ok = fail(t, "%zu records, the first of %" PRIu64
			  " pages: expected one PMD leaf of %" PRIu64,
			  t->nr_recs, (uint64_t)t->recs[0].nr_pages, pages);
	munmap(q, size);
	return ok;
}
