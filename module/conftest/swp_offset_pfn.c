// SPDX-License-Identifier: GPL-2.0
/*
 * A PFN swap entry keeps flags (migration A/D) above its PFN, read with
 * swp_offset_pfn() (6.1).
 */
#include <linux/swap.h>
#include <linux/swapops.h>

unsigned long ptwalk_conftest(swp_entry_t swp);
unsigned long ptwalk_conftest(swp_entry_t swp)
{
	__typeof__(is_pfn_swap_entry) *pfn_entry = is_pfn_swap_entry;

	return pfn_entry(swp) ? swp_offset_pfn(swp) : 0;
}
