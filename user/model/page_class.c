// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include "model/page_class.h"

static const struct page_class_info classes[NR_CLASSES] = {
	[CLASS_MATCH] = {
		.name = "match",
		.column = "match",
		.page = "the page tables and pagemap agree",
		.doc = "Both sides agree: the same frame (the zero page and the huge zero page included).",
	},
	[CLASS_NOT_PRESENT] = {
		.name = "not_present",
		.column = "absent",
		.page = "neither side maps a frame or holds a swap entry",
		.doc = "Neither side maps a frame or holds a swap entry.",
	},
	[CLASS_PFNMAP_HIDDEN] = {
		.name = "pfnmap_hidden",
		.column = "pfnmap",
		.page = "a VM_PFNMAP/VM_IO mapping: pagemap shows a hole, ptwalk read the frame from the page tables. Expected.",
		.note = "a VM_PFNMAP/VM_IO mapping (remap_pfn_range, /dev/mem, a PCI BAR, [vvar]); pagemap skips these and shows holes, ptwalk read the frames from the page tables. Expected.",
		.doc = "A VM_PFNMAP or VM_IO mapping (a remap_pfn_range() driver mapping, /dev/mem, a PCI BAR mapped through resourceN, [vvar]): pagemap skips such mappings and shows a hole; ptwalk read the frame from the page tables, and the finding gives its physical address. Expected.",
	},
	[CLASS_PFN_ZEROED] = {
		.name = "pfn_zeroed",
		.column = "zeroed",
		.page = "pagemap hides PFNs from this reader (no CAP_SYS_ADMIN)",
		.doc = "Pagemap hid the frame numbers because its reader lacks CAP_SYS_ADMIN. Said once, in a note, with the count.",
	},
	[CLASS_SWAPPED] = {
		.name = "swapped",
		.column = "swapped",
		.page = "both sides show the same swap entry",
		.note = "not in memory; both sides show the same swap entry.",
		.doc = "Both sides show the same swap (or migration) entry.",
	},
	[CLASS_GUARD] = {
		.name = "guard",
		.column = "guard",
		.page = "a guard region (MADV_GUARD_INSTALL): the page table holds a guard marker, any access faults. Expected.",
		.note = "guard regions (MADV_GUARD_INSTALL, 6.13+: allocators and thread stacks fence memory with them); the page tables hold a guard marker, no frame, and any access faults with SIGSEGV. pagemap shows them as swapped-out markers, with its guard bit (58) from 6.15. Expected.",
		.doc = "A guard region (MADV_GUARD_INSTALL, 6.13+): ptwalk found a guard marker in the page table, no frame; any access to the page faults. pagemap shows the marker as a non-present entry (with its guard bit, 58, from 6.15). Expected, never a mismatch.",
	},
	[CLASS_TRANSIENT] = {
		.name = "transient",
		.column = "transnt",
		.page = "the two differed, then agreed when read again or one of them changed its answer: the process changed the page meanwhile",
		.note = "the process changed these pages during the scan (fault, reclaim, migration, unmap, a contiguous group folded or split); they differed, then agreed when read again, or one side's answer changed between the reads.",
		.doc = "The two sides differed, and when the pages were read again either they agreed or one side's answer (frame, swap entry, kind of entry) had changed: the process changed them during the scan. The report gives the values of the last read.",
	},
	[CLASS_MISMATCH] = {
		.name = "mismatch",
		.column = "MISMTCH",
		.page = "the page tables and pagemap disagree, and kept disagreeing, each the same way, when read again",
		.note = "the page tables and pagemap disagree, and kept disagreeing, each side giving the same answer, when read again. This is what ptcompare looks for.",
		.doc = "A difference that survives three re-reads, each side giving the same answer every time: between the page tables and pagemap, or between the page tables and the frame's flags in /proc/kpageflags. This is what ptcompare looks for.",
	},
};

const struct page_class_info *page_class_info(enum page_class c)
{
	return c < NR_CLASSES ? &classes[c] : NULL;
}

const char *page_class_name(enum page_class c)
{
	return c < NR_CLASSES ? classes[c].name : "?";
}
