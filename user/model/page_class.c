// SPDX-License-Identifier: GPL-2.0
#include "model/page_class.h"

const char *page_class_name(enum page_class c)
{
	static const char *const names[NR_CLASSES] = {
		"match", "not_present", "pfnmap_hidden", "pfn_zeroed",
		"swapped", "transient", "mismatch",
	};

	return c < NR_CLASSES ? names[c] : "?";
}
