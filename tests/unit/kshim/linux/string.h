/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel shim (see types.h): memcpy() and memset(). */
#ifndef PTWALK_KSHIM_STRING_H
#define PTWALK_KSHIM_STRING_H

#include <string.h>

#endif
