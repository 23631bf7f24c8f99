// SPDX-License-Identifier: GPL-2.0
/*
 * The geometry line (geometry.h).  Every size is the running kernel's own
 * constant or run-time answer (arch.h), none written here: the same source
 * states 4K, 16K and 64K granules alike.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include "arch.h"
#include "geometry.h"

int ptwalk_format_geometry(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 "page_size=%lu levels=%u pte=%lu cont_pte=%lu pmd=%lu cont_pmd=%lu pud=%lu\n",
			 PAGE_SIZE, ptwalk_pgtable_levels(), PAGE_SIZE,
			 ptwalk_arch_cont_pte_size(), PMD_SIZE,
			 ptwalk_arch_cont_pmd_size(),
			 ptwalk_arch_pud_leaf_size());
}
