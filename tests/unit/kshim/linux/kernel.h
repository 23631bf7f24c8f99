/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel shim (see types.h): memset() and min(). */
#ifndef PTWALK_KSHIM_KERNEL_H
#define PTWALK_KSHIM_KERNEL_H

#include <string.h>
#include <linux/types.h>

#define min(a, b)	((a) < (b) ? (a) : (b))

#endif
