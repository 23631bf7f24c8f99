/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict on one page: what ptwalk found in the page tables against
 * what /proc/PID/pagemap reported.  Pure: both sides are given.
 */
#ifndef PTCOMPARE_CLASSIFY_H
#define PTCOMPARE_CLASSIFY_H

#include <stdbool.h>
#include <stdint.h>
#include "model/page_class.h"
#include "module/ptwalk_abi.h"
#include "parse/pagemap.h"

/* Classifies the page at addr; r is the ptwalk record covering it. */
enum page_class classify_page(const struct ptwalk_record *r, uint64_t addr,
			      const struct pagemap_entry *pm,
			      unsigned int page_shift);

/*
 * A page's class once the range was re-read after a first verdict.
 * changed: either side's answer for the page (frame, kind, swap entry)
 * differs from the read before.  A page that still differs but whose
 * sides moved between reads is changing under the scan, not wrong:
 * transient too.  Only a difference both sides repeat is a mismatch.
 */
enum page_class classify_reread(enum page_class first, enum page_class again,
				bool changed);

/*
 * Whether two reads of a page's pagemap entry give the same answer: both
 * present with one frame, both the same swap entry, or both empty (the
 * flag bits, soft-dirty and exclusive among them, may differ).
 */
bool pagemap_same_answer(const struct pagemap_entry *a,
			 const struct pagemap_entry *b);

#endif /* PTCOMPARE_CLASSIFY_H */
