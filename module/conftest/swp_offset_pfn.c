// SPDX-License-Identifier: GPL-2.0
/*
 * A PFN swap entry keeps flags (migration A/D) above its PFN, read with
 * swp_offset_pfn() (6.1).
 */
#include <linux/swap.h>
#include <linux/swapops.h>

__typeof__(is_pfn_swap_entry) *ptwalk_conftest_pfn_entry = is_pfn_swap_entry;
__typeof__(swp_offset_pfn) *ptwalk_conftest = swp_offset_pfn;
