/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the unit, fuzz and VM tests share and ptcompare does not use,
 * kept out of user/ so that ptcompare carries no code only tests call.
 * record_find.c goes into every test program (the VM suite's too),
 * phys_set.c into those linked with engine/phys_map.c.
 */
#ifndef PTCOMPARE_TESTS_LIB_H
#define PTCOMPARE_TESTS_LIB_H

#include <stddef.h>
#include <stdint.h>
#include "module/ptwalk_abi.h"

struct phys_set;

/* The record covering addr, or NULL; recs sorted as the module sends them. */
const struct ptwalk_record *ptwalk_find(const struct ptwalk_record *recs,
					size_t n, uint64_t addr,
					unsigned int page_shift);

/*
 * An empty set for the frames of physical [start, end) (page aligned,
 * start < end), keeping at most max mappings; allocates nothing yet.
 */
void phys_set_init(struct phys_set *s, uint64_t start, uint64_t end,
		   unsigned int page_shift, size_t max);

#endif /* PTCOMPARE_TESTS_LIB_H */
