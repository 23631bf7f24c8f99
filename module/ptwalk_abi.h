/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ptwalk binary interface, version 2, shared by ptwalk.ko and its
 * userspace clients; docs/interface.md describes it, this file defines it.
 *
 * Protocol (debugfs file <debugfs>/ptwalk/query, mode 0600, or the misc
 * character device /dev/ptwalk, mode 0600, which kernel lockdown allows):
 *   1. open() the file; each open file description is one private session.
 *      Opening needs CAP_SYS_ADMIN and CAP_SYS_PTRACE in the initial user
 *      namespace (EPERM otherwise), and so does every query and read after,
 *      asked of the calling process.  Pids are numbers in the pid
 *      namespace of the process that opened the file.
 *   2. ioctl() one query: PTWALK_IOC_RANGE, PTWALK_IOC_VTOP, PTWALK_IOC_TASK
 *      or PTWALK_IOC_IOMMU, its argument a pointer to the query's struct.
 *      A new query forgets the previous one; a failed one leaves none.
 *   3. read() returns the answer: whole records (never a partial one; a
 *      buffer smaller than one is EINVAL) until read() returns 0.
 * PTWALK_IOC_INFO answers at once, with no query: the ABI version and the
 * features this module has (PTWALK_FEAT_*), in place of probing by error.
 *
 * Every query struct starts with __u32 size, the bytes of the struct as
 * the caller knows it, as openat2()'s and clone3()'s do: a module reads a
 * longer struct whose tail beyond what it knows is zero, refuses one with a
 * non-zero tail (E2BIG: a field this module does not know was asked for),
 * and fills what it does not know in a shorter one with zeros; a size
 * below the first version of the struct is EINVAL.  Later versions only
 * add fields at the end, and a feature bit says the module reads them.
 * The ioctl numbers carry no size for the same reason (_IO, as VFIO's).
 *
 * The range records partition [start, end): every page of the range is
 * covered by exactly one record, in ascending address order, and no
 * record crosses a VMA boundary.  A record is an extent: a run of pages
 * whose attributes are equal and whose frames (or swap offsets) are
 * contiguous.  A read that fails (EFAULT: a buffer that is not writable,
 * EINTR) loses nothing: the records it did not hand out come with the
 * next read.  A wait, or a read with nothing copied, that a signal cuts
 * short is restarted under SA_RESTART (EINTR without).
 *
 * All fields are fixed width, naturally aligned and padded explicitly, so
 * the layout is the same for 32- and 64-bit callers; little-endian on the
 * supported architectures.  The layout is checked at build time on both
 * sides.  The write() of ABI version 1 is gone: a query file's write() is
 * EINVAL, and a version 1 or 2 module answers these ioctls with ENOTTY
 * (version 2's had another type).
 */
#ifndef PTWALK_ABI_H
#define PTWALK_ABI_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * Bumped on any incompatible change of the structures, their meaning or
 * the ioctl numbers (3: the type, PTWALK_IOC_TYPE).
 */
#define PTWALK_ABI_VERSION	3

/* Paths relative to the debugfs mount point. */
#define PTWALK_DEBUGFS_DIR	"ptwalk"
#define PTWALK_QUERY_FILE	"query"		/* binary interface below */
#define PTWALK_TEXT_FILE	"text"		/* "PID [START END]" in, text out */
#define PTWALK_ABI_FILE		"abi_version"	/* decimal ABI version */
#define PTWALK_ABSENT_FILE	"absent_flags"	/* see below */
#define PTWALK_GEOMETRY_FILE	"geometry"	/* see below */

/*
 * <debugfs>/ptwalk/absent_flags: "0x%x\n", the PTWALK_F_* bits that the
 * running kernel's architecture or configuration does not have, and so
 * never sets: a clear bit among them means "not on this architecture",
 * not "false".  x86-64 lacks PTWALK_F_CONT; arm64 lacks PTWALK_F_SOFT_DIRTY
 * and PTWALK_F_UFFD_WP (and so PTE markers, which exist only for uffd-wp);
 * a kernel without guard-region markers (before 6.13) lacks
 * PTWALK_F_GUARD.  ptwalk_info.absent_flags says the same.
 */

/*
 * <debugfs>/ptwalk/geometry: one line of space-separated "key=value"
 * pairs, values in decimal, ended by a newline, e.g. on x86-64
 *
 *   page_size=4096 levels=4 pte=4096 cont_pte=0 pmd=2097152 cont_pmd=0
 *   pud=1073741824
 *
 * (one line in the file).  page_size is the kernel's page size (PAGE_SIZE:
 * the unit of ptwalk_record.nr_pages and of /proc/PID/pagemap's entries);
 * levels the number of page-table levels in use now (read at run time
 * where the kernel picks it at boot: x86 LA57, arm64 LPA2 on 6.9+); pte,
 * pmd and pud the bytes one leaf entry of that level maps, 0 where the
 * level has no leaf on this kernel (arm64 16K and 64K have no PUD leaf);
 * cont_pte and cont_pmd the bytes a group of contiguous entries maps
 * (arm64 CONT_PTE_SIZE and CONT_PMD_SIZE: 64K and 32M with 4K pages, 2M
 * and 1G with 16K, 2M and 16G with 64K), 0 where the architecture has no
 * contiguous bit.  Clients ignore keys they do not know; later modules
 * may add keys, never change these.
 */

/*
 * The same protocol on a misc character device, /dev/<name>; its ABI
 * version, absent flags and geometry are also sysfs attributes of the
 * device, /sys/class/misc/<name>/abi_version, absent_flags and geometry,
 * in the debugfs files' formats.
 */
#define PTWALK_DEVICE_NAME	"ptwalk"
#define PTWALK_DEVICE_ABI_ATTR	"abi_version"
#define PTWALK_DEVICE_ABSENT_ATTR	"absent_flags"
#define PTWALK_DEVICE_GEOMETRY_ATTR	"geometry"

/*
 * The ioctls' type: free in Documentation/userspace-api/ioctl/
 * ioctl-number.rst from 5.10 to the newest (7.2), and no type in their
 * uapi headers; not registered there (an out-of-tree module).  ABI
 * version 2's 0xB8 is mshv's and Marvell CN10K DPI's in newer kernels.
 * Each takes a pointer to the struct named.
 */
#define PTWALK_IOC_TYPE		0xBD
#define PTWALK_IOC_INFO		_IO(PTWALK_IOC_TYPE, 0x00) /* ptwalk_info */
#define PTWALK_IOC_RANGE	_IO(PTWALK_IOC_TYPE, 0x01) /* ptwalk_range_query */
#define PTWALK_IOC_VTOP		_IO(PTWALK_IOC_TYPE, 0x02) /* ptwalk_vtop_query */
#define PTWALK_IOC_TASK		_IO(PTWALK_IOC_TYPE, 0x03) /* ptwalk_task_query */
#define PTWALK_IOC_IOMMU	_IO(PTWALK_IOC_TYPE, 0x04) /* ptwalk_iommu_query */
#define PTWALK_IOC_EVENTS	_IO(PTWALK_IOC_TYPE, 0x05) /* ptwalk_events_query */
#define PTWALK_IOC_DMA_TRACK	_IO(PTWALK_IOC_TYPE, 0x20) /* ptwalk_dma_track */
#define PTWALK_IOC_DMA_MAPS	_IO(PTWALK_IOC_TYPE, 0x21) /* ptwalk_dma_query */
#define PTWALK_IOC_FRAME_FILE	_IO(PTWALK_IOC_TYPE, 0x22) /* ptwalk_frame_file */

/* What a module answers (ptwalk_info.features). */
#define PTWALK_FEAT_RANGE	(1ULL << 0)	/* PTWALK_IOC_RANGE */
#define PTWALK_FEAT_VTOP	(1ULL << 1)	/* PTWALK_IOC_VTOP */
#define PTWALK_FEAT_TASK	(1ULL << 2)	/* PTWALK_IOC_TASK */
#define PTWALK_FEAT_IOMMU	(1ULL << 3)	/* PTWALK_IOC_IOMMU; the kernel
						 * was built with an IOMMU API
						 */
#define PTWALK_FEAT_IOMMU_DMA_API (1ULL << 4)	/* PTWALK_IOMMU_LIVE */
#define PTWALK_FEAT_IOMMU_EVENTS (1ULL << 5)	/* PTWALK_IOC_EVENTS: the
						 * recorder is on (module
						 * parameter iommu_events)
						 */
/*
 * PTWALK_IOMMU_OWNER_STOPPED; a module without it reads unmanaged domains
 * with no flag and refuses that bit (EINVAL).
 */
#define PTWALK_FEAT_IOMMU_OWNER_STOPPED (1ULL << 6)
#define PTWALK_FEAT_EVENTS_ARMING (1ULL << 7)	/* the recorder is armed by
						 * its readers, and
						 * ptwalk_info says since
						 * when (events_armed_ns)
						 */
#define PTWALK_FEAT_FRAME_FILE	(1ULL << 8)	/* PTWALK_IOC_FRAME_FILE */
#define PTWALK_FEAT_DMA_EXPIRY	(1ULL << 9)	/* PTWALK_DMA_F_UNMAP_OPTIONAL
						 * and ptwalk_dma_query.expired
						 */

/*
 * PTWALK_IOC_INFO: size in (the caller's struct), out (the bytes the
 * module filled; it zeroes the rest of a longer struct).
 */
struct ptwalk_info {
	__u32 size;
	__u32 abi_version;	/* PTWALK_ABI_VERSION */
	__u64 features;		/* PTWALK_FEAT_* */
	__u32 absent_flags;	/* as the absent_flags file */
	__u32 reserved;		/* 0 */
	__u64 events_next;	/* the sequence number the recorder gives its
				 * next event (PTWALK_IOC_EVENTS); 0 without
				 * a recorder
				 */
	/* From here on with PTWALK_FEAT_EVENTS_ARMING: */
	__u64 events_armed_ns;	/* local_clock() when the recorder was armed,
				 * the oldest an event kept can be; 0: not
				 * armed now
				 */
	__u64 events_recorded;	/* events the probes recorded since load */
};

/*
 * PTWALK_IOC_RANGE: the range [start, end) of pid's address space.  read()
 * then returns struct ptwalk_record_ext entries.  Errors: EINVAL (a flag,
 * reserved field or alignment), ERANGE (start >= end, or end above the
 * task size), ESRCH (no such task), ENXIO (no memory: a kernel thread, a
 * zombie, a task past exit_mm()).
 */
struct ptwalk_range_query {
	__u32 size;
	__u32 flags;		/* none yet: 0 */
	__s32 pid;		/* target, in the opener's pid namespace */
	__u32 reserved;		/* 0 */
	__u64 start;		/* first address, kernel-page aligned */
	__u64 end;		/* exclusive, kernel-page aligned */
};

/*
 * PTWALK_IOC_VTOP: one address of pid, any alignment, below the task size
 * (else ERANGE).  The next read() returns one struct ptwalk_vtop (a
 * smaller buffer is EINVAL), later reads return 0.  Errors as for a range.
 */
struct ptwalk_vtop_query {
	__u32 size;
	__u32 flags;		/* none yet: 0 */
	__s32 pid;
	__u32 reserved;		/* 0 */
	__u64 addr;
};

/*
 * PTWALK_IOC_TASK: the target itself.  The ioctl fails as a range query's
 * would (ESRCH, ENXIO), so a success also says the task had its mm then.
 * The next read() returns one struct ptwalk_task, later reads 0.  What
 * /proc/PID/stat would tell of the same without its open, formatting and
 * close for each process (ptcompare --all).
 */
struct ptwalk_task_query {
	__u32 size;
	__u32 flags;		/* none yet: 0 */
	__s32 pid;
	__u32 reserved;		/* 0 */
};

/*
 * Leaf level of the entry that maps (or would map) the pages.  What one
 * entry of each level maps depends on the architecture and its page size
 * (the geometry file): x86-64 4K, 2M, 1G; arm64 4K granule 4K, 2M, 1G;
 * 16K granule 16K, 32M (no PUD leaf); 64K granule 64K, 512M.
 */
enum ptwalk_level {
	PTWALK_LEVEL_NONE = 0,	/* no entry: nothing mapped, nothing swapped */
	PTWALK_LEVEL_PTE = 1,	/* entry in a page table: one kernel page */
	PTWALK_LEVEL_PMD = 2,	/* PMD leaf (THP, hugetlb, PMD pfn map) */
	PTWALK_LEVEL_PUD = 3,	/* PUD leaf (hugetlb, PUD pfn map) */
};

/* What a non-empty entry holds; PRESENT for a mapped frame. */
enum ptwalk_kind {
	PTWALK_KIND_NONE = 0,		/* empty entry or no entry at all */
	PTWALK_KIND_PRESENT = 1,	/* maps frame ptwalk_record.pfn */
	PTWALK_KIND_SWAP = 2,		/* swapped out: swap_type/swap_offset */
	PTWALK_KIND_MIGRATION = 3,	/* under migration; swap_offset = pfn */
	PTWALK_KIND_DEVICE_PRIVATE = 4,	/* swap_offset = device pfn */
	PTWALK_KIND_DEVICE_EXCLUSIVE = 5, /* swap_offset = pfn */
	PTWALK_KIND_HWPOISON = 6,	/* swap_offset = poisoned pfn */
	PTWALK_KIND_MARKER = 7,		/* pte marker (uffd-wp on none, a
					 * guard region: PTWALK_F_GUARD)
					 */
	PTWALK_KIND_UNKNOWN = 8,	/* an entry ptwalk cannot decode */
};

/* Entry bits (ptwalk_record.flags), read from the leaf entry itself. */
#define PTWALK_F_PRESENT	(1U << 0)  /* hardware-present or PROT_NONE */
#define PTWALK_F_WRITE		(1U << 1)
#define PTWALK_F_USER		(1U << 2)
#define PTWALK_F_DIRTY		(1U << 3)
#define PTWALK_F_ACCESSED	(1U << 4)
#define PTWALK_F_SPECIAL	(1U << 5)  /* pte_special: no refcounted page */
#define PTWALK_F_PROTNONE	(1U << 6)  /* PROT_NONE or NUMA hinting */
#define PTWALK_F_SOFT_DIRTY	(1U << 7)  /* entry bit, not VM_SOFTDIRTY */
#define PTWALK_F_UFFD_WP	(1U << 8)
#define PTWALK_F_NX		(1U << 9)
#define PTWALK_F_ZERO_PAGE	(1U << 10) /* the shared zero page (one
					    * kernel page)
					    */
#define PTWALK_F_HUGE_ZERO	(1U << 11) /* the shared huge zero page */
#define PTWALK_F_PFN_VALID	(1U << 12) /* frame has a struct page */
#define PTWALK_F_MIGRATION_WRITE (1U << 13) /* writable migration entry */
#define PTWALK_F_NO_VMA		(1U << 14) /* range not covered by any VMA */
#define PTWALK_F_COMPOUND	(1U << 15) /* frame is part of a compound page
					    * (THP, hugetlb, large folio)
					    */
#define PTWALK_F_CONT		(1U << 16) /* one of a group of contiguous
					    * entries that map one leaf
					    * (arm64 PTE_CONT: the geometry
					    * file's cont_pte and cont_pmd;
					    * 16 PTEs, a 64K group, and 16
					    * PMDs, a 32M group, with 4K pages)
					    */
#define PTWALK_F_DMA_PINNED	(1U << 17) /* page_maybe_dma_pinned(): the
					    * frame's page may be pinned with
					    * FOLL_PIN (a driver's DMA, an
					    * io_uring buffer, ...); "maybe":
					    * a page with over 1024 ordinary
					    * references looks pinned too.
					    * Meaningful with PFN_VALID only
					    */
#define PTWALK_F_GUARD		(1U << 18) /* KIND_MARKER: the marker of a
					    * guard region (PTE_MARKER_GUARD,
					    * MADV_GUARD_INSTALL, 6.13+);
					    * set by modules with the
					    * geometry file only
					    */

/* VMA flags (ptwalk_record.vm_flags), a stable encoding of VM_*. */
#define PTWALK_VM_READ		(1ULL << 0)
#define PTWALK_VM_WRITE		(1ULL << 1)
#define PTWALK_VM_EXEC		(1ULL << 2)
#define PTWALK_VM_SHARED	(1ULL << 3)
#define PTWALK_VM_MAYSHARE	(1ULL << 4)
#define PTWALK_VM_IO		(1ULL << 5)
#define PTWALK_VM_PFNMAP	(1ULL << 6)
#define PTWALK_VM_MIXEDMAP	(1ULL << 7)
#define PTWALK_VM_HUGETLB	(1ULL << 8)
#define PTWALK_VM_LOCKED	(1ULL << 9)
#define PTWALK_VM_HUGEPAGE	(1ULL << 10) /* MADV_HUGEPAGE */
#define PTWALK_VM_NOHUGEPAGE	(1ULL << 11) /* MADV_NOHUGEPAGE */
#define PTWALK_VM_DONTDUMP	(1ULL << 12)
#define PTWALK_VM_SOFTDIRTY	(1ULL << 13)
#define PTWALK_VM_GROWSDOWN	(1ULL << 14)
#define PTWALK_VM_DONTEXPAND	(1ULL << 15)
#define PTWALK_VM_ANON		(1ULL << 16) /* no backing file */
#define PTWALK_VM_UFFD_WP	(1ULL << 17)

/*
 * Memory type of a present leaf (ptwalk_record.memtype, ptwalk_vtop.memtype):
 * how the CPU caches the mapping, from the entry's own bits.  x86: the
 * kernel's cache mode of PAT, PCD and PWT (enum page_cache_mode).  arm64,
 * from 16 on: the kernel's memory attribute of the entry's MAIR index
 * (AttrIndx), one value per MT_* slot the kernel programs in MAIR_EL1.
 * riscv64, from 24 on (below 32: userspace keeps sets of them as 32-bit masks): Svpbmt's page-based memory type (PBMT), PMA also
 * on a CPU without Svpbmt, where the physical memory attributes alone
 * decide.
 */
enum ptwalk_memtype {
	PTWALK_MEMTYPE_NONE = 0,	/* no present leaf, or not decoded */
	PTWALK_MEMTYPE_WB = 1,		/* write-back */
	PTWALK_MEMTYPE_WC = 2,		/* write-combining */
	PTWALK_MEMTYPE_WT = 3,		/* write-through */
	PTWALK_MEMTYPE_WP = 4,		/* write-protected */
	PTWALK_MEMTYPE_UC = 5,		/* uncached */
	PTWALK_MEMTYPE_UC_MINUS = 6,	/* uncached, an MTRR may make it WC */
	PTWALK_MEMTYPE_NORMAL = 16,	/* arm64 Normal, write-back */
	PTWALK_MEMTYPE_NORMAL_TAGGED = 17, /* arm64 Normal, MTE tags checked */
	PTWALK_MEMTYPE_NORMAL_NC = 18,	/* arm64 Normal, non-cacheable */
	PTWALK_MEMTYPE_DEVICE_NGNRNE = 19, /* arm64 Device, no early ack */
	PTWALK_MEMTYPE_DEVICE_NGNRE = 20, /* arm64 Device, early ack */
	PTWALK_MEMTYPE_PMA = 24,	/* riscv64 PBMT PMA: the region's own */
	PTWALK_MEMTYPE_NC = 25,		/* riscv64 PBMT NC: non-cacheable */
	PTWALK_MEMTYPE_IO = 26,		/* riscv64 PBMT IO: non-cacheable I/O */
};

/* ptwalk_record_ext.node when the frame has no struct page (or none). */
#define PTWALK_NODE_NONE	(-1)

/* ptwalk_record.pfn when no frame is mapped. */
#define PTWALK_PFN_NONE		(~0ULL)

struct ptwalk_record {
	__u64 start;		/* user virtual address of the first page */
	__u64 nr_pages;		/* length in kernel pages (the geometry
				 * file's page_size; 4 KiB on x86-64), >= 1
				 */
	__u64 pfn;		/* frame of the first page, or PTWALK_PFN_NONE */
	__u64 swap_offset;	/* non-present kinds: offset (or pfn) of the
				 * first page, as /proc/PID/pagemap encodes it
				 */
	__u64 vm_flags;		/* PTWALK_VM_* of the covering VMA */
	__u32 flags;		/* PTWALK_F_* */
	__u8 level;		/* enum ptwalk_level */
	__u8 kind;		/* enum ptwalk_kind */
	__u8 swap_type;		/* raw swp_type() of non-present entries */
	__u8 memtype;		/* enum ptwalk_memtype */
};

/*
 * What a range query's read() returns: the record and what the frames'
 * struct pages say (read only for frames the entry maps as ordinary
 * pages: not for pte_special() entries nor in VM_PFNMAP mappings, the
 * rule of vm_normal_page()).  Records split where memtype,
 * PTWALK_F_DMA_PINNED, node or the folio size change.
 */
struct ptwalk_record_ext {
	struct ptwalk_record rec;
	__s32 node;		/* NUMA node of the frames (page_to_nid()),
				 * or PTWALK_NODE_NONE: no frame, or no
				 * struct page
				 */
	__u8 folio_shift;	/* log2 of the bytes of the folio
				 * (compound page) each frame belongs to,
				 * page_size's shift for a single page; 0:
				 * no frame, or none with a struct page to
				 * read.  Read under the page table lock that
				 * keeps the frame mapped, without a
				 * reference: a split or a collapse racing
				 * with the read makes it stale, as
				 * pagemap's own flags are
				 */
	__u8 reserved[3];	/* 0 */
};

/*
 * The answer of PTWALK_IOC_VTOP, like crash's vtop.  The raw entries of
 * the upper levels hold physical addresses of page tables: like PFNs,
 * they are for the files' openers only, and under lockdown in
 * confidentiality mode the module leaves them 0 (walked still says which
 * levels were read).  An address no VMA holds is answered as a range
 * query answers it, without a walk: PTWALK_F_NO_VMA, nothing walked.
 */
/* Index into ptwalk_vtop.entry/index; bit n of ptwalk_vtop.walked. */
enum ptwalk_vtop_level {
	PTWALK_VTOP_PGD = 0,
	PTWALK_VTOP_P4D = 1,	/* a level the paging folds away is not
				 * walked: the P4D with 4 levels, the PUD
				 * too with 3, the PMD too with 2
				 * (ptwalk_vtop_folded())
				 */
	PTWALK_VTOP_PUD = 2,
	PTWALK_VTOP_PMD = 3,
	PTWALK_VTOP_PTE = 4,
	PTWALK_VTOP_NR_LEVELS = 5,
};

/* Why the walk stopped at the last level it read. */
enum ptwalk_vtop_stop {
	PTWALK_VTOP_STOP_NONE = 0,	/* an empty entry: nothing there */
	PTWALK_VTOP_STOP_LEAF = 1,	/* a present leaf: pfn is set */
	PTWALK_VTOP_STOP_NOT_PRESENT = 2, /* swap, migration, ...: see kind */
	PTWALK_VTOP_STOP_BAD = 3,	/* neither empty, table nor leaf */
};

struct ptwalk_vtop {
	__u64 addr;		/* the address asked about, as given */
	__u64 entry[PTWALK_VTOP_NR_LEVELS]; /* raw value of each level's
					     * entry read (pgd_val(), ...);
					     * 0 where not walked
					     */
	__u64 pfn;		/* frame of the page holding addr (leaf frame +
				 * index inside the leaf), or PTWALK_PFN_NONE
				 */
	__u64 swap_offset;	/* non-present kinds, as in ptwalk_record */
	__u64 vm_flags;		/* PTWALK_VM_* of the VMA holding addr */
	__u64 vma_start;	/* that VMA; both 0 when there is none */
	__u64 vma_end;
	__u32 flags;		/* PTWALK_F_* of the leaf (or last) entry */
	__u16 index[PTWALK_VTOP_NR_LEVELS]; /* entry's index in its table */
	__u8 walked;		/* bit n: entry[n] was read */
	__u8 nr_levels;		/* paging levels in use (x86-64: 4, or 5
				 * with LA57; arm64: 2 to 5 by granule, VA
				 * size and, on 6.9+, LPA2 at boot)
				 */
	__u8 level;		/* enum ptwalk_level of the leaf or
				 * non-present entry, as in ptwalk_record
				 */
	__u8 kind;		/* enum ptwalk_kind */
	__u8 swap_type;
	__u8 stop;		/* enum ptwalk_vtop_stop */
	__u8 memtype;		/* enum ptwalk_memtype of a present leaf */
	__u8 folio_shift;	/* as ptwalk_record_ext.folio_shift */
	__s16 node;		/* as ptwalk_record_ext.node */
};

/* The answer of PTWALK_IOC_TASK. */
/* Bytes of ptwalk_task.comm: the kernel's TASK_COMM_LEN, NUL included. */
#define PTWALK_COMM_LEN		16

struct ptwalk_task {
	__s32 pid;		/* as asked */
	__s32 tgid;		/* its thread group (process), in the
				 * opener's pid namespace: pid itself for a
				 * process, another for one of its threads
				 */
	char comm[PTWALK_COMM_LEN]; /* its name (task->comm at the write),
				     * NUL-terminated and NUL-padded
				     */
};

/*
 * The device's view (PTWALK_IOC_IOMMU): what the IOMMU domain a PCI device
 * is attached to translates each page of a range of device addresses
 * (IOVAs) to.  start and end page aligned, start < end; device a PCI
 * address "DDDD:BB:DD.F" (hex, as in /sys/bus/pci/devices),
 * NUL-terminated within the array.
 *
 * A paging domain (unmanaged, dma, dma-fq) is read only when the query
 * says why its page tables cannot be freed under the read, or accepts
 * that they can: its owner unmaps and frees table pages after the flush
 * with no lock a third party can take, and a walk racing with that may
 * follow a freed page.  Identity and blocked domains (no tables) and a
 * device without an IOMMU need no flag.
 *   PTWALK_IOMMU_OWNER_STOPPED  the caller has stopped every process that
 *               can change the domain (the holders of its VFIO container,
 *               group, device or iommufd file, as ptcompare does with
 *               SIGSTOP).  Unmanaged domains only: a DMA-API domain's
 *               owner is the kernel, which cannot be stopped.  The module
 *               cannot check the claim; the caller answers for it.
 *   PTWALK_IOMMU_LIVE           read the domain while its owner runs,
 *               accepting the risk: a garbage frame, an oops on a freed
 *               table, kernel memory shown as a frame.  Any paging domain.
 * Under lockdown in confidentiality mode no paging domain is read at all,
 * whatever the flags: lockdown distrusts root, so neither the opt-in nor
 * an unverifiable "stopped" claim is taken.
 *
 * The ioctl fails with
 *   EINVAL      a malformed query or device name;
 *   ENODEV      no such PCI device;
 *   ENOENT      the device has an IOMMU group but no domain attached;
 *   EOPNOTSUPP  a domain that cannot be asked this way (SVA, nested,
 *               platform, a type this module does not know);
 *   EAGAIN      an unmanaged domain, neither OWNER_STOPPED nor LIVE: its
 *               owner may be changing it; stop the owner and ask again;
 *   EBUSY       a DMA-API domain (dma, dma-fq) without PTWALK_IOMMU_LIVE;
 *   EACCES      a paging domain under lockdown in confidentiality mode;
 *   EDOM        the domain's smallest page is smaller than the kernel's
 *               (a 4K IOMMU granule under a 16K or 64K kernel): ptwalk
 *               answers in kernel pages and never merges sub-pages;
 *   ERANGE      the range is not inside the domain's aperture;
 *   EADDRNOTAVAIL  no IOMMU group and no driver bound, where the
 *               firmware may give the device a DMA offset that only a
 *               bound driver's dma_range_map holds.
 * read() then returns whole struct ptwalk_iommu_record entries, which
 * partition the range in ascending IOVA order like range records: a record
 * is a run of pages of one domain whose frames are contiguous (or all
 * untranslated); a run may end at a read's boundary, since one read
 * translates at most PTWALK_IOMMU_READ_PAGES pages.  A device attached to
 * another domain between two reads (a VFIO container closed) is seen: the
 * records say which domain answered each page, and one whose kind the
 * query would have refused ends it with that errno, once the records
 * translated before it are read.  Later errors of read(): ENODEV once the
 * device is removed, leaves its IOMMU group or its driver is unbound
 * (bound again to the same driver too); EINTR on a signal without
 * SA_RESTART before a record is ready.
 */
#define PTWALK_IOMMU_LIVE		(1U << 0)
/* ABI 2's first name of PTWALK_IOMMU_LIVE, kept for source compatibility */
#define PTWALK_IOMMU_DMA_API		PTWALK_IOMMU_LIVE
#define PTWALK_IOMMU_OWNER_STOPPED	(1U << 1)
#define PTWALK_IOMMU_FLAGS	(PTWALK_IOMMU_LIVE | PTWALK_IOMMU_OWNER_STOPPED)

/* Bytes of ptwalk_iommu_query.device, the terminating NUL included. */
#define PTWALK_IOMMU_DEVICE_MAX	64

/* Pages one read() of a device-view query translates at most. */
#define PTWALK_IOMMU_READ_PAGES	65536

struct ptwalk_iommu_query {
	__u32 size;
	__u32 flags;		/* PTWALK_IOMMU_FLAGS; other bits 0 */
	__u64 start;		/* IOVA range [start, end) */
	__u64 end;
	char device[PTWALK_IOMMU_DEVICE_MAX];
};

/* Which kind of domain translated (ptwalk_iommu_record.domain). */
enum ptwalk_iommu_domain {
	PTWALK_IOMMU_NONE = 0,		/* no IOMMU group: the bus address is
					 * physical (dma_to_phys(): plus the
					 * platform's DMA offset, if any)
					 */
	PTWALK_IOMMU_BLOCKED = 1,	/* all DMA blocked: nothing translated */
	PTWALK_IOMMU_IDENTITY = 2,	/* passthrough: IOVA = physical */
	PTWALK_IOMMU_UNMANAGED = 3,	/* an IOMMU API user's (VFIO, ...) */
	PTWALK_IOMMU_DMA = 4,		/* the kernel's DMA API, strict */
	PTWALK_IOMMU_DMA_FQ = 5,	/* the DMA API, lazy (flush queue) */
};

struct ptwalk_iommu_record {
	__u64 iova;		/* device address of the first page */
	__u64 nr_pages;		/* length in pages, >= 1 */
	__u64 pfn;		/* frame of the first page, or PTWALK_PFN_NONE:
				 * no translation
				 */
	__u64 aperture_start;	/* the domain's aperture (geometry), both */
	__u64 aperture_end;	/* inclusive; 0 and ~0 without a domain */
	__u64 pgsize_bitmap;	/* page sizes the domain maps with; 0
				 * without a paging domain
				 */
	__u32 domain;		/* enum ptwalk_iommu_domain */
	__u32 reserved;		/* 0 */
};

/*
 * The recorder of IOMMU mappings (PTWALK_IOC_EVENTS).  While armed,
 * ptwalk.ko keeps the IOMMU core's map, unmap and io_page_fault events
 * (its exported tracepoints) in per-CPU rings, together about the module
 * parameter iommu_events entries (0: no recorder, and
 * PTWALK_FEAT_IOMMU_EVENTS clear).  It is armed by the first events
 * query of a session and stays armed until that session, and every other
 * that made one, is closed, then iommu_events_idle seconds more (module
 * parameters; iommu_events_from_load=1 arms it at load for good).  Events
 * while it is not armed are not recorded, nor counted.
 *
 * When asked (this query, PTWALK_IOC_INFO), the module merges the rings
 * into one log of iommu_events entries in time order and numbers it:
 * each event has a sequence number, from 1, one more per event, and
 * time_ns never decreases with it.  The query asks for the events from
 * since_seq on; read() returns them as struct ptwalk_iommu_event, oldest
 * first, up to the newest at the time of the query, then 0.  Lossless as
 * far as it says: events overwritten before they were read are one
 * PTWALK_EVENT_DROPPED record where they would have been (size: how
 * many; seq: the first), so every sequence number from since_seq up to
 * the query's end is either returned or counted, and none past it is.
 *
 * What the tracepoints carry, and so what an event says: map the IOVA,
 * the physical address and size (no domain, no device); unmap the IOVA,
 * the size asked and the size unmapped; io_page_fault the device, the IOVA
 * and the flags, for faults a driver reports through
 * report_iommu_fault() (VT-d and SMMUv3 log theirs instead: the kernel
 * log has those).  pid is the thread group of the task that mapped or
 * unmapped (VFIO's map and unmap run in the calling process), as the
 * pid namespace of the session's opener numbers it, 0 where it cannot
 * (a process gone since, or outside that namespace), and 0 in interrupt
 * or softirq context, where the kernel's DMA API often runs.  Tying an
 * event to a device is the reader's: by the process that holds the
 * device's VFIO file.  Under lockdown in confidentiality mode pfn is
 * PTWALK_PFN_NONE (the kernel's own DMA buffers are among them).
 */
enum ptwalk_event_kind {
	PTWALK_EVENT_MAP = 1,
	PTWALK_EVENT_UNMAP = 2,
	PTWALK_EVENT_FAULT = 3,		/* io_page_fault */
	PTWALK_EVENT_DROPPED = 4,	/* size events lost to the ring */
};

/* Bytes of ptwalk_iommu_event.device, the terminating NUL included. */
#define PTWALK_EVENT_DEVICE_MAX	32

struct ptwalk_events_query {
	__u32 size;
	__u32 flags;		/* none yet: 0 */
	__u64 since_seq;	/* the first event wanted; 0 or 1: all kept */
};

struct ptwalk_iommu_event {
	__u64 seq;		/* the event's number; DROPPED: the first lost */
	__u64 time_ns;		/* local_clock(), the clock of printk's
				 * timestamps and of /dev/kmsg, of the CPU
				 * it happened on; DROPPED: one between
				 * its neighbours'.  Never below the previous
				 * event's (raised to it where that CPU's
				 * clock lagged)
				 */
	__u64 iova;
	__u64 size;		/* map, unmap: bytes asked; DROPPED: events */
	__u64 pfn;		/* map: the frame of iova; else PTWALK_PFN_NONE */
	__u64 done;		/* unmap: bytes unmapped; fault: its flags */
	__s32 pid;		/* the caller's thread group, in the
				 * opener's pid namespace; 0 outside task
				 * context or that namespace
				 */
	__u8 kind;		/* enum ptwalk_event_kind */
	__u8 reserved[3];	/* 0 */
	char device[PTWALK_EVENT_DEVICE_MAX]; /* fault: dev_name(); else "" */
};

#define PTWALK_INFO_SIZE	48
#define PTWALK_RANGE_QUERY_SIZE	32
#define PTWALK_VTOP_QUERY_SIZE	24
#define PTWALK_TASK_QUERY_SIZE	16
#define PTWALK_IOMMU_QUERY_SIZE	88
#define PTWALK_RECORD_SIZE	48
#define PTWALK_RECORD_EXT_SIZE	56
#define PTWALK_VTOP_SIZE	112
#define PTWALK_IOMMU_RECORD_SIZE	56
#define PTWALK_TASK_SIZE	24
#define PTWALK_EVENTS_QUERY_SIZE	16
#define PTWALK_IOMMU_EVENT_SIZE	88

/*
 * Kernel drivers' DMA: a device's live DMA-API mappings, kept from the
 * DMA API's tracepoints (6.12+: include/trace/events/dma.h) while the
 * device is tracked.  Both ioctls answer at once, with no query to read,
 * on any session, asked as every query (the caller's capabilities, the
 * session's lock).  device is a PCI address as in ptwalk_iommu_query.
 *
 * PTWALK_IOC_DMA_TRACK starts tracking the device (again: nothing
 * changes) and makes the session a holder of it.  With
 * PTWALK_DMA_TRACK_OFF it drops the session's hold and, when no other
 * session holds the device and the module parameter dma_track did not
 * name it, stops tracking and forgets its mappings.  A device no session
 * holds (its holders closed) stays tracked dma_track_idle seconds (module
 * parameter) after the last release or PTWALK_IOC_DMA_MAPS of it.  Only
 * mappings made while it is tracked are known.  The module parameter
 * dma_track (comma-separated PCI addresses) tracks devices from load, for
 * good.  The probes are attached while some device is tracked, and only
 * then.
 *
 * PTWALK_IOC_DMA_MAPS copies at most nr_maps live mappings to maps and at
 * most nr_unmaps of the device's most recent unmaps (newest first) to
 * unmaps (user pointers to arrays of struct ptwalk_dma_mapping), and says
 * how many it copied in nr_maps and nr_unmaps and how many there are in
 * live.  capacity is how many live mappings the device can keep (module
 * parameter dma_track_maps); overflow counts those not kept for want of
 * room; unmapped_unknown counts unmaps of a mapping not kept (made before
 * tracking, or not kept).
 *
 * A streaming mapping made while the DMA API lets the device's driver
 * skip its unmap (dma_need_unmap() false, Linux 6.16+: dma-direct with no
 * bounce buffer and no cache maintenance) carries
 * PTWALK_DMA_F_UNMAP_OPTIONAL: drivers that ask (nvme from 6.17) never
 * unmap it, so it stays until unmapped or, when the device's room is
 * full, the oldest such mapping makes room for a new one (expired counts
 * those; overflow then counts none).  optional_unmapped counts the unmaps
 * of such mappings that came all the same (nvme unmaps its one-segment
 * requests and skips the others).  The flag says what dma_need_unmap()
 * said at the map: it can change later (a swiotlb bounce, a new DMA
 * mask).  A scatterlist mapped again drops what is kept of its earlier
 * unmap-optional mapping (expired too).  unmapped_unknown also counts the
 * unmaps of expired mappings.  expired and optional_unmapped are read
 * from a struct of their size (PTWALK_FEAT_DMA_EXPIRY), which the caller
 * zeroes (a module that predates them refuses a non-zero tail, E2BIG);
 * the first version ends at tracked_ns.
 *
 * Both fail with
 *   EINVAL      a malformed struct or device name;
 *   ENODEV      no such PCI device;
 *   EOPNOTSUPP  the kernel has no DMA API tracepoints (before 6.12);
 *   ENOSPC      PTWALK_DMA_MAX_DEVICES devices are tracked already;
 *   ENOENT      (PTWALK_IOC_DMA_MAPS, or with PTWALK_DMA_TRACK_OFF) the
 *               device is not tracked;
 *   EBUSY       (PTWALK_DMA_TRACK_OFF from a session without a hold)
 *               another session holds the device, or dma_track named it;
 *   EPERM       the caller lacks CAP_SYS_ADMIN or CAP_SYS_PTRACE;
 *   EACCES      under lockdown in confidentiality mode (these are the
 *               kernel's own buffers).
 */
#define PTWALK_DMA_TRACK_OFF	(1U << 0)
#define PTWALK_DMA_MAX_DEVICES	8

struct ptwalk_dma_track {
	__u32 size;
	__u32 flags;		/* PTWALK_DMA_TRACK_OFF; other bits 0 */
	char device[PTWALK_IOMMU_DEVICE_MAX];
};

struct ptwalk_dma_query {
	__u32 size;
	__u32 flags;		/* 0 */
	char device[PTWALK_IOMMU_DEVICE_MAX];
	__u64 maps;		/* user pointer: ptwalk_dma_mapping[nr_maps] */
	__u64 unmaps;		/* user pointer: ptwalk_dma_mapping[nr_unmaps] */
	__u32 nr_maps;		/* in: room; out: copied */
	__u32 nr_unmaps;	/* in: room; out: copied */
	__u32 live;		/* out: live mappings kept */
	__u32 capacity;		/* out: live mappings the device can keep */
	__u64 overflow;		/* out: mappings not kept (no room) */
	__u64 unmapped_unknown;	/* out: unmaps of mappings not kept */
	__u64 tracked_ns;	/* out: local_clock() when tracking began */
	__u64 expired;		/* out: unmap-optional mappings dropped for
				 * room (PTWALK_FEAT_DMA_EXPIRY)
				 */
	__u64 optional_unmapped;	/* out: unmaps of unmap-optional
					 * mappings that came all the same
					 */
};

/* How a mapping was made (ptwalk_dma_mapping.kind). */
enum ptwalk_dma_kind {
	PTWALK_DMA_PAGE = 1,		/* dma_map_page/single (6.18+: _phys) */
	PTWALK_DMA_RESOURCE = 2,	/* dma_map_resource (no struct page);
					 * 6.18+: dma_map_phys of MMIO
					 */
	PTWALK_DMA_SG = 3,		/* one entry of a dma_map_sg() list */
	PTWALK_DMA_COHERENT = 4,	/* dma_alloc_coherent/_attrs */
	PTWALK_DMA_PAGES = 5,		/* dma_alloc_pages */
	PTWALK_DMA_SGT = 6,		/* one entry of dma_alloc_noncontiguous */
};

/*
 * ptwalk_dma_mapping.flags, as the module read them when asked (the
 * history's entries too: what an unmapped frame is now)
 */
#define PTWALK_DMA_F_PAGE	(1U << 0)	/* the first frame has a
						 * struct page
						 */
#define PTWALK_DMA_F_PINNED	(1U << 1)	/* every frame is pinned for
						 * DMA (page_maybe_dma_pinned)
						 */
#define PTWALK_DMA_F_ATOMIC	(1U << 2)	/* mapped outside task context */
#define PTWALK_DMA_F_FREE	(1U << 3)	/* a frame is free: in the
						 * buddy allocator, or the first
						 * frame lost the reference it
						 * had when mapped (per-CPU
						 * lists)
						 */
#define PTWALK_DMA_F_COUNTED	(1U << 4)	/* the first frame held a
						 * reference when mapped (not
						 * the tail of an allocation
						 * that is no compound page)
						 */
#define PTWALK_DMA_F_VMAPPED	(1U << 5)	/* a coherent buffer the DMA
						 * API vmap()ed (dma-iommu's
						 * remap): its frames need not
						 * be contiguous, phys is the
						 * first one's; the others are
						 * what the IOMMU translates
						 * the device addresses to
						 */
#define PTWALK_DMA_F_UNMAP_OPTIONAL (1U << 6)	/* mapped while its driver
						 * need not unmap it (see
						 * PTWALK_IOC_DMA_MAPS): it
						 * may be over with no unmap
						 */

/*
 * What the first frame was when mapped and is when asked, each in 4 bits
 * of ptwalk_dma_mapping.flags (PTWALK_DMA_WAS(), PTWALK_DMA_NOW()): a
 * frame freed and allocated again for something else changes what it is.
 */
enum ptwalk_dma_frame {
	PTWALK_DMA_FRAME_NONE = 0,	/* no struct page (or unknown) */
	PTWALK_DMA_FRAME_KERNEL = 1,	/* allocated, none of the below */
	PTWALK_DMA_FRAME_SLAB = 2,
	PTWALK_DMA_FRAME_PGTABLE = 3,
	PTWALK_DMA_FRAME_ANON = 4,	/* anonymous memory */
	PTWALK_DMA_FRAME_FILE = 5,	/* on the LRU, not anonymous */
};
#define PTWALK_DMA_WAS_SHIFT	8
#define PTWALK_DMA_NOW_SHIFT	12
#define PTWALK_DMA_WAS(flags)	(((flags) >> PTWALK_DMA_WAS_SHIFT) & 0xf)
#define PTWALK_DMA_NOW(flags)	(((flags) >> PTWALK_DMA_NOW_SHIFT) & 0xf)

/* Physical address unknown (a coherent buffer with no linear address). */
#define PTWALK_DMA_PHYS_NONE	(~0ULL)

struct ptwalk_dma_mapping {
	__u64 dma;		/* device address of the first byte */
	__u64 phys;		/* physical address of the first byte */
	__u64 size;		/* bytes */
	__u64 attrs;		/* DMA_ATTR_* as the driver passed them */
	__u64 map_ns;		/* local_clock() at the map */
	__u64 unmap_ns;		/* at the unmap (history); 0 when live */
	__s32 pid;		/* thread group that mapped; 0 outside task
				 * context
				 */
	__u32 dir;		/* enum dma_data_direction: 0 bidirectional,
				 * 1 to device, 2 from device, 3 none
				 */
	__u32 kind;		/* enum ptwalk_dma_kind */
	__u32 flags;		/* PTWALK_DMA_F_* */
	char comm[16];		/* the mapping task's name, "" outside task
				 * context
				 */
};

/*
 * PTWALK_IOC_FRAME_FILE: the file whose page cache holds frame pfn, for
 * a frame no process maps (ptcompare --dma's page-cache frames).
 * Answered at once, asked as every query.  The frame's folio is taken
 * only if it is on the LRU (or hugetlb) and while it holds a reference,
 * and locked without waiting, so that truncation cannot take it from its
 * file during the look; path is the file's path below its filesystem's
 * root (dentry_path_raw() of any of its names), "" when it has none, cut
 * at PTWALK_FRAME_PATH_MAX - 1 bytes (path_flags).  Fails with
 *   EINVAL      a flag, or a pfn that does not fit the kernel's type;
 *   ENOENT      no struct page, a free frame, or no file's page
 *               (anonymous memory, swap cache, slab, a kernel page);
 *   EAGAIN      the folio is locked (I/O, truncation), changing, not yet
 *               on the LRU (a file's page still in its lru_add batch), or
 *               its filesystem is being unmounted: ask again;
 *   ENOMEM      no memory for the path;
 *   EPERM       the caller lacks CAP_SYS_ADMIN or CAP_SYS_PTRACE;
 *   EACCES      under lockdown in confidentiality mode.
 */
#define PTWALK_FRAME_PATH_MAX	256
/* path_flags */
#define PTWALK_FRAME_PATH_CUT		(1U << 0)	/* path was cut */
#define PTWALK_FRAME_PATH_DELETED	(1U << 1)	/* the name is unlinked */
#define PTWALK_FRAME_PATH_DISCONNECTED	(1U << 2)	/* no name reaches the
							 * root (a file handle's
							 * alias): path ""
							 */
#define PTWALK_FRAME_FSTYPE_MAX	16

struct ptwalk_frame_file {
	__u32 size;
	__u32 flags;		/* 0 */
	__u64 pfn;		/* in */
	__u64 ino;		/* out: the file's inode number */
	__u64 index;		/* out: the page's offset in the file, in
				 * kernel pages
				 */
	__u32 dev;		/* out: its superblock's device
				 * (new_encode_dev(), as /proc/PID/maps
				 * shows it; stat's st_dev differs on btrfs
				 * subvolumes and overlayfs)
				 */
	__u32 path_flags;	/* out: PTWALK_FRAME_PATH_* */
	char fstype[PTWALK_FRAME_FSTYPE_MAX];	/* out: "ext4", "tmpfs", ... */
	char path[PTWALK_FRAME_PATH_MAX];	/* out, NUL-terminated */
};

#define PTWALK_DMA_TRACK_SIZE	72
#define PTWALK_DMA_QUERY_SIZE	144
#define PTWALK_DMA_QUERY_SIZE_V1	128	/* before expired */
#define PTWALK_DMA_MAPPING_SIZE	80
#define PTWALK_FRAME_FILE_SIZE	312

#endif /* PTWALK_ABI_H */
