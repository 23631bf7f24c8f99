/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel shim (see types.h): READ_ONCE() and WRITE_ONCE(), one thread. */
#ifndef PTWALK_KSHIM_COMPILER_H
#define PTWALK_KSHIM_COMPILER_H

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

#endif
