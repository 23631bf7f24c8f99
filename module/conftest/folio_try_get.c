// SPDX-License-Identifier: GPL-2.0
/* folio_try_get() and folio_mapping(): the folio API (5.16). */
#include <linux/mm.h>
#include <linux/pagemap.h>

bool ptwalk_conftest(struct folio *folio);
bool ptwalk_conftest(struct folio *folio)
{
	return folio_try_get(folio) && folio_mapping(folio);
}
