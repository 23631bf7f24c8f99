// SPDX-License-Identifier: GPL-2.0
/*
 * Prints the class table of user/model/page_class.c, one class a line:
 * NAME, a tab, the reference wording (the .doc field).  class-docs.sh
 * holds the man page and the docs to it.
 */
#include <stdio.h>
#include "model/page_class.h"

int main(void)
{
	for (int c = 0; c < NR_CLASSES; c++) {
		const struct page_class_info *k = page_class_info(c);

		if (!k || !k->doc)
			return 1;
		printf("%s\t%s\n", k->name, k->doc);
	}
	return 0;
}
