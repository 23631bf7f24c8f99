// SPDX-License-Identifier: GPL-2.0
/* Device-exclusive swap entries (5.14). */
#include <linux/swap.h>
#include <linux/swapops.h>

__typeof__(is_device_exclusive_entry) *ptwalk_conftest =
	is_device_exclusive_entry;
