// SPDX-License-Identifier: GPL-2.0
/* Guard-region markers, read with swapops.h's helper (6.13 to 6.18). */
#include <linux/swap.h>
#include <linux/swapops.h>

__typeof__(is_guard_swp_entry) *ptwalk_conftest = is_guard_swp_entry;
