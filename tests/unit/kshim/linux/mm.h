/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel shim (see types.h): the base page size of x86-64. */
#ifndef PTWALK_KSHIM_MM_H
#define PTWALK_KSHIM_MM_H

#define PAGE_SHIFT	12

#endif
