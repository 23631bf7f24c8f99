// SPDX-License-Identifier: GPL-2.0
/*
 * hugetlb_basepage_index(): a hugetlb page's index in its file counts
 * huge pages (before 6.7).
 */
#include <linux/pagemap.h>

pgoff_t ptwalk_conftest(struct page *page);
pgoff_t ptwalk_conftest(struct page *page)
{
	return hugetlb_basepage_index(page);
}
