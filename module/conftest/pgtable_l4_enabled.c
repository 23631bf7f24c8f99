// SPDX-License-Identifier: GPL-2.0
/* arm64 folds page-table levels at boot: pgtable_l4_enabled() (6.9). */
#include <linux/pgtable.h>

__typeof__(pgtable_l4_enabled) *ptwalk_conftest = pgtable_l4_enabled;
