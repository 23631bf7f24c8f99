/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classes of a page: what ptwalk found in the page tables against
 * what /proc/PID/pagemap reported, after re-reads.  engine/classify.c
 * decides them; the names here are the ones every output uses.
 */
#ifndef PTCOMPARE_MODEL_PAGE_CLASS_H
#define PTCOMPARE_MODEL_PAGE_CLASS_H

enum page_class {
	CLASS_MATCH,		/* both agree (zero page included) */
	CLASS_NOT_PRESENT,	/* neither maps a frame nor holds swap */
	CLASS_PFNMAP_HIDDEN,	/* VM_PFNMAP/VM_IO frame pagemap shows as hole */
	CLASS_PFN_ZEROED,	/* pagemap hides PFNs (no CAP_SYS_ADMIN) */
	CLASS_SWAPPED,		/* both report the same swap entry */
	CLASS_TRANSIENT,	/* differed, agreed after a re-read */
	CLASS_MISMATCH,		/* a difference that survives re-reading */
	NR_CLASSES,
};

/* "match", "not_present", ...; "?" beyond the classes. */
const char *page_class_name(enum page_class c);

#endif /* PTCOMPARE_MODEL_PAGE_CLASS_H */
