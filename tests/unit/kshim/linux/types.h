/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel shim for building module/extent.c in userspace (tests/unit/
 * test_extent.c): just what extent.c and extent.h use.  The uapi header
 * this one shadows gives __u64 and friends, ptwalk_abi.h's types; the
 * kernel's short names and bool come on top.
 */
#ifndef PTWALK_KSHIM_TYPES_H
#define PTWALK_KSHIM_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;

#endif
