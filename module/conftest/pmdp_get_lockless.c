// SPDX-License-Identifier: GPL-2.0
/* pmdp_get_lockless() for every architecture (6.5). */
#include <linux/pgtable.h>

pmd_t ptwalk_conftest(pmd_t *pmdp);
pmd_t ptwalk_conftest(pmd_t *pmdp)
{
	return pmdp_get_lockless(pmdp);
}
