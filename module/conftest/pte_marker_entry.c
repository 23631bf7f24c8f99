// SPDX-License-Identifier: GPL-2.0
/* PTE markers (5.19). */
#include <linux/swap.h>
#include <linux/swapops.h>

__typeof__(is_pte_marker_entry) *ptwalk_conftest = is_pte_marker_entry;
