/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel shim (see linux/types.h): the SMP barriers as C11 fences, for
 * module/recorder_ring.h's writer and reader.
 */
#ifndef PTWALK_KSHIM_BARRIER_H
#define PTWALK_KSHIM_BARRIER_H

#include <stdatomic.h>

#define smp_mb()	atomic_thread_fence(memory_order_seq_cst)
#define smp_wmb()	atomic_thread_fence(memory_order_release)
#define smp_rmb()	atomic_thread_fence(memory_order_acquire)
#define smp_load_acquire(p)						\
	({ __typeof__(*(p)) v_ = *(volatile __typeof__(*(p)) *)(p);	\
	   atomic_thread_fence(memory_order_acquire); v_; })
#define smp_store_release(p, v)						\
	do {								\
		atomic_thread_fence(memory_order_release);		\
		*(volatile __typeof__(*(p)) *)(p) = (v);		\
	} while (0)

#endif
