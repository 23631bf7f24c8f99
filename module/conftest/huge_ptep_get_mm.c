// SPDX-License-Identifier: GPL-2.0
/* huge_ptep_get() takes the mm and the address (6.11). */
#include <linux/hugetlb.h>

pte_t ptwalk_conftest(struct mm_struct *mm, unsigned long addr, pte_t *ptep);
pte_t ptwalk_conftest(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	return huge_ptep_get(mm, addr, ptep);
}
