/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel lockdown in confidentiality mode withholds from ptwalk's
 * openers: the physical addresses of page tables (vtop's upper levels) and
 * every paging IOMMU domain (the kernel's own DMA mappings, and tables a
 * running owner may free under the read: iommu_policy.h), views of kernel
 * memory rather than of the target's.  Integrity mode withholds nothing
 * more than debugfs itself does: /dev/ptwalk answers as before.
 */
#ifndef PTWALK_LOCKDOWN_H
#define PTWALK_LOCKDOWN_H

#include <linux/security.h>

/*
 * security_locked_down() is the only exported way to ask, and it asks
 * about a reason, not a level.  LOCKDOWN_KCORE ("/proc/kcore access",
 * 5.4, 000d388ed3bb) is a confidentiality reason with the same name on
 * every kernel from 5.10 on, and reading kernel memory is what it guards;
 * the kernel logs a refusal under that name (rate-limited).
 */
static inline bool ptwalk_confidentiality_locked(void)
{
	return security_locked_down(LOCKDOWN_KCORE) != 0;
}

#endif /* PTWALK_LOCKDOWN_H */
