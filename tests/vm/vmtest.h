/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-VM tests of ptwalk.ko: each case builds a mapping, asks ptwalk about
 * it, and checks the answer page by page against the fixture's oracle
 * (get_user_pages/follow_pfn), never against pagemap.  Output is TAP.
 */
#ifndef PTWALK_VMTEST_H
#define PTWALK_VMTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>
#include "io/ptwalk_client.h"
#include "model/outcome.h"
#include "../fixture/fixture_abi.h"
#include "tests/lib/test_lib.h"

/*
 * The kernel's page size, read at run time: ptwalk's records, pagemap's
 * entries and the fixture count kernel pages (4K, 16K or 64K on arm64).
 */
#define PAGE		((unsigned long)sysconf(_SC_PAGESIZE))
#define PAGE_SHIFT_K	((unsigned int)__builtin_ctzl(PAGE))
#define MIB	(1UL << 20)
#define GIB	(1UL << 30)
#define MAX_RECS 65536
/* An address as the ABI and the fixture take it. */
#define A(p)	((uint64_t)(uintptr_t)(p))

struct vmtest {
	int fixture_fd;
	const char *query_path;		/* ptwalk's query file or device */
	const char *interface;		/* the one ptcompare must say it used */
	struct ptwalk_record *recs;	/* MAX_RECS, reused by every case */
	size_t nr_recs;
	char why[512];			/* failure reason of the current case */
	unsigned int passed, failed;
	unsigned int skipped;		/* left to another lane: PTWALK_SKIP */
};

/* Records the reason of a failure and returns false, for `return fail()`. */
bool fail(struct vmtest *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The fixture's remap_pfn_range() pages mapped into this process (shared,
 * read-write, PTWALK_FIXTURE_PAGES pages) and their frames in *known; NULL
 * with t->why set on failure.
 */
char *vm_map_fixture(struct vmtest *t, struct ptwalk_fixture_pfns *known);

/* The first 8 bytes of frame pfn (the fixture's PTWALK_FIXTURE_IOC_PEEK). */
bool vm_peek(struct vmtest *t, uint64_t pfn, uint64_t *value);

/* Opens t->query_path for a session: an fd, or -1 with t->why set. */
int vm_open_query(struct vmtest *t);

/*
 * A session opened (*fd) and a child forked beside it: the child's pid, 0
 * in the child, or -1 with t->why set and nothing left open.
 */
pid_t vm_open_query_fork(struct vmtest *t, int *fd);

/* Queries ptwalk about [start, end) of pid into t->recs; checks the
 * partition invariant.  False (with t->why) on any error.
 */
bool walk(struct vmtest *t, pid_t pid, uint64_t start, uint64_t end);

/* Fixture oracle for an address of this process. */
bool oracle(struct vmtest *t, uint64_t addr,
	    struct ptwalk_fixture_translate *out);

/* What every examined page of a case must look like. */
struct expect {
	int level;		/* enum ptwalk_level, or -1 for any */
	uint32_t flags_set;	/* PTWALK_F_* that must be set */
	uint32_t flags_clear;	/* PTWALK_F_* that must be clear */
	uint64_t vm_set;	/* PTWALK_VM_* that must be set */
	uint64_t vm_clear;	/* PTWALK_VM_* that must be clear */
	bool present;		/* oracle and ptwalk must both map it */
	const char *huge;	/* huge kind ptcompare must name, or NULL */
};

/*
 * Walks [start, end) of this process and compares every stride-th page
 * (and the last) with the oracle and with e; then runs ptcompare on the
 * same range and checks its JSON against the oracle the same way.
 */
bool check_range(struct vmtest *t, uint64_t start, uint64_t end,
		 size_t stride, const struct expect *e);

/* The ptcompare half of check_range(), on its own. */
bool check_ptcompare(struct vmtest *t, uint64_t start, uint64_t end,
		     size_t stride, const struct expect *e);

/* Same comparison for already walked records, for another process whose
 * oracle answers were collected by that process.
 */
bool check_page(struct vmtest *t, uint64_t addr,
		const struct ptwalk_fixture_translate *o,
		const struct expect *e);

/* mmap helpers: MAP_FAILED-free, with the reason in t->why. */
void *map_anon(struct vmtest *t, size_t len, int flags, int advice);
void *map_aligned(struct vmtest *t, size_t len, size_t align, int advice);
void touch_write(void *p, size_t len);
void touch_read(void *p, size_t len);
/* mbind(2) [p, p + len) to node alone (MPOL_BIND): 0, or -1 and errno. */
long vm_mbind_node(void *p, size_t len, int node);

/* Address range of the mapping called name in /proc/self/maps. */
bool find_mapping(const char *name, uint64_t *start, uint64_t *end);

/* /dev/kmsg opened at its end, the lines logged from now on; -1 (t says). */
int kmsg_from_now(struct vmtest *t);
/* The TIME_US of a /dev/kmsg record ("PRIO,SEQ,TIME_US,FLAGS;..."). */
bool kmsg_record_us(const char *rec, uint64_t *us);

/* A sysfs file's text, written; false (errno kept) if that failed. */
bool vm_write_text(const char *path, const char *text);
/* A sysfs file's first line (newline dropped) into buf; false if unread. */
bool vm_read_text(const char *path, char *buf, size_t size);

/*
 * The transparent huge page sizes of sysfs (THP_SYSFS/hugepages-NkB:
 * multi-size THP, 6.8+).  vm_thp_size_set() writes mode ("always",
 * "never", "inherit") to the enabled file of the size bytes and keeps
 * the mode it had in saved (at least 16 bytes), for vm_thp_size_restore();
 * false with errno ENOENT where the kernel has no such size.
 */
#define THP_SYSFS	"/sys/kernel/mm/transparent_hugepage"
bool vm_thp_size_set(uint64_t bytes, const char *mode, char *saved,
		     size_t size);
bool vm_thp_size_restore(uint64_t bytes, const char *saved);

/*
 * The PCI address of the first device vendor:device ("0x1234"), from
 * sysfs, into bdf (size bytes); false with t->why if there is none.
 */
bool find_pci(struct vmtest *t, const char *vendor, const char *device,
	      char *bdf, size_t size);

/*
 * Whether PCI device bdf's group has an identity default domain (5.10's
 * IOMMU lane boots with iommu.passthrough=1, docs/testing.md): while a
 * kernel driver has it, its DMA addresses are physical and the IOMMU
 * refuses nothing.
 */
bool vm_pci_identity_default(const char *bdf);

/*
 * Whether the IOMMU lane's VFIO can hold edu (not riscv64's), and edu
 * given back to vfio-pci where it can (left unbound where it cannot),
 * for the lane's other cases; false with t->why if the bind failed.
 */
bool vfio_lane(void);
bool edu_give_back(struct vmtest *t, const char *bdf);

/* CLOCK_MONOTONIC in seconds: the time-bounded cases' clock. */
double vm_now_s(void);

/*
 * QEMU's display (PCI 1234:1111): its sysfs directory into dir and
 * the physical address of its BAR 0 from that directory's "resource"
 * (the oracle for a BAR mapping: independent of ptwalk and pagemap).
 */
bool qemu_display_bar(struct vmtest *t, char *dir, size_t size, uint64_t *bar);

/*
 * len bytes of the display's sysfs file (resource0, resource0_wc) mapped
 * read-only and read once, BAR 0's address in *bar and the device's
 * sysfs directory in dir (size bytes); NULL when that fails (the case
 * fails with why).
 */
char *vm_map_display(struct vmtest *t, const char *file, size_t len,
		     uint64_t *bar, char *dir, size_t size);

/*
 * The running system's user address space, found by mmap() alone (no
 * ptwalk): the task size (x86-64: 2^47 - 4 KiB, or 2^56 - 4 KiB with
 * 5-level paging; arm64: 2^48 with 48-bit VAs), and the paging levels it
 * implies with the kernel's page (PAGE / 8 entries a level: 9 bits with
 * 4K pages, 11 with 16K, 13 with 64K); 0 if none was found.
 */
uint64_t user_task_size(void);
int user_paging_levels(void);

/*
 * The leaf sizes of the running kernel's granule, from the page size
 * (sysconf) and the architecture's rules alone, never from ptwalk: pmd and
 * pud one entry of each level (PAGE / 8 entries a level; pud 0 where
 * hugetlb has no PUD leaf: arm64 16K and 64K), cont_pte and cont_pmd
 * arm64's contiguous groups (64K/32M with 4K pages, 2M/1G with 16K, 2M/16G
 * with 64K: docs/arm64.md; 0 on x86-64).
 */
struct granule {
	uint64_t pmd, pud, cont_pte, cont_pmd;
};
struct granule vm_granule(void);
/* "4K", "2M", "1G": how ptcompare names a size; buf of 16 bytes. */
const char *size_label(char *buf, size_t len, uint64_t bytes);
/* MAP_HUGETLB's size flag for a hugetlb page of bytes (a power of 2). */
int map_huge_flag(uint64_t bytes);

/*
 * Where the granule has no PUD leaf (arm64 16K, 64K): the kernel offers no
 * hugetlb page of the PUD's size (no sysfs pool, mmap refuses); the case
 * name goes on the "#" line that says so.
 */
bool vm_no_pud_hugetlb(struct vmtest *t, const char *name);

/*
 * Whether a hugetlb page of bytes is larger than the guest's memory (64K
 * pages' 16G contiguous PMD in an 8G guest): then no page of it can exist,
 * and vm_hugetlb_beyond_ram() checks the kernel's own answer instead.
 */
bool vm_hugetlb_exceeds_ram(uint64_t bytes);
/*
 * The kernel's answer for such a size: registered (its hugepages-NkB pool
 * in sysfs) with no page, and a mapping of one page refused with ENOMEM.
 * The case name goes on the "#" line that says so.
 */
bool vm_hugetlb_beyond_ram(struct vmtest *t, uint64_t bytes, const char *name);

/*
 * The physical address a leaf entry holds: x86-64's bits 12-51, arm64's
 * 12-47, in place; riscv64's PPN is bits 10-53, a frame number (a NAPOT
 * entry's size encoding in its low bits, below the leaf's size).
 */
#if defined(__aarch64__)
#define ENTRY_ADDR_MASK	0x0000fffffffff000ULL
#define ENTRY_ADDR(e)	((e) & ENTRY_ADDR_MASK)
#elif defined(__riscv)
#define ENTRY_ADDR(e)	((((e) & 0x003ffffffffffc00ULL) >> 10) << 12)
#else
#define ENTRY_ADDR_MASK	0x000ffffffffff000ULL
#define ENTRY_ADDR(e)	((e) & ENTRY_ADDR_MASK)
#endif

/*
 * Whether sysfs offers a PCI BAR write-combined (resource0_wc): the
 * architecture's arch_can_pci_mmap_wc(), which riscv64 does not define
 * (6.12, 7.2), so a BAR is mapped only uncached (PBMT IO) there; its NC
 * type is seen on RAM (the fixture's write-combined alias).
 */
#if defined(__riscv)
#define VM_BAR_WC 0
#else
#define VM_BAR_WC 1
#endif

/*
 * ptcompare's name of ordinary memory's type: x86's PAT write-back, arm64's
 * MT_NORMAL, riscv64's PBMT PMA (module/ptwalk_names.h).
 */
#if defined(__aarch64__)
#define RAM_MEMTYPE_NAME "normal"
#elif defined(__riscv)
#define RAM_MEMTYPE_NAME "pma"
#else
#define RAM_MEMTYPE_NAME "wb"
#endif

/*
 * Whether the VmFlags of the mapping called name in /proc/self/smaps hold
 * flag ("pf", "io", "mm", ...): what the running kernel did, not what a
 * test assumes.  False when the mapping or its VmFlags line is missing.
 */
bool vm_flag_of(const char *name, const char *flag, bool *set);
/* The same for the VMA holding addr; its maps line goes to vma. */
bool vm_flag_at(uint64_t addr, const char *flag, bool *set, char *vma,
		size_t vma_len);

/*
 * Seconds a stress or churn case runs: ptwalk_stress_s= on the kernel
 * command line (VM_STRESS_SECONDS), 3 without it.
 */
unsigned int vm_stress_seconds(void);
/* ptwalk_stress_s= alone: 0 when the command line gives no time. */
unsigned int vm_stress_seconds_given(void);

typedef bool (*vmtest_case_fn)(struct vmtest *t);
struct vmtest_case {
	const char *suite;	/* vmtest.c's suites[], or a lane's own */
	const char *name;
	vmtest_case_fn fn;
	const char *file;	/* where it is written: its place in the run */
	unsigned int line;
};

/*
 * The head of a case: fn is the case name of suite, a word of vmtest.c's
 * suites[] (the order of a full run) or a lane's own (iommu, lockdown,
 * confidentiality), and its body follows:
 *
 *	VMTEST_CASE(vtop, "vtop_anon_4k", vtop_anon_4k)
 *	{
 *		...
 *	}
 *
 * A suite's cases run in the order they are written in, so a case is
 * named once, where it is, and no table lists it again.  The
 * registrations meet in the section vmtest_cases.
 */
#define VMTEST_CASE(suite_, name_, fn_)					\
	static bool fn_(struct vmtest *t);				\
	static const struct vmtest_case fn_##_case = {			\
		#suite_, name_, fn_, __FILE__, __LINE__,		\
	};								\
	static const struct vmtest_case *const fn_##_case_at		\
	__attribute__((used, section("vmtest_cases"))) = &fn_##_case;	\
	static bool fn_(struct vmtest *t)

#endif /* PTWALK_VMTEST_H */
