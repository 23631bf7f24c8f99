// SPDX-License-Identifier: GPL-2.0
/*
 * The two page table races ptwalk.ko must survive (docs/reliability.md),
 * hammered for ptwalk_stress_s= seconds (the kernel command line; make
 * check-debug sets it long, on the KASAN + lockdep kernel, where a freed
 * table read or a lock taken in a freed page is a splat that fails
 * kernel_log_clean):
 *
 * - vtop of addresses a target keeps mapping and unmapping: munmap frees
 *   page tables after downgrading to the mmap read lock, so vtop walks
 *   nothing where no VMA is (docs/interface.md).  Beside the splat, the answer
 *   itself is checked: once no VMA holds the address, munmap has zapped
 *   it, so a walk there must find nothing mapped.
 * - range queries of a shared hugetlb mapping whose PMD table is shared
 *   with other processes, unshared by MADV_DONTNEED and hole punching
 *   while sharers come and go (the last one's exit frees the table).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../../module/ptwalk_names.h"
#include "vmtest.h"

#ifndef MFD_HUGETLB
#define MFD_HUGETLB 0x0004U
#endif

static void stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * The start of a free, 1 GiB-aligned GiB of this process's address space,
 * with free space around it: what is mapped there is alone in its PUD, so
 * that munmap there frees PTE and PMD tables.
 */
static char *lonely_area(void)
{
	char *r = mmap(NULL, 3 * GIB, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *a;

	if (r == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)r + GIB) & ~(uintptr_t)(GIB - 1));
	munmap(r, 3 * GIB);
	return a;
}

/* The target of the vtop race: maps, touches and unmaps @a for ever. */
static void map_unmap_loop(char *a, size_t len)
{
	for (unsigned int round = 0;; round++) {
		char *p = mmap(a, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		/* PTE-mapped most rounds, a THP in some */
		madvise(p, len, round % 4 ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
		touch_write(p, len);
		munmap(p, len);
	}
}

VMTEST_CASE(race, "race_vtop_unmapped", vtop_unmapped)
{
	size_t len = 4 * MIB;
	unsigned int secs = vm_stress_seconds();
	uint64_t in_vma = 0, no_vma = 0, mapped = 0, queries = 0;
	char *a = lonely_area();
	bool ok = true;
	double until;
	pid_t target;
	int fd;

	if (!a)
		return fail(t, "no free 3 GiB of address space");
	target = vm_open_query_fork(t, &fd);
	if (target < 0)
		return false;
	if (target == 0)
		map_unmap_loop(a, len);
	until = vm_now_s() + secs;
	for (uint64_t i = 0; ok && vm_now_s() < until; i++) {
		uint64_t addr = A(a) + (i * 97 % (len / PAGE)) * PAGE;
		struct ptwalk_vtop v;
		int err = ptwalk_query_vtop(fd, target, addr, &v);

		queries++;
		if (err) {
			ok = fail(t, "vtop 0x%" PRIx64 " of %d: %s", addr,
				  (int)target, strerror(-err));
			break;
		}
		if (!(v.flags & PTWALK_F_NO_VMA)) {
			in_vma++;
			mapped += v.stop == PTWALK_VTOP_STOP_LEAF;
			continue;
		}
		no_vma++;
		/* munmap zaps before it lets go of the mmap lock */
		if (v.stop != PTWALK_VTOP_STOP_NONE)
			ok = fail(t, "vtop 0x%" PRIx64 ": no VMA, yet the walk stopped at %u (pfn 0x%" PRIx64 "): it walked tables munmap was tearing down",
				  addr, v.stop, (uint64_t)v.pfn);
	}
	stop(target);
	close(fd);
	printf("# vtop_unmapped: %u s, %" PRIu64 " queries: %" PRIu64
	       " in a VMA (%" PRIu64 " mapped), %" PRIu64 " where none was\n",
	       secs, queries, in_vma, mapped, no_vma);
	/* both sides of the race, or it was not run */
	return ok && ((mapped && no_vma) ||
		      fail(t, "the queries never met both a mapped and an unmapped address"));
}

/*
 * The sharers' side: each child faults the file's first huge page in
 * (taking part in the shared PMD table, or making one) and exits at once,
 * so that the last holder of a table frees it.  This process faults it in
 * too, for a moment, so that the scanner can find its PUD entry equal to
 * the target's (the table is shared), then unshares.
 */
static void sharers(volatile char *a, size_t hp)
{
	for (;;) {
		pid_t g = fork();

		if (g == 0) {
			a[0] = 1;
			_exit(0);
		}
		if (g > 0)
			waitpid(g, NULL, 0);
		a[0] = 2;
		usleep(1000);
		madvise((char *)a, hp, MADV_DONTNEED);
	}
}

/*
 * The scanned process: re-faults and unshares its view, over and over,
 * using nr of the pool's huge pages of hp bytes.  It keeps each page for
 * an eighth of what faulting it in took: the page is otherwise present
 * only from the end of a fault (which clears a 512M page for long under
 * TCG) to the next instruction's unmapping, which a loaded host's walks
 * can miss for seconds.
 */
static void unsharer(char *a, size_t span, size_t hp, unsigned int nr,
		     int memfd, bool dontneed)
{
	for (unsigned int round = 0;; round++) {
		double faulted = vm_now_s();

		a[(round % nr) * hp] = 3;
		usleep((useconds_t)((vm_now_s() - faulted) * 1e6 / 8));
		if (dontneed && round % 2)
			madvise(a, span, MADV_DONTNEED);
		else
			fallocate(memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				  0, nr * hp);
	}
}

/* Free pages of the hugetlb pool of size bytes, at most max; 0 if none. */
static unsigned int pool_free(size_t size, unsigned int max)
{
	char path[96];
	unsigned int n = 0;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/kernel/mm/hugepages/hugepages-%zukB/free_hugepages", size >> 10);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%u", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n < max ? n : max;
}

/*
 * The entry pointing to addr's PMD table: that of the lowest level above
 * the PMD which the paging does not fold away (the PUD with 4K and 16K
 * pages, the PGD with 64K's three levels); 0 when there is none: with two
 * levels (64K pages, 42-bit VA) the PMD entries are the PGD's own
 * (ptwalk_vtop_slot()), in each process's top table.
 */
static bool pmd_table_of(struct vmtest *t, int fd, pid_t pid, uint64_t addr,
			 uint64_t *table)
{
	struct ptwalk_vtop v;
	int err = ptwalk_query_vtop(fd, pid, addr, &v);
	int lvl;

	if (err)
		return fail(t, "vtop of %d: %s", (int)pid, strerror(-err));
	*table = 0;
	for (lvl = PTWALK_VTOP_PUD;
	     lvl >= PTWALK_VTOP_PGD &&
	     lvl != (int)ptwalk_vtop_slot(PTWALK_VTOP_PMD, v.nr_levels);
	     lvl--) {
		if (v.walked & (1U << lvl)) {
			*table = v.entry[lvl];
			break;
		}
	}
	return true;
}

/*
 * Whether the kernel shares PMD tables of hugetlb: x86-64 always; arm64
 * with 4K and 16K pages only (arch/arm64/Kconfig: ARCH_WANT_HUGE_PMD_SHARE
 * if ARM64_4K_PAGES || (ARM64_16K_PAGES && !ARM64_VA_BITS_36)).
 */
static bool pmd_share_expected(void)
{
#if defined(__aarch64__)
	return PAGE != 65536;
#else
	return true;
#endif
}

/*
 * PMD tables of a shared hugetlb mapping are shared between processes
 * when the VMA covers a whole aligned PUD span (1G with 4K pages, 64G with
 * 16K), of the default hugetlb size, a PMD leaf.  The file is sparse:
 * MAP_NORESERVE, and only the first pages of the pool are ever touched.
 * Where the kernel does not share them (arm64 with 64K pages) the walks
 * must see each process's own PMD table, never one shared; with two levels
 * (64K pages, 42-bit VA: no PUD span, the PMD entries are each process's
 * top table) vtop must show no table above the PMD at all, over 4 pages.
 */
VMTEST_CASE(race, "race_shared_hugetlb", shared_hugetlb)
{
	bool two_levels = user_paging_levels() == 2;
	size_t hp = vm_granule().pmd;
	size_t span = two_levels ? 4 * hp : hp << (PAGE_SHIFT_K - 3);
	/*
	 * Two faults racing on a punched page each allocate one before one
	 * wins the page cache: keep 2 pages of the pool spare (16K pages have
	 * 2 of 32M: the target then re-faults the first page only).
	 */
	unsigned int nr = pool_free(hp, 6);
	unsigned int secs = vm_stress_seconds();
	uint64_t walks = 0, leaves = 0, shared = 0, apart = 0;
	bool share = pmd_share_expected();
	int memfd = memfd_create("ptwalk-race", MFD_HUGETLB);
	bool ok = true, dontneed;
	pid_t target, sharer;
	char *r, *a;
	double start, until;
	int fd;

	if (memfd < 0)
		return fail(t, "memfd_create(MFD_HUGETLB): %s", strerror(errno));
	if (nr < 2) {
		close(memfd);
		return fail(t, "fewer than 2 free hugetlb pages of %zu bytes", hp);
	}
	nr = nr > 2 ? nr - 2 : 1;
	if (ftruncate(memfd, span)) {
		close(memfd);
		return fail(t, "ftruncate %zu: %s", span, strerror(errno));
	}
	/* shared PMD tables need a VMA covering an aligned PUD span */
	r = mmap(NULL, 2 * span, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	a = r == MAP_FAILED ? NULL :
	    (char *)(((uintptr_t)r + span - 1) & ~(uintptr_t)(span - 1));
	if (!a || mmap(a, span, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_FIXED | MAP_NORESERVE, memfd, 0) != a) {
		close(memfd);
		return fail(t, "mapping %zu bytes of hugetlb: %s", span, strerror(errno));
	}
	/* MADV_DONTNEED on hugetlb came in 5.18; hole punching does it before */
	a[0] = 0;
	dontneed = !madvise(a, hp, MADV_DONTNEED);
	fd = vm_open_query(t);
	sharer = fd < 0 ? -1 : fork();
	if (sharer == 0)
		sharers(a, hp);
	target = sharer < 0 ? -1 : fork();
	if (target == 0)
		unsharer(a, span, hp, nr, memfd, dontneed);
	munmap(r, 2 * span);
	close(memfd);
	if (fd < 0 || sharer < 0 || target < 0) {
		if (sharer > 0)
			stop(sharer);
		if (fd >= 0)
			close(fd);
		return fd < 0 ? false : fail(t, "fork: %s", strerror(errno));
	}
	/*
	 * secs of racing at least; then on, up to 4 times as long, until the
	 * walks have met what the verdict below needs (a starved guest can
	 * take that long to schedule the target between its fault and unmap).
	 */
	start = vm_now_s();
	until = start + secs;
	while (ok && (vm_now_s() < until ||
		      (vm_now_s() < until + 3.0 * secs &&
		       !(leaves && (two_levels || (share ? shared : apart)))))) {
		uint64_t p1, p2;

		ok = walk(t, target, A(a), A(a) + span);
		walks++;
		for (size_t i = 0; ok && i < t->nr_recs; i++)
			leaves += t->recs[i].kind == PTWALK_KIND_PRESENT;
		/* the same PMD table seen from both: it is shared */
		if (ok && walks % 8 == 0) {
			ok = pmd_table_of(t, fd, target, A(a), &p1) &&
			     pmd_table_of(t, fd, sharer, A(a), &p2);
			shared += ok && p1 && p1 == p2;
			apart += ok && p1 && p2 && p1 != p2;
		}
	}
	stop(target);
	stop(sharer);
	close(fd);
	printf("# shared_hugetlb: %.1f s, %" PRIu64 " walks of %zu MiB (%s), %"
	       PRIu64 " records of a present huge page, the PMD table seen shared %" PRIu64
	       " times, apart %" PRIu64 " (the kernel %s them)\n", vm_now_s() - start, walks, span >> 20,
	       dontneed ? "MADV_DONTNEED and hole punching" : "hole punching",
	       leaves, shared, apart, share ? "shares" : "does not share");
	if (!ok)
		return false;
	if (two_levels)
		return (leaves && !apart && !shared) ||
		       fail(t, "%" PRIu64 " walks with a present page, a table above the PMD seen %" PRIu64
			    " times with two levels", leaves, shared + apart);
	if (!share)
		return (leaves && apart && !shared) ||
		       fail(t, "%" PRIu64 " walks with a present page, the PMD table seen shared %" PRIu64
			    " times and apart %" PRIu64 ": this kernel never shares it",
			    leaves, shared, apart);
	return (leaves && shared) ||
	       fail(t, "the walks never met a mapped page in a shared PMD table");
}
