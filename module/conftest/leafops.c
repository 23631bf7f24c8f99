// SPDX-License-Identifier: GPL-2.0
/* Non-present entries read with leafops.h's softleaf_*() (6.19). */
#include <linux/swap.h>
#include <linux/leafops.h>

softleaf_t ptwalk_conftest(pte_t pte);
softleaf_t ptwalk_conftest(pte_t pte)
{
	return softleaf_from_pte(pte);
}
