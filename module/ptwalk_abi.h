/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ptwalk binary interface, shared by ptwalk.ko and its userspace clients.
 *
 * Protocol (debugfs file <debugfs>/ptwalk/query, mode 0600, or the misc
 * character device /dev/ptwalk, mode 0600, which kernel lockdown allows):
 *   1. open() the file; each open file description is one private session.
 *   2. write() exactly one struct ptwalk_request in a single call.
 *   3. read() returns whole struct ptwalk_record entries (never a partial
 *      one; a buffer smaller than one record is EINVAL) until read()
 *      returns 0 at the end of the range.  A new write() starts a new query.
 *
 * The records partition [start, end): every page of the range is covered by
 * exactly one record, in ascending address order, and no record crosses a
 * VMA boundary.  A record is an extent: a run of pages whose attributes are
 * equal and whose frames (or swap offsets) are contiguous.
 *
 * All fields are fixed width and little-endian on the supported
 * architectures (x86_64, arm64); the layout is checked at build time on
 * both sides.
 */
#ifndef PTWALK_ABI_H
#define PTWALK_ABI_H

#include <linux/types.h>

/* Bumped on any incompatible change of the structures or their meaning. */
#define PTWALK_ABI_VERSION	1

/* Paths relative to the debugfs mount point. */
#define PTWALK_DEBUGFS_DIR	"ptwalk"
#define PTWALK_QUERY_FILE	"query"		/* binary interface below */
#define PTWALK_TEXT_FILE	"text"		/* "PID [START END]" in, text out */
#define PTWALK_ABI_FILE		"abi_version"	/* decimal ABI version */
#define PTWALK_ABSENT_FILE	"absent_flags"	/* see below */
#define PTWALK_GEOMETRY_FILE	"geometry"	/* see below */

/*
 * <debugfs>/ptwalk/absent_flags (additive: a module without the file
 * has every flag): "0x%x\n", the PTWALK_F_* bits that the running kernel's
 * architecture or configuration does not have, and so never sets: a clear
 * bit among them means "not on this architecture", not "false".  x86-64
 * lacks PTWALK_F_CONT; arm64 lacks PTWALK_F_SOFT_DIRTY and PTWALK_F_UFFD_WP
 * (and so PTE markers, which exist only for uffd-wp); a kernel without
 * guard-region markers (before 6.13) lacks PTWALK_F_GUARD.
 */

/*
 * <debugfs>/ptwalk/geometry (additive: a module without the file predates
 * it, and its kernel is taken to have 4096-byte pages, 2 MiB PMD and 1 GiB
 * PUD leaves, no contiguous groups): one line of space-separated
 * "key=value" pairs, values in decimal, ended by a newline, e.g. on x86-64
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
 * may add keys, never change these.  A module with this file also honours
 * PTWALK_REQ_FOLIO and sets PTWALK_F_GUARD.
 */

/*
 * The same query protocol on a misc character device, /dev/<name>; its
 * ABI version, in decimal, in /sys/class/misc/<name>/abi_version, and its
 * absent flags in /sys/class/misc/<name>/absent_flags (additive, as the
 * debugfs file).
 */
#define PTWALK_DEVICE_NAME	"ptwalk"
#define PTWALK_DEVICE_ABI_ATTR	"abi_version"
/* The device's twin of PTWALK_ABSENT_FILE, in the same format. */
#define PTWALK_DEVICE_ABSENT_ATTR	"absent_flags"
/* The device's twin of PTWALK_GEOMETRY_FILE, in the same format. */
#define PTWALK_DEVICE_GEOMETRY_ATTR	"geometry"

struct ptwalk_request {
	__u32 abi_version;	/* must be PTWALK_ABI_VERSION, else EPROTO */
	__u32 flags;		/* PTWALK_REQ_*; other bits must be 0 */
	__s32 pid;		/* target, in the caller's pid namespace */
	__u32 reserved;		/* must be 0 */
	__u64 start;		/* first address, kernel-page aligned */
	__u64 end;		/* exclusive, kernel-page aligned,
				 * start < end <= task size
				 */
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
	__u8 memtype;		/* enum ptwalk_memtype; 0 in modules older
				 * than PTWALK_REQ_EXTENDED
				 */
};

/*
 * PTWALK_REQ_EXTENDED in ptwalk_request.flags: read() returns
 * struct ptwalk_record_ext instead of struct ptwalk_record (the same record
 * and what follows it), and the module fills memtype, PTWALK_F_DMA_PINNED
 * and node.  Modules older than this flag answer the write with EINVAL, so
 * a client that gets EINVAL may ask again without it, knowing then neither
 * memory type, pinned state nor node.  With PTWALK_REQ_VTOP it asks for
 * nothing more than that promise: ptwalk_vtop has memtype and node.
 * Records split where memtype, PTWALK_F_DMA_PINNED or node change, with or
 * without the flag.
 */
#define PTWALK_REQ_EXTENDED	(1U << 1)

struct ptwalk_record_ext {
	struct ptwalk_record rec;
	__s32 node;		/* NUMA node of the frames (page_to_nid()),
				 * or PTWALK_NODE_NONE: no frame, or no
				 * struct page
				 */
	__u8 folio_shift;	/* with PTWALK_REQ_FOLIO: log2 of the bytes
				 * of the folio (compound page) each frame
				 * belongs to, page_size's shift for a
				 * single page; 0: no frame, no struct page,
				 * or the flag not asked for
				 */
	__u8 reserved[3];	/* 0 */
};

/*
 * PTWALK_REQ_FOLIO in ptwalk_request.flags, with PTWALK_REQ_EXTENDED or
 * PTWALK_REQ_VTOP: the module fills ptwalk_record_ext.folio_shift (or
 * ptwalk_vtop.folio_shift).  Modules older than the flag (those without
 * the geometry file) answer the write with EINVAL.  Records split where
 * the folio size changes, with or without the flag.  The folio is read
 * under the page table lock that keeps the frame mapped, without a
 * reference: a split or a collapse racing with the read makes it stale,
 * as pagemap's own flags are.
 */
#define PTWALK_REQ_FOLIO	(1U << 2)

/*
 * Translating one address, like crash's vtop (PTWALK_REQ_VTOP in
 * ptwalk_request.flags): start is the address, any alignment, below the
 * target's task size (else ERANGE); end must be 0.  The next read() returns
 * one struct ptwalk_vtop (a smaller buffer is EINVAL), later reads return 0.
 * Modules older than this flag answer the write with EINVAL.
 *
 * The raw entries of the upper levels hold physical addresses of page
 * tables: like PFNs, they are for CAP_SYS_ADMIN only (the files' rule).
 */
#define PTWALK_REQ_VTOP		(1U << 0)

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
	__u8 folio_shift;	/* as ptwalk_record_ext.folio_shift (with
				 * PTWALK_REQ_FOLIO; else 0)
				 */
	__s16 node;		/* as ptwalk_record_ext.node; 0 in modules
				 * older than PTWALK_REQ_EXTENDED
				 */
};

/*
 * The target itself (PTWALK_REQ_TASK in ptwalk_request.flags, no other
 * flag): start and end must be 0.  The write fails as a range query's
 * would (ESRCH: no such task; ENXIO: it has no memory, a kernel thread, a
 * zombie or a task past exit_mm()), so a success also says the task had
 * its mm then.  The next read() returns one struct ptwalk_task (a smaller
 * buffer is EINVAL), later reads return 0.  What /proc/PID/stat would
 * tell of the same, without its open, formatting and close for each
 * process (ptcompare --all).  Modules older than this flag answer the
 * write with EINVAL.
 */
#define PTWALK_REQ_TASK		(1U << 4)

/* Bytes of ptwalk_task.comm: the kernel's TASK_COMM_LEN, NUL included. */
#define PTWALK_COMM_LEN		16

struct ptwalk_task {
	__s32 pid;		/* as asked */
	__s32 tgid;		/* its thread group (process), in the
				 * caller's pid namespace: pid itself for a
				 * process, another for one of its threads
				 */
	char comm[PTWALK_COMM_LEN]; /* its name (task->comm at the write),
				     * NUL-terminated and NUL-padded
				     */
};

/*
 * The device's view (PTWALK_REQ_IOMMU in ptwalk_request.flags): what the
 * IOMMU domain a device is attached to translates each page of a range of
 * device addresses (IOVAs) to.  The write is then one whole struct
 * ptwalk_iommu_request, not a struct ptwalk_request (modules older than
 * the flag answer a write of that size with EINVAL: nothing else to
 * discover).  Its req: flags exactly PTWALK_REQ_IOMMU, pid 0, reserved 0,
 * start and end the IOVA range, page aligned, start < end; device a PCI
 * address "DDDD:BB:DD.F" (hex, as in /sys/bus/pci/devices), NUL-terminated
 * within the array.  The write fails with
 *   EINVAL      a malformed request or device name;
 *   ENODEV      no such PCI device;
 *   ENOENT      the device has an IOMMU group but no domain attached (the
 *               domain type cannot be read);
 *   EOPNOTSUPP  a domain that cannot be asked this way (SVA, nested,
 *               platform, a type this module does not know);
 *   ERANGE      the range is not inside the domain's aperture.
 * read() then returns whole struct ptwalk_iommu_record entries, which
 * partition the range in ascending IOVA order like ptwalk_record: a record
 * is a run of pages of one domain whose frames are contiguous (or all
 * untranslated).  A device attached to another domain between two reads
 * (a VFIO container closed) is seen: the records say which domain
 * answered each page.  Later errors of read(): ENODEV once the device has
 * left its group, EINTR on a fatal signal.
 */
#define PTWALK_REQ_IOMMU	(1U << 3)

/* Bytes of ptwalk_iommu_request.device, the terminating NUL included. */
#define PTWALK_IOMMU_DEVICE_MAX	64

struct ptwalk_iommu_request {
	struct ptwalk_request req;
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

#define PTWALK_REQUEST_SIZE	32
#define PTWALK_RECORD_SIZE	48
#define PTWALK_RECORD_EXT_SIZE	56
#define PTWALK_VTOP_SIZE	112
#define PTWALK_IOMMU_REQUEST_SIZE	96
#define PTWALK_IOMMU_RECORD_SIZE	56
#define PTWALK_TASK_SIZE	24

#endif /* PTWALK_ABI_H */
