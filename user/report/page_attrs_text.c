// SPDX-License-Identifier: GPL-2.0
/* A page's attributes as the text report's phrase. */
#include <inttypes.h>
#include "module/ptwalk_names.h"
#include "report/page_attrs.h"

const char *page_attrs_text(char *buf, size_t size,
			    const struct page_detail *d)
{
	const char *mt = ptwalk_memtype_name(walk_memtype(d));
	enum dma_pin_state pin = walk_pin_state(d);
	int32_t node = walk_node(d);
	size_t len = 0;

	buf[0] = '\0';
	if (mt)
		len += (size_t)snprintf(buf + len, size - len, "%s", mt);
	if (pin != PIN_UNKNOWN && len < size)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					len ? ", " : "",
					pin == PIN_YES ? "dma-pinned" :
							 "not pinned");
	if (node >= 0 && len < size)
		snprintf(buf + len, size - len, "%snode %" PRId32,
			 len ? ", " : "", node);
	return buf;
}
