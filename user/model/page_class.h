/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classes of a page: what ptwalk found in the page tables against
 * what /proc/PID/pagemap reported, after re-reads.  engine/classify.c
 * decides them; the table behind page_class_info() is the one place that
 * words them, for every output and for the documentation.
 */
#ifndef PTCOMPARE_MODEL_PAGE_CLASS_H
#define PTCOMPARE_MODEL_PAGE_CLASS_H

enum page_class {
	CLASS_MATCH,		/* both agree (zero page included) */
	CLASS_NOT_PRESENT,	/* neither maps a frame nor holds swap */
	CLASS_PFNMAP_HIDDEN,	/* VM_PFNMAP/VM_IO frame pagemap shows as hole */
	CLASS_PFN_ZEROED,	/* pagemap hides PFNs (no CAP_SYS_ADMIN) */
	CLASS_SWAPPED,		/* both report the same swap entry */
	CLASS_GUARD,		/* behind a guard-region marker (6.13+) */
	CLASS_TRANSIENT,	/* differed, agreed after a re-read */
	CLASS_MISMATCH,		/* a difference that survives re-reading */
	NR_CLASSES,
};

struct page_class_info {
	/* "pfnmap_hidden": JSON keys and values, findings, the verdict */
	const char *name;
	/* the head of its column in the text report's VMA table */
	const char *column;
	/* vtop: what the class says about the one page translated */
	const char *page;
	/*
	 * The text report, once if the class was seen: why it is, or is not,
	 * a problem; NULL when there is nothing to say.
	 */
	const char *note;
	/*
	 * The reference: the man page's CLASSES section and the docs' class
	 * table say this (tests/layout/class-docs.sh checks them).
	 */
	const char *doc;
};

/* The class's entry of the table; NULL beyond the classes. */
const struct page_class_info *page_class_info(enum page_class c);

/* "match", "not_present", ...; "?" beyond the classes. */
const char *page_class_name(enum page_class c);

#endif /* PTCOMPARE_MODEL_PAGE_CLASS_H */
